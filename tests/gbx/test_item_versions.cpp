// SPDX-License-Identifier: GPL-2.0-or-later
// Crafted bodies for the versions of the item and block info chunks no fixture holds
// (gbx/chunks/game/BlockInfoVariant.cpp, gbx/chunks/gamedata/ItemEntity.cpp,
// gbx/chunks/gamedata/Item.cpp): each version and branch GBX.NET describes reads to the end of the
// body, and what it does not describe stops with the reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace item_versions {

void checkWhole(const GbxFile& f) {
    INFO((f.failure ? f.failure->message : std::string("ok")));
    CHECK_FALSE(f.failure);
    CHECK(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
}

std::string failureOf(std::uint32_t classId, const BodyWriter& w) {
    return test::failureOf(test::readMain(classId, 1, w));
}

void nulls(BodyWriter& w, int n) {
    for (int i = 0; i < n; ++i) w.nullRef();
}

// 0315B006 of version v: the models, with a flock model (a new node, index 1) from version 7.
void variantModels(BodyWriter& w, std::uint32_t v) {
    w.chunk(0x0315B006);
    w.u32(v);
    if (v <= 8) w.nullRef();
    nulls(w, 2);
    if (v >= 11) nulls(w, 2);
    if (v <= 8) w.u32(0);
    if (v >= 2) w.nullRef();  // gate
    if (v >= 3) w.nullRef();  // teleporter
    if (v >= 5) w.nullRef();  // capture zone
    if (v >= 6) w.nullRef();  // turbine
    if (v >= 7) {
        w.newNode(1, 0x090F8000);  // the flock model: any node will do
        w.chunk(0x090F8000);
        w.u32(0);
        w.u32(0);
        w.zeros(12);
        w.endNode();
        w.u32(1);  // emitter state version
        w.zeros(12);
        w.boolean(false);
        w.boolean(true);
        w.zeros(36 + 12);
    }
    if (v >= 8) w.nullRef();  // spawn model
    if (v >= 10) w.u32(0);    // entity spawners
}

TEST_CASE("item versions: a block info variant in every version GBX.NET describes",
          "[gbx][item][blockinfo]") {
    for (std::uint32_t v : {0u, 1u, 2u, 3u}) {
        INFO("chunk versions " << v);
        BodyWriter w;
        w.chunk(0x0315B000);
        w.u32(0);  // unit models
        w.u32(0);
        for (int i = 0; i < 4; ++i) w.boolean(i == 2);
        w.zeros(48);
        w.string("variant");
        w.chunk(0x0315B002);
        w.u32(2);
        w.chunk(0x0315B003);
        std::uint32_t v3 = std::min(v, 2u);
        w.u32(v3);
        w.u32(1);
        if (v3 == 0) {
            w.u32(3);
        } else {
            w.u8(1);
            w.u8(2);
            if (v3 >= 2) w.u8(0);
        }
        w.chunk(0x0315B004);
        w.u16(7);
        w.chunk(0x0315B005);
        w.u32(v);
        w.u32(2);  // sub-variants
        w.u32(0);
        w.u32(1);
        w.nullRef();
        nulls(w, 2);
        if (v >= 3) w.u32(0);
        w.chunk(0x0315B007);
        w.u32(0);
        w.nullRef();
        w.chunk(0x0315B008);
        std::uint32_t v8 = std::min(v, 2u);
        w.u32(v8);
        w.u32(0);
        w.u32(0);
        for (int i = 0; i < 4; ++i) w.boolean(false);
        w.zeros(v8 <= 1 ? 20 : 24);
        w.string("name");
        w.chunk(0x0315B009);
        std::uint32_t v9 = std::min(v, 1u);
        w.u32(v9);
        w.u32(1);
        w.nullRef();
        w.zeros(16);
        if (v9 >= 1) {
            w.u32(1);
            w.nullRef();
            w.zeros(17);
        }
        w.chunk(0x0315B00A);
        std::uint32_t va = std::min(v, 2u);
        w.u32(va);
        if (va <= 1) nulls(w, 2);
        if (va == 1) w.zeros(48);
        if (va == 2) {
            w.nullRef();
            w.zeros(48);
        }
        w.chunk(0x0315B00B);
        std::uint32_t vb = std::min(v, 1u);
        w.u32(vb);
        w.u32(1);  // water volumes
        w.u32(2);  // boxes
        w.zeros(48);
        w.zeros(28);
        if (vb >= 1) w.lookback("water");
        w.chunk(0x0315B00C);
        w.u32(1);
        w.u32(0);
        w.chunk(0x0315B00D);
        w.zeros(8);
        w.chunk(0x0315C001);
        w.u32(0);
        w.u32(10);  // array version
        w.u32(1);
        w.nullRef();
        w.u32(0);
        w.u32(2);
        w.endNode();
        checkWhole(test::readMain(0x0315C000, 1, w));
    }
    for (std::uint32_t v = 0; v <= 11; ++v) {
        INFO("0315B006 version " << v);
        BodyWriter w;
        variantModels(w, v);
        w.endNode();
        GbxFile f = test::readMain(0x0315D000, v >= 7 ? 2 : 1, w);
        checkWhole(f);
    }
}

TEST_CASE("item versions: what GBX.NET does not describe in a block info variant stops",
          "[gbx][item][blockinfo]") {
    struct Case {
        std::uint32_t chunk;
        std::vector<std::uint32_t> words;
        const char* reason;
    };
    const std::vector<Case> cases = {
        {0x0315B00A,
         {3},
         "block info variant 0315B00A version 3 not supported (2 is the highest any source "
         "describes)"},
        {0x0315B00C,
         {1, 2},
         "block info variant 0315B00C: 2 element(s) whose layout no source gives"},
        {0x0315B006,
         {12},
         "block info variant 0315B006 version 12 not supported (11 is the highest any source "
         "describes)"},
        {0x03122003,
         {24},
         "block info mobil 03122003 version 24 not supported (23 is the highest any source "
         "describes)"},
    };
    for (const Case& c : cases) {
        INFO(c.reason);
        BodyWriter w;
        w.chunk(c.chunk);
        for (std::uint32_t x : c.words) w.u32(x);
        w.zeros(64);
        std::string msg = failureOf(c.chunk >> 12 == 0x03122 ? 0x03122000 : 0x0315C000, w);
        INFO(msg);
        CHECK_THAT(msg, Catch::Contains(std::string(": ") + c.reason + " (stopped at offset "));
    }
}

// 03122003 of version v, every optional part present where a flag decides.
void mobilSolid(BodyWriter& w, std::uint32_t v) {
    w.chunk(0x03122003);
    w.u32(v);
    if (v <= 1) {
        w.boolean(true);
        if (v == 0) w.nullRef();
    }
    w.u32(1);  // solid frequency
    if (v >= 1) {
        w.u8(1);
        w.zeros(24);
    }
    if (v >= 2) nulls(w, 2);  // no solid: an old mobil
    if (v >= 14) w.nullRef();
    if (v >= 3) w.nullRef();
    if (v == 5) w.u32(0);
    if (v >= 5 && v <= 10) w.boolean(false);
    if (v >= 6) w.nullRef();
    if (v >= 7 && v <= 22) w.nullRef();
    if (v >= 15) w.nullRef();
    if (v >= 8 && v <= 12) w.u32(0);
    if (v >= 9 && v <= 22) w.u32(10);
    if (v >= 9) w.u32(0);
    if (v >= 10 && v <= 12) w.u32(0);
    if (v == 12) w.u32(0);
    if (v >= 16 && v <= 22) w.nullRef();
    if (v >= 17) w.u32(0);
    if (v >= 18) {
        w.nullRef();
        w.u8(v % 3);  // 0 and 1 have a float, 2 none
        if (v % 3 <= 1) w.f32(1);
        if (v == 18) w.zeros(48);
        if (v >= 19) w.zeros(24);
        w.f32(2);
    }
    if (v >= 20) w.u32(0);
    if (v >= 21) w.nullRef();
}

TEST_CASE("item versions: a block info mobil in every version GBX.NET describes",
          "[gbx][item][blockinfo]") {
    for (std::uint32_t v = 0; v <= 23; ++v) {
        INFO("03122003 version " << v);
        BodyWriter w;
        w.chunk(0x03122002);
        w.u32(10);
        w.u32(0);
        w.u32(5);
        mobilSolid(w, v);
        w.chunk(0x03122004);
        w.u32(0);
        w.u32(10);
        w.u32(0);
        w.endNode();
        checkWhole(test::readMain(0x03122000, 1, w));
    }
}

TEST_CASE("item versions: clips, pylons and frontiers", "[gbx][item][blockinfo]") {
    for (std::uint32_t v = 0; v <= 4; ++v) {
        INFO("versions " << v);
        BodyWriter w;
        w.chunk(0x03053002);
        w.lookback("clip");
        w.chunk(0x03053004);
        w.boolean(true);
        w.boolean(false);
        w.chunk(0x03053005);
        w.u32(1);
        w.chunk(0x03053006);
        w.u32(v);
        w.boolean(true);
        if (v >= 1) w.u32(2);
        for (std::uint32_t i = 2; i <= v; ++i) w.u8(0);
        w.chunk(0x03053007);
        w.u32(0);
        w.boolean(v % 2 == 1);
        if (v % 2 == 1) w.zeros(16);
        w.beginSkippable(0x03053008);
        w.u32(std::min(v, 1u));
        w.lookback("group");
        w.lookback("group");
        if (v >= 1) {
            w.lookback("a");
            w.lookback("b");
        }
        w.endSkippable();
        w.chunk(0x0335B000);
        w.u32(0);
        w.lookback("horizontal");
        w.endNode();
        checkWhole(test::readMain(0x0335B000, 1, w));
    }
    BodyWriter w;
    w.chunk(0x03055000);
    nulls(w, 3);
    w.chunk(0x03055002);
    w.f32(0.5f);
    w.zeros(12);
    w.endNode();
    checkWhole(test::readMain(0x03055000, 1, w));
    BodyWriter frontier;
    frontier.chunk(0x03050000);
    frontier.boolean(true);
    frontier.endNode();
    checkWhole(test::readMain(0x03050000, 1, frontier));
}

TEST_CASE("item versions: a block unit info's 03036006 takes the nine values GBX.NET lists",
          "[gbx][item][blockinfo]") {
    BodyWriter w;
    w.chunk(0x03036006);
    w.zeros(36);
    w.chunk(0x03036004);
    w.u32(1);
    w.endNode();
    checkWhole(test::readMain(0x03036000, 1, w));
}

TEST_CASE("item versions: an item entity model in every version GBX.NET describes", "[gbx][item]") {
    for (std::uint32_t v = 0; v <= 5; ++v) {
        INFO("2E027000 version " << v);
        BodyWriter w;
        w.chunk(0x2E027000);
        w.u32(v);
        if (v == 0) nulls(w, 2);
        if (v == 3) {
            w.string("a");
            w.string("b");
        }
        if (v >= 4) w.nullRef();  // static object
        if (v >= 2) {
            w.nullRef();
            w.zeros(48);
            w.nullRef();
            w.u32(0);  // actions
            w.nullRef();
            for (int i = 0; i < 5; ++i) w.string(i == 1 ? "sound" : "");
            w.zeros(48);
            w.u32(0);
            if (v >= 5) w.u8(1);
        }
        w.endNode();
        checkWhole(test::readMain(0x2E027000, 1, w));
    }
    BodyWriter v6;
    v6.chunk(0x2E027000);
    v6.u32(6);
    v6.zeros(64);
    CHECK_THAT(failureOf(0x2E027000, v6),
               Catch::Contains(": item entity model 2E027000 version 6 not supported (5 is the "
                               "highest any source describes) (stopped at offset "));
}

TEST_CASE("item versions: the item model chunks of the older games", "[gbx][item]") {
    BodyWriter w;
    for (std::uint32_t i = 0; i <= 4; ++i) {
        w.chunk(0x2E002000 | i);
        w.nullRef();
    }
    w.chunk(0x2E002007);
    nulls(w, 3);
    w.chunk(0x2E00200D);
    w.u32(2);
    nulls(w, 2);
    w.chunk(0x2E00200E);
    nulls(w, 4);
    w.chunk(0x2E002011);
    nulls(w, 9);
    w.endNode();
    checkWhole(test::readMain(0x2E002000, 1, w));
}

TEST_CASE("item versions: an edition's light ball states take an int and seven floats",
          "[gbx][item]") {
    // An ornament's edition holding one state.
    BodyWriter ed;
    ed.chunk(0x2E026000);
    ed.u32(5);
    ed.u32(1);  // ornament
    ed.nullRef();
    ed.string("");
    ed.nullRef();
    ed.u32(0);  // images
    ed.u32(0);  // sprite parameters
    nulls(ed, 2);
    ed.u32(1);
    ed.zeros(32);
    ed.zeros(7 * 4 + 48);
    ed.boolean(true);  // no second crystal
    ed.boolean(false);
    ed.u32(0);
    ed.string("inventory");
    ed.string("");
    ed.zeros(8);
    ed.endNode();
    checkWhole(test::readMain(0x2E026000, 1, ed));
}

TEST_CASE("item versions: a visual model's light ball states take an int and seven floats",
          "[gbx][item]") {
    // A visual model of version 2: the mesh node, the animation, then the states.
    BodyWriter vis;
    vis.chunk(0x2E007001);
    vis.u32(2);
    vis.nullRef();  // mesh
    vis.nullRef();  // animation file
    vis.string("mesh");
    vis.nullRef();  // location animation
    vis.u32(2);
    vis.zeros(2 * 32);
    for (int i = 0; i < 3; ++i) vis.string("");
    vis.endNode();
    checkWhole(test::readMain(0x2E007000, 1, vis));
}

}  // namespace item_versions
