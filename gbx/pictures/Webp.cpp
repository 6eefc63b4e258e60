// SPDX-License-Identifier: GPL-2.0-or-later
// The layouts: the RIFF container (RFC 9649 section 2: RIFF, WEBP, chunks of FourCC, size and a
// payload padded to an even size) and the lossless bitstream (RFC 9649 section 3, libwebp's
// doc/webp-lossless-bitstream-spec.txt): header, transforms, prefix codes, LZ77 with the
// distance map, color cache.
#include "gbx/pictures/Webp.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "common/Error.hpp"

namespace pakfs::gbx {
namespace {

std::uint32_t divRoundUp(std::uint32_t n, std::uint32_t bits) {
    return (n + (1u << bits) - 1) >> bits;
}

// Bits from the least significant of each byte on (section 3: ReadBits).
class Bits {
public:
    explicit Bits(ByteSpan data) : d_(data) {}
    std::uint32_t read(int n) {
        if (n == 0) return 0;
        if (pos_ + std::uint64_t(n) > std::uint64_t(d_.size()) * 8)
            throw Error("the lossless data is cut short");
        std::uint64_t window = 0;
        const std::size_t byte = std::size_t(pos_ >> 3);
        for (std::size_t i = 0; i < 4 && byte + i < d_.size(); ++i)
            window |= std::uint64_t(d_[byte + i]) << (8 * i);
        const std::uint32_t v = std::uint32_t(window >> (pos_ & 7)) & ((1u << n) - 1);
        pos_ += std::uint64_t(n);
        return v;
    }

private:
    ByteSpan d_;
    std::uint64_t pos_ = 0;
};

// A canonical prefix code (section 6.2.1): the count of codes of each length and the used
// symbols in code order; a code of one symbol takes no bits.
struct PrefixCode {
    std::array<std::uint16_t, 16> count{};
    std::vector<std::uint16_t> symbols;
    int single = -1;

    explicit PrefixCode(const std::vector<std::uint8_t>& lengths) {
        for (std::size_t s = 0; s < lengths.size(); ++s)
            if (lengths[s]) {
                ++count[lengths[s]];
                single = single == -1 ? int(s) : -2;
            }
        if (single == -1) throw Error("a prefix code has no symbol");
        if (single >= 0) return;
        // The code lengths must describe a full tree.
        std::int64_t left = 1;
        for (int len = 1; len < 16; ++len) {
            left = left * 2 - count[std::size_t(len)];
            if (left < 0) throw Error("a prefix code has more codes than its lengths allow");
        }
        if (left != 0) throw Error("a prefix code's lengths leave codes unused");
        std::array<std::uint16_t, 16> offset{};
        for (int len = 1; len < 15; ++len)
            offset[std::size_t(len + 1)] =
                std::uint16_t(offset[std::size_t(len)] + count[std::size_t(len)]);
        symbols.resize(std::size_t(offset[15]) + count[15]);
        for (std::size_t s = 0; s < lengths.size(); ++s)
            if (lengths[s]) symbols[offset[lengths[s]]++] = std::uint16_t(s);
    }

