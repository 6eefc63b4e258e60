// SPDX-License-Identifier: GPL-2.0-or-later
// The engine-class chunk readers (gbx/chunks/plug/*.cpp, gbx/chunks/control/Control.cpp) on files
// the project generates in the game's shapes (gbx/EngineBuilder): whole parses, the values they
// note, and exact errors on the branches no source describes. The same readers on the game's
// own files: tests/archive/pak/test_real_pack.cpp.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "common/ByteSource.hpp"
#include "gbx/Classes.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/testing/EngineBuilder.hpp"
#include "tests/support/GbxParse.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

// Records the node reads and mid-chunk mixes the reader reports.
struct NodeReadAndMixRecorder : ReadObserver {
    std::vector<std::uint32_t> mixes;
    std::size_t nodeReads = 0;
    void onNodeRead(std::uint32_t, bool, std::int64_t) override { ++nodeReads; }
    void onCipherMix(std::uint32_t value, bool) override { mixes.push_back(value); }
};

// Replaces the first occurrence of `from` (a run of little-endian u32s) in file.
Bytes patched(Bytes file, std::initializer_list<std::uint32_t> from,
              std::initializer_list<std::uint32_t> to) {
    Bytes a, b;
    for (auto v : from)
        for (int i = 0; i < 4; ++i) a.push_back(std::uint8_t(v >> (8 * i)));
    for (auto v : to)
        for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
    REQUIRE(a.size() == b.size());
    auto it = std::search(file.begin(), file.end(), a.begin(), a.end());
    REQUIRE(it != file.end());
    std::copy(b.begin(), b.end(), it);
    return file;
}

}  // namespace

TEST_CASE("engine classes: a solid's tree, visual, index buffer, shader and surface read whole",
          "[gbx][engine]") {
    test::NodeSummary p = test::parseWhole(engine::solid());
    CHECK(p.classes == std::vector<std::string>{"CPlugSolid", "CPlugTree",
                                                "CPlugVisualIndexedTriangles", "CPlugIndexBuffer",
                                                "CPlugShaderApply", "CPlugSurface",
                                                "CPlugSurfaceGeom"});
    CHECK(p.values["0:tree"] == "node 1");
    CHECK(p.values["1:name"] == "Box01");
    CHECK(p.values["1:visual"] == "node 2");
    CHECK(p.values["1:shader"] == "node 3");
    CHECK(p.values["1:surface"] == "node 4");
    CHECK(p.values["2:vertices"] == "24");
    CHECK(p.values["3:indices"] == "36");
    CHECK(p.values["5:materials"] == "1");
    CHECK(p.values["6:shape"] == "box");

    engine::SolidSpec mesh;
    mesh.meshTriangles = 5;
    mesh.children = 3;
    mesh.vertices = 300;
    p = test::parseWhole(engine::solid(mesh));
    CHECK(p.classes.size() == 10);
    CHECK(p.values["1:children"] == "3");
    CHECK(p.values["5:vertices"] == "300");
    CHECK(p.values["9:shape"] == "mesh of 3 vertices, 5 triangles");
}

TEST_CASE("engine classes: the index buffer is read inline, without a node read", "[gbx][engine]") {
    NodeReadAndMixRecorder rec;
    Bytes file = engine::solid();
    MemorySource src(file);
    GbxFile f = readGbx(src, &rec);
    // CPlugSolid, CPlugTree, the visual, the shader, the surface and its geometry: 6 reads for
    // 7 nodes (the index buffer is its visual's own data).
    CHECK(f.nodes.size() == 7);
    CHECK(rec.nodeReads == 6);
    CHECK(f.nodes[3].slot == -1);
}

TEST_CASE("engine classes: CPlugSurfaceGeom 0900F004 mixes the box's minimum x into the cipher",
          "[gbx][engine]") {
    engine::SolidSpec spec;
    spec.box = {2.0f, 0, 0, 0.75f, 1, 1};
    NodeReadAndMixRecorder rec;
    Bytes file = engine::solid(spec);
    MemorySource src(file);
    readGbx(src, &rec);
    float minX = 2.0f - 0.75f;
    std::uint32_t bits;
    std::memcpy(&bits, &minX, 4);
    CHECK(rec.mixes == std::vector<std::uint32_t>{bits});
}

