// SPDX-License-Identifier: GPL-2.0-or-later
// The later games' media blocks (gbx/chunks/game/Media.cpp), ghost chunks
// (chunks/game/Ghost.cpp) and map chunks (block data 0304301F, items
// 03043040, anchored objects, chunks/game/Challenge.cpp) in the versions and branches GBX.NET
// describes that no fixture here holds, written by BodyWriter: whole reads of exactly the layout's
// bytes (every shorter prefix stops with an error), and the reason where a reader stops.
#include <catch2/catch.hpp>

#include <functional>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

// Whether the file reads to its end with chunk `id` of the main node skipped by its size as a
// skippable chunk no reader knows (a version above what the sources describe).
bool skippedAsUnknown(const Bytes& data, std::uint32_t id) {
    MemorySource src(data);
    GbxFile f = readGbx(src);
    if (!f.nodesComplete || f.nodes.empty()) return false;
    for (const auto& c : f.nodes[0].chunks)
        if (c.id == id) return c.skippable && !c.known;
    return false;
}

void writeBadge(BodyWriter& w, std::uint32_t version) {
    w.u32(version);
    w.zeros(12);  // colour
    if (version == 0) {
        w.u32(7);
        w.string("badge");
    }
    w.u32(1);  // stickers
    w.string("a");
    w.string("b");
    w.u32(2);  // layers
    w.string("l1");
    w.string("l2");
}

// A node of record data (CPlugEntRecordData, version 10) as index `index`.
void writeRecordData(BodyWriter& w, std::uint32_t index) {
    w.newNode(index, 0x0911F000);
    w.chunk(0x0911F000);
    w.u32(10);
    w.u32(3);
    w.u32(3);
    w.zeros(3);
    w.endNode();
}

// A node of a data tape (CPlugDataTape 001) as index `index`.
void writeDataTape(BodyWriter& w, std::uint32_t index) {
    w.newNode(index, 0x090CE000);
    w.chunk(0x090CE001);
    w.u32(0);
    w.u32(1);
    w.u32(1);
    w.u32(5);
    w.u32(0);
    w.u32(2);
    w.zeros(2);
    w.u32(3);
    w.u32(1);
    w.zeros(1);
    w.endNode();
}

// CGameCtnMediaBlockEntity 000 of `version`, its record data as node 1.
BodyWriter entityBody(std::uint32_t version, bool withBadge, std::uint32_t badgeVersion = 0) {
    return test::oneChunkBody(0x0329F000, false, [=](BodyWriter& w) {
        w.u32(version);
        writeRecordData(w, 1);
        if (version <= 3) w.zeros(8);
        w.f32(0);
        w.u32(2);  // notice records
        w.zeros(8);
        if (version < 2) return;
        w.zeros(16);
        if (version <= 5) w.zeros(12);
        if (version < 3) return;
        if (version >= 11) w.u32(0);
        w.meta("CarSport", "Vehicles", "Nadeo");
        w.zeros(12);
        w.u32(1);
        w.fileRef(3, "Skins\\Models\\CarSport\\Skin.zip", "");
        w.boolean(withBadge);
        if (withBadge) writeBadge(w, badgeVersion);
        if (version < 4) return;
        if (version >= 11) w.string("options");
        std::size_t key = 8 + (version >= 6 ? 16 : 0) + (version >= 9 ? 4 : 0);
        w.u32(2);
        w.zeros(2 * key);
        if (version == 5) w.f32(1);
        if (version < 7) return;
        w.string("ghost");
        if (version < 8) return;
        w.u32(0);
        if (version >= 11) w.zeros(8);
    });
}

// A map body with 0304301F of `version` holding one block with `flags` and what they add.
BodyWriter blockDataBody(std::uint32_t version, std::uint32_t flags,
                         const std::function<void(BodyWriter&)>& extra) {
    BodyWriter w;
    w.chunk(0x0304301F);
    w.meta("uid", "Stadium", "author");
    w.string("map");
    w.meta("Day", "Stadium", "Nadeo");
    w.zeros(12);
    w.boolean(false);
    w.u32(version);
    w.u32(1);
    w.lookback("StadiumRoadMain");
    w.zeros(4);
    w.u32(flags);
    extra(w);
    w.endNode();
    return w;
}

