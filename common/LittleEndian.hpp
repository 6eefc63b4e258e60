// SPDX-License-Identifier: GPL-2.0-or-later
// The little-endian fields of every reader of the formats: the pak headers' (FieldReader), the
// gbx readers' (SourceReader) and the pictures' header chunks share these.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "common/Bytes.hpp"

namespace pakfs {

// Fixed-size little-endian fields, each read whole, in order, through the reader's own
// `read(std::span<std::uint8_t>)` (which checks and reports what is missing in its own terms).
// A reader derives from LittleEndianFields<itself>.
template <class Reader>
class LittleEndianFields {
public:
    std::uint8_t u8() {
        std::uint8_t b[1];
        self().read(b);
        return b[0];
    }
    std::uint16_t u16() {
        std::uint8_t b[2];
        self().read(b);
        return loadLE16(b);
    }
    std::uint32_t u32() {
        std::uint8_t b[4];
        self().read(b);
        return loadLE32(b);
    }
    std::int32_t i32() { return std::int32_t(u32()); }
    std::uint64_t u64() {
        std::uint8_t b[8];
        self().read(b);
        return loadLE64(b);
    }
    float f32() { return std::bit_cast<float>(u32()); }

private:
    Reader& self() { return static_cast<Reader&>(*this); }
};

}  // namespace pakfs
