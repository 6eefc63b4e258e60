// SPDX-License-Identifier: GPL-2.0-or-later
// The game classes of TrackMania 1.0, Sunrise, Nations ESWC, TMSX and the Forever games: their
// fixtures read whole; the item model's model chunk takes its bytes by version and item type;
// the later games' classes sit in the class tree with their parent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/gbx/BuiltGbx.hpp"
#include "tests/gbx/GameClassFiles.hpp"
#include "tests/support/NodeSummary.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::gbx;
namespace fs = std::filesystem;

namespace {

using test::readFile;

struct OldFixture {
    const char* folder;  // under ../shared/fixtures
    const char* file;
    std::uint32_t classId;  // as stored in the header
    std::size_t nodes;      // nodes in the tree (read nodes and external references)
};

// Every game-class fixture of the Forever era or older: maps, replays, a clip, a block info,
// a decoration and a collection of each game.
const OldFixture kOldFixtures[] = {
    {"assets", "BlockInfos~1_TrackMania_Sunrise~BayBridgeSusp.TMEDClassic.Gbx", 0x24022000, 85},
    {"assets", "GbxDecompressor~BayDecompressed.TMCollection.Gbx", 0x24004000, 1},
    {"assets", "Maps~0_TrackMania~1~PuzzleF2.Challenge.Gbx", 0x24003000, 1432},
    {"assets", "Maps~1_TrackMania_Sunrise~1.4.5_Nvidia~TrialTime.Challenge.Gbx", 0x24003000, 121},
    {"assets", "Maps~1_TrackMania_Sunrise~1.4~Paradise_Island.Challenge.Gbx", 0x24003000, 655},
    {"assets", "Maps~1_TrackMania_Sunrise~1.5_Demo~DemoRace1.Challenge.Gbx", 0x24003000, 156},
    {"assets", "Replays~4_TrackMania_United~Bench.Replay.Gbx", 0x2407E000, 11},
    {"assets", "Tests~GBX.NET.Tests~Files~RallyBase45x45Sunrise.TMDecoration.Gbx", 0x03038000, 1},
    {"gbx", "Bench.Replay.Gbx", 0x2407E000, 6},
    {"gbx", "DemoRaceB1.Challenge.Gbx", 0x24003000, 3},
    {"gbx", "GBX-NET 2 CGameCtnChallenge TM10 001.Challenge.Gbx", 0x24003000, 1043},
    {"gbx", "GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx", 0x24003000, 3},
    {"gbx", "GBX-NET 2 CGameCtnChallenge TMPU 001.Challenge.Gbx", 0x24003000, 3},
    {"gbx", "GBX-NET 2 CGameCtnChallenge TMNESWC 001.Challenge.Gbx", 0x24003000, 3},
    {"gbx", "GBX-NET 2 CGameCtnChallenge TMU 001.Challenge.Gbx", 0x24003000, 3},
    {"gbx", "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx", 0x03043000, 3},
    {"gbx", "GBX-NET 2 CGameCtnMediaClip TMF 001.Clip.Gbx", 0x03079000, 31},
    {"gbx", "GBX-NET 2 CGameCtnReplayRecord TM10 001.Replay.Gbx", 0x2403F000, 2},
    {"gbx", "GBX-NET 2 CGameCtnReplayRecord TMPU 001.Replay.Gbx", 0x2403F000, 2},
    {"gbx", "GBX-NET 2 CGameCtnReplayRecord TMSX 001.Replay.Gbx", 0x2407E000, 2},
    {"gbx", "GBX-NET 2 CGameCtnReplayRecord TMNESWC 001.Replay.Gbx", 0x2407E000, 3},
    {"gbx", "GBX-NET 2 CGameCtnReplayRecord TMU 001.Replay.Gbx", 0x2407E000, 3},
    {"gbx", "GBX-NET 2 CGameCtnReplayRecord TMF 001.Replay.Gbx", 0x2407E000, 2},
};

}  // namespace

