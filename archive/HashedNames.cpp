// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/HashedNames.hpp"

#include "archive/Crypto.hpp"
#include "archive/EntryReader.hpp"
#include "archive/GbxEntry.hpp"
#include "archive/PakIndex.hpp"

namespace pakfs::archive {

namespace {

std::string lowerAscii(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

std::string toBackslashes(std::string s) {
    for (char& c : s)
        if (c == '/') c = '\\';
    return s;
}

}  // namespace

std::string hashedName(std::string_view backslashPath) {
    std::string lower = lowerAscii(backslashPath);
    Md5Digest d = md5(std::string_view(lower));
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    out.reserve(34);
    auto put = [&](std::uint8_t b) {
        out.push_back(kHex[b & 0xF]);  // the low nibble first
        out.push_back(kHex[b >> 4]);
    };
    put(std::uint8_t(lower.size() & 0xFF));
    for (std::uint8_t b : d) put(b);
    return out;
}

bool looksHashed(std::string_view name) {
    if (name.size() != 34) return false;
    for (char c : name)
        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) return false;
    return true;
}

std::map<std::size_t, std::string> resolveHashedNames(const std::vector<HashedEntryName>& entries,
                                                      const std::vector<std::string>& candidates) {
    // (lower-cased folder, hash) -> candidate path, over every split of every candidate.
    std::map<std::pair<std::string, std::string>, std::string> known;
    for (const auto& c : candidates) {
        std::string path = c;
        for (char& ch : path)
            if (ch == '\\') ch = '/';
        while (!path.empty() && path.front() == '/') path.erase(path.begin());
        if (path.empty()) continue;
        // Stored at the root as the hash of the whole path, or in any folder of it as the
        // hash of the rest.
        known.emplace(std::pair{std::string(), hashedName(toBackslashes(path))}, path);
        for (std::size_t s = path.find('/'); s != std::string::npos; s = path.find('/', s + 1))
            known.emplace(std::pair{lowerAscii(path.substr(0, s)),
                                    hashedName(toBackslashes(path.substr(s + 1)))},
                          path);
    }
    std::map<std::size_t, std::string> out;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (!looksHashed(entries[i].name)) continue;
        auto it = known.find({lowerAscii(entries[i].folder), entries[i].name});
        if (it != known.end()) out.emplace(i, it->second);
    }
    return out;
}

std::optional<std::string> refCandidatePath(const std::string& referrerPath,
                                            const gbx::RefTable& refs,
                                            const gbx::ExternalRef& ref) {
    if (ref.byResource()) return std::nullopt;
    std::vector<std::string> parts;
    for (std::size_t at = 0; at <= referrerPath.size();) {
        std::size_t slash = referrerPath.find('/', at);
        if (slash == std::string::npos) slash = referrerPath.size();
        if (slash > at) parts.push_back(referrerPath.substr(at, slash - at));
        at = slash + 1;
    }
    if (parts.empty()) return std::nullopt;
    parts.pop_back();  // the referrer's own name
    if (refs.ancestorLevel > parts.size()) return std::nullopt;
    parts.resize(parts.size() - refs.ancestorLevel);
    std::string sub;
    if (ref.folderIndex && *ref.folderIndex > 0) {
        if (*ref.folderIndex > refs.folderPaths.size()) return std::nullopt;
        sub = refs.folderPaths[*ref.folderIndex - 1];
    }
    std::string path;
    for (const auto& p : parts) path += p + "/";
    path += sub + ref.name;
    for (char& c : path)
        if (c == '\\') c = '/';
    if (path.find("..") != std::string::npos) return std::nullopt;
    return path;
}

std::map<std::size_t, std::string> resolvePackNames(const std::shared_ptr<const PakIndex>& pak) {
    const auto& entries = pak->entries();
    std::vector<HashedEntryName> names;
    bool anyHashed = false;
    for (const auto& e : entries) {
        std::string folder = e.folder >= 0 ? pak->folders()[std::size_t(e.folder)].path : "";
        anyHashed = anyHashed || looksHashed(e.name);
        names.push_back({std::move(folder), e.name});
    }
    std::map<std::size_t, std::string> resolved;
    if (!anyHashed) return resolved;
    // The reference tables, read once: they come before the first node read, so they decode
    // whatever the chunks.
    std::vector<std::optional<gbx::RefTable>> refs(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        try {
            if (entries[i].encrypted && !pak->hasKey()) continue;
            if (isGbxEntry(*pak, entries[i])) refs[i] = readGbxEntryRefs(pak, entries[i]).refs;
        } catch (const Error&) {
            // Not readable: it names nothing.
        }
    }
    // A hashed gbx file's own references are relative to its real path, known only once it is
    // resolved: go round until nothing new is found.
    for (std::size_t round = 0; round < 8; ++round) {
        std::vector<std::string> candidates;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (!refs[i]) continue;
            auto it = resolved.find(i);
            const std::string& path = it != resolved.end() ? it->second : entries[i].path;
            for (const auto& ref : refs[i]->externals)
                if (auto c = refCandidatePath(path, *refs[i], ref)) candidates.push_back(*c);
        }
        auto found = resolveHashedNames(names, candidates);
        if (found.size() == resolved.size()) break;
        resolved = std::move(found);
    }
    return resolved;
}

}  // namespace pakfs::archive