// 03043040 of `version` holding one anchored object (03101002 version 8), encapsulated.
BodyWriter itemsBody(std::uint32_t version, std::int32_t sizeDelta = 0) {
    BodyWriter inner;
    inner.beginEncapsulation();
    inner.u32(10);
    inner.u32(1);
    inner.directNode(0x03101000);
    inner.chunk(0x03101002);
    inner.u32(8);
    inner.meta("Item", "Stadium", "author");
    inner.zeros(12);
    inner.zeros(3);
    inner.lookback("anchor");
    inner.zeros(12);
    inner.nullRef();  // waypoint property
    inner.u16(4);     // flags: a skin follows
    inner.zeros(12);  // pivot
    inner.f32(1);     // scale
    inner.fileRef(3, "Skins\\Any\\a.zip", "");
    inner.zeros(24);
    inner.beginSkippable(0x03101004);
    inner.u32(0);
    inner.u32(0xFFFFFFFF);
    inner.endSkippable();
    inner.endNode();
    if (version >= 1 && version != 5 && version < 8) inner.u32(0);
    if (version >= 5) {
        inner.u32(0);
        if (version < 7) inner.u32(0);
        if (version >= 6) inner.u32(0);
        if (version >= 7) inner.u32(0);
        if (version != 6) inner.u32(0);
        inner.u32(1);
        inner.u32(0xFFFFFFFF);
    }
    inner.endEncapsulation();
    BodyWriter w;
    w.beginSkippable(0x03043040);
    w.u32(version);
    w.u32(0);
    w.u32(std::uint32_t(std::int32_t(inner.size()) + sizeDelta));
    w.raw(inner.bytes());
    w.endSkippable();
    w.endNode();
    return w;
}

// CGameCtnGhost 000 of `version`; from version 5 its record data is node 1.
BodyWriter ghostBody(std::uint32_t version, std::uint32_t appearance, bool withBadge) {
    return test::oneChunkBody(0x03092000, true, [=](BodyWriter& w) {
        w.u32(version);
        if (version >= 9) w.u32(appearance);
        w.meta("CarSport", "Vehicles", "Nadeo");
        w.zeros(12);
        w.u32(0);  // skins
        w.boolean(withBadge);
        if (withBadge) writeBadge(w, 1);
        if (appearance >= 1) w.string("");
        w.string("nick");
        w.string("avatar");
        if (version < 2) return;
        w.string("context");
        if (version < 4) return;
        w.u32(2);
        if (version < 5) return;
        writeRecordData(w, 1);
        w.u32(1);
        w.u32(9);
        if (version < 6) return;
        w.string("ABC");
        if (version < 7) return;
        w.string("World");
        if (version < 8) return;
        w.string("CLUB");
    });
}

}  // namespace

TEST_CASE("media later: entity blocks of every version GBX.NET describes", "[gbx][media]") {
    for (std::uint32_t v = 0; v <= 11; ++v) {
        INFO("version " << v);
        test::NodeSummary s =
            test::readsWhole(test::builtFile(0x0329F000, entityBody(v, v >= 3, v % 2), 2));
        CHECK(s.classes ==
              std::vector<std::string>{"CGameCtnMediaBlockEntity", "CPlugEntRecordData"});
        if (v >= 3) CHECK(s.values["0:player model"] == "CarSport");
        if (v >= 7) CHECK(s.values["0:ghost name"] == "ghost");
    }
    CHECK_THAT(test::readError(test::builtFile(0x0329F000, entityBody(12, false), 2)),
               Catch::Contains("media block entity 0329F000 version 12 not supported (11 is the "
                               "highest any source describes)"));
    test::readsWhole(test::builtFile(
        0x0329F000,
        test::oneChunkBody(0x0329F002, false, [](BodyWriter& w) { w.string("options"); })));
}