TEST_CASE("game-class fixtures of the Forever era and older read whole", "[gbx][fixtures][game]") {
    fs::path dir = test::sharedDir("fixtures");
    for (const auto& fx : kOldFixtures) {
        INFO(fx.folder << "/" << fx.file);
        Bytes data = readFile(dir / fx.folder / fx.file);
        REQUIRE(!data.empty());
        MemorySource src(data);
        GbxFile f = readGbxPartial(src);
        INFO((f.failure ? f.failure->message : std::string("no failure")));
        CHECK(f.header.classId == fx.classId);
        CHECK_FALSE(f.failure);
        CHECK(f.reached == ReadStage::Done);
        CHECK(f.nodesComplete);
        CHECK(f.trailingBytes == 0);
        CHECK(f.unfilledSlots == 0);
        test::NodeSummary s = test::summarize(f);
        CHECK(s.allNodesComplete);
        CHECK(f.nodes.size() == fx.nodes);
        // A chunk no reader knows may only be a skippable one, passed over by its size (the
        // replays' 2403F013, which no source describes).
        for (const Node& n : f.nodes)
            for (const auto& c : n.chunks) {
                INFO("chunk " << hex32(c.id) << " at " << c.offset);
                CHECK((c.known || c.skippable));
            }
    }
}

TEST_CASE("the older games' block info, block and clip group chunks read into named nodes",
          "[gbx][fixtures][game]") {
    fs::path dir = test::sharedDir("fixtures");
    {
        Bytes data =
            readFile(dir / "assets/BlockInfos~1_TrackMania_Sunrise~BayBridgeSusp.TMEDClassic.Gbx");
        MemorySource src(data);
        GbxFile f = readGbxPartial(src);
        REQUIRE(f.nodesComplete);
        test::NodeSummary s = test::summarize(f);
        CHECK(s.values.at("0:name") == "BayBridgeSusp");  // CGameCtnCollector 2400A002
        CHECK(s.values.at("0:id") == "BayBridgeSusp");    // CGameCtnBlockInfo 24005005
        // Unit infos, scene mobils and the CHmsItem each mobil holds inline.
        CHECK(std::count(s.classes.begin(), s.classes.end(), "CGameCtnBlockUnitInfo") == 78);
        CHECK(std::count(s.classes.begin(), s.classes.end(), "CSceneMobil") == 2);
        CHECK(std::count(s.classes.begin(), s.classes.end(), "CHmsItem") == 2);
    }
    {
        Bytes data = readFile(dir / "assets/Maps~0_TrackMania~1~PuzzleF2.Challenge.Gbx");
        MemorySource src(data);
        GbxFile f = readGbxPartial(src);
        REQUIRE(f.nodesComplete);
        test::NodeSummary s = test::summarize(f);
        // TM 1.0 maps store each block as a CGameCtnBlock node (24007002).
        CHECK(std::count(s.classes.begin(), s.classes.end(), "CGameCtnBlock") == 1429);
    }
}

TEST_CASE("item model 2E002019: the fields by version and item type", "[gbx][game][item]") {
    // The fixtures that stopped at "unknown chunk 00000000 of CGameItemModel": 019 now takes
    // exactly its bytes and the next chunk is the entity model edition's node.
    fs::path dir = test::sharedDir("fixtures/gbx");
    struct Item {
        const char* file;
        std::uint64_t nextChunkOffset;  // body offset of the chunk after 2E002019
    };
    for (const Item& item : {Item{"GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx", 311},
                             Item{"GBX-NET 2 CGameItemModel TM2020 005.Item.Gbx", 301},
                             Item{"GBX-NET 2 CGameItemModel MP4 002.Item.Gbx", 301}}) {
        INFO(item.file);
        Bytes data = readFile(dir / item.file);
        MemorySource src(data);
        GbxFile f = readGbxPartial(src);
        REQUIRE(f.nodes.size() >= 2);
        const Node& main = f.nodes[0];
        // 019 is the main node's last chunk only while its models stop the reader.
        auto model = std::find_if(main.chunks.begin(), main.chunks.end(),
                                  [](const ChunkRecord& c) { return c.id == 0x2E002019; });
        REQUIRE(model != main.chunks.end());
        CHECK(model->known);
        // The entity model edition, a node of its own read by 019, read by its chunk 000 up
        // to its mesh, a CPlugCrystal, whose chunks are the Plug engine's.
        CHECK(f.nodes[1].classId == 0x2E026000);
        REQUIRE(!f.nodes[1].chunks.empty());
        CHECK(f.nodes[1].chunks.front().id == 0x2E026000);
        CHECK(f.nodes[1].chunks.front().known);
        CHECK(f.nodes[1].chunks.front().offset == item.nextChunkOffset);
        REQUIRE(f.nodes.size() >= 3);
        CHECK(f.nodes[2].classId == 0x09003000);
        // Wherever the Plug readers stop (if they do), it is not in the item's own classes.
        if (f.failure) {
            INFO(f.failure->message);
            CHECK(f.failure->message.find("CGameItemModel") == std::string::npos);
            CHECK(f.failure->message.find("CGameCommonItemEntityModelEdition") ==
                  std::string::npos);
        }
    }
}

