// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's menu frames and cards as dedicated.pak stores them (gbx/chunks/control/Control.cpp
// 0700100C/07001010/07002005/07002006, gbx/chunks/control/Widget.cpp,
// gbx/chunks/game/ControlCard.cpp): whole parses of frames built here, and exact errors on the
// values and classes no file shows. The game's own files:
// tests/archive/entry/test_mp_menu_pack.cpp.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/ByteSource.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/GbxParse.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

// What every control starts with: the scene object's name and motion, the mobil's links and
// its empty inline item.
void sceneObject(BodyWriter& w, const char* name) {
    w.chunk(0x0A005001);
    w.lookback(name);
    w.chunk(0x0A005003);
    w.nullRef();
    w.chunk(0x0A011003);
    w.u32(0);
    w.chunk(0x0A011005);
    w.u32(0);  // CHmsItem with no chunk
}

// CControlBase's chunks: 0700100C in the short form (three words) or GBX.NET's (four words and
// the stack text), the box, the empty 0700100F and the style (a name, or -1 and a reference).
void controlBase(BodyWriter& w, bool longForm, const char* style = nullptr,
                 bool styleChunk = true) {
    w.chunk(0x0700100C);
    w.u32(0x42);
    w.nullRef();
    w.nullRef();
    if (longForm) {
        w.u32(0);
        w.string("StrInt1");
    }
    w.chunk(0x0700100E);
    for (int i = 0; i < 6; ++i) w.f32(0.25f);
    w.nullRef();  // layout
    w.u32(3);
    w.u32(3);
    w.chunk(0x0700100F);
    w.string("");
    if (!styleChunk) return;
    w.chunk(0x07001010);
    if (style) {
        w.lookback(style);
    } else {
        w.nullRef();
        w.nullRef();
    }
}

void location(BodyWriter& w) {
    for (int i = 0; i < 12; ++i) w.f32(i % 4 == 0 ? 1.0f : 0.0f);
}

// CControlFrame 07002005 up to its children: own controls and script off, no node, then the
// count of child records that follow.
void frameChildren(BodyWriter& w, std::uint32_t children) {
    w.chunk(0x07002005);
    w.boolean(false);  // accept own controls
    w.boolean(false);  // use script
    w.nullRef();
    w.u32(0);
    w.u32(children);
}

// A child record of 07002005: 1, 3, -2 (or `third`), then the child node.
void childHeader(BodyWriter& w, std::uint32_t third = 0xFFFFFFFE) {
    w.u32(1);
    w.u32(3);
    w.u32(third);
}

struct Options {
    std::uint32_t mainClass = 0x07016000;  // CControlFrame
    std::uint32_t childThird = 0xFFFFFFFE;
    std::uint32_t containerWord = 0;  // 07002006's first word
    std::uint32_t enumValues = 2;
};

