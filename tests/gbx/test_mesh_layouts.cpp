// SPDX-License-Identifier: GPL-2.0-or-later
// Meshes (CPlugSolid2Model), material instances (CPlugMaterialUserInst) and skeletons (CPlugSkel)
// in the versions no fixture here holds but GBX.NET describes, written by the project's
// BodyWriter: whole reads of exactly the bytes the layout takes (and an error for every shorter
// prefix), and the exact reason where a reader stops.
#include <catch2/catch.hpp>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

// Named around the anonymous part: the test files of a folder are built together (unity build).
namespace mesh_layouts {
namespace {

constexpr std::uint32_t kMesh = 0x090BB000;
constexpr std::uint32_t kMaterialInst = 0x090FD000;
constexpr std::uint32_t kSkel = 0x090BA000;
constexpr std::uint32_t kNoId = 0xFFFFFFFF;

void floatsOf(BodyWriter& w, int n) {
    for (int i = 0; i < n; ++i) w.f32(0.5f);
}

// A Trackmania 2020 material instance (version 11) using a game material: its link a string.
void materialInstance(BodyWriter& w) {
    w.chunk(0x090FD000);
    w.u32(11);
    w.u8(1);  // uses a game material
    w.lookback("Grass");
    w.lookbackRaw(kNoId);  // model
    w.string("");          // base texture
    w.u8(2);               // physics surface
    w.u8(0);               // gameplay surface
    w.string("Stadium\\Media\\Material\\Grass");
    w.u32(1);  // one constant: Id, Id, int
    w.lookback("Cst");
    w.lookbackRaw(kNoId);
    w.u32(7);
    w.u32(2);  // colours
    w.u32(0xFF00FF00);
    w.u32(0xFF0000FF);
    w.u32(1);  // one UV animation: Id, Id, float, u64, Id
    w.lookback("Anim");
    w.lookback("Cst");
    w.f32(1.5f);
    w.u64(99);
    w.lookbackRaw(kNoId);
    w.u32(1);  // Ids
    w.lookback("Grass");
    w.u32(1);  // one user texture
    w.u32(0);
    w.string("Grass.dds");
    w.lookback("Hidden");  // hiding group
    w.chunk(0x090FD001);
    w.u32(5);
    w.nullRef();  // bitmap atlas
    w.u32(0);     // tiling U
    w.u32(2);     // tiling V
    w.f32(8.0f);  // texture size in meters
    w.u32(1);
    w.boolean(true);
    w.chunk(0x090FD002);
    w.u32(0);
    w.u32(0);
    w.endNode();
}

// The start of a Trackmania 2020 mesh (version 34) through its material Ids: one shaded
// geometry, no visual, `customMaterials` counted before the materials array.
void meshStart(BodyWriter& w, std::uint32_t version, std::uint32_t customMaterials) {
    w.chunk(0x090BB000);
    w.u32(version);
    w.lookbackRaw(kNoId);
    w.u32(1);  // shaded geometries: visual, material, location, LOD mask, (32+) an int
    w.u32(0);
    w.u32(0);
    w.u32(kNoId);
    w.u32(kNoId);
    if (version >= 32) w.u32(0);
    w.u32(10);  // the visuals' deprecated array: none
    w.u32(0);
    w.u32(1);  // material Ids
    w.lookback("Grass");
    if (version >= 29) w.u32(customMaterials);
}

// From the skeleton to the string of version 14 of a mesh of version 19 or later, with `lights`
// lights.
void meshMiddle(BodyWriter& w, std::uint32_t lights) {
    w.nullRef();  // skeleton
    w.u32(2);     // LOD distances
    floatsOf(w, 2);
    w.u32(1);         // visibility type
    w.boolean(true);  // pre-lighting parameters, version 1
    w.u32(1);
    w.u32(0);
    w.f32(1.0f);
    w.boolean(false);
    floatsOf(w, 8);
    w.u32(1);  // sprite count
    w.u32(1);
    w.u32(1);  // one aligned box
    floatsOf(w, 6);
    w.u32(1);  // one UV group: five words
    floatsOf(w, 5);
    w.u64(0x01D0000000000000);  // file time
    w.string("");
    w.string("Stadium\\Media\\Material\\");  // materials folder
    w.string("");
    w.u32(lights);
    for (std::uint32_t i = 0; i < lights; ++i) {
        w.lookback("Light");
        w.boolean(false);
        w.string("Lamp");
        floatsOf(w, 12);
        for (int k = 0; k < 6; ++k) w.u32(0);
        w.boolean(true);
        floatsOf(w, 3);
    }
    w.u32(0);  // light user models
    w.u32(1);  // light instances: model and socket
    w.u32(0);
    w.u32(kNoId);
    w.u32(0);  // damage zone
    w.u32(0);  // flags
    w.u32(1);
    w.string("");
}

}  // namespace

TEST_CASE("mesh layouts: a Trackmania 2020 mesh (version 34) with a custom material instance",
          "[gbx][mesh]") {
    BodyWriter w;
    meshStart(w, 34, 1);  // one custom material: no materials array
    meshMiddle(w, 0);
    w.u32(0);      // (30+) an int
    w.string("");  // the custom material: no name, so a material instance node
    w.newNode(1, kMaterialInst);
    materialInstance(w);
    w.u32(1);  // joints
    w.lookback("Root");
    w.u32(1);  // ints
    w.u32(5);
    w.u32(0);  // the array [G] refuses when not empty
    w.u32(0);  // ints
    w.u32(3);
    w.nullRef();
    floatsOf(w, 2);
    w.lookbackRaw(kNoId);
    w.u32(0);  // the array [G] refuses when not empty
    w.u32(0);  // the last array
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(kMesh, w, 2));
    CHECK(s.classes == std::vector<std::string>{"CPlugSolid2Model", "CPlugMaterialUserInst"});
    CHECK(s.values["0:shaded geometries"] == "1");
    CHECK(s.values["0:visuals"] == "0");
    CHECK(s.values["0:custom materials"] == "1");
    CHECK(s.values["0:materials folder"] == "Stadium\\Media\\Material\\");
    CHECK(s.values["1:material"] == "Grass");
    CHECK(s.values["1:link"] == "Stadium\\Media\\Material\\Grass");
    CHECK(s.values["1:user textures"] == "1");
}

