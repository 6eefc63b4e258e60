// SPDX-License-Identifier: GPL-2.0-or-later
// The vehicle classes of the ManiaPlanet pack the game wrote (../shared/fixtures/real-mp):
// which of their files the readers prove, and why the others stop.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

// The pack's base key, as its README gives it (the project keeps no game key).
std::string baseKeyFromReadme(const std::filesystem::path& dir) {
    std::ifstream in(dir / "README.md");
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    const std::string s = text.str();
    if (!std::regex_search(s, m, std::regex("base key of pack \"dedicated\", `([0-9A-Fa-f]{32})`")))
        FAIL("no base key in " << (dir / "README.md").string());
    return m[1];
}

std::shared_ptr<const PakIndex> openDedicated() {
    const auto dir = test::sharedDir("fixtures/real-mp");
    KeyOptions keys;
    keys.baseKeyHex = baseKeyFromReadme(dir);
    const auto path = dir / "dedicated.pak";
    return PakIndex::open(path, resolvePakKey(path, keys));
}

}  // namespace

TEST_CASE("ManiaPlanet pack: skins, scene effect nodes, effect models and sphere points read whole",
          "[real-mp][fixtures]") {
    auto pak = openDedicated();
    std::map<std::uint32_t, int> parsed;
    for (const auto& e : pak->entries()) {
        switch (e.classId) {
            case 0x090F4000:  // CPlugGameSkin
            case 0x0A03A000:  // CSceneFxNod
            case 0x09115000:  // CPlugVisEntFxModel
            case 0x09066000:  // CPlugPointsInSphereOpt (LZ4-compressed)
                break;
            default:
                continue;
        }
        INFO(e.path);
        const GbxDecode d = decodeGbxEntryProven(pak, e, GbxDecodeOptions{});
        CHECK(d.kind == GbxDecodeKind::Parsed);
        if (d.kind == GbxDecodeKind::Parsed) ++parsed[e.classId];
    }
    CHECK(parsed == std::map<std::uint32_t, int>{
                        {0x090F4000, 2}, {0x0A03A000, 1}, {0x09115000, 1}, {0x09066000, 1}});
}

TEST_CASE("ManiaPlanet pack: vehicle physics, tunings, gear boxes and race cameras read whole",
          "[real-mp][fixtures]") {
    auto pak = openDedicated();
    // class ID -> (files, parsed)
    std::map<std::uint32_t, std::pair<int, int>> counts;
    std::vector<std::string> refused;
    for (const auto& e : pak->entries()) {
        switch (e.classId) {
            case 0x090EA000:  // CPlugVehiclePhyModel
            case 0x090EC000:  // CPlugVehiclePhyTunings (LZ4-compressed)
            case 0x090EF000:  // CPlugVehicleCameraRace3Model
            case 0x090F6000:  // CPlugVehicleCameraRace2Model
            case 0x090F7000:  // CPlugVehicleCameraInternalModel
            case 0x09094000:  // CPlugVehicleGearBox
                break;
            default:
                continue;
        }
        INFO(e.path);
        GbxDecodeOptions options;
        const GbxDecode d = decodeGbxEntryProven(pak, e, options);
        auto& c = counts[e.classId];
        ++c.first;
        if (d.kind == GbxDecodeKind::Parsed) {
            ++c.second;
            CHECK(d.bytes.size() == e.uncompressedSize);
        } else {
            CHECK(d.kind == GbxDecodeKind::Refused);
            refused.push_back(d.detail);
        }
    }
    using P = std::pair<int, int>;
    CHECK(counts[0x090EA000] == P(11, 11));
    CHECK(counts[0x090EC000].first == 11);
    CHECK(counts[0x090EF000] == P(10, 10));
    CHECK(counts[0x090F6000] == P(4, 4));
    CHECK(counts[0x090F7000] == P(5, 5));
    CHECK(counts[0x09094000] == P(4, 4));
    // One tuning holds a reference buffer (CMwRefBuffer) of vehicle materials, whose own
    // chunk 090F100F no reader knows: it is the only file that may stop, and it stops there.
    CHECK(refused.size() <= 1);
    CHECK(counts[0x090EC000].second == 11 - int(refused.size()));
    for (const auto& why : refused)
        CHECK(why.find("unknown chunk 090F100F of CPlugVehicleMaterial (090F1000)") !=
              std::string::npos);
}
