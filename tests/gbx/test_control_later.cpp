// SPDX-License-Identifier: GPL-2.0-or-later
// The control and node-buffer readers in the shapes ManiaPlanet writes them
// (gbx/chunks/control/Control.cpp 0701701B/0701701F, gbx/chunks/control/EffectMaster.cpp,
// gbx/chunks/mwfoundations/RefBuffer.cpp): whole parses of files built here, and exact errors on
// forms no file shows. The game's own files: tests/archive/entry/test_mp_control_pack.cpp.
#include <catch2/catch.hpp>

#include "common/ByteSource.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/GbxParse.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

// A ManiaPlanet style: text settings of `version` (two more words from version 4) and the
// chunk 0701701F with `firstWord`, a CFuncEnum read in its fourth field and an identifier.
Bytes mpStyle(std::uint32_t version, std::uint32_t firstWord = 0) {
    GbxBuilder b;
    b.classId = 0x07017000;
    b.numNodes = 2;
    BodyWriter w;
    w.chunk(0x0701700C);
    w.lookback("TextCardInfoSmall");
    w.chunk(0x0701701B);
    w.nullRef();  // font
    w.f32(0.035f);
    w.f32(1.0f);
    for (int i = 0; i < 3; ++i) {
        w.u32(version);
        w.u32(8);
        for (int c = 0; c < 4; ++c) w.f32(1.0f);
        w.string(i == 0 ? "" : "$i");
        if (version == 4) {
            w.u32(i == 0 ? 1 : 0);
            w.u32(0);
        }
    }
    w.chunk(0x0701701F);
    w.u32(firstWord);
    w.nullRef();
    w.newNode(1, 0x0500E000);  // CFuncEnum
    w.chunk(0x0500E007);
    w.f32(64);
    w.f32(64);
    w.endNode();
    w.f32(0.05f);
    w.f32(0.05f);
    w.lookback("BgCard");
    w.nullRef();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("control style: ManiaPlanet's text settings and chunk 0701701F read whole",
          "[gbx][control]") {
    test::NodeSummary p = test::parseWhole(mpStyle(4));
    CHECK(p.classes == std::vector<std::string>{"CControlStyle", "CFuncEnum"});
    // TMUF's form (version 2, no words after the characters) still reads.
    p = test::parseWhole(mpStyle(2));
    CHECK(p.classes == std::vector<std::string>{"CControlStyle", "CFuncEnum"});
}

TEST_CASE("control style: text settings and 0701701F forms no file shows stop the reader",
          "[gbx][control]") {
    CHECK_THAT(test::gbxParseError(mpStyle(3)),
               Catch::Contains("CControlStyle 0701701B: text settings at 74 start with 3, only 2 "
                               "(TMUF) and 4 (ManiaPlanet) are known"));
    CHECK_THAT(test::gbxParseError(mpStyle(4, 1)),
               Catch::Contains("CControlStyle 0701701F: first word at 190 is 1, only 0 is known "
                               "(no source describes the chunk)"));
}

TEST_CASE("node buffer and effect master read whole", "[gbx][control]") {
    GbxBuilder b;
    b.classId = 0x01026000;  // CMwRefBuffer
    b.numNodes = 3;
    BodyWriter w;
    w.chunk(0x01026000);
    w.u32(0x0701C000);  // the class of the nodes
    w.boolean(true);
    w.u32(10);  // array version
    w.u32(2);
    w.newNode(1, 0x0701C000);  // CControlEffectMaster
    w.chunk(0x0701C000);
    for (int i = 0; i < 9; ++i) w.nullRef();
    w.chunk(0x0701C001);
    w.boolean(false);
    w.u32(3);
    w.chunk(0x0701C002);
    for (int i = 0; i < 10; ++i) w.nullRef();
    w.chunk(0x0701C003);
    w.newNode(2, 0x01026000);  // a buffer inside: empty
    w.chunk(0x01026000);
    w.u32(0x07005000);
    w.boolean(false);
    w.u32(10);
    w.u32(0);
    w.endNode();
    w.endNode();
    w.ref(1);
    w.chunk(0x01026001);
    w.lookback("PhyCharModelLibrary");
    w.endNode();
    b.body = w.bytes();
    test::NodeSummary p = test::parseWhole(b.build());
    CHECK(p.classes ==
          std::vector<std::string>{"CMwRefBuffer", "CControlEffectMaster", "CMwRefBuffer"});
    CHECK(p.values["0:node class"] == "0701C000");
    CHECK(p.values["0:nodes"] == "2");
    CHECK(p.values["2:nodes"] == "0");
}
