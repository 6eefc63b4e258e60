// SPDX-License-Identifier: GPL-2.0-or-later
// Damaged pictures in gbx headers: the JPEG flip, the WebP decoder and the picture chunks end
// every input in bytes or an Error, within the allocation limit of Harness.hpp.
#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "common/ByteSource.hpp"
#include "gbx/MapFacts.hpp"
#include "gbx/pictures/Jpeg.hpp"
#include "gbx/pictures/Pictures.hpp"
#include "gbx/pictures/Webp.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/hostile/Harness.hpp"
#include "tests/support/Pictures.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::hostile;

namespace {

// A 19x7 lossless WebP (cwebp -lossless); the JPEG is tests/support/Pictures.hpp's.
const Bytes kWebp = test::fromHex(
    "5249464638000000574542505650384c2b0000002f12800110173080f31ff31fe8a02600216893c12a9a328adf1b21"
    "a2"
    "ff0a933660bafb4acc8831e1d2eb0800");

// `data` with a few bytes changed (or cut short), the same way for the same seed.
Bytes mutated(const Bytes& data, std::mt19937& rng) {
    Bytes m = data;
    if (rng() % 4 == 0) m.resize(rng() % m.size());
    for (unsigned n = 1 + rng() % 6; n > 0 && !m.empty(); --n) {
        std::size_t at = rng() % m.size();
        if (rng() % 2)
            m[at] ^= std::uint8_t(1u << (rng() % 8));
        else
            m[at] = std::uint8_t(rng());
    }
    return m;
}

}  // namespace

TEST_CASE("pictures: damaged JPEGs and WebPs are flipped, decoded or refused, never more",
          "[hostile][pictures]") {
    std::mt19937 rng(2024);
    std::size_t done = 0, refused = 0;
    {
        AllocLimit limit;
        for (int i = 0; i < 3000; ++i) {
            const bool webp = i % 2;
            const Bytes input = mutated(webp ? kWebp : test::kGreyJpeg, rng);
            try {
                if (webp)
                    gbx::decodeLosslessWebp(input);
                else
                    gbx::flipJpegVertically(input);
                ++done;
            } catch (const Error&) {
                ++refused;
            }
        }
    }
    CHECK(gRefusedAlloc == 0);
    CHECK(done + refused == 3000);
    CHECK(refused > 0);
}

TEST_CASE("pictures: sizes the data cannot back allocate nothing of that size",
          "[hostile][pictures]") {
    // A JPEG of 65535 x 65528 pixels, a WebP of 16384 x 16384, a thumbnail chunk that says
    // 4 GiB, raw icon pixels of 32767 x 32767.
    Bytes jpeg = test::kGreyJpeg;
    const std::size_t sof = 89;  // FFC0 in test::kGreyJpeg
    REQUIRE((jpeg[sof] == 0xFF && jpeg[sof + 1] == 0xC0));
    jpeg[sof + 5] = jpeg[sof + 7] = jpeg[sof + 8] = 0xFF;
    jpeg[sof + 6] = 0xF8;
    Bytes webp = kWebp;
    webp[21] = webp[22] = webp[23] = 0xFF;
    webp[24] |= 0x0F;
    gbx::BodyWriter thumb;
    thumb.u32(1);
    thumb.u32(0xFFFFFFFF);
    thumb.raw(Bytes{'<', 'T', 'h', 'u', 'm', 'b', 'n', 'a', 'i', 'l', '.', 'j', 'p', 'g', '>'});
    gbx::GbxBuilder map;
    map.classId = 0x03043000;
    map.headerChunks.push_back({0x03043007, thumb.bytes(), true});
    gbx::GbxBuilder item;
    item.classId = 0x2E002000;
    item.headerChunks.push_back({0x2E001004, {0xFF, 0x7F, 0xFF, 0x7F, 1, 2, 3, 4}, false});
    std::vector<std::string> errors;
    {
        AllocLimit limit;
        for (const auto& fn : std::vector<std::function<void()>>{
                 [&] { gbx::flipJpegVertically(jpeg); },
                 [&] { gbx::decodeLosslessWebp(webp); },
                 [&] {
                     Bytes h = map.buildHeader();
                     MemorySource src(h);
                     gbx::GbxHeader header = gbx::readHeader(src);
                     auto facts = gbx::mapFacts(header);
                     if (facts && !facts->thumbnailProblem.empty())
                         throw Error(facts->thumbnailProblem);
                 },
                 [&] {
                     Bytes h = item.buildHeader();
                     MemorySource src(h);
                     gbx::findPicture(gbx::readHeader(src));
                 },
             }) {
            try {
                fn();
                errors.push_back("(no error)");
            } catch (const Error& e) {
                errors.push_back(e.what());
            }
        }
    }
    CHECK(gRefusedAlloc == 0);
    CHECK(errors ==
          std::vector<std::string>{
              "65535x65528 pixels in 67100672 blocks: more than any thumbnail holds",
              "16384x16384 pixels: more than any icon holds",
              "thumbnail chunk 03043007: the header chunk is 4294967295 bytes short of the "
              "thumbnail (4294967295 bytes at offset 23 of 23)",
              "icon chunk 2E001004: the header chunk is 4294705152 bytes short of the icon's "
              "32767x32767 pixels (4294705156 bytes at offset 4 of 8)",
          });
}
