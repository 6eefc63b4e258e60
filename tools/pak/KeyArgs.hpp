// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <CLI/CLI.hpp>

#include "archive/PackList.hpp"

namespace pakfs::cli {

// --key / --key-file / --packlist on a subcommand.
inline void addKeyOptions(CLI::App* cmd, archive::KeyOptions& keys) {
    cmd->add_option("--key", keys.keyHex, "The pak's 16-byte Blowfish key as 32 hex digits");
    cmd->add_option("--key-file", keys.keyFile, "File holding the key (16 bytes or 32 hex digits)");
    cmd->add_option("--packlist", keys.packList,
                    "packlist.dat to take the key from (default: the one beside the pak)");
}

}  // namespace pakfs::cli
