// SPDX-License-Identifier: GPL-2.0-or-later
// The sound readers (gbx/chunks/plug/Sound.cpp) and the custom material readers
// (gbx/chunks/plug/MaterialCustom.cpp) on every chunk in GBX.NET's layouts, written by the
// project's BodyWriter: whole reads of exactly the bytes each layout takes (and an error for every
// shorter prefix), and the reason where a reader stops.
#include <catch2/catch.hpp>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

void reals(BodyWriter& w, int n, float v = 0.5f) {
    for (int i = 0; i < n; ++i) w.f32(v);
}

// CPlugAudio and CPlugSound chunks at the highest versions GBX.NET gives, the curve of 0901A00F
// a new CFuncKeysReal node (index 1) whose chunks are left empty.
void soundChunks(BodyWriter& w) {
    w.chunk(0x09001001);
    w.lookback("Engine");
    w.chunk(0x0901A000);
    w.nullRef();
    w.chunk(0x0901A002);
    w.lookback("Sound");
    for (std::uint32_t id : {0x0901A009u, 0x0901A00Du}) {
        w.chunk(id);
        w.u32(2);
        w.f32(1);
        w.boolean(true);
        w.boolean(false);
        w.f32(1);
    }
    w.chunk(0x0901A00B);
    w.u32(0);
    w.u32(360);
    w.u32(360);
    reals(w, 2);
    w.chunk(0x0901A00C);
    reals(w, 2);
    w.boolean(true);
    reals(w, 8);
    w.chunk(0x0901A00E);
    w.u32(9);
    w.u32(2);
    w.f32(0.5f);
    w.boolean(false);
    w.boolean(true);
    w.f32(1);
    w.boolean(false);  // low pass filter
    for (int i = 0; i < 3; ++i) w.u32(0);
    reals(w, 3);
    w.lookback("Group");
    w.chunk(0x0901A00F);
    w.u32(12);
    reals(w, 2);
    w.boolean(true);
    reals(w, 8);
    w.newNode(1, 0x0501A000);  // volume from distance
    w.endNode();
    w.u32(5);
    reals(w, 2);
    w.u32(0);
    w.u32(0);
    w.nullRef();
    w.nullRef();
    reals(w, 3);
    w.chunk(0x0901A010);
    w.u32(0);   // chunk version
    w.u32(10);  // array version
    w.u32(1);
    w.nullRef();
    w.chunk(0x0901A011);
    w.u32(0);
    w.u32(0);
    w.u32(360);
    w.u32(360);
    w.f32(1);
    w.chunk(0x0901A012);
    w.u32(0);
    w.nullRef();
    w.chunk(0x0901A013);
    w.u32(0);
    w.nullRef();
}

}  // namespace

TEST_CASE("sounds: CPlugSound and CPlugSoundMulti chunks in GBX.NET's layouts read whole",
          "[gbx][plug][sound]") {
    BodyWriter w;
    soundChunks(w);
    w.chunk(0x09064000);
    w.nullRef();
    w.u32(1);
    w.chunk(0x09064001);
    w.u32(10);
    w.u32(2);
    w.nullRef();
    w.nullRef();
    w.u32(0);
    w.chunk(0x09064002);
    w.u32(3);
    reals(w, 2);
    w.boolean(true);
    w.boolean(false);
    w.f32(0.25f);
    w.chunk(0x09064003);
    w.u32(2);
    w.boolean(true);
    w.u32(2);  // preferred distances
    reals(w, 6);
    w.nullRef();
    w.u32(2);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x09064000, w, 2));
    CHECK(s.classes == std::vector<std::string>{"CPlugSoundMulti", "CFuncKeysReal"});
    CHECK(s.values["0:additional sounds"] == "2");
    CHECK(s.values["0:old sub-sources"] == "1");
}

TEST_CASE("sounds: CPlugSoundSurface 0905E002 and a sound gauge's CPlugSound chunks",
          "[gbx][plug][sound]") {
    for (std::uint32_t v : {0u, 2u}) {
        BodyWriter w;
        w.chunk(0x0905E002);
        w.u32(v);
        reals(w, 4);
        if (v >= 2) w.boolean(true);
        w.endNode();
        test::readsWhole(test::builtFile(0x0905E000, w));
    }
    // ManiaPlanet's CPlugSoundGauge (09052000) is a CPlugSound: its sound chunks read, then its
    // own chunks as the pack shows them (tests/gbx/test_plug_icon_sound.cpp).
    BodyWriter w;
    soundChunks(w);
    w.chunk(0x09052000);
    w.u32(2);
    for (int i = 0; i < 12; ++i) w.nullRef();
    w.chunk(0x09052001);
    w.u32(5);
    reals(w, 3);
    w.boolean(true);
    for (int i = 0; i < 36; ++i) w.nullRef();
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x09052000, w, 2));
    CHECK(s.classes.front() == "CPlugSoundGauge");
}

TEST_CASE("sounds: versions above what GBX.NET describes stop the reader", "[gbx][plug][sound]") {
    struct Case {
        std::uint32_t chunk;
        std::uint32_t version;
        const char* says;
    };
    for (const Case& c : {Case{0x0901A00E, 10, "sound 0901A00E version 10 not supported (9 is"},
                          Case{0x0901A00F, 13, "sound 0901A00F version 13 not supported (12 is"},
                          Case{0x09064002, 4, "sound multi 09064002 version 4 not supported"},
                          Case{0x09064003, 3, "sound multi 09064003 version 3 not supported"},
                          Case{0x0905E002, 3, "sound surface 0905E002 version 3 not supported"}}) {
        BodyWriter w;
        w.chunk(c.chunk);
        w.u32(c.version);
        w.zeros(64);
        w.endNode();
        CHECK_THAT(test::readError(test::builtFile(0x09064000, w)), Catch::Contains(c.says));
    }
}

