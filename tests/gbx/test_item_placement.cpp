// SPDX-License-Identifier: GPL-2.0-or-later
// The classes items and block infos hold that are read without chunk IDs
// (gbx/chunks/plug/ItemPlacement.cpp): the placement class of the Trackmania 2020 item fixtures,
// and crafted bodies for what no fixture holds: each version of the placement class, a block item's
// and an entity model's static object model, a mobil's dyna links, with back and external
// references, and the exact reason where a reader stops.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/gbx/BuiltGbx.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/GbxFixtures.hpp"
#include "tests/support/NodeSummary.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::gbx;
using namespace pakfs::test;
namespace fs = std::filesystem;

// Named, not anonymous: the test files of a folder are built together (unity build).
namespace item_placement {

struct Fixture {
    const char* file;  // under ../shared/fixtures
    const char* nodesRead;
};

// The four items that stopped at their placement class (NPlugItemPlacement_SClass).
const std::vector<Fixture> kFixtures = {
    {"assets2/TM2020-CGameItemModel~Base.Item.Gbx", "nodes read: 7, complete"},
    {"assets2/TM2020-CGameItemModel~GroundDefault_0_0.Item.Gbx", "nodes read: 6, complete"},
    {"assets2/TM2020-CGameItemModel~Ground_12_0.Item.Gbx", "nodes read: 8, complete"},
    {"gbx/GBX-NET 2 CGameItemModel TM2020 005.Item.Gbx", "nodes read: 6, complete"},
};

// A body that must read whole: every node complete and known, nothing after the main node.
NodeSummary whole(const GbxFile& f) {
    INFO((f.failure ? f.failure->message : std::string("ok")));
    REQUIRE_FALSE(f.failure);
    CHECK(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
    CHECK(f.unfilledSlots == 0);
    NodeSummary s = summarize(f);
    CHECK(s.allNodesComplete);
    CHECK(s.allChunksKnown);
    return s;
}

// A placement class body of version v: a size group, two compatible groups, the three flags, a
// world direction, one patch layout (applying to the first group again: a lookback back
// reference) and two current patch layouts.
void placementClassBody(BodyWriter& w, std::uint32_t v) {
    w.u32(v);
    w.lookback("Size4");
    w.u32(2);
    w.lookback("Road");
    w.lookback("Deco");
    w.boolean(true);
    w.boolean(false);
    w.boolean(true);
    for (float f : {0.0f, 1.0f, 0.0f}) w.f32(f);
    w.u32(1);
    w.u32(3);     // item count
    w.f32(2.0f);  // item spacing
    w.u32(1);     // fill alignment
    w.u32(0);     // fill direction
    w.f32(0.5f);
    w.f32(0.0f);
    w.u32(1);
    w.lookback("Road");
    w.f32(1.0f);  // altitude
    w.f32(0.0f);
    w.u32(2);
    w.u32(0);
    w.u32(1);
}

// A CGameItemPlacementParam whose 2E020005 holds a placement class of version v (node 1).
BodyWriter placementParam(std::uint32_t v) {
    BodyWriter w;
    w.beginSkippable(0x2E020005);
    w.newNode(1, 0x09187000);
    placementClassBody(w, v);
    w.endSkippable();
    w.endNode();
    return w;
}

// A CPlugStaticObjectModel body (node `index`) with null mesh, not collidable, null shape.
void staticObjectModel(BodyWriter& w, std::uint32_t index) {
    w.newNode(index, 0x09159000);
    w.u32(0);
    w.nullRef();  // mesh
    w.u8(0);      // not collidable: the shape follows
    w.nullRef();
}

// Writes a dyna link of version v: its socket, its object model (a new node `model`, or a back
// reference to it when `back`), and in version 0 a null node.
void mobilLink(BodyWriter& w, std::uint32_t index, std::uint32_t v, std::uint32_t model,
               bool back) {
    w.newNode(index, 0x03192000);
    w.u32(v);
    w.lookback("Socket");
    if (back) {
        w.ref(model);
    } else {
        w.newNode(model, 0x2E01D000);  // CGameObjectModel: any chunked node will do
        w.endNode();
    }
    if (v == 0) w.nullRef();
}

TEST_CASE("item placement fixtures: the Trackmania 2020 items read whole",
          "[gbx][item][placement][fixtures]") {
    fs::path dir = sharedDir("fixtures");
    for (const Fixture& fx : kFixtures) {
        INFO(fx.file);
        auto r = checkNodesRead(dir / fx.file, fx.nodesRead);
        CHECK(r.out.find("NPlugItemPlacement_SClass (09187000)") != std::string::npos);
    }
}

TEST_CASE("item placement: a placement class of version 10 reads whole", "[gbx][item][placement]") {
    NodeSummary s = whole(readMain(0x2E020000, 2, placementParam(10)));
    REQUIRE(s.classes.size() == 2);
    CHECK(s.classes[1] == "NPlugItemPlacement_SClass");
    CHECK(s.values["1:size group"] == "Size4");
    CHECK(s.values["1:patch layouts"] == "1");
}

TEST_CASE("item placement: every shorter placement class stops", "[gbx][item][placement]") {
    BodyWriter w = placementParam(10);
    GbxBuilder b;
    b.classId = 0x2E020000;
    b.numNodes = 2;
    b.body = w.bytes();
    Bytes data = b.build();
    for (std::size_t n = b.bodyOffset(); n < data.size(); ++n) {
        MemorySource cut(ByteSpan(data).first(n));
        GbxFile partial = readGbxPartial(cut);
        if (!partial.failure) FAIL("cut at " << n << " of " << data.size() << " read whole");
    }
}

TEST_CASE("item placement: another version of the placement class stops with the reason",
          "[gbx][item][placement]") {
    for (std::uint32_t v : {0u, 9u, 11u}) {
        INFO("version " << v);
        CHECK(failureOf(readMain(0x2E020000, 2, placementParam(v))) ==
              "body of NPlugItemPlacement_SClass (09187000) (no chunk IDs, at offset 45): "
              "NPlugItemPlacement_SClass version " +
                  std::to_string(v) +
                  ": GBX.NET reads every version in one layout, the gbx crate only version 10, "
                  "and no file here decides (stopped at offset 49)");
    }
}

TEST_CASE("item placement: the placement class as an external reference",
          "[gbx][item][placement]") {
    RefTable refs;
    ExternalRef e;
    e.name = "Placement.Gbx";
    e.nodeIndex = 1;
    e.folderIndex = 0;
    refs.externals.push_back(e);
    BodyWriter w;
    w.beginSkippable(0x2E020005);
    w.ref(1);
    w.endSkippable();
    w.endNode();
    GbxFile f = readMain(0x2E020000, 2, w, refs);
    whole(f);
    REQUIRE(f.nodes.size() == 1);
    REQUIRE(f.nodes[0].chunks.size() == 1);
    REQUIRE(f.nodes[0].chunks[0].refs.size() == 1);
    CHECK(f.nodes[0].chunks[0].refs[0].kind == RefKind::External);
}

TEST_CASE("item placement: a block item variant's static object model", "[gbx][item]") {
    BodyWriter w;
    w.chunk(0x2E025000);
    w.u32(1);
    w.lookback("RoadTechStraight");
    w.lookback("Stadium");
    w.u32(2);  // variants: ID, crystal
    w.u32(0);
    w.nullRef();
    w.u32(1);
    w.nullRef();
    w.u8(1);  // properties follow
    w.u8(1 | 2);
    staticObjectModel(w, 1);
    w.nullRef();  // shape
    w.u8(1);
    w.ref(1);  // the same static object model: a back reference
    w.endNode();
    NodeSummary s = whole(readMain(0x2E025000, 2, w));
    CHECK(s.classes == std::vector<std::string>{"CGameBlockItem", "CPlugStaticObjectModel"});
}

TEST_CASE("item placement: an entity model's static object model", "[gbx][item]") {
    for (std::uint32_t v : {4u, 5u}) {
        INFO("2E027000 version " << v);
        BodyWriter w;
        w.chunk(0x2E027000);
        w.u32(v);
        staticObjectModel(w, 1);
        w.nullRef();  // trigger shape
        w.zeros(48);
        w.nullRef();  // particle emitter model
        w.u32(0);     // actions
        w.nullRef();
        for (int i = 0; i < 5; ++i) w.string("");
        w.zeros(48);
        w.u32(0);
        if (v >= 5) w.u8(1);
        w.endNode();
        NodeSummary s = whole(readMain(0x2E027000, 2, w));
        CHECK(s.classes ==
              std::vector<std::string>{"CGameCommonItemEntityModel", "CPlugStaticObjectModel"});
    }
}

TEST_CASE("item placement: a mobil's dyna links in both versions GBX.NET describes",
          "[gbx][item][blockinfo]") {
    BodyWriter w;
    w.chunk(0x03122004);
    w.u32(0);   // version
    w.u32(10);  // array version
    w.u32(3);
    mobilLink(w, 1, 0, 2, false);
    mobilLink(w, 3, 1, 2, true);  // the first link's model again
    w.nullRef();
    w.endNode();
    NodeSummary s = whole(readMain(0x03122000, 4, w));
    CHECK(s.classes == std::vector<std::string>{"CGameCtnBlockInfoMobil",
                                                "CGameCtnBlockInfoMobilLink", "CGameObjectModel",
                                                "CGameCtnBlockInfoMobilLink"});
    CHECK(s.values["1:socket"] == "Socket");

    BodyWriter later;
    later.chunk(0x03122004);
    later.u32(0);
    later.u32(10);
    later.u32(1);
    mobilLink(later, 1, 2, 2, false);
    later.nullRef();
    later.endNode();
    CHECK_THAT(failureOf(readMain(0x03122000, 3, later)),
               Catch::Contains("CGameCtnBlockInfoMobilLink version 2 not supported (1 is the "
                               "highest any source describes)"));
}

}  // namespace item_placement
