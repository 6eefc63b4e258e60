// SPDX-License-Identifier: GPL-2.0-or-later
// The search for dynamic block headers: bit positions filtered a word at a time on their first
// 13 bits, then each header's code lengths and codes checked by zlib's rules.
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

// Of the 45 positions from the first of the 57 bits `v` holds (bitsAt) on, one bit each, those
// where the first 13 bits of a header may lie: BFINAL 0, BTYPE 2 (dynamic), HLIT <= 29, HDIST <= 29
// (a field of five bits is 30 or 31 when its upper four are ones). A word at a time: a position at
// a time, this filter took most of a search's time.
constexpr int kMaskSpan = 57 - 13 + 1;
std::uint64_t headCandidates(std::uint64_t v) {
    std::uint64_t m = ~v & ~(v >> 1) & (v >> 2);
    m &= ~((v >> 4) & (v >> 5) & (v >> 6) & (v >> 7));
    m &= ~((v >> 9) & (v >> 10) & (v >> 11) & (v >> 12));
    return m & ((std::uint64_t(1) << kMaskSpan) - 1);
}

// The Kraft sums, in units of 2^-7, of four 3-bit code lengths (0: no code) by their 12 bits.
constexpr std::array<std::uint16_t, 4096> kKraft4 = [] {
    std::array<std::uint16_t, 4096> sum{};
    for (unsigned v = 0; v < sum.size(); ++v)
        for (unsigned i = 0; i < 4; ++i)
            if (const unsigned len = (v >> (3 * i)) & 7)
                sum[v] = std::uint16_t(sum[v] + (128u >> len));
    return sum;
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

// Whether a full dynamic header starts at `pos` (the first 13 bits passed headCandidates).
bool headerAt(ByteSpan data, std::uint64_t pos) {
    const std::uint64_t end = std::uint64_t(data.size()) * 8;
    std::uint64_t v = bitsAt(data, pos);
    const unsigned nlen = 257 + unsigned((v >> 3) & 31);
    const unsigned ndist = 1 + unsigned((v >> 8) & 31);
    const unsigned ncl = 4 + unsigned((v >> 13) & 15);
    pos += 17;
    if (pos + 3 * ncl > end) return false;
    v = bitsAt(data, pos) & ((std::uint64_t(1) << (3 * ncl)) - 1);
    // The code length code must be complete (codeAccepted without its exception): its Kraft
    // sum, in units of 2^-7, is exactly 128 (a sum of 128 is never over-subscribed on the way).
    // Nearly every position that gets here fails this, so it is a few lookups.
    if (kKraft4[v & 0xFFF] + kKraft4[(v >> 12) & 0xFFF] + kKraft4[(v >> 24) & 0xFFF] +
            kKraft4[(v >> 36) & 0xFFF] + kKraft4[(v >> 48) & 0xFFF] !=
        128)
        return false;
    std::array<std::uint8_t, 19> cl{};
    for (unsigned i = 0; i < ncl; ++i) cl[kCodeLengthOrder[i]] = std::uint8_t((v >> (3 * i)) & 7);
    pos += 3 * ncl;

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
    for (std::uint64_t pos = fromBit; pos < toBit; pos += kMaskSpan) {
        std::uint64_t m = headCandidates(bitsAt(data, pos));
        if (toBit - pos < kMaskSpan) m &= (std::uint64_t(1) << (toBit - pos)) - 1;
        for (; m; m &= m - 1) {
            const std::uint64_t at = pos + std::uint64_t(std::countr_zero(m));
            if (headerAt(data, at)) return at;
        }
    }
    return std::nullopt;
}

}  // namespace pakfs::archive
