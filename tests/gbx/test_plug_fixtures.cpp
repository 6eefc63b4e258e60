// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's chunk readers (gbx/chunks/plug/*.cpp) on the solids of the older games in
// ../shared/fixtures/assets: TrackMania Sunrise, TMSX, Nations ESWC, Forever and ManiaPlanet 4.
// Each must read whole: every node, every chunk known, every node slot filled, and the main node
// ending exactly at the end of the (LZO-decompressed or stored) body.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "gbx/GbxFile.hpp"
#include "tests/support/NodeSummary.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::gbx;
namespace fs = std::filesystem;

namespace {

using test::readFile;

struct SolidFixture {
    const char* file;
    const char* format;  // BUCR: LZO body, BUUR: stored
    std::size_t nodes;
    std::map<std::string, std::size_t> classes;  // nodes per class
    std::uint64_t vertices;                      // of every visual
    std::uint64_t indices;                       // of every index buffer
    std::vector<std::string> shapes;             // of the surface geometries, in node order
};

const std::vector<SolidFixture> kSolids = {
    {"Solids~1_TrackMania_Sunrise~Ground.Solid.Gbx",
     "BUCR",
     88,
     {{"CPlugSolid", 1},
      {"CPlugTree", 20},
      {"CPlugTreeLight", 35},
      {"CPlugTreeVisualMip", 1},
      {"CPlugVisualIndexedTriangles", 15},
      {"CPlugIndexBuffer", 15},
      {"CPlugSurfaceGeom", 1}},
     5254,
     13248,
     {"mesh of 2388 vertices, 3804 triangles"}},
    {"CPlugSolid~GBX-NET_2_CPlugSolid_TMSX_001.Solid.Gbx",
     "BUCR",
     79,
     {{"CPlugSolid", 1},
      {"CPlugTree", 17},
      {"CPlugTreeLight", 35},
      {"CPlugTreeVisualMip", 1},
      {"CPlugVisualIndexedTriangles", 12},
      {"CPlugIndexBuffer", 12},
      {"CPlugSurfaceGeom", 1}},
     5150,
     12996,
     {"mesh of 2312 vertices, 3720 triangles"}},
    {"CPlugSolid~GBX-NET_2_CPlugSolid_TMNESWC_001.Solid.Gbx",
     "BUCR",
     63,
     {{"CPlugSolid", 1},
      {"CPlugTree", 23},
      {"CPlugTreeVisualMip", 2},
      {"CPlugVisualIndexedTriangles", 18},
      {"CPlugIndexBuffer", 18},
      {"CPlugSurfaceGeom", 1}},
     6533,
     12516,
     {"mesh of 654 vertices, 1370 triangles"}},
    {"CPlugSolid~GBX-NET_2_CPlugSolid_TMF_001.Solid.Gbx",
     "BUUR",
     68,
     {{"CPlugSolid", 1},
      {"CPlugTree", 31},
      {"CPlugTreeLight", 16},
      {"CPlugTreeVisualMip", 2},
      {"CPlugVisualIndexedTriangles", 7},
      {"CPlugIndexBuffer", 7},
      {"CPlugSurface", 2},
      {"CPlugSurfaceGeom", 2}},
     1816,
     5496,
     {"mesh of 208 vertices, 376 triangles", "mesh of 496 vertices, 840 triangles"}},
    // ManiaPlanet 4: versioned visual headers (0900600F version 5, texture coordinate sets of
    // version 3), 09006010, 0900C003, 09005017 and 09005019.
    {"CPlugSolid~GBX-NET_2_CPlugSolid_MP4_001.Solid.Gbx",
     "BUUR",
     41,
     {{"CPlugSolid", 1},
      {"CPlugTree", 14},
      {"CPlugTreeLight", 4},
      {"CPlugTreeVisualMip", 1},
      {"CPlugVisualIndexedTriangles", 10},
      {"CPlugIndexBuffer", 10},
      {"CPlugSurface", 1}},
     8281,
     18510,
     {"mesh of 2291 vertices, 3990 triangles"}},
};

}  // namespace

TEST_CASE("plug fixtures: the games' solids read whole", "[gbx][plug][fixtures]") {
    fs::path dir = test::sharedDir("fixtures/assets");
    for (const auto& fx : kSolids) {
        INFO("fixture " << fx.file);
        Bytes data = readFile(dir / fx.file);
        REQUIRE(!data.empty());
        MemorySource src(data);
        GbxFile f = readGbx(src);
        CHECK(f.header.format == fx.format);
        REQUIRE(f.nodesComplete);
        CHECK(f.trailingBytes == 0);
        CHECK(f.unfilledSlots == 0);
        CHECK(f.nodes.size() == fx.nodes);
        test::NodeSummary s = test::summarize(f);
        CHECK(s.allChunksKnown);
        CHECK(s.allNodesComplete);
        std::map<std::string, std::size_t> classes;
        for (const auto& c : s.classes) ++classes[c];
        CHECK(classes == fx.classes);
        std::uint64_t vertices = 0, indices = 0;
        std::vector<std::string> shapes;
        for (const auto& n : f.nodes)
            for (const auto& [k, v] : n.values) {
                if (k == "vertices") vertices += std::stoull(v);
                if (k == "indices") indices += std::stoull(v);
                if (k == "shape") shapes.push_back(v);
            }
        CHECK(vertices == fx.vertices);
        CHECK(indices == fx.indices);
        CHECK(shapes == fx.shapes);
    }
}
