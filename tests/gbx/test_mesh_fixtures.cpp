// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet and Trackmania 2020 meshes, material instances and shapes with skeletons of
// ../shared/fixtures (gbx/chunks/plug/Mesh.cpp, gbx/chunks/plug/MaterialInst.cpp,
// gbx/chunks/plug/Skel.cpp) through `pak gbx info --nodes`: each reads whole, and a pak holding
// it with its body stored calls it parsed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/Cli.hpp"
#include "tests/support/GbxFixtures.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace fs = std::filesystem;

namespace {

struct MeshFixture {
    const char* file;  // under ../shared/fixtures
    int nodes;
};

const std::vector<MeshFixture> kMeshFixtures = {
    {"assets2/MP-CPlugSolid2Model~Ammo.Mesh.gbx", 3},
    {"assets2/MP-CPlugSolid2Model~OffzoneShield.Mesh.gbx", 3},
    {"assets2/MP-CPlugSolid2Model~xxx_Icon_Door_Segmental.Mesh.gbx", 4},
    {"assets/CPlugSolid2Model~GBX-NET_2_CPlugSolid2Model_MP4_001.Mesh.Gbx", 8},
    // An object info whose mesh is of version 5: its visual is a node inside the shaded geometry.
    {"assets2/MP-CGameItemModel~bridge1.ObjectInfo.gbx", 5},
    {"assets2/MP-CPlugMaterialUserInst~Decals.Mat.Gbx", 1},
    {"assets2/MP-CPlugMaterialUserInst~Ornament.Mat.Gbx", 1},
    {"assets2/MP-CPlugMaterialUserInst~RoofCastle.Mat.Gbx", 1},
    {"assets2/TM2020-CPlugMaterialUserInst~GrassTexGreenPhy.Mat.Gbx", 1},
    {"assets2/MP-CPlugSurface~3_75_.Shape.gbx", 2},
    {"assets2/MP-CPlugSurface~Arch_Base_Width1_Simple_Quarter__11.Shape.gbx", 2},
    {"assets2/MP-CPlugSurface~Wall_Normal_H20__22_2x8.Shape.gbx", 2},
};

// The node tree `pak gbx info --nodes` prints, from its "nodes read" line to the end.
std::string nodeTree(const fs::path& path) {
    auto r = run(kPak + " gbx info --nodes " + q(path));
    REQUIRE(r.code == 0);
    std::size_t at = r.out.find("nodes read: ");
    REQUIRE(at != std::string::npos);
    return r.out.substr(at);
}

}  // namespace

TEST_CASE("mesh fixtures: meshes, material instances and shapes read whole",
          "[gbx][mesh][fixtures]") {
    fs::path dir = sharedDir("fixtures");
    for (const auto& m : kMeshFixtures) {
        INFO(m.file);
        auto r =
            checkNodesRead(dir / m.file, "nodes read: " + std::to_string(m.nodes) + ", complete");
        CHECK(r.out.find(", unknown") == std::string::npos);  // no chunk skipped unread
    }
}

TEST_CASE("mesh fixtures: what the readers note of a mesh, a material and a skeleton",
          "[gbx][mesh][fixtures]") {
    fs::path dir = sharedDir("fixtures/assets2");
    CHECK(nodeTree(dir / "MP-CPlugSolid2Model~xxx_Icon_Door_Segmental.Mesh.gbx") ==
          "nodes read: 4, complete\n"
          "#0 [slot 0] CPlugSolid2Model (090BB000)\n"
          "  shaded geometries: 1\n"
          "  visuals: 1\n"
          "  materials folder: Storm\\Media\\Material\\\n"
          "  chunk 090BB000 at 0\n"
          "    #1 [slot 1] CPlugVisualIndexedTriangles (0901E000)\n"
          "      vertices: 36\n"
          "      texture coordinate sets: 2\n"
          "      chunk 09006001 at 52\n"
          "      chunk 09006004 at 60\n"
          "      chunk 09006005 at 68\n"
          "      chunk 09006009 at 76\n"
          "      chunk 0900600B at 84\n"
          "      chunk 0900600F at 92\n"
          "      chunk 09006010 at 748\n"
          "      chunk 0902C002 at 760\n"
          "      chunk 0902C004 at 768\n"
          "      chunk 0906A001 at 3084\n"
          "        #2 CPlugIndexBuffer (09057000)\n"
          "          indices: 36\n"
          "          chunk 09057000 at 3092\n"
          "    #3 [slot 2] CPlugMaterialUserInst (090FD000)\n"
          "      material: Transparents\n"
          "      link: Transparents\n"
          "      chunk 090FD000 at 3329\n");
    CHECK(nodeTree(dir / "TM2020-CPlugMaterialUserInst~GrassTexGreenPhy.Mat.Gbx") ==
          "nodes read: 1, complete\n"
          "#0 [slot 0] CPlugMaterialUserInst (090FD000)\n"
          "  model: TDSN\n"
          "  link: Stadium\\Media\\Material\\Grass\n"
          "  chunk 090FD000 at 0\n"
          "  chunk 090FD001 at 90\n"
          "  chunk 090FD002 at 122\n");
    CHECK(nodeTree(dir / "MP-CPlugSurface~Wall_Normal_H20__22_2x8.Shape.gbx") ==
          "nodes read: 2, complete\n"
          "#0 [slot 0] CPlugSurface (0900C000)\n"
          "  shape: mesh of 18 vertices, 32 triangles\n"
          "  materials: 3\n"
          "  chunk 0900C003 at 0\n"
          "    #1 [slot 1] CPlugSkel (090BA000)\n"
          "      joints: 1\n"
          "      chunk 090BA000 at 793\n");
}

TEST_CASE("mesh fixtures: stored in a pak, the meshes, materials and shapes are parsed",
          "[gbx][mesh][fixtures]") {
    fs::path dir = sharedDir("fixtures");
    TempDir tmp;
    std::vector<std::string> names;
    for (const auto& m : kMeshFixtures) {
        std::string name = fs::path(m.file).filename().string();
        writeFile(tmp / "src" / "Media" / name, storedForm(readFile(dir / m.file)));
        names.push_back(name);
    }
    // pak check lists the entries in path order.
    std::sort(names.begin(), names.end());
    std::string want;
    for (const auto& n : names)
        want += "gbx parsed    Media/" + n +
                ": parsed by known chunk readers to the end, every node slot filled (no "
                "checksum: the parse is the proof)\n";
    want +=
        "12 files: 0 plain, 12 gbx (12 parsed, 0 header, 0 exact, 0 verified, 0 refused), 0 "
        "undecodable\n";
    std::vector<std::string> paths;
    for (const auto& n : names) paths.push_back("Media/" + n);
    test::checkStoredPak(tmp / "src", tmp / "meshes.pak", want, paths);
}
