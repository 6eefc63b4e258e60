// SPDX-License-Identifier: GPL-2.0-or-later
// pak extract: files of a pak into a folder.
#include <algorithm>
#include <cstdio>

#include "archive/entry/Extract.hpp"
#include "common/Cpus.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/EntryArgs.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

namespace {

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

}  // namespace

void addExtractCommands(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand("extract",
                                   "Extract files (all, or the PATHs and folders named) into "
                                   "DIR; never writes outside DIR");
    auto read = std::make_shared<ReadArgs>();
    auto pakPath = std::make_shared<std::string>();
    auto dir = std::make_shared<std::string>(".");
    auto paths = std::make_shared<std::vector<std::string>>();
    auto quiet = std::make_shared<bool>(false);
    auto jobs = std::make_shared<unsigned>(0);
    cmd->add_option("PAK", *pakPath, "The .pak file")->required();
    cmd->add_option("DIR", *dir, "Target folder (default: the current folder)");
    cmd->add_option("PATH", *paths, "Files or folders inside the pak to extract");
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
            std::fprintf(stderr, "pak: %zu of %zu files could not be extracted\n",
                         r.failed + notSalvaged, todo.size() + notSalvaged);
            exitCode = kExitBadInput;
        }
        if (r.failedFolders > 0) exitCode = kExitBadInput;  // each named on its line
    });
}

}  // namespace pakfs::cli
