// SPDX-License-Identifier: GPL-2.0-or-later
// Flags shared by the commands that read a pak's entries: --salvage and --unverified.
#pragma once

#include <CLI/CLI.hpp>

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

}  // namespace pakfs::cli
