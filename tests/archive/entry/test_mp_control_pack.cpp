// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's own pack (../shared/fixtures/real-mp/dedicated.pak): its control styles, control
// effect masters and node buffers read whole where every class they hold has a reader, and a
// file that stops names a chunk of another class. The key comes from the fixture's README.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/ops/PakOpener.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

// The base key the fixture's README gives (the project ships no game's keys).
std::string readmeBaseKey(const std::filesystem::path& dir) {
    std::ifstream in(dir / "README.md");
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    std::string s = text.str();
    REQUIRE(
        std::regex_search(s, m, std::regex("base key of pack \"dedicated\", `([0-9A-F]{32})`")));
    return m[1];
}

struct Counts {
    int parsed = 0, exact = 0, refused = 0;
};

}  // namespace

TEST_CASE("ManiaPlanet's pack: control styles, effect masters and node buffers read whole",
          "[real-mp][fixtures]") {
    auto dir = test::sharedDir("fixtures/real-mp");
    KeyOptions keys;
    keys.baseKeyHex = readmeBaseKey(dir);
    auto pak = openPak(dir / "dedicated.pak", keys).pak;
    const std::map<std::uint32_t, const char*> mine = {{0x07017000, "CControlStyle"},
                                                       {0x0701C000, "CControlEffectMaster"},
                                                       {0x01026000, "CMwRefBuffer"}};
    std::map<std::uint32_t, Counts> counts;
    for (const auto& e : pak->entries()) {
        if (!mine.count(e.classId) || !isGbxEntry(*pak, e)) continue;
        INFO(e.path);
        GbxDecode d = decodeGbxEntryProven(pak, e);
        Counts& c = counts[e.classId];
        if (d.kind == GbxDecodeKind::Parsed) {
            ++c.parsed;
        } else if (d.kind == GbxDecodeKind::Exact) {
            ++c.exact;
        } else {
            REQUIRE(d.kind == GbxDecodeKind::Refused);
            ++c.refused;
            // What stops is a class other than these three.
            for (const auto& [id, name] : mine) CHECK_THAT(d.detail, !Catch::Contains(name));
        }
    }
    // Styles 133 of 135 parsed (1 exact), effect masters 7 of 8 (1 exact), buffers 17 of 18;
    // the style left stops in a shader chunk, the buffer in a bullet model. Readers of those
    // classes raise the counts, never lower them.
    CHECK(counts[0x07017000].parsed >= 133);
    CHECK(counts[0x07017000].parsed + counts[0x07017000].exact + counts[0x07017000].refused == 135);
    CHECK(counts[0x0701C000].parsed >= 7);
    CHECK(counts[0x0701C000].refused == 0);
    CHECK(counts[0x01026000].parsed + counts[0x01026000].exact >= 17);
}

TEST_CASE("ManiaPlanet's pack: vehicle models and a collection's zones read whole",
          "[real-mp][fixtures]") {
    auto dir = test::sharedDir("fixtures/real-mp");
    KeyOptions keys;
    keys.baseKeyHex = readmeBaseKey(dir);
    PakOpenOptions names;
    names.resolveNames = true;  // the vehicles and collections are known by their real paths
    auto pak = openPak(dir / "dedicated.pak", keys, names).pak;
    int vehicles = 0;
    for (const auto& e : pak->entries()) {
        std::string path = e.path;
        bool vehicle = path.rfind("Trackmania/Items/Vehicles/", 0) == 0 &&
                       path.find("Car.ObjectInfo.Gbx") != std::string::npos;
        if (!vehicle && path != "ShootMania/Common.Collection.Gbx") continue;
        INFO(path);
        GbxDecode d = decodeGbxEntryProven(pak, e);
        if (vehicle) {
            ++vehicles;
            CHECK(d.kind == GbxDecodeKind::Parsed);
        } else {
            // Its zones read; no node is read that the reader does not see.
            CHECK(d.kind == GbxDecodeKind::Exact);
        }
    }
    CHECK(vehicles == 11);
}
