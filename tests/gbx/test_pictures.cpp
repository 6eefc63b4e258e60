// SPDX-License-Identifier: GPL-2.0-or-later
// The pictures of gbx headers: the lossless JPEG flip, the PNG writer, the thumbnails and icons
// of the fixtures of each era, map facts, and damaged picture chunks.
#include <zlib.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "common/ByteSource.hpp"
#include "common/Error.hpp"
#include "gbx/MapFacts.hpp"
#include "gbx/pictures/Jpeg.hpp"
#include "gbx/pictures/Pictures.hpp"
#include "gbx/pictures/Png.hpp"
#include "gbx/pictures/Webp.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/Pictures.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::gbx;
using pakfs::test::kGreyJpeg;  // not left to another file of the same unity batch
namespace fs = std::filesystem;

namespace {

// Made by libjpeg-turbo's cjpeg -quality 90 from part of a thumbnail: 20x32 colour (4:2:0) with
// -restart 1 (a restart interval of 2 MCUs, one RST marker). The grey one: tests/support.
const Bytes kColour = test::fromHex(
    "ffd8ffe000104a46494600010100000100010000ffdb0043000302020302020303030304030304050805050404050a"
    "07"
    "0706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b0b1016101113141515150c0f171816141812141514ffdb00430103"
    "04"
    "0405040509050509140d0b0d1414141414141414141414141414141414141414141414141414141414141414141414"
    "14"
    "1414141414141414141414141414ffc00011080020001403012200021101031101ffc4001f00000105010101010101"
    "00"
    "000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d0102030004110512"
    "21"
    "31410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a343536373839"
    "3a"
    "434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798"
    "99"
    "9aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9ea"
    "f1"
    "f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b511"
    "00"
    "020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f0"
    "15"
    "6272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768"
    "69"
    "6a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3"
    "c4"
    "c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffdd00040002ffda000c03010002"
    "11"
    "0311003f00f82bf8e9d827814a3eed03ad7cf9e609961c5148dd68a00fffd0f8302b364138f7a31b78c67dea40771c"
    "fa"
    "5359829c9e95e0a3cc216eb45296527345303fffd9");

// SHA-256 of `jpegtran -flip vertical -perfect -copy all` of each (libjpeg-turbo 2.1.5; for the
// colour one with -restart 2B, which keeps its restart interval).
const char* kGreyFlipped = "b27a2026dc529df9aa63435d72c6a8a83116f1d8f1bc44cc89a01a384c3e22cf";
const char* kColourFlipped = "4bd82ae47d933306c96b7c98c1f432d778455c2aa462153e59ed67d5b362d0a6";

// Lossless WebPs made by libwebp's cwebp -lossless: 24x16 with -z 0 (subtract green and
// predictor transforms) and -z 9 (predictor and color transforms), 19x7 of 3 colours (color
// indexing, 4 pixels a byte), 48x48 with -m 3 (a color cache); and a lossy one (cwebp -q 50).
const Bytes kSmallZ0 = test::fromHex(
    "524946466c010000574542505650384c5f0100002f17c003100d7521a2ff01056ddb486610fe70ef3f0862c1a47bfe"
    "a2"
    "19403700c49a1511111111c330c4307c975ffbfeafd4ee9eb377040249b2532dab366d036657ca1d8280010000d08f"
    "eb"
    "1a04028181ffb82e907e80826e00814041431eae0b0caedfc31ac0e0e061b087eb82848c4034580ef1705da1a350a8"
    "86"
    "1a47a15068e877d7350683c16a18836986853d1f5c5c5f74c1e1f0f01be070782de3d683cdf50687c3eb4220222634"
    "68"
    "44444c20b4598e70b82eb468d3d03468ac691a1a1a5aed4f376eecae2bfa7474fdd350e34d9ad1d1a34f47d7cd72db"
    "83"
    "ae1918faad7f35dca849b3961833303030eafe728c1918faa20ba91ffa5dff6ed0a849732db722913a2227913a9191"
    "93"
    "4824b22e7dd78ffa7dff3468d454f32d5ab561c69c89898959cf9763dea5eff5e37eeb9f068d35ddac45abb6da6761"
    "61"
    "61c59a85a537ac58b374d5f7fba1df36d2a2b5b6d97460c316db6cd8b061abcfd9b00100");
const Bytes kSmallZ9 = test::fromHex(
    "52494646d4000000574542505650384cc80000002f17c0031001802006fc374b88e87fea8182b40d98fab7bd2b61f0"
    "a3"
    "ff090a0714b46dc39841f9f3dd298451705bdbb669cb3a63cce8f3fdff33335201b6111904d936951dd561afb66d1b"
    "66"
    "48b7d3ce2032663088d2445e5cc40000e10d2e422b28422b788452481d222a8404209c0b7821240760a781500a67aa"
    "82"
    "9082181d9650ec8490a0d7d59afb2f080986ad0da86302e1704048593e45c05df767ea58191b50b621949adde8e20c"
    "10"
    "0ee400ff8e3f4fe106100e347182f005213953a33a7c06f840389005");
const Bytes kPalette = test::fromHex(
    "5249464638000000574542505650384c2b0000002f12800110173080f31ff31fe8a02600216893c12a9a328adf1b21"
    "a2"
    "ff0a933660bafb4acc8831e1d2eb0800");
const Bytes kCache = test::fromHex(
    "5249464600010000574542505650384cf40000002f2fc00b00912f3044f43faa4e0082f0bf6d620446a0ff01212971"
    "54"
    "dbd6b2fc53ff1318968426de821a2c0a400966eeae191c32707079c32f029bc8b69dbc9f04640df95bf83668190c24"
    "1b"
    "5053f3256001070c42a20036b5b5b5f94756c60e027080868e8de688b42d36e2200ab2a122e70423b76d1c31a7e97d"
    "f7"
    "0f1a388dc1bdf07aa2aec36d2a06982fe3eebc7400f56cdc9f97bc54a71b4a1ca076b9d777242edbf24265ce90a818"
    "ef"
    "2bff0306e8e305a9e37f621d0f8798ac5601c9f3814db67715da0ace4dfe66b34557be2eb1f218ef6b6f1106986c15"
    "8a"
    "fb05913a319f8b5962feefb4a481327c9006fdfa8ea44501");
const Bytes kLossy = test::fromHex(
    "524946463600000057454250565038202a0000009001009d012a0200020002c04c25a40002e745ac0000fee29ef4b4"
    "a5d5fd54c04603c18c2b5000000000");

// RGBA bytes of an ARGB picture, rows as they are.
Bytes rgbaOf(const ArgbImage& image) {
    Bytes out;
    for (std::uint32_t p : image.pixels)
        out.insert(out.end(), {std::uint8_t(p >> 16), std::uint8_t(p >> 8), std::uint8_t(p),
                               std::uint8_t(p >> 24)});
    return out;
}

std::string webpError(const Bytes& webp) {
    try {
        decodeLosslessWebp(webp);
    } catch (const Error& e) {
        return e.what();
    }
    return "(decoded)";
}

std::size_t find(ByteSpan hay, std::string_view needle, std::size_t from = 0) {
    auto it =
        std::search(hay.begin() + std::ptrdiff_t(from), hay.end(), needle.begin(), needle.end(),
                    [](std::uint8_t a, char b) { return a == std::uint8_t(b); });
    return it == hay.end() ? std::string::npos : std::size_t(it - hay.begin());
}

// `b` with the frame header's byte at `offset` (from the FFC0 marker) set to `v`.
Bytes withFrameByte(Bytes b, std::size_t offset, std::uint8_t v) {
    std::size_t sof = find(b, "\xFF\xC0");
    REQUIRE(sof != std::string::npos);
    b[sof + offset] = v;
    return b;
}

std::string flipError(const Bytes& jpeg) {
    try {
        flipJpegVertically(jpeg);
    } catch (const Error& e) {
        return e.what();
    }
    return "(flipped)";
}

struct DecodedPng {
    std::uint32_t width = 0, height = 0;
    Bytes rgba;
};

// Reads a PNG as encodePng writes it, checking every CRC: its size and RGBA pixels.
DecodedPng decodePng(const Bytes& png) {
    const Bytes signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    REQUIRE(png.size() > 8);
    REQUIRE(Bytes(png.begin(), png.begin() + 8) == signature);
    auto be32 = [&](std::size_t at) {
        return std::uint32_t(png[at] << 24 | png[at + 1] << 16 | png[at + 2] << 8 | png[at + 3]);
    };
    DecodedPng out;
    Bytes idat;
    std::vector<std::string> types;
    for (std::size_t at = 8; at < png.size();) {
        REQUIRE(png.size() - at >= 12);
        std::uint32_t len = be32(at);
        REQUIRE(png.size() - at - 12 >= len);
        std::string type(png.begin() + std::ptrdiff_t(at + 4),
                         png.begin() + std::ptrdiff_t(at + 8));
        types.push_back(type);
        CHECK(crc32(0, png.data() + at + 4, uInt(len + 4)) == be32(at + 8 + len));
        const std::uint8_t* data = png.data() + at + 8;
        if (type == "IHDR") {
            REQUIRE(len == 13);
            out.width = be32(at + 8);
            out.height = be32(at + 12);
            CHECK(Bytes(data + 8, data + 13) == Bytes{8, 6, 0, 0, 0});
        } else if (type == "IDAT") {
            idat.insert(idat.end(), data, data + len);
        }
        at += 12 + len;
    }
    CHECK(types == std::vector<std::string>{"IHDR", "IDAT", "IEND"});
    const std::size_t row = std::size_t(out.width) * 4 + 1;
    Bytes raw(row * out.height);
    uLongf rawSize = uLongf(raw.size());
    REQUIRE(uncompress(raw.data(), &rawSize, idat.data(), uLong(idat.size())) == Z_OK);
    REQUIRE(rawSize == raw.size());
    for (std::uint32_t y = 0; y < out.height; ++y) {
        CHECK(raw[y * row] == 0);  // filter: none
        out.rgba.insert(out.rgba.end(), raw.begin() + std::ptrdiff_t(y * row + 1),
                        raw.begin() + std::ptrdiff_t((y + 1) * row));
    }
    return out;
}

GbxHeader headerOf(const fs::path& file) {
    Bytes data = test::readFile(file);
    MemorySource src(data);
    return readHeader(src);
}

// A header of class `classId` with one header chunk.
GbxHeader builtHeader(std::uint32_t classId, std::uint32_t chunk, const Bytes& data) {
    GbxBuilder b;
    b.classId = classId;
    b.headerChunks.push_back({chunk, data, true});
    Bytes header = b.buildHeader();
    MemorySource src(header);
    return readHeader(src);
}

Bytes thumbnailChunk(std::uint32_t size, ByteSpan jpeg,
                     std::string_view openTag = "<Thumbnail.jpg>", bool closed = true) {
    BodyWriter w;
    w.u32(1);
    w.u32(size);
    w.raw(ByteSpan(reinterpret_cast<const std::uint8_t*>(openTag.data()), openTag.size()));
    w.raw(jpeg);
    if (closed) {
        for (std::string_view s : {"</Thumbnail.jpg>", "<Comments>"})
            w.raw(ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
        w.string("a comment");
        w.raw(ByteSpan(reinterpret_cast<const std::uint8_t*>("</Comments>"), 11));
    }
    return w.bytes();
}

std::string pictureError(const GbxHeader& h) {
    try {
        findPicture(h);
    } catch (const Error& e) {
        return e.what();
    }
    return "(read)";
}

}  // namespace

TEST_CASE("jpeg: a vertical flip gives jpegtran's bytes, and flipping twice the file",
          "[gbx][pictures]") {
    const Bytes grey = flipJpegVertically(kGreyJpeg);
    CHECK(test::sha256Hex(grey) == kGreyFlipped);
    CHECK(flipJpegVertically(grey) == kGreyJpeg);

    const Bytes colour = flipJpegVertically(kColour);
    CHECK(test::sha256Hex(colour) == kColourFlipped);
    CHECK(flipJpegVertically(colour) == kColour);
    // Everything before the coded data is kept, the restart interval (DRI) with it.
    const std::size_t scan = find(kColour, "\xFF\xDA");
    CHECK(Bytes(colour.begin(), colour.begin() + std::ptrdiff_t(scan)) ==
          Bytes(kColour.begin(), kColour.begin() + std::ptrdiff_t(scan)));
    CHECK(find(colour, "\xFF\xD0", scan) != std::string::npos);

    auto size = jpegSize(kColour);
    REQUIRE(size);
    CHECK(size->width == 20);
    CHECK(size->height == 32);
    CHECK_FALSE(jpegSize(Bytes{0xFF, 0xD8, 0xFF, 0xD9}));
}

TEST_CASE("jpeg: what cannot be flipped without loss is refused, with the reason",
          "[gbx][pictures]") {
    CHECK(flipError(withFrameByte(kGreyJpeg, 1, 0xC2)) ==
          "a progressive JPEG (FFC2): only baseline Huffman-coded JPEGs are flipped without "
          "loss here");
    CHECK(flipError(withFrameByte(kGreyJpeg, 1, 0xC9)) ==
          "a arithmetic-coded JPEG (FFC9): only baseline Huffman-coded JPEGs are flipped "
          "without loss here");
    CHECK(flipError(withFrameByte(kGreyJpeg, 4, 12)) ==
          "12-bit samples (only 8-bit JPEGs are flipped)");
    // Heights that are not whole MCU rows (16 for 4:2:0, 8 for one component).
    CHECK(flipError(withFrameByte(kColour, 6, 24)) ==
          "its height (24 rows) is not a whole number of 16-row MCUs: flipped, the padding rows "
          "would come to the top; not flipped");
    CHECK(flipError(withFrameByte(kGreyJpeg, 6, 12)) ==
          "its height (12 rows) is not a whole number of 8-row blocks: flipped, the padding "
          "rows would come to the top; not flipped");
    CHECK(flipError(withFrameByte(kGreyJpeg, 6, 0)) ==
          "the frame gives no height (a DNL marker gives it later): not flipped");
    // Sizes the data cannot back: no allocation follows them.
    CHECK(flipError(withFrameByte(withFrameByte(kGreyJpeg, 5, 0xFF), 7, 0xFF)) ==
          "65293x65296 pixels in 66618244 blocks: more than any thumbnail holds");
    CHECK(flipError(withFrameByte(withFrameByte(kGreyJpeg, 5, 2), 7, 2)) ==
          "525x528 pixels in 4356 blocks: more than its 17 bytes of coded data can hold");
    // Damage.
    CHECK(flipError(Bytes(kGreyJpeg.begin() + 2, kGreyJpeg.end())) == "not a JPEG (no SOI marker)");
    CHECK(flipError(Bytes(kGreyJpeg.begin(), kGreyJpeg.end() - 10)) ==
          "the coded data is cut short");
    Bytes twoScans = kGreyJpeg;
    twoScans.back() = 0xDA;
    CHECK(flipError(twoScans) ==
          "marker FFDA after the coded data: only a JPEG with a single scan is flipped");
    Bytes noTables = kGreyJpeg;
    noTables[find(noTables, "\xFF\xC4") + 1] = 0xFE;  // the DHT segments become comments
    noTables[find(noTables, "\xFF\xC4") + 1] = 0xFE;
    CHECK(flipError(noTables) == "the scan uses a Huffman table the file does not define");
}

TEST_CASE("webp: lossless pictures decode to dwebp's pixels, anything else is refused with why",
          "[gbx][pictures]") {
    // SHA-256 of the RGBA pixels `dwebp -pam` writes for each.
    struct Case {
        const Bytes& webp;
        std::uint32_t width, height;
        const char* rgba;
    };
    for (const Case& c : {
             Case{kSmallZ0, 24, 16,
                  "b8b32a361628a62fe50f4f64137a1b61f72b7a7bbf7a93f9cc5e686e51d7c516"},
             Case{kSmallZ9, 24, 16,
                  "b8b32a361628a62fe50f4f64137a1b61f72b7a7bbf7a93f9cc5e686e51d7c516"},
             Case{kPalette, 19, 7,
                  "c083c2a65416c4df7d229da07b2f86f02ee584666e0576362b0deae3fba5e2d7"},
             Case{kCache, 48, 48,
                  "833b424683e1d396cbf58777125f695aaeb1b46df7ae19e449ab3d0fdbb4df22"},
         }) {
        ArgbImage image = decodeLosslessWebp(c.webp);
        CHECK(image.width == c.width);
        CHECK(image.height == c.height);
        CHECK(test::sha256Hex(rgbaOf(image)) == c.rgba);
    }
    CHECK(webpError(kLossy) == "a lossy WebP (VP8): only lossless WebP (VP8L) is decoded here");
    CHECK(webpError(Bytes(kSmallZ9.begin(), kSmallZ9.end() - 40)) ==
          "the WebP chunk VP8L of 200 bytes runs past the end");
    Bytes cut = kSmallZ9;
    cut.resize(cut.size() - 40);
    cut[16] = std::uint8_t(cut.size() - 20);  // the chunk says what is left: the data ends early
    CHECK(webpError(cut) == "the lossless data is cut short");
    Bytes notWebp = kSmallZ9;
    notWebp[8] = 'X';
    CHECK(webpError(notWebp) == "not a WebP file (no RIFF/WEBP header)");
    // A last chunk of odd size without its padding byte ends the file.
    Bytes odd = {'R', 'I', 'F', 'F', 15, 0, 0, 0, 'W', 'E', 'B', 'P',
                 'E', 'X', 'I', 'F', 3,  0, 0, 0, 1,   2,   3};
    CHECK(webpError(odd) == "a WebP file without a picture (no VP8L chunk)");
    Bytes unpadded(kPalette.begin(), kPalette.end() - 1);  // its VP8L chunk takes 43 bytes
    CHECK(test::sha256Hex(rgbaOf(decodeLosslessWebp(unpadded))) ==
          "c083c2a65416c4df7d229da07b2f86f02ee584666e0576362b0deae3fba5e2d7");
    Bytes version = kSmallZ9;
    version[24] |= 0x20;  // the version bits after width, height and alpha
    CHECK(webpError(version) == "lossless WebP version 1 (only 0 exists)");
    Bytes huge = kSmallZ9;
    huge[21] = huge[22] = huge[23] = 0xFF;  // width and height 16384
    huge[24] |= 0x0F;
    CHECK(webpError(huge) == "16384x16384 pixels: more than any icon holds");
}

TEST_CASE("png: the writer's file holds the pixels given, every CRC right", "[gbx][pictures]") {
    const Bytes pixels = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                          13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
    DecodedPng png = decodePng(encodePng(3, 2, pixels));
    CHECK(png.width == 3);
    CHECK(png.height == 2);
    CHECK(png.rgba == pixels);
    CHECK_THROWS_WITH(encodePng(3, 3, pixels), "a 3x3 PNG cannot be made of 24 bytes of pixels");
    CHECK_THROWS_WITH(encodePng(0, 0, {}), "a 0x0 PNG cannot be made of 0 bytes of pixels");
}

TEST_CASE("fixtures: the thumbnail of a map of each era, as stored and upright",
          "[gbx][pictures][fixtures]") {
    const fs::path dir = test::sharedDir("fixtures/gbx");
    // SHA-256 of jpegtran -flip vertical -perfect -copy all of each thumbnail as stored.
    const std::map<std::string, std::string> upright = {
        {"GBX-NET 2 CGameCtnChallenge TMU 001.Challenge.Gbx",  // United (24003007)
         "763a04719ef4efd52eebd50d4dfd36207e24bd1560a0f31a79f4448a1c35806d"},
        {"GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx",
         "b71fa1577ba7ccbf22cf5b595a2b580e318edfddb6129b5b12e7997edadd38ed"},
        {"GBX-NET 2 CGameCtnChallenge MP3 001.Map.Gbx",
         "134ba05507db783c423a258e537c668673fedd690632f351ae9b67e2fdff93d8"},
        {"GBX-NET 2 CGameCtnChallenge MP4 001.Map.Gbx",
         "477eb05397aaea6be0c9eb83a2c21ead721bd8330c17bf798c37701a763cf1ff"},
        {"GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx",
         "004b901ebecadc5fbacc09d3387dd2decd1b4bb2a53921301bfa04866977f035"},
    };
    std::size_t thumbnails = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        Bytes data = test::readFile(entry.path());
        MemorySource src(data);
        GbxHeader h;
        try {
            h = readHeader(src);
        } catch (const Error&) {
            continue;  // not a gbx file (the manifest, the README)
        }
        if (!isMap(h)) continue;
        INFO(name);
        // By another route: the bytes between the tags in the file, the size before them.
        const std::size_t open = find(data, "<Thumbnail.jpg>");
        auto picture = findPicture(h);
        if (open == std::string::npos) {
            CHECK_FALSE(picture);
            continue;
        }
        const std::size_t start = open + 15, end = find(data, "</Thumbnail.jpg>", start);
        REQUIRE(end != std::string::npos);
        const Bytes jpeg(data.begin() + std::ptrdiff_t(start), data.begin() + std::ptrdiff_t(end));
        REQUIRE(jpeg.size() > 4);
        CHECK(std::uint32_t(data[open - 4] | data[open - 3] << 8 | data[open - 2] << 16 |
                            data[open - 1] << 24) == jpeg.size());
        CHECK((jpeg[0] == 0xFF && jpeg[1] == 0xD8));
        CHECK((jpeg[jpeg.size() - 2] == 0xFF && jpeg.back() == 0xD9));
        REQUIRE(picture);
        ++thumbnails;
        CHECK_FALSE(picture->icon);
        CHECK(picture->format == PictureFormat::Jpeg);
        CHECK(test::sha256Hex(picture->data) == test::sha256Hex(jpeg));
        PictureFile stored = storedPicture(*picture);
        CHECK(stored.bytes == jpeg);
        CHECK(std::string(stored.format) == "jpeg");
        PictureFile up = uprightPicture(*picture);
        CHECK(std::string(up.format) == "jpeg");
        CHECK(
            up.how ==
            "stored upside down: flipped losslessly (its 8x8 blocks reordered, no pixel decoded)");
        CHECK(flipJpegVertically(up.bytes) == jpeg);
        if (auto it = upright.find(name); it != upright.end())
            CHECK(test::sha256Hex(up.bytes) == it->second);
    }
    CHECK(thumbnails == 15);
}

