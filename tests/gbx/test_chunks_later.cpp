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
