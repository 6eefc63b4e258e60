// SPDX-License-Identifier: GPL-2.0-or-later
// packlist.dat: the game's list of pack names and the key strings their keys derive from.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/cipher/Crypto.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

struct PackListEntry {
    std::uint8_t flags = 0;
    std::string name;       // pack name without extension
    std::string keyString;  // 32 bytes, normally ASCII hex
    PakKey key() const;
};

struct PackList {
    std::uint8_t version = 1;
    std::uint32_t crc32 = 0;
    std::uint32_t salt = 0;
    std::vector<PackListEntry> entries;
    bool signatureValid = true;     // as read
    std::size_t trailingBytes = 0;  // bytes between the last entry and the signature

    const PackListEntry* find(const std::string& packName) const;  // case-insensitive
    // Moves the entry for `packName` last (the game loads packs in list order, so the last
    // one's files win), or adds one there with a new key string; `added` says which. Throws
    // Error for a name packNameProblem refuses.
    const PackListEntry& putLast(const std::string& packName, bool& added);
    // The names of the entries after the one for `packName` (none when it has none).
    std::vector<std::string> namesAfter(const std::string& packName) const;
};

// Why `name` cannot name a pack in a packlist.dat (nullopt: it can), to follow the name in a
// message ("is empty"): empty, over 255 bytes, or holding a path separator ('/' or '\\': a
// pack is named by its file's name alone).
std::optional<std::string> packNameProblem(std::string_view name);

// A new random key string: 32 upper-case hex digits.
std::string newKeyString();

// pak key = MD5(keyString + "NadeoPak").
PakKey keyFromKeyString(std::string_view keyString);

PackList readPackList(const std::filesystem::path& path);
// The list in `path`, or an empty one with a new random salt when there is no such file.
PackList readPackListOrNew(const std::filesystem::path& path);
PackList parsePackList(ByteSpan data, const std::string& name);
Bytes serializePackList(const PackList& list);  // signed
void writePackList(const std::filesystem::path& path, const PackList& list);

// How the user named a key; resolveKey applies them in this order, then packlist.dat beside
// the pak (case-insensitive file name), matched by the pak's file name without extension. A pak
// that no packlist entry names opens with the key of the first entry its header MD5 fits (a
// version 3 pak, or a version 6+ pack with a private header), with a note saying which.
struct KeyOptions {
    std::string keyHex;
    std::filesystem::path keyFile;
    std::filesystem::path packList;
    std::string baseKeyHex;  // version 6+: the pack key is MD5(upper-case hex + "NadeoPak")
    std::string msKeyHex;    // version 6+: a master server key, combined with the checksum
    // A keys file (archive/pak/KeysFile.hpp): a key per pack name, before the packlist; not
    // with the four above (UsageError). A pack it does not name falls back to the packlist.
    std::filesystem::path keysFile{};
};
// The key options as a command line gives them (" --key HEX --packlist FILE"...), each value one
// shell word: what a command an error message suggests repeats, to run as printed.
std::string keyOptionWords(const KeyOptions& options);
// A key given as an option's value (--key, --base-key, --ms-key): 32 hex digits, else a
// UsageError naming `option`.
PakKey parseKeyOption(const std::string& hex, const std::string& option);
// Throws UsageError when the options name a key in ways that exclude each other (two of --key,
// --key-file, --base-key and --ms-key; --keys with any of them): before any pak is opened.
void checkKeyOptions(const KeyOptions& options);
// A pack is written with a key that does not depend on what it holds: throws UsageError for
// --ms-key (the key would depend on the checksum of what it encrypts).
void refuseMsKeyForWriting(const KeyOptions& options);
PakKey resolveKey(const std::filesystem::path& pakPath, const KeyOptions& options,
                  std::vector<std::string>* warnings = nullptr);
// The key as PakIndex::open takes it. A version 3 pak needs one (as resolveKey); a version 6+
// pack gets none when none is given and packlist.dat has none for it, and shows what it can.
PakKeyInput resolvePakKey(const std::filesystem::path& pakPath, const KeyOptions& options,
                          std::vector<std::string>* warnings = nullptr);
// --base-key: MD5 of the 16 bytes as upper-case hex followed by "NadeoPak".
PakKey keyFromBaseKey(const PakKey& baseKey);
// Finds packlist.dat in a folder, whatever its case.
std::optional<std::filesystem::path> findPackList(const std::filesystem::path& dir);
// The pack file named `packName` in a folder (names compared as the game compares them, without
// regard to case), whether it opens or not.
std::optional<std::filesystem::path> findPackFile(const std::filesystem::path& dir,
                                                  const std::string& packName);
// Whether a file is named as a pack: ".pak" or ".Pack.Gbx", in any case.
bool isPackFile(const std::filesystem::path& path);
// Pack name for a pak path: file name without extension (".pak" or ".Pack.Gbx").
std::string packNameOf(const std::filesystem::path& pakPath);

}  // namespace pakfs::archive
