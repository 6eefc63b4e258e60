// SPDX-License-Identifier: GPL-2.0-or-later
// The PNG layout (ISO/IEC 15948): signature, IHDR, IDAT, IEND chunks, each with its CRC-32;
// every row behind filter byte 0 (none), the rows deflated as one zlib stream.
#include "gbx/pictures/Png.hpp"

#include <zlib.h>

#include <string>

#include "common/Error.hpp"

namespace pakfs::gbx {
namespace {

void put32(Bytes& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(std::uint8_t(v >> shift));
}

void chunk(Bytes& out, const char* type, ByteSpan data) {
    put32(out, std::uint32_t(data.size()));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, out.data() + start, uInt(out.size() - start));
    put32(out, std::uint32_t(crc));
}

}  // namespace

Bytes encodePng(std::uint32_t width, std::uint32_t height, ByteSpan rgba) {
    const std::uint64_t rowBytes = std::uint64_t(width) * 4;
    if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF ||
        rgba.size() != rowBytes * height)
        throw Error("a " + std::to_string(width) + "x" + std::to_string(height) +
                    " PNG cannot be made of " + std::to_string(rgba.size()) + " bytes of pixels");
    Bytes raw;
    raw.reserve(std::size_t((rowBytes + 1) * height));
    for (std::uint32_t y = 0; y < height; ++y) {
        raw.push_back(0);  // filter: none
        auto row = rgba.subspan(std::size_t(y * rowBytes), std::size_t(rowBytes));
        raw.insert(raw.end(), row.begin(), row.end());
    }
    uLongf packedSize = compressBound(uLong(raw.size()));
    Bytes packed(packedSize);
    if (compress2(packed.data(), &packedSize, raw.data(), uLong(raw.size()), 9) != Z_OK)
        throw Error("zlib could not compress the PNG's pixels");
    packed.resize(packedSize);

    Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    Bytes ihdr;
    put32(ihdr, width);
    put32(ihdr, height);
    // 8 bits a sample, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
    ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});
    chunk(out, "IHDR", ihdr);
    chunk(out, "IDAT", packed);
    chunk(out, "IEND", {});
    return out;
}

}  // namespace pakfs::gbx
