// SPDX-License-Identifier: GPL-2.0-or-later
// The game's name hash (length and MD5 of the folded path), hash lists read with every line
// checked against it, and hashed names resolved from the lists and from gbx references.
#include "archive/ops/HashedNames.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "archive/cipher/Crypto.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Cpus.hpp"
#include "common/File.hpp"
#include "gbx/References.hpp"

namespace pakfs::archive {

namespace {

constexpr std::size_t kHashedNameSize = 34;

bool isHexDigit(char c, bool upperOnly) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (!upperOnly && c >= 'a' && c <= 'f');
}

bool isHexName(std::string_view s, bool upperOnly) {
    if (s.size() != kHashedNameSize) return false;
    for (char c : s)
        if (!isHexDigit(c, upperOnly)) return false;
    return true;
}

std::string join(const std::vector<std::string>& parts, std::size_t from, std::size_t to,
                 char separator) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) {
        if (i > from) out.push_back(separator);
        out += parts[i];
    }
    return out;
}

std::string_view trim(std::string_view s) {
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string hashedName(std::string_view backslashPath) {
    std::string hashed = foldCase(backslashPath);
    std::replace(hashed.begin(), hashed.end(), '/', '\\');
    Md5Digest digest = md5(std::string_view(hashed));
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(kHashedNameSize);
    auto put = [&](std::uint8_t b) {
        out.push_back(kHex[b & 0xF]);
        out.push_back(kHex[b >> 4]);
    };
    put(std::uint8_t(hashed.size() & 0xFF));
    for (std::uint8_t b : digest) put(b);
    return out;
}

bool looksHashed(std::string_view name) {
    return isHexName(name, true);
}

std::map<std::size_t, std::string> resolveHashedNames(const std::vector<HashedEntryName>& entries,
                                                      const std::vector<std::string>& candidates) {
    // Hashed entries by folded folder, then by stored name; and every prefix of those folders,
    // so a candidate's splits stop as soon as its folder prefix leads to no hashed entry.
    std::unordered_map<std::string, std::unordered_map<std::string, std::vector<std::size_t>>>
        byFolder;
    std::unordered_set<std::string> prefixes;
    std::vector<std::string> entryFolders(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (!looksHashed(entries[i].name)) continue;
        auto parts = gbx::splitRefPath(entries[i].folder);
        entryFolders[i] = join(parts, 0, parts.size(), '/');
        std::string folded = foldCase(entryFolders[i]);
        byFolder[folded][entries[i].name].push_back(i);
        for (std::size_t k = 0; k <= parts.size(); ++k)
            prefixes.insert(foldCase(join(parts, 0, k, '/')));
    }

    std::map<std::size_t, std::string> out;
    if (byFolder.empty()) return out;
    for (const auto& candidate : candidates) {
        auto parts = gbx::splitRefPath(candidate);
        std::string prefix;  // folded parts[0..k) joined by '/'
        for (std::size_t k = 0; k < parts.size(); ++k) {
            if (k > 0) prefix += (k > 1 ? "/" : "") + foldCase(parts[k - 1]);
            if (!prefixes.count(prefix)) break;
            auto folder = byFolder.find(prefix);
            if (folder == byFolder.end()) continue;
            auto hit = folder->second.find(hashedName(join(parts, k, parts.size(), '\\')));
            if (hit == folder->second.end()) continue;
            std::string rest = join(parts, k, parts.size(), '/');
            for (std::size_t index : hit->second) {
                const std::string& base = entryFolders[index];
                out.try_emplace(index, base.empty() ? rest : base + "/" + rest);
            }
        }
    }
    return out;
}

std::map<std::string, std::string> readHashList(std::string_view text, std::size_t* rejected) {
    std::map<std::string, std::string> out;
    std::size_t bad = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
    std::optional<std::string> pending;  // a hash line waiting for its path (two-line form)
    auto add = [&](std::string hash, std::string_view path) {
        for (char& c : hash)
            if (c >= 'a' && c <= 'f') c = char(c - 'a' + 'A');
        if (hashedName(path) == hash)
            out.try_emplace(std::move(hash), std::string(path));
        else
            ++bad;
    };
    while (!text.empty()) {
        std::size_t eol = text.find('\n');
        std::string_view line = trim(text.substr(0, eol));
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        if (line.empty() || line.front() == '#') continue;  // blank, or a comment
        // One line: the hash, white space, the path (the lists players share).
        const std::size_t space = line.find_first_of(" \t");
        if (space != std::string_view::npos && isHexName(line.substr(0, space), false)) {
            if (pending) ++bad;  // the previous hash had no path
            pending.reset();
            add(std::string(line.substr(0, space)), trim(line.substr(space + 1)));
            continue;
        }
        if (isHexName(line, false)) {
            if (pending) ++bad;  // a hash without a path
            pending.emplace(line);
            continue;
        }
        // Two lines: the path after its hash line.
        if (pending) {
            add(std::move(*pending), line);
            pending.reset();
        } else {
            ++bad;  // a path without a hash, or a malformed line
        }
    }
    if (pending) ++bad;
    if (rejected) *rejected = bad;
    return out;
}

HashList readHashListFile(const std::filesystem::path& path, std::size_t* rejected) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path.string() + ": is a folder, not a name list");
    if (!std::filesystem::exists(path, ec))
        throw Error(path.string() + ": cannot open the name list");
    // A FIFO or device given as the list is refused ("not a regular file"), not waited on.
    auto file = InputFile::open(path);
    const Bytes bytes = file->readAt(0, std::size_t(file->size()));
    HashList list = readHashList(std::string(bytes.begin(), bytes.end()), rejected);
    if (list.empty())
        throw Error(path.string() +
                    ": no name in it hashes to its hash (lines: HASH NAME, or HASH then NAME)");
    return list;
}