namespace {

// A CGameItemModel body: item type (015), then 019 of the given version with null
// references, an empty weapon name and no actions.
BodyWriter itemBody(std::optional<std::uint32_t> type, std::uint32_t version, bool modelsFirst) {
    BodyWriter w;
    if (type) {
        w.chunk(0x2E002015);
        w.u32(*type);
    }
    w.chunk(0x2E002019);
    w.u32(version);
    if (modelsFirst) {
        w.nullRef();
        w.nullRef();
        if (version == 1 || version == 2) w.nullRef();  // the seed's static visual model
    }
    if (version >= 3) w.lookbackRaw(0xFFFFFFFF);
    if (version >= 4) w.nullRef();
    if (version >= 5) w.nullRef();
    if (version >= 6) w.u32(0);
    if (version >= 7) w.u32(0);
    if (version >= 8) {
        w.nullRef();  // entity model edition
        w.nullRef();  // entity model
    }
    if (version >= 13) w.nullRef();
    if (version >= 15) w.nullRef();
    w.endNode();
    return w;
}

}  // namespace

TEST_CASE("item model 2E002019 built: the models come first below the type's version",
          "[gbx][game][item]") {
    GbxBuilder b;
    b.classId = 0x2E002000;
    struct Case {
        std::optional<std::uint32_t> type;
        std::uint32_t version;
        bool modelsFirst;
    };
    // Ornament: moved at 9; vehicle: 10; block: never first; undefined: 12.
    for (const Case& c :
         {Case{1, 8, true}, Case{1, 9, false}, Case{4, 9, true}, Case{4, 10, false},
          Case{11, 2, false}, Case{0, 11, true}, Case{0, 12, false}, Case{std::nullopt, 15, false},
          Case{std::nullopt, 2, true}, Case{std::nullopt, 0, true}}) {
        INFO("type " << (c.type ? std::to_string(*c.type) : "none") << " version " << c.version);
        GbxFile f = test::readBuilt(b, itemBody(c.type, c.version, c.modelsFirst));
        CHECK_FALSE(f.failure);
        CHECK(f.nodesComplete);
    }
    // The header's item type (2E002000) counts when the body has no 015.
    GbxBuilder withHeader = b;
    withHeader.headerChunks.push_back({0x2E002000, Bytes{4, 0, 0, 0}, false});  // vehicle
    GbxFile f = test::readBuilt(withHeader, itemBody(std::nullopt, 10, false));
    CHECK_FALSE(f.failure);
    CHECK(f.nodesComplete);
    // Read as an undefined type instead (models first below version 12), the same bytes fail.
    GbxFile wrong = test::readBuilt(b, itemBody(std::nullopt, 10, false));
    REQUIRE(wrong.failure);
    CHECK(wrong.failure->message ==
          "chunk 2E002019 of CGameItemModel (2E002000) (chunk at offset 25): node index 3 at "
          "offset 33 is not below numNodes 1 (stopped at offset 37)");
}

TEST_CASE("a block item with no entity model edition is refused", "[gbx][game][item]") {
    GbxBuilder b;
    b.classId = 0x2E002000;
    GbxFile f = test::readBuilt(b, itemBody(11, 8, false));
    REQUIRE(f.failure);
    CHECK(f.failure->message.find("item model 2E002019: a block item has no entity model") !=
          std::string::npos);
}

