// SPDX-License-Identifier: GPL-2.0-or-later
// The hashed file names of version 6+ packs and the hash-to-name lists that give them back.
#pragma once

// Hashed file names of ManiaPlanet and Trackmania 2020 packs. A file may be stored under the
// hash of a suffix of its backslash path: `A\B\C\name` may be stored in folder `A\B\C\` as
// h(name), in `A\B\` as h(C\name), in `A\` as h(B\C\name) or at the root as h(A\B\C\name).

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gbx/Header.hpp"

namespace pakfs::archive {

class PakIndex;

// The stored form of a path's hash: 17 bytes (the byte length of the lower-cased path modulo
// 256, then the MD5 of the lower-cased path) as 34 upper-case hex digits, the low nibble of each
// byte first. '/' is taken as '\' (the game hashes backslash paths; with slashes the documented
// vector does not match). Lower-casing is ASCII only: the documented vectors are ASCII and
// cannot tell, game paths are ASCII, and the rest of the project folds case the same way; a
// name with non-ASCII capitals may hash differently from the game's.
std::string hashedName(std::string_view backslashPath);

// Whether a stored file name looks like a hash: exactly 34 upper-case hex digits.
bool looksHashed(std::string_view name);

// One pack entry as resolveHashedNames sees it: its folder path in the pack ("A/B", "" for the
// root) and its stored name.
struct HashedEntryName {
    std::string folder;
    std::string name;
};

// Real names for hashed entries. `candidates` are real paths relative to the pack root
// (slashes or backslashes), e.g. from the reference tables of gbx files in the same pack.
// Returns, for each index of `entries` whose stored name is a hash that some candidate matches
// (for some split, the candidate's folder prefix equals the entry's folder case-insensitively
// and hashedName of the rest equals the stored name), the real path with slashes relative to
// the pack root: the entry's folder as the pack spells it, then the rest as the candidate
// spells it. Entries whose name does not look hashed, or that nothing matches, are absent.
// When candidates differing only in case match, the first in `candidates` wins.
std::map<std::size_t, std::string> resolveHashedNames(const std::vector<HashedEntryName>& entries,
                                                      const std::vector<std::string>& candidates);

// A name list as players share them: one line per name, the hash, white space, then the path
// (backslashes); also the two-line form, a hash line then a path line.
// Returns hash (upper case) -> path (as written, trimmed) for the pairs whose path hashes to the
// hash; the path is the hashed suffix, relative to the folder holding the hashed entry. Blank
// lines and comment lines (starting with '#') are skipped. Pairs whose path does not hash to their
// hash, hash lines without a path and lines that are neither are counted in *rejected. A hash
// listed twice keeps its first right path.
std::map<std::string, std::string> readHashList(std::string_view text,
                                                std::size_t* rejected = nullptr);

using HashList = std::map<std::string, std::string>;  // hash -> path suffix

// readHashList of a file; throws Error naming it when it cannot be read or names nothing.
HashList readHashListFile(const std::filesystem::path& path, std::size_t* rejected = nullptr);
// readHashListFile of each file (`--names`, `-o names=`), with a warning line for each file
// with lines left out.
std::vector<HashList> readHashListFiles(const std::vector<std::string>& files,
                                        std::vector<std::string>& warnings);

// Real paths for the hashed entries of `pak` that a list names (the first list that has the
// hash wins), by entry index: the entry's folder, then the list's path.
std::map<std::size_t, std::string> resolveFromLists(const PakIndex& pak,
                                                    const std::vector<HashList>& lists);

// A candidate real path (slashes, relative to the pack root) from a gbx file's by-name external
// reference: `referrerPath` is the referring file's path relative to the pack root. nullopt when
// the reference climbs above the root, has a bad folder index, names no file or is by resource.
std::optional<std::string> refCandidatePath(const std::string& referrerPath,
                                            const gbx::RefTable& refs, const gbx::ExternalRef& ref);

// Real paths for the hashed entries of a pack, from the reference tables of its gbx files
// (entries whose header decodes; locked ones are skipped), repeated while a newly named gbx
// file names more. By entry index.
std::map<std::size_t, std::string> resolvePackNames(const std::shared_ptr<const PakIndex>& pak);
// The same for packs read together (a Packs folder, several paks given): the references of
// every pack's gbx files count for the hashed entries of all of them, as the game merges its
// packs into one tree. One map per pack, in the order given.
std::vector<std::map<std::size_t, std::string>> resolvePacksNames(
    const std::vector<std::shared_ptr<const PakIndex>>& paks);

// A pack's entries stored under a hashed name: those shown under a real path, and those left
// as the hash.
struct HashedNameCount {
    std::size_t resolved = 0;
    std::size_t left = 0;
};
HashedNameCount countHashedNames(const PakIndex& pak);

}  // namespace pakfs::archive
