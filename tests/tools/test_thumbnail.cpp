// SPDX-License-Identifier: GPL-2.0-or-later
// pak gbx thumbnail, and the map facts and icon pak gbx info shows: the fixtures of each era, in
// files and inside paks, and the refusals.
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kKeyArg;
using test::kPak;
using test::q;
using test::run;
namespace fs = std::filesystem;

namespace {

std::size_t find(const Bytes& hay, std::string_view needle, std::size_t from = 0) {
    auto it =
        std::search(hay.begin() + std::ptrdiff_t(from), hay.end(), needle.begin(), needle.end(),
                    [](std::uint8_t a, char b) { return a == std::uint8_t(b); });
    return it == hay.end() ? std::string::npos : std::size_t(it - hay.begin());
}

// The JPEG a map file stores, found without the gbx reader: from the FFD8 after the
// <Thumbnail.jpg> tag to the FFD9 that ends right before </Thumbnail.jpg>.
Bytes storedJpeg(const fs::path& map) {
    Bytes data = test::readFile(map);
    std::size_t soi = find(data, "<Thumbnail.jpg>\xFF\xD8");
    REQUIRE(soi != std::string::npos);
    soi += 15;
    std::size_t eoi = find(data, "\xFF\xD9</Thumbnail.jpg>", soi);
    REQUIRE(eoi != std::string::npos);
    return Bytes(data.begin() + std::ptrdiff_t(soi), data.begin() + std::ptrdiff_t(eoi + 2));
}

// SHA-256 of `jpegtran -flip vertical -perfect -copy all` of each map's thumbnail as stored.
struct Era {
    const char* file;
    const char* summary;  // pak's description of the thumbnail
    const char* upright;
    std::size_t uprightSize;
};
const Era kEras[] = {
    {"GBX-NET 2 CGameCtnChallenge TMU 001.Challenge.Gbx", "24003007 (jpeg 256x256, 6169 bytes)",
     "763a04719ef4efd52eebd50d4dfd36207e24bd1560a0f31a79f4448a1c35806d", 6167},
    {"GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx", "03043007 (jpeg 256x256, 9916 bytes)",
     "b71fa1577ba7ccbf22cf5b595a2b580e318edfddb6129b5b12e7997edadd38ed", 9903},
    {"GBX-NET 2 CGameCtnChallenge MP4 001.Map.Gbx", "03043007 (jpeg 512x512, 32202 bytes)",
     "477eb05397aaea6be0c9eb83a2c21ead721bd8330c17bf798c37701a763cf1ff", 32226},
    {"GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx", "03043007 (jpeg 1024x1024, 109760 bytes)",
     "004b901ebecadc5fbacc09d3387dd2decd1b4bb2a53921301bfa04866977f035", 109423},
};

const std::string kFlipped =
    ", stored upside down: flipped losslessly (its 8x8 blocks reordered, no pixel decoded); "
    "wrote ";

}  // namespace

TEST_CASE("gbx thumbnail: a map of each era, upright and as stored, exactly",
          "[cli][thumbnail][fixtures]") {
    const fs::path maps = test::sharedDir("fixtures/gbx");
    test::TempDir dir;
    for (const Era& era : kEras) {
        INFO(era.file);
        const fs::path map = maps / era.file;
        const Bytes stored = storedJpeg(map);
        const fs::path out = dir / "thumb.jpg";
        auto r = run(kPak + " gbx thumbnail " + q(map) + " -o " + q(out));
        CHECK(r.code == 0);
        CHECK(r.out.empty());
        const Bytes upright = test::readFile(out);
        CHECK(test::sha256Hex(upright) == era.upright);
        CHECK(r.err == map.string() + ": thumbnail from header chunk " + era.summary + kFlipped +
                           std::to_string(era.uprightSize) + " bytes of jpeg to " + out.string() +
                           "\n");
        CHECK((upright.size() > 4 && upright[0] == 0xFF && upright[1] == 0xD8 &&
               upright[upright.size() - 2] == 0xFF && upright.back() == 0xD9));

        // As stored, to standard output: the bytes between the tags.
        r = run(kPak + " gbx thumbnail --as-stored " + q(map));
        CHECK(r.code == 0);
        const Bytes asStored(r.out.begin(), r.out.end());
        CHECK(test::sha256Hex(asStored) == test::sha256Hex(stored));
        CHECK(r.err == map.string() + ": thumbnail from header chunk " + era.summary +
                           ", written as stored (upside down); wrote " +
                           std::to_string(stored.size()) + " bytes of jpeg to standard output\n");
        // The upright one to standard output ("-o -") is the same as to a file.
        r = run(kPak + " gbx thumbnail " + q(map) + " -o -");
        CHECK(r.code == 0);
        CHECK(Bytes(r.out.begin(), r.out.end()) == upright);
    }
}