std::vector<HashList> readHashListFiles(const std::vector<std::string>& files,
                                        std::vector<std::string>& warnings) {
    std::vector<HashList> lists;
    for (const auto& file : files) {
        std::size_t rejected = 0;
        lists.push_back(readHashListFile(file, &rejected));
        if (rejected > 0)
            warnings.push_back(file + ": " + std::to_string(rejected) +
                               " lines left out (a name that does not hash to its hash, a hash "
                               "without a name, or neither)");
    }
    return lists;
}

std::map<std::size_t, std::string> resolveFromLists(const PakIndex& pak,
                                                    const std::vector<HashList>& lists) {
    std::map<std::size_t, std::string> out;
    const auto& entries = pak.entries();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const PakEntry& e = entries[i];
        if (!looksHashed(e.name)) continue;
        for (const auto& list : lists) {
            auto it = list.find(e.name);
            if (it == list.end()) continue;
            std::string rest = it->second;
            std::replace(rest.begin(), rest.end(), '\\', '/');
            const std::string folder =
                e.folder >= 0 ? pak.folders()[std::size_t(e.folder)].path : std::string();
            out.emplace(i, folder.empty() ? rest : folder + "/" + rest);
            break;
        }
    }
    return out;
}

std::optional<std::string> refCandidatePath(const std::string& referrerPath,
                                            const gbx::RefTable& refs,
                                            const gbx::ExternalRef& ref) {
    if (ref.byResource() || gbx::splitRefPath(ref.name).empty()) return std::nullopt;
    auto folder = gbx::splitRefPath(referrerPath);
    if (!folder.empty()) folder.pop_back();  // the referring file's name
    std::string problem;
    auto target = gbx::referenceTarget(std::move(folder), refs, ref, 0, problem);
    if (!target) return std::nullopt;
    return join(*target, 0, target->size(), '/');
}

