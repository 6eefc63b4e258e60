// SPDX-License-Identifier: GPL-2.0-or-later
// gbx files of the engine classes through the game's pipeline: packed by the writer (planned
// from the chunk readers, not the node scan) and read back parsed, stored and compressed; the
// mid-chunk ivXor of CPlugSurfaceGeom 0900F004 in the writer's schedule.
#include <catch2/catch.hpp>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "gbx/testing/EngineBuilder.hpp"
#include "tests/support/PackWarnings.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace engine = pakfs::gbx::engine;

namespace {}  // namespace

TEST_CASE("engine pipeline: engine-class files pack without the scan and read back parsed",
          "[gbx-pipeline][engine]") {
    test::TempDir tree, out;
    for (std::uint32_t i = 0; i < 12; ++i) {
        engine::SolidSpec s;
        s.treeName = "Part" + std::to_string(i);
        s.vertices = 8 + 37 * i;  // node reads move across 256- and 0x400-byte boundaries
        s.indices = 6 + 11 * i;
        s.children = i % 4;
        s.meshTriangles = i % 3 == 0 ? 0 : 20 * i;
        s.box = {float(i), 0, 0, 0.25f * float(i + 1), 1, 1};
        test::writeFile(tree / "Media/Solid" / ("S" + std::to_string(i) + ".Solid.Gbx"),
                        engine::solid(s));
    }
    test::writeFile(tree / "Media/Texture/Arrow.Texture.Gbx", engine::bitmap("Arrow.dds"));
    test::writeFile(tree / "Media/Shader/Default.ShaderSprite.Gbx",
                    engine::shaderSprite("Sprites.vsh.txt"));
    test::writeFile(tree / "Media/Font/Arial.Font.Gbx", engine::font(300));
    test::writeFile(tree / "Media/ControlStyle/Default.ControlStyle.Gbx", engine::controlStyle(6));
    for (int level : {0, 9}) {
        INFO("level " << level);
        PackOptions o;
        o.level = level;
        const auto warnings = test::packWarnings(tree.path(), out / "e.pak", test::testKey(), o);
        CHECK(warnings.empty());  // nothing planned from the node scan
        auto pak = PakIndex::open(out / "e.pak", test::testKey());
        REQUIRE(pak->entries().size() == 16);
        for (const auto& e : pak->entries()) {
            INFO(e.path);
            REQUIRE(isGbxEntry(*pak, e));
            CHECK(e.compressed() == (level != 0));
            GbxDecode d = decodeGbxEntryProven(pak, e);
            CHECK(d.kind == GbxDecodeKind::Parsed);
            CHECK(d.bytes == test::readFile(tree / e.path));
        }
    }
}

TEST_CASE("engine pipeline: the writer's schedule folds box[0] - box[3] of 0900F004",
          "[gbx-pipeline][engine]") {
    // A stored solid whose surface geometry is read early, then a long mesh: the mix lands on
    // the segment refilled after it, so the schedule shows it.
    auto plan = [](std::array<float, 6> box) {
        engine::SolidSpec s;
        s.vertices = 4;
        s.indices = 6;
        s.meshTriangles = 64;
        s.box = box;
        Bytes file = engine::solid(s);
        return planGbxEntry(file, file, false, "m.Solid.Gbx").ivXorPerSegment;
    };
    auto a = plan({1.0f, 0, 0, 0.5f, 1, 1});
    auto sameMinX = plan({1.5f, 7, 7, 1.0f, 9, 9});    // 1.0 - 0.5 == 1.5 - 1.0
    auto otherMinX = plan({1.0f, 0, 0, 0.25f, 1, 1});  // 0.75
    REQUIRE(a.size() > 4);
    CHECK(a == sameMinX);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != otherMinX[i]) ++differ;
    CHECK(differ == 1);
    // And the pak written with it reads back parsed.
    test::TempDir tree, out;
    engine::SolidSpec s;
    s.meshTriangles = 64;
    test::writeFile(tree / "m.Solid.Gbx", engine::solid(s));
    PackOptions o;
    o.level = 0;
    writePak(tree.path(), out / "m.pak", test::testKey(), o);
    auto pak = PakIndex::open(out / "m.pak", test::testKey());
    GbxDecode d = decodeGbxEntryProven(pak, pak->entries().at(0));
    CHECK(d.kind == GbxDecodeKind::Parsed);
    CHECK(d.bytes == test::readFile(tree / "m.Solid.Gbx"));
}