// A frame holding a quad, a button and an enum, as the pack's cards hold them.
Bytes menuFrame(const Options& o = {}) {
    GbxBuilder b;
    b.classId = o.mainClass;
    b.numNodes = 5;
    BodyWriter w;
    sceneObject(w, "FrameTest");
    controlBase(w, o.mainClass != 0x07016000);
    frameChildren(w, 3);

    childHeader(w, o.childThird);
    w.newNode(1, 0x0701B000);  // CControlQuad
    sceneObject(w, "QuadBg");
    controlBase(w, false, "BgsButtons");
    w.chunk(0x0701B004);
    w.u32(2);
    w.boolean(false);
    w.boolean(true);
    w.chunk(0x0701B006);
    w.lookback("Icons");
    w.chunk(0x0701B007);
    w.u32(0);
    w.lookback("BgButtonMedium");
    for (int i = 0; i < 4; ++i) w.f32(1.0f);
    w.endNode();
    location(w);

    childHeader(w);
    w.newNode(2, 0x07007000);  // CControlButton
    sceneObject(w, "ButtonSelection");
    controlBase(w, true, "CardSelectionButton");
    w.chunk(0x07031000);
    w.nullRef();
    w.f32(0.36f);
    w.u32(3);
    w.chunk(0x07007005);
    w.string("Button");
    w.u32(1);
    w.nullRef();
    w.chunk(0x07007008);
    w.nullRef();
    w.chunk(0x0700700B);
    w.nullRef();               // action sound
    w.newNode(3, 0x0500E000);  // icons: CFuncEnum
    w.chunk(0x0500E007);
    w.f32(64);
    w.f32(64);
    w.endNode();
    w.u32(0);
    w.u32(0);
    w.chunk(0x0700700C);
    w.lookback("Undo");
    w.endNode();
    location(w);

    childHeader(w);
    w.newNode(4, 0x0700A000);  // CControlEnum
    sceneObject(w, "EnumMode");
    controlBase(w, true, "Icons128x128_1");
    w.chunk(0x07031000);
    w.nullRef();
    w.f32(0.12f);
    w.u32(3);
    w.chunk(0x0700A009);
    for (std::uint32_t v : {1u, 0u, 1u, 3u, 0xFFFFFFFFu}) w.u32(v);
    w.f32(0.12f);
    w.chunk(0x0700A00A);
    w.u32(o.enumValues);
    for (std::uint32_t i = 0; i < o.enumValues; ++i) w.lookback(i == 0 ? "Solo" : "Quit");
    w.endNode();
    location(w);

    w.chunk(0x07002006);
    w.u32(o.containerWord);
    w.u32(0);
    if (o.mainClass == 0x030BD000) {  // the generic card's chunks
        w.chunk(0x0309A002);
        w.boolean(false);
        w.boolean(true);
        w.boolean(true);
        w.chunk(0x030BD000);
        w.u32(0);
        w.chunk(0x030BD006);
        w.u8(4);
        w.u32(1);
        for (int i = 0; i < 14; ++i) w.string(i == 7 ? "Back" : "");
        for (int i = 0; i < 6; ++i) w.u32(i == 0 ? 27 : 0);
        for (int i = 0; i < 3; ++i) w.f32(0);
    }
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

// A label alone, as a frame's child: its text, its bitmap and the skippable colour.
Bytes labelFrame(std::uint32_t colourWord) {
    GbxBuilder b;
    b.classId = 0x07016000;
    b.numNodes = 2;
    BodyWriter w;
    sceneObject(w, "Frame");
    controlBase(w, false);
    frameChildren(w, 1);
    childHeader(w);
    w.newNode(1, 0x07006000);  // CControlLabel
    sceneObject(w, "LabelPlayerName");
    controlBase(w, false, "TextCardSmallScores2");
    w.chunk(0x07031000);
    w.nullRef();
    w.f32(0.349f);
    w.u32(3);
    w.chunk(0x07006007);
    w.string("The destroyer");
    w.nullRef();
    w.boolean(false);
    w.beginSkippable(0x07006008);
    w.u32(colourWord);
    for (int i = 0; i < 4; ++i) w.f32(1.0f);
    w.endSkippable();
    w.endNode();
    location(w);
    w.chunk(0x07002006);
    w.u32(0);
    w.u32(0);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("menu frame: a container's children, quads, buttons and enums read whole",
          "[gbx][control]") {
    test::NodeSummary p = test::parseWhole(menuFrame());
    CHECK(p.classes == std::vector<std::string>{"CControlFrame", "CHmsItem", "CControlQuad",
                                                "CHmsItem", "CControlButton", "CHmsItem",
                                                "CFuncEnum", "CControlEnum", "CHmsItem"});
    CHECK(p.values["0:children"] == "3");
    CHECK(p.values["2:style"] == "BgsButtons");
    CHECK(p.values["2:icon"] == "BgButtonMedium");
    CHECK(p.values["4:label"] == "Button");
    CHECK(p.values["4:icons"] == "node 3");
    CHECK(p.values["4:icon"] == "Undo");
    CHECK(p.values["7:values"] == "2");
}

TEST_CASE("menu card: the generic card's data reads whole", "[gbx][control]") {
    Options o;
    o.mainClass = 0x030BD000;  // CGameControlCardGeneric: GBX.NET's form of 0700100C
    test::NodeSummary p = test::parseWhole(menuFrame(o));
    CHECK(p.classes.front() == "CGameControlCardGeneric");
    CHECK(p.values["0:StrInt1"] == "Back");
}

TEST_CASE("menu label: its text and skippable colour read whole", "[gbx][control]") {
    test::NodeSummary p = test::parseWhole(labelFrame(0));
    CHECK(p.classes ==
          std::vector<std::string>{"CControlFrame", "CHmsItem", "CControlLabel", "CHmsItem"});
    CHECK(p.values["2:label"] == "The destroyer");
}

TEST_CASE("menu frames: values and classes no file shows stop the reader", "[gbx][control]") {
    Options o;
    o.childThird = 2;  // a child record the pack's instances of other frames use
    CHECK_THAT(test::gbxParseError(menuFrame(o)),
               Catch::Contains("chunk 07002005 of CControlFrame (07016000)") &&
                   Catch::Contains("CControlContainer 07002005: a child's third word at 182 is "
                                   "00000002, only FFFFFFFE is known"));
    o = {};
    o.containerWord = 1;
    CHECK_THAT(test::gbxParseError(menuFrame(o)),
               Catch::Contains("CControlContainer 07002006: word at") &&
                   Catch::Contains("is 00000001, only 00000000 is known"));
    o = {};
    o.mainClass = 0x0700B000;  // CControlSlider: no file shows its 0700100C
    CHECK_THAT(test::gbxParseError(menuFrame(o)),
               Catch::Contains("chunk 0700100C of CControlSlider (0700B000)") &&
                   Catch::Contains("no source or file shows which form of the chunk "
                                   "CControlSlider (0700B000) stores"));
    // The skippable colour of a label read with a first word no file shows.
    CHECK_THAT(test::gbxParseError(labelFrame(1)),
               Catch::Contains("CControlLabel 07006008: first word at") &&
                   Catch::Contains("is 00000001, only 00000000 is known"));
}

TEST_CASE("menu card: a generic card's data of another first byte stops", "[gbx][control]") {
    Options o;
    o.mainClass = 0x030BD000;
    Bytes file = menuFrame(o);
    // The byte before the record count: the last 14 strings, 9 words and the end marker
    // follow it with the count; find it as the 04 after the chunk ID 030BD006.
    const std::uint8_t id[] = {0x06, 0xD0, 0x0B, 0x03, 0x04};
    auto it = std::search(file.begin(), file.end(), std::begin(id), std::end(id));
    REQUIRE(it != file.end());
    it[4] = 5;
    CHECK_THAT(test::gbxParseError(file),
               Catch::Contains("CGameControlCardGeneric 030BD006: first byte at") &&
                   Catch::Contains("is 5, only 4 is known"));
}

namespace {

// A grid (CControlGrid) as the pack's message cards hold it: one quad at square (1, 0), the
// grid's main layout and its column widths; the quad takes its style from a CControlStyle read
// in place (07001010: -1, then a new node).
Bytes gridFile(std::uint32_t squareParam) {
    GbxBuilder b;
    b.classId = 0x07015000;
    b.numNodes = 4;
    BodyWriter w;
    sceneObject(w, "GridWeapons");
    controlBase(w, false);
    frameChildren(w, 1);
    childHeader(w);
    w.newNode(1, 0x0701B000);  // CControlQuad
    sceneObject(w, "QuadWeapon1");
    controlBase(w, false, nullptr, false);
    w.chunk(0x07001010);
    w.nullRef();               // no style name
    w.newNode(2, 0x07017000);  // CControlStyle read in place
    w.chunk(0x07017004);
    w.nullRef();
    w.endNode();
    w.endNode();
    w.f32(1.0f);  // square
    w.f32(0.0f);
    w.u32(squareParam);
    w.chunk(0x07002006);
    w.u32(0);
    w.u32(0);
    w.chunk(0x07015001);
    w.newNode(3, 0x0700C000);  // CControlLayout
    w.chunk(0x0700C001);
    w.u32(4);
    w.u32(0);
    for (float f : {0.005f, 0.005f, 1.0f, 1.0f}) w.f32(f);
    w.endNode();
    w.u32(0);
    w.u32(0);
    w.f32(-1.0f);
    w.f32(0.045f);
    w.chunk(0x07015003);
    w.u32(2);
    w.f32(-1.0f);
    w.f32(0.1f);
    w.u32(1);
    w.chunk(0x07015005);
    w.f32(0);
    w.f32(0);
    w.chunk(0x07015006);
    w.u32(0);
    w.u32(0);
    w.u32(10);
    w.u32(10);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("menu grid: its children's squares, layout and widths read whole", "[gbx][control]") {
    test::NodeSummary p = test::parseWhole(gridFile(0));
    CHECK(p.classes == std::vector<std::string>{"CControlGrid", "CHmsItem", "CControlQuad",
                                                "CHmsItem", "CControlStyle", "CControlLayout"});
    CHECK(p.values["0:children"] == "1");
    CHECK(p.values["0:layout"] == "node 3");
    // A square's parameter no file shows (the pack's are all 0) stops.
    CHECK_THAT(test::gbxParseError(gridFile(5)),
               Catch::Contains("CControlGrid 07002005: a child's parameter at") &&
                   Catch::Contains("is 00000005, only 00000000 is known"));
}

TEST_CASE("menu range: CControlUiRange's chunks read whole", "[gbx][control]") {
    GbxBuilder b;
    b.classId = 0x07014000;  // CControlUiRange: GBX.NET's form of 0700100C
    b.numNodes = 1;
    BodyWriter w;
    sceneObject(w, "GaugeEnergy");
    controlBase(w, true, "EnergyBar_0.25");
    w.chunk(0x07014000);
    w.lookback("EnergyBar_0.25");
    w.chunk(0x07014001);
    w.u32(0);
    w.chunk(0x07014003);
    w.u32(4);
    w.boolean(true);
    w.f32(0.01f);
    w.f32(0.02f);
    w.boolean(true);
    w.endNode();
    b.body = w.bytes();
    test::NodeSummary p = test::parseWhole(b.build());
    CHECK(p.classes == std::vector<std::string>{"CControlUiRange", "CHmsItem"});
    CHECK(p.values["0:icon"] == "EnergyBar_0.25");
}