TEST_CASE("the later games' classes are in the class tree with their parent",
          "[gbx][classes][game]") {
    const ClassRegistry& c = ClassRegistry::builtin();
    struct Placed {
        std::uint32_t id;
        const char* name;
        std::uint32_t parent;
    };
    for (const Placed& p : {
             Placed{0x09145000, "CPlugPrefab", 0x01001000},
             Placed{0x090BB000, "CPlugSolid2Model", 0x01001000},
             Placed{0x0911C000, "CPlugTrainWagonModel", 0x01001000},
             Placed{0x2E00E000, "CGameSpawnModel", 0x01001000},
             Placed{0x0312A000, "CGameCtnMediaBlockManialink", 0x03077000},
             Placed{0x2E006000, "CGameObjectPhyModel", 0x01001000},
             Placed{0x2E026000, "CGameCommonItemEntityModelEdition", 0x01001000},
             Placed{0x2E001000, "CGameCtnCollector", 0x01001000},
             Placed{0x2E002000, "CGameItemModel", 0x2E001000},
             Placed{0x0310D000, "CGameCtnMacroBlockInfo", 0x2E001000},
             Placed{0x0315C000, "CGameCtnBlockInfoVariantGround", 0x0315B000},
             Placed{0x0329F000, "CGameCtnMediaBlockEntity", 0x03077000},
         }) {
        INFO(describeClass(p.id));
        CHECK(c.name(p.id) == p.name);
        REQUIRE(c.parent(p.id));
        CHECK(*c.parent(p.id) == p.parent);
    }
    // The parent decides the node-read ivXor input.
    CHECK(c.ivXorClassInput(0x2E002000) == 0x2E001000);
    CHECK(c.ivXorClassInput(0x0312A000) == 0x2406A000);  // CGameCtnMediaBlock's old ID
    // The TMF tree is unchanged by them: its remaps and parents still hold.
    CHECK(c.generalize(0x24003000) == 0x03043000);
    CHECK(*c.parent(0x03043000) == 0x01001000);
}

TEST_CASE("built block info and item model files read whole (the fuzz target's seeds)",
          "[gbx][game]") {
    for (Bytes file : {test::builtBlockInfo(), test::builtItemModel()}) {
        MemorySource src(file);
        GbxFile f = readGbxPartial(src);
        INFO((f.failure ? f.failure->message : std::string("no failure")));
        CHECK_FALSE(f.failure);
        CHECK(f.nodesComplete);
        CHECK(f.unfilledSlots == 0);
        test::NodeSummary s = test::summarize(f);
        CHECK(s.allChunksKnown);
        CHECK(s.allNodesComplete);
    }
    Bytes blockInfo = test::builtBlockInfo();
    MemorySource src(blockInfo);
    GbxFile f = readGbxPartial(src);
    REQUIRE(f.nodes.size() == 4);
    CHECK(test::summarize(f).classes == std::vector<std::string>{"CGameCtnBlockInfoClassic",
                                                                 "CGameCtnBlockUnitInfo",
                                                                 "CSceneMobil", "CHmsItem"});
}

TEST_CASE("media block time keys: 12 bytes, 8 in a time speed block under the same chunk ID",
          "[gbx][game][media]") {
    for (std::uint32_t cls : {0x03085000u, 0x03129000u}) {
        INFO(describeClass(cls));
        std::size_t keySize = cls == 0x03129000 ? 8 : 12;
        BodyWriter w;
        w.chunk(0x03078001);  // a media track holding the block
        w.string("track");
        w.u32(10);
        w.u32(1);
        w.newNode(1, cls);
        w.chunk(0x03085000);
        w.u32(2);
        w.zeros(2 * keySize);
        w.endNode();
        w.u32(0xFFFFFFFF);
        w.endNode();
        GbxBuilder b;
        b.classId = 0x03078000;
        b.numNodes = 2;
        GbxFile f = test::readBuilt(b, w);
        INFO((f.failure ? f.failure->message : std::string("no failure")));
        CHECK_FALSE(f.failure);
        CHECK(f.nodesComplete);
    }
}

TEST_CASE("classes.tsv is what make_classes.py makes of the two shared tables and later-classes",
          "[gbx][classes][game]") {
    fs::path data = test::sharedDir("data");
    if (test::run("command -v python3").code != 0) {
        std::printf("SKIPPED: python3 is missing, make_classes.py cannot run\n");
        std::fflush(stdout);
        std::_Exit(test::kSkipExitCode);
    }
    fs::path src = test::sourceDir() / "gbx/data";
    test::RunResult r = test::run("python3 '" + (src / "make_classes.py").string() + "' '" +
                                  (data / "tmnf-class-hierarchy.tsv").string() + "' '" +
                                  (data / "tmf-class-id-remap.tsv").string() + "' '" +
                                  (src / "later-classes.tsv").string() + "'");
    REQUIRE(r.code == 0);
    Bytes table = readFile(src / "classes.tsv");
    CHECK(r.out == std::string(table.begin(), table.end()));
}
