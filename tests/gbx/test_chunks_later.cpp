// SPDX-License-Identifier: GPL-2.0-or-later
// Chunks of later games (ManiaPlanet, TM2020) and of older replays that real files use, written
// by BodyWriter and read back: each reader must take exactly the chunk's bytes.
#include <catch2/catch.hpp>

#include <functional>

#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

struct LaterChunkSample {
    std::string name;
    std::uint32_t chunkId;
    bool skippable;
    std::function<void(BodyWriter&)> fill;
    std::uint32_t newNodes = 0;  // nodes the chunk introduces
};

// A version, then keys.
void keysOf(BodyWriter& w, std::uint32_t version, std::uint32_t n, std::size_t keySize) {
    w.u32(version);
    test::zeroKeys(w, n, keySize);
}

std::vector<LaterChunkSample> laterChunkSamples() {
    return {
        {"media track v0", 0x03078005, false,
         [](BodyWriter& w) {
             w.u32(0);
             w.boolean(true);
             w.boolean(false);
             w.boolean(false);
         }},
        {"media track v1: repeating segment", 0x03078005, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.boolean(true);
             w.boolean(false);
             w.boolean(true);
             w.f32(-1);
             w.f32(-1);
         }},
        {"collector skin v2, skin directory set", 0x2E001010, false,
         [](BodyWriter& w) {
             w.u32(2);
             w.nullRef();
             w.string("Skins\\Any\\");
         }},
        {"collector skin v4, no directory: a node follows", 0x2E001010, false,
         [](BodyWriter& w) {
             w.u32(4);
             w.nullRef();
             w.string("");
             w.newNode(1, 0x03059000);
             w.chunk(0x03059000);
             w.string("a");
             w.string("b");
             w.endNode();
         },
         1},
        {"collector skin v1", 0x2E001010, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.nullRef();
             w.string("");
         }},
        {"collector flags v0", 0x2E001011, false,
         [](BodyWriter& w) {
             w.u32(0);
             w.boolean(false);
             w.boolean(true);
             w.u32(3);
         }},
        {"collector flags v1", 0x2E001011, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.boolean(false);
             w.boolean(true);
             w.u32(3);
             w.u8(3);
         }},
        {"collector 012", 0x2E001012, false, [](BodyWriter& w) { w.zeros(16); }},
        {"custom camera v0: key version 6, 144 bytes", 0x030A2006, false,
         [](BodyWriter& w) { keysOf(w, 0, 2, 144); }},
        {"custom camera v2: key version 8, 164 bytes", 0x030A2006, false,
         [](BodyWriter& w) { keysOf(w, 2, 1, 164); }},
        {"custom camera v3: key version 9, 156 bytes", 0x030A2006, false,
         [](BodyWriter& w) { keysOf(w, 3, 2, 156); }},
        {"custom camera v4: key version 10, 168 bytes", 0x030A2006, false,
         [](BodyWriter& w) { keysOf(w, 4, 1, 168); }},
        {"shoot", 0x03145000, false, [](BodyWriter& w) { w.zeros(8); }},
        {"bloom HDR 000", 0x03128000, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 16); }},
        {"bloom HDR 002", 0x03128002, false, [](BodyWriter& w) { test::zeroKeys(w, 1, 16); }},
        {"orbital camera v0", 0x030A0001, false, [](BodyWriter& w) { keysOf(w, 0, 2, 45); }},
        {"orbital camera v1", 0x030A0001, false, [](BodyWriter& w) { keysOf(w, 1, 2, 61); }},
        {"fog v0", 0x03199000, false, [](BodyWriter& w) { keysOf(w, 0, 2, 16); }},
        {"fog v2", 0x03199000, false, [](BodyWriter& w) { keysOf(w, 2, 2, 40); }},
        {"camera path v3", 0x030A1003, false, [](BodyWriter& w) { keysOf(w, 3, 2, 84); }},
        {"camera path v5", 0x030A1003, false, [](BodyWriter& w) { keysOf(w, 5, 2, 92); }},
        {"inertial tracking", 0x03166000, false,
         [](BodyWriter& w) {
             w.u32(0);
             w.zeros(20);
         }},
        {"depth of field 000", 0x03126000, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 12); }},
        {"depth of field 001", 0x03126001, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 16); }},
        {"depth of field 002", 0x03126002, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 28); }},
        {"camera effect script v0", 0x03161000, false,
         [](BodyWriter& w) {
             w.u32(0);
             w.string("script");
             w.zeros(8);
             test::zeroKeys(w, 1, 16);
         }},
        {"camera effect script v1", 0x03161000, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.string("");
             test::zeroKeys(w, 2, 16);
         }},
        {"color grading image", 0x03186000, false,
         [](BodyWriter& w) { w.fileRef(3, "Media\\Grade.dds", ""); }},
        {"color grading keys", 0x03186001, false, [](BodyWriter& w) { test::zeroKeys(w, 2, 8); }},
        {"dirty lens", 0x03165000, false, [](BodyWriter& w) { keysOf(w, 0, 2, 8); }},
        {"camera game v1: camera by name", 0x03084007, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.zeros(8);
             w.lookback("Internal");
             w.u32(0);
             w.zeros(44 + 12 + 4);
         }},
        {"camera game v3", 0x03084007, false,
         [](BodyWriter& w) {
             w.u32(3);
             w.zeros(8);
             w.u32(2);
             w.u32(0);
             w.zeros(44 + 12 + 4 + 4);
         }},
        {"vehicle light", 0x03133000, false, [](BodyWriter& w) { w.zeros(8); }},
        {"vehicle light target", 0x03133001, false, [](BodyWriter& w) { w.u32(0); }},
        {"interface", 0x03195000, false,
         [](BodyWriter& w) {
             w.u32(0);
             w.zeros(8);
             w.boolean(true);
             w.string("<manialink/>");
         }},
        {"replay events (TMSX)", 0x0309300D, false,
         [](BodyWriter& w) {
             w.u32(5000);
             w.u32(0);
             w.u32(2);
             w.lookback("Accelerate");
             w.lookback("Steer");
             w.u32(3);
             w.u32(0);
             w.zeros(27);
         }},
        {"replay events, none", 0x0309300D, false, [](BodyWriter& w) { w.u32(0); }},
        {"replay events (TM1.0)", 0x03093003, false,
         [](BodyWriter& w) {
             w.u32(5000);
             w.u32(0);
             w.u32(2);
             w.zeros(8);
             w.string("Accelerate");
             w.zeros(8);
             w.string("Brake");
             w.u32(3);  // two entries
             w.zeros(24);
             w.u32(0);
         }},
        {"replay events (TM1.0), stored count 0", 0x03093003, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.u32(0);
             w.u32(0);
             w.u32(0);
             w.u32(0);
         }},
        {"replay 011 holds nothing", 0x03093011, false, [](BodyWriter&) {}},
        {"replay record data", 0x03093024, false,
         [](BodyWriter& w) {
             w.u32(1);
             w.nullRef();
             w.newNode(1, 0x0911F000);
             w.chunk(0x0911F000);
             w.u32(10);
             w.u32(100);
             w.u32(5);
             w.zeros(5);
             w.endNode();
         },
         1},
        {"events of TrackMania replays: every event type", 0x2407F003, false,
         [](BodyWriter& w) {
             w.zeros(12);
             w.u32(7);
             auto head = [&](std::uint8_t v, std::uint32_t type) {
                 w.f32(1);
                 w.u8(v);
                 if (v < 3)
                     w.u32(0);
                 else
                     w.u8(0);
                 w.u32(type);
             };
             head(3, 0);  // stunt
             w.zeros(40);
             head(3, 1);  // checkpoint
             w.u32(0);
             w.zeros(16);
             head(3, 1);  // checkpoint, short form
             w.u32(1);
             head(1, 2);  // end of lap, version 1
             w.u32(0);
             w.zeros(8);
             head(2, 2);  // end of lap, later
             w.u32(1);
             w.zeros(12);
             head(3, 3);  // end of race
             w.u32(0);
             w.zeros(8);
             head(3, 3);  // end of race, short form
             w.u32(2);
         }},
        {"stunt events (old)", 0x2407F000, false,
         [](BodyWriter& w) {
             w.zeros(12);
             w.u32(2);
             w.zeros(88);
         }},
        {"simple events display", 0x24092001, false, [](BodyWriter& w) { w.zeros(20); }},
        {"ghost validation (TMU): no seed", 0x03092011, false,
         [](BodyWriter& w) {
             w.u32(1000);
             test::validationInputs(w, "TmUnited.0.2.1.0", "1P-Time");
         }},
    };
}

}  // namespace

