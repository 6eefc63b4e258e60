// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's icon indexes (gbx/chunks/plug/IconIndex.cpp) and sound engines, gauges and
// surfaces (gbx/chunks/plug/SoundEngine.cpp) in the shapes the game writes them: whole parses of
// files built here, and exact errors on forms no file shows. The game's own files:
// tests/archive/entry/test_mp_icon_pack.cpp, tests/archive/pak/test_mp_sounds_materials.cpp.
#include <catch2/catch.hpp>

#include "gbx/Classes.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/ReadObserver.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/gbx/BuiltGbx.hpp"
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
    b.refs.externals.push_back(test::resourceRef(1, 7));
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

// The mid-chunk cipher mixes a read reports (the curves held by value).
struct CurveMixes : ReadObserver {
    std::vector<std::uint32_t> values;
    void onCipherMix(std::uint32_t value, bool) override { values.push_back(value); }
};

// A curve held by value: the chunks of a CFuncKeysReal with no index and no class ID (none here).
void inlineCurve(BodyWriter& w) {
    w.endNode();
}

// A sound engine: one component (a new node: its file external, ten reals), the highest rpm and
// its 8 curves held by value.
Bytes soundEngineFile(std::uint32_t componentCount = 1) {
    BodyWriter w;
    w.chunk(0x0908E000);
    w.u32(componentCount);
    w.newNode(1, 0x0908F000);
    w.chunk(0x0908F000);
    w.ref(2);
    for (int i = 0; i < 10; ++i) w.f32(1.0f);
    w.endNode();
    w.chunk(0x0908E002);
    w.f32(10000.0f);
    for (int i = 0; i < 8; ++i) inlineCurve(w);
    w.endNode();
    GbxBuilder b;
    b.classId = 0x0908E000;
    b.numNodes = 3;
    b.refs.externals.push_back(test::resourceRef(2, 7));
    b.body = w.bytes();
    return b.build();
}

struct Engine2Form {
    std::uint32_t firstWord = 0;
    std::uint32_t flagWord = 1;
    std::uint32_t groupWord = 0xFFFFFFFF;
    std::uint32_t mixVersion = 4;
    std::uint32_t mixRealBits = 0x3F800000;
};

// A sound engine 2: its four chunks as every file of the pack holds them.
Bytes engine2(const Engine2Form& form = {}) {
    BodyWriter w;
    w.chunk(0x09029000);
    w.u32(form.firstWord);
    w.u32(0);
    w.chunk(0x09029001);
    w.u32(3);
    w.f32(10000.0f);
    for (int i = 0; i < 10; ++i) inlineCurve(w);
    w.u32(form.flagWord);
    w.boolean(false);
    w.f32(1.0f);
    for (int i = 0; i < 2; ++i) inlineCurve(w);
    w.chunk(0x09029002);
    w.u32(4);
    for (int g = 0; g < 3; ++g) {
        for (int i = 0; i < 4; ++i) w.u32(g == 2 && i == 3 ? form.groupWord : 0xFFFFFFFF);
        for (int i = 0; i < 3; ++i) w.f32(1.0f);
    }
    for (int i = 0; i < 2; ++i) inlineCurve(w);
    w.chunk(0x09029003);
    w.u32(form.mixVersion);
    for (int i = 0; i < 33; ++i) w.u32(i == 32 ? form.mixRealBits : 0x3F000000);
    w.endNode();
    return test::builtFile(0x09029000, w);
}

