// SPDX-License-Identifier: GPL-2.0-or-later
// A keys file (--keys, -o keys=): the key of each pack of a folder, one line each.
#pragma once

// ManiaPlanet keeps no packlist.dat: each pack has a key of its own, so a folder of packs needs
// one key per pack. A keys file gives them, one pack a line:
//   NAME KIND HEX
// NAME the pack file's name without its extension (".pak", ".Pack.Gbx"), matched without regard
// to case; KIND `key` (the pack key), `base-key` (pack key = MD5 of the upper-case hex followed
// by "NadeoPak") or `ms-key` (a master server key, combined with the pack's contents checksum);
// HEX 32 hex digits. `#` starts a comment (at the start of a line or after white space); blank
// lines are skipped.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

enum class KeysFileKind { Key, BaseKey, MsKey };

struct KeysFileEntry {
    std::string name;  // as written
    KeysFileKind kind = KeysFileKind::Key;
    PakKey value{};
    std::size_t line = 0;  // 1-based
};

struct KeysFile {
    std::string name;  // the file, for messages
    std::vector<KeysFileEntry> entries;
    // The entry of the pack named `packName` (compared without regard to case); null if none.
    const KeysFileEntry* find(std::string_view packName) const;
};

// The key as PakIndex::open takes it: a base key turned into the pack key, a master server key
// marked as such.
PakKeyInput keyInputOf(const KeysFileEntry& entry);
// "key", "base-key" or "ms-key".
const char* keysFileKindName(KeysFileKind kind);

// Parses a keys file's text; `name` names it in errors. Throws Error "NAME: line N: <problem>"
// for the first malformed line (not three fields, an unknown KIND, HEX not 32 hex digits, a NAME
// with a path separator or a pack file extension, a pack listed twice).
KeysFile parseKeysFile(std::string_view text, const std::string& name);
// parseKeysFile of a file (at most 16 MiB); throws Error naming it when it cannot be read.
KeysFile readKeysFile(const std::filesystem::path& path);

}  // namespace pakfs::archive
