// SPDX-License-Identifier: GPL-2.0-or-later
// pak gbx refs, and pak check --refs: external node references resolved across the drives.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "packs/Drives.hpp"
#include "packs/Sources.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

namespace stdfs = std::filesystem;
using namespace pakfs::archive;

namespace pakfs::cli {

namespace {

std::unique_ptr<pakfs::packs::Drives> loadDrives(const stdfs::path& packsDir,
                                                 const KeyOptions& keys) {
    if (!stdfs::is_directory(packsDir)) throw Error(packsDir.string() + ": not a folder");
    pakfs::packs::LoadedSources loaded = pakfs::packs::loadSources({packsDir}, keys);
    for (const auto& w : loaded.warnings) warn(w);
    std::vector<std::string> warnings;
    std::vector<std::string> order = pakfs::packs::packListOrder({packsDir}, &warnings);
    for (const auto& w : warnings) warn(w);
    return std::make_unique<pakfs::packs::Drives>(
        pakfs::packs::orderPacks(std::move(loaded.packs), order));
}

std::string describeRef(const gbx::ExternalRef& ref) {
    return ref.byResource() ? "resource #" + std::to_string(ref.resourceIndex) : ref.name;
}

nlohmann::json refsJson(const std::vector<pakfs::packs::ResolvedReference>& refs) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : refs) {
        nlohmann::json item = {{"node_index", r.ref.nodeIndex}};
        if (r.ref.byResource())
            item["resource_index"] = r.ref.resourceIndex;
        else
            item["name"] = r.ref.name;
        item["resolved"] = r.resolved ? nlohmann::json(*r.resolved) : nlohmann::json(nullptr);
        item["exists"] = r.exists;
        if (r.unknown) item["unknown"] = true;
        list.push_back(item);
    }
    return list;
}

void printRefs(const std::vector<pakfs::packs::ResolvedReference>& refs) {
    for (const auto& r : refs) {
        std::string target = r.resolved  ? *r.resolved
                             : r.unknown ? "(not resolved: " + r.problem + ")"
                                         : "(nowhere: " + r.problem + ")";
        std::printf("node %u\t%s\t-> %s\t%s\n", r.ref.nodeIndex, describeRef(r.ref).c_str(),
                    target.c_str(),
                    r.exists    ? "ok"
                    : r.unknown ? "UNKNOWN"
                                : "MISSING");
    }
}

}  // namespace

void addRefsCommands(CLI::App& app, int& exitCode) {
    CLI::App* gbxCmd = app.get_subcommand("gbx");
    auto* cmd = gbxCmd->add_subcommand(
        "refs", "Resolve a gbx file's external node references across the game's drives");
    auto target = std::make_shared<std::string>();
    auto packs = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto strict = std::make_shared<bool>(false);
    auto keys = std::make_shared<KeyOptions>();
    cmd->add_option("TARGET", *target,
                    "A gbx file on disk, PAK:PATH (an entry of a pak), or with --packs a drive "
                    "path (Game/... or Resource/...)")
        ->required();
    cmd->add_option("--packs", *packs,
                    "The game's Packs folder (keys from its packlist.dat): resolve in its drives");
    cmd->add_flag("--json", *json,
                  "JSON list of {node_index, name | resource_index, resolved, exists, "
                  "unknown}");
    cmd->add_flag("--strict", *strict, "Exit 1 if any reference is missing");
    addKeyOptions(cmd, *keys);
    cmd->footer(
        "References go up ancestorLevel folders from the file's folder, then into the listed\n"
        "folder. References by resource index are not resolved (status UNKNOWN, \"unknown\": true\n"
        "in JSON, not counted as missing by --strict): see pak(1) for why.");
    cmd->callback([=, &exitCode] {
        std::unique_ptr<pakfs::packs::Drives> drives;
        if (!packs->empty()) drives = loadDrives(*packs, *keys);
        std::vector<pakfs::packs::ResolvedReference> resolved;
        auto colon = target->find(':');
        std::string pakPart = colon == std::string::npos ? "" : target->substr(0, colon);
        std::error_code ec;
        const auto onDisk = stdfs::status(*target, ec);
        // A FIFO or device is read as a file, which refuses it ("not a regular file").
        if (stdfs::exists(onDisk) && !stdfs::is_directory(onDisk)) {
            Bytes data = readGbxFileOnDisk(*target);
            MemorySource src(data);
            try {
                gbx::GbxHeader header = gbx::readHeader(src);
                gbx::RefTable refs = gbx::readRefTable(src, header);
                resolved = pakfs::packs::resolveReferencesOnDisk(*target, refs);
            } catch (const Error& e) {
                throw Error(*target + ": " + e.what());
            }
        } else if (!pakPart.empty() && stdfs::is_regular_file(pakPart)) {
            std::string inner = target->substr(colon + 1);
            std::vector<pakfs::packs::Pack> single;
            if (!drives) {
                auto loaded = pakfs::packs::loadSources({pakPart}, *keys);
                drives = std::make_unique<pakfs::packs::Drives>(std::move(loaded.packs));
            }
            // The pak must be one of the drives' packs (by name).
            int packIndex = -1;
            for (std::size_t i = 0; i < drives->packs().size(); ++i)
                if (pakfs::foldCase(drives->packs()[i].name) ==
                    pakfs::foldCase(packNameOf(pakPart)))
                    packIndex = int(i);
            if (packIndex < 0) throw Error(pakPart + ": not among the packs of " + *packs);
            const auto& pak = drives->packs()[std::size_t(packIndex)].pak;
            const PakEntry* entry = nullptr;
            for (const auto& e : pak->entries())
                if (pakfs::foldCase(e.path) == pakfs::foldCase(inner)) entry = &e;
            if (!entry) throw Error(pak->name() + ": no file \"" + inner + "\" in the pak");
            auto where = drives->drivePathOf(packIndex, *entry);
            if (!where) throw Error(pak->name() + ": " + inner + ": hidden by another pack's file");
            resolved = pakfs::packs::resolveReferences(*drives, *where,
                                                       readGbxEntryRefs(pak, *entry).refs);
        } else if (drives) {
            const pakfs::packs::DriveFile* f = drives->find(*target);
            if (!f) throw Error(*target + ": no such file in the drives of " + *packs);
            const auto& pak = drives->packs()[std::size_t(f->pack)].pak;
            resolved = pakfs::packs::resolveReferences(*drives, f->path,
                                                       readGbxEntryRefs(pak, *f->entry).refs);
        } else {
            throw Error(*target + ": no such file (a drive path needs --packs)");
        }
        if (*json)
            std::cout << refsJson(resolved).dump(2) << "\n";
        else
            printRefs(resolved);
        bool missing = false;
        for (const auto& r : resolved) missing = missing || (!r.exists && !r.unknown);
        exitCode = (*strict && missing) ? kExitBadInput : kExitOk;
    });
}

