// SPDX-License-Identifier: GPL-2.0-or-later
// pak info / ls / cat: what a pak holds, and one file's bytes.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Bytes.hpp"
#include "common/PageBlock.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/EntryArgs.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

namespace {

// Room for the entry's declared size, as far as its compressed size can make it (deflate gives
// at most 1032 bytes per byte), so that a large file is not copied again and again as the
// buffer grows (256 MiB: 3.4 s instead of 0.8). Not to be had: it grows as it goes.
void reserveFor(Bytes& data, const PakEntry& e) {
    const std::uint64_t most = std::uint64_t(e.compressedSize) * 1032 + (1u << 20);
    try {
        data.reserve(std::size_t(std::min<std::uint64_t>(e.uncompressedSize, most)));
    } catch (const std::bad_alloc&) {
    } catch (const std::length_error&) {
    }
    // A page fault per 4 KiB cost more than the copy itself.
    adviseHugePages(data.data(), data.capacity());
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

void addInfoCommand(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand(
        "info", "Show a pak's header (version 6+: public, then private when it can be read)");
    auto keys = std::make_shared<KeyOptions>();
    auto pakPath = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    cmd->add_option("PAK", *pakPath, "The .pak file")->required();
    cmd->add_flag("--json", *json, "The same fields as one JSON object");
    auto salvage = std::make_shared<bool>(false);
    addSalvageFlag(cmd, *salvage);
    addKeyOptions(cmd, *keys);
    cmd->footer(
        "Version 6+: the private header is read with the key, or without one when it is not\n"
        "private; when it cannot be, the public one is shown with why, and the exit status is 1.");
    cmd->callback([=, &exitCode] {
        auto file = InputFile::open(*pakPath);
        nlohmann::ordered_json info;
        // With --salvage, the files a cut pak does not hold whole are named (exit status 1).
        auto salvaged = [&](const std::shared_ptr<const PakIndex>& pak) {
            for (const auto& e : pak->entries())
                if (leftOut(*pak, e)) exitCode = kExitBadInput;
            return pak;
        };
        if (readPakVersion(*file) >= 6) {
            // The public header shows even when the rest cannot be read (a private header
            // without its key): then "entries" says why, and the exit status is 1.
            try {
                info = infoOf(*salvaged(openAndWarn(*pakPath, *keys, false, {}, *salvage)));
            } catch (const Error& e) {
                info = infoOf(*file, readPackGbxHeader(*file));
                info["entries"] = e.what();
                exitCode = kExitBadInput;
            }
        } else {
            auto pak = salvaged(openAndWarn(*pakPath, *keys, false, {}, *salvage));
            info = infoOf(*pak);
            if (!pak->metadataError().empty()) exitCode = kExitBadInput;
        }
        if (*json)
            std::cout << info.dump(2) << "\n";
        else
            printInfoText(info);
    });
}

// pak ls --json: one object per entry (those --salvage leaves out are named on stderr).
nlohmann::json lsJson(const std::shared_ptr<const PakIndex>& pak,
                      const std::vector<const PakEntry*>& shown) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto* entry : shown) {
        const PakEntry& e = *entry;
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
                               {"record_offset", hex32(e.unknown)},
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
    return list;
}

void addLsCommand(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand(
        "ls", "List the files in a pak (all, or those PATHs and GLOBs select), one path per line");
    auto read = std::make_shared<ReadArgs>();
    auto pakPath = std::make_shared<std::string>();
    auto paths = std::make_shared<std::vector<std::string>>();
    auto longFormat = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    cmd->add_option("PAK", *pakPath, "The .pak file")->required();
    cmd->add_option("PATH", *paths, kPathPatternHelp);
    cmd->add_flag(
        "-l,--long", *longFormat,
        "Also show size, compressed size, class ID, flags and kind: \"-\" plain; gbx:parsed, "
        "gbx:header, gbx:exact, gbx:verified, or gbx! refused (pak check says why); "
        "locked: needs the key not given; counter (Adler-32 proves it) or "
        "counter:unverified (read only with --unverified): version 6+ counter mode");
    cmd->add_flag(
        "--json", *json,
        "JSON list of {path, size, compressed_size, class_id, flags, record_offset (see pak(1)), "
        "compressed, gbx, decode (gbx: parsed, header, exact, verified or refused; "
        "counter mode: counter or counter:unverified, with counter_mode: true)}");
    addReadOptions(cmd, *read);
    cmd->callback([=, &exitCode] {
        auto pak = openForReading(*pakPath, *read);
        if (!pak->incomplete().empty()) exitCode = kExitBadInput;
        PathSelection wanted(*paths);
        std::vector<const PakEntry*> selected;
        selectPaths(*pak, wanted, selected, nullptr, exitCode);
        std::vector<const PakEntry*> shown;
        for (const auto* e : selected)
            if (!leftOut(*pak, *e)) shown.push_back(e);
        if (*json) {
            std::cout << lsJson(pak, shown).dump(2) << "\n";
            return;
        }
        for (const auto* entry : shown) {
            const PakEntry& e = *entry;
            if (*longFormat)
                std::printf("%10u %10u %s %s %-12s %s\n", e.uncompressedSize, e.compressedSize,
                            hex32(e.classId).c_str(), hex64(e.flags).c_str(),
                            entryKind(pak, e).c_str(), shownPath(e.path).c_str());
            else
                std::printf("%s\n", shownPath(e.path).c_str());
        }
    });
}

void addCatCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("cat", "Write one file of a pak to standard output");
    auto read = std::make_shared<ReadArgs>();
    auto pakPath = std::make_shared<std::string>();
    auto path = std::make_shared<std::string>();
    cmd->add_option("PAK", *pakPath, "The .pak file")->required();
    cmd->add_option("PATH", *path, "Path inside the pak, with / (case-insensitive fallback)")
        ->required();
    auto unverified = std::make_shared<bool>(false);
    addUnverifiedFlag(cmd, *unverified);
    addReadOptions(cmd, *read);
    cmd->callback([=] {
        auto pak = openForReading(*pakPath, *read);
        const PakEntry* e = findEntry(*pak, *path);
        if (!e) {
            // A folder's path: say so (its files are what pak ls lists under it).
            const std::string want = foldCase(*path);
            for (const auto& f : pak->folders())
                if (foldCase(f.path) == want)
                    throw Error(pak->name() + ": \"" + *path +
                                "\" is a folder, not a file (pak cat writes one file; pak extract "
                                "writes a folder's)");
            for (const auto& other : pak->entries())
                if (foldCase(other.path).starts_with(want + "/"))
                    throw Error(pak->name() + ": \"" + *path +
                                "\" is a folder, not a file (pak cat writes one file; pak extract "
                                "writes a folder's)");
            throw Error(pak->name() + ": no file \"" + *path + "\" in the pak");
        }
        if (!pak->whole(*e)) throw Error("not salvaged: " + pak->incompleteMessage(*e));
        // Decode whole before writing: a failure must not leave partial output behind.
        GbxDecodeOptions gbx;
        gbx.unverified = *unverified;
        Bytes data;
        reserveFor(data, *e);
        readEntry(
            pak, *e, [&](ByteSpan b) { data.insert(data.end(), b.begin(), b.end()); }, gbx, warn);
        writeAll(STDOUT_FILENO, data, "standard output");
    });
}

}  // namespace

void addInspectCommands(CLI::App& app, int& exitCode) {
    addInfoCommand(app, exitCode);
    addLsCommand(app, exitCode);
    addCatCommand(app);
}

}  // namespace pakfs::cli