TEST_CASE("mesh layouts: a mesh before version 6 holds its visuals in its shaded geometries",
          "[gbx][mesh]") {
    BodyWriter w;
    w.chunk(0x090BB000);
    w.u32(0);
    w.lookbackRaw(kNoId);
    w.u32(1);  // one shaded geometry: the visual as a node, material index, location
    w.newNode(1, 0x0901E000);
    w.chunk(0x09006001);
    w.lookbackRaw(kNoId);
    w.endNode();
    w.u32(0);
    w.u32(kNoId);
    w.u32(0);  // material Ids
    w.u32(10);
    w.u32(0);     // materials
    w.nullRef();  // skeleton
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(kMesh, w, 2));
    CHECK(s.classes == std::vector<std::string>{"CPlugSolid2Model", "CPlugVisualIndexedTriangles"});
}

TEST_CASE("mesh layouts: where the sources leave a mesh's bytes open, the reader stops",
          "[gbx][mesh]") {
    // A light from version 26 on.
    BodyWriter light;
    meshStart(light, 26, 0);
    light.u32(10);
    light.u32(0);  // materials
    meshMiddle(light, 1);
    CHECK(test::readError(test::builtFile(kMesh, light)) ==
          "chunk 090BB000 of CPlugSolid2Model (090BB000) (chunk at offset 25): mesh 090BB000 "
          "version 26 with 1 light(s): whether a light has three more ints from version 26 is "
          "not settled (stopped at offset 273)");
    // The same light in version 25 reads whole.
    BodyWriter before;
    meshStart(before, 25, 0);
    before.u32(10);
    before.u32(0);
    meshMiddle(before, 1);
    before.u32(0);  // custom materials
    before.u32(0);  // joints
    before.u32(0);
    before.u32(0);
    before.u32(0);
    before.u32(0);
    before.nullRef();
    floatsOf(before, 2);
    before.endNode();
    CHECK(test::readsWhole(test::builtFile(kMesh, before)).values["0:lights"] == "1");
    // A version above 34.
    BodyWriter later;
    later.chunk(0x090BB000);
    later.u32(35);
    CHECK(test::readError(test::builtFile(kMesh, later)) ==
          "chunk 090BB000 of CPlugSolid2Model (090BB000) (chunk at offset 25): mesh 090BB000 "
          "version 35 not supported (34 is the highest any source describes) (stopped at "
          "offset 33)");
}

