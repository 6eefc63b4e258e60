// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's chunk readers (gbx/chunks/plug/*.cpp) on the chunk versions that no fixture
// here holds but the public layouts describe (TrackMania 1.0's visual and tree chunks, skinned
// and streamed visuals, the later surface shapes), written by the project's BodyWriter: whole
// reads of exactly the bytes the layout takes (and an error for every shorter prefix), and the
// reason where a reader stops.
#include <catch2/catch.hpp>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

void floats(BodyWriter& w, int n, float v = 0.25f) {
    for (int i = 0; i < n; ++i) w.f32(v);
}

// A texture coordinate set of `version` (0..2) for `vertices` vertices.
void texCoords(BodyWriter& w, std::uint32_t version, std::uint32_t vertices) {
    w.u32(version);
    for (std::uint32_t i = 0; i < vertices; ++i) {
        floats(w, 2, float(i));
        for (std::uint32_t k = 0; k < version; ++k) w.u32(k);
    }
}

}  // namespace

TEST_CASE("plug layouts: a TrackMania 1.0 visual (09006008, 0902C003, 0906A000)", "[gbx][plug]") {
    BodyWriter w;
    w.chunk(0x09006006);
    w.boolean(true);  // vertex normals
    w.chunk(0x09006007);
    w.boolean(false);
    w.chunk(0x09006008);
    w.boolean(true);
    w.boolean(false);
    w.u32(2);  // texture coordinate sets
    w.u32(0);  // no skin
    w.u32(3);  // vertices
    texCoords(w, 1, 3);
    texCoords(w, 2, 3);
    w.boolean(true);
    w.u32(1);  // one Iso4
    floats(w, 12);
    w.chunk(0x0902C003);
    floats(w, 3 * 10);  // position, normal, a vector and a float per vertex
    w.u32(3);
    floats(w, 9);
    w.u32(0);
    w.chunk(0x0906A000);
    w.u32(3);
    for (std::uint16_t i : {0, 1, 2}) w.u16(i);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0901E000, w));
    CHECK(s.classes == std::vector<std::string>{"CPlugVisualIndexedTriangles"});
    CHECK(s.values["0:vertices"] == "3");
    CHECK(s.values["0:texture coordinate sets"] == "2");
    CHECK(s.values["0:indices"] == "3");

    // Skin data in 09006008: the layout does not describe it.
    BodyWriter skinned;
    skinned.chunk(0x09006008);
    skinned.boolean(true);
    skinned.boolean(false);
    skinned.u32(0);
    skinned.u32(1);
    skinned.u32(3);
    skinned.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0901E000, skinned)),
               Catch::Contains("chunk 09006008 of CPlugVisualIndexedTriangles (0901E000) (chunk "
                               "at offset 25): visual skin data in 09006008: not described"));
}

