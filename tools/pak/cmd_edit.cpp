// SPDX-License-Identifier: GPL-2.0-or-later
// pak add, pak rm, pak mv: one-step edits of a pak without a mount (commit/PakEdits.hpp).
#include <cstdio>
#include <memory>

#include "commit/PakEdits.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

namespace pakfs::cli {

namespace {

// The options every edit takes, and what it does with its result.
struct EditOptions {
    std::string pak;
    std::string out;
    archive::KeyOptions keys;
    int level = 6;
    int jobs = 0;
    bool dryRun = false;
    bool json = false;
    bool quiet = false;
    bool wait = false;

    void addTo(CLI::App* cmd) {
        cmd->add_option("-o,--out", out,
                        "Write the result to OUT instead of replacing PAK (atomically) in place");
        cmd->add_flag("-n,--dry-run", dryRun,
                      "Write nothing: list what would change, one line each (A added, M "
                      "changed, D deleted; a folder's path ends in /)");
        cmd->add_flag("--json", json,
                      "With --dry-run: {pak, overlay, changes: [{change, path}]}; otherwise the "
                      "summary as {out, files, folders, copied, encoded, changes}");
        cmd->add_option("--level", level, "zlib level 0-9 for added and changed files (default 6)")
            ->check(CLI::Range(0, 9));
        cmd->add_option("-j,--jobs", jobs, "Threads encoding added files (default: one per CPU)")
            ->check(CLI::Range(1, 256));
        cmd->add_flag("-q,--quiet", quiet, "No progress line");
        cmd->add_flag("--wait", wait,
                      "When another pak command is writing the pak, wait for it instead of "
                      "refusing at once");
        addKeyOptions(cmd, keys);
    }

    commit::EditRequest request(Progress& progress) const {
        commit::EditRequest r;
        r.pak = pak;
        r.out = out;
        r.keys = keys;
        r.level = level;
        r.jobs = jobs;
        r.dryRun = dryRun;
        r.wait = wait;
        r.warn = [](const std::string& m) { warn(m); };
        r.progress = progress.callback();
        return r;
    }

    void print(const commit::CommitResult& r, const std::string& what) const {
        if (dryRun) {
            printChanges(r.plan, pak, what, json, false);
            return;
        }
        if (!r.written) {
            std::fprintf(stderr, "%s: nothing to change (%s); left as it is\n", pak.c_str(),
                         what.c_str());
            return;
        }
        printWritten(r, out.empty() ? pak : out, json);
        if (!out.empty()) adviseHowItOpens(out, r.key, keyStringOf(pak, keys, r.key));
    }
};

// An edit command's options in --help order: PAK (added here), the command's own (added by the
// caller between the two calls), then those every edit takes, with the run: `edit` makes the
// edit from the request, its result printed as `what`.
std::shared_ptr<EditOptions> addPakArgument(CLI::App* cmd) {
    auto o = std::make_shared<EditOptions>();
    cmd->add_option("PAK", o->pak, "The pak to change")->required();
    return o;
}

template <class Edit>
void addEditRun(CLI::App* cmd, const std::shared_ptr<EditOptions>& o, const char* what, Edit edit) {
    o->addTo(cmd);
    cmd->callback([o, what, edit] {
        Progress progress(o->quiet || o->json);
        o->print(edit(o->request(progress)), what);
    });
}

}  // namespace

void addEditCommands(CLI::App& app, int& /*exitCode: failures throw*/) {
    {
        auto* cmd = app.add_subcommand("add",
                                       "Add files or folders to PAK, or replace what it holds at "
                                       "their paths, without a mount");
        cmd->footer(
            "A replaced file keeps its class ID and flags. Written as pak commit writes,\n"
            "under its lock, untouched files copied as their encrypted bytes.");
        auto items = std::make_shared<std::vector<std::string>>();
        auto as = std::make_shared<std::string>();
        auto force = std::make_shared<bool>(false);
        auto o = addPakArgument(cmd);
        cmd->add_option("FILE", *items,
                        "Files and folders to add: a file goes to the top level under its name, "
                        "a folder with its tree")
            ->required();
        cmd->add_option("--as", *as,
                        "For one FILE: its full path in the pak (folders made as needed); for "
                        "one folder: the path its tree goes under");
        cmd->add_flag("--force", *force,
                      "Replace a folder of the pak by a file, or a file by a folder (refused "
                      "otherwise: the replaced folder's files would be gone)");
        addEditRun(cmd, o, "pak add", [=](const commit::EditRequest& request) {
            std::vector<std::filesystem::path> paths(items->begin(), items->end());
            return commit::addToPak(request, paths, *as, *force);
        });
    }
    {
        auto* cmd = app.add_subcommand(
            "rm",
            "Remove files or folders (and all in them) from PAK, by path or glob, without a mount");
        cmd->footer(
            "The folders it leaves empty go too. Written as pak commit writes, under its lock,\n"
            "untouched files copied as their encrypted bytes.");
        auto paths = std::make_shared<std::vector<std::string>>();
        auto o = addPakArgument(cmd);
        cmd->add_option("PATH", *paths,
                        "Paths in the pak, or glob patterns: * and ? do not match /, ** does "
                        "(names compared without regard to case); one that matches nothing "
                        "is an error and nothing is removed")
            ->required();
        addEditRun(cmd, o, "pak rm", [=](const commit::EditRequest& request) {
            return commit::removeFromPak(request, *paths);
        });
    }
    {
        auto* cmd = app.add_subcommand("mv",
                                       "Move (rename) a file or folder of PAK to a path it does "
                                       "not hold yet, without a mount");
        cmd->footer(
            "TO may also be a new spelling of FROM's name (readme.txt README.txt). Each\n"
            "file keeps its encrypted bytes, class ID, flags and metadata record. Written as\n"
            "pak commit writes, under its lock.");
        auto from = std::make_shared<std::string>();
        auto to = std::make_shared<std::string>();
        auto o = addPakArgument(cmd);
        cmd->add_option("FROM", *from, "The file or folder's path in the pak")->required();
        cmd->add_option("TO", *to, "Its new path in the pak")->required();
        addEditRun(cmd, o, "pak mv", [=](const commit::EditRequest& request) {
            return commit::moveInPak(request, *from, *to);
        });
    }
}

}  // namespace pakfs::cli
