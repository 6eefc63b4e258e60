// SPDX-License-Identifier: GPL-2.0-or-later
// Version 18 file data: LZ4 blocks of `u16 size` + data, each giving 4096 bytes except the
// last, decoded as one stream whose history starts with a fixed dictionary (doc/FORMAT.md §3.6).
#pragma once

#include <memory>
#include <string>

#include "common/ByteSource.hpp"
#include "common/Bytes.hpp"

namespace pakfs::archive {

inline constexpr std::size_t kLz4BlockSize = 4096;
inline constexpr std::size_t kLz4MaxBlock = 4128;  // LZ4_compressBound(4096)

// The 1006-byte dictionary that primes every version 18 entry's stream (archive/codec/data,
// NOTICE).
ByteSpan pak18Lz4Dictionary();

// Compresses content into the block stream (deterministic).
Bytes lz4PackCompress(ByteSpan content);

// Decodes a whole block stream of exactly data.size() bytes to exactly `size` bytes. Throws
// Error starting with `name` on a bad block size, a block running past the data, a block that
// does not decode or gives the wrong size, bytes left over, or a size the data does not give.
Bytes lz4PackDecompress(ByteSpan data, std::uint64_t size, const std::string& name);

// The game's LZ4 reading stage: a block is read from `input` only when a byte of its output is
// first asked for, because the moment each input byte is read decides which cipher state
// decrypts it (with p bytes handed out, the input stands at the start of block ceil(p / 4096)).
class Lz4Stage final : public ByteSource {
public:
    Lz4Stage(ByteSource& input, std::uint64_t compressedSize, std::uint64_t uncompressedSize,
             std::string name);
    ~Lz4Stage() override;
    Lz4Stage(const Lz4Stage&) = delete;
    Lz4Stage& operator=(const Lz4Stage&) = delete;

    void read(std::span<std::uint8_t> dst) override;
    std::uint64_t position() const override { return position_; }
    // What is left of the declared size, but no more than the compressed bytes still to come
    // can give (the size is untrusted and readers allocate by it).
    std::optional<std::uint64_t> remaining() const override;
    // After the last byte of the declared size: the compressed data must be used up exactly.
    void finish();

private:
    void nextBlock();

    struct State;
    ByteSource& input_;
    std::string name_;
    std::uint64_t compressedLeft_;
    std::uint64_t size_;
    std::uint64_t position_ = 0;
    std::unique_ptr<State> state_;
    const std::uint8_t* out_ = nullptr;  // the current block's output, in the ring
    std::size_t outPos_ = 0, outLen_ = 0;
};

}  // namespace pakfs::archive
