// SPDX-License-Identifier: GPL-2.0-or-later
// The zone and vehicle model readers (gbx/chunks/game/Zone.cpp,
// gbx/chunks/gamedata/VehicleModel.cpp) on files built here in GBX.NET's layouts: whole parses, and
// the version no source describes stopping with the reason. The game's own files:
// tests/archive/entry/test_mp_control_pack.cpp.
#include <catch2/catch.hpp>

#include "common/ByteSource.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/GbxParse.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

Bytes vehicle(std::uint32_t version) {
    GbxBuilder b;
    b.classId = 0x2E01C000;
    b.numNodes = version == 2 ? 4 : 3;
    BodyWriter w;
    w.chunk(0x2E01C000);
    w.u32(version);
    w.nullRef();               // physics model
    w.newNode(1, 0x0701C000);  // any node stands for the visual model here
    w.endNode();
    w.u32(1);  // one occupant slot
    w.lookback("Driver");
    w.u32(1);
    w.newNode(2, 0x0701C000);  // its action model
    w.endNode();
    if (version >= 1) {
        w.u32(2);  // object models
        w.ref(1);
        w.nullRef();
    }
    if (version == 2) {
        w.newNode(3, 0x0701C000);
        w.endNode();
    }
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("zone: a flat zone's chunks read whole", "[gbx][zone]") {
    GbxBuilder b;
    b.classId = 0x0305D000;
    BodyWriter w;
    w.chunk(0x0305C003);
    w.u32(0);
    w.lookback("Grass");
    w.lookback("Grass");
    w.u32(0);
    w.beginSkippable(0x0305C004);
    w.u32(0);
    w.boolean(false);
    w.endSkippable();
    w.chunk(0x0305C005);
    w.boolean(true);
    w.chunk(0x0305C006);
    w.boolean(false);
    w.chunk(0x0305C007);
    w.f32(9.0f);
    w.chunk(0x0305C008);
    w.u32(1);
    w.chunk(0x0305C00B);
    w.lookback("Water");
    w.chunk(0x0305C00C);
    w.lookback("Grass");
    w.chunk(0x0305D001);
    for (int i = 0; i < 4; ++i) w.nullRef();
    w.beginSkippable(0x0305D002);
    w.u32(0);
    w.boolean(true);
    w.boolean(false);
    w.endSkippable();
    w.beginSkippable(0x0305D003);
    w.boolean(true);
    w.endSkippable();
    w.endNode();
    b.body = w.bytes();
    test::NodeSummary p = test::parseWhole(b.build());
    CHECK(p.classes == std::vector<std::string>{"CGameCtnZoneFlat"});
}

TEST_CASE("vehicle model: versions 0 to 2 read whole, a later one stops", "[gbx][zone]") {
    CHECK(test::parseWhole(vehicle(2)).classes ==
          std::vector<std::string>{"CGameVehicleModel", "CControlEffectMaster",
                                   "CControlEffectMaster", "CControlEffectMaster"});
    test::NodeSummary p = test::parseWhole(vehicle(1));
    CHECK(p.values["0:occupant slots"] == "1");
    Bytes later = vehicle(3);  // the source reads it in place
    MemorySource src(later);
    CHECK_THROWS_WITH(readGbx(src),
                      Catch::Contains("CGameVehicleModel 2E01C000 version 3 (2 is the highest any "
                                      "source describes)"));
}
