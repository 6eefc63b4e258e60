// SPDX-License-Identifier: GPL-2.0-or-later
// Prefabs and the classes read without chunk IDs (gbx/chunks/plug/Prefab.cpp,
// gbx/chunks/plug/Object.cpp), lights (gbx/chunks/plug/Light.cpp, gbx/chunks/function/Func.cpp),
// the train wagon and the bitmap font of the fixtures: how far the fixtures read, that those read
// whole are parsed stored in a pak, and bodies written by the project's BodyWriter for the branches
// no fixture holds (whole reads of exactly the bytes the layout takes, and an error for every
// shorter prefix), with the reason where a reader stops.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/gbx/BuiltGbx.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/GbxFixtures.hpp"
#include "tests/support/NodeSummary.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::gbx;
using namespace pakfs::test;
namespace fs = std::filesystem;

// Named, not anonymous: the test files of a folder are built together (unity build).
namespace prefab_test {
namespace {

// The node reads a reader reports to the cipher: class ID and slot.
struct Reads : ReadObserver {
    std::vector<std::pair<std::uint32_t, std::int64_t>> reads;
    void onNodeRead(std::uint32_t classId, bool, std::int64_t slot) override {
        reads.emplace_back(classId, slot);
    }
};

void floats(BodyWriter& w, int n, float v = 0.5f) {
    for (int i = 0; i < n; ++i) w.f32(v);
}

// The fields of a prefab before its entities, for `ents` entities.
void prefabHead(BodyWriter& w, std::uint32_t ents) {
    w.u32(11);
    w.u64(0x01D8C771CD37D5D0);
    w.string("\\\\storage\\prefab.max");
    w.u32(0x8001C27C);
    w.u32(ents);
    w.u32(0);
}

// A CPlugDynaObjectModel body of version `v` with null nodes.
void dynaBody(BodyWriter& w, std::uint32_t v) {
    w.u32(v);
    w.boolean(false);
    w.boolean(true);
    for (int i = 0; i < 3; ++i) w.nullRef();
    floats(w, 4);
    w.u32(1);
    w.u32(2);
    w.u8(3);
    w.u8(4);
    w.u32(5);
    w.u32(6);
    w.u8(7);
    w.u32(8);
    w.u32(9);
    w.nullRef();
    w.u32(10);
    w.boolean(true);
    w.nullRef();
}

struct Fixture {
    const char* dir;
    const char* file;
    const char* nodesRead;
};

const std::vector<Fixture> kWhole = {
    {"fixtures/assets", "CPlugTrainWagonModel~GBX-NET_2_CPlugTrainWagonModel_MP4_001.Wagon.Gbx",
     "nodes read: 2, complete"},
    {"fixtures/assets2", "MP-CPlugFontBitmap~light.Font.gbx", "nodes read: 1, complete"},
    {"fixtures/assets", "CPlugPrefab~GBX-NET_2_CPlugPrefab_TM2020_001.Prefab.Gbx",
     "nodes read: 40, complete"},
};

}  // namespace

TEST_CASE("prefab fixtures: the wagon and the bitmap font read whole", "[gbx][prefab][fixtures]") {
    for (const auto& w : kWhole) {
        fs::path path = sharedDir(w.dir) / w.file;
        INFO(w.file);
        auto r = checkNodesRead(path, w.nodesRead);
        CHECK(r.out.find(", unknown") == std::string::npos);
    }
    auto r = run(kPak + " gbx info --nodes " +
                 q(sharedDir("fixtures/assets2") / "MP-CPlugFontBitmap~light.Font.gbx"));
    CHECK(r.out.find("  glyphs: 233\n  page: light_Textures\\light_00.dds\n") != std::string::npos);
}

TEST_CASE("prefab fixtures: the 2020 prefab's body is its fields, no chunk IDs",
          "[gbx][prefab][fixtures]") {
    fs::path path =
        sharedDir("fixtures/assets") / "CPlugPrefab~GBX-NET_2_CPlugPrefab_TM2020_001.Prefab.Gbx";
    auto r = run(kPak + " gbx info --nodes " + q(path));
    CHECK(r.code == 0);
    CHECK(r.out.find("\nnodes read: 40, complete\n#0 [slot 0] CPlugPrefab (09145000)") !=
          std::string::npos);
    CHECK(r.out.find("\n  body at 256 (fields, no chunk IDs)\n") != std::string::npos);
    auto j = run(kPak + " gbx info --nodes --json " + q(path));
    CHECK(j.out.find("\"class_body\": true") != std::string::npos);
}

TEST_CASE("prefab fixtures: stored in a pak, the wagon, the font and the prefab are parsed",
          "[gbx][prefab][fixtures]") {
    TempDir tmp;
    for (const auto& w : kWhole)
        writeFile(tmp / "src" / w.file, storedForm(readFile(sharedDir(w.dir) / w.file)));
    const std::string proof =
        ": parsed by known chunk readers to the end, every node slot filled (no checksum: the "
        "parse is the proof)\n";
    checkStoredPak(tmp / "src", tmp / "p.pak",
                   std::string("gbx parsed    ") + kWhole[2].file + proof + "gbx parsed    " +
                       kWhole[0].file + proof + "gbx parsed    " + kWhole[1].file + proof +
                       "3 files: 0 plain, 3 gbx (3 parsed, 0 header, 0 exact, 0 verified, 0 "
                       "refused), 0 undecodable\n",
                   {kWhole[0].file, kWhole[1].file, kWhole[2].file});
}

TEST_CASE("prefab layouts: a prefab of every entity parameter the sources describe",
          "[gbx][prefab]") {
    BodyWriter w;
    prefabHead(w, 6);
    // A static object model, placed with its phase.
    w.newNode(1, 0x09159000);
    w.u32(3);
    w.nullRef();  // mesh
    w.u8(0);      // not collidable: a shape follows
    w.nullRef();
    floats(w, 7);
    w.u32(0x2F0D9000);
    w.u32(0);
    w.f32(0.25f);
    w.string("static");
    // A dynamic object model, with instance parameters of version 2.
    w.newNode(2, 0x09144000);
    dynaBody(w, 10);
    floats(w, 7);
    w.u32(0x2F0B6000);
    w.u32(2);
    w.f32(1);
    w.u32(3);
    w.boolean(true);
    floats(w, 3);
    w.boolean(false);
    w.string("dyna");
    // The static model again, with a placement of one option of one tag.
    w.ref(1);
    floats(w, 7);
    w.u32(0x2F0A9000);
    w.u32(0);
    w.u32(1);
    w.u32(1);
    w.u32(1);
    w.string("Size");
    w.string("Small");
    w.string("");
    // No model; a placement group: one placement held inline, two shorts, one location.
    w.nullRef();
    floats(w, 7);
    w.u32(0x2F0D8000);
    w.u32(0);
    w.u32(1);
    w.u32(0);
    w.u32(2);
    w.u32(0);
    w.u32(2);
    w.u16(1);
    w.u16(2);
    w.u32(1);
    floats(w, 7);
    w.string("");
    // A constraint between two entities, then an entity without parameters.
    w.nullRef();
    floats(w, 7);
    w.u32(0x2F0C8000);
    w.u32(0);
    w.u32(0);
    w.u32(1);
    floats(w, 6);
    w.string("");
    w.nullRef();
    floats(w, 7);
    w.u32(0xFFFFFFFF);
    w.string("last");
    Reads reads;
    NodeSummary s = test::readsWhole(test::builtFile(0x09145000, w, 3), &reads);
    CHECK(s.classes == std::vector<std::string>{
                           "CPlugPrefab", "CPlugStaticObjectModel",
                           "NPlugStaticObjectModel_SInstanceParams", "CPlugDynaObjectModel",
                           "NPlugDynaObjectModel_SInstanceParams", "NPlugItemPlacement_SPlacement",
                           "NPlugItemPlacement_SPlacementGroup",
                           "NPlugDyna_SPrefabConstraintParams"});
    CHECK(s.values.at("0:entities") == "6");
    CHECK(s.values.at("3:version") == "10");
    // The parameter structures are not node reads: only the prefab and its two models are.
    CHECK(reads.reads == std::vector<std::pair<std::uint32_t, std::int64_t>>{
                             {0x09145000, 0}, {0x09159000, 1}, {0x09144000, 2}});
}

TEST_CASE("prefab layouts: what no source describes stops the read", "[gbx][prefab]") {
    BodyWriter other;
    prefabHead(other, 1);
    other.nullRef();
    floats(other, 7);
    other.u32(0x2F0BC000);  // a variant list: a class no prefab holds in GBX.NET
    other.u32(0);
    CHECK_THAT(test::readError(test::builtFile(0x09145000, other)),
               Catch::Contains("body of CPlugPrefab (09145000) (no chunk IDs, at offset 25): "
                               "CPlugPrefab entity 0 parameters of class NPlugItem_SVariantList "
                               "(2F0BC000) at 105: not one GBX.NET reads for a prefab"));

    BodyWriter params;
    prefabHead(params, 1);
    params.nullRef();
    floats(params, 7);
    params.u32(0x2F0B6000);
    params.u32(3);
    CHECK_THAT(test::readError(test::builtFile(0x09145000, params)),
               Catch::Contains("body of NPlugDynaObjectModel_SInstanceParams (2F0B6000) (no "
                               "chunk IDs, at offset 109): NPlugDynaObjectModel_SInstanceParams "
                               "version 3 not supported (2 is the highest any source "
                               "describes)"));

    BodyWriter dyna;
    dynaBody(dyna, 9);
    CHECK_THAT(test::readError(test::builtFile(0x09144000, dyna)),
               Catch::Contains("CPlugDynaObjectModel version 9: GBX.NET reads every field, "
                               "gbx-py leaves out those of later versions, and no file here "
                               "decides"));
    BodyWriter dyna12;
    dynaBody(dyna12, 12);
    CHECK(test::readsWhole(test::builtFile(0x09144000, dyna12)).values.at("0:version") == "12");

    BodyWriter collidable;
    collidable.u32(3);
    collidable.nullRef();
    collidable.u8(2);
    CHECK_THAT(test::readError(test::builtFile(0x09159000, collidable)),
               Catch::Contains("CPlugStaticObjectModel: mesh collision byte at 33 is 2"));
    BodyWriter meshOnly;
    meshOnly.u32(3);
    meshOnly.nullRef();
    meshOnly.u8(1);  // the mesh is the collision shape: no shape follows
    test::readsWhole(test::builtFile(0x09159000, meshOnly));
}

TEST_CASE("prefab layouts: train wagons of every described version", "[gbx][prefab]") {
    for (std::uint32_t v : {0u, 2u, 3u, 5u, 6u, 7u, 8u, 9u, 10u}) {
        INFO(v);
        BodyWriter w;
        w.chunk(0x0911C000);
        w.u32(v);
        int refs =
            2 + (v >= 3 ? 4 : 0) + (v >= 6) + (v >= 7) + (v >= 8 ? 3 : 0) + (v >= 9) + (v >= 10);
        w.nullRef();
        w.nullRef();
        if (v >= 2) {
            w.boolean(true);
            floats(w, 3);
        }
        for (int i = 0; i < 4 && v >= 3; ++i) w.nullRef();
        if (v >= 5) {
            floats(w, 2);
            w.boolean(false);
        }
        for (int i = 2 + (v >= 3 ? 4 : 0); i < refs; ++i) w.nullRef();
        w.endNode();
        CHECK(test::readsWhole(test::builtFile(0x0911C000, w)).values.at("0:version") ==
              std::to_string(v));
    }
    BodyWriter later;
    later.chunk(0x0911C000);
    later.u32(11);
    later.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0911C000, later)),
               Catch::Contains("CPlugTrainWagonModel 0911C000 version 11 not supported (10 is "
                               "the highest any source describes)"));
}

