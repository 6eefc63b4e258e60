// SPDX-License-Identifier: GPL-2.0-or-later
// A picture made to fit a size, as a PNG: what `pak gbx thumbnail --size N` writes for the
// desktop's thumbnailer (pakfs.thumbnailer).
#pragma once

#include <cstdint>

#include "common/Bytes.hpp"

namespace pakfs::desktop {

struct ScaledPng {
    Bytes png;
    std::uint32_t width = 0, height = 0;              // of the PNG
    std::uint32_t sourceWidth = 0, sourceHeight = 0;  // of the picture given
};

// `picture` (a JPEG or PNG file, as gbx::uprightPicture gives them) decoded (libjpeg-turbo,
// libpng), made smaller when its longer side is over `maxSide` (the aspect ratio kept, each
// pixel the average of the pixels it covers; libjpeg-turbo's own scaling first for a JPEG) and
// written as an 8-bit RGBA PNG (libpng). Throws Error saying what is wrong with the picture.
ScaledPng scaledPng(ByteSpan picture, const char* format, std::uint32_t maxSide);

}  // namespace pakfs::desktop