int checkReferences(const std::string& packsDir, const KeyOptions& keys, bool json) {
    auto drives = loadDrives(packsDir, keys);
    std::size_t gbxFiles = 0, references = 0, broken = 0, unreadable = 0, unknown = 0;
    // --json: the lines below as lists, the counts as fields.
    nlohmann::ordered_json brokenRefs = nlohmann::ordered_json::array();
    nlohmann::ordered_json unreadableFiles = nlohmann::ordered_json::array();
    nlohmann::ordered_json hiddenFiles = nlohmann::ordered_json::array();
    for (const pakfs::packs::DriveFile* f : drives->files()) {
        const auto& pak = drives->packs()[std::size_t(f->pack)].pak;
        if (!isGbxEntry(*pak, *f->entry)) continue;
        ++gbxFiles;
        try {
            auto refs = readGbxEntryRefs(pak, *f->entry).refs;
            for (const auto& r : pakfs::packs::resolveReferences(*drives, f->path, refs)) {
                ++references;
                if (r.exists) continue;
                if (r.unknown) {
                    ++unknown;
                    continue;
                }
                ++broken;
                if (json) {
                    nlohmann::ordered_json item = {{"path", f->path},
                                                   {"node_index", r.ref.nodeIndex}};
                    if (r.ref.byResource())
                        item["resource_index"] = r.ref.resourceIndex;
                    else
                        item["name"] = r.ref.name;
                    item["resolved"] = r.resolved ? nlohmann::ordered_json(*r.resolved)
                                                  : nlohmann::ordered_json(nullptr);
                    if (!r.resolved) item["problem"] = r.problem;
                    brokenRefs.push_back(std::move(item));
                    continue;
                }
                std::printf("%s: node %u: %s -> %s MISSING\n", f->path.c_str(), r.ref.nodeIndex,
                            describeRef(r.ref).c_str(),
                            r.resolved ? r.resolved->c_str() : ("nowhere: " + r.problem).c_str());
            }
        } catch (const Error& e) {
            ++unreadable;
            if (json)
                unreadableFiles.push_back({{"path", f->path}, {"error", e.what()}});
            else
                std::printf("%s: unreadable: %s\n", f->path.c_str(), e.what());
        }
    }
    for (const auto& s : drives->shadowed()) {
        if (json)
            hiddenFiles.push_back(
                {{"path", s.path}, {"pack", s.hiddenPack}, {"hidden_by", s.winnerPack}});
        else
            std::printf("%s: the file of pack %s is hidden by pack %s\n", s.path.c_str(),
                        s.hiddenPack.c_str(), s.winnerPack.c_str());
    }
    if (json) {
        nlohmann::ordered_json j;
        j["packs"] = packsDir;
        j["gbx_files"] = gbxFiles;
        j["references"] = references;
        j["broken"] = broken;
        j["unreadable"] = unreadable;
        j["hidden"] = drives->shadowed().size();
        j["by_resource_index"] = unknown;
        j["broken_references"] = std::move(brokenRefs);
        j["unreadable_files"] = std::move(unreadableFiles);
        j["hidden_files"] = std::move(hiddenFiles);
        std::cout << j.dump(2) << "\n";
    } else {
        std::printf(
            "%zu gbx files, %zu references, %zu broken, %zu unreadable, %zu hidden by "
            "another pack, %zu by resource index (not resolved)\n",
            gbxFiles, references, broken, unreadable, drives->shadowed().size(), unknown);
    }
    return broken || unreadable ? kExitBadInput : kExitOk;
}

}  // namespace pakfs::cli