TEST_CASE("plug layouts: skinned visuals (0900600D, 0900600F) and their vertices (0902C004)",
          "[gbx][plug]") {
    // 0900600D: flags with skin bits, two bones.
    BodyWriter d;
    d.chunk(0x0900600D);
    d.u32(0x3B8 | 2);
    d.u32(1);
    d.u32(2);  // vertices
    d.u32(0);  // vertex streams
    texCoords(d, 0, 2);
    d.boolean(true);
    d.u32(7);
    d.u32(2);  // bones
    d.lookback("Bone01");
    d.lookback("Bone02");
    d.u32(2);
    d.u32(0);
    d.u32(1);
    floats(d, 6);  // bounding box
    d.chunk(0x0902C004);
    for (int i = 0; i < 2; ++i) {
        floats(d, 3);
        d.u32(0x00080400);  // packed normal
    }
    d.u32(2);  // tangents, packed
    d.u32(0);
    d.u32(0);
    d.u32(0);
    d.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0901E000, d));
    CHECK(s.values["0:bones"] == "2");
    CHECK(s.values["0:vertices"] == "2");

    // 0900600F version 6: skin data of version 8 (its two extra flags), UV groups and a sized
    // block; the flags ask for full-size normals and colours (no optional-attribute bit).
    BodyWriter f;
    f.chunk(0x0900600F);
    f.u32(6);
    f.u32(0x1);  // skin bit only
    f.u32(0);
    f.u32(1);  // one vertex
    f.u32(0);
    f.boolean(false);
    f.u32(0);
    f.boolean(false);
    f.boolean(true);
    f.u32(1);
    f.lookback("Root");
    f.u32(0);
    floats(f, 6);
    f.u32(0);  // bitmap elements to pack
    f.u32(2);  // UV groups
    f.u16(1);
    f.u16(2);
    f.u32(0);
    f.u32(8);  // a block of 8 - 4 bytes
    f.u32(0xDEADBEEF);
    f.chunk(0x0902C004);
    floats(f, 3 + 3 + 4);  // position, normal, colour
    f.u32(1);              // tangents, 12 bytes each
    floats(f, 3);
    f.u32(0);
    f.endNode();
    s = test::readsWhole(test::builtFile(0x0901E000, f));
    CHECK(s.values["0:bones"] == "1");

    // The same with the version past what the source describes.
    Bytes later = test::builtFile(0x0901E000, f);
    std::size_t at = 0;
    for (std::size_t i = 0; i + 8 <= later.size(); ++i)
        if (later[i] == 0x0F && later[i + 1] == 0x60 && later[i + 2] == 0x00 &&
            later[i + 3] == 0x09) {
            at = i + 4;
            break;
        }
    REQUIRE(at != 0);
    later[at] = 7;
    CHECK_THAT(test::readError(later),
               Catch::Contains("CPlugVisual 0900600F version 7 is not described"));

    // Tangents that are neither none nor one per vertex.
    BodyWriter t;
    t.chunk(0x0900600D);
    t.u32(0x3B8);
    t.u32(0);
    t.u32(2);
    t.u32(0);
    floats(t, 6);
    t.chunk(0x0902C004);
    floats(t, 2 * 4);
    t.u32(1);
    t.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0901E000, t)),
               Catch::Contains("visual with 1 tangents for 2 vertices"));
}

TEST_CASE("plug layouts: texture coordinate sets of version 3", "[gbx][plug]") {
    // Three vertices: kind 0x100 (no extra floats) and kind 1 (one float per vertex).
    BodyWriter w;
    w.chunk(0x0900600D);
    w.u32(0x3B8);
    w.u32(2);
    w.u32(3);
    w.u32(0);
    w.u32(3);
    w.u32(3);
    w.u32(0x100);
    floats(w, 3 * 2);
    w.u32(4);
    w.u32(3);
    w.u32(1);
    floats(w, 3 * 2 + 3);
    floats(w, 6);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0901E000, w));
    CHECK(s.values["0:texture coordinate sets"] == "2");

    // 200 vertices of kind 2: the source's expression gives (200 * 2) & 0xFF = 144 floats, the
    // per-vertex reading 400.
    BodyWriter k;
    k.chunk(0x0900600D);
    k.u32(0x3B8);
    k.u32(1);
    k.u32(200);
    k.u32(0);
    k.u32(3);
    k.u32(200);
    k.u32(2);
    k.zeros(200 * 16);
    k.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0901E000, k)),
               Catch::Contains("texture coordinate set version 3 with kind 00000002: the size of "
                               "its extra floats is not settled"));
}

