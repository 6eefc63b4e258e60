// SPDX-License-Identifier: GPL-2.0-or-later
// The options that name a pak's key (and --names), shared by the commands that open paks.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "archive/pak/PackList.hpp"

namespace pakfs::cli {

// Checks a key option's value as it is parsed: a malformed one is a usage error before any
// file is opened (archive::parseKeyOption throws UsageError, which CLI11 lets through).
inline std::function<std::string(const std::string&)> keyHexCheck(const std::string& option) {
    return [option](const std::string& hex) {
        (void)archive::parseKeyOption(hex, option);
        return std::string();
    };
}

// --key / --key-file / --packlist / --base-key / --ms-key / --keys on a subcommand. A version 6+
// pack lists without a key when its header allows; files that need it are refused.
inline void addKeyOptions(CLI::App* cmd, archive::KeyOptions& keys) {
    cmd->add_option("--key", keys.keyHex, "The pak's 16-byte Blowfish key as 32 hex digits")
        ->check(keyHexCheck("--key"));
    cmd->add_option("--key-file", keys.keyFile, "File holding the key (16 bytes or 32 hex digits)");
    cmd->add_option("--packlist", keys.packList,
                    "packlist.dat to take the key from (default: the one beside the pak)");
    cmd->add_option("--base-key", keys.baseKeyHex,
                    "Version 6+: a base key as 32 hex digits; the pack key is MD5 of its "
                    "upper-case hex followed by \"NadeoPak\"")
        ->check(keyHexCheck("--base-key"));
    cmd->add_option("--ms-key", keys.msKeyHex,
                    "Version 6+: a master server key as 32 hex digits, combined with the pack's "
                    "contents checksum")
        ->check(keyHexCheck("--ms-key"));
    cmd->add_option("--keys", keys.keysFile,
                    "A key for each pack, by name: lines NAME KIND HEX (NAME the pack file's name "
                    "without its extension, KIND key, base-key or ms-key; see pak(1)); not with "
                    "--key, --key-file, --base-key or --ms-key");
}

// --hashed-names: version 6+ files stored under a hashed name listed as the hash, not under
// the real name found for them (the default). --resolve-names, which asked for the real names
// before they were the default, is still taken (hidden from --help) and does nothing.
inline void addHashedNamesFlag(CLI::App* cmd, bool& hashed) {
    cmd->add_flag("--hashed-names", hashed,
                  "Version 6+: show files stored under a hashed name as that hash, not under the "
                  "real path a gbx file of the pack refers to them by; not with --names");
    cmd->add_flag("--resolve-names")->group("");
}

// --names FILE (repeatable): hash-to-name lists for the hashed names of version 6+ packs.
inline void addNamesOption(CLI::App* cmd, std::vector<std::string>& lists) {
    cmd->add_option("--names", lists,
                    "Version 6+: a hash-to-name list as players share them (HASH NAME lines; see "
                    "pak(1)) for hashed names the pack's references do not name, each checked by "
                    "hashing it; may be repeated")
        ->allow_extra_args(false);  // one FILE each: what follows is PAK, DIR...
}

// The options of the commands that read every file of a pak with a progress line (check,
// diff): -q/--quiet, --hashed-names and --names, in that order.
struct ScanArgs {
    bool quiet = false;
    bool hashedNames = false;
    std::vector<std::string> names;
};

inline void addScanOptions(CLI::App* cmd, ScanArgs& a) {
    cmd->add_flag("-q,--quiet", a.quiet,
                  "No progress line (shown on a terminal: files and bytes done, rate)");
    addHashedNamesFlag(cmd, a.hashedNames);
    addNamesOption(cmd, a.names);
}

}  // namespace pakfs::cli
