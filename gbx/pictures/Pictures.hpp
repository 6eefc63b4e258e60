// SPDX-License-Identifier: GPL-2.0-or-later
// The pictures gbx headers hold: a map's thumbnail (a JPEG in chunk 03043007) and a
// collector's icon (raw pixels or WebP in chunk 0301A004 / 2E001004), found, described, and
// written out upright or as stored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/Bytes.hpp"
#include "gbx/Classes.hpp"
#include "gbx/Header.hpp"
#include "gbx/pictures/Jpeg.hpp"

namespace pakfs::gbx {

enum class PictureFormat {
    Jpeg,
    Webp,
    Bgra,  // raw 8-bit pixels, bytes B G R A, the bottom row first
};
// "jpeg", "webp", "raw bgra"
const char* pictureFormatName(PictureFormat format);

struct Picture {
    bool icon = false;        // a collector's icon, else a map's thumbnail
    std::uint32_t chunk = 0;  // the header chunk holding it, as stored
    PictureFormat format = PictureFormat::Jpeg;
    ByteSpan data;  // into GbxHeader::userData: the JPEG or WebP file, or the pixels
    std::optional<PictureSize> size;  // in pixels, when the picture's own header gives it
};

// The thumbnail (a map's chunk 03043007) or icon (the collector chunk 004) of the file; nullopt
// when it has none (no such chunk, or one that stores no picture). Throws Error saying what is
// wrong (without the file's name) when the chunk holding it is damaged.
std::optional<Picture> findPicture(const GbxHeader& header,
                                   const ClassRegistry& classes = ClassRegistry::builtin());

// Why a file findPicture found nothing in has no picture, for a message after the file's name:
// a map without a thumbnail, a collector without an icon, or a class that has neither.
std::string whyNoPicture(const GbxHeader& header,
                         const ClassRegistry& classes = ClassRegistry::builtin());

// "jpeg 256x256, 9916 bytes" (the size left out when the picture's header does not give it).
std::string describePicture(const Picture& picture);

struct PictureFile {
    Bytes bytes;
    const char* format = "";  // "jpeg", "png" or "webp": what `bytes` are
    std::string how;          // how they were made from what the file stores
};

// The picture upright, as the game shows it. The games store every picture upside down: a JPEG
// is flipped on its coded blocks (flipJpegVertically: no pixel decoded); raw pixels and a
// lossless WebP (decodeLosslessWebp) become a PNG, top row first. What cannot be turned
// without loss (a lossy WebP, a JPEG flipJpegVertically refuses) throws Error saying why.
PictureFile uprightPicture(const Picture& picture);
// The picture exactly as stored (upside down); raw pixels as a PNG of the rows in stored order.
PictureFile storedPicture(const Picture& picture);

}  // namespace pakfs::gbx
