// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <CLI/CLI.hpp>

#include "archive/PackList.hpp"

namespace pakfs::cli {

// --key / --key-file / --packlist / --base-key / --ms-key on a subcommand. A version 6+
// pack lists without a key when its header allows; files that need it are refused.
inline void addKeyOptions(CLI::App* cmd, archive::KeyOptions& keys) {
    cmd->add_option("--key", keys.keyHex, "The pak's 16-byte Blowfish key as 32 hex digits");
    cmd->add_option("--key-file", keys.keyFile, "File holding the key (16 bytes or 32 hex digits)");
    cmd->add_option("--packlist", keys.packList,
                    "packlist.dat to take the key from (default: the one beside the pak)");
    cmd->add_option("--base-key", keys.baseKeyHex,
                    "Version 6+: a base key as 32 hex digits; the pack key is MD5 of its "
                    "upper-case hex followed by \"NadeoPak\"");
    cmd->add_option("--ms-key", keys.msKeyHex,
                    "Version 6+: a master server key as 32 hex digits, combined with the pack's "
                    "contents checksum");
}

}  // namespace pakfs::cli