TEST_CASE("prefab layouts: a light with its spot light model and colour function",
          "[gbx][prefab][light]") {
    BodyWriter w;
    w.chunk(0x0901D002);
    w.newNode(1, 0x0400B000);  // GxLightSpot, with the chunks of the classes above it
    w.chunk(0x04001008);
    floats(w, 10);
    w.chunk(0x04001009);
    floats(w, 13);
    w.chunk(0x0400100A);
    w.u32(0);
    floats(w, 11);
    w.chunk(0x04002002);
    floats(w, 7);
    w.chunk(0x04002006);
    floats(w, 11);
    w.chunk(0x04002008);
    floats(w, 14);
    w.chunk(0x04002009);
    floats(w, 1);
    w.chunk(0x0400200A);
    floats(w, 1);
    w.chunk(0x04003003);
    floats(w, 1);
    w.chunk(0x04003004);
    floats(w, 2);
    w.chunk(0x0400B001);
    floats(w, 4);
    w.chunk(0x0400B002);
    floats(w, 7);
    w.chunk(0x0400B003);
    w.u32(1);
    floats(w, 7);
    w.u8(1);
    w.u8(0);
    w.endNode();
    w.newNode(2, 0x05019000);  // CFuncLightColor
    w.chunk(0x0500B003);
    floats(w, 2);
    w.boolean(true);
    w.chunk(0x0500B004);
    floats(w, 2);
    w.boolean(true);
    w.boolean(false);
    w.chunk(0x0500B005);
    floats(w, 2);
    w.boolean(true);
    w.boolean(false);
    w.lookback("Input");
    w.chunk(0x05018000);
    w.u32(1);
    floats(w, 1);
    w.u32(3);
    w.chunk(0x05019001);
    floats(w, 8);
    w.chunk(0x05019002);
    floats(w, 8);
    w.nullRef();
    w.endNode();
    w.nullRef();
    w.nullRef();
    w.u32(2);  // flags
    w.chunk(0x0901D000);
    w.ref(1);
    w.ref(2);
    w.nullRef();
    w.nullRef();
    w.chunk(0x0901D003);
    w.u32(1);
    w.nullRef();
    floats(w, 2);
    w.lookback("Timer");
    w.chunk(0x0901D004);
    w.u32(0);
    w.ref(1);
    w.zeros(20);
    w.endNode();
    NodeSummary s = test::readsWhole(test::builtFile(0x0901D000, w, 3));
    CHECK(s.classes == std::vector<std::string>{"CPlugLight", "GxLightSpot", "CFuncLightColor"});
    CHECK(s.values.at("0:light") == "node 1");
}

