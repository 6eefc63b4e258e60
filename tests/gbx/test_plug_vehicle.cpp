// SPDX-License-Identifier: GPL-2.0-or-later
// The vehicle readers (gbx/chunks/plug/Vehicle.cpp) on files built here in GBX.NET's layouts:
// tunings and the cipher mix of 090EB000, physics models and their shapes, race cameras, and
// the exact errors where the sources stop. The game's own files: test_real_mp_vehicle.cpp.
#include <catch2/catch.hpp>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

struct Mixes : ReadObserver {
    std::vector<std::uint32_t> mixes;
    std::vector<std::uint32_t> nodes;
    void onNodeRead(std::uint32_t classId, bool, std::int64_t) override {
        nodes.push_back(classId);
    }
    void onCipherMix(std::uint32_t value, bool) override { mixes.push_back(value); }
};

// Inline keys of CPlugVehicleCarPhyTuning: a keys version, a count, the version's extra field,
// then the (x, y) pairs.
void inlineKeys(BodyWriter& w, std::uint32_t keysVersion, std::uint32_t n) {
    w.u32(keysVersion);
    w.u32(n);
    if (keysVersion == 1) w.u8(7);
    if (keysVersion == 2) w.u32(7);
    if (keysVersion == 3) w.u16(7);
    for (std::uint32_t i = 0; i < 2 * n; ++i) w.f32(float(i));
}

// A tunings file: one car tuning named `name`, with chunk 090ED0A1 (inline keys) and 090ED004.
Bytes tunings(const std::string& name) {
    BodyWriter w;
    w.chunk(0x090EC000);
    w.u32(10);  // array version
    w.u32(1);
    w.newNode(1, 0x090ED000);
    w.chunk(0x090EB000);
    w.lookback(name);
    w.nullRef();  // curve
    w.f32(1.5f);
    w.chunk(0x090ED0A1);
    w.u32(0);
    inlineKeys(w, 1, 2);
    inlineKeys(w, 2, 0);
    w.f32(1);
    w.f32(2);
    inlineKeys(w, 3, 1);
    inlineKeys(w, 4, 3);
    for (int i = 0; i < 5; ++i) w.f32(0);
    inlineKeys(w, 1, 1);
    w.chunk(0x090ED004);
    w.boolean(true);
    w.endNode();
    w.u32(0);  // tuning index
    w.endNode();
    return test::builtFile(0x090EC000, w, 2);
}

// Fields of CPlugVehicleCameraRace3Model 000 [G], curves null.
void race3Fields(BodyWriter& w) {
    for (char c :
         std::string("fffiiifffiifiifiifiiffiifffiifiiffiiffffffiifiifiifiifiifiifiifiikkk")) {
        if (c == 'k')
            w.nullRef();
        else
            w.u32(c == 'i' ? 3 : 0);
    }
}

}  // namespace

TEST_CASE("vehicle tunings: a car tuning reads whole and mixes its name's first four characters",
          "[gbx][vehicle]") {
    Bytes file = tunings("Tune01");
    Mixes m;
    test::NodeSummary s = test::readsWhole(file, &m);
    CHECK(s.classes ==
          std::vector<std::string>{"CPlugVehiclePhyTunings", "CPlugVehicleCarPhyTuning"});
    CHECK(s.values["1:name"] == "Tune01");
    CHECK(m.mixes == std::vector<std::uint32_t>{0x656E7554});  // "Tune" as little-endian bytes
}

TEST_CASE("vehicle tunings: a name shorter than four characters stops the reader",
          "[gbx][vehicle]") {
    CHECK_THAT(test::readError(tunings("Abc")),
               Catch::Contains("vehicle tuning 090EB000: name \"Abc\" is shorter than the 4 "
                               "characters the game mixes into the cipher"));
}