TEST_CASE("gbx thumbnail: PAK:PATH reads the map inside a pak", "[cli][thumbnail][fixtures]") {
    const fs::path maps = test::sharedDir("fixtures/gbx");
    test::TempDir dir;
    fs::create_directories(dir / "src/Tracks");
    for (const Era& era : kEras) fs::copy_file(maps / era.file, dir / "src/Tracks" / era.file);
    for (const char* version : {"3", "18"}) {
        INFO("version " << version);
        const fs::path pak = dir / (std::string("v") + version + ".pak");
        REQUIRE(run(kPak + " pack -q --version " + version + " " + kKeyArg + " " + q(dir / "src") +
                    " " + q(pak))
                    .code == 0);
        for (const Era& era : kEras) {
            INFO(era.file);
            const std::string target = pak.string() + ":Tracks/" + era.file;
            auto r = run(kPak + " gbx thumbnail " + kKeyArg + " " + q(target) + " -o " +
                         q(dir / "t.jpg"));
            CHECK(r.code == 0);
            CHECK(r.err.rfind(target + ": thumbnail from header chunk " + era.summary, 0) == 0);
            CHECK(test::sha256Hex(test::readFile(dir / "t.jpg")) == era.upright);
        }
        auto r = run(kPak + " gbx thumbnail " + kKeyArg + " " +
                     q(pak.string() + ":Tracks/none.Gbx") + " -o " + q(dir / "t.jpg"));
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + pak.string() + ": no file \"Tracks/none.Gbx\" in the pak\n");
    }
}