std::vector<std::map<std::size_t, std::string>> resolvePacksNames(
    const std::vector<std::shared_ptr<const PakIndex>>& paks) {
    std::vector<std::map<std::size_t, std::string>> resolved(paks.size());
    // Each pack's entries as resolveHashedNames sees them; packs without a hashed name are
    // looked at only for the references of their gbx files.
    std::vector<std::vector<HashedEntryName>> names(paks.size());
    bool anyHashed = false;
    for (std::size_t p = 0; p < paks.size(); ++p)
        for (const auto& e : paks[p]->entries()) {
            std::string folder =
                e.folder >= 0 ? paks[p]->folders()[std::size_t(e.folder)].path : "";
            anyHashed = anyHashed || looksHashed(e.name);
            names[p].push_back({std::move(folder), e.name});
        }
    if (!anyHashed) return resolved;
    // The reference tables, read once: they come before the first node read, so they decode
    // whatever the chunks. Each is the start of one entry decoded: on every CPU pak may use
    // (a big pack holds tens of thousands of gbx files).
    std::vector<std::vector<std::optional<gbx::RefTable>>> refs(paks.size());
    std::vector<std::pair<std::size_t, std::size_t>> jobs;  // (pack, entry)
    for (std::size_t p = 0; p < paks.size(); ++p) {
        const auto& entries = paks[p]->entries();
        refs[p].resize(entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (!entries[i].encrypted || paks[p]->hasKey()) jobs.emplace_back(p, i);
    }
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t j; (j = next.fetch_add(1)) < jobs.size();) {
            const auto [p, i] = jobs[j];
            const PakEntry& e = paks[p]->entries()[i];
            try {
                if (isGbxEntry(*paks[p], e)) refs[p][i] = readGbxEntryRefs(paks[p], e).refs;
            } catch (const std::exception&) {
                // Not readable: it names nothing.
            }
        }
    };
    // A thread for every 256 files at most: a small pack is read on this one alone.
    const std::size_t threads =
        std::min<std::size_t>(std::size_t(std::max(1, availableCpus())), jobs.size() / 256 + 1);
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    // A hashed gbx file's own references are relative to its real path, known only once it is
    // resolved: go round until nothing new is found. The game merges its packs into one tree,
    // so a path one pack's file names may be a file of another.
    std::size_t found = 0;
    for (std::size_t round = 0; round < 8; ++round) {
        std::vector<std::string> candidates;
        std::unordered_set<std::string> seen;
        for (std::size_t p = 0; p < paks.size(); ++p) {
            const auto& entries = paks[p]->entries();
            for (std::size_t i = 0; i < entries.size(); ++i) {
                if (!refs[p][i]) continue;
                auto it = resolved[p].find(i);
                const std::string& path = it != resolved[p].end() ? it->second : entries[i].path;
                for (const auto& ref : refs[p][i]->externals)
                    if (auto c = refCandidatePath(path, *refs[p][i], ref))
                        if (seen.insert(*c).second) candidates.push_back(std::move(*c));
            }
        }
        std::size_t total = 0;
        for (std::size_t p = 0; p < paks.size(); ++p) {
            resolved[p] = resolveHashedNames(names[p], candidates);
            total += resolved[p].size();
        }
        if (total == found) break;
        found = total;
    }
    return resolved;
}

std::map<std::size_t, std::string> resolvePackNames(const std::shared_ptr<const PakIndex>& pak) {
    return resolvePacksNames({pak}).front();
}

HashedNameCount countHashedNames(const PakIndex& pak) {
    HashedNameCount n;
    for (const auto& e : pak.entries()) {
        if (!looksHashed(e.name)) continue;
        const std::size_t slash = e.path.rfind('/');
        const std::string_view last = slash == std::string::npos
                                          ? std::string_view(e.path)
                                          : std::string_view(e.path).substr(slash + 1);
        if (last == e.name)
            ++n.left;
        else
            ++n.resolved;
    }
    return n;
}

}  // namespace pakfs::archive
