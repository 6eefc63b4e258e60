// SPDX-License-Identifier: GPL-2.0-or-later
// Hashed file names of version 6+ packs (PACK-V6-NOTES, Hashed names): a file may be stored
// under 34 hex digits instead of (a suffix of) its path. Real names are only ever shown when
// they hash to the stored name, so a wrong candidate can never rename a file.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gbx/Header.hpp"

namespace pakfs::archive {

class PakIndex;

// The stored form of a path's hash: the byte length of the lower-cased path (modulo 256), then
// its MD5; 34 upper-case hex digits, the low nibble of each byte first. The path uses
// backslashes; lower-casing is ASCII only (the game's names are ASCII; both vectors of the notes
// agree with it).
std::string hashedName(std::string_view backslashPath);

// Whether a stored name looks like a hash (34 upper-case hex digits).
bool looksHashed(std::string_view name);

struct HashedEntryName {
    std::string folder;  // the entry's folder in the pack, "/"-separated ("" at the root)
    std::string name;    // its stored name
};

// Real paths (relative to the pack root, "/"-separated) for hashed entries: a candidate path
// A/B/C/name names the entry stored in folder A/B/C as h(name), in A/B as h(C\name), in A as
// h(B\C\name) or at the root as h(A\B\C\name) (folders compared case-insensitively). Entries
// no candidate matches are left out.
std::map<std::size_t, std::string> resolveHashedNames(const std::vector<HashedEntryName>& entries,
                                                      const std::vector<std::string>& candidates);

// The path (relative to the pack root, "/"-separated) an external reference of the gbx file at
// `referrerPath` points to: up ancestorLevel folders from its folder, into the reference
// table's folder, then the name. Nullopt for by-resource references, bad indexes, or a path
// climbing above the root.
std::optional<std::string> refCandidatePath(const std::string& referrerPath,
                                            const gbx::RefTable& refs, const gbx::ExternalRef& ref);

// Real paths for the hashed entries of a pack, from the reference tables of its gbx files
// (entries whose header decodes; locked ones are skipped), repeated while a newly named gbx
// file names more. By entry index.
std::map<std::size_t, std::string> resolvePackNames(const std::shared_ptr<const PakIndex>& pak);

}  // namespace pakfs::archive