TEST_CASE("prefab layouts: the other light models and the light user model",
          "[gbx][prefab][light]") {
    BodyWriter dir;
    for (std::uint32_t id = 0x04007000; id <= 0x04007005; ++id) {
        static const int kFloats[] = {3, 4, 6, 3, 4, 2};
        dir.chunk(id);
        floats(dir, kFloats[id - 0x04007000]);
    }
    dir.endNode();
    test::readsWhole(test::builtFile(0x04007000, dir));

    BodyWriter ambient;
    ambient.chunk(0x04005000);
    floats(ambient, 2);
    ambient.endNode();
    test::readsWhole(test::builtFile(0x04005000, ambient));

    BodyWriter frustum;
    frustum.chunk(0x0400A004);
    frustum.zeros(32);
    frustum.chunk(0x0400A006);
    frustum.boolean(true);
    floats(frustum, 6);
    frustum.u32(0);
    frustum.endNode();
    test::readsWhole(test::builtFile(0x0400A000, frustum));

    for (std::uint32_t v : {0u, 1u}) {
        BodyWriter user;
        user.chunk(0x090F9000);
        user.u32(v);
        user.u32(0);
        floats(user, 11);
        if (v >= 1) user.boolean(true);
        user.endNode();
        test::readsWhole(test::builtFile(0x090F9000, user));
    }

    BodyWriter spot0;
    spot0.chunk(0x0400B003);
    spot0.u32(0);
    spot0.zeros(32);
    spot0.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0400B000, spot0)),
               Catch::Contains("GxLightSpot 0400B003 version 0: GBX.NET gives it 32 bytes, "
                               "gbx-py 28"));
    BodyWriter anim2;
    anim2.chunk(0x0901D003);
    anim2.u32(2);
    anim2.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0901D000, anim2)),
               Catch::Contains("CPlugLight 0901D003 version 2 not supported (1 is the highest "
                               "any source describes)"));
}

