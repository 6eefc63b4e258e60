// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "archive/GbxEntry.hpp"
#include "archive/PakIndex.hpp"

namespace pakfs::archive {

// The public header of a version 6+ pack as the writer fills it.
struct PackHeaderFields {
    std::string authorLogin, authorNick, authorZone, comment, titleId;
    // Header flags: bit 0 header encrypted with the pack key, bit 1 with the default header
    // key (both: the two xored), bit 2 data private. Retail packs: 7.
    std::uint32_t headerFlags = 7;
};

struct PackOptions {
    std::uint32_t version = 3;  // 3, or 6 to 18 (.Pack.Gbx)
    PackHeaderFields header;    // version 6+
    // Version 6+: files stored in the clear and flagged public (readable without a key).
    std::vector<std::string> publicGlobs;
    int level = 9;  // compression level (zlib 1..9; LZ4 in version 18); 0 stores every entry
    // Deflate in pieces of this many bytes with Z_SYNC_FLUSH, as some other writers do (0: one
    // piece). Readers must cope with both, so tests use it.
    std::size_t syncFlushEvery = 0;
    // gbx files encrypted without the per-node ivXor: in version 3 the game misreads them; in
    // version 6+ they are flagged DontUseDummyWrite, which the game reads right.
    std::vector<std::string> rawGlobs;
    GbxPipelineRules gbxRules;                     // the open skippable-chunk rule, for planning
    std::filesystem::path base;                    // repack: copy unchanged entries from this pak
    std::function<void(const std::string&)> warn;  // warnings (stderr in the CLI)
    // Files done, files in all, bytes done, bytes in all.
    std::function<void(std::size_t, std::size_t, std::uint64_t, std::uint64_t)> progress;
};

struct PackResult {
    std::size_t files = 0;
    std::size_t folders = 0;
    std::size_t compressed = 0;
    std::size_t copiedFromBase = 0;
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
};

// Builds a pak (version 3, or 6 to 18 with options.version) from a folder tree; writes to a
// temp file and renames it into place.
PackResult writePak(const std::filesystem::path& sourceDir, const std::filesystem::path& output,
                    const PakKey& key, const PackOptions& options);

// The public header of a version 6+ pack as the writer makes it (PACK-V6-NOTES, Layout), with
// the contents checksum left zero.
Bytes packGbxPublicHeader(std::uint32_t version, const PackHeaderFields& h,
                          std::uint32_t headerMaxSize);

// Encrypts plaintext (a multiple of 8 bytes) in place as the game's reader will decode it:
// CBC from `iv`, xoring ivXorPerSegment[k] into the chaining value at the start of segment k.
void encryptSegments(Bytes& data, std::uint64_t iv,
                     const std::vector<std::uint64_t>& ivXorPerSegment, const Blowfish& cipher);

// The pak file table's class ID for a plain file, from its extension.
std::uint32_t classIdForExtension(const std::string& fileName);

}  // namespace pakfs::archive
