// SPDX-License-Identifier: GPL-2.0-or-later
// A minimal PNG writer for the pictures of gbx headers: 8-bit RGBA, one zlib stream.
#pragma once

#include <cstdint>

#include "common/Bytes.hpp"

namespace pakfs::gbx {

// A PNG of `width` x `height` pixels from `rgba` (4 bytes a pixel, R G B A, the top row first).
// Throws Error when `rgba` is not exactly that many bytes or the picture is empty.
Bytes encodePng(std::uint32_t width, std::uint32_t height, ByteSpan rgba);

}  // namespace pakfs::gbx