TEST_CASE("fixtures: map facts of each era", "[gbx][pictures][fixtures]") {
    const fs::path dir = test::sharedDir("fixtures/gbx");
    struct Expected {
        const char* file;
        const char* title;
        const char* author;
        const char* nickname;
        const char* environment;
        const char* thumbnail;
    };
    for (const Expected& e : {
             Expected{"GBX-NET 2 CGameCtnChallenge TM10 001.Challenge.Gbx", nullptr, nullptr,
                      nullptr, "Rally", nullptr},
             Expected{"DemoRaceB1.Challenge.Gbx",
                      "\xEF\xBB\xBF"
                      "DemoRaceB1",
                      "Nadeo", nullptr, "Speed", nullptr},
             Expected{"GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx",
                      "GBX-NET 2 CGameCtnChallenge TMSX 001", "BigBang1112", nullptr, "Island",
                      nullptr},
             Expected{"GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx",
                      "GBX-NET 2 CGameCtnChallenge TMF 001", "bigbang1112", nullptr, "Stadium",
                      "jpeg 256x256, 9916 bytes"},
             Expected{"BaseValley.Map.Gbx", "BaseValley", "Nadeo", "Nadeo", "Valley",
                      "jpeg 512x512, 47756 bytes"},
             Expected{"GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx",
                      "GBX-NET 2 CGameCtnChallenge TM2020 001", "akPfIM0aSzuHuaaDWptBbQ",
                      "BigBang1112", "Stadium2020", "jpeg 1024x1024, 109760 bytes"},
         }) {
        INFO(e.file);
        auto facts = mapFacts(headerOf(dir / e.file));
        REQUIRE(facts);
        auto same = [](const std::optional<std::string>& got, const char* want) {
            return want ? got && *got == want : !got;
        };
        CHECK(same(facts->title, e.title));
        CHECK(same(facts->author, e.author));
        CHECK(same(facts->authorNickname, e.nickname));
        CHECK(same(facts->environment, e.environment));
        CHECK(same(
            facts->thumbnail ? std::optional(describePicture(*facts->thumbnail)) : std::nullopt,
            e.thumbnail));
        CHECK(facts->thumbnailProblem.empty());
    }
    CHECK_FALSE(mapFacts(headerOf(dir / "Bench.Replay.Gbx")));
    CHECK(collectionName("#26") == "Stadium2020");
    CHECK(collectionName("#57") == "collection 57");
    CHECK(collectionName("Speed") == "Speed");
}

