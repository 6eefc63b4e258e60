// SPDX-License-Identifier: GPL-2.0-or-later
// pak commit: a pak with the changes a writable mount kept in its overlay folder.
#include <cstdio>
#include <iostream>
#include <memory>

#include "commit/CommitPak.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

namespace pakfs::cli {

namespace {

// What `pak commit` is given.
struct CommitArgs {
    archive::KeyOptions keys;
    std::string pakPath, overlay, out, patch;
    std::string outOption;  // -o OUT
    bool inPlace = false, dryRun = false, json = false, quiet = false;
    bool force = false, allowEmpty = false, wait = false;
    int level = 6, jobs = 0;
};

// PAK, OVERLAY, OUT and what is written.
void addOutputOptions(CLI::App* cmd, CommitArgs& a) {
    cmd->add_option("PAK", a.pakPath, "The pak the overlay was made over")->required();
    cmd->add_option("OVERLAY", a.overlay,
                    "The overlay folder given to the mount; PAK's changes are in its folder "
                    "named like PAK (file name without .pak / .Pack.Gbx)")
        ->required();
    cmd->add_option("OUT", a.out, "The pak to write (not with --in-place; or give it as -o OUT)");
    cmd->add_option("-o,--out", a.outOption,
                    "The pak to write, as pak add, rm and mv take it (the same as OUT)");
    cmd->add_flag("--in-place", a.inPlace, "Replace PAK (atomically) instead of writing OUT");
    cmd->add_flag("-n,--dry-run", a.dryRun,
                  "Write nothing (OUT is not needed): list what would change, one line each: A "
                  "added, M changed, D "
                  "deleted (a folder's path ends in /)");
    cmd->add_flag("--json", a.json,
                  "With --dry-run: {pak, overlay, changes: [{change, path}]}; otherwise the "
                  "summary as {out, files, folders, copied, encoded, changes}");
    cmd->add_option("--level", a.level, "zlib level 0-9 for added and changed files (default 6)")
        ->check(CLI::Range(0, 9));
    cmd->add_option("-j,--jobs", a.jobs,
                    "Threads encoding added and changed files (default: one per CPU pak may use: "
                    "its affinity, a cgroup v2 quota)")
        ->check(CLI::Range(1, 256));
    cmd->add_flag("-q,--quiet", a.quiet, "No progress line");
}

// When an overlay is applied anyway, and --patch.
void addOverlayOptions(CLI::App* cmd, CommitArgs& a) {
    cmd->add_flag("--force", a.force,
                  "Apply the overlay even when its record (OVERLAY/.pakfs-packs, written by the "
                  "mount) says it was made over another pak, or was committed into PAK already");
    cmd->add_flag("--allow-empty", a.allowEmpty,
                  "Write OUT even when the overlay has no changes for PAK (a copy of it); "
                  "without it, nothing is written and the exit status is 0");
    cmd->add_option("--patch", a.patch,
                    "For a -o drives mount's overlay: PAK is the Packs folder; the files "
                    "OVERLAY/Game adds or changes go into a new pack NAME (PAK/NAME.pak, or OUT) "
                    "the game loads last; deletions and Resource drive changes stop it. The key "
                    "as for pak pack; --packlist FILE also adds NAME to FILE, last (see pak(1))");
}

void warnLine(const std::string& m) {
    warn(m);
}

// pak commit --patch NAME PACKS OVERLAY [OUT]
void runPatch(const CommitArgs& a) {
    if (a.inPlace)
        throw UsageError("--in-place does not go with --patch (a patch pack is a new pack)");
    commit::PatchRequest request{a.patch, a.pakPath, a.overlay, a.out,  a.keys.packList, a.keys,
                                 a.level, a.jobs,    a.dryRun,  a.wait, warnLine};
    printPatch(commit::commitPatch(request), a.overlay, a.keys.packList.string(), a.dryRun, a.json);
}

// pak commit PAK OVERLAY [OUT]
void runCommit(const CommitArgs& a) {
    if (a.inPlace && !a.out.empty()) throw UsageError("give OUT or --in-place, not both");
    if (!a.inPlace && a.out.empty() && !a.dryRun)
        throw UsageError("give OUT, or --in-place to replace PAK");
    commit::CommitRequest request;
    request.pak = a.pakPath;
    request.overlay = a.overlay;
    request.out = a.out;
    request.keys = a.keys;
    request.level = a.level;
    request.jobs = a.jobs;
    request.dryRun = a.dryRun;
    request.allowEmpty = a.allowEmpty;
    request.force = a.force;
    request.wait = a.wait;
    request.warn = warnLine;
    Progress progress(a.quiet || a.json);
    request.progress = progress.callback();
    const commit::CommitResult r = commit::commitOverlay(request);
    if (a.dryRun) {
        printChanges(r.plan, a.pakPath, r.packOverlay.string(), a.json);
        return;
    }
    if (!r.written) {
        std::fprintf(
            stderr, "%s: nothing to commit: %s holds no changes for it; %s\n", a.pakPath.c_str(),
            r.packOverlay.c_str(),
            a.inPlace ? "left as it is" : "nothing written (--allow-empty writes OUT anyway)");
        return;
    }
    printWritten(r, a.inPlace ? a.pakPath : a.out, a.json);
    if (!a.inPlace) adviseHowItOpens(a.out, r.key, keyStringOf(a.pakPath, a.keys, r.key));
}

}  // namespace

void addCommitCommands(CLI::App& app, int& /*exitCode*/) {
    auto* cmd = app.add_subcommand("commit",
                                   "Write PAK with an overlay folder's changes (pakfs -o overlay) "
                                   "applied, as OUT or in place");
    cmd->footer(
        "Files the overlay does not touch are copied as their encrypted bytes; added and changed\n"
        "files are encoded as pak pack does; whiteouts delete. The result keeps PAK's version,\n"
        "key and header fields. Written to a temporary file beside the output, synced and\n"
        "renamed: an interrupted commit leaves every file as it was.");
    auto args = std::make_shared<CommitArgs>();
    addOutputOptions(cmd, *args);
    addOverlayOptions(cmd, *args);
    addKeyOptions(cmd, args->keys);
    cmd->add_flag("--wait", args->wait,
                  "When another pak command is writing the pak (or OUT), wait for it to finish "
                  "instead of refusing at once");
    cmd->callback([args] {
        if (!args->outOption.empty()) {
            if (!args->out.empty())
                throw UsageError("give OUT once: as an argument or as -o OUT, not both");
            args->out = args->outOption;
        }
        if (!args->patch.empty())
            runPatch(*args);
        else
            runCommit(*args);
    });
}

}  // namespace pakfs::cli