TEST_CASE("plug layouts: a visual whose vertices are in vertex streams", "[gbx][plug]") {
    BodyWriter w;
    w.chunk(0x0900600D);
    w.u32(0x3B8);
    w.u32(0);
    w.u32(500);  // vertices, none of them in 0902C004
    w.u32(1);
    w.newNode(1, 0x09056000);  // CPlugVertexStream, no chunks
    w.endNode();
    floats(w, 6);
    w.chunk(0x0902C004);
    w.u32(0);
    w.u32(0);
    w.chunk(0x09006010);
    w.u32(0);
    w.u32(0);  // no morphs
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0901E000, w, 2));
    CHECK(s.values["0:vertex streams"] == "1");
    CHECK(s.values["0:vertices"] == "500");

    // A stream of version 1 with its own data: positions (offset 0), texture coordinates 0
    // (offset 12, in flags2 too) and colours.
    BodyWriter v;
    v.chunk(0x0900600D);
    v.u32(0x3B8);
    v.u32(0);
    v.u32(2);
    v.u32(1);
    v.newNode(1, 0x09056000);
    v.chunk(0x09056000);
    v.u32(1);
    v.u32(2);  // vertices
    v.u32(0);
    v.nullRef();
    v.u32(3);
    v.u32(0 | 2 << 9);  // position, Float3
    v.u32(0);
    v.u32(10 | 1 << 9);  // texture coordinates 0, Float2
    v.u32(12 << 2);
    v.u16(0);
    v.u16(12);
    v.u32(8 | 4 << 9);  // colour 0
    v.u32(20 << 2);
    v.u16(0);
    v.u16(20);
    v.boolean(false);
    floats(v, 2 * 3 + 2 * 2 + 2);
    v.endNode();
    floats(v, 6);
    v.endNode();
    s = test::readsWhole(test::builtFile(0x0901E000, v, 2));
    CHECK(s.values["1:attributes"] == "3");
    CHECK(s.values["1:vertices"] == "2");

    // A Float4 attribute: not described.
    BodyWriter f4;
    f4.chunk(0x09056000);
    f4.u32(1);
    f4.u32(2);
    f4.u32(0);
    f4.nullRef();
    f4.u32(1);
    f4.u32(8 | 3 << 9);
    f4.u32(0);
    f4.boolean(false);
    f4.zeros(32);
    f4.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x09056000, f4)),
               Catch::Contains("vertex stream attribute 8 of type 3 is not described"));

    BodyWriter m;
    m.chunk(0x09006010);
    m.u32(0);
    m.u32(2);
    m.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0901E000, m)),
               Catch::Contains("visual with 2 morphs: not described"));
}

TEST_CASE("plug layouts: TrackMania 1.0 and TMSX tree chunks (0904F00C, 0904F015, 0904F017)",
          "[gbx][plug]") {
    BodyWriter w;
    w.chunk(0x0904F00C);
    w.u32(0);
    w.chunk(0x0904F015);
    w.u32(0x20004);  // bit 2: a location follows; bits above 16 are dropped
    floats(w, 12);
    w.chunk(0x0904F017);
    w.nullRef();
    w.chunk(0x0904F015);
    w.u32(0x8);  // no location
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0904F000, w));
    CHECK(s.classes == std::vector<std::string>{"CPlugTree"});

    // 0904F00D's second entry, read as a node or as an Id by its sources: only empty is read.
    BodyWriter named;
    named.chunk(0x0904F00D);
    named.lookback("Tree");
    named.u32(0x40000000);
    named.string("Other");
    named.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0904F000, named)),
               Catch::Contains("CPlugTree 0904F00D second entry 40000000: its sources read it as "
                               "a node or an Id"));

    BodyWriter bad;
    bad.chunk(0x0904F00C);
    bad.u32(3);
    bad.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0904F000, bad)),
               Catch::Contains("chunk 0904F00C of CPlugTree (0904F000) (chunk at offset 25): "
                               "CPlugTree 0904F00C with 3 entries: not described"));
}