TEST_CASE("fixtures: icons, raw pixels and WebP upright as PNG, and as stored",
          "[gbx][pictures][fixtures]") {
    const fs::path shared = test::sharedDir("fixtures");
    for (const char* file : {"assets2/MP-CGameItemModel~bridge1.ObjectInfo.gbx",  // 0301A004
                             "assets/BlockInfos~1_TrackMania_Sunrise~BayBridgeSusp.TMEDClassic.Gbx",
                             "gbx/GBX-NET 2 CGameCtnMacroBlockInfo MP4 001.Macroblock.Gbx"}) {
        INFO(file);
        GbxHeader h = headerOf(shared / file);
        auto picture = findPicture(h);
        REQUIRE(picture);
        CHECK(picture->icon);
        CHECK(describePicture(*picture) == "raw bgra 64x64, 16384 bytes");
        // The pixels are the chunk's last 64 x 64 x 4 bytes, B G R A, the bottom row first.
        const HeaderChunk* chunk = nullptr;
        for (const auto& c : h.chunks)
            if ((c.id & 0xFFF) == 0x004) chunk = &c;
        REQUIRE(chunk);
        ByteSpan stored = h.chunkData(*chunk).last(16384);
        Bytes want;
        for (int y = 63; y >= 0; --y)
            for (int x = 0; x < 64; ++x) {
                const std::uint8_t* p = &stored[std::size_t(y * 256 + x * 4)];
                want.insert(want.end(), {p[2], p[1], p[0], p[3]});
            }
        PictureFile up = uprightPicture(*picture);
        CHECK(std::string(up.format) == "png");
        DecodedPng png = decodePng(up.bytes);
        CHECK(png.width == 64);
        CHECK(png.height == 64);
        CHECK(png.rgba == want);
        // As stored: the same rows, bottom first.
        DecodedPng asStored = decodePng(storedPicture(*picture).bytes);
        for (std::size_t y = 0; y < 64; ++y)
            CHECK(std::equal(asStored.rgba.begin() + std::ptrdiff_t(y * 256),
                             asStored.rgba.begin() + std::ptrdiff_t((y + 1) * 256),
                             want.begin() + std::ptrdiff_t((63 - y) * 256)));
    }
    // WebP icons (Trackmania 2020): decoded, written as PNG top row first. SHA-256 of the RGBA
    // rows of `dwebp -pam`, bottom row first.
    for (const auto& [file, rgba] : std::vector<std::pair<std::string, std::string>>{
             {"gbx/GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx",
              "0832090ca9f3b006f6b0b1cdf80e8337ad531a0b6ecc5cf8ec1d37a6683c53a9"},
             {"gbx/GBX-NET 2 CGameCtnMacroBlockInfo TM2020 001.Macroblock.Gbx",
              "c93fdc1418b9e65b4c725ad39b42c484c2379d7cd9ada185a92e28650c470310"},
             {"assets2/TM2020-CGameItemModel~Base.Item.Gbx",
              "0308ac568200e0e5d4805ffe8001a46d572b16a29c4a82ef0f95dff5424abb8a"},
             {"assets2/TM2020-CGameItemModel~GroundDefault_0_0.Item.Gbx",
              "eda52b4522c937434bc1959bc9efc65736ed4606d5cb33b27b1e147bcab82b89"},
             {"assets2/TM2020-CGameItemModel~Ground_12_0.Item.Gbx",
              "3b8235706f0819c1580d3b1bdc0e741ffb8b102211a5c3e0a3955113bf6ead9f"},
         }) {
        INFO(file);
        GbxHeader h = headerOf(shared / file);
        auto webp = findPicture(h);
        REQUIRE(webp);
        CHECK(webp->format == PictureFormat::Webp);
        PictureFile up = uprightPicture(*webp);
        CHECK(std::string(up.format) == "png");
        CHECK(up.how ==
              "a lossless WebP stored upside down: decoded and written as PNG, top row first");
        DecodedPng png = decodePng(up.bytes);
        CHECK(png.width == 64);
        CHECK(png.height == 64);
        CHECK(test::sha256Hex(png.rgba) == rgba);
        PictureFile stored = storedPicture(*webp);
        CHECK(Bytes(webp->data.begin(), webp->data.end()) == stored.bytes);
        CHECK(find(stored.bytes, "RIFF") == 0);
        CHECK(find(stored.bytes, "WEBPVP8L") == 8);
    }
    GbxHeader h = headerOf(shared / "gbx/GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx");
    CHECK(describePicture(*findPicture(h)) == "webp 64x64, 2702 bytes");
    // An item without an icon chunk.
    CHECK_FALSE(findPicture(headerOf(shared / "gbx/GBX-NET 2 CGameItemModel MP4 002.Item.Gbx")));
}

