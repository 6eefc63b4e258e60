// SPDX-License-Identifier: GPL-2.0-or-later
// What a reader reports while it reads, for the pak pipeline's cipher.
#pragma once

#include <cstdint>

namespace pakfs::gbx {

// What the pak pipeline needs to hear while a gbx file is read from it.
class ReadObserver {
public:
    virtual ~ReadObserver() = default;
    // Called at every ReadNode of a node read from the outer source: for the main node right
    // after the reference table, for a new noderef right after its class ID was read and before
    // its first chunk ID. classId is as stored in the file (not generalized). inSkippableChunk
    // tells whether the node is read inside the data of a skippable ("PIKS") chunk.
    // Not called for nodes of an LZO-compressed body: the game reads those from memory.
    // slot is the node's index in the file's node table (-1 for a node without one).
    virtual void onNodeRead(std::uint32_t classId, bool inSkippableChunk, std::int64_t slot) {
        (void)classId;
        (void)inSkippableChunk;
        (void)slot;
    }
    // Called when a chunk reader meets a value the game feeds into CalcIVXor in the middle of a
    // chunk (e.g. CPlugSurfaceGeom 0900F004): the 4 little-endian bytes of value are mixed like a
    // node read's class input. inSkippableChunk as for onNodeRead.
    virtual void onCipherMix(std::uint32_t value, bool inSkippableChunk) {
        (void)value;
        (void)inSkippableChunk;
    }
};

}  // namespace pakfs::gbx