TEST_CASE("prefab layouts: curves of real values", "[gbx][prefab]") {
    BodyWriter w;
    w.chunk(0x05002001);
    w.u32(2);
    floats(w, 2);
    w.chunk(0x0501A000);
    w.u32(2);
    floats(w, 2);
    w.chunk(0x0501A001);
    w.u32(2);
    floats(w, 2);
    w.u32(2);  // Hermite
    w.endNode();
    CHECK(test::readsWhole(test::builtFile(0x0501A000, w)).values.at("0:keys") == "2");

    BodyWriter bad;
    bad.chunk(0x0501A001);
    bad.u32(0);
    bad.u32(4);
    bad.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0501A000, bad)),
               Catch::Contains("CFuncKeysReal interpolation 4 is not one GBX.NET names"));
}

TEST_CASE("prefab layouts: bitmap font chunks 0904E008 and 0904E009", "[gbx][prefab][font]") {
    auto font = [](std::uint32_t chunk08, std::uint32_t first) {
        BodyWriter w;
        w.chunk(0x0904E008);
        w.u32(chunk08);
        w.chunk(0x0904E009);
        w.u32(first);
        w.u32(3488);
        w.u32(2860);
        w.u32(2);
        w.zeros(64);
        w.u32(1);
        w.u32(0xFFFFFFFF);
        w.u32(1);
        w.u32(1);
        w.string("page.dds");
        w.endNode();
        return test::builtFile(0x0904E000, w);
    };
    NodeSummary s = test::readsWhole(font(0xFFFFFFFF, 1));
    CHECK(s.values.at("0:glyphs") == "2");
    CHECK(s.values.at("0:page") == "page.dds");
    CHECK_THAT(test::readError(font(0, 1)),
               Catch::Contains("CPlugFontBitmap 0904E008 holds 00000000: only -1 is known (no "
                               "source says whether it is a node or a number)"));
    CHECK_THAT(test::readError(font(0xFFFFFFFF, 2)),
               Catch::Contains("CPlugFontBitmap 0904E009: first word at 37 is 00000002, the one "
                               "known font has 00000001 (no source describes the chunk)"));
}

}  // namespace prefab_test
