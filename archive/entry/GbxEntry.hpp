// SPDX-License-Identifier: GPL-2.0-or-later
// gbx entries: decoded (and encoded) by running the gbx reader over the game's pipeline, where
// every node read mixes its class into the cipher's ivXor.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "archive/pak/PakIndex.hpp"
#include "gbx/Header.hpp"

namespace pakfs::archive {

// How the writer plans a gbx entry's cipher.
struct GbxPipelineRules {
    // Whether node reads inside skippable chunks mix the cipher. Open (doc/FORMAT.md §7.4): the
    // seed says they do; GBX.NET and a study of the 2020 game's code say the game reads such a
    // chunk into memory first, so they do not. Default: they do not (`pak pack --fold-skippable`).
    bool nodesInSkippableChunksMixIvXor = false;
    // Off only to show what a reader without the per-node trick would get (tests, diagnosis).
    bool perNodeIvXor = true;
};

// How a gbx entry's bytes were established.
enum class GbxDecodeKind {
    Parsed,  // every node read to its end by known chunk readers; no open rule changes a byte
    // The body is LZO-compressed inside the gbx: the game reads its nodes from memory, so none
    // reaches the cipher and the header and reference table decide every byte. The body's
    // nodes are not read: they prove nothing here.
    Header,
    Exact,       // no byte can be changed by a node read the reader did not see
    Verified,    // node reads found by the scan; zlib's Adler-32 and the size prove the bytes
    Unverified,  // the scan's best decode of a stored entry (only when asked for)
    Refused,     // cannot be proven: no bytes
};
const char* gbxDecodeKindName(GbxDecodeKind kind);  // "parsed", "header", "exact", ...

struct GbxDecodeOptions {
    // Return the scan's best decode of a stored entry that cannot be proven (a warning says so)
    // instead of refusing it; also read a counter-mode entry nothing proves (EntryReader.hpp).
    bool unverified = false;
    // Off only to show what a reader without the per-node trick would get (tests, diagnosis).
    bool perNodeIvXor = true;
    // Benchmarks and tests: no chunk reader is used, so every node read after the main node's
    // comes from the node scan.
    bool scanOnly = false;
};

struct GbxDecode {
    GbxDecodeKind kind = GbxDecodeKind::Refused;
    Bytes bytes;                       // empty when refused
    std::string detail;                // refused/unverified: the reason; else how it was proven
    std::size_t scannedNodeReads = 0;  // node reads the scan found and folded
    // Set when the skippable-chunk rule changed the bytes and a checksum picked one:
    // true = node reads inside skippable chunks fold.
    std::optional<bool> skippableRule;
};

// Decodes a gbx entry through the game's pipeline and says how its bytes are proven (see
// GbxDecodeKind). Never returns bytes that may be wrong unless `unverified` asked for them
// (kind Unverified). Does not throw: an entry that cannot be read (I/O, damage) is refused, and
// `detail` names the pak, the entry and the reason.
GbxDecode decodeGbxEntryProven(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                               const GbxDecodeOptions& options = {});

// The bytes of decodeGbxEntryProven; throws Error naming the pak, the entry and the reason when
// it refuses. An unverified decode (only when options.unverified) is reported to `warn` first.
Bytes decodeGbxEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     const GbxDecodeOptions& options = {},
                     const std::function<void(const std::string&)>& warn = {});

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
    // The reader stopped at a chunk it does not know; the node scan found the node reads
    // after it.
    bool scanned = false;
    std::size_t scannedNodeReads = 0;
    // Stored, the reader could not prove these bytes (the scan was needed, or the open
    // skippable-chunk rule changes them): the writer wraps such a file in zlib.
    bool needsChecksum = false;
};

// Parses `content` through a simulation of the reader's pipeline over `payload` (the zlib
// stream when compressed, else the content) and records the ivXor of each segment. Past a chunk
// the reader does not know, the node reads come from the node scan over the plaintext. Throws
// Error naming the file when not even the header and reference table read.
// `lz4`: the payload is version 18's LZ4 block stream (compressed is then false).
GbxEncoding planGbxEntry(ByteSpan content, ByteSpan payload, bool compressed,
                         const std::string& packPath, const GbxPipelineRules& rules = {},
                         bool lz4 = false);

}  // namespace pakfs::archive