TEST_CASE("later games' chunks read exactly their bytes", "[gbx][chunks]") {
    for (const auto& s : laterChunkSamples()) {
        INFO(s.name << " (chunk " << hex32(s.chunkId) << ")");
        GbxBuilder b;
        b.classId = s.chunkId & 0xFFFFF000;
        b.numNodes = 10;
        b.body = test::oneChunkBody(s.chunkId, s.skippable, s.fill).bytes();
        test::checkOneChunkReadsExactly(b, s.newNodes);
        // Cut one byte short: the reader must stop with an error, not read on.
        if (!s.skippable && b.body.size() > 8) {
            BodyWriter cut;
            cut.raw(ByteSpan(b.body).first(b.body.size() - 5));
            b.body = cut.bytes();
            b.format = "BUUR";
            Bytes file = b.build();
            MemorySource src(file);
            GbxFile f = readGbxPartial(src);
            CHECK_FALSE(f.nodesComplete);
        }
    }
}

TEST_CASE("versions nobody documented stop with an error naming the chunk", "[gbx][chunks]") {
    for (std::uint32_t id : {0x030A1003u, 0x030A0001u, 0x03199000u, 0x03166000u, 0x030A2006u}) {
        INFO("chunk " << hex32(id));
        GbxBuilder b;
        b.classId = id & 0xFFFFF000;
        BodyWriter w;
        w.chunk(id);
        w.u32(99);
        w.u32(0);
        w.zeros(64);
        w.endNode();
        GbxFile f = test::readBuilt(b, w);
        REQUIRE(f.failure);
        CHECK_THAT(f.failure->message,
                   Catch::Contains("version 99 not supported") && Catch::Contains(hex32(id)));
    }
    // Entity record data before version 5 is a structure nobody documented.
    GbxBuilder b;
    b.classId = 0x0911F000;
    BodyWriter w;
    w.chunk(0x0911F000);
    w.u32(4);
    w.endNode();
    GbxFile f = test::readBuilt(b, w);
    REQUIRE(f.failure);
    CHECK_THAT(f.failure->message, Catch::Contains("version 4 not supported"));
}
