// SPDX-License-Identifier: GPL-2.0-or-later
// Little-endian primitives over a ByteSource, sizes checked before allocation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/ByteSource.hpp"
#include "common/Bytes.hpp"
#include "common/LittleEndian.hpp"

namespace pakfs::gbx {

// Largest single allocation a reader makes when the source cannot tell how much is left.
inline constexpr std::uint64_t kMaxBlindAllocation = 64u << 20;

// Little-endian primitives over a ByteSource. Every read goes straight to the source, in order,
// for exactly the bytes asked for; sizes are checked before anything is allocated.
class SourceReader : public LittleEndianFields<SourceReader> {
public:
    explicit SourceReader(ByteSource& src) : src_(&src) {}

    ByteSource& source() const { return *src_; }
    std::uint64_t position() const { return src_->position(); }
    std::optional<std::uint64_t> remaining() const { return src_->remaining(); }

    void read(std::span<std::uint8_t> dst) { src_->read(dst); }

    // Throws TruncatedError unless n more bytes can exist (and, when the total is unknown, n is
    // a sane allocation). `what` names the field in the message.
    void require(std::uint64_t n, std::string_view what) const;
    // Reads a u32 count and checks that count * minElementSize bytes can follow.
    std::uint32_t count(std::uint64_t minElementSize, std::string_view what);
    Bytes bytes(std::uint64_t n, std::string_view what);
    // u32 length + bytes.
    std::string string(std::string_view what = "string");
    // Consumes n bytes without keeping them (read in small pieces, nothing big allocated).
    void skip(std::uint64_t n, std::string_view what = "data");

private:
    ByteSource* src_;
};

}  // namespace pakfs::gbx
