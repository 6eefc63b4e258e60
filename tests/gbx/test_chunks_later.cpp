// SPDX-License-Identifier: GPL-2.0-or-later
// Chunks of later games (ManiaPlanet, TM2020) and of older replays that real files use, written
// by BodyWriter and read back: each reader must take exactly the chunk's bytes.
#include <catch2/catch.hpp>

#include <functional>

#include "gbx/GbxBuilder.hpp"
#include "gbx/GbxFile.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

struct Sample {
    std::string name;
    std::uint32_t chunkId;
    bool skippable;
    std::function<void(BodyWriter&)> fill;
    std::uint32_t newNodes = 0;  // nodes the chunk introduces
};

std::vector<Sample> samples() {
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
             w.u32(0);
             w.u32(1);
             w.lookback("Accelerate");
             w.u32(1);
             w.u32(0);
             w.zeros(9);
             w.string("TmUnited.0.2.1.0");
             w.zeros(12);
             w.string("1P-Time");
         }},
    };
}

}  // namespace

TEST_CASE("later games' chunks read exactly their bytes", "[gbx][chunks]") {
    for (const auto& s : samples()) {
        INFO(s.name << " (chunk " << hex32(s.chunkId) << ")");
        GbxBuilder b;
        b.classId = s.chunkId & 0xFFFFF000;
        b.numNodes = 10;
        BodyWriter w;
        if (s.skippable)
            w.beginSkippable(s.chunkId);
        else
            w.chunk(s.chunkId);
        s.fill(w);
        if (s.skippable) w.endSkippable();
        w.endNode();
        b.body = w.bytes();
        for (const char* format : {"BUUR", "BUCR"}) {
            b.format = format;
            Bytes file = b.build();
            MemorySource src(file);
            GbxFile f = readGbxPartial(src);
            INFO((f.failure ? f.failure->message : std::string("ok")));
            REQUIRE(f.nodesComplete);
            CHECK(f.trailingBytes == 0);
            CHECK(f.nodes.size() == 1 + s.newNodes);
            REQUIRE(f.nodes[0].chunks.size() == 1);
            CHECK(f.nodes[0].chunks[0].known);
        }
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