TEST_CASE("plug layouts: surface geometries of every described shape and mesh version",
          "[gbx][plug]") {
    // The old CPlugSurfaceGeom (0900D000): Id, bool, then 0900D002's mesh alone (version 7:
    // vertices and 16-byte triangles).
    BodyWriter old;
    old.chunk(0x0900C000);
    old.lookback("Geom");
    old.chunk(0x0900C001);
    old.boolean(false);
    old.chunk(0x0900D002);
    old.u32(7);
    old.u32(3);
    floats(old, 9);
    old.u32(1);
    old.u32(0);
    old.u32(1);
    old.u32(2);
    old.u32(0);  // two bytes and the surface ID
    old.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0900D000, old));
    CHECK(s.values["0:shape"] == "mesh of 3 vertices, 1 triangles");

    // 0900F002: a compound of a sphere and a version 5 mesh (cooked triangles, AABB cells),
    // one Iso4 each, then the surface ID.
    BodyWriter c;
    c.chunk(0x0900F002);
    c.u32(13);
    c.u32(2);
    c.u32(0);
    floats(c, 1);
    c.u32(7);
    c.u32(5);
    c.u32(1);
    floats(c, 3);
    c.u32(1);
    floats(c, 4);
    c.u32(0);
    c.u32(0);
    c.u32(0);
    c.u16(3);
    c.u8(0);
    c.u8(0);
    c.u32(1);
    c.u32(1);  // one AABB cell
    floats(c, 6);
    c.u32(0);
    floats(c, 2 * 12);
    c.u16(4);
    c.endNode();
    s = test::readsWhole(test::builtFile(0x0900F000, c));
    CHECK(s.values["0:shape"] == "compound of 2");

    // Mesh version 4 and octree version 1 stop with the reason.
    BodyWriter v4;
    v4.chunk(0x0900D002);
    v4.u32(4);
    v4.u32(0);
    v4.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0900D000, v4)),
               Catch::Contains("surface mesh version 4 is not one the sources describe"));
    BodyWriter o1;
    o1.chunk(0x0900D002);
    o1.u32(2);
    o1.u32(0);
    o1.u32(0);
    o1.u32(1);
    o1.u32(0);
    o1.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0900D000, o1)),
               Catch::Contains("surface mesh octree version 1: the order of its array's words "
                               "is not settled"));

    // Compounds nested past 8 levels.
    BodyWriter deep;
    deep.chunk(0x0900F002);
    for (int i = 0; i < 10; ++i) {
        deep.u32(13);
        deep.u32(1);
    }
    deep.zeros(64);
    deep.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x0900F000, deep)),
               Catch::Contains("surface compounds nest deeper than 8 levels"));
}

TEST_CASE("plug layouts: a sprite's parameters (09010008, CPlugSpriteParam)", "[gbx][plug]") {
    BodyWriter w;
    w.chunk(0x09010008);
    w.directNode(0x090AC000);
    w.chunk(0x090AC001);
    w.u32(1);
    floats(w, 7);  // 0x090AC000's data
    floats(w, 3);  // texture height, two distances
    w.endNode();
    w.chunk(0x09010009);
    w.u32(1);
    floats(w, 4);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x09010000, w));
    CHECK(s.classes.size() == 2);
}

