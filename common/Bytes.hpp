// SPDX-License-Identifier: GPL-2.0-or-later
// Byte buffers, little-endian loads and stores, hex, and the case fold the game uses for names.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/Error.hpp"

namespace pakfs {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

inline std::uint16_t loadLE16(const std::uint8_t* p) {
    return std::uint16_t(p[0] | p[1] << 8);
}
inline std::uint32_t loadLE32(const std::uint8_t* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}
inline std::uint64_t loadLE64(const std::uint8_t* p) {
    return std::uint64_t(loadLE32(p)) | std::uint64_t(loadLE32(p + 4)) << 32;
}
inline void storeLE32(std::uint8_t* p, std::uint32_t v) {
    p[0] = std::uint8_t(v);
    p[1] = std::uint8_t(v >> 8);
    p[2] = std::uint8_t(v >> 16);
    p[3] = std::uint8_t(v >> 24);
}
inline void storeLE64(std::uint8_t* p, std::uint64_t v) {
    storeLE32(p, std::uint32_t(v));
    storeLE32(p + 4, std::uint32_t(v >> 32));
}

// Appends little-endian values to a byte vector.
class ByteWriter {
public:
    explicit ByteWriter(Bytes& out) : out_(out) {}
    void u8(std::uint8_t v) { out_.push_back(v); }
    void u16(std::uint16_t v) {
        u8(std::uint8_t(v));
        u8(std::uint8_t(v >> 8));
    }
    void u32(std::uint32_t v) {
        std::uint8_t b[4];
        storeLE32(b, v);
        out_.insert(out_.end(), b, b + 4);
    }
    void u64(std::uint64_t v) {
        std::uint8_t b[8];
        storeLE64(b, v);
        out_.insert(out_.end(), b, b + 8);
    }
    void bytes(ByteSpan b) { out_.insert(out_.end(), b.begin(), b.end()); }
    void bytes(std::string_view s) { out_.insert(out_.end(), s.begin(), s.end()); }
    // u32 length followed by the bytes, as pak and gbx strings are stored.
    void string(std::string_view s) {
        u32(std::uint32_t(s.size()));
        bytes(s);
    }
    std::size_t size() const { return out_.size(); }

private:
    Bytes& out_;
};

std::string hexString(ByteSpan bytes, bool upper = false);

// A name with its case folded as the game folds it: ASCII letters only, whatever the locale.
std::string foldCase(std::string_view s);
// Parses exactly 2*out.size() hex digits; returns false on any other input.
bool parseHex(std::string_view text, std::span<std::uint8_t> out);
std::string hex32(std::uint32_t v);  // 8 upper-case hex digits
std::string hex64(std::uint64_t v);  // 16 lower-case hex digits (flags, IVs)

}  // namespace pakfs