TEST_CASE("media later: the later games' blocks and the older chunks", "[gbx][media]") {
    // Camera map.
    BodyWriter map;
    map.chunk(0x03139000);
    map.zeros(8);
    map.chunk(0x03139001);
    map.zeros(48);
    map.u8(1);
    map.zeros(12);
    map.fileRef(3, "Media\\Images\\map.dds", "");
    map.endNode();
    test::readsWhole(test::builtFile(0x03139000, map));
    // Bullet effects, character visibility, empty cars, turret: a data tape node.
    for (std::uint32_t cls : {0x03169000u, 0x0316A000u, 0x0325E000u, 0x03294000u}) {
        INFO(hex32(cls));
        BodyWriter w;
        w.chunk(cls);
        if (cls == 0x03294000)
            w.u32(0);
        else
            w.zeros(8);
        writeDataTape(w, 1);
        w.endNode();
        CHECK(test::readsWhole(test::builtFile(cls, w, 2)).classes.back() == "CPlugDataTape");
    }
    // Decal 2D: two images, one decal.
    test::readsWhole(
        test::builtFile(0x031AA000, test::oneChunkBody(0x031AA000, false, [](BodyWriter& w) {
                            w.zeros(8);
                            w.u32(2);
                            w.fileRef(3, "a.dds", "");
                            w.fileRef(3, "b.dds", "");
                            w.u32(1);
                            w.zeros(72);
                        })));
    // Object: version 0 the infos, version 1 a visibility data node.
    test::readsWhole(
        test::builtFile(0x03196000, test::oneChunkBody(0x03196000, false, [](BodyWriter& w) {
                            w.u32(0);
                            w.zeros(8);
                            w.u32(2);
                            w.zeros(48);
                        })));
    BodyWriter object = test::oneChunkBody(0x03196000, false, [](BodyWriter& w) {
        w.u32(1);
        w.zeros(8);
        w.newNode(1, 0x031A8000);
        w.chunk(0x031A8000);
        w.u32(0);
        w.u32(1);
        w.zeros(40);
        w.u32(1);
        w.zeros(20);
        w.endNode();
    });
    CHECK(test::readsWhole(test::builtFile(0x03196000, object, 2)).classes.back() ==
          "CGameReplayObjectVisData");
    // Opponent visibility, scenery.
    BodyWriter vis;
    vis.chunk(0x0338B000);
    vis.zeros(8);
    vis.chunk(0x0338B001);
    vis.u32(2);
    vis.endNode();
    test::readsWhole(test::builtFile(0x0338B000, vis));
    BodyWriter scenery;
    scenery.chunk(0x03188000);
    scenery.u32(1);
    scenery.u32(2);
    scenery.zeros(32);
    scenery.chunk(0x03188001);
    scenery.u32(0);
    scenery.u32(0);
    writeDataTape(scenery, 1);
    scenery.endNode();
    test::readsWhole(test::builtFile(0x03188000, scenery, 2));
    // Skeleton version 1; from version 2 the keys' layout is not decided.
    auto skel = [](std::uint32_t v) {
        return test::oneChunkBody(0x0314A000, false, [=](BodyWriter& w) {
            w.u32(v);
            w.u32(1);
            w.f32(0);
            w.u32(2);
            w.zeros(56);
            if (v >= 1) w.u32(0);
        });
    };
    test::readsWhole(test::builtFile(0x0314A000, skel(1)));
    CHECK_THAT(test::readError(test::builtFile(0x0314A000, skel(2))),
               Catch::Contains("media block skeleton 0314A000 version 2: whether its keys hold "
                               "the four floats GBX.NET gives keys of version 2 is not described"));
}

TEST_CASE("media later: camera path and simple camera share chunk IDs", "[gbx][media]") {
    BodyWriter path;
    path.chunk(0x030A1000);
    path.u32(1);
    path.zeros(80);
    path.chunk(0x030A1001);
    path.u32(2);
    path.zeros(160);
    path.chunk(0x030A1002);
    path.u32(1);
    path.zeros(80);
    path.endNode();
    test::readsWhole(test::builtFile(0x030A1000, path));
    BodyWriter simple;
    simple.chunk(0x030A1000);
    simple.u32(1);
    simple.zeros(65);
    simple.chunk(0x030A1001);
    simple.u32(0);
    simple.chunk(0x030A1002);
    simple.u32(2);
    simple.u32(2);
    simple.zeros(130);
    simple.zeros(8);
    simple.boolean(true);
    simple.endNode();
    test::readsWhole(test::builtFile(0x0309F000, simple));
    // Orbital 000, colours 000, image 001, music 000, triangles 002, sound 004 of both versions.
    test::readsWhole(
        test::builtFile(0x030A0000, test::oneChunkBody(0x030A0000, false, [](BodyWriter& w) {
                            w.u32(1);
                            w.zeros(41);
                        })));
    test::readsWhole(
        test::builtFile(0x03080000, test::oneChunkBody(0x03080001, false, [](BodyWriter& w) {
                            w.u32(1);
                            w.zeros(116);
                        })));
    test::readsWhole(test::builtFile(
        0x030A5000, test::oneChunkBody(0x030A5001, false, [](BodyWriter& w) { w.f32(0.2f); })));
    test::readsWhole(
        test::builtFile(0x030A6000, test::oneChunkBody(0x030A6000, false, [](BodyWriter& w) {
                            w.u32(2);
                            w.zeros(16);
                        })));
    test::readsWhole(test::builtFile(
        0x03029000, test::oneChunkBody(0x03029002, true, [](BodyWriter& w) { w.u32(0); })));
    for (std::uint32_t v : {0u, 1u})
        test::readsWhole(
            test::builtFile(0x030A7000, test::oneChunkBody(0x030A7004, false, [=](BodyWriter& w) {
                                w.fileRef(3, "Media\\Sounds\\a.ogg", "");
                                w.u32(v);
                                w.u32(2);
                                w.zeros(v == 0 ? 24 : 48);
                            })));
    CHECK_THAT(test::readError(
                   test::builtFile(0x030A7000, test::oneChunkBody(0x030A7004, false,
                                                                  [](BodyWriter& w) {
                                                                      w.fileRef(3, "a.ogg", "");
                                                                      w.u32(2);
                                                                      w.u32(0);
                                                                  }))),
               Catch::Contains("sound 030A7004 version 2 not supported"));
    // Game camera 03084007 version 4 (the fixtures' clip and map hold it); 5 is refused.
    auto camera = [](std::uint32_t v) {
        return test::oneChunkBody(0x03084007, false, [=](BodyWriter& w) {
            w.u32(v);
            w.zeros(8);
            w.u32(1);
            w.u32(0);
            w.zeros(44 + 12 + 4 + 4);
        });
    };
    test::readsWhole(test::builtFile(0x03084000, camera(4)));
    CHECK_THAT(test::readError(test::builtFile(0x03084000, camera(5))),
               Catch::Contains("game camera 03084007 version 5 not supported"));
}