// A sound surface's 0905E003: two materials, each one's texture component (the first a new
// node, the second none) then skid component (a back-reference, none), and the skid curve.
Bytes surface(std::uint32_t version = 1) {
    BodyWriter w;
    w.chunk(0x0905E003);
    w.u32(version);
    w.f32(500.0f);
    w.u32(2);
    w.newNode(1, 0x0908F000);
    w.chunk(0x0908F000);
    w.nullRef();
    for (int i = 0; i < 10; ++i) w.f32(0.5f);
    w.endNode();
    w.nullRef();
    w.ref(1);
    w.nullRef();
    inlineCurve(w);
    w.endNode();
    return test::builtFile(0x0905E000, w, 2);
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

TEST_CASE(
    "sound engines and surfaces: ManiaPlanet's chunks read whole, each curve held by value "
    "folded as a CFuncKeysReal node read",
    "[gbx][plug]") {
    const std::uint32_t curve = ivXorClassInput(0x0501A000);
    CurveMixes mixes;
    test::NodeSummary p = test::readsWhole(soundEngineFile(), &mixes);
    std::vector<std::string> classes = {"CPlugSoundEngine", "CPlugSoundEngineComponent"};
    classes.insert(classes.end(), 8, "CFuncKeysReal");  // the curves, read inline
    CHECK(p.classes == classes);
    CHECK(p.values["0:components"] == "1");
    CHECK(mixes.values == std::vector<std::uint32_t>(8, curve));

    CurveMixes mixes2;
    p = test::readsWhole(engine2(), &mixes2);
    classes = {"CPlugSoundEngine2"};
    classes.insert(classes.end(), 14, "CFuncKeysReal");
    CHECK(p.classes == classes);
    CHECK(mixes2.values == std::vector<std::uint32_t>(14, curve));

    CurveMixes mixes3;
    p = test::readsWhole(surface(), &mixes3);
    CHECK(p.classes == std::vector<std::string>{"CPlugSoundSurface", "CPlugSoundEngineComponent",
                                                "CFuncKeysReal"});
    CHECK(p.values["0:materials"] == "2");
    CHECK(mixes3.values == std::vector<std::uint32_t>(1, curve));
}

TEST_CASE("sound engines and surfaces: versions and words no file shows stop the reader",
          "[gbx][plug]") {
    Engine2Form first;
    first.firstWord = 1;
    CHECK_THAT(test::gbxParseError(engine2(first)),
               Catch::Contains("CPlugSoundEngine2 09029000: first word at 29 is 00000001, only "
                               "00000000 is known (no source describes the chunk)"));
    Engine2Form flag;
    flag.flagWord = 2;
    CHECK_THAT(test::gbxParseError(engine2(flag)),
               Catch::Contains("CPlugSoundEngine2 09029001: the word after the tenth curve at 89 "
                               "is 00000002, only 00000001 is known"));
    Engine2Form group;
    group.groupWord = 0;
    CHECK_THAT(test::gbxParseError(engine2(group)),
               Catch::Contains("CPlugSoundEngine2 09029002: a word of a group at 185 is 00000000, "
                               "only FFFFFFFF is known"));
    Engine2Form mix;
    mix.mixVersion = 5;
    CHECK_THAT(test::gbxParseError(engine2(mix)),
               Catch::Contains("CPlugSoundEngine2 09029003 version 5 at 213 not supported: only 4 "
                               "is known (no source describes the chunk)"));
    Engine2Form inf;
    inf.mixRealBits = 0x7F800000;
    CHECK_THAT(test::gbxParseError(engine2(inf)),
               Catch::Contains("CPlugSoundEngine2 09029003: the real at 345 is not finite"));
    CHECK_THAT(test::gbxParseError(surface(2)),
               Catch::Contains("CPlugSoundSurface 0905E003 version 2 at 29 not supported: only 1 "
                               "is known"));
    // A component count past the data stops before any allocation.
    CHECK_THAT(test::gbxParseError(soundEngineFile(0x40000000)), Catch::Contains("array elements"));
}

namespace {

// A particle emitter as ManiaPlanet's pack holds them: no sub-model, an Id, chunk 002 in version
// 4 (two words), no strings, chunk 004 in version 3 (its nine fields alone).
Bytes emitter(std::uint32_t splashVersion = 4, std::uint32_t fieldsVersion = 3) {
    BodyWriter w;
    w.chunk(0x090B3000);
    w.u32(10);  // array version
    w.u32(1);
    w.newNode(1, 0x090B2000);  // a sub-model: its render mode chunk and a curve
    w.chunk(0x090B2030);
    w.u32(0);
    w.f32(1.0f);
    w.f32(2.0f);
    w.u32(3);
    w.chunk(0x090B2018);
    w.newNode(2, 0x05036000);  // CFuncEnvelope
    w.chunk(0x05036000);
    for (int i = 0; i < 8; ++i) w.f32(0.5f);
    w.u32(1);
    w.endNode();
    w.endNode();
    w.chunk(0x090B3001);
    w.lookback("Exhaust");
    w.chunk(0x090B3002);
    w.u32(splashVersion);
    w.boolean(false);
    w.f32(0.0f);
    w.chunk(0x090B3003);
    w.u32(0);
    w.u32(0);
    w.chunk(0x090B3004);
    w.u32(fieldsVersion);
    w.f32(0.5f);
    w.u32(8);
    w.f32(4.0f);
    w.u32(10000);
    w.f32(1.0f);
    w.f32(0.2f);
    w.boolean(false);
    w.u32(500);
    w.boolean(false);
    w.endNode();
    return test::builtFile(0x090B3000, w, 3);
}

}  // namespace

TEST_CASE("particle emitter: GBX.NET's chunks and the versions ManiaPlanet's pack shows read whole",
          "[gbx][plug]") {
    test::NodeSummary p = test::readsWhole(emitter());
    CHECK(p.classes == std::vector<std::string>{"CPlugParticleEmitterModel",
                                                "CPlugParticleEmitterSubModel", "CFuncEnvelope"});
    CHECK(p.values["0:sub-models"] == "1");
    CHECK_THAT(test::gbxParseError(emitter(5)),
               Catch::Contains("particle emitter 090B3002 version 5 not supported (4 is the "
                               "highest any source describes)"));
    CHECK_THAT(test::gbxParseError(emitter(4, 4)),
               Catch::Contains("particle emitter 090B3004 version 4 not supported (3 is the "
                               "highest any source describes)"));
}
