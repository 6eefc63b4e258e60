// SPDX-License-Identifier: GPL-2.0-or-later
// The game-written crystals and the items and blocks made of them (../shared/fixtures/assets2
// and gbx) through `pak gbx info --nodes` (gbx/chunks/plug/Crystal.cpp): how far each reads, and
// for those read whole, that a pak holding them with their bodies stored calls them parsed (exact
// where skippable chunks no reader knows are skipped by size).
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

// Named, not anonymous, and holding the tests too: the tests are built in unity batches.
namespace crystal_fixtures {

struct Reading {
    std::string nodesRead;  // the summary line of pak gbx info --nodes
    std::string reason;     // after "stopped in the nodes: ", or empty when read whole
    // Read whole: the skippable chunks no reader knows (GBX.NET reads none of them), which
    // make a stored copy "exact" rather than "parsed".
    int unknownSkippable = 0;
    // Read whole with a node read inside a skippable chunk (the placement class of 2E020005):
    // stored, the Adler-32 proves the bytes under the open rule (FORMAT.md 7.4), "verified".
    bool verified = false;
};

struct Row {
    std::string file;  // under ../shared/fixtures
    Reading reading;
};

// A .Crystal.Gbx holds the crystal the editor edits, not embedded: its geometry reads, and a
// layer of kind 16 (named "Sector" in these files), which no source describes, stops.
std::string sectorLayer(const std::string& chunkAt, const std::string& stoppedAt) {
    return "chunk 09003005 of CPlugCrystal (09003000) (chunk at body offset " + chunkAt +
           "): crystal 09003005: layer 1 is of kind 16, which no source describes (stopped at "
           "body offset " +
           stoppedAt + ")";
}

const std::vector<Row> kRows = {
    {"assets2/MP-CPlugCrystal~Cpexport_1.Crystal.Gbx",
     {"nodes read: 7, incomplete", sectorLayer("782", "2251820")}},
    {"assets2/MP-CPlugCrystal~Duplication.Crystal.Gbx",
     {"nodes read: 8, incomplete", sectorLayer("897", "1517015")}},
    {"assets2/MP-CPlugCrystal~Portail_Base_Mesh.Crystal.Gbx", {"nodes read: 3, complete", ""}},
    {"assets2/MP-CGameItemModel~LauncherB1.Block.Gbx", {"nodes read: 21, complete", ""}},
    {"assets2/TM2020-CGameItemModel~Base.Item.Gbx", {"nodes read: 7, complete", "", 2, true}},
    {"assets2/TM2020-CGameItemModel~FabricRampCurveInGround.Item.Gbx",
     {"nodes read: 6, complete", "", 2}},
    {"assets2/TM2020-CGameItemModel~GroundDefault_0_0.Item.Gbx",
     {"nodes read: 6, complete", "", 2, true}},
    {"assets2/TM2020-CGameItemModel~Ground_12_0.Item.Gbx",
     {"nodes read: 8, complete", "", 2, true}},
    {"assets2/TM2020-CGameItemModel~PubCrossStructure_Up_4X_v2.Item.Gbx",
     {"nodes read: 6, complete", "", 3}},
    {"gbx/GBX-NET 2 CGameItemModel MP4 002.Item.Gbx", {"nodes read: 5, complete", ""}},
    {"gbx/GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx", {"nodes read: 6, complete", "", 3}},
    {"gbx/GBX-NET 2 CGameItemModel TM2020 005.Item.Gbx", {"nodes read: 6, complete", "", 2, true}},
};

const Reading& expected(const Row& row) {
    return row.reading;
}

TEST_CASE("crystal fixtures: how far each reads with pak gbx info --nodes",
          "[gbx][crystal][fixtures]") {
    fs::path dir = sharedDir("fixtures");
    for (const Row& row : kRows) {
        const Reading& want = expected(row);
        INFO(row.file);
        checkNodesRead(dir / row.file, want.nodesRead, want.reason);
    }
}

TEST_CASE("crystal fixtures: stored in a pak, the files read whole are parsed or exact",
          "[gbx][crystal][fixtures]") {
    fs::path dir = sharedDir("fixtures");
    struct Stored {
        std::string name;
        int unknownSkippable;
        bool verified;
    };
    std::vector<Stored> stored;
    TempDir tmp;
    for (const Row& row : kRows) {
        const Reading& r = expected(row);
        if (!r.reason.empty()) continue;
        std::string name = fs::path(row.file).filename().string();
        writeFile(tmp / "src" / "Items" / name,
                  storedForm(readFile(dir / row.file), BodyWas::compressed));
        stored.push_back({name, r.unknownSkippable, r.verified});
    }
    if (stored.empty()) return;  // none reads whole without the material instances' reader
    // pak check lists the entries in path order.
    std::sort(stored.begin(), stored.end(),
              [](const Stored& a, const Stored& b) { return a.name < b.name; });
    std::string want;
    std::size_t parsed = 0;
    std::size_t verified = 0;
    for (const auto& s : stored) {
        if (s.verified) {
            ++verified;
            want += "gbx verified  Items/" + s.name +
                    ": scanned, 0 node reads found; Adler-32 and size match\n";
        } else if (s.unknownSkippable == 0) {
            ++parsed;
            want += "gbx parsed    Items/" + s.name +
                    ": parsed by known chunk readers to the end, every node slot filled (no "
                    "checksum: the parse is the proof)\n";
        } else {
            want += "gbx exact     Items/" + s.name +
                    ": read to the end by known chunk readers, every node slot filled, except " +
                    std::to_string(s.unknownSkippable) +
                    " unknown skippable chunks skipped by size with no node signature in the "
                    "data: no node read the reader did not see can change a byte (no "
                    "checksum)\n";
        }
    }
    std::string n = std::to_string(stored.size());
    want += n + " files: 0 plain, " + n + " gbx (" + std::to_string(parsed) +
            " parsed, 0 header, " + std::to_string(stored.size() - parsed - verified) + " exact, " +
            std::to_string(verified) + " verified, 0 refused), 0 undecodable\n";
    std::vector<std::string> paths;
    for (const auto& s : stored) paths.push_back("Items/" + s.name);
    checkStoredPak(tmp / "src", tmp / "crystals.pak", want, paths);
}

}  // namespace crystal_fixtures