TEST_CASE("mesh layouts: material instances of ManiaPlanet's early versions link by Id",
          "[gbx][mesh]") {
    BodyWriter w;
    w.chunk(0x090FD000);
    w.u32(8);
    w.lookback("Wood");
    w.lookbackRaw(kNoId);
    w.string("");
    w.u8(1);
    w.lookback("Wood");  // link: an Id before version 9
    w.u32(0);
    w.u32(0);
    w.u32(0);
    w.u32(0);
    w.u32(0);
    w.lookbackRaw(kNoId);
    w.chunk(0x090FD001);
    w.u32(1);
    w.nullRef();
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(kMaterialInst, w));
    CHECK(s.values["0:material"] == "Wood");
    CHECK(s.values["0:link"] == "Wood");

    BodyWriter two;
    two.chunk(0x090FD001);
    two.u32(2);
    two.nullRef();
    CHECK(test::readError(test::builtFile(kMaterialInst, two)) ==
          "chunk 090FD001 of CPlugMaterialUserInst (090FD000) (chunk at offset 25): material "
          "instance 090FD001 version 2: its layout is not described (stopped at offset 37)");
}

TEST_CASE("skeleton layouts: version 20 reads whole, its undescribed branches stop",
          "[gbx][mesh]") {
    BodyWriter w;
    w.chunk(0x090BA000);
    w.u32(20);
    w.lookback("Skel");
    w.u16(2);  // joints: Id, parent, Iso4
    for (int i = 0; i < 2; ++i) {
        w.lookback(i ? "Hand" : "Root");
        w.u16(i ? 0 : 0xFFFF);
        floatsOf(w, 12);
    }
    w.boolean(false);
    w.u32(1);  // sockets: Id, a word, Iso4
    w.lookback("Socket");
    w.u16(1);
    floatsOf(w, 12);
    w.boolean(false);
    for (std::uint32_t size : {3u, 1u, 2u}) {  // three sized data
        w.u32(size);
        w.zeros(size);
    }
    w.u32(1);  // Vec3 array
    floatsOf(w, 3);
    w.u8(1);
    w.u32(4);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(kSkel, w));
    CHECK(s.values["0:skeleton"] == "Skel");
    CHECK(s.values["0:joints"] == "2");
    CHECK(s.values["0:sockets"] == "1");

    // Version 14 with joint expressions, whose layout no source gives.
    BodyWriter expr;
    expr.chunk(0x090BA000);
    expr.u32(14);
    expr.lookbackRaw(kNoId);
    expr.u16(0);
    expr.boolean(false);
    expr.u32(0);  // sockets
    expr.boolean(false);
    expr.u32(0);  // ints
    expr.u32(0);  // data
    expr.u32(0);
    expr.u32(1);  // one joint expression
    CHECK(test::readError(test::builtFile(kSkel, expr)) ==
          "chunk 090BA000 of CPlugSkel (090BA000) (chunk at offset 25): skeleton 090BA000 "
          "version 14: 1 joint expression(s), whose layout no source gives (stopped at offset "
          "71)");
    // The first flag set.
    BodyWriter flag;
    flag.chunk(0x090BA000);
    flag.u32(2);
    flag.lookbackRaw(kNoId);
    flag.u16(0);
    flag.boolean(true);
    CHECK(test::readError(test::builtFile(kSkel, flag)) ==
          "chunk 090BA000 of CPlugSkel (090BA000) (chunk at offset 25): skeleton 090BA000: the "
          "data after its first flag is not described (stopped at offset 47)");
}

}  // namespace mesh_layouts
