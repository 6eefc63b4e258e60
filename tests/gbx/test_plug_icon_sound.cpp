// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's icon indexes (gbx/chunks/plug/IconIndex.cpp) and sound gauges
// (gbx/chunks/plug/SoundEngine.cpp) in the shapes the game writes them: whole parses of files
// built here, and exact errors on forms no file shows. The game's own files:
// tests/archive/entry/test_mp_icon_pack.cpp, tests/archive/pak/test_mp_sounds_materials.cpp.
#include <catch2/catch.hpp>

#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/GbxParse.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

struct IconForm {
    std::int32_t firstCell = 5;
    std::int32_t firstCount = 100;
    std::uint32_t firstRealBits = 0x3D75C28F;  // 0.06
};

// A node buffer of two icons as a function enum's buffer holds them: the first with cells and
// state names, the second with a global-table name and no cells.
Bytes iconBuffer(const IconForm& form = {}) {
    GbxBuilder b;
    b.classId = 0x01026000;  // CMwRefBuffer
    b.numNodes = 3;
    BodyWriter w;
    w.chunk(0x01026000);
    w.u32(0x09093000);
    w.boolean(true);
    w.u32(10);
    w.u32(2);
    w.newNode(1, 0x09093000);
    w.chunk(0x09093003);
    w.lookback("Left");
    for (std::int32_t c : {form.firstCell, 6, -1, 7, 6, -1}) w.i32(c);
    w.i32(form.firstCount);
    w.i32(0);
    w.u32(form.firstRealBits);
    w.f32(0);
    w.lookback("LeftOver");
    for (int i = 0; i < 5; ++i) w.lookbackRaw(0xFFFFFFFF);
    w.endNode();
    w.newNode(2, 0x09093000);
    w.chunk(0x09093003);
    w.lookbackNumber(1);
    for (int i = 0; i < 6; ++i) w.i32(-1);
    for (int i = 0; i < 4; ++i) w.u32(0);
    w.lookback("LeftOver");  // a back-reference to the first icon's string
    for (int i = 0; i < 5; ++i) w.lookbackRaw(0xFFFFFFFF);
    w.endNode();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

struct GaugeForm {
    std::uint32_t filesVersion = 2;
    std::uint32_t curvesVersion = 5;
    std::uint32_t restart = 1;
};

// A sound gauge: its CPlugSound chunk, the 12 files (the first external) and the 36 curves (the
// first a new CFuncKeysReal node, the fifth a back-reference to it).
Bytes gauge(const GaugeForm& form = {}) {
    GbxBuilder b;
    b.classId = 0x09052000;
    b.numNodes = 3;
    ExternalRef e;
    e.flags = 4;
    e.resourceIndex = 7;
    e.nodeIndex = 1;
    b.refs.externals.push_back(e);
    BodyWriter w;
    w.chunk(0x0901A013);
    w.u32(0);
    w.nullRef();
    w.chunk(0x09052000);
    w.u32(form.filesVersion);
    w.ref(1);
    for (int i = 1; i < 12; ++i) w.nullRef();
    w.chunk(0x09052001);
    w.u32(form.curvesVersion);
    w.f32(0.5f);
    w.f32(1.0f);
    w.f32(0.0f);
    w.u32(form.restart);
    w.newNode(2, 0x0501A000);
    w.endNode();
    for (int i = 1; i < 36; ++i) i == 4 ? w.ref(2) : w.nullRef();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("icon index: ManiaPlanet's chunk 09093003 reads whole", "[gbx][plug]") {
    test::NodeSummary p = test::parseWhole(iconBuffer());
    CHECK(p.classes ==
          std::vector<std::string>{"CMwRefBuffer", "CPlugIconIndex", "CPlugIconIndex"});
    CHECK(p.values["1:name"] == "Left");
    CHECK(p.values["1:state cells"] == "4");
    CHECK(p.values["2:name"] == "#1");
    CHECK(p.values["2:state cells"] == "0");
}

TEST_CASE("icon index: words no file shows stop the reader", "[gbx][plug]") {
    IconForm cell;
    cell.firstCell = -2;
    CHECK_THAT(test::gbxParseError(iconBuffer(cell)),
               Catch::Contains("CPlugIconIndex 09093003: state cell at 73 is -2, the pack shows "
                               "-1 to 65535 (no source describes the chunk)"));
    IconForm count;
    count.firstCount = 0x10000;
    CHECK_THAT(test::gbxParseError(iconBuffer(count)),
               Catch::Contains("CPlugIconIndex 09093003: first count at 97 is 65536"));
    IconForm real;
    real.firstRealBits = 0x7FC00000;  // NaN
    CHECK_THAT(test::gbxParseError(iconBuffer(real)),
               Catch::Contains("CPlugIconIndex 09093003: first real at 105 is not a finite real"));
}

TEST_CASE("sound gauge: ManiaPlanet's chunks 09052000 and 09052001 read whole", "[gbx][plug]") {
    test::NodeSummary p = test::parseWhole(gauge());
    CHECK(p.classes == std::vector<std::string>{"CPlugSoundGauge", "CFuncKeysReal"});
}

TEST_CASE("sound gauge: versions and words no file shows stop the reader", "[gbx][plug]") {
    GaugeForm files;
    files.filesVersion = 3;
    CHECK_THAT(test::gbxParseError(gauge(files)),
               Catch::Contains("CPlugSoundGauge 09052000 version 3 at "));
    CHECK_THAT(test::gbxParseError(gauge(files)),
               Catch::Contains("not supported: only 2 is known (no source describes the chunk)"));
    GaugeForm curves;
    curves.curvesVersion = 4;
    CHECK_THAT(test::gbxParseError(gauge(curves)),
               Catch::Contains("CPlugSoundGauge 09052001 version 4 at "));
    GaugeForm restart;
    restart.restart = 2;
    CHECK(test::gbxParseError(gauge(restart)) != "no error");
}
