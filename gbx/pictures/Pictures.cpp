// SPDX-License-Identifier: GPL-2.0-or-later
// Layouts: 03043007 ([G] GBX.NET, Engines/Game/CGameCtnChallenge.cs HeaderChunk03043007; the
// Mania Tech wiki's CGameCtnChallenge): u32 version; from version 1 u32 size,
// "<Thumbnail.jpg>", the JPEG, "</Thumbnail.jpg>", "<Comments>", a string, "</Comments>". The
// collector icon 004 ([G] Engines/GameData/CGameCtnCollector.cs HeaderChunk2E001004; the
// wiki's 0301A004): u16 width, u16 height; both below 0x8000: width x height 32-bit pixels;
// else u16 version and from version 1 u32 size and a WebP file. Pixels are bytes B G R A ([G]
// reads each as an ARGB u32), the bottom row first ([G] reads stored row y into row
// height - 1 - y; the fixtures' icons come out upright so, and in that byte order). The WebP
// layout: RIFF container, VP8 / VP8L / VP8X chunk headers (RFC 9649).
#include "gbx/pictures/Pictures.hpp"

#include <cstring>
#include <string_view>

#include "common/Error.hpp"
#include "common/LittleEndian.hpp"
#include "gbx/ClassIds.hpp"
#include "gbx/pictures/Png.hpp"
#include "gbx/pictures/Webp.hpp"