TEST_CASE("damaged picture chunks are errors that say what is wrong", "[gbx][pictures]") {
    const Bytes jpeg = kGreyJpeg;
    const std::uint32_t map = 0x03043000, thumb = 0x03043007;
    GbxHeader good = builtHeader(map, thumb, thumbnailChunk(std::uint32_t(jpeg.size()), jpeg));
    auto picture = findPicture(good);
    REQUIRE(picture);
    CHECK(Bytes(picture->data.begin(), picture->data.end()) == jpeg);
    CHECK(describePicture(*picture) == "jpeg 13x16, 345 bytes");

    CHECK(pictureError(builtHeader(map, thumb, thumbnailChunk(1000, jpeg))) ==
          "thumbnail chunk 03043007: the header chunk is 605 bytes short of the thumbnail (1000 "
          "bytes at offset 23 of 418)");
    CHECK(pictureError(builtHeader(
              map, thumb, thumbnailChunk(std::uint32_t(jpeg.size()), jpeg, "<Thumbnail.png>"))) ==
          "thumbnail chunk 03043007: no <Thumbnail.jpg> tag at offset 8 of the header chunk");
    CHECK(
        pictureError(builtHeader(map, thumb, thumbnailChunk(3, jpeg, "<Thumbnail.jpg>", false))) ==
        "thumbnail chunk 03043007: no </Thumbnail.jpg> tag at offset 26 of the header chunk");
    Bytes notJpeg(jpeg.begin() + 2, jpeg.end());
    CHECK(pictureError(
              builtHeader(map, thumb, thumbnailChunk(std::uint32_t(notJpeg.size()), notJpeg))) ==
          "thumbnail chunk 03043007: the thumbnail (343 bytes) is not a JPEG: it does not start "
          "with FFD8");
    CHECK(pictureError(builtHeader(map, thumb, {1, 0, 0})) ==
          "thumbnail chunk 03043007: the header chunk is 1 byte short of a 32-bit field (4 bytes "
          "at offset 0 of 3)");
    // Version 0, and an empty one: no thumbnail.
    CHECK_FALSE(findPicture(builtHeader(map, thumb, {0, 0, 0, 0})));
    CHECK_FALSE(findPicture(builtHeader(map, thumb, thumbnailChunk(0, {}))));
    // A map whose thumbnail chunk is damaged still has its other facts.
    GbxBuilder b;
    b.classId = map;
    BodyWriter common;
    common.u8(0);
    common.meta("uid", "Stadium", "someone");
    common.string("A map");
    common.u8(0);
    b.headerChunks.push_back({0x03043003, common.bytes(), false});
    b.headerChunks.push_back({thumb, thumbnailChunk(1000, jpeg), true});
    Bytes header = b.buildHeader();
    MemorySource src(header);
    auto facts = mapFacts(readHeader(src));
    REQUIRE(facts);
    CHECK(facts->title == "A map");
    CHECK(facts->author == "someone");
    CHECK(facts->environment == "Stadium");
    CHECK_FALSE(facts->thumbnail);
    CHECK(facts->thumbnailProblem ==
          "thumbnail chunk 03043007: the header chunk is 605 bytes short of the thumbnail (1000 "
          "bytes at offset 23 of 418)");

    // Icons: pixels cut short, bytes after them, a WebP that is none.
    const std::uint32_t item = 0x2E002000, icon = 0x2E001004;
    Bytes raw = {2, 0, 2, 0};
    raw.resize(4 + 15);
    CHECK(pictureError(builtHeader(item, icon, raw)) ==
          "icon chunk 2E001004: the header chunk is 1 byte short of the icon's 2x2 pixels (16 "
          "bytes at offset 4 of 19)");
    raw.resize(4 + 17);
    CHECK(pictureError(builtHeader(item, icon, raw)) ==
          "icon chunk 2E001004: 1 byte after the icon in its header chunk");
    Bytes webp = {0x40, 0x80, 0x40, 0x80, 1, 0, 4, 0, 0, 0, 'R', 'I', 'F', 'X'};
    CHECK(pictureError(builtHeader(item, icon, webp)) ==
          "icon chunk 2E001004: the icon (4 bytes) is not a WebP file: no RIFF/WEBP header");
    CHECK_FALSE(findPicture(builtHeader(item, icon, {0x40, 0x80, 0x40, 0x80, 0, 0})));
    // A lossy WebP cannot be turned without loss: refused, and written as stored.
    Bytes lossy = {0x40, 0x80, 0x40, 0x80, 1, 0, std::uint8_t(kLossy.size()), 0, 0, 0};
    lossy.insert(lossy.end(), kLossy.begin(), kLossy.end());
    const GbxHeader lossyHeader = builtHeader(item, icon, lossy);  // the picture points into it
    auto lossyIcon = findPicture(lossyHeader);
    REQUIRE(lossyIcon);
    CHECK(describePicture(*lossyIcon) == "webp 2x2, 62 bytes");
    CHECK_THROWS_WITH(uprightPicture(*lossyIcon),
                      "the icon is a WebP stored upside down that cannot be turned without loss: "
                      "a lossy WebP (VP8): only lossless WebP (VP8L) is decoded here (--as-stored "
                      "writes it as stored)");
    CHECK(storedPicture(*lossyIcon).bytes == kLossy);
    CHECK_FALSE(findPicture(builtHeader(item, icon, {0, 0, 0, 0})));
}