TEST_CASE("engine classes: bitmap, shader sprite, font and control style read whole",
          "[gbx][engine]") {
    test::NodeSummary p = test::parseWhole(engine::bitmap("Arrow.dds"));
    CHECK(p.classes == std::vector<std::string>{"CPlugBitmap"});
    CHECK(p.values["0:image"] == "node 1");

    p = test::parseWhole(engine::shaderSprite("Sprites.vsh.txt"));
    CHECK(p.classes == std::vector<std::string>{"CPlugShaderSprite", "CPlugShaderPass"});
    CHECK(p.values["0:passes"] == "1");

    p = test::parseWhole(engine::font(40));
    CHECK(p.classes ==
          std::vector<std::string>{"CPlugFontBitmap", "CPlugShaderApply", "CPlugBitmapApply"});
    CHECK(p.values["0:characters"] == "191");
    CHECK(p.values["0:kerning pairs"] == "2");
    CHECK(p.values["0:glyphs"] == "40");
    CHECK(p.values["0:pages"] == "1");
    CHECK(p.values["2:bitmap"] == "node 3");

    p = test::parseWhole(engine::controlStyle(4));
    CHECK(p.classes == std::vector<std::string>{
                           "CControlStyle", "CFuncEnum", "CPlugShaderApply", "CPlugShaderApply",
                           "CPlugShaderApply", "CPlugShaderApply", "CPlugMaterial",
                           "CPlugShaderApply", "CPlugMaterial", "CPlugShaderApply"});
    CHECK(p.values["0:font"] == "node 6");
    CHECK(p.values["0:button icons"] == "node 1");
    CHECK(p.values["0:focus material"] == "node 7");
    CHECK(p.values["0:focus material read-only"] == "node 9");
    CHECK(p.values["1:values"] == "4");
    CHECK(p.values["6:device shaders"] == "1");
}

TEST_CASE("engine classes: branches no source describes stop the reader with the reason",
          "[gbx][engine]") {
    // A texture coordinate set of version 3 (0900600E's fifth word) stores the vertex count
    // again: here the first coordinate (0) is read as that count.
    Bytes solid = engine::solid();
    CHECK_THAT(test::gbxParseError(patched(solid, {0x3B8, 1, 24, 0, 0}, {0x3B8, 1, 24, 0, 3})),
               Catch::Contains("chunk 0900600E of CPlugVisualIndexedTriangles (0901E000) (chunk "
                               "at offset 266): texture coordinate set of 0 for 24 vertices"));
    // Skin data (flag bits 0..2) in 0900600E: the source reads it as 0900600D's version but
    // names another.
    CHECK_THAT(test::gbxParseError(patched(solid, {0x3B8, 1, 24, 0}, {0x3B9, 1, 24, 0})),
               Catch::Contains("visual skin data in 0900600E: its version is not settled"));
    // A surface shape outside sphere, ellipsoid, box and mesh.
    CHECK_THAT(test::gbxParseError(patched(solid, {0x3F000000, 6}, {0x3F000000, 3})),
               Catch::Contains("surface shape 3 is not one the sources describe"));
    // A solid with a model (09005011).
    CHECK_THAT(test::gbxParseError(patched(solid, {0x09005011, 1, 0}, {0x09005011, 1, 1})),
               Catch::Contains("CPlugSolid 09005011 with a model: GBX.NET reads a flag then the "
                               "tree, the C reader a flag, the model and the tree only when the "
                               "model is not used"));
    // A font whose character map does not match its ranges.
    Bytes font = engine::font(10);
    CHECK_THAT(test::gbxParseError(patched(font, {0xA0, 0xFF}, {0xA0, 0xFE})),
               Catch::Contains("font maps 191 characters, its ranges hold 190"));
    // A hostile count: a glyph count the file cannot hold is refused before anything is read.
    CHECK_THAT(test::gbxParseError(patched(font, {3069, 2371, 10}, {3069, 2371, 0x7FFFFFFF})),
               Catch::Contains("array elements"));
}
