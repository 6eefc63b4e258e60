// SPDX-License-Identifier: GPL-2.0-or-later
// pak commit: a pak with the changes a writable mount kept in its overlay folder.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/Progress.hpp"
#include "fs/Commit.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"

namespace pakfs::cli {

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
    auto level = std::make_shared<int>(9);
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
    cmd->add_option("--level", *level, "zlib level 0-9 for added and changed files (default 9)")
        ->check(CLI::Range(0, 9));
    cmd->add_flag("-q,--quiet", *quiet, "No progress line");
    addKeyOptions(cmd, *keys);
    cmd->callback([=, &exitCode] {
        if (*inPlace && !out->empty()) throw Error("give OUT or --in-place, not both");
        if (!*inPlace && out->empty() && !*dryRun)
            throw Error("give OUT, or --in-place to replace PAK");
        if (!keys->msKeyHex.empty())
            throw Error(
                "--ms-key cannot be used to write a pack (the key would depend on the checksum "
                "of what it encrypts); give --key or --base-key");
        auto pak = openPak(*pakPath, *keys);
        if (!pak->hasKey())
            throw Error(*pakPath + ": the pack key is needed to write it (--key, --base-key)");
        const std::filesystem::path packOverlay = fs::overlayFolderOf(*overlay, *pak);
        std::error_code ec;
        if (!std::filesystem::is_directory(*overlay, ec))
            throw Error(*overlay + ": no such folder");
        fs::CommitPlan plan = fs::planCommit(pak, packOverlay);
        if (*dryRun) {
            if (*json) {
                nlohmann::json changes = nlohmann::json::array();
                for (const auto& c : plan.changes)
                    changes.push_back({{"change", std::string(1, c.kind)}, {"path", c.path}});
                nlohmann::json j = {
                    {"pak", *pakPath}, {"overlay", packOverlay.string()}, {"changes", changes}};
                std::cout << j.dump(2) << "\n";
            } else {
                for (const auto& c : plan.changes) std::printf("%c %s\n", c.kind, c.path.c_str());
                std::fprintf(stderr, "%s: %zu changes from %s\n", pakPath->c_str(),
                             plan.changes.size(), packOverlay.c_str());
            }
            return;
        }
        const std::string dest = *inPlace ? *pakPath : *out;
        if (*inPlace && plan.changes.empty()) {
            std::fprintf(stderr, "%s: no changes in %s; left as it is\n", pakPath->c_str(),
                         packOverlay.c_str());
            return;
        }
        archive::PackOptions opts = plan.options;
        opts.level = *level;
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
        (void)exitCode;
    });
}

}  // namespace pakfs::cli
