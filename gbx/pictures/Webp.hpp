// SPDX-License-Identifier: GPL-2.0-or-later
// Lossless WebP (VP8L), as Trackmania 2020 stores collector icons: decoded to pixels, so that an
// icon stored upside down can be written upright without loss.
#pragma once

#include <cstdint>
#include <vector>

#include "common/Bytes.hpp"

namespace pakfs::gbx {

struct ArgbImage {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint32_t> pixels;  // alpha in bits 31-24, then red, green, blue; top row first
};

// Decodes a WebP file whose picture is lossless (a VP8L chunk, alone or in an extended file).
// Throws Error saying what is wrong (without a file name): not a WebP, a lossy one (VP8), an
// animation, damaged data, more than kMaxWebpPixels.
ArgbImage decodeLosslessWebp(ByteSpan webp);

// Upper bound on a picture's pixels (16 MiB of them decoded), far above the games' 64x64 icons.
inline constexpr std::uint64_t kMaxWebpPixels = 1u << 22;

}  // namespace pakfs::gbx
