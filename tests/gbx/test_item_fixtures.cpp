// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet and Trackmania 2020 items and macroblocks of ../shared/fixtures/assets2 through
// `pak gbx info --nodes` (gbx/chunks/gamedata/Item.cpp, gbx/chunks/game/MacroBlock.cpp): how far
// each reads, and for those read whole, that a pak holding them with their bodies stored calls them
// parsed.
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

struct Whole {
    const char* file;
    int nodes;
};

// Files read whole: every chunk by a known reader, to the end of the body.
const std::vector<Whole> kWhole = {
    {"MP-CGameCtnMacroBlockInfo~AirCheckpoint.Macroblock.Gbx", 4},
    {"TM2020-CGameCtnMacroBlockInfo~StadiumCircuitBorderCornerOut.Macroblock.Gbx", 1},
    {"TM2020-CGameCtnMacroBlockInfo~StadiumCircuitBorderSlopeGTCurve3InLeftTop.Macroblock.Gbx", 1},
    {"TM2020-CGameCtnMacroBlockInfo~StadiumCircuitBorderSlopeStraightRight.Macroblock.Gbx", 1},
    {"MP-CGameItemModel~3_75x6_.Item.gbx", 4},
    {"MP-CGameItemModel~Ceiling_Circular_W2__11_14x14.Item.gbx", 4},
    {"MP-CGameItemModel~OffzoneShield.Item.gbx", 7},
};

struct Stop {
    const char* file;
    const char* nodesRead;
    const char* reason;  // after "stopped in the nodes: "
};

// Items that now read further, to a class no reader here knows or to data no source describes.
const std::vector<Stop> kStops = {
    // The block item made of crystals (MP-CGameItemModel~LauncherB1.Block.Gbx) is in
    // test_crystal_fixtures.cpp.
};

}  // namespace

TEST_CASE("item fixtures: macroblocks and items read whole with pak gbx info --nodes",
          "[gbx][item][fixtures]") {
    fs::path dir = sharedDir("fixtures/assets2");
    for (const auto& w : kWhole) {
        INFO(w.file);
        auto r =
            checkNodesRead(dir / w.file, "nodes read: " + std::to_string(w.nodes) + ", complete");
        CHECK(r.out.find(", unknown") == std::string::npos);  // no chunk skipped unread
    }
}

TEST_CASE("item fixtures: items that stop say exactly where and why", "[gbx][item][fixtures]") {
    fs::path dir = sharedDir("fixtures/assets2");
    for (const auto& s : kStops) {
        INFO(s.file);
        checkNodesRead(dir / s.file, s.nodesRead, s.reason);
    }
}

TEST_CASE("item fixtures: stored in a pak, the items and macroblocks read whole are parsed",
          "[gbx][item][fixtures]") {
    fs::path dir = sharedDir("fixtures/assets2");
    TempDir tmp;
    std::string want;
    for (const auto& w : kWhole)
        writeFile(tmp / "src" / "Items" / w.file,
                  storedForm(readFile(dir / w.file), BodyWas::compressed));
    // pak check lists the entries in path order.
    std::vector<std::string> names;
    for (const auto& w : kWhole) names.push_back(w.file);
    std::sort(names.begin(), names.end());
    for (const auto& n : names)
        want += "gbx parsed    Items/" + n +
                ": parsed by known chunk readers to the end, every node slot filled (no "
                "checksum: the parse is the proof)\n";
    const std::string n = std::to_string(kWhole.size());
    want += n + " files: 0 plain, " + n + " gbx (" + n +
            " parsed, 0 header, 0 exact, 0 verified, 0 refused), 0 undecodable\n";
    std::vector<std::string> paths;
    for (const auto& w : kWhole) paths.push_back(std::string("Items/") + w.file);
    checkStoredPak(tmp / "src", tmp / "items.pak", want, paths);
}