TEST_CASE("plug layouts: ManiaPlanet's surface and solid chunks (0900C003, 09005017, 09005019)",
          "[gbx][plug]") {
    // 0900C003 version 1: surfVersion 1 (the box carries a surface index), one material by
    // surface ID, sized data, a skeleton.
    BodyWriter v1;
    v1.chunk(0x0900C003);
    v1.u32(1);
    v1.u32(6);
    floats(v1, 6);
    v1.u16(9);
    v1.u32(1);
    v1.boolean(false);
    v1.u16(2);
    v1.u32(3);
    v1.raw(Bytes{1, 2, 3});
    v1.nullRef();
    v1.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x0900C000, v1));
    CHECK(s.values["0:shape"] == "box");
    CHECK(s.values["0:materials"] == "1");

    // Version 5: surfVersion 2 (a gameplay direction after the shape), 16-bit words, Ids.
    BodyWriter v5;
    v5.chunk(0x0900C003);
    v5.u32(5);
    v5.u32(2);
    v5.u32(0);
    floats(v5, 1);
    v5.u16(1);
    floats(v5, 3);
    v5.u32(0);  // no materials
    v5.u32(1);
    v5.u16(7);
    v5.nullRef();
    v5.u32(1);
    v5.lookback("Skel");
    v5.endNode();
    s = test::readsWhole(test::builtFile(0x0900C000, v5));
    CHECK(s.values["0:shape"] == "sphere");

    // Version 4 with materials: a word after them (the 2020 prefab has it), then the words,
    // the skeleton.
    BodyWriter v4;
    v4.chunk(0x0900C003);
    v4.u32(4);
    v4.u32(0);
    v4.u32(0);
    floats(v4, 1);
    v4.u32(1);
    v4.boolean(false);
    v4.u16(2);
    v4.u32(0);  // the word after the materials
    v4.u32(0);  // no 16-bit words
    v4.nullRef();
    v4.endNode();
    s = test::readsWhole(test::builtFile(0x0900C000, v4));
    CHECK(s.values["0:shape"] == "sphere");
    CHECK(s.values["0:materials"] == "1");
    // Without the word, the skeleton's reference would be read from the words' count and the
    // body would end early.
    BodyWriter v4short;
    v4short.chunk(0x0900C003);
    v4short.u32(4);
    v4short.u32(0);
    v4short.u32(0);
    floats(v4short, 1);
    v4short.u32(1);
    v4short.boolean(false);
    v4short.u16(2);
    v4short.u32(0);
    v4short.nullRef();
    v4short.endNode();
    CHECK_FALSE(test::readError(test::builtFile(0x0900C000, v4short)).empty());

    // 09005017 versions 1 and 3, 09005019 version 5.
    BodyWriter solid;
    solid.chunk(0x09005017);
    solid.u32(1);
    solid.u8(1);
    floats(solid, 1);
    solid.boolean(true);
    floats(solid, 8);
    solid.u32(2);
    solid.u32(2);
    solid.u32(1);  // one box
    floats(solid, 6);
    solid.chunk(0x09005017);
    solid.u32(3);
    solid.boolean(true);
    solid.u32(1);  // parameters of version 1
    solid.u32(0);
    floats(solid, 1);
    solid.boolean(false);
    floats(solid, 8);
    solid.u32(0);
    solid.u32(0);
    solid.u32(0);  // no boxes
    solid.u32(1);  // one UV group
    floats(solid, 5);
    solid.u64(0x01D0000000000000);
    solid.chunk(0x09005019);
    solid.u32(5);
    solid.u32(10);
    solid.u32(0);
    solid.u32(10);
    solid.u32(0);
    solid.u32(1);
    solid.u32(0);
    floats(solid, 12);
    solid.u32(0);
    solid.u32(7);
    solid.u32(1);
    solid.lookback("Spot");
    solid.u32(1);
    floats(solid, 12);
    solid.string("name");
    solid.u32(0);
    solid.nullRef();
    solid.endNode();
    s = test::readsWhole(test::builtFile(0x09005000, solid));
    CHECK(s.classes == std::vector<std::string>{"CPlugSolid"});

    BodyWriter later;
    later.chunk(0x09005019);
    later.u32(6);
    later.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x09005000, later)),
               Catch::Contains("CPlugSolid 09005019 version 6 is not described"));
}

TEST_CASE("plug layouts: CPlugSolid 0900500B, whose sources disagree on its size, stops",
          "[gbx][plug]") {
    BodyWriter w;
    w.chunk(0x0900500B);
    w.zeros(32);
    w.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x09005000, w)),
               Catch::Contains("chunk 0900500B of CPlugSolid (09005000) (chunk at offset 25): "
                               "CPlugSolid 0900500B: its sources give it 28 and 32 bytes"));
}