TEST_CASE("custom materials: every CPlugMaterialCustom chunk in GBX.NET's layouts reads whole",
          "[gbx][plug][material]") {
    BodyWriter w;
    w.chunk(0x0903A004);
    w.u32(2);
    w.u32(7);
    w.u32(8);
    w.chunk(0x0903A006);  // textures, archive version 0
    w.u32(1);
    w.lookback("Diffuse");
    w.u32(0);
    w.nullRef();
    w.chunk(0x0903A00A);  // GPU constants: 2 columns x 3 rows, then none
    w.u32(1);
    w.lookback("Fx");
    w.u32(2);
    w.u32(3);
    w.boolean(false);
    reals(w, 6);
    w.u32(0);
    w.chunk(0x0903A00B);  // u32 flags with bit 0: two shorts follow
    w.u32(1);
    w.u64(5);
    w.u16(1);
    w.u16(2);
    w.chunk(0x0903A00C);
    w.u32(2);
    w.lookback("Normal");
    w.boolean(false);
    w.lookback("VertexSampler");
    w.boolean(true);
    w.chunk(0x0903A00D);  // u64 flags without bit 0
    w.u64(0x00007F0001FC0000ull);
    w.u64(0x0414FF7030038180ull);
    w.beginSkippable(0x0903A00F);
    w.u32(2);
    reals(w, 3);
    w.u32(1);
    w.lookback("ClipDiffuseA");
    w.u32(0);
    w.endSkippable();
    w.chunk(0x0903A010);
    w.nullRef();
    w.beginSkippable(0x0903A011);
    w.u32(0xFFFFFFFF);
    w.endSkippable();
    w.chunk(0x0903A012);
    w.nullRef();
    w.chunk(0x0903A013);  // textures, archive version 1
    w.u32(0);
    w.u32(2);
    for (const char* name : {"Diffuse", "Specular"}) {
        w.lookback(name);
        w.u32(0);
        w.nullRef();
        w.u32(4);
        w.u32(4);
    }
    w.chunk(0x0903A014);
    w.u32(0);
    w.u32(1);
    w.u32(3);
    w.u32(3);
    w.zeros(3);
    w.chunk(0x0903A015);  // version 2, int 0: four strings
    w.u32(2);
    w.u32(0);
    for (const char* s : {"a", "b", "c", "d"}) w.string(s);
    w.chunk(0x0903A016);  // version 1 with bit 0
    w.u32(1);
    w.u64(1);
    w.u64(0);
    w.u32(9);
    w.u16(3);
    w.u16(4);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0903A000, w));
    CHECK(s.classes == std::vector<std::string>{"CPlugMaterialCustom"});
    CHECK(s.values["0:textures"] == "2");
    CHECK(s.values["0:gpu constants"] == "1");
    CHECK(s.values["0:skipped samplers"] == "2");
}

TEST_CASE("custom materials: a CPlugMaterial holding one, then its chunks 010 and 011",
          "[gbx][plug][material]") {
    BodyWriter w;
    w.chunk(0x09079001);
    w.nullRef();
    w.chunk(0x09079007);
    w.newNode(1, 0x0903A000);
    w.chunk(0x0903A015);  // version 1 with a non-zero int: no strings
    w.u32(1);
    w.u32(3);
    w.endNode();
    w.chunk(0x09079010);
    w.f32(1);
    w.chunk(0x09079011);
    w.u32(2);
    w.lookback("A");
    w.lookback("B");
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x09079000, w, 2));
    CHECK(s.classes == std::vector<std::string>{"CPlugMaterial", "CPlugMaterialCustom"});
}

TEST_CASE("custom materials: the constants of 0903A00A are checked against the file",
          "[gbx][plug][material]") {
    BodyWriter w;
    w.chunk(0x0903A00A);
    w.u32(1);
    w.lookback("Fx");
    w.u32(0x10000);
    w.u32(0x10000);
    w.boolean(false);
    w.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0903A000, w)), Catch::Contains("chunk data"));
}

TEST_CASE("materials: device shaders by file reference in 0907900D, as GBX.NET reads them",
          "[gbx][plug][material]") {
    auto body = [](std::uint32_t chunk) {
        BodyWriter w;
        w.chunk(chunk);
        w.nullRef();  // no model: the device materials follow
        w.u32(1);
        w.u16(3);
        w.u16(0);
        w.boolean(true);  // shaders by file reference
        w.ref(1);
        w.ref(1);
        w.ref(1);
        w.u32(1);  // formats
        w.u32(1);
        w.endNode();
        return w;
    };
    RefTable refs;
    ExternalRef e;
    e.name = "Sample.Shader.Gbx";
    e.nodeIndex = 1;
    e.folderIndex = 0;
    refs.externals.push_back(e);
    GbxFile f = test::readMain(0x09079000, 2, body(0x0907900D), refs);
    INFO((f.failure ? f.failure->message : std::string("ok")));
    CHECK(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
    CHECK(test::summarize(f).values["0:device shaders"] == "1");
    // No source gives 0907900C the flag: it still stops there.
    CHECK_THAT(test::failureOf(test::readMain(0x09079000, 2, body(0x0907900C), refs)),
               Catch::Contains("device shader by file reference: its layout is not known"));
}
