// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's own pack (../shared/fixtures/real-mp/dedicated.pak): how its sounds, materials,
// sound gauges and music are proven by the readers of gbx/chunks/plug/Sound.cpp and
// gbx/chunks/plug/MaterialCustom.cpp, and where and why the rest stop. The pack's base key is
// read from the fixture's README at run time: the project holds no game key.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Bytes.hpp"
#include "gbx/Classes.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

std::shared_ptr<const PakIndex> openMpPack() {
    auto dir = test::sharedDir("fixtures/real-mp");
    std::ifstream readme(dir / "README.md");
    std::stringstream text;
    text << readme.rdbuf();
    std::smatch m;
    std::string s = text.str();
    REQUIRE(
        std::regex_search(s, m, std::regex("base key of pack \"dedicated\", `([0-9A-F]{32})`")));
    KeyOptions keys;
    keys.baseKeyHex = m[1];
    auto path = dir / "dedicated.pak";
    return PakIndex::open(path, resolvePakKey(path, keys));
}

}  // namespace

TEST_CASE("ManiaPlanet's pack: sounds and materials proven, the rest stopping with the reason",
          "[real-mp][fixtures]") {
    auto pak = openMpPack();
    // Per main class: files proven (parsed or exact) and files refused.
    std::map<std::uint32_t, std::pair<int, int>> counts;
    std::map<std::uint32_t, std::vector<std::string>> refusals;
    const std::vector<std::uint32_t> mine = {0x0901A000, 0x09064000, 0x0908E000, 0x0905E000,
                                             0x0901C000, 0x09052000, 0x09079000, 0x09029000};
    for (const auto& e : pak->entries()) {
        if (!isGbxEntry(*pak, e)) continue;
        std::uint32_t cls =
            gbx::ClassRegistry::builtin().generalize(readGbxEntryRefs(pak, e).header.classId);
        if (std::find(mine.begin(), mine.end(), cls) == mine.end()) continue;
        INFO(e.path);
        GbxDecode d = decodeGbxEntryProven(pak, e);
        if (d.kind == GbxDecodeKind::Refused) {
            ++counts[cls].second;
            refusals[cls].push_back(d.detail);
            continue;
        }
        CHECK((d.kind == GbxDecodeKind::Parsed || d.kind == GbxDecodeKind::Exact));
        REQUIRE(d.bytes.size() == e.uncompressedSize);
        ++counts[cls].first;
    }
    std::string got;
    for (const auto& [cls, n] : counts)
        got += hex32(cls) + " " + std::to_string(n.first) + "/" + std::to_string(n.second) + "; ";
    // proven/refused per main class
    CHECK(got ==
          "0901A000 51/0; "   // CPlugSound
          "0901C000 1/0; "    // CPlugMusic: exact, nothing folds after its stop
          "09029000 4/0; "    // CPlugSoundEngine2: its own chunks as the pack proves them
          "09052000 5/0; "    // CPlugSoundGauge: the same
          "0905E000 1/0; "    // CPlugSoundSurface: 0905E003, the same
          "09064000 61/0; "   // CPlugSoundMulti
          "09079000 152/0; "  // CPlugMaterial: 95 hold a CPlugMaterialCustom, 1 shader files
          "0908E000 5/0; ");  // CPlugSoundEngine: its own chunks as the pack proves them
    // Every one of these files is proven: none is refused.
    for (const auto& [cls, why] : refusals) CHECK(why.empty());
}
