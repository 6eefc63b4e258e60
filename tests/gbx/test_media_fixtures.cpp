// SPDX-License-Identifier: GPL-2.0-or-later
// The game-written map, clip, ghosts and replays of ../shared/fixtures/gbx that the later media
// blocks and ghost chunks (gbx/chunks/game/Media.cpp, chunks/game/Ghost.cpp) now read
// whole with `pak gbx info --nodes`, and the proof that follows: in a version 6 pack a stored file
// of these classes is planned from the chunk readers (no node scan) and `pak check` calls it
// parsed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/GbxFixtures.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace fs = std::filesystem;

namespace {

struct MediaWhole {
    const char* file;
    const char* summary;  // the "nodes read" line
};

// Before these readers the map stopped at 0329F000 and the clip at 03139000; the ghosts and
// replays read to the end but skipped the record data node inside 03092000 unread.
const std::vector<MediaWhole> kMediaWhole = {
    {"Alive.Map.Gbx", "nodes read: 2083, complete"},
    {"GBX-NET 2 CGameCtnMediaClip MP4 001.Clip.Gbx", "nodes read: 63, complete"},
    {"GBX-NET 2 CGameCtnGhost TM2020 001.Ghost.Gbx", "nodes read: 2, complete"},
    {"GBX-NET 2 CGameCtnReplayRecord TM2020 001.Replay.Gbx", "nodes read: 3, complete"},
    {"Simple TECH 1.Replay.gbx", "nodes read: 2, complete"},
};

// A media entity block file (version 11, a badge, 40 keys) with its record data node.
Bytes builtEntity() {
    gbx::BodyWriter w;
    w.chunk(0x0329F000);
    w.u32(11);
    w.newNode(1, 0x0911F000);
    w.chunk(0x0911F000);
    w.u32(10);
    w.u32(4);
    w.u32(4);
    w.zeros(4);
    w.endNode();
    w.f32(0);
    w.u32(0);     // notice records
    w.zeros(16);  // four bools
    w.u32(0);
    w.meta("CarSport", "Vehicles", "Nadeo");
    w.zeros(12);
    w.u32(0);  // skins
    w.boolean(true);
    w.u32(1);  // badge version 1: no int and string
    w.zeros(12);
    w.u32(0);
    w.u32(0);
    w.string("");  // skin options
    w.u32(40);
    w.zeros(40 * 28);
    w.string("ghost");
    w.u32(0);
    w.zeros(8);
    w.chunk(0x0329F002);
    w.string("options");
    w.endNode();
    gbx::GbxBuilder b;
    b.classId = 0x0329F000;
    b.numNodes = 2;
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("media fixtures: the map, clip, ghost and replays read whole with pak gbx info --nodes",
          "[gbx][media][fixtures]") {
    fs::path dir = sharedDir("fixtures/gbx");
    for (const auto& w : kMediaWhole) {
        INFO(w.file);
        checkNodesRead(dir / w.file, w.summary);
    }
    // The clips' every chunk is known.
    for (const char* name : {"GBX-NET 2 CGameCtnMediaClip MP4 001.Clip.Gbx",
                             "GBX-NET 2 CGameCtnMediaClip TM2020 001.Clip.Gbx"}) {
        INFO(name);
        auto clip = run(kPak + " gbx info --nodes " + q(dir / name));
        CHECK(clip.code == 0);
        CHECK(clip.out.find(", unknown") == std::string::npos);
    }
}

TEST_CASE("media fixtures: stored in a version 6 pack, planned from the chunk readers, parsed",
          "[gbx][media][fixtures]") {
    fs::path dir = sharedDir("fixtures/gbx");
    TempDir tmp;
    writeFile(tmp / "src" / "Media" / "Clip.Clip.Gbx",
              storedForm(readFile(dir / kMediaWhole[1].file), BodyWas::compressed));
    writeFile(tmp / "src" / "Media" / "Clip2020.Clip.Gbx",
              storedForm(readFile(dir / "GBX-NET 2 CGameCtnMediaClip TM2020 001.Clip.Gbx"),
                         BodyWas::compressed));
    writeFile(tmp / "src" / "Media" / "Entity.Gbx", builtEntity());
    const fs::path pak = tmp / "media.Pack.Gbx";
    auto p = run(kPak + " pack -q --version 6 --level 0 " + test::kKeyArg + " " + q(tmp / "src") +
                 " " + q(pak));
    REQUIRE(p.code == 0);
    // No node scan planned them, and they stay stored (a scanned file would be deflated so that
    // its Adler-32 can prove it).
    CHECK(p.err.find("node scan") == std::string::npos);
    CHECK(p.err.find(": 3 files in 1 folder, 0 compressed,") != std::string::npos);
    auto r = run(kPak + " check " + test::kKeyArg + " " + q(pak));
    CHECK(r.code == 0);
    const std::string proof =
        ": parsed by known chunk readers to the end, every node slot filled (no checksum: the "
        "parse is the proof)\n";
    CHECK(r.out == "gbx parsed    Media/Clip.Clip.Gbx" + proof +
                       "gbx parsed    Media/Clip2020.Clip.Gbx" + proof +
                       "gbx parsed    Media/Entity.Gbx" + proof +
                       "3 files: 0 plain, 3 gbx (3 parsed, 0 header, 0 exact, 0 verified, 0 "
                       "refused), 0 undecodable\n");
    for (const char* name : {"Clip.Clip.Gbx", "Clip2020.Clip.Gbx", "Entity.Gbx"}) {
        INFO(name);
        auto c = run(kPak + " cat " + test::kKeyArg + " " + q(pak) + " " +
                     q(std::string("Media/") + name));
        CHECK(c.code == 0);
        CHECK(Bytes(c.out.begin(), c.out.end()) == readFile(tmp / "src" / "Media" / name));
    }
}

TEST_CASE("media fixtures: the map read whole is planned without the node scan",
          "[gbx][media][fixtures]") {
    // Its skippable chunks no reader knows (03101005 of every anchored object, map chunks such as
    // 03043034) may hold node signatures, so its bytes need zlib's Adler-32: verified, not parsed.
    fs::path dir = sharedDir("fixtures/gbx");
    TempDir tmp;
    writeFile(tmp / "src" / "Alive.Map.Gbx",
              storedForm(readFile(dir / "Alive.Map.Gbx"), BodyWas::compressed));
    const fs::path pak = tmp / "map.Pack.Gbx";
    auto p = run(kPak + " pack -q --version 6 --level 0 " + test::kKeyArg + " " + q(tmp / "src") +
                 " " + q(pak));
    REQUIRE(p.code == 0);
    CHECK(p.err.find("node scan") == std::string::npos);
    auto r = run(kPak + " check " + test::kKeyArg + " " + q(pak));
    CHECK(r.code == 0);
    CHECK(r.out.rfind("gbx verified  Alive.Map.Gbx: ", 0) == 0);
    auto c = run(kPak + " cat " + test::kKeyArg + " " + q(pak) + " Alive.Map.Gbx");
    CHECK(Bytes(c.out.begin(), c.out.end()) == readFile(tmp / "src" / "Alive.Map.Gbx"));
}