TEST_CASE("gbx thumbnail: files without one, WebP icons, raw icons, a terminal",
          "[cli][thumbnail][fixtures]") {
    const fs::path shared = test::sharedDir("fixtures");
    test::TempDir dir;
    const fs::path out = dir / "x";
    auto refused = [&](const fs::path& file, const std::string& why) {
        INFO(file);
        auto r = run(kPak + " gbx thumbnail " + q(file) + " -o " + q(out));
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err == "pak: " + file.string() + ": " + why + "\n");
        CHECK_FALSE(fs::exists(out));
    };
    refused(shared / "gbx/GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx",
            "the map has no thumbnail (no header chunk 03043007)");
    refused(shared / "gbx/Bench.Replay.Gbx",
            "a CTrackManiaReplayRecord (2407E000) has no thumbnail or icon (maps have a "
            "thumbnail; items, blocks, macroblocks and other collectors an icon)");
    refused(shared / "gbx/GBX-NET 2 CGameItemModel MP4 002.Item.Gbx", "no icon in its header");
    // A WebP icon: decoded, written as PNG; as stored, the WebP itself.
    const fs::path webp = shared / "gbx/GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx";
    auto r = run(kPak + " gbx thumbnail " + q(webp) + " -o " + q(dir / "webp.png"));
    CHECK(r.code == 0);
    const Bytes decoded = test::readFile(dir / "webp.png");
    CHECK(r.err ==
          webp.string() +
              ": icon from header chunk 2E001004 (webp 64x64, 2702 bytes), a lossless "
              "WebP stored upside down: decoded and written as PNG, top row first; wrote " +
              std::to_string(decoded.size()) + " bytes of png to " + (dir / "webp.png").string() +
              "\n");
    CHECK(find(decoded, "\x89PNG\r\n\x1A\n") == 0);
    r = run(kPak + " gbx thumbnail --as-stored " + q(webp) + " -o " + q(out));
    CHECK(r.code == 0);
    CHECK(r.err == webp.string() +
                       ": icon from header chunk 2E001004 (webp 64x64, 2702 bytes), written as "
                       "stored (upside down); wrote 2702 bytes of webp to " +
                       out.string() + "\n");
    const Bytes icon = test::readFile(out);
    CHECK(find(icon, "RIFF") == 0);
    CHECK(find(icon, "WEBPVP8L") == 8);
    fs::remove(out);
    // A lossy WebP (cwebp -q 50, 2x2) in an item's header: refused, as stored with --as-stored.
    const Bytes lossy = test::fromHex(
        "524946463600000057454250565038202a0000009001009d012a0200020002c04c25a40002e745ac0000fee2"
        "9ef4b4a5d5fd54c04603c18c2b5000000000");
    Bytes chunk = {0x40, 0x80, 0x40, 0x80, 1, 0, std::uint8_t(lossy.size()), 0, 0, 0};
    chunk.insert(chunk.end(), lossy.begin(), lossy.end());
    gbx::GbxBuilder item;
    item.classId = 0x2E002000;
    item.headerChunks.push_back({0x2E001004, chunk, false});
    test::writeFile(dir / "lossy.Item.Gbx", item.buildHeader());
    refused(dir / "lossy.Item.Gbx",
            "the icon is a WebP stored upside down that cannot be turned without loss: a lossy "
            "WebP (VP8): only lossless WebP (VP8L) is decoded here (--as-stored writes it as "
            "stored)");
    r = run(kPak + " gbx thumbnail --as-stored " + q(dir / "lossy.Item.Gbx") + " -o " + q(out));
    CHECK(r.code == 0);
    CHECK(test::readFile(out) == lossy);
    fs::remove(out);

    // Raw pixels: a PNG, top row first.
    const fs::path raw = shared / "assets2/MP-CGameItemModel~bridge1.ObjectInfo.gbx";
    r = run(kPak + " gbx thumbnail " + q(raw) + " -o " + q(dir / "icon.png"));
    CHECK(r.code == 0);
    const Bytes png = test::readFile(dir / "icon.png");
    CHECK(r.err == raw.string() +
                       ": icon from header chunk 0301A004 (raw bgra 64x64, 16384 bytes), stored "
                       "bottom row first: written as PNG, top row first; wrote " +
                       std::to_string(png.size()) + " bytes of png to " +
                       (dir / "icon.png").string() + "\n");
    CHECK(find(png, "\x89PNG\r\n\x1A\n") == 0);

    // A damaged thumbnail chunk: its tag overwritten.
    Bytes map = test::readFile(shared / "gbx/GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx");
    map[find(map, "<Thumbnail.jpg>") + 1] = 'X';
    test::writeFile(dir / "damaged.Challenge.Gbx", map);
    refused(dir / "damaged.Challenge.Gbx",
            "thumbnail chunk 03043007: no <Thumbnail.jpg> tag at offset 8 of the header chunk");
    refused(dir / "nothere.Gbx", "no such file");
    // -o naming the file read (or the pak of PAK:PATH) is refused before anything is written.
    const fs::path self = dir / "self.Challenge.Gbx";
    fs::copy_file(shared / "gbx/GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx", self);
    const Bytes before = test::readFile(self);
    r = run(kPak + " gbx thumbnail " + q(self) + " -o " + q(dir / "." / self.filename()));
    CHECK(r.code == 2);
    CHECK(r.err ==
          "pak: -o " + (dir / "." / self.filename()).string() + " is " + self.string() +
              ", the file read: the picture would replace it (pak gbx thumbnail --help)\n");
    CHECK(test::readFile(self) == before);
    fs::create_directories(dir / "src");
    fs::copy_file(self, dir / "src/self.Challenge.Gbx");
    REQUIRE(
        run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(dir / "self.pak")).code ==
        0);
    const Bytes pakBefore = test::readFile(dir / "self.pak");
    r = run(kPak + " gbx thumbnail " + kKeyArg + " " +
            q((dir / "self.pak").string() + ":self.Challenge.Gbx") + " -o " + q(dir / "self.pak"));
    CHECK(r.code == 2);
    CHECK(test::readFile(dir / "self.pak") == pakBefore);

    // Binary to a terminal is refused before anything is read; usage error.
    int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    REQUIRE(master >= 0);
    REQUIRE(::grantpt(master) == 0);
    REQUIRE(::unlockpt(master) == 0);
    const std::string terminal = ::ptsname(master);
    // (A subshell: run() sends the command's own standard output to a file.)
    r = run("(timeout 10 " + kPak + " gbx thumbnail " + q(raw) + " > " + q(terminal) + ")");
    ::close(master);
    CHECK(r.code == 2);
    CHECK(r.err ==
          "pak: standard output is a terminal: a picture is binary; give -o FILE or redirect "
          "standard output (pak gbx thumbnail --help)\n");
}

