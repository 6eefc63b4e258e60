// SPDX-License-Identifier: GPL-2.0-or-later
// The user.gbx.map.* attributes of maps: through the pack view, and through a real mount on the
// map fixtures of each era.
#include <sys/xattr.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "gbx/testing/GbxBuilder.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Pictures.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {
void tag(gbx::BodyWriter& w, std::string_view s) {
    w.raw(Bytes(s.begin(), s.end()));
}

// A map whose header names it, its author and environment, with a thumbnail chunk holding
// `jpeg` under the size `size` (a size past the chunk's end damages it); no thumbnail chunk when
// `jpeg` is empty.
Bytes map(const std::string& name, const Bytes& jpeg, std::uint32_t size) {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    gbx::BodyWriter common;
    common.u8(0);
    common.meta("uid", "Alpine", "someone");
    common.string(name);
    common.u8(0);
    b.headerChunks.push_back({0x03043003, common.bytes(), false});
    if (!jpeg.empty()) {
        gbx::BodyWriter thumb;
        thumb.u32(1);
        thumb.u32(size);
        tag(thumb, "<Thumbnail.jpg>");
        thumb.raw(jpeg);
        tag(thumb, "</Thumbnail.jpg>");
        tag(thumb, "<Comments>");
        thumb.string("");
        tag(thumb, "</Comments>");
        b.headerChunks.push_back({0x03043007, thumb.bytes(), true});
    }
    gbx::BodyWriter body;
    body.endNode();
    b.body = body.bytes();
    return b.build();
}

// The names listxattr gives, in order.
std::vector<std::string> xattrNames(fs::PackView& f, const std::string& path) {
    const fs::View::Ino ino = fs::inoAt(f, path);
    long n = f.listxattr(ino, nullptr, 0);
    REQUIRE(n >= 0);
    std::string list(std::size_t(n), '\0');
    REQUIRE(f.listxattr(ino, list.data(), list.size()) == n);
    std::vector<std::string> out;
    for (std::size_t at = 0; at < list.size(); at = list.find('\0', at) + 1)
        out.push_back(list.substr(at, list.find('\0', at) - at));
    return out;
}

std::string getx(const stdfs::path& file, const char* name) {
    char buf[512];
    ssize_t n = ::getxattr(file.c_str(), name, buf, sizeof buf);
    return n < 0 ? "errno " + std::to_string(errno) : std::string(buf, std::size_t(n));
}

}  // namespace

TEST_CASE("pakfs: a map's title, author, environment and thumbnail as user.gbx.map.*",
          "[fs][thumbnail]") {
    auto files = smallFiles();
    files["Maps/A.Challenge.Gbx"] = map("First", kGreyJpeg, std::uint32_t(kGreyJpeg.size()));
    files["Maps/B.Challenge.Gbx"] = map("Second", {}, 0);
    files["Maps/C.Challenge.Gbx"] = map("Third", kGreyJpeg, 5000);  // damaged thumbnail chunk
    TestPack t = makeTestPack(files);
    std::vector<std::string> log;
    auto f = mountDirect(t, {}, &log);

    const std::string a = "/Test/Maps/A.Challenge.Gbx";
    CHECK(xattr(*f, a, fs::kXattrMapTitle) == "First");
    CHECK(xattr(*f, a, fs::kXattrMapAuthor) == "someone");
    CHECK(xattr(*f, a, fs::kXattrMapEnvironment) == "Alpine");
    CHECK(xattr(*f, a, fs::kXattrMapThumbnail) == "jpeg 13x16, 345 bytes");
    CHECK(xattrNames(*f, a) ==
          std::vector<std::string>{"user.pak.class_id", "user.pak.flags",
                                   "user.pak.compressed_size", "user.gbx.class", "user.gbx.refs",
                                   "user.gbx.decode", "user.gbx.map.title", "user.gbx.map.author",
                                   "user.gbx.map.environment", "user.gbx.map.thumbnail"});
    // No thumbnail: no attribute for it.
    const std::string b = "/Test/Maps/B.Challenge.Gbx";
    CHECK(xattr(*f, b, fs::kXattrMapTitle) == "Second");
    CHECK(xattr(*f, b, fs::kXattrMapThumbnail) == "errno " + std::to_string(ENODATA));
    CHECK(xattrNames(*f, b).back() == "user.gbx.map.environment");
    // A damaged one: none either, and one log line says what is wrong.
    const std::string c = "/Test/Maps/C.Challenge.Gbx";
    CHECK(xattr(*f, c, fs::kXattrMapTitle) == "Third");
    CHECK(xattr(*f, c, fs::kXattrMapThumbnail) == "errno " + std::to_string(ENODATA));
    CHECK(log == std::vector<std::string>{
                     "cannot read /Test/Maps/C.Challenge.Gbx: thumbnail chunk 03043007: the "
                     "header chunk is 4614 bytes short of the thumbnail (5000 bytes at offset 23 "
                     "of 409)"});
    // Not a map: none.
    CHECK(xattr(*f, "/Test/root.txt", fs::kXattrMapTitle) == "errno " + std::to_string(ENODATA));
    CHECK(xattrNames(*f, "/Test/root.txt").size() == 3);
}

