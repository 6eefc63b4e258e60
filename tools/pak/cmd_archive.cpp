// SPDX-License-Identifier: GPL-2.0-or-later
// pak info / ls / cat / extract / pack / check
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/entry/Extract.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/HashedNames.hpp"
#include "archive/entry/PakOpener.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "common/Progress.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"

namespace fs = std::filesystem;
using namespace pakfs::archive;

namespace pakfs::cli {

std::shared_ptr<const PakIndex> openPak(const std::string& path, const KeyOptions& keys,
                                        bool resolveNames,
                                        const std::vector<std::string>& nameLists, bool salvage) {
    // The file first: a wrong path is "no such file" or "not a pak", not a bad name list.
    checkPakStart(path);
    PakOpenOptions options{resolveNames, {}, salvage};
    for (const auto& file : nameLists) {
        std::size_t rejected = 0;
        options.nameLists.push_back(readHashListFile(file, &rejected));
        if (rejected > 0)
            std::fprintf(stderr,
                         "pak: warning: %s: %zu lines left out (a name that does not hash to its "
                         "hash, a hash without a name, or neither)\n",
                         file.c_str(), rejected);
    }
    auto opened = archive::openPak(path, keys, options);
    for (const auto& w : opened.warnings) std::fprintf(stderr, "pak: warning: %s\n", w.c_str());
    if (!opened.pak->metadataError().empty())
        std::fprintf(stderr, "pak: warning: %s\n", opened.pak->metadataError().c_str());
    return opened.pak;
}

const PakEntry* findEntry(const PakIndex& pak, const std::string& path) {
    for (const auto& e : pak.entries())
        if (e.path == path) return &e;
    auto lower = [](std::string s) {
        for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    std::string want = lower(path);
    for (const auto& e : pak.entries())
        if (lower(e.path) == want) return &e;
    return nullptr;
}

namespace {

void writeAll(int fd, ByteSpan data, const std::string& what) {
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    while (n > 0) {
        ssize_t put = ::write(fd, p, n);
        if (put < 0) {
            if (errno == EINTR) continue;
            throw Error(what + ": write error: " + std::strerror(errno));
        }
        p += put;
        n -= std::size_t(put);
    }
}

// Whether an entry was asked for: exact path or a folder prefix.
// Whether `path` is one of `wanted` or inside one of them, its case ignored as the game
// ignores it (and as pak cat finds a file).
bool selected(const std::vector<std::string>& wanted, const std::string& path) {
    if (wanted.empty()) return true;
    const std::string p = foldCase(path);
    for (const auto& want : wanted) {
        std::string w = foldCase(want);
        while (!w.empty() && w.back() == '/') w.pop_back();
        if (p == w || (p.size() > w.size() && p.starts_with(w) && p[w.size()] == '/')) return true;
    }
    return false;
}

// "-" for a plain file; for a gbx file "gbx:" and how it decodes (GbxDecodeKind), or "gbx!"
// when it is refused; for a counter-mode file (gbx or not) counterModeKind.
std::string entryKind(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e) {
    if (e.encrypted && !pak->hasKey()) return "locked";  // needs the key the user did not give
    if (e.counterMode) return counterModeKind(e);
    try {
        if (!isGbxEntry(*pak, e)) return "-";
    } catch (const Error&) {
        return "error";  // pak check says why
    }
    GbxDecode d = decodeGbxEntryProven(pak, e);
    if (d.kind == GbxDecodeKind::Refused) return "gbx!";
    return std::string("gbx:") + gbxDecodeKindName(d.kind);
}

const char* kSalvageHelp =
    "Read a pak cut short: the files whose bytes are all there are read (proven as usual), each "
    "other one is named on stderr with where its data ends; exit 1 if any is left out";

// --salvage: an entry whose bytes are not all in the file is named on stderr with the reason
// and left out; returns whether it was.
bool leftOut(const PakIndex& pak, const PakEntry& e) {
    if (pak.whole(e)) return false;
    std::fprintf(stderr, "pak: not salvaged: %s\n", pak.incompleteMessage(e).c_str());
    return true;
}

const char* kUnverifiedHelp =
    "Write a stored gbx file that cannot be proven (chunks no reader knows, no checksum) as the "
    "node scan's best decode, and a version 6+ file encrypted in counter mode without a checksum "
    "(stored or LZ4) as its counter-mode decode, with a warning per file, instead of refusing it";

std::string hex32x(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

nlohmann::ordered_json infoOf(const InputFile& file, const PackGbxHeader& h);

// What `pak info` shows of a pak, in order: one object for the text and the JSON output.
nlohmann::ordered_json infoOf(const PakIndex& pak) {
    std::uint64_t content = 0, stored = 0;
    for (const auto& e : pak.entries()) {
        content += e.uncompressedSize;
        stored += e.cipherSize() + e.ivSize();
    }
    nlohmann::ordered_json j;
    if (pak.packHeader()) {
        j = infoOf(*pak.file(), *pak.packHeader());
        j["key"] = pak.hasKey() ? "given" : "none";
    } else {
        j["file"] = pak.name();
        j["version"] = pak.version();
    }
    j["header_iv"] = hex64(pak.headerIv());
    j["header_md5"] = hexString(pak.headerMd5());  // opening the pak verified it
    j["header_flags"] = hex32x(pak.flags());
    j["header_ivxor"] = hex64(pak.headerIvXor());
    j["data_offset"] = pak.dataOffset();
    j["metadata_offset"] = pak.metaDataOffset();
    j["metadata_size"] = pak.metaDataUncompressedSize();
    j["metadata_compressed_size"] = pak.metaDataCompressedSize();
    j["metadata_records"] = pak.metadata().size();
    if (!pak.metadataError().empty()) j["metadata_error"] = pak.metadataError();
    j["folders"] = pak.folders().size();
    j["files"] = pak.entries().size();
    j["content_bytes"] = content;
    j["stored_bytes"] = stored;
    return j;
}

nlohmann::ordered_json infoOf(const InputFile& file, const PackGbxHeader& h) {
    nlohmann::ordered_json j;
    j["file"] = file.name();
    j["version"] = h.version;
    j["format"] = "ManiaPlanet .Pack.Gbx";
    j["contents_checksum"] = hexString(h.contentsChecksum);
    j["decrypt_flags"] = hex32x(h.decryptFlags);
    if (h.headerMaxSize) j["header_max_size"] = *h.headerMaxSize;
    for (const auto& [key, value] : {std::pair{"author_login", &h.authorLogin},
                                     {"author_nick", &h.authorNick},
                                     {"author_zone", &h.authorZone},
                                     {"author_extra", &h.authorExtra},
                                     {"manialink_url", &h.manialinkUrl},
                                     {"download_url", &h.downloadUrl},
                                     {"comment", &h.comment},
                                     {"title_id", &h.titleId},
                                     {"usage_subdir", &h.usageSubDir},
                                     {"creation_build_info", &h.creationBuildInfo},
                                     {"author_url", &h.authorUrl}})
        if (!value->empty()) j[key] = *value;
    if (h.creationDate) j["creation_date"] = hex64(*h.creationDate);
    j["included_packs"] = h.includedPacks;
    return j;
}

// "key words: value" per field; an array gives one line per element.
void printInfoText(const nlohmann::ordered_json& j) {
    for (const auto& [key, value] : j.items()) {
        std::string label = key;
        std::replace(label.begin(), label.end(), '_', ' ');
        auto text = [](const nlohmann::ordered_json& v) {
            return v.is_string() ? v.get<std::string>() : v.dump();
        };
        if (value.is_array()) {
            if (!label.empty() && label.back() == 's') label.pop_back();
            for (const auto& v : value) std::printf("%s: %s\n", label.c_str(), text(v).c_str());
        } else {
            std::printf("%s: %s\n", label.c_str(), text(value).c_str());
        }
    }
}

// pak check: decodes every entry; one line per gbx entry saying how its bytes are proven (or
// why it is refused), one per plain entry that fails, then a summary.
struct CheckReport {
    std::size_t failed = 0;
    std::size_t incomplete = 0;  // --salvage: not all bytes in the file
    nlohmann::ordered_json json;
};

CheckReport checkPak(const std::shared_ptr<const PakIndex>& pak, bool json, bool showProgress) {
    CheckReport r;
    std::optional<ProgressLine> progress;
    std::uint64_t total = 0, done = 0;
    for (const auto& e : pak->entries()) total += e.uncompressedSize;
    if (showProgress) progress.emplace(pak->entries().size(), total);
    std::size_t files = 0;
    std::size_t plain = 0;
    std::map<std::string, std::size_t> gbxCounts = {
        {"parsed", 0}, {"header", 0}, {"exact", 0}, {"verified", 0}, {"refused", 0}};
    // Counter-mode files (gbx or not): proven by zlib's Adler-32, or decoded without proof
    // (counted as failed: cat, extract and the mount refuse them without --unverified).
    std::size_t counterProven = 0, counterUnverified = 0;
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& e : pak->entries()) {
        nlohmann::ordered_json item;
        item["path"] = e.path;
        if (!pak->whole(e)) {
            ++r.failed;
            ++r.incomplete;
            item["error"] = pak->incompleteMessage(e);
            if (!json) std::printf("not salvaged: %s\n", pak->incompleteMessage(e).c_str());
            entries.push_back(std::move(item));
            if (progress) progress->update(++files, done);
            continue;
        }
        try {
            if (e.counterMode) {
                GbxDecodeOptions allow;
                allow.unverified = true;  // decoded to show that it decodes; proof is the kind
                std::uint64_t n = 0;
                readEntry(
                    pak, e, [&](ByteSpan b) { n += b.size(); }, allow);
                if (n != e.uncompressedSize)
                    throw Error(pak->name() + ": " + e.path + ": size mismatch");
                const bool proven = counterModeProven(e);
                ++(proven ? counterProven : counterUnverified);
                if (!proven) ++r.failed;
                item["gbx"] = isGbxEntry(*pak, e);
                item["counter_mode"] = true;
                item["decode"] = counterModeKind(e);
                item["detail"] = counterModeDetail(e);
                if (!json)
                    std::printf("%-13s %s: %s\n", counterModeKind(e), e.path.c_str(),
                                counterModeDetail(e).c_str());
                entries.push_back(std::move(item));
                done += e.uncompressedSize;
                if (progress) progress->update(++files, done);
                continue;
            }
            bool gbx = isGbxEntry(*pak, e);
            item["gbx"] = gbx;
            if (gbx) {
                GbxDecode d = decodeGbxEntryProven(pak, e);
                std::string kind = gbxDecodeKindName(d.kind);
                ++gbxCounts[kind];
                item["decode"] = kind;
                item["detail"] = d.detail;
                if (d.kind == GbxDecodeKind::Refused) ++r.failed;
                if (!json) {
                    if (d.kind == GbxDecodeKind::Refused)
                        std::printf("gbx refused   %s\n", d.detail.c_str());
                    else
                        std::printf("gbx %-9s %s: %s\n", kind.c_str(), e.path.c_str(),
                                    d.detail.c_str());
                }
            } else {
                std::uint64_t n = 0;
                readEntry(pak, e, [&](ByteSpan b) { n += b.size(); });
                if (n != e.uncompressedSize)
                    throw Error(pak->name() + ": " + e.path + ": size mismatch");
                ++plain;
            }
        } catch (const Error& err) {
            ++r.failed;
            item["error"] = err.what();
            if (!json) std::printf("undecodable: %s\n", err.what());
        }
        entries.push_back(std::move(item));
        done += e.uncompressedSize;
        if (progress) progress->update(++files, done);
    }
    if (progress) progress->finish(files, done);
    std::size_t gbxAll = 0;
    for (const auto& [k, n] : gbxCounts) gbxAll += n;
    std::size_t undecodable = r.failed - gbxCounts["refused"] - counterUnverified - r.incomplete;
    if (json) {
        r.json["file"] = pak->name();
        r.json["files"] = pak->entries().size();
        r.json["plain"] = plain;
        r.json["gbx"] = {{"parsed", gbxCounts["parsed"]},
                         {"header", gbxCounts["header"]},
                         {"exact", gbxCounts["exact"]},
                         {"verified", gbxCounts["verified"]},
                         {"refused", gbxCounts["refused"]}};
        r.json["counter_mode"] = {{"proven", counterProven}, {"unverified", counterUnverified}};
        r.json["failed"] = r.failed;
        if (r.incomplete > 0) r.json["not_salvaged"] = r.incomplete;
        r.json["entries"] = std::move(entries);
    } else {
        // The counter-mode count only where there are any (version 6+ packs).
        std::string counter;
        if (counterProven + counterUnverified > 0)
            counter = ", " + std::to_string(counterProven + counterUnverified) + " counter mode (" +
                      std::to_string(counterProven) + " proven, " +
                      std::to_string(counterUnverified) + " unverified)";
        std::printf(
            "%zu files: %zu plain, %zu gbx (%zu parsed, %zu header, %zu exact, %zu verified, "
            "%zu refused)%s, %zu undecodable\n",
            pak->entries().size(), plain, gbxAll, gbxCounts["parsed"], gbxCounts["header"],
            gbxCounts["exact"], gbxCounts["verified"], gbxCounts["refused"], counter.c_str(),
            undecodable);
        if (r.incomplete > 0)
            std::printf("%zu not salvaged (data past the end of the file)\n", r.incomplete);
    }
    return r;
}

}  // namespace

void addArchiveCommands(CLI::App& app, int& exitCode) {
    // ---- info
    {
        auto* cmd = app.add_subcommand(
            "info",
            "Show a pak's header (version 6+: the public header, then the private one when it can "
            "be read: with the key, or when it is not private)");
        auto keys = std::make_shared<KeyOptions>();
        auto pakPath = std::make_shared<std::string>();
        auto json = std::make_shared<bool>(false);
        cmd->add_option("PAK", *pakPath, "The .pak file")->required();
        cmd->add_flag("--json", *json, "The same fields as one JSON object");
        addKeyOptions(cmd, *keys);
        cmd->callback([=, &exitCode] {
            auto file = InputFile::open(*pakPath);
            nlohmann::ordered_json info;
            if (readPakVersion(*file) >= 6) {
                // The public header shows even when the rest cannot be read (a private header
                // without its key): then "entries" says why, and the exit status is 1.
                try {
                    info = infoOf(*openPak(*pakPath, *keys));
                } catch (const Error& e) {
                    info = infoOf(*file, readPackGbxHeader(*file));
                    info["entries"] = e.what();
                    exitCode = kExitBadInput;
                }
            } else {
                auto pak = openPak(*pakPath, *keys);
                info = infoOf(*pak);
                exitCode = pak->metadataError().empty() ? kExitOk : kExitBadInput;
            }
            if (*json)
                std::cout << info.dump(2) << "\n";
            else
                printInfoText(info);
        });
    }
    // ---- ls
    {
        auto* cmd = app.add_subcommand("ls", "List the files in a pak, one path per line");
        auto keys = std::make_shared<KeyOptions>();
        auto pakPath = std::make_shared<std::string>();
        auto longFormat = std::make_shared<bool>(false);
        auto json = std::make_shared<bool>(false);
        cmd->add_option("PAK", *pakPath, "The .pak file")->required();
        cmd->add_flag("-l,--long", *longFormat,
                      "Also show size, compressed size, class ID, flags and kind: \"-\" for a "
                      "plain file; for a gbx file how its bytes are proven: gbx:parsed, "
                      "gbx:header, gbx:exact, gbx:verified, or gbx! when it is refused (pak "
                      "check says why); "
                      "\"locked\" for a file of a version 6+ pack that needs the key not given; "
                      "for a version 6+ file encrypted in counter mode, \"counter\" (zlib's "
                      "Adler-32 proves it) or \"counter:unverified\" (no checksum: read only "
                      "with --unverified)");
        auto resolveNames = std::make_shared<bool>(false);
        cmd->add_flag("--resolve-names", *resolveNames,
                      "Version 6+: show files stored under a hashed name by the real path a gbx "
                      "file of the pack refers to them by (checked by hashing it); the hash "
                      "otherwise");
        cmd->add_flag("--json", *json,
                      "JSON list of {path, size, compressed_size, class_id, flags, compressed, "
                      "gbx, decode (gbx files: parsed, header, exact, verified or refused; "
                      "counter-mode files: counter or counter:unverified, with counter_mode: "
                      "true)}");
        auto names = std::make_shared<std::vector<std::string>>();
        addNamesOption(cmd, *names);
        auto salvage = std::make_shared<bool>(false);
        cmd->add_flag("--salvage", *salvage, kSalvageHelp);
        addKeyOptions(cmd, *keys);
        cmd->callback([=, &exitCode] {
            auto pak = openPak(*pakPath, *keys, *resolveNames, *names, *salvage);
            if (!pak->incomplete().empty()) exitCode = kExitBadInput;
            if (*json) {
                nlohmann::json list = nlohmann::json::array();
                for (const auto& e : pak->entries()) {
                    if (leftOut(*pak, e)) continue;
                    const bool locked = e.encrypted && !pak->hasKey();
                    bool gbx = false;
                    try {
                        gbx = !locked && isGbxEntry(*pak, e);
                    } catch (const Error&) {
                        // Listed; reading it says why it cannot be.
                    }
                    nlohmann::json item = {{"path", e.path},
                                           {"size", e.uncompressedSize},
                                           {"compressed_size", e.compressedSize},
                                           {"class_id", hex32(e.classId)},
                                           {"flags", hex64(e.flags)},
                                           {"compressed", e.compressed()},
                                           {"encrypted", e.encrypted},
                                           {"gbx", gbx}};
                    if (locked) item["locked"] = true;  // the key it needs was not given
                    if (e.counterMode && !locked) {
                        item["counter_mode"] = true;
                        item["decode"] = counterModeKind(e);
                    } else if (gbx) {
                        item["decode"] = gbxDecodeKindName(decodeGbxEntryProven(pak, e).kind);
                    }
                    list.push_back(std::move(item));
                }
                std::cout << list.dump(2) << "\n";
                return;
            }
            for (const auto& e : pak->entries()) {
                if (leftOut(*pak, e)) continue;
                if (*longFormat)
                    std::printf("%10u %10u %s %s %-12s %s\n", e.uncompressedSize, e.compressedSize,
                                hex32(e.classId).c_str(), hex64(e.flags).c_str(),
                                entryKind(pak, e).c_str(), e.path.c_str());
                else
                    std::printf("%s\n", e.path.c_str());
            }
        });
    }
    // ---- cat
    {
        auto* cmd = app.add_subcommand("cat", "Write one file of a pak to standard output");
        auto keys = std::make_shared<KeyOptions>();
        auto pakPath = std::make_shared<std::string>();
        auto path = std::make_shared<std::string>();
        cmd->add_option("PAK", *pakPath, "The .pak file")->required();
        cmd->add_option("PATH", *path, "Path inside the pak, with / (case-insensitive fallback)")
            ->required();
        auto unverified = std::make_shared<bool>(false);
        cmd->add_flag("--unverified", *unverified, kUnverifiedHelp);
        auto names = std::make_shared<std::vector<std::string>>();
        addNamesOption(cmd, *names);
        addKeyOptions(cmd, *keys);
        cmd->callback([=] {
            auto pak = openPak(*pakPath, *keys, !names->empty(), *names);
            const PakEntry* e = findEntry(*pak, *path);
            if (!e) throw Error(pak->name() + ": no file \"" + *path + "\" in the pak");
            // Decode whole before writing: a failure must not leave partial output behind.
            GbxDecodeOptions gbx;
            gbx.unverified = *unverified;
            Bytes data;
            readEntry(
                pak, *e, [&](ByteSpan b) { data.insert(data.end(), b.begin(), b.end()); }, gbx,
                [](const std::string& w) {
                    std::fprintf(stderr, "pak: warning: %s\n", w.c_str());
                });
            writeAll(STDOUT_FILENO, data, "standard output");
        });
    }
    // ---- extract
    {
        auto* cmd = app.add_subcommand("extract",
                                       "Extract files (all, or the PATHs and folders named) into "
                                       "DIR; never writes outside DIR");
        auto keys = std::make_shared<KeyOptions>();
        auto pakPath = std::make_shared<std::string>();
        auto dir = std::make_shared<std::string>(".");
        auto paths = std::make_shared<std::vector<std::string>>();
        auto quiet = std::make_shared<bool>(false);
        auto jobs = std::make_shared<unsigned>(0);
        cmd->add_option("PAK", *pakPath, "The .pak file")->required();
        cmd->add_option("DIR", *dir, "Target folder (default: the current folder)");
        cmd->add_option("PATH", *paths, "Files or folders inside the pak to extract");
        cmd->add_flag("-q,--quiet", *quiet, "No progress line");
        cmd->add_option("-j,--jobs", *jobs, "Threads (default: all cores)");
        auto unverified = std::make_shared<bool>(false);
        cmd->add_flag("--unverified", *unverified, kUnverifiedHelp);
        auto overwrite = std::make_shared<bool>(false);
        cmd->add_flag("--overwrite", *overwrite,
                      "Replace files already in DIR (without it they are kept as they are, "
                      "counted in one line at the end, and the exit status is 1)");
        auto names = std::make_shared<std::vector<std::string>>();
        addNamesOption(cmd, *names);
        auto salvage = std::make_shared<bool>(false);
        cmd->add_flag("--salvage", *salvage, kSalvageHelp);
        addKeyOptions(cmd, *keys);
        cmd->callback([=, &exitCode] {
            auto pak = openPak(*pakPath, *keys, !names->empty(), *names, *salvage);
            std::vector<const PakEntry*> todo;
            std::size_t notSalvaged = 0;
            for (const auto& e : pak->entries())
                if (selected(*paths, e.path)) {
                    if (leftOut(*pak, e))
                        ++notSalvaged;
                    else
                        todo.push_back(&e);
                }
            std::vector<const PakFolder*> folders;
            for (const auto& f : pak->folders())
                if (selected(*paths, f.path)) folders.push_back(&f);
            for (const auto& want : *paths) {
                bool any = false;
                for (const auto& e : pak->entries()) any = any || selected({want}, e.path);
                for (const auto* f : folders) any = any || selected({want}, f->path);
                if (!any) {
                    std::fprintf(stderr, "pak: %s: no file or folder \"%s\" in the pak\n",
                                 pak->name().c_str(), want.c_str());
                    exitCode = kExitBadInput;
                }
            }
            if (todo.empty() && folders.empty() && notSalvaged == 0 && !paths->empty())
                return;  // DIR not made
            ExtractOptions opts;
            opts.jobs = *jobs ? *jobs : std::max(1u, std::thread::hardware_concurrency());
            opts.progress = !*quiet && ::isatty(STDERR_FILENO);
            opts.error = [](const std::string& msg) {
                std::fprintf(stderr, "pak: %s\n", msg.c_str());
            };
            opts.gbx.unverified = *unverified;
            opts.warn = [](const std::string& msg) {
                std::fprintf(stderr, "pak: warning: %s\n", msg.c_str());
            };
            opts.overwrite = *overwrite;
            opts.targetName = *dir;
            ExtractResult r = extractEntries(pak, todo, *dir, opts, folders);
            if (!r.stoppedBy.empty()) {
                std::fprintf(stderr, "pak: %s; stopped: %zu files extracted, %zu not\n",
                             r.stoppedBy.c_str(), r.written, r.notDone);
                exitCode = kExitBadInput;
            }
            if (r.kept > 0) {
                std::fprintf(stderr,
                             "pak: %zu file%s already in %s kept as %s (the first: %s); "
                             "--overwrite replaces them\n",
                             r.kept, r.kept == 1 ? "" : "s", dir->c_str(),
                             r.kept == 1 ? "it was" : "they were", r.firstKept.c_str());
                exitCode = kExitBadInput;
            }
            if (r.failed + notSalvaged > 0) {
                std::fprintf(stderr, "pak: %zu of %zu files could not be extracted\n",
                             r.failed + notSalvaged, todo.size() + notSalvaged);
                exitCode = kExitBadInput;
            }
        });
    }
    // ---- pack
    {
        auto* cmd = app.add_subcommand(
            "pack",
            "Build a pak (version 3, or 6 to 18 with --version) from a folder tree; the key "
            "comes from --key/--key-file/--base-key or from the packlist entry named like OUT");
        auto keys = std::make_shared<KeyOptions>();
        auto src = std::make_shared<std::string>();
        auto out = std::make_shared<std::string>();
        auto options = std::make_shared<PackOptions>();
        auto base = std::make_shared<std::string>();
        auto quiet = std::make_shared<bool>(false);
        cmd->add_option("SRCDIR", *src, "Folder to pack")->required();
        cmd->add_option("OUT", *out, "The .pak to write (written to a temp file, then renamed)")
            ->required();
        cmd->add_option(
               "--level", options->level,
               "zlib level 0-9 (default 6); 0 stores files uncompressed, except gbx files with "
               "chunks no reader knows, which always get a zlib stream (stored blocks at "
               "level 0) so that its Adler-32 proves them")
            ->check(CLI::Range(0, 9));
        cmd->add_option("-j,--jobs", options->jobs,
                        "Threads encoding files (default: one per core); the pak is the same "
                        "for any number")
            ->check(CLI::Range(1, 256));
        cmd->add_option("--raw", options->rawGlobs,
                        "Store gbx files matching GLOB without the per-node ivXor: in version 3 "
                        "the game will not read them right; in version 6+ they are flagged "
                        "DontUseDummyWrite, which it reads right; may be repeated. In version "
                        "3 a gbx file whose cipher cannot be planned stops the pack: every such "
                        "file is listed in one error, and nothing is written");
        cmd->add_option("--base", *base,
                        "Original pak: files whose path and content are unchanged are copied "
                        "as their original encrypted bytes (same key)");
        cmd->add_flag("--fold-skippable", options->gbxRules.nodesInSkippableChunksMixIvXor,
                      "Plan gbx files so that nodes read inside skippable (\"PIKS\") chunks mix "
                      "the cipher, as the GBX wiki page says. Default: they do not, as GBX.NET "
                      "and a study of the 2020 game's code say (the game reads such a chunk into "
                      "memory first); the game's own Resource.pak does not decide it. gbx files "
                      "with chunks no reader knows are planned from the node scan (a warning "
                      "says how many node reads it found) and always stored with zlib, whose "
                      "Adler-32 lets pak prove them when reading back");
        cmd->add_option("--version", options->version,
                        "Pak version: 3 (TrackMania Forever .pak, the default) or 6 to 18 "
                        "(ManiaPlanet / Trackmania 2020 .Pack.Gbx; 18 compresses with LZ4 and "
                        "encrypts with 8-round Blowfish, 12+ chain IVs as the game does)")
            ->check(CLI::Range(3, 18));
        auto headerKey = std::make_shared<std::string>("both");
        auto dataPublic = std::make_shared<bool>(false);
        cmd->add_option("--header-key", *headerKey,
                        "Version 6+: how the private header is encrypted: private (the pack key), "
                        "default (the default header key: lists without a key), both (the two "
                        "xored, as retail packs), none (in the clear)")
            ->check(CLI::IsMember({"private", "default", "both", "none"}));
        cmd->add_flag("--data-public", *dataPublic,
                      "Version 6+: clear the header's \"data private\" flag (bit 2)");
        cmd->add_option("--public", options->publicGlobs,
                        "Version 6+: store files matching GLOB in the clear, flagged public "
                        "(readable without a key); may be repeated");
        cmd->add_option("--author-login", options->header.authorLogin, "Version 7+: author login");
        cmd->add_option("--author-nick", options->header.authorNick, "Version 7+: author nickname");
        cmd->add_option("--author-zone", options->header.authorZone, "Version 7+: author zone");
        cmd->add_option("--comment", options->header.comment, "Version 7+: comment");
        cmd->add_option("--title-id", options->header.titleId, "Version 12+: title ID");
        cmd->add_flag("-q,--quiet", *quiet, "No progress line");
        addKeyOptions(cmd, *keys);
        cmd->callback([=] {
            if (options->version > 3 && options->version < 6)
                throw Error("--version " + std::to_string(options->version) +
                            ": pak writes versions 3 and 6 to 18");
            if (!keys->msKeyHex.empty())
                throw Error(
                    "--ms-key cannot be used to write a pack (the key would depend on the "
                    "checksum of what it encrypts); give --key or --base-key");
            PakKey key = options->version >= 6
                             ? [&] {
                                   PakKeyInput k = resolvePakKey(*out, *keys);
                                   if (!k.key)
                                       throw Error(*out +
                                                   ": no key given (--key, --key-file or "
                                                   "--base-key)");
                                   return *k.key;
                               }()
                             : resolveKey(*out, *keys);
            PackOptions opts = *options;
            opts.header.headerFlags = (*headerKey == "private"   ? kHeaderPrivate
                                       : *headerKey == "default" ? kHeaderDefaultKey
                                       : *headerKey == "both" ? kHeaderPrivate | kHeaderDefaultKey
                                                              : 0) |
                                      (*dataPublic ? 0 : kHeaderDataPrivate);
            opts.base = *base;
            opts.warn = [](const std::string& m) {
                std::fprintf(stderr, "pak: warning: %s\n", m.c_str());
            };
            std::shared_ptr<ProgressLine> progress;
            if (!*quiet && ::isatty(STDERR_FILENO))
                opts.progress = [&progress](std::size_t done, std::size_t total,
                                            std::uint64_t bytes, std::uint64_t totalBytes) {
                    if (!progress) progress = std::make_shared<ProgressLine>(total, totalBytes);
                    if (done == total)
                        progress->finish(done, bytes);
                    else
                        progress->update(done, bytes);
                };
            PackResult r = writePak(*src, *out, key, opts);
            std::fprintf(stderr,
                         "%s: %zu files in %zu folders, %zu compressed, %zu copied from base, %llu "
                         "-> %llu bytes\n",
                         out->c_str(), r.files, r.folders, r.compressed, r.copiedFromBase,
                         (unsigned long long)r.bytesIn, (unsigned long long)r.bytesOut);
            adviseHowItOpens(*out, key, keyStringOf(*out, *keys, key));
        });
    }
    // ---- check
    {
        auto* cmd = app.add_subcommand(
            "check",
            "Decode every file of a pak: one line per gbx file saying how its bytes are proven "
            "(parsed: every node read to its end by known chunk readers; header: the body is "
            "LZO-compressed inside the gbx, so its node reads never reach the cipher and the "
            "header and reference table decide every byte; exact: no unseen node read can "
            "change a byte; verified: node reads found by the node scan, proven by zlib's Adler-32 "
            "and the size; refused, with the reason), one per version 6+ file encrypted in "
            "counter mode (counter: zlib's Adler-32 proves it; counter:unverified: it decodes but "
            "nothing proves it), one per file that fails, then the counts (exit 1 if any is "
            "refused, unverified or fails); with --refs, resolve the external references of "
            "every gbx file in a Packs folder instead");
        auto keys = std::make_shared<KeyOptions>();
        auto pakPath = std::make_shared<std::string>();
        auto refs = std::make_shared<bool>(false);
        cmd->add_option("PAK", *pakPath, "The .pak file (with --refs: the Packs folder)")
            ->required();
        cmd->add_flag("--refs", *refs,
                      "Check references across the drives of a Packs folder: broken ones, "
                      "unreadable files and files hidden by another pack");
        auto json = std::make_shared<bool>(false);
        cmd->add_flag("--json", *json,
                      "One JSON object: {file, files, plain, gbx: {parsed, exact, verified, "
                      "refused}, counter_mode: {proven, unverified}, failed, entries: [{path, "
                      "gbx, counter_mode, decode, detail, error}]}");
        auto quiet = std::make_shared<bool>(false);
        cmd->add_flag("-q,--quiet", *quiet,
                      "No progress line (shown on a terminal: files and bytes done, rate)");
        auto names = std::make_shared<std::vector<std::string>>();
        addNamesOption(cmd, *names);
        auto salvage = std::make_shared<bool>(false);
        cmd->add_flag("--salvage", *salvage,
                      "Check a pak cut short: the files whose bytes are all there are checked as "
                      "usual, each other one gets a \"not salvaged\" line saying where its data "
                      "ends (exit 1)");
        addKeyOptions(cmd, *keys);
        cmd->callback([=, &exitCode] {
            if (*refs) {
                exitCode = checkReferences(*pakPath, *keys);
                return;
            }
            auto pak = openPak(*pakPath, *keys, !names->empty(), *names, *salvage);
            CheckReport report = checkPak(pak, *json, !*quiet && ::isatty(STDERR_FILENO));
            if (*json) std::cout << report.json.dump(2) << "\n";
            std::size_t bad = report.failed;
            if (bad > 0 || !pak->metadataError().empty()) exitCode = kExitBadInput;
        });
    }
}

}  // namespace pakfs::cli
