// SPDX-License-Identifier: GPL-2.0-or-later
// The nodes, chunks and references a body read yields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pakfs::gbx {

inline constexpr std::uint32_t kEndOfNode = 0xFACADE01;   // chunk ID that ends a node
inline constexpr std::uint32_t kSkipMarker = 0x534B4950;  // "PIKS": a skippable chunk follows
inline constexpr std::size_t kNoNode = std::size_t(-1);

enum class RefKind : std::uint8_t {
    Null,      // index -1
    New,       // a node read here for the first time (class ID + ReadNode)
    Back,      // a node already in the node list (read before, or being read)
    External,  // a slot filled by the reference table
};

struct NodeRef {
    RefKind kind = RefKind::Null;
    std::int64_t index = -1;     // slot in the node list; -1 when null or inside encapsulation
    std::size_t node = kNoNode;  // into GbxFile::nodes for New and Back
};

struct ChunkRecord {
    std::uint32_t id = 0;      // as stored
    std::uint64_t offset = 0;  // of the chunk ID (file offset, or body offset when compressed)
    std::uint32_t size = 0;    // data size of a skippable chunk
    bool skippable = false;
    bool known = false;         // read by a chunk reader; unknown skippable chunks are skipped
    bool classBody = false;     // the whole body of a node that is not chunked (id: its class)
    std::vector<NodeRef> refs;  // node references met in the chunk, in order
};

// One node (class instance) of the body, in the order nodes were started.
struct Node {
    std::uint32_t classId = 0;  // as stored
    std::int64_t slot = -1;     // index in the node list (0 = main node); -1 when encapsulated
    std::size_t parent = kNoNode;
    std::uint32_t depth = 0;
    bool inSkippableChunk = false;
    bool complete = false;  // its end marker was read
    std::vector<ChunkRecord> chunks;
    // A few parsed values worth showing (names, versions), as text.
    std::vector<std::pair<std::string, std::string>> values;
};

}  // namespace pakfs::gbx
