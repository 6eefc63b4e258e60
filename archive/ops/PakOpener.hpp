// SPDX-License-Identifier: GPL-2.0-or-later
// The one way every frontend (the pak CLI, the mount, commit) opens a pak: the path checked
// first, then the key, the index, and the real names of hashed entries.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "archive/ops/HashedNames.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

struct PakOpenOptions {
    // Version 6+: entries stored under a hashed name get the real path a gbx reference table
    // of the pack gives them (checked by hashing), the hash otherwise. On by default: the
    // frontends show real names unless asked for the hashes (--hashed-names, -o hashed_names).
    bool resolveNames = true;
    // Version 6+: hash-to-name lists players share, for the hashed entries the reference
    // tables do not name (or, without resolveNames, for all of them).
    std::vector<HashList> nameLists{};
    // See PakIndex::open.
    bool salvage = false;
    PakIndex::ContentsCheck contents = PakIndex::ContentsCheck::Whole;
};

struct OpenedPak {
    std::shared_ptr<const PakIndex> pak;
    // What does not stop the pak from being read, in the order found: the key's (packlist.dat)
    // and the index's own (checksums that differ).
    std::vector<std::string> warnings;
};

// Opens the pak at `path` with the key `keys` name. The file is checked before any key is
// looked up, so a wrong path is "no such file" or "not a pak", not a missing key. Throws Error
// naming the file.
OpenedPak openPak(const std::filesystem::path& path, const KeyOptions& keys,
                  const PakOpenOptions& options = {});
// Packs read together (a Packs folder, several paks given), each opened with resolveNames
// false and no name lists: every index replaced by a copy whose hashed entries show the real
// paths the reference tables of all of them give (resolvePacksNames), then those of
// `options.nameLists`. Nothing changes when neither is asked for.
void resolveNamesTogether(std::vector<std::shared_ptr<const PakIndex>>& paks,
                          const PakOpenOptions& options);

// The same with a key already in hand (no path check, no key lookup).
std::shared_ptr<const PakIndex> openPakIndex(const std::filesystem::path& path,
                                             const PakKeyInput& key,
                                             const PakOpenOptions& options = {});

}  // namespace pakfs::archive