TEST_CASE("map later: block flags of block data version 6, and version 1's bit 20", "[gbx][map]") {
    // Bits 15 (skin), 17 (decal), 18 (square card events), 19 (character physics property)
    // and 20 (waypoint property) together.
    BodyWriter all = blockDataBody(6, 0x1E8000, [](BodyWriter& w) {
        w.lookback("author");
        w.nullRef();  // skin
        w.newNode(1, 0x090F2000);
        w.chunk(0x090F2000);
        w.u32(4);
        w.u32(0);
        w.boolean(true);
        w.zeros(16);
        w.u32(0);
        w.zeros(16);
        w.u32(0);
        w.boolean(false);
        w.endNode();
        w.newNode(2, 0x2E009000);
        w.chunk(0x2E009000);
        w.u32(2);
        w.string("Checkpoint");
        w.u32(0);
        w.endNode();
        w.u32(1);  // square card event IDs
        w.zeros(8);
        w.u32(1);
        w.meta("a", "b", "c");
        w.lookback("Decal");  // decal ID, intensity, variant
        w.u32(1);
        w.u32(0xFFFFFFFF);
    });
    test::NodeSummary s = test::readsWhole(test::builtFile(0x03043000, all, 3));
    CHECK(s.classes == std::vector<std::string>{"CGameCtnChallenge", "CPlugCharPhySpecialProperty",
                                                "CGameWaypointSpecialProperty"});
    // Character physics property version 0: three floats, no int after the floats.
    BodyWriter v0 = blockDataBody(6, 0x80000, [](BodyWriter& w) {
        w.newNode(1, 0x090F2000);
        w.chunk(0x090F2000);
        w.u32(0);
        w.u32(0);
        w.zeros(12);
        w.boolean(false);
        w.zeros(16);
        w.endNode();
    });
    test::readsWhole(test::builtFile(0x03043000, v0, 2));
    CHECK_THAT(test::readError(test::builtFile(
                   0x03043000, blockDataBody(1, 0x100000, [](BodyWriter& w) { w.nullRef(); }))),
               Catch::Contains("block flags 00100000 in block data version 1: whether bit 20 "
                               "adds a waypoint property below version 2 is not decided "
                               "(GBX.NET's versions disagree)"));
    // Below version 2 bits 17 to 19 add nothing.
    test::readsWhole(test::builtFile(0x03043000, blockDataBody(1, 0xE0000, [](BodyWriter&) {})));
}

