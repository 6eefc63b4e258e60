// SPDX-License-Identifier: GPL-2.0-or-later
// Options shared by the commands that read a pak's entries: --salvage, --unverified, and the
// --hashed-names, --names, --salvage and key options of ls, cat and extract together.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/PathPattern.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"

namespace pakfs::cli {

// --salvage on the commands that read a pak's files or file table (info, ls, cat, extract).
inline void addSalvageFlag(CLI::App* cmd, bool& salvage) {
    cmd->add_flag("--salvage", salvage,
                  "Read a pak cut short: the files whose bytes are all there are read (proven as "
                  "usual), each other one is named on stderr with where its data ends; exit 1 if "
                  "any is left out");
}

// --unverified on the commands that write a file's bytes (cat, extract).
inline void addUnverifiedFlag(CLI::App* cmd, bool& unverified) {
    cmd->add_flag("--unverified", unverified,
                  "Write a stored gbx file that cannot be proven (chunks no reader knows, no "
                  "checksum) as the node scan's best decode, and a version 6+ file encrypted in "
                  "counter mode without a checksum (stored or LZ4) as its counter-mode decode, "
                  "with a warning per file, instead of refusing it");
}

// The options that say how ls, cat and extract open the pak: the name lists, --salvage and the
// key, added after the command's own in that order.
struct ReadArgs {
    archive::KeyOptions keys;
    std::vector<std::string> names;
    bool hashedNames = false;
    bool salvage = false;
};

inline void addReadOptions(CLI::App* cmd, ReadArgs& a) {
    addHashedNamesFlag(cmd, a.hashedNames);
    addNamesOption(cmd, a.names);
    addSalvageFlag(cmd, a.salvage);
    addKeyOptions(cmd, a.keys);
}

// The pak at `path` opened as the options say (openAndWarn): hashed names resolved unless
// --hashed-names.
inline std::shared_ptr<const archive::PakIndex> openForReading(const std::string& path,
                                                               const ReadArgs& a) {
    return openAndWarn(path, a.keys, !a.hashedNames, a.names, a.salvage);
}

// The PATH|GLOB arguments of ls and extract, one help text for both.
inline constexpr const char* kPathPatternHelp =
    "Files or folders inside the pak (a folder stands for what is under it), or glob patterns: "
    "* and ? do not match /, ** does; names compared without regard to case, as the game "
    "compares them";

// The pak's files and folders `wanted` selects, each folder once; every pattern that selects
// none of them is named on stderr and makes the exit status 1.
inline void selectPaths(const archive::PakIndex& pak, PathSelection& wanted,
                        std::vector<const archive::PakEntry*>& entries,
                        std::vector<const archive::PakFolder*>* folders, int& exitCode) {
    for (const auto& e : pak.entries())
        if (wanted.selects(e.path)) entries.push_back(&e);
    for (const auto& f : pak.folders())
        if (wanted.selects(f.path) && folders) folders->push_back(&f);
    for (const auto& p : wanted.unmatched()) {
        if (p.isGlob())
            std::fprintf(stderr, "pak: %s: nothing in the pak matches \"%s\"\n", pak.name().c_str(),
                         p.given().c_str());
        else
            std::fprintf(stderr, "pak: %s: no file or folder \"%s\" in the pak\n",
                         pak.name().c_str(), p.given().c_str());
        exitCode = kExitBadInput;
    }
}

}  // namespace pakfs::cli
