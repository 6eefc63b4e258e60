// SPDX-License-Identifier: GPL-2.0-or-later
// Every seed-documented chunk the reader knows, written by BodyWriter and read back: the node
// must end exactly at its end marker, so each reader takes exactly the chunk's bytes.
#include <catch2/catch.hpp>

#include <functional>

#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

struct SeedChunkSample {
    std::uint32_t chunkId;
    bool skippable;
    std::function<void(BodyWriter&)> fill;
    std::uint32_t newNodes = 0;  // nodes the chunk introduces
};

std::vector<SeedChunkSample> seedChunkSamples() {
    return {
        {0x0304300D, false, [](BodyWriter& w) { w.meta("Vehicle", "Stadium", "Nadeo"); }},
        {0x03043011, false,
         [](BodyWriter& w) {
             w.newNode(1, 0x0301B000);
             w.chunk(0x0301B000);
             w.u32(1);
             w.meta("Block", "Stadium", "Nadeo");
             w.u32(3);
             w.endNode();
             w.newNode(2, 0x0305B000);
             for (std::uint32_t c : {0x0305B000u, 0x0305B002u, 0x0305B003u, 0x0305B005u}) {
                 w.chunk(c);
                 w.zeros(c == 0x0305B000 ? 32 : c == 0x0305B002 ? 64 : c == 0x0305B003 ? 24 : 12);
             }
             w.chunk(0x0305B001);
             for (int i = 0; i < 4; ++i) w.string("tip");
             w.chunk(0x0305B004);
             w.zeros(20);
             w.chunk(0x0305B006);
             w.u32(2);
             w.zeros(8);
             w.chunk(0x0305B007);
             w.u32(0);
             w.chunk(0x0305B008);
             w.zeros(8);
             w.beginSkippable(0x0305B00A);
             w.string("t");
             w.zeros(24);
             w.endSkippable();
             w.chunk(0x0305B00D);
             w.nullRef();
             w.beginSkippable(0x0305B00E);
             w.string("Race");
             w.string("");
             w.u32(0);
             w.endSkippable();
             w.endNode();
             w.u32(6);
         },
         2},
        {0x03043012, false, [](BodyWriter& w) { w.string("name"); }},
        {0x03043014, true,
         [](BodyWriter& w) {
             w.u32(0);
             w.string("pw");
         }},
        {0x03043017, true,
         [](BodyWriter& w) {
             w.u32(2);
             w.zeros(24);
         }},
        {0x03043018, true,
         [](BodyWriter& w) {
             w.boolean(true);
             w.u32(3);
         }},
        {0x03043019, true, [](BodyWriter& w) { w.fileRef(2, "Mod.zip", "http://x"); }},
        {0x0304301C, true, [](BodyWriter& w) { w.u32(5); }},
        {0x0304301F, false,
         [](BodyWriter& w) {
             w.meta("uid", "Stadium", "me");
             w.string("Map");
             w.meta("Day", "Stadium", "Nadeo");
             w.u32(32);
             w.u32(40);
             w.u32(32);
             w.boolean(false);
             w.u32(6);
             w.u32(3);
             w.lookback("StadiumRoadMain");  // plain block
             w.zeros(4);
             w.u32(0);
             w.lookback("StadiumRoadMain");  // unassigned: not counted
             w.zeros(4);
             w.u32(0xFFFFFFFF);
             w.lookback("StadiumSign");  // custom block with skin and parameters
             w.zeros(4);
             w.u32(0x8000 | 0x100000);
             w.lookback("me");
             w.newNode(1, 0x03059000);
             w.chunk(0x03059002);
             w.string("skin");
             w.fileRef(3, "", "");
             w.fileRef(2, "Skins\\a.zip", "http://y");
             w.endNode();
             w.nullRef();
             w.lookback("StadiumRoadMain");
             w.zeros(4);
             w.u32(0);
         },
         1},
        {0x03043013, false,
         [](BodyWriter& w) {  // 0304301F without the version field
             w.meta("uid", "Stadium", "me");
             w.string("Map");
             w.meta("Day", "Stadium", "Nadeo");
             w.zeros(12);
             w.boolean(true);
             w.u32(1);
             w.lookback("B");
             w.zeros(4);
             w.u16(0);  // version 0: 16-bit flags
         }},
        {0x03043021, false,
         [](BodyWriter& w) {
             w.nullRef();
             w.nullRef();
             w.nullRef();
         }},
        {0x03043022, false, [](BodyWriter& w) { w.u32(1); }},
        {0x03043024, false, [](BodyWriter& w) { w.fileRef(3, "Music.ogg", ""); }},
        {0x03043025, false, [](BodyWriter& w) { w.zeros(16); }},
        {0x03043026, false, [](BodyWriter& w) { w.nullRef(); }},
        {0x03043027, false,
         [](BodyWriter& w) {
             w.boolean(true);
             w.u8(0);
             w.zeros(36 + 12 + 12);
         }},
        {0x03043028, false,
         [](BodyWriter& w) {
             w.boolean(false);
             w.string("comments");
         }},
        {0x03043029, true, [](BodyWriter& w) { w.zeros(20); }},
        {0x0304302A, false, [](BodyWriter& w) { w.boolean(false); }},
        {0x0304303D, true,
         [](BodyWriter& w) {
             w.boolean(false);
             w.u32(6);
             w.u32(1);  // frames
             w.u32(3);
             w.zeros(3);
             w.u32(2);
             w.zeros(2);
             w.u32(1);
             w.zeros(1);
             w.u32(100);
             w.u32(4);
             w.zeros(4);
         }},
        {0x03043044, true,
         [](BodyWriter& w) {
             w.u32(0);
             w.u32(6);
             w.zeros(6);
         }},
        {0x03043054, true,
         [](BodyWriter& w) {
             w.u32(1);
             w.u32(0);
             w.u32(0);
             w.beginEncapsulation();
             w.u32(1);
             w.meta("Item.Item.Gbx", "Stadium", "me");
             w.u32(3);
             w.zeros(3);
             w.u32(1);
             w.string("tex.dds");
             w.endEncapsulation();
         }},
        {0x0301A007, false,
         [](BodyWriter& w) {
             w.boolean(true);
             w.zeros(20);
         }},
        {0x0301A009, false,
         [](BodyWriter& w) {
             w.string("page");
             w.boolean(true);
             w.nullRef();
             w.lookback("x");
         }},
        {0x0301A00B, false, [](BodyWriter& w) { w.meta("a", "b", "c"); }},
        {0x0301A00C, false, [](BodyWriter& w) { w.string("name"); }},
        {0x0301A00D, false, [](BodyWriter& w) { w.string("desc"); }},
        {0x0301A00E, false,
         [](BodyWriter& w) {
             w.boolean(true);
             w.u32(2);
         }},
        {0x0301A00F, false, [](BodyWriter& w) { w.string("skin"); }},
        {0x0301C006, false, [](BodyWriter& w) { w.u32(0xFFFFFFFF); }},
        {0x0301C008, false,
         [](BodyWriter& w) {
             w.u32(2);
             w.nullRef();
             w.nullRef();
         }},
        {0x0301C009, false,
         [](BodyWriter& w) {
             w.u32(10);
             w.u32(1);
             w.nullRef();
         }},
        {0x0301C00B, false,
         [](BodyWriter& w) {
             w.nullRef();
             w.nullRef();
         }},
        {0x0301C012, false, [](BodyWriter& w) { w.zeros(28); }},
        {0x0301C017, false,
         [](BodyWriter& w) {
             w.u32(0);
             w.boolean(true);
         }},
        {0x0301C019, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.nullRef();
             w.nullRef();
             w.nullRef();
         }},
        {0x03038000, false,
         [](BodyWriter& w) {
             w.u8(0);
             w.string("dir");
             w.u8(5);
             w.string("dir");
             w.string("tex");
             w.string("scene");
             w.u8(1);
             w.u32(0x09011000);
             w.string("n");
             w.string("f");
             w.boolean(true);
             w.string("alt");
             w.boolean(false);
         }},
        {0x03038001, false,
         [](BodyWriter& w) {
             w.u8(0);
             w.u32(1);
         }},
        {0x03033001, false,
         [](BodyWriter& w) {
             w.u8(10);
             w.lookback("Stadium");
             w.boolean(false);
             w.string("a");
             w.string("b");
             w.u32(0);
             w.lookback("zone");
             w.meta("Car", "Stadium", "Nadeo");
             w.string("map");
             w.zeros(16);
             w.string("load");
             w.zeros(24);
             w.string("long");
             w.string("disp");
             w.boolean(true);
         }},
        {0x03033002, false,
         [](BodyWriter& w) {
             w.u8(4);
             for (int i = 0; i < 6; ++i) w.string("f");
         }},
        {0x03033003, false,
         [](BodyWriter& w) {
             w.u8(0);
             w.string("icons");
         }},
        {0x0308C000, false,
         [](BodyWriter& w) {
             w.string("login");
             w.string("key");
         }},
        {0x01001000, false,
         [](BodyWriter& w) {
             w.u32(2);
             w.string("a\\");
             w.string("b\\");
         }},
        {0x0307A003, false,
         [](BodyWriter& w) {
             w.u32(10);
             w.u32(1);
             w.newNode(1, 0x03079000);
             w.chunk(0x03079002);
             w.u32(10);
             w.u32(0);
             w.string("c");
             w.u32(0);
             w.chunk(0x03079003);
             w.u32(10);
             w.u32(0);
             w.string("c");
             w.chunk(0x03079004);
             w.nullRef();
             w.chunk(0x03079007);
             w.u32(0);
             w.chunk(0x0307900A);
             w.boolean(false);
             w.chunk(0x0307900D);
             w.u32(0);
             w.u32(10);
             w.u32(0);
             w.string("c");
             w.boolean(false);
             w.boolean(false);
             w.boolean(false);
             w.string("");
             w.f32(0);
             w.u32(0);
             w.chunk(0x03079005);
             w.u32(10);
             w.u32(1);
             w.newNode(2, 0x03078000);
             w.chunk(0x03078001);
             w.string("track");
             w.u32(10);
             w.u32(2);
             w.newNode(3, 0x030A8000);
             w.chunk(0x030A8001);
             w.string("text");
             w.newNode(4, 0x07010000);
             w.chunk(0x07010003);
             test::zeroKeys(w, 1, 32);
             w.boolean(true);
             w.chunk(0x07010004);
             test::zeroKeys(w, 1, 48);
             w.boolean(true);
             w.u32(0);
             w.boolean(false);
             w.chunk(0x07010005);
             test::zeroKeys(w, 0, 48);
             w.boolean(true);
             w.u32(0);
             w.boolean(false);
             w.boolean(true);
             w.endNode();
             w.chunk(0x030A8002);
             w.zeros(12);
             w.endNode();
             w.newNode(5, 0x030A5000);
             w.chunk(0x030A5000);
             w.ref(4);
             w.fileRef(3, "img.png", "");
             w.endNode();
             w.u32(0);
             w.chunk(0x03078004);
             w.boolean(true);
             w.u32(0);
             w.endNode();
             w.string("clip");
             w.endNode();
             w.u32(1);
             w.zeros(12 + 12);
             w.u32(2);
             w.zeros(24);
         },
         5},
        {0x030A1002, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 80); }},
        {0x030A2005, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 96); }},
        {0x030A4000, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 12); }},
        {0x030A6001, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 12); }},
        {0x030A7001, false,
         [](BodyWriter& w) {
             w.fileRef(1, "s.ogg", "u");
             test::zeroKeys(w, 2, 12);
         }},
        {0x030A7002, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.boolean(true);
         }},
        {0x030A7003, false,
         [](BodyWriter& w) {
             w.u32(2);
             w.u32(1);
             w.boolean(true);
             w.boolean(false);
             w.boolean(true);
             w.boolean(false);
             w.u32(0);
         }},
        {0x030A7004, false,
         [](BodyWriter& w) {
             w.fileRef(0, "s.ogg");
             w.u32(1);
             test::zeroKeys(w, 2, 24);
         }},
        {0x030A9000, false, [](BodyWriter& w) { w.zeros(8); }},
        {0x030AB000, false,
         [](BodyWriter& w) {
             test::zeroKeys(w, 2, 8);
             w.zeros(12);
             w.f32(1);
         }},
        {0x03080003, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 116); }},
        {0x03081001, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 16); }},
        {0x03082000, false, [](BodyWriter& w) { w.zeros(8); }},
        {0x03083001, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 12); }},
        {0x03084003, false,
         [](BodyWriter& w) {
             w.zeros(8);
             w.lookback("Internal");
             w.u32(0);
         }},
        {0x03085000, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 12); }},
        {0x03024000, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 12); }},
        {0x03029001, false,
         [](BodyWriter& w) {
             test::zeroKeys(w, 2, 4);
             w.u32(2);
             w.u32(3);
             w.zeros(2 * 3 * 12);
             test::zeroKeys(w, 3, 16);
             test::zeroKeys(w, 1, 12);
             w.zeros(28);
         }},
        {0x030E5001, false,
         [](BodyWriter& w) {
             w.zeros(8);
             w.nullRef();
             w.f32(0);
         }},
        {0x030E5002, false,
         [](BodyWriter& w) {
             w.u32(3);
             test::zeroKeys(w, 2, 8);
             w.nullRef();
             w.f32(0);
             w.boolean(false);
             w.boolean(false);
             w.boolean(false);
         }},
        {0x03093002, false,
         [](BodyWriter& w) {
             w.u32(5);
             w.zeros(5);
         }},
        {0x03093007, true, [](BodyWriter& w) { w.u32(0); }},
        {0x03093014, false,
         [](BodyWriter& w) {
             w.u32(10);
             w.u32(1);
             w.newNode(1, 0x03092000);
             w.chunk(0x0303F006);
             w.u32(0);
             w.u32(10);
             w.u32(3);
             w.zeros(3);
             for (std::uint32_t c : {0x03092005u, 0x03092008u, 0x0309200Au, 0x03092014u}) {
                 w.beginSkippable(c);
                 w.u32(1);
                 w.endSkippable();
             }
             w.beginSkippable(0x03092009);
             w.zeros(12);
             w.endSkippable();
             w.beginSkippable(0x0309200B);
             w.u32(2);
             w.zeros(16);
             w.endSkippable();
             w.beginSkippable(0x03092013);
             w.zeros(8);
             w.endSkippable();
             w.beginSkippable(0x03092017);
             w.u32(1);
             w.fileRef(2, "", "");
             w.string("nick");
             w.string("av");
             w.endSkippable();
             w.chunk(0x0309200C);
             w.u32(0);
             w.chunk(0x0309200E);
             w.lookback("uid");
             w.chunk(0x0309200F);
             w.string("login");
             w.chunk(0x03092010);
             w.lookback("uid");
             w.chunk(0x03092012);
             w.u32(0);
             w.zeros(16);
             w.chunk(0x03092015);
             w.lookback("Car");
             w.chunk(0x03092018);
             w.meta("Car", "Vehicles", "Nadeo");
             w.chunk(0x03092019);
             w.u32(1000);
             w.u32(0);
             w.u32(2);
             w.lookback("Accelerate");
             w.lookback("Steer");
             w.u32(2);
             w.u32(0);
             w.zeros(18);
             w.string("TmForever 2.11.26");
             w.zeros(12);
             w.string("<settings/>");
             w.u32(0);
             w.endNode();
             w.u32(0);
             w.u32(1);
             w.zeros(8);
         },
         1},
        {0x03093015, false, [](BodyWriter& w) { w.nullRef(); }},
    };
}

}  // namespace