TEST_CASE("vehicle physics model: shape with wheels and occupant slots reads whole",
          "[gbx][vehicle]") {
    BodyWriter w;
    w.chunk(0x090EA003);
    w.ref(1);  // external tunings
    w.chunk(0x090EA008);
    w.u32(13);
    w.newNode(2, 0x0910E000);
    w.chunk(0x0910E000);
    w.u32(6);
    w.f32(1);
    w.nullRef();  // no solid: the move shape follows
    w.nullRef();
    w.u32(2);  // wheels: driving, steering, Id
    w.boolean(true);
    w.boolean(false);
    w.lookback("FLSurf");
    w.boolean(false);
    w.boolean(true);
    w.lookback("FRSurf");
    w.zeros(24);  // box
    w.boolean(false);
    w.zeros(36);
    w.u32(1);  // vec4 array
    w.zeros(16);
    w.zeros(24);  // car versus car box
    w.boolean(true);
    w.boolean(false);
    w.zeros(8);
    w.boolean(false);
    w.zeros(4);
    w.boolean(false);
    w.zeros(4);
    w.boolean(false);
    w.zeros(12);
    w.zeros(12);   // 2+
    w.string("");  // 3+: no name, a surface follows
    w.nullRef();
    w.u32(0);     // 4+: vec3 array
    w.nullRef();  // 5+
    w.nullRef();  // 6+
    w.nullRef();
    w.endNode();
    w.u32(1);  // occupant slots
    w.u8(1);
    w.lookback("Pilot");
    w.zeros(12);
    w.boolean(true);
    w.u32(0);
    w.f32(0);
    w.u32(0);
    w.u32(0);
    w.boolean(false);
    w.u8(0);
    w.boolean(true);
    w.f32(0);
    w.u32(0);  // 6+: vec3 array
    w.u32(0);  // 10..13
    w.u32(0);  // 12+
    w.endNode();
    ExternalRef e;
    e.name = "Tunings.Gbx";
    e.nodeIndex = 1;
    e.folderIndex = 0;
    gbx::GbxBuilder b;
    b.classId = 0x090EA000;
    b.numNodes = 3;
    b.refs.externals.push_back(e);
    b.body = w.bytes();
    test::NodeSummary s = test::readsWhole(b.build());
    CHECK(s.classes == std::vector<std::string>{"CPlugVehiclePhyModel", "CPlugVehicleCarPhyShape"});
}

TEST_CASE("vehicle physics model: a version above GBX.NET's stops the reader", "[gbx][vehicle]") {
    BodyWriter w;
    w.chunk(0x090EA008);
    w.u32(14);
    w.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x090EA000, w)),
               Catch::Contains("vehicle physics model 090EA008 version 14 not supported (13 is "
                               "the highest any source describes)"));
}

TEST_CASE("race cameras: control model, shake and the versioned Race3 chunk read whole",
          "[gbx][vehicle]") {
    BodyWriter w;
    w.chunk(0x0910C000);
    w.u32(0);
    w.newNode(1, 0x0910B000);
    w.chunk(0x0910B000);
    w.u32(3);
    w.zeros(4 * 14);  // two ints, four floats, (2+) a float, (3+) two ints, five floats
    w.endNode();
    w.chunk(0x090EF005);
    w.u32(6);
    race3Fields(w);
    w.nullRef();  // 2+
    w.zeros(16);  // 3+, 5+
    w.zeros(36);  // 6+
    w.chunk(0x090EF004);
    w.lookback("Race3");
    w.endNode();
    Mixes m;
    test::NodeSummary s = test::readsWhole(test::builtFile(0x090EF000, w, 2), &m);
    CHECK(s.classes ==
          std::vector<std::string>{"CPlugVehicleCameraRace3Model", "CPlugCamShakeModel"});
    CHECK(m.mixes.empty());
}

TEST_CASE("game skin 004: files by node reference (3+) and the fields of versions 4 to 7",
          "[gbx][vehicle][fx]") {
    BodyWriter w;
    w.chunk(0x090F4004);
    w.u8(7);
    w.string("Skins/Models");
    w.string("Painter.dds");
    w.string("Scene");
    w.u8(2);
    w.u32(0x09026000);
    w.string("Diffuse.dds");
    w.boolean(true);
    w.ref(1);  // external
    w.boolean(true);
    w.u32(0x09026000);
    w.string("Normal.dds");
    w.boolean(false);
    w.boolean(false);
    w.string("Alt");
    w.boolean(false);
    w.string("");
    w.u32(3);
    w.endNode();
    ExternalRef e;
    e.name = "Diffuse.dds.Gbx";
    e.nodeIndex = 1;
    e.folderIndex = 0;
    gbx::GbxBuilder b;
    b.classId = 0x090F4000;
    b.numNodes = 2;
    b.refs.externals.push_back(e);
    b.body = w.bytes();
    test::readsWhole(b.build());
}

TEST_CASE("effect classes: a scene effect node and a visual entity effect read whole",
          "[gbx][vehicle][fx]") {
    BodyWriter w;
    w.chunk(0x0A03A002);
    w.u32(0);
    w.newNode(1, 0x09115000);
    w.chunk(0x09115000);
    w.u32(0);
    for (int i = 0; i < 6; ++i) w.nullRef();
    w.zeros(12);
    w.nullRef();
    w.endNode();
    w.nullRef();
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0A03A000, w, 2));
    CHECK(s.classes == std::vector<std::string>{"CSceneFxNod", "CPlugVisEntFxModel"});
}