TEST_CASE("gbx info: a map's title, author, environment and thumbnail, and an item's icon",
          "[cli][thumbnail][fixtures]") {
    const fs::path shared = test::sharedDir("fixtures");
    const fs::path tm2020 = shared / "gbx/GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx";
    auto r = run(kPak + " gbx info " + q(tm2020));
    CHECK(r.code == 0);
    CHECK(r.out.find("  03043008  96 bytes  (CGameCtnChallenge)\n"
                     "map title: GBX-NET 2 CGameCtnChallenge TM2020 001\n"
                     "map author: akPfIM0aSzuHuaaDWptBbQ\n"
                     "map author nickname: BigBang1112\n"
                     "map environment: Stadium2020\n"
                     "map thumbnail: jpeg 1024x1024, 109760 bytes (header chunk 03043007)\n"
                     "nodes: 8\n") != std::string::npos);
    r = run(kPak + " gbx info --json " + q(tm2020));
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["map"] == nlohmann::json{{"title", "GBX-NET 2 CGameCtnChallenge TM2020 001"},
                                     {"author", "akPfIM0aSzuHuaaDWptBbQ"},
                                     {"author_nickname", "BigBang1112"},
                                     {"environment", "Stadium2020"},
                                     {"thumbnail",
                                      {{"format", "jpeg"},
                                       {"width", 1024},
                                       {"height", 1024},
                                       {"size", 109760},
                                       {"chunk", "03043007"}}}});
    // Scripts read these: still there.
    CHECK(j["body"]["compressed"] == true);
    CHECK(j["body"]["offset"] == 110859);

    r = run(kPak + " gbx info " +
            q(shared / "gbx/GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx"));
    CHECK(r.out.find("\nmap title: GBX-NET 2 CGameCtnChallenge TMSX 001\n"
                     "map author: BigBang1112\n"
                     "map environment: Island\n"
                     "map thumbnail: none\n") != std::string::npos);
    r = run(kPak + " gbx info --json " +
            q(shared / "gbx/GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx"));
    CHECK(nlohmann::json::parse(r.out)["map"]["thumbnail"] == nullptr);

    const fs::path item = shared / "gbx/GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx";
    r = run(kPak + " gbx info " + q(item));
    CHECK(r.out.find("\nicon: webp 64x64, 2702 bytes (header chunk 2E001004)\nnodes: ") !=
          std::string::npos);
    CHECK(r.out.find("map ") == std::string::npos);
    r = run(kPak + " gbx info --json " + q(item));
    j = nlohmann::json::parse(r.out);
    CHECK(j["icon"] == nlohmann::json{{"format", "webp"},
                                      {"width", 64},
                                      {"height", 64},
                                      {"size", 2702},
                                      {"chunk", "2E001004"}});
    CHECK_FALSE(j.contains("map"));
}
