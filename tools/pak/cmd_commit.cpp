// SPDX-License-Identifier: GPL-2.0-or-later
// pak commit: a pak with the changes a writable mount kept in its overlay folder.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "archive/entry/PakOpener.hpp"
#include "archive/write/PakWriter.hpp"
#include "common/Progress.hpp"
#include "fs/Commit.hpp"
#include "fs/Drives.hpp"
#include "fs/OverlayLayout.hpp"
#include "fs/OverlayRecord.hpp"
#include "fs/Sources.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"

namespace pakfs::cli {

namespace {

void printChanges(const archive::ChangePlan& plan, const std::string& what, const std::string& from,
                  bool json) {
    if (json) {
        nlohmann::json changes = nlohmann::json::array();
        for (const auto& c : plan.changes)
            changes.push_back({{"change", std::string(1, c.kind)}, {"path", c.path}});
        nlohmann::json j = {{"pak", what}, {"overlay", from}, {"changes", changes}};
        std::cout << j.dump(2) << "\n";
    } else {
        for (const auto& c : plan.changes) std::printf("%c %s\n", c.kind, c.path.c_str());
        std::fprintf(stderr, "%s: %zu changes from %s\n", what.c_str(), plan.changes.size(),
                     from.c_str());
    }
}

// pak commit --patch NAME PACKS OVERLAY [OUT]
void commitPatch(const std::string& name, const std::string& packsDir, const std::string& overlay,
                 std::string out, const std::string& packListPath, const archive::KeyOptions& keys,
                 int level, int jobs, bool dryRun, bool json, bool inPlace) {
    if (inPlace)
        throw UsageError("--in-place does not go with --patch (a patch pack is a new pack)");
    if (name.empty() || name.find_first_of("/\\") != std::string::npos)
        throw UsageError("--patch takes a pack name (no folder), got \"" + name + "\"");
    std::error_code ec;
    if (!std::filesystem::is_directory(packsDir, ec))
        throw Error(packsDir + ": not a folder (with --patch, give the Packs folder)");
    if (!std::filesystem::is_directory(overlay, ec)) throw Error(overlay + ": no such folder");
    // A pack of that name (as the game compares names: case-insensitively), also one that
    // cannot be opened and so is left out of the packs below, would be overwritten.
    if (auto existing = archive::findPackFile(packsDir, name))
        throw Error(existing->string() + ": a pack named " + name +
                    " is already in the folder; a patch pack must be new (or commit into that "
                    "pack)");
    // The folder's packs, with the keys of its packlist (or --packlist, when it exists yet).
    archive::KeyOptions readKeys;
    if (!packListPath.empty() && std::filesystem::exists(packListPath, ec))
        readKeys.packList = packListPath;
    fs::LoadedSources loaded = fs::loadSources({packsDir}, readKeys);
    for (const auto& w : loaded.warnings) std::fprintf(stderr, "pak: warning: %s\n", w.c_str());
    auto packs = fs::orderPacks(std::move(loaded.packs), fs::packListOrder({packsDir}));
    archive::ChangePlan plan = fs::planPatch(packs, overlay);
    const std::string ext = plan.options.version >= 6 ? ".Pack.Gbx" : ".pak";
    const bool writesIntoFolder = out.empty();
    if (out.empty()) out = (std::filesystem::path(packsDir) / (name + ext)).string();
    if (dryRun) {
        printChanges(plan, out, (std::filesystem::path(overlay) / fs::kGameDrive).string(), json);
        return;
    }
    if (plan.changes.empty()) throw Error(overlay + ": no added or changed files for a patch pack");
    // The key: given, or the packlist's entry for NAME, made with a new key string if none.
    std::optional<archive::PackList> list;
    std::optional<archive::PakKey> key;
    archive::KeyOptions given = keys;
    given.packList.clear();  // the packlist's entry for NAME is read below
    if (!keys.keyHex.empty() || !keys.keyFile.empty() || !keys.baseKeyHex.empty())
        key = archive::resolveKey(out, given);
    if (!packListPath.empty()) {
        list = archive::readPackListOrNew(packListPath);
        bool added = false;
        const archive::PackListEntry& entry = list->putLast(name, added);
        if (key && !added && entry.key() != *key)
            throw Error(packListPath + ": its entry for " + name +
                        " has another key than the one given");
        if (key && added)
            throw UsageError("--packlist makes the key of a new entry: give no --key with it");
        key = entry.key();
    }
    if (!key) key = archive::resolveKey(out, keys);
    archive::PackOptions opts = plan.options;
    opts.level = level;
    opts.jobs = jobs;
    opts.warn = [](const std::string& m) { std::fprintf(stderr, "pak: warning: %s\n", m.c_str()); };
    archive::PackResult r = archive::writePlan(plan.plan, out, *key, opts);
    if (list) archive::writePackList(packListPath, *list);
    if (!list && writesIntoFolder) {
        // The folder's packlist is left as it is: say when it lists the patch before other
        // packs, whose files then win over it.
        try {
            if (auto found = archive::findPackList(packsDir)) {
                std::string after;  // the packs listed after the patch
                for (const auto& n : archive::readPackList(*found).namesAfter(name))
                    after += (after.empty() ? "" : ", ") + n;
                if (!after.empty())
                    std::fprintf(stderr,
                                 "pak: warning: %s lists %s before %s: the game loads it earlier, "
                                 "so their files win over its; --packlist %s moves it last\n",
                                 found->c_str(), name.c_str(), after.c_str(), found->c_str());
            }
        } catch (const Error&) {
            // A packlist that cannot be read was reported when the packs were opened.
        }
    }
    if (json) {
        nlohmann::json j = {{"out", out},
                            {"files", r.files},
                            {"folders", r.folders},
                            {"changes", plan.changes.size()}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::fprintf(stderr, "%s: patch pack of %zu files in %zu folders%s\n", out.c_str(), r.files,
                     r.folders, list ? (", listed last in " + packListPath).c_str() : "");
    }
}

}  // namespace

void addCommitCommands(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand(
        "commit",
        "Write PAK with the changes of an overlay folder (pakfs -o overlay=OVERLAY) applied, as "
        "OUT or, with --in-place, as PAK itself. Files the overlay does not touch are copied as "
        "their encrypted bytes; added and changed files are encoded as `pak pack` does; "
        "whiteouts delete. The result keeps PAK's version, key and header fields. Written to "
        "a temporary file beside the output, synced and renamed: an interrupted commit leaves "
        "every file as it was");
    auto keys = std::make_shared<archive::KeyOptions>();
    auto pakPath = std::make_shared<std::string>();
    auto overlay = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto inPlace = std::make_shared<bool>(false);
    auto dryRun = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    auto quiet = std::make_shared<bool>(false);
    auto level = std::make_shared<int>(6);
    cmd->add_option("PAK", *pakPath, "The pak the overlay was made over")->required();
    cmd->add_option("OVERLAY", *overlay,
                    "The overlay folder given to the mount; PAK's changes are in its folder "
                    "named like PAK (file name without .pak / .Pack.Gbx)")
        ->required();
    cmd->add_option("OUT", *out, "The pak to write (not with --in-place)");
    cmd->add_flag("--in-place", *inPlace, "Replace PAK (atomically) instead of writing OUT");
    cmd->add_flag("-n,--dry-run", *dryRun,
                  "Write nothing (OUT is not needed): list what would change, one line each: A "
                  "added, M changed, D "
                  "deleted (a folder's path ends in /)");
    cmd->add_flag("--json", *json,
                  "With --dry-run: {pak, overlay, changes: [{change, path}]}; otherwise the "
                  "summary as {out, files, folders, copied, encoded, changes}");
    cmd->add_option("--level", *level, "zlib level 0-9 for added and changed files (default 6)")
        ->check(CLI::Range(0, 9));
    auto jobs = std::make_shared<int>(0);
    cmd->add_option("-j,--jobs", *jobs,
                    "Threads encoding added and changed files (default: one per CPU pak may use: "
                    "its affinity, a cgroup v2 quota)")
        ->check(CLI::Range(1, 256));
    cmd->add_flag("-q,--quiet", *quiet, "No progress line");
    auto force = std::make_shared<bool>(false);
    cmd->add_flag("--force", *force,
                  "Apply the overlay even when its record (OVERLAY/.pakfs-packs, written by the "
                  "mount) says it was made over another pak, or was committed into PAK already");
    auto allowEmpty = std::make_shared<bool>(false);
    cmd->add_flag("--allow-empty", *allowEmpty,
                  "Write OUT even when the overlay has no changes for PAK (a copy of it); "
                  "without it, nothing is written and the exit status is 0");
    auto patch = std::make_shared<std::string>();
    cmd->add_option("--patch", *patch,
                    "For an overlay of a -o drives mount: PAK is the Packs folder, and the files "
                    "OVERLAY/Game adds or changes go into a new pack NAME (PAK/NAME.pak, or OUT) "
                    "that the game loads last, so it replaces them; deletions and Resource drive "
                    "changes cannot be expressed so and stop it. The key: --key/--base-key, or "
                    "the --packlist entry for NAME (made with a new key if there is none), else "
                    "the packlist.dat beside the pack written, as for pak pack. With "
                    "--packlist FILE, NAME is added to FILE, last (re-signed as pak packlist add "
                    "does), so the game loads it; the folder's own keys come from FILE too. "
                    "--json: the summary as {out, files, folders, changes}");
    addKeyOptions(cmd, *keys);
    cmd->callback([=, &exitCode] {
        if (!patch->empty()) {
            commitPatch(*patch, *pakPath, *overlay, *out, keys->packList.string(), *keys, *level,
                        *jobs, *dryRun, *json, *inPlace);
            return;
        }
        if (*inPlace && !out->empty()) throw UsageError("give OUT or --in-place, not both");
        if (!*inPlace && out->empty() && !*dryRun)
            throw UsageError("give OUT, or --in-place to replace PAK");
        if (!keys->msKeyHex.empty())
            throw UsageError(
                "--ms-key cannot be used to write a pack (the key would depend on the checksum "
                "of what it encrypts); give --key or --base-key");
        std::error_code ec;
        if (!std::filesystem::is_directory(*overlay, ec))
            throw Error(*overlay + (std::filesystem::exists(*overlay, ec)
                                        ? ": not a folder (OVERLAY is the folder given to the "
                                          "mount as -o overlay=)"
                                        : ": no such folder"));
        auto pak = openAndWarn(*pakPath, *keys);
        if (!pak->hasKey())
            throw Error(*pakPath + ": the pack key is needed to write it (--key, --base-key)");
        const std::filesystem::path packOverlay = fs::overlayFolderOf(*overlay, *pak);
        const std::string packName = archive::packNameOf(pak->name());
        if (!*force) fs::checkOverlayRecord(*overlay, packName, *pak, *pakPath);
        archive::ChangePlan plan = fs::planCommit(pak, packOverlay);
        if (*dryRun) {
            printChanges(plan, *pakPath, packOverlay.string(), *json);
            return;
        }
        const std::string dest = *inPlace ? *pakPath : *out;
        if (plan.changes.empty() && (*inPlace || !*allowEmpty)) {
            std::fprintf(
                stderr, "%s: nothing to commit: %s holds no changes for it; %s\n", pakPath->c_str(),
                packOverlay.c_str(),
                *inPlace ? "left as it is" : "nothing written (--allow-empty writes OUT anyway)");
            return;
        }
        archive::PackOptions opts = plan.options;
        opts.level = *level;
        opts.jobs = *jobs;
        opts.warn = [](const std::string& m) {
            std::fprintf(stderr, "pak: warning: %s\n", m.c_str());
        };
        std::shared_ptr<ProgressLine> progress;
        if (!*quiet && !*json && ::isatty(STDERR_FILENO))
            opts.progress = [&progress](std::size_t done, std::size_t total, std::uint64_t bytes,
                                        std::uint64_t totalBytes) {
                if (!progress) progress = std::make_shared<ProgressLine>(total, totalBytes);
                if (done == total)
                    progress->finish(done, bytes);
                else
                    progress->update(done, bytes);
            };
        archive::PackResult r = archive::writePlan(plan.plan, dest, pak->key(), opts);
        const std::size_t encoded = r.files - r.copiedFromBase;
        if (*inPlace) {
            // The overlay's changes are in the pak now: a second commit says so.
            fs::markCommitted(*overlay, packName,
                              *archive::openPakIndex(dest, archive::PakKeyInput{pak->key()}),
                              *pakPath);
        }
        if (*json) {
            nlohmann::json j = {{"out", dest},          {"files", r.files},
                                {"folders", r.folders}, {"copied", r.copiedFromBase},
                                {"encoded", encoded},   {"changes", plan.changes.size()}};
            std::cout << j.dump(2) << "\n";
        } else {
            std::fprintf(stderr,
                         "%s: %zu files in %zu folders (%zu copied as they were, %zu encoded), "
                         "%zu changes\n",
                         dest.c_str(), r.files, r.folders, r.copiedFromBase, encoded,
                         plan.changes.size());
        }
        if (!*inPlace) adviseHowItOpens(dest, pak->key(), keyStringOf(*pakPath, *keys, pak->key()));
        (void)exitCode;
    });
}

}  // namespace pakfs::cli
