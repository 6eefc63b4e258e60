// SPDX-License-Identifier: GPL-2.0-or-later
// Decoding a thumbnail (libjpeg-turbo, libpng), fitting it to a size, writing it as a PNG.
#include "desktop/ScaledPicture.hpp"

// clang-format off
#include <cstdio>  // before jpeglib.h, which uses FILE
#include <csetjmp>
#include <jpeglib.h>
#include <png.h>
// clang-format on

#include <algorithm>
#include <string>

#include "common/Error.hpp"

namespace pakfs::desktop {

namespace {

// Against hostile headers: no thumbnail or icon is near this.
constexpr std::uint32_t kMaxSide = 16384;

struct Pixels {
    std::uint32_t width = 0, height = 0;
    Bytes rgba;  // width * height * 4
};

struct JpegError {
    jpeg_error_mgr mgr;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

void onJpegError(j_common_ptr cinfo) {
    auto* err = reinterpret_cast<JpegError*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

// libjpeg reports errors by longjmp; nothing here is read after one but what it leaves alone.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclobbered"
#endif

// libjpeg's part, with no C++ object alive across its longjmp: returns false with the message
// in `err` when it fails. Scales by the smallest M/8 that keeps the longer side at least
// `want` (libjpeg-turbo's DCT scaling), RGBA out.
bool decodeJpegInto(const std::uint8_t* data, std::size_t size, std::uint32_t want,
                    jpeg_decompress_struct& cinfo, JpegError& err, Pixels& out) {
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = onJpegError;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.image_width == 0 || cinfo.image_height == 0 || cinfo.image_width > kMaxSide ||
        cinfo.image_height > kMaxSide) {
        std::snprintf(err.message, sizeof err.message, "a JPEG of %ux%u pixels",
                      unsigned(cinfo.image_width), unsigned(cinfo.image_height));
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    const std::uint32_t longer = std::max(cinfo.image_width, cinfo.image_height);
    cinfo.scale_denom = 8;
    cinfo.scale_num = 8;
    for (unsigned m = 1; m < 8; ++m)
        if (std::uint64_t(longer) * m / 8 >= want) {
            cinfo.scale_num = m;
            break;
        }
    cinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    out.width = cinfo.output_width;
    out.height = cinfo.output_height;
    out.rgba.resize(std::size_t(out.width) * out.height * 4);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out.rgba.data() + std::size_t(cinfo.output_scanline) * out.width * 4;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return true;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

Pixels decodeJpeg(ByteSpan data, std::uint32_t want, std::uint32_t& width, std::uint32_t& height) {
    jpeg_decompress_struct cinfo{};
    JpegError err{};
    Pixels out;
    if (!decodeJpegInto(data.data(), data.size(), want, cinfo, err, out))
        throw Error(std::string("the thumbnail does not decode: ") + err.message);
    width = cinfo.image_width;
    height = cinfo.image_height;
    return out;
}

Pixels decodePng(ByteSpan data) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data.data(), data.size()))
        throw Error(std::string("the picture does not decode: ") + image.message);
    if (image.width == 0 || image.height == 0 || image.width > kMaxSide ||
        image.height > kMaxSide) {
        png_image_free(&image);
        throw Error("the picture is " + std::to_string(image.width) + "x" +
                    std::to_string(image.height) + " pixels");
    }
    image.format = PNG_FORMAT_RGBA;
    Pixels out;
    out.width = image.width;
    out.height = image.height;
    out.rgba.resize(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr))
        throw Error(std::string("the picture does not decode: ") + image.message);
    return out;
}

// Each pixel of the result the average of the source pixels it covers (their areas weighed).
Pixels fitInto(const Pixels& in, std::uint32_t maxSide) {
    if (std::max(in.width, in.height) <= maxSide) return in;
    Pixels out;
    if (in.width >= in.height) {
        out.width = maxSide;
        out.height = std::max<std::uint32_t>(
            1, std::uint32_t((std::uint64_t(in.height) * maxSide + in.width / 2) / in.width));
    } else {
        out.height = maxSide;
        out.width = std::max<std::uint32_t>(
            1, std::uint32_t((std::uint64_t(in.width) * maxSide + in.height / 2) / in.height));
    }
    out.rgba.assign(std::size_t(out.width) * out.height * 4, 0);
    const double sx = double(in.width) / out.width, sy = double(in.height) / out.height;
    for (std::uint32_t y = 0; y < out.height; ++y) {
        const double y0 = y * sy, y1 = (y + 1) * sy;
        for (std::uint32_t x = 0; x < out.width; ++x) {
            const double x0 = x * sx, x1 = (x + 1) * sx;
            double sum[4] = {0, 0, 0, 0}, area = 0;
            for (auto yy = std::uint32_t(y0); yy < std::min<double>(y1, in.height); ++yy) {
                const double wy = std::min<double>(y1, yy + 1) - std::max<double>(y0, yy);
                for (auto xx = std::uint32_t(x0); xx < std::min<double>(x1, in.width); ++xx) {
                    const double w = wy * (std::min<double>(x1, xx + 1) - std::max<double>(x0, xx));
                    const std::uint8_t* p = &in.rgba[(std::size_t(yy) * in.width + xx) * 4];
                    for (int c = 0; c < 4; ++c) sum[c] += w * p[c];
                    area += w;
                }
            }
            std::uint8_t* q = &out.rgba[(std::size_t(y) * out.width + x) * 4];
            for (int c = 0; c < 4; ++c) q[c] = std::uint8_t(std::min(255.0, sum[c] / area + 0.5));
        }
    }
    return out;
}

Bytes encodePng(const Pixels& p) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = p.width;
    image.height = p.height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, nullptr, &size, 0, p.rgba.data(), 0, nullptr))
        throw Error(std::string("cannot write the PNG: ") + image.message);
    Bytes out(size);
    if (!png_image_write_to_memory(&image, out.data(), &size, 0, p.rgba.data(), 0, nullptr))
        throw Error(std::string("cannot write the PNG: ") + image.message);
    out.resize(size);
    return out;
}

}  // namespace

ScaledPng scaledPng(ByteSpan picture, const char* format, std::uint32_t maxSide) {
    if (maxSide == 0) throw UsageError("--size must be at least 1");
    ScaledPng r;
    Pixels pixels;
    const std::string kind = format;
    if (kind == "jpeg") {
        pixels = decodeJpeg(picture, maxSide, r.sourceWidth, r.sourceHeight);
    } else if (kind == "png") {
        pixels = decodePng(picture);
        r.sourceWidth = pixels.width;
        r.sourceHeight = pixels.height;
    } else {
        throw Error("a " + kind + " picture cannot be made smaller here (JPEG and PNG can)");
    }
    pixels = fitInto(pixels, maxSide);
    r.png = encodePng(pixels);
    r.width = pixels.width;
    r.height = pixels.height;
    return r;
}

}  // namespace pakfs::desktop