namespace pakfs::gbx {
namespace {

constexpr std::uint32_t kThumbnailChunk = 0x03043007;
constexpr std::uint32_t kIconChunkTmf = 0x0301A004;
constexpr std::uint32_t kIconChunk = 0x2E001004;

std::string bytesText(std::uint64_t n) {
    return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

// Reads the chunk's fields in order; every length is checked against what is left.
class Fields : public LittleEndianFields<Fields> {
public:
    explicit Fields(ByteSpan data) : d_(data) {}
    // "a 16-bit field", "a 32-bit field" in the message when the chunk is short.
    void read(std::span<std::uint8_t> dst) {
        ByteSpan got = take(dst.size(), "a " + std::to_string(dst.size() * 8) + "-bit field");
        std::memcpy(dst.data(), got.data(), dst.size());
    }
    ByteSpan take(std::uint64_t n, const std::string& what) {
        if (n > d_.size() - at_)
            throw Error("the header chunk is " + bytesText(n - (d_.size() - at_)) + " short of " +
                        what + " (" + bytesText(n) + " at offset " + std::to_string(at_) + " of " +
                        std::to_string(d_.size()) + ")");
        ByteSpan out = d_.subspan(at_, std::size_t(n));
        at_ += std::size_t(n);
        return out;
    }
    void tag(std::string_view text) {
        ByteSpan got = take(text.size(), "the tag " + std::string(text));
        if (std::memcmp(got.data(), text.data(), text.size()) != 0)
            throw Error("no " + std::string(text) + " tag at offset " +
                        std::to_string(at_ - text.size()) + " of the header chunk");
    }
    std::size_t left() const { return d_.size() - at_; }

private:
    ByteSpan d_;
    std::size_t at_ = 0;
};

std::optional<PictureSize> webpSize(ByteSpan w) {
    if (w.size() < 30 || std::memcmp(w.data(), "RIFF", 4) != 0 ||
        std::memcmp(w.data() + 8, "WEBP", 4) != 0)
        return std::nullopt;
    ByteSpan kind = w.subspan(12, 4);
    if (std::memcmp(kind.data(), "VP8L", 4) == 0 && w[20] == 0x2F) {
        std::uint32_t bits = loadLE32(w.data() + 21);
        return PictureSize{(bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1};
    }
    if (std::memcmp(kind.data(), "VP8X", 4) == 0)
        return PictureSize{(loadLE32(w.data() + 24) & 0xFFFFFF) + 1,
                           (loadLE32(w.data() + 27) & 0xFFFFFF) + 1};
    if (std::memcmp(kind.data(), "VP8 ", 4) == 0 && w[23] == 0x9D && w[24] == 0x01 && w[25] == 0x2A)
        return PictureSize{loadLE16(w.data() + 26) & 0x3FFFu, loadLE16(w.data() + 28) & 0x3FFFu};
    return std::nullopt;
}

std::optional<Picture> thumbnail(const GbxHeader& h, const HeaderChunk& c) {
    Fields f(h.chunkData(c));
    std::uint32_t version = f.u32();
    if (version == 0) return std::nullopt;
    std::uint32_t size = f.u32();
    f.tag("<Thumbnail.jpg>");
    Picture p;
    p.chunk = c.id;
    p.data = f.take(size, "the thumbnail");
    f.tag("</Thumbnail.jpg>");
    if (size == 0) return std::nullopt;
    if (size < 4 || p.data[0] != 0xFF || p.data[1] != 0xD8)
        throw Error("the thumbnail (" + std::to_string(size) +
                    " bytes) is not a JPEG: it does not start with FFD8");
    p.size = jpegSize(p.data);
    return p;
}

std::optional<Picture> icon(const GbxHeader& h, const HeaderChunk& c) {
    Fields f(h.chunkData(c));
    std::uint32_t width = f.u16(), height = f.u16();
    Picture p;
    p.icon = true;
    p.chunk = c.id;
    if (!(width & 0x8000) && !(height & 0x8000)) {
        if (width == 0 || height == 0) return std::nullopt;
        p.format = PictureFormat::Bgra;
        p.size = PictureSize{width, height};
        p.data =
            f.take(std::uint64_t(width) * height * 4, "the icon's " + std::to_string(width) + "x" +
                                                          std::to_string(height) + " pixels");
    } else {
        if (f.u16() < 1) return std::nullopt;  // version 0 stores no picture
        std::uint32_t size = f.u32();
        p.format = PictureFormat::Webp;
        p.data = f.take(size, "the icon");
        if (size == 0) return std::nullopt;
        p.size = webpSize(p.data);
        if (size < 12 || std::memcmp(p.data.data(), "RIFF", 4) != 0 ||
            std::memcmp(p.data.data() + 8, "WEBP", 4) != 0)
            throw Error("the icon (" + std::to_string(size) +
                        " bytes) is not a WebP file: no RIFF/WEBP header");
    }
    if (f.left()) throw Error(bytesText(f.left()) + " after the icon in its header chunk");
    return p;
}

// RGBA rows from the stored BGRA pixels, top row first when `upright`.
Bytes rgbaRows(const Picture& p, bool upright) {
    const std::size_t w = p.size->width, h = p.size->height, row = w * 4;
    Bytes out(p.data.size());
    for (std::size_t y = 0; y < h; ++y) {
        const std::uint8_t* src = p.data.data() + (upright ? h - 1 - y : y) * row;
        std::uint8_t* dst = out.data() + y * row;
        for (std::size_t x = 0; x < row; x += 4) {
            dst[x] = src[x + 2];
            dst[x + 1] = src[x + 1];
            dst[x + 2] = src[x];
            dst[x + 3] = src[x + 3];
        }
    }
    return out;
}

}  // namespace

const char* pictureFormatName(PictureFormat format) {
    switch (format) {
        case PictureFormat::Jpeg:
            return "jpeg";
        case PictureFormat::Webp:
            return "webp";
        case PictureFormat::Bgra:
            return "raw bgra";
    }
    return "?";
}

std::optional<Picture> findPicture(const GbxHeader& header, const ClassRegistry& classes) {
    for (const auto& c : header.chunks) {
        const std::uint32_t id = classes.generalize(c.id);
        if (id == kThumbnailChunk) {
            try {
                return thumbnail(header, c);
            } catch (const Error& e) {
                throw Error("thumbnail chunk " + hex32(c.id) + ": " + e.what());
            }
        }
        if (id == kIconChunk || id == kIconChunkTmf) {
            try {
                return icon(header, c);
            } catch (const Error& e) {
                throw Error("icon chunk " + hex32(c.id) + ": " + e.what());
            }
        }
    }
    return std::nullopt;
}

std::string whyNoPicture(const GbxHeader& header, const ClassRegistry& classes) {
    if (classes.generalize(header.classId) == kClassChallenge) {
        bool chunk = false;
        for (const auto& c : header.chunks)
            chunk = chunk || classes.generalize(c.id) == kThumbnailChunk;
        return chunk ? "the map has no thumbnail (its header chunk 03043007 holds none)"
                     : "the map has no thumbnail (no header chunk 03043007)";
    }
    if (classes.ofClassOrAncestor(kClassCollectorGameData, header.classId) ||
        classes.ofClassOrAncestor(kClassCollector, header.classId))
        return "no icon in its header";
    return "a " + describeClass(header.classId, classes) +
           " has no thumbnail or icon (maps have a thumbnail; items, blocks, "
           "macroblocks and other collectors an icon)";
}

std::string describePicture(const Picture& p) {
    std::string out = pictureFormatName(p.format);
    if (p.size) out += " " + std::to_string(p.size->width) + "x" + std::to_string(p.size->height);
    return out + ", " + std::to_string(p.data.size()) + " bytes";
}

PictureFile uprightPicture(const Picture& p) {
    PictureFile out;
    switch (p.format) {
        case PictureFormat::Jpeg:
            try {
                out.bytes = flipJpegVertically(p.data);
            } catch (const Error& e) {
                throw Error(std::string("the thumbnail is stored upside down and cannot be "
                                        "flipped without loss: ") +
                            e.what());
            }
            out.format = "jpeg";
            out.how =
                "stored upside down: flipped losslessly (its 8x8 blocks reordered, no "
                "pixel decoded)";
            return out;
        case PictureFormat::Bgra:
            out.bytes = encodePng(p.size->width, p.size->height, rgbaRows(p, true));
            out.format = "png";
            out.how = "stored bottom row first: written as PNG, top row first";
            return out;
        case PictureFormat::Webp:
            break;
    }
    ArgbImage image;
    try {
        image = decodeLosslessWebp(p.data);
    } catch (const Error& e) {
        throw Error(std::string("the icon is a WebP stored upside down that cannot be turned "
                                "without loss: ") +
                    e.what() + " (--as-stored writes it as stored)");
    }
    // Decoded top row first, which is the picture's bottom row: RGBA rows in reverse order.
    Bytes rgba(std::size_t(image.width) * image.height * 4);
    for (std::size_t y = 0; y < image.height; ++y) {
        const std::uint32_t* src = &image.pixels[(image.height - 1 - y) * image.width];
        std::uint8_t* dst = &rgba[y * image.width * 4];
        for (std::size_t x = 0; x < image.width; ++x) {
            dst[4 * x] = std::uint8_t(src[x] >> 16);
            dst[4 * x + 1] = std::uint8_t(src[x] >> 8);
            dst[4 * x + 2] = std::uint8_t(src[x]);
            dst[4 * x + 3] = std::uint8_t(src[x] >> 24);
        }
    }
    out.bytes = encodePng(image.width, image.height, rgba);
    out.format = "png";
    out.how = "a lossless WebP stored upside down: decoded and written as PNG, top row first";
    return out;
}

PictureFile storedPicture(const Picture& p) {
    PictureFile out;
    if (p.format == PictureFormat::Bgra) {
        out.bytes = encodePng(p.size->width, p.size->height, rgbaRows(p, false));
        out.format = "png";
        out.how = "written as PNG in stored row order (upside down)";
    } else {
        out.bytes.assign(p.data.begin(), p.data.end());
        out.format = pictureFormatName(p.format);
        out.how = "written as stored (upside down)";
    }
    return out;
}

}  // namespace pakfs::gbx