    // The first bit read is the code's most significant one.
    std::uint32_t decode(Bits& bits) const {
        if (single >= 0) return std::uint32_t(single);
        std::int32_t code = 0, first = 0, index = 0;
        for (std::size_t len = 1; len < 16; ++len) {
            code |= std::int32_t(bits.read(1));
            const std::int32_t n = count[len];
            if (code - first < n) return symbols[std::size_t(index + code - first)];
            index += n;
            first = (first + n) << 1;
            code <<= 1;
        }
        throw Error("a prefix code in the lossless data matches no symbol");
    }
};

PrefixCode readPrefixCode(Bits& bits, std::uint32_t alphabet) {
    std::vector<std::uint8_t> lengths(alphabet, 0);
    if (bits.read(1)) {  // simple code: one or two symbols
        const std::uint32_t n = bits.read(1) + 1;
        const std::uint32_t s0 = bits.read(bits.read(1) ? 8 : 1);
        const std::uint32_t s1 = n == 2 ? bits.read(8) : s0;
        if (s0 >= alphabet || s1 >= alphabet)
            throw Error("a prefix code names symbol " + std::to_string(std::max(s0, s1)) +
                        " of an alphabet of " + std::to_string(alphabet));
        lengths[s0] = lengths[s1] = 1;
        return PrefixCode(lengths);
    }
    static const std::array<std::uint8_t, 19> order = {17, 18, 0, 1,  2,  3,  4,  5,  16, 6,
                                                       7,  8,  9, 10, 11, 12, 13, 14, 15};
    std::vector<std::uint8_t> codeLengthLengths(19, 0);
    const std::uint32_t n = 4 + bits.read(4);
    for (std::uint32_t i = 0; i < n; ++i) codeLengthLengths[order[i]] = std::uint8_t(bits.read(3));
    const PrefixCode codeLengths(codeLengthLengths);
    std::uint32_t maxSymbol = alphabet;
    if (bits.read(1)) {
        const int nbits = 2 + 2 * int(bits.read(3));
        maxSymbol = 2 + bits.read(nbits);
        if (maxSymbol > alphabet)
            throw Error("a prefix code reads " + std::to_string(maxSymbol) +
                        " code lengths for an alphabet of " + std::to_string(alphabet));
    }
    std::uint8_t previous = 8;
    for (std::uint32_t symbol = 0; symbol < alphabet && maxSymbol-- > 0;) {
        const std::uint32_t len = codeLengths.decode(bits);
        if (len < 16) {
            lengths[symbol++] = std::uint8_t(len);
            if (len) previous = std::uint8_t(len);
            continue;
        }
        const std::uint32_t repeat = len == 16   ? 3 + bits.read(2)
                                     : len == 17 ? 3 + bits.read(3)
                                                 : 11 + bits.read(7);
        if (repeat > alphabet - symbol)
            throw Error("a prefix code repeats a length past the end of its alphabet");
        std::fill_n(lengths.begin() + symbol, repeat, len == 16 ? previous : 0);
        symbol += repeat;
    }
    return PrefixCode(lengths);
}

// A length or distance from its prefix symbol and extra bits (section 5.2.2).
std::uint32_t prefixValue(Bits& bits, std::uint32_t symbol) {
    if (symbol < 4) return symbol + 1;
    const int extra = int(symbol - 2) >> 1;
    const std::uint32_t offset = (2 + (symbol & 1)) << extra;
    return offset + bits.read(extra) + 1;
}

// The 120 nearest neighbours, (x to the left, y above), of distance codes 1 to 120 (the
// distance map of section 5.2.2).
constexpr std::int8_t kDistanceMap[120][2] = {
    {0, 1},  {1, 0},  {1, 1},  {-1, 1}, {0, 2},  {2, 0},  {1, 2},  {-1, 2}, {2, 1},  {-2, 1},
    {2, 2},  {-2, 2}, {0, 3},  {3, 0},  {1, 3},  {-1, 3}, {3, 1},  {-3, 1}, {2, 3},  {-2, 3},
    {3, 2},  {-3, 2}, {0, 4},  {4, 0},  {1, 4},  {-1, 4}, {4, 1},  {-4, 1}, {3, 3},  {-3, 3},
    {2, 4},  {-2, 4}, {4, 2},  {-4, 2}, {0, 5},  {3, 4},  {-3, 4}, {4, 3},  {-4, 3}, {5, 0},
    {1, 5},  {-1, 5}, {5, 1},  {-5, 1}, {2, 5},  {-2, 5}, {5, 2},  {-5, 2}, {4, 4},  {-4, 4},
    {3, 5},  {-3, 5}, {5, 3},  {-5, 3}, {0, 6},  {6, 0},  {1, 6},  {-1, 6}, {6, 1},  {-6, 1},
    {2, 6},  {-2, 6}, {6, 2},  {-6, 2}, {4, 5},  {-4, 5}, {5, 4},  {-5, 4}, {3, 6},  {-3, 6},
    {6, 3},  {-6, 3}, {0, 7},  {7, 0},  {1, 7},  {-1, 7}, {5, 5},  {-5, 5}, {7, 1},  {-7, 1},
    {4, 6},  {-4, 6}, {6, 4},  {-6, 4}, {2, 7},  {-2, 7}, {7, 2},  {-7, 2}, {3, 7},  {-3, 7},
    {7, 3},  {-7, 3}, {5, 6},  {-5, 6}, {6, 5},  {-6, 5}, {8, 0},  {4, 7},  {-4, 7}, {7, 4},
    {-7, 4}, {8, 1},  {8, 2},  {6, 6},  {-6, 6}, {8, 3},  {5, 7},  {-5, 7}, {7, 5},  {-7, 5},
    {8, 4},  {6, 7},  {-6, 7}, {7, 6},  {-7, 6}, {8, 5},  {7, 7},  {-7, 7}, {8, 6},  {8, 7},
};

std::uint64_t distanceOf(std::uint32_t code, std::uint32_t width) {
    if (code > 120) return code - 120;
    const std::int64_t d =
        kDistanceMap[code - 1][0] + std::int64_t(kDistanceMap[code - 1][1]) * width;
    return d < 1 ? 1 : std::uint64_t(d);
}

constexpr std::uint32_t kLiterals = 256, kLengthCodes = 24, kDistanceCodes = 40;

// An entropy-coded image (section 5): the color cache, for the ARGB image the meta prefix codes,
// the prefix code groups, then the pixels.
std::vector<std::uint32_t> readImage(Bits& bits, std::uint32_t width, std::uint32_t height,
                                     bool argbImage) {
    std::uint32_t cacheBits = 0;
    if (bits.read(1)) {
        cacheBits = bits.read(4);
        if (cacheBits < 1 || cacheBits > 11)
            throw Error("a color cache of " + std::to_string(cacheBits) + " bits (1 to 11)");
    }
    const std::uint32_t cacheSize = cacheBits ? 1u << cacheBits : 0;
    std::uint32_t metaBits = 0, metaWidth = 0, groupCount = 1;
    std::vector<std::uint32_t> meta;
    if (argbImage && bits.read(1)) {
        metaBits = bits.read(3) + 2;
        metaWidth = divRoundUp(width, metaBits);
        meta = readImage(bits, metaWidth, divRoundUp(height, metaBits), false);
        for (auto& m : meta) {
            m = (m >> 8) & 0xFFFF;
            groupCount = std::max(groupCount, m + 1);
        }
    }
    std::vector<std::array<PrefixCode, 5>> groups;
    groups.reserve(std::min<std::uint32_t>(groupCount, 256));
    for (std::uint32_t g = 0; g < groupCount; ++g)
        groups.push_back({readPrefixCode(bits, kLiterals + kLengthCodes + cacheSize),
                          readPrefixCode(bits, kLiterals), readPrefixCode(bits, kLiterals),
                          readPrefixCode(bits, kLiterals), readPrefixCode(bits, kDistanceCodes)});

    const std::uint64_t total = std::uint64_t(width) * height;
    std::vector<std::uint32_t> px(std::size_t(total), 0);
    std::vector<std::uint32_t> cache(cacheSize, 0);
    auto remember = [&](std::uint32_t argb) {
        if (cacheBits) cache[(0x1E35A7BDu * argb) >> (32 - cacheBits)] = argb;
    };
    for (std::uint64_t pos = 0; pos < total;) {
        const std::uint32_t x = std::uint32_t(pos % width), y = std::uint32_t(pos / width);
        const auto& g = groups[metaBits ? meta[(y >> metaBits) * metaWidth + (x >> metaBits)] : 0];
        const std::uint32_t s = g[0].decode(bits);
        if (s < kLiterals) {
            const std::uint32_t red = g[1].decode(bits), blue = g[2].decode(bits);
            const std::uint32_t alpha = g[3].decode(bits);
            px[std::size_t(pos++)] = alpha << 24 | red << 16 | s << 8 | blue;
            remember(px[std::size_t(pos - 1)]);
        } else if (s < kLiterals + kLengthCodes) {
            const std::uint64_t length = prefixValue(bits, s - kLiterals);
            const std::uint64_t distance = distanceOf(prefixValue(bits, g[4].decode(bits)), width);
            if (distance > pos || length > total - pos)
                throw Error("a backward reference (length " + std::to_string(length) +
                            ", distance " + std::to_string(distance) + " at pixel " +
                            std::to_string(pos) + ") reaches outside the picture");
            for (std::uint64_t i = 0; i < length; ++i, ++pos) {
                px[std::size_t(pos)] = px[std::size_t(pos - distance)];
                remember(px[std::size_t(pos)]);
            }
        } else {
            const std::uint32_t index = s - kLiterals - kLengthCodes;
            px[std::size_t(pos++)] = cache[index];  // index < cacheSize: the alphabet says so
        }
    }
    return px;
}

std::uint32_t channel(std::uint32_t argb, int shift) {
    return (argb >> shift) & 0xFF;
}

// Per channel (a + b) / 2.
std::uint32_t average2(std::uint32_t a, std::uint32_t b) {
    return (((a ^ b) & 0xFEFEFEFEu) >> 1) + (a & b);
}

std::uint32_t perChannel(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                         int (*fn)(int, int, int)) {
    std::uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8)
        out |= std::uint32_t(
                   fn(int(channel(a, shift)), int(channel(b, shift)), int(channel(c, shift))))
               << shift;
    return out;
}

int clamp255(int v) {
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

std::uint32_t select(std::uint32_t left, std::uint32_t top, std::uint32_t topLeft) {
    int toLeft = 0, toTop = 0;  // Manhattan distances of the estimate to the left and top pixels
    for (int shift = 0; shift < 32; shift += 8) {
        const int l = int(channel(left, shift)), t = int(channel(top, shift));
        const int tl = int(channel(topLeft, shift));
        toLeft += std::abs(t - tl);
        toTop += std::abs(l - tl);
    }
    return toLeft < toTop ? left : top;
}

std::uint32_t predict(std::uint32_t mode, std::uint32_t l, std::uint32_t t, std::uint32_t tr,
                      std::uint32_t tl) {
    switch (mode) {
        case 1:
            return l;
        case 2:
            return t;
        case 3:
            return tr;
        case 4:
            return tl;
        case 5:
            return average2(average2(l, tr), t);
        case 6:
            return average2(l, tl);
        case 7:
            return average2(l, t);
        case 8:
            return average2(tl, t);
        case 9:
            return average2(t, tr);
        case 10:
            return average2(average2(l, tl), average2(t, tr));
        case 11:
            return select(l, t, tl);
        case 12:
            return perChannel(l, t, tl, [](int a, int b, int c) { return clamp255(a + b - c); });
        case 13:
            return perChannel(average2(l, t), tl, 0,
                              [](int a, int b, int) { return clamp255(a + (a - b) / 2); });
        default:  // 0, and 14 and 15 as libwebp reads them
            return 0xFF000000u;
    }
}

// Per channel a + b, modulo 256.
std::uint32_t addPixels(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ag = (a & 0xFF00FF00u) + (b & 0xFF00FF00u);
    const std::uint32_t rb = (a & 0x00FF00FFu) + (b & 0x00FF00FFu);
    return (ag & 0xFF00FF00u) | (rb & 0x00FF00FFu);
}

struct Transform {
    std::uint32_t type = 0;
    std::uint32_t bits = 0;   // block size bits, or the color indexing's width bits
    std::uint32_t width = 0;  // of the image it applies to (before color indexing packs it)
    std::vector<std::uint32_t> data;
};

void inversePredictor(const Transform& t, std::vector<std::uint32_t>& px, std::uint32_t height) {
    const std::uint32_t w = t.width, blocksWide = divRoundUp(w, t.bits);
    for (std::uint32_t y = 0; y < height; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * w + x;
            std::uint32_t pred;
            if (y == 0)
                pred = x == 0 ? 0xFF000000u : px[i - 1];
            else if (x == 0)
                pred = px[i - w];
            else
                // TR of the last column is the first pixel of this row: px[i - w + 1] all the same.
                pred = predict((t.data[(y >> t.bits) * blocksWide + (x >> t.bits)] >> 8) & 0xF,
                               px[i - 1], px[i - w], px[i - w + 1], px[i - w - 1]);
            px[i] = addPixels(px[i], pred);
        }
}

// (t * c) >> 5 with both as signed 8-bit values.
int colorDelta(std::uint32_t t, std::uint32_t c) {
    return (int(std::int8_t(std::uint8_t(t))) * int(std::int8_t(std::uint8_t(c)))) >> 5;
}

void inverseColor(const Transform& t, std::vector<std::uint32_t>& px, std::uint32_t height) {
    const std::uint32_t w = t.width, blocksWide = divRoundUp(w, t.bits);
    for (std::uint32_t y = 0; y < height; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint32_t e = t.data[(y >> t.bits) * blocksWide + (x >> t.bits)];
            const std::uint32_t greenToRed = channel(e, 0), greenToBlue = channel(e, 8);
            const std::uint32_t redToBlue = channel(e, 16);
            std::uint32_t& p = px[std::size_t(y) * w + x];
            const std::uint32_t green = channel(p, 8);
            const std::uint32_t red =
                (channel(p, 16) + std::uint32_t(colorDelta(greenToRed, green))) & 0xFF;
            const std::uint32_t blue =
                (channel(p, 0) + std::uint32_t(colorDelta(greenToBlue, green)) +
                 std::uint32_t(colorDelta(redToBlue, red))) &
                0xFF;
            p = (p & 0xFF00FF00u) | red << 16 | blue;
        }
}

std::vector<std::uint32_t> inverseIndexing(const Transform& t, const std::vector<std::uint32_t>& px,
                                           std::uint32_t height) {
    const std::uint32_t w = t.width, packedWidth = divRoundUp(w, t.bits);
    const std::uint32_t perPixel = 8 >> t.bits, mask = (1u << perPixel) - 1;
    std::vector<std::uint32_t> out(std::size_t(w) * height);
    for (std::uint32_t y = 0; y < height; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint32_t packed =
                channel(px[std::size_t(y) * packedWidth + (x >> t.bits)], 8);
            const std::uint32_t index = (packed >> ((x & ((1u << t.bits) - 1)) * perPixel)) & mask;
            out[std::size_t(y) * w + x] = index < t.data.size() ? t.data[index] : 0;
        }
    return out;
}

ArgbImage decodeVp8l(ByteSpan data) {
    if (data.size() < 5 || data[0] != 0x2F) throw Error("the lossless data has no 0x2F signature");
    Bits bits(data.subspan(1));
    ArgbImage image;
    image.width = bits.read(14) + 1;
    image.height = bits.read(14) + 1;
    bits.read(1);  // alpha is used: a hint only
    if (const std::uint32_t version = bits.read(3))
        throw Error("lossless WebP version " + std::to_string(version) + " (only 0 exists)");
    if (std::uint64_t(image.width) * image.height > kMaxWebpPixels)
        throw Error(std::to_string(image.width) + "x" + std::to_string(image.height) +
                    " pixels: more than any icon holds");
    std::vector<Transform> transforms;
    std::uint32_t width = image.width, seen = 0;
    while (bits.read(1)) {
        Transform t;
        t.type = bits.read(2);
        if (seen & (1u << t.type)) throw Error("a transform is given twice");
        seen |= 1u << t.type;
        t.width = width;
        if (t.type == 0 || t.type == 1) {  // predictor, color
            t.bits = bits.read(3) + 2;
            t.data =
                readImage(bits, divRoundUp(width, t.bits), divRoundUp(image.height, t.bits), false);
        } else if (t.type == 3) {  // color indexing
            const std::uint32_t colors = bits.read(8) + 1;
            t.data = readImage(bits, colors, 1, false);
            for (std::size_t i = 1; i < t.data.size(); ++i)
                t.data[i] = addPixels(t.data[i], t.data[i - 1]);
            t.bits = colors <= 2 ? 3 : colors <= 4 ? 2 : colors <= 16 ? 1 : 0;
            width = divRoundUp(width, t.bits);
        }
        transforms.push_back(std::move(t));
    }
    std::vector<std::uint32_t> px = readImage(bits, width, image.height, true);
    for (auto it = transforms.rbegin(); it != transforms.rend(); ++it) {
        switch (it->type) {
            case 0:
                inversePredictor(*it, px, image.height);
                break;
            case 1:
                inverseColor(*it, px, image.height);
                break;
            case 2:
                for (auto& p : px) {
                    const std::uint32_t green = channel(p, 8);
                    p = addPixels(p, green << 16 | green);
                }
                break;
            default:
                px = inverseIndexing(*it, px, image.height);
        }
    }
    image.pixels = std::move(px);
    return image;
}

}  // namespace

ArgbImage decodeLosslessWebp(ByteSpan w) {
    if (w.size() < 12 || std::memcmp(w.data(), "RIFF", 4) != 0 ||
        std::memcmp(w.data() + 8, "WEBP", 4) != 0)
        throw Error("not a WebP file (no RIFF/WEBP header)");
    // (A last chunk of odd size may lack its padding byte: `at` can pass the end by one.)
    for (std::size_t at = 12; at <= w.size() && w.size() - at >= 8;) {
        const std::string fourcc(reinterpret_cast<const char*>(w.data() + at), 4);
        const std::uint32_t size = loadLE32(w.data() + at + 4);
        if (size > w.size() - at - 8)
            throw Error("the WebP chunk " + fourcc + " of " + std::to_string(size) +
                        " bytes runs past the end");
        ByteSpan payload = w.subspan(at + 8, size);
        if (fourcc == "VP8L") return decodeVp8l(payload);
        if (fourcc == "VP8 ")
            throw Error("a lossy WebP (VP8): only lossless WebP (VP8L) is decoded here");
        if (fourcc == "ANIM" || fourcc == "ANMF") throw Error("an animated WebP");
        at += 8 + std::size_t(size) + (size & 1);
    }
    throw Error("a WebP file without a picture (no VP8L chunk)");
}

}  // namespace pakfs::gbx
