// SPDX-License-Identifier: GPL-2.0-or-later
// JPEG pictures as the games store them in gbx headers: their size, and a vertical flip done on
// the coded 8x8 blocks, so that no pixel is decoded or changed.
#pragma once

#include <cstdint>
#include <optional>

#include "common/Bytes.hpp"

namespace pakfs::gbx {

struct PictureSize {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
};

// The size the JPEG's frame header (SOFn) gives; nullopt when none is found before the coded
// data or the markers before it are damaged.
std::optional<PictureSize> jpegSize(ByteSpan jpeg);

// The JPEG upside down, losslessly: the 8x8 blocks of each component are put in the reverse row
// order and the coefficients of odd vertical frequency change sign (the inverse DCT of the
// result is the block mirrored top to bottom), then coded again with the file's own Huffman
// tables; every byte before and after the coded data is kept. Flipping twice gives back the
// coefficients (and, for an encoder that pads with 1 bits, the bytes).
// Only a baseline Huffman-coded JPEG with 8-bit samples and a single scan holding every
// component flips this way, and only when its height is a whole number of MCU rows (else the
// padding rows below the picture would move to its top). Anything else, and damaged data,
// throws Error saying what stops it (without a file name: callers add theirs).
Bytes flipJpegVertically(ByteSpan jpeg);

// Upper bound on the 8x8 blocks (all components) of a picture to flip: 64 MiB of coefficients,
// far above the 24576 blocks of the games' largest thumbnails (1024x1024, 4:2:0).
inline constexpr std::uint64_t kMaxJpegBlocks = 1u << 19;

}  // namespace pakfs::gbx
