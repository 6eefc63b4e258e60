// SPDX-License-Identifier: GPL-2.0-or-later
// The node scan: decoding a gbx entry past the point where the gbx reader has to stop (a chunk
// it does not know), by finding the remaining node reads in the plaintext as it comes out of
// the game's pipeline, and searching the few ways they can fold into the cipher.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "archive/codec/Streams.hpp"

namespace pakfs::archive {

// One node read in the stream: where the reader stands right after its class ID, and the four
// bytes (as a u32) it runs through CalcIVXor there.
struct NodeRead {
    std::uint64_t position = 0;
    std::uint32_t classInput = 0;
};

struct NodeScanInput {
    // Where the exact reading stopped (the start of the chunk the reader could not read): node
    // reads at or before it are `exact`; from it on they are searched for.
    std::uint64_t start = 0;
    std::vector<NodeRead> exact;  // in stream order, positions <= start
    std::uint32_t numNodes = 0;
    std::vector<std::uint32_t> slotsTaken;  // external slots and nodes read before `start`
    // Whether node reads inside skippable ("PIKS") chunks fold: the open rule (doc/FORMAT.md §7.4).
    bool foldInSkippable = false;
    // Compressed entries: a decode counts only when the zlib stream then ends with the right
    // Adler-32 exactly at the entry's size. Without it (stored entries, the writer's
    // simulation) the first decode in which every folded node read is followed by a chunk ID
    // of its class is taken.
    bool verifyChecksum = false;
    std::size_t maxRuns = 512;  // decodes from the start the search may try
};

struct NodeScanResult {
    bool ok = false;
    Bytes bytes;
    std::string failure;                 // why no decode was found
    std::size_t nodeReads = 0;           // node reads found by the scan and folded
    std::size_t insideSkippable = 0;     // node signatures seen inside skippable chunks
    std::size_t runs = 0;                // decodes tried
    std::vector<std::uint64_t> applied;  // simulation: the ivXor of each segment refill
};

// Decodes an entry through the pipeline `spec` describes, folding `exact` and the node reads
// the scan finds. Node signature (doc/FORMAT.md §7.5): u32 index below numNodes and not taken, u32
// class ID known to the class table, then a chunk ID of that class or an ancestor, or
// 0xFACADE01. Never throws for bad data: the reason is in `failure`.
NodeScanResult scanDecode(const PipelineSpec& spec, const NodeScanInput& input);

// Whether a node signature (above; any index below numNodes) starts in [begin, end) of bytes.
bool hasNodeSignature(ByteSpan bytes, std::uint64_t begin, std::uint64_t end,
                      std::uint32_t numNodes);

}  // namespace pakfs::archive