TEST_CASE("pakfs mount: user.gbx.map.* of the map fixtures of each era",
          "[mount][thumbnail][fixtures]") {
    skipUnlessFuse();
    const stdfs::path maps = sharedDir("fixtures/gbx");
    std::map<std::string, Bytes> files;
    for (const char* name : {"GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx",
                             "GBX-NET 2 CGameCtnChallenge TMU 001.Challenge.Gbx",
                             "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx",
                             "GBX-NET 2 CGameCtnChallenge MP4 001.Map.Gbx",
                             "GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx", "Bench.Replay.Gbx"})
        files[std::string("Tracks/") + name] = readFile(maps / name);
    TestPack t = makeTestPack(files);
    TempDir dir;
    Mount mount({"--key", kTestKeyHex, t.pak.string()}, dir / "mnt", dir);
    INFO(mount.errors());
    REQUIRE(mount.waitMounted());
    const stdfs::path tracks = mount.path() / "Test/Tracks";
    struct Expected {
        const char* file;
        const char* title;
        const char* author;
        const char* environment;
        const char* thumbnail;
    };
    const std::string none = "errno " + std::to_string(ENODATA);
    for (const Expected& e : {
             Expected{"GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx",
                      "GBX-NET 2 CGameCtnChallenge TMSX 001", "BigBang1112", "Island", nullptr},
             Expected{"GBX-NET 2 CGameCtnChallenge TMU 001.Challenge.Gbx",
                      "GBX-NET CGameCtnChallenge TMU 001", "BigBang1112", "Stadium",
                      "jpeg 256x256, 6169 bytes"},
             Expected{"GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx",
                      "GBX-NET 2 CGameCtnChallenge TMF 001", "bigbang1112", "Stadium",
                      "jpeg 256x256, 9916 bytes"},
             Expected{"GBX-NET 2 CGameCtnChallenge MP4 001.Map.Gbx",
                      "GBX-NET 2 CGameCtnChallenge MP4 001", "bigbang1112", "Stadium",
                      "jpeg 512x512, 32202 bytes"},
             Expected{"GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx",
                      "GBX-NET 2 CGameCtnChallenge TM2020 001", "akPfIM0aSzuHuaaDWptBbQ",
                      "Stadium2020", "jpeg 1024x1024, 109760 bytes"},
         }) {
        INFO(e.file);
        const stdfs::path file = tracks / e.file;
        CHECK(getx(file, "user.gbx.map.title") == e.title);
        CHECK(getx(file, "user.gbx.map.author") == e.author);
        CHECK(getx(file, "user.gbx.map.environment") == e.environment);
        CHECK(getx(file, "user.gbx.map.thumbnail") == (e.thumbnail ? e.thumbnail : none));
        char list[1024];
        ssize_t n = ::listxattr(file.c_str(), list, sizeof list);
        REQUIRE(n > 0);
        const std::string names(list, std::size_t(n));
        CHECK(names.find(std::string("user.gbx.map.title") + '\0') != std::string::npos);
        CHECK((names.find(std::string("user.gbx.map.thumbnail") + '\0') != std::string::npos) ==
              (e.thumbnail != nullptr));
    }
    CHECK(getx(tracks / "Bench.Replay.Gbx", "user.gbx.map.title") == none);
    // getfattr as a user runs it.
    auto r = run("getfattr --only-values -n user.gbx.map.thumbnail " +
                 quote((tracks / "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx").string()));
    if (r.code != 127) CHECK(r.out == "jpeg 256x256, 9916 bytes");
    // pakfs --help names them.
    CHECK(run(kPakfs + " --help").out.find("user.gbx.map.thumbnail (format,") != std::string::npos);
}
