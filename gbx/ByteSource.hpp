// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>

#include "common/Bytes.hpp"

namespace pakfs::gbx {

// Where a gbx reader takes its bytes from. The pak pipeline implements it over the decrypt and
// inflate stages, so every read must ask for exactly the bytes the format needs, in file order:
// the moment a byte is first asked for decides which cipher state decodes it.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Reads exactly dst.size() bytes or throws TruncatedError.
    virtual void read(std::span<std::uint8_t> dst) = 0;
    // Bytes consumed so far (offset in the gbx file).
    virtual std::uint64_t position() const = 0;
    // Bytes left when the total is known; readers check counts against it before allocating.
    virtual std::optional<std::uint64_t> remaining() const = 0;
};

// A gbx file held in memory.
class MemorySource final : public ByteSource {
public:
    explicit MemorySource(ByteSpan data) : data_(data) {}
    void read(std::span<std::uint8_t> dst) override {
        if (dst.size() > data_.size() - pos_)
            throw TruncatedError("unexpected end of data at offset " + std::to_string(pos_) +
                                 " (wanted " + std::to_string(dst.size()) + " bytes, " +
                                 std::to_string(data_.size() - pos_) + " left)");
        if (dst.empty()) return;  // an empty span may have a null pointer
        std::memcpy(dst.data(), data_.data() + pos_, dst.size());
        pos_ += dst.size();
    }
    std::uint64_t position() const override { return pos_; }
    std::optional<std::uint64_t> remaining() const override { return data_.size() - pos_; }

private:
    ByteSpan data_;
    std::size_t pos_ = 0;
};

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