TEST_CASE("map later: items 03043040 in every version, anchored objects", "[gbx][map]") {
    for (std::uint32_t v = 0; v <= 8; ++v) {
        INFO("version " << v);
        test::NodeSummary s = test::readsWhole(test::builtFile(0x03043000, itemsBody(v)));
        CHECK(s.classes == std::vector<std::string>{"CGameCtnChallenge", "CGameCtnAnchoredObject"});
        CHECK(s.values["1:item"] == "Item");
    }
    // A later version of this skippable chunk is skipped by its size, as an unknown one.
    CHECK(skippedAsUnknown(test::builtFile(0x03043000, itemsBody(9)), 0x03043040));
    CHECK_THAT(test::readError(test::builtFile(0x03043000, itemsBody(8, 4))),
               Catch::Contains("items 03043040: the encapsulated part holds"));
}

TEST_CASE("ghost later: 03092000 in every version, the later chunks", "[gbx][ghost]") {
    for (std::uint32_t v = 0; v <= 9; ++v) {
        INFO("version " << v);
        test::NodeSummary s = test::readsWhole(
            test::builtFile(0x03092000, ghostBody(v, v == 9 ? 1 : 0, v % 2), v >= 5 ? 2 : 1));
        CHECK(s.values["0:nickname"] == "nick");
        CHECK(s.classes.size() == (v >= 5 ? 2u : 1u));
    }
    CHECK(skippedAsUnknown(test::builtFile(0x03092000, ghostBody(10, 0, false), 2), 0x03092000));

    BodyWriter w;
    auto chunk = [&](std::uint32_t id, const std::function<void()>& f) {
        w.beginSkippable(id);
        f();
        w.endSkippable();
    };
    auto inputs = [&] { test::validationInputs(w, "exe", "settings"); };
    chunk(0x0309201A, [&] { w.u32(3); });
    chunk(0x0309201D, [&] {
        w.u32(4);
        w.u32(1);
        w.zeros(12);  // version, an int, the start offset
        w.u32(0);     // ticks
        w.u32(2);
        w.zeros(2);
    });
    chunk(0x03092022, [&] {
        w.u32(2);
        w.u32(1);
        w.zeros(8);
        w.u8(1);
        w.zeros(16);
        w.u32(1);
        w.f32(0);
        w.string("s");
    });
    chunk(0x03092023, [&] {
        w.u32(3);
        w.string("a");
        w.u32(0);
        w.string("b");
        w.zeros(8);
        w.string("c");
        w.u32(0);
        w.string("d");
        w.u8(0);
        w.zeros(8);
        w.zeros(2);
    });
    chunk(0x03092024, [&] {
        w.u32(0);
        w.u32(1);
        w.zeros(8);
    });
    chunk(0x03092025, [&] {  // version 1: inputs whatever the duration
        w.u32(1);
        w.u32(0);
        inputs();
        w.u32(5);
        w.boolean(false);
    });
    chunk(0x03092026, [&] { w.zeros(16); });
    chunk(0x03092027, [&] {
        w.u32(3);
        w.u32(0);
        w.u32(1);
        w.u32(4);
        w.u32(0);
    });
    chunk(0x03092028, [&] {});  // no events: empty
    chunk(0x03092029, [&] {
        w.zeros(8);
        w.string("a");
        w.string("b");
        w.string("c");
    });
    chunk(0x0309202A, [&] { w.zeros(8); });
    chunk(0x0309202C, [&] { w.zeros(12); });
    chunk(0x0309202D, [&] {
        w.u32(0);
        w.string("exe");
        w.zeros(20);
        w.string("title");
        w.zeros(48);
        w.string("settings");
    });
    chunk(0x0309202E, [&] { w.string("x"); });
    // Version 0 of 025 with events: 019's layout and a bool; then 028 has the title.
    chunk(0x03092025, [&] {
        w.u32(0);
        w.u32(1000);
        inputs();
        w.u32(5);
        w.boolean(true);
    });
    chunk(0x03092028, [&] {
        w.string("TMStadium");
        w.zeros(32);
    });
    w.endNode();
    test::readsWhole(test::builtFile(0x03092000, w));

    auto settings = [](std::uint32_t v) {
        return test::oneChunkBody(0x03092022, true, [=](BodyWriter& b) {
            b.u32(v);
            b.u32(1);
            b.zeros(64);
        });
    };
    CHECK_THAT(test::readError(test::builtFile(0x03092000, settings(3))),
               Catch::Contains("ghost settings 03092022 version 3: whether its settings hold"));
    CHECK_THAT(test::readError(test::builtFile(0x03092000, test::oneChunkBody(0x0309202D, true,
                                                                              [](BodyWriter& b) {
                                                                                  b.u32(1);
                                                                                  b.zeros(64);
                                                                              }))),
               Catch::Contains("ghost validation 0309202D: inputs stored separately (1)"));
}
