// SPDX-License-Identifier: GPL-2.0-or-later
// gbx entries: decoded (and encoded) by running the gbx reader over the game's pipeline, where
// every node read mixes its class into the cipher's ivXor.
#pragma once

#include <memory>

#include "archive/PakIndex.hpp"
#include "gbx/Header.hpp"

namespace pakfs::archive {

// The rules public analyses disagree on, as switches; the defaults follow the seed.
struct GbxPipelineRules {
    // Every ReadNode mixes its class into the ivXor, also for nodes inside skippable chunks.
    bool nodesInSkippableChunksMixIvXor = true;
    // Off only to show what a reader without the per-node trick would get (tests, diagnosis).
    bool perNodeIvXor = true;
};

// Decodes a gbx entry byte-exactly; throws Error naming the pak, the entry and the reason
// (class, chunk and offset) when it cannot: no byte is returned that may be wrong.
Bytes decodeGbxEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     const GbxPipelineRules& rules = {});

// The header and reference table of a gbx entry. Both come before the first node read, so
// they decode without the per-node ivXor, even in entries that cannot be decoded whole.
struct GbxEntryRefs {
    gbx::GbxHeader header;
    gbx::RefTable refs;
};
GbxEntryRefs readGbxEntryRefs(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry);

// How to encrypt a gbx entry so the game's reader decodes it.
struct GbxEncoding {
    std::vector<std::uint64_t> ivXorPerSegment;  // ivXor the reader holds at each segment
    std::uint32_t classId = 0;                   // main class ID, for the file table
    Bytes metadata;                              // dataless gbx record
};

// Parses `content` through a simulation of the reader's pipeline over `payload` (the zlib
// stream when compressed, else the content) and records the ivXor of each segment. Throws Error
// naming the file when the gbx reader cannot parse it.
GbxEncoding planGbxEntry(ByteSpan content, ByteSpan payload, bool compressed,
                         const std::string& packPath, const GbxPipelineRules& rules = {});

}  // namespace pakfs::archive
