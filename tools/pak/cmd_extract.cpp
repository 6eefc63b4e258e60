// SPDX-License-Identifier: GPL-2.0-or-later
// pak extract: files of a pak into a folder.
#include <algorithm>
#include <cstdio>

#include "archive/ops/Extract.hpp"
#include "common/Cpus.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/EntryArgs.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

void addExtractCommands(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand("extract",
                                   "Extract files (all, or those the PATHs and GLOBs select) "
                                   "into DIR; never writes outside DIR");
    auto read = std::make_shared<ReadArgs>();
    auto pakPath = std::make_shared<std::string>();
    auto dir = std::make_shared<std::string>(".");
    auto paths = std::make_shared<std::vector<std::string>>();
    auto quiet = std::make_shared<bool>(false);
    auto jobs = std::make_shared<unsigned>(0);
    cmd->add_option("PAK", *pakPath, "The .pak file")->required();
    cmd->add_option("DIR", *dir, "Target folder (default: the current folder)");
    cmd->add_option("PATH", *paths, kPathPatternHelp);
    cmd->add_flag("-q,--quiet", *quiet, "No progress line");
    cmd->add_option("-j,--jobs", *jobs,
                    "Threads (default: the CPUs pak may use: its affinity, a cgroup v2 quota)");
    auto unverified = std::make_shared<bool>(false);
    addUnverifiedFlag(cmd, *unverified);
    auto overwrite = std::make_shared<bool>(false);
    cmd->add_flag("--overwrite", *overwrite,
                  "Replace files already in DIR (without it they are kept as they are, "
                  "counted in one line at the end, and the exit status is 1)");
    addReadOptions(cmd, *read);
    cmd->callback([=, &exitCode] {
        auto pak = openForReading(*pakPath, *read);
        PathSelection wanted(*paths);
        std::vector<const PakEntry*> selected;
        std::vector<const PakFolder*> folders;
        selectPaths(*pak, wanted, selected, &folders, exitCode);
        std::vector<const PakEntry*> todo;
        std::size_t notSalvaged = 0;
        for (const auto* e : selected) {
            if (leftOut(*pak, *e))
                ++notSalvaged;
            else
                todo.push_back(e);
        }
        if (todo.empty() && folders.empty() && notSalvaged == 0 && !paths->empty())
            return;  // DIR not made
        ExtractOptions opts;
        opts.jobs = *jobs ? *jobs : unsigned(availableCpus());
        opts.progress = progressShown(*quiet);
        opts.error = [](const std::string& msg) { std::fprintf(stderr, "pak: %s\n", msg.c_str()); };
        opts.gbx.unverified = *unverified;
        opts.warn = warn;
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
            std::fprintf(stderr, "pak: %zu of %zu file%s could not be extracted\n",
                         r.failed + notSalvaged, todo.size() + notSalvaged,
                         todo.size() + notSalvaged == 1 ? "" : "s");
            exitCode = kExitBadInput;
        }
        if (r.failedFolders > 0) exitCode = kExitBadInput;  // each named on its line
    });
}

}  // namespace pakfs::cli