TEST_CASE("seed-documented chunks read exactly their bytes", "[gbx][chunks]") {
    for (const auto& s : seedChunkSamples()) {
        INFO("chunk " << hex32(s.chunkId));
        GbxBuilder b;
        b.classId = s.chunkId & 0xFFFFF000;
        b.numNodes = 10;
        b.body = test::oneChunkBody(s.chunkId, s.skippable, s.fill).bytes();
        test::checkOneChunkReadsExactly(b, s.newNodes);
    }
}

TEST_CASE("chunk 03029001: counts whose product wraps around 2^64 are refused", "[gbx][chunks]") {
    GbxBuilder b;
    b.classId = 0x03029000;
    b.numNodes = 10;
    b.format = "BUUR";
    BodyWriter w;
    w.chunk(0x03029001);
    w.u32(0);         // keys
    w.u32(1u << 31);  // keys of positions
    w.u32(1u << 31);  // points: 2^31 * 2^31 * 12 bytes is 0 modulo 2^64
    w.u32(0);         // point colors
    w.u32(0);         // triangles
    w.zeros(28);
    w.endNode();
    GbxFile f = test::readBuilt(b, w);
    CHECK_FALSE(f.nodesComplete);
    REQUIRE(f.failure);
    CHECK(f.failure->message.find("triangle positions: 2147483648 keys of 2147483648 points do "
                                  "not fit in any file") != std::string::npos);
}

TEST_CASE("header chunk readers on real fixture headers", "[gbx][chunks]") {
    // Covered by the fixture test through decodeHeaderChunks; here a synthetic TMF map header.
    BodyWriter desc;
    desc.u8(11);
    desc.boolean(false);
    desc.zeros(16);
    desc.u32(0);
    desc.boolean(false);
    desc.u32(0);
    desc.u32(0);
    desc.u32(0);
    desc.u32(0);
    GbxBuilder b;
    b.classId = 0x03043000;
    b.headerChunks.push_back({0x03043002, desc.bytes(), false});
    BodyWriter w;
    w.endNode();
    b.body = w.bytes();
    Bytes file = b.build();
    MemorySource src(file);
    GbxFile f = readGbx(src);
    CHECK(f.header.chunks.size() == 1);
}
