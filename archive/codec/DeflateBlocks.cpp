// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/codec/DeflateBlocks.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace pakfs::archive {

namespace {

// Up to 57 bits of `data` from bit `pos` on (zeros past its end).
std::uint64_t bitsAt(ByteSpan data, std::uint64_t pos) {
    const std::uint64_t byte = pos >> 3;
    std::uint64_t v = 0;
    if (byte + 8 <= data.size()) {
        std::memcpy(&v, data.data() + byte, 8);
        if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    } else {
        for (std::uint64_t i = byte; i < data.size(); ++i)
            v |= std::uint64_t(data[i]) << (8 * (i - byte));
    }
    return v >> (pos & 7);
}

// The first 13 bits of a header: BFINAL 0, BTYPE 2 (dynamic), HLIT <= 29, HDIST <= 29.
constexpr std::array<bool, 1 << 13> kHeadOk = [] {
    std::array<bool, 1 << 13> ok{};
    for (unsigned v = 0; v < ok.size(); ++v)
        ok[v] = (v & 7) == 4 && ((v >> 3) & 31) <= 29 && ((v >> 8) & 31) <= 29;
    return ok;
}();

constexpr std::array<std::uint8_t, 19> kCodeLengthOrder = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                           11, 4,  12, 3, 13, 2, 14, 1, 15};

// zlib's rule for a code (inflate_table): never over-subscribed, and complete unless it is the
// code-length code... or one code of one bit (`mayBeSingle`).
bool codeAccepted(const std::uint8_t* lengths, std::size_t n, int maxBits, bool mayBeSingle) {
    std::array<int, 16> count{};
    int max = 0;
    for (std::size_t i = 0; i < n; ++i) {
        ++count[lengths[i]];
        if (lengths[i] > max) max = lengths[i];
    }
    if (max == 0) return mayBeSingle;  // no codes at all: zlib accepts an empty distance code
    int left = 1;
    for (int len = 1; len <= maxBits; ++len) {
        left <<= 1;
        left -= count[std::size_t(len)];
        if (left < 0) return false;
    }
    return left == 0 || (mayBeSingle && max == 1);
}

// Whether a full dynamic header starts at `pos` (the first 13 bits passed kHeadOk).
bool headerAt(ByteSpan data, std::uint64_t pos) {
    const std::uint64_t end = std::uint64_t(data.size()) * 8;
    std::uint64_t v = bitsAt(data, pos);
    const unsigned nlen = 257 + unsigned((v >> 3) & 31);
    const unsigned ndist = 1 + unsigned((v >> 8) & 31);
    const unsigned ncl = 4 + unsigned((v >> 13) & 15);
    pos += 17;
    if (pos + 3 * ncl > end) return false;
    std::array<std::uint8_t, 19> cl{};
    v = bitsAt(data, pos);
    for (unsigned i = 0; i < ncl; ++i) cl[kCodeLengthOrder[i]] = std::uint8_t((v >> (3 * i)) & 7);
    pos += 3 * ncl;
    if (!codeAccepted(cl.data(), cl.size(), 7, false)) return false;

    // A table of the code-length code by the next 7 bits (codes are read bit-reversed).
    std::array<std::uint8_t, 128> symbol{}, length{};
    {
        std::array<int, 8> count{}, next{};
        for (std::uint8_t len : cl) ++count[len];
        count[0] = 0;
        for (int len = 1, code = 0; len <= 7; ++len) {
            code = (code + count[std::size_t(len) - 1]) << 1;
            next[std::size_t(len)] = code;
        }
        for (unsigned s = 0; s < 19; ++s) {
            const int len = cl[s];
            if (!len) continue;
            const int code = next[std::size_t(len)]++;
            int rev = 0;
            for (int b = 0; b < len; ++b) rev |= ((code >> b) & 1) << (len - 1 - b);
            for (int fill = rev; fill < 128; fill += 1 << len) {
                symbol[std::size_t(fill)] = std::uint8_t(s);
                length[std::size_t(fill)] = std::uint8_t(len);
            }
        }
    }

    std::array<std::uint8_t, 286 + 30> lens{};
    const unsigned n = nlen + ndist;
    for (unsigned i = 0; i < n;) {
        v = bitsAt(data, pos);
        const unsigned idx = unsigned(v & 127);
        const unsigned s = symbol[idx];
        const unsigned len = length[idx];
        std::uint64_t used = len;
        unsigned repeat = 1;
        std::uint8_t value = std::uint8_t(s);
        if (s == 16) {
            if (i == 0) return false;
            value = lens[i - 1];
            repeat = 3 + unsigned((v >> len) & 3);
            used += 2;
        } else if (s == 17) {
            value = 0;
            repeat = 3 + unsigned((v >> len) & 7);
            used += 3;
        } else if (s == 18) {
            value = 0;
            repeat = 11 + unsigned((v >> len) & 127);
            used += 7;
        }
        pos += used;
        if (pos > end || i + repeat > n) return false;
        std::memset(lens.data() + i, value, repeat);
        i += repeat;
    }
    if (lens[256] == 0) return false;
    return codeAccepted(lens.data(), nlen, 15, true) &&
           codeAccepted(lens.data() + nlen, ndist, 15, true);
}

}  // namespace

std::optional<std::uint64_t> findDynamicBlockHeader(ByteSpan data, std::uint64_t fromBit,
                                                    std::uint64_t toBit) {
    const std::uint64_t end = std::uint64_t(data.size()) * 8;
    if (toBit > end) toBit = end;
    for (std::uint64_t pos = fromBit; pos < toBit; ++pos) {
        if (!kHeadOk[bitsAt(data, pos) & 0x1FFF]) continue;
        if (headerAt(data, pos)) return pos;
    }
    return std::nullopt;
}

}  // namespace pakfs::archive
