// SPDX-License-Identifier: GPL-2.0-or-later
// What pakfs writes in the file table where the game's own pack shows how the game fills it
// (doc/FORMAT.md §2.3, §2.5): the class ID a plain file gets from the end of its name, flag bit
// 0x02, and the record field (where a file's metadata record lies); the game's pack extracted
// and packed again without --base, compared entry by entry with it; commits and patches.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "archive/codec/Streams.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/PakWriter.hpp"
#include "gbx/Classes.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/SampleGbx.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using pakfs::test::q;

namespace {

std::map<std::string, const PakEntry*> byPath(const PakIndex& pak) {
    std::map<std::string, const PakEntry*> out;
    for (const auto& e : pak.entries()) out.emplace(e.path, &e);
    return out;
}

// The game's pack, and the same files extracted with `pak extract` and packed again with
// `pak pack` (no --base; `packArgs` added), the key from a copy of the game's packlist beside
// the new pak.
struct Repacked {
    std::shared_ptr<const PakIndex> game, ours;
};

// Where each record lies in a version 3 pak's metadata section as stored: the section decrypted
// and inflated here, its records walked in the order they come (their lengths from the index's
// own reading of them), by file index.
std::map<std::uint32_t, std::uint32_t> storedRecordOffsets(const PakIndex& pak) {
    REQUIRE(pak.metadataError().empty());
    const std::uint64_t iv = loadLE64(pak.file()->readAt(pak.metaDataOffset(), 8).data());
    const std::uint64_t crypted = (pak.metaDataCompressedSize() + 255) / 256 * 256;
    CryptedStream stream(ByteRange(pak.file(), pak.metaDataOffset() + 8, crypted), &pak.cipher(),
                         iv, crypted);
    ZlibStage zlib(stream, pak.metaDataCompressedSize(), pak.metaDataUncompressedSize(), "meta");
    Bytes plain(pak.metaDataUncompressedSize());
    zlib.read(plain);
    std::map<std::uint32_t, std::uint32_t> out;
    std::size_t at = 0;
    for (;;) {
        REQUIRE(at + 4 <= plain.size());
        const std::uint32_t index = loadLE32(plain.data() + at);
        if (index == 0xFFFFFFFFu) break;
        out.emplace(index, std::uint32_t(at));
        at += 4 + pak.metadata().at(index).size();
    }
    CHECK(at + 4 == plain.size());
    return out;
}

// The entries whose record field is not what the game's writer puts there (the offset of the
// file's record in the section, FFFFFFFF for a file without one), one line each.
std::vector<std::string> recordFieldsWrong(const PakIndex& pak) {
    const auto stored = storedRecordOffsets(pak);
    std::vector<std::string> wrong;
    for (const auto& e : pak.entries()) {
        auto found = stored.find(e.index);
        const std::uint32_t want = found == stored.end() ? 0xFFFFFFFFu : found->second;
        if (e.unknown != want) {
            char line[64];
            std::snprintf(line, sizeof line, ": %08X, not %08X", e.unknown, want);
            wrong.push_back(e.path + line);
        }
    }
    return wrong;
}

Repacked repackGamePack(const test::TempDir& dir, const std::string& packArgs = "") {
    const auto real = test::sharedDir("fixtures/real");
    const auto gamePak = real / "Resource.pak";
    std::filesystem::create_directories(dir / "new");
    std::filesystem::copy_file(real / "packlist.dat", dir / "new/packlist.dat");
    auto r = test::run(test::kPak + " extract -q " + q(gamePak) + " " + q(dir / "out"));
    REQUIRE(r.code == 0);
    r = test::run(test::kPak + " pack -q " + packArgs + " " + q(dir / "out") + " " +
                  q(dir / "new/Resource.pak"));
    INFO(r.err);
    REQUIRE(r.code == 0);
    Repacked p;
    p.game = PakIndex::open(gamePak, resolveKey(gamePak, {}));
    p.ours = PakIndex::open(dir / "new/Resource.pak", p.game->key());
    REQUIRE(p.game->entries().size() == 27);
    REQUIRE(p.ours->entries().size() == 27);
    return p;
}

}  // namespace

TEST_CASE("class table: the longest end of name wins, without regard to case", "[game-fields]") {
    CHECK(classIdForExtension("Common.VHlsl.Txt") == 0x09074000);  // not .txt's class
    CHECK(classIdForExtension("Common.PHlsl.Txt") == 0x09077000);
    CHECK(classIdForExtension("ShadowBufferSoft.PHlsl.cry") == 0x09077000);
    CHECK(classIdForExtension("SpritesOrtho.vsh.txt") == 0x09042000);
    CHECK(classIdForExtension("SPRITES.VSH.TXT") == 0x09042000);
    CHECK(classIdForExtension("a.PsH.tXt") == 0x09045000);
    CHECK(classIdForExtension("notes.txt") == 0x09041000);
    CHECK(classIdForExtension("notes.Txt") == 0x09041000);
    CHECK(classIdForExtension("vsh.txt") == 0x09041000);  // no dot before "vsh": just .txt
    CHECK(classIdForExtension("a.phlsl") == kClassPlugFile);
    CHECK(classIdForExtension("a.cry") == kClassPlugFile);
    CHECK(classIdForExtension("Light.TGA") == 0x09023000);
    CHECK(classIdForExtension("Arial.dds") == 0x09024000);
    CHECK(classIdForExtension("a.tga.bak") == kClassPlugFile);
    CHECK(classIdForExtension("README") == kClassPlugFile);
    CHECK(classIdForExtension("") == kClassPlugFile);
}

TEST_CASE("class table: every row is a file class of the game's class tree", "[game-fields]") {
    const auto& classes = gbx::ClassRegistry::builtin();
    std::set<std::string_view> suffixes;
    for (const auto& row : fileClasses()) {
        INFO(row.suffix);
        // TMF's .fx class: ManiaPlanet gave its ID to CPlugIconIndex, the class the table holds.
        if (row.suffix == ".fx")
            CHECK(row.classId == 0x09093000);
        else
            CHECK(classes.name(row.classId) == row.className);
        CHECK(row.className.substr(0, 9) == "CPlugFile");
        REQUIRE(row.suffix.size() >= 2);
        CHECK(row.suffix[0] == '.');
        CHECK(foldCase(row.suffix) == row.suffix);  // compared folded
        CHECK(suffixes.insert(row.suffix).second);  // one class per end of name
        CHECK(classIdForExtension("x" + std::string(row.suffix)) == row.classId);
    }
}

TEST_CASE("game's pack repacked without --base: every file has the class ID the game gave it",
          "[game-fields][fixtures]") {
    test::TempDir dir;
    const Repacked p = repackGamePack(dir);
    const auto ours = byPath(*p.ours);
    int same = 0;
    for (const auto& g : p.game->entries()) {
        INFO(g.path);
        REQUIRE(ours.count(g.path));
        const PakEntry& o = *ours.at(g.path);
        CHECK(o.classId == g.classId);
        same += o.classId == g.classId;
    }
    CHECK(same == 27);
}

TEST_CASE("game's pack repacked without --base: flag bit 0x02 on every file, as the game's",
          "[game-fields][fixtures]") {
    std::set<std::string> kinds;  // plain and gbx, stored and compressed
    for (const std::string args : {"", "--level 0"}) {
        INFO(args);
        test::TempDir dir;
        const Repacked p = repackGamePack(dir, args);
        const auto ours = byPath(*p.ours);
        int set = 0;
        for (const auto& g : p.game->entries()) {
            INFO(g.path);
            REQUIRE(g.flags & kFlagV3Game);
            const PakEntry& o = *ours.at(g.path);
            CHECK((o.flags & kFlagV3Game) != 0);
            set += (o.flags & kFlagV3Game) != 0;
            // Nothing else is set but the compression bits pakfs writes.
            CHECK((o.flags & ~kFlagV3Game) == (o.compressed() ? kFlagZlib : 0));
            kinds.insert(std::string(p.ours->metadata().count(o.index) ? "gbx " : "plain ") +
                         (o.compressed() ? "compressed" : "stored"));
        }
        CHECK(set == 27);
    }
    CHECK(kinds == std::set<std::string>{"gbx compressed", "gbx stored", "plain compressed",
                                         "plain stored"});
}

TEST_CASE(
    "game's pack repacked without --base: the record field of every file as the game fills it",
    "[game-fields][fixtures]") {
    test::TempDir dir;
    const Repacked p = repackGamePack(dir);
    // The rule, on the game's own pack first: 14 records at 0, 25, ... 325, FFFFFFFF elsewhere.
    CHECK(recordFieldsWrong(*p.game).empty());
    std::set<std::uint32_t> gameFields;
    for (const auto& e : p.game->entries()) gameFields.insert(e.unknown);
    CHECK(gameFields.size() == 15);
    CHECK(gameFields.count(0xFFFFFFFFu) == 1);
    CHECK(*gameFields.begin() == 0);
    CHECK(*std::prev(gameFields.end(), 2) == 325);

    CHECK(recordFieldsWrong(*p.ours) == std::vector<std::string>{});
    const auto ours = byPath(*p.ours);
    int right = 0;
    for (const auto& g : p.game->entries()) {
        INFO(g.path);
        const PakEntry& o = *ours.at(g.path);
        const bool hasRecord = p.game->metadata().count(g.index) > 0;
        REQUIRE((p.ours->metadata().count(o.index) > 0) == hasRecord);
        if (hasRecord) {
            // The same record, wherever it now lies in the section.
            CHECK(p.ours->metadata().at(o.index) == p.game->metadata().at(g.index));
            CHECK(o.unknown != 0xFFFFFFFFu);
        } else {
            CHECK(o.unknown == 0xFFFFFFFFu);
        }
        right += (o.unknown == 0xFFFFFFFFu) == (g.unknown == 0xFFFFFFFFu);
    }
    CHECK(right == 27);
}

namespace {

// A map whose metadata record is `userData` bytes longer than the bare header's (a header chunk
// of that size), so that records differ in size and offsets tell them apart.
Bytes mapWithUserData(std::size_t userData, std::uint8_t fill) {
    gbx::GbxBuilder b = test::emptyMap();
    if (userData > 0) b.headerChunks.push_back({0x03043099, Bytes(userData, fill)});
    return b.build();
}

std::map<std::string, std::string> recordOffsetsShown(const std::filesystem::path& pak,
                                                      const std::string& keyHex) {
    auto r = test::run(test::kPak + " ls --json --key " + keyHex + " " + q(pak));
    REQUIRE(r.code == 0);
    std::map<std::string, std::string> out;
    for (const auto& item : nlohmann::json::parse(r.out))
        out[item.at("path").get<std::string>()] = item.at("record_offset").get<std::string>();
    return out;
}

}  // namespace

TEST_CASE("commit: the record field of every file follows the section it writes",
          "[game-fields][commit]") {
    test::TempDir dir;
    const std::string keyHex = "661b61b07517cad5d713b69991fdb06f";
    const PakKey key = [&] {
        PakKey k{};
        REQUIRE(parseHex(keyHex, k));
        return k;
    }();
    // gbx files with records of different sizes between plain files, in three folders.
    test::writeFile(dir / "src/a.txt", test::compressibleText(300, 1));
    test::writeFile(dir / "src/A.Map.Gbx", mapWithUserData(10, 'a'));
    test::writeFile(dir / "src/Maps/B.Map.Gbx", mapWithUserData(40, 'b'));
    test::writeFile(dir / "src/Maps/C.Map.Gbx", mapWithUserData(0, 'c'));
    test::writeFile(dir / "src/Maps/m.txt", test::compressibleText(200, 2));
    test::writeFile(dir / "src/Maps/D.Map.Gbx", mapWithUserData(25, 'd'));
    test::writeFile(dir / "src/Other/E.Map.Gbx", mapWithUserData(7, 'e'));
    auto r = test::run(test::kPak + " pack -q --key " + keyHex + " " + q(dir / "src") + " " +
                       q(dir / "Base.pak"));
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto base = PakIndex::open(dir / "Base.pak", key);
    REQUIRE(base->metadata().size() == 5);
    CHECK(recordFieldsWrong(*base) == std::vector<std::string>{});

    // Edit B (a longer record), add F before the others, delete A, rename C into a new folder
    // (a new file with its bytes: its slot is copied), leave D and E as they are.
    const auto up = dir / "overlay/Base";
    test::writeFile(up / "Maps/B.Map.Gbx", mapWithUserData(90, 'B'));
    test::writeFile(up / "0.Map.Gbx", mapWithUserData(3, 'f'));
    test::writeFile(up / ".wh.A.Map.Gbx", Bytes{});
    test::writeFile(up / "Maps/.wh.C.Map.Gbx", Bytes{});
    test::writeFile(up / "Moved/C.Map.Gbx", mapWithUserData(0, 'c'));
    r = test::run(test::kPak + " commit -n --key " + keyHex + " " + q(dir / "Base.pak") + " " +
                  q(dir / "overlay"));
    CHECK(r.out ==
          "A 0.Map.Gbx\nD A.Map.Gbx\nM Maps/B.Map.Gbx\nD Maps/C.Map.Gbx\nA Moved/\n"
          "A Moved/C.Map.Gbx\n");
    r = test::run(test::kPak + " commit -q --key " + keyHex + " " + q(dir / "Base.pak") + " " +
                  q(dir / "overlay") + " " + q(dir / "Out.pak"));
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto out = PakIndex::open(dir / "Out.pak", key);
    REQUIRE(out->entries().size() == 7);
    REQUIRE(out->metadata().size() == 5);
    CHECK(recordFieldsWrong(*out) == std::vector<std::string>{});
    // The renamed file's slot was copied, and its field is not the one it had.
    const auto before = byPath(*base);
    const auto after = byPath(*out);
    CHECK(after.at("Moved/C.Map.Gbx")->offset != 0);
    CHECK(after.at("Moved/C.Map.Gbx")->unknown != before.at("Maps/C.Map.Gbx")->unknown);
    // pak ls --json shows the field of every file as it is stored.
    std::map<std::string, std::string> want;
    for (const auto& e : out->entries()) {
        char hex[9];
        std::snprintf(hex, sizeof hex, "%08X", e.unknown);
        want[e.path] = hex;
    }
    CHECK(recordOffsetsShown(dir / "Out.pak", keyHex) == want);
    CHECK(want.at("a.txt") == "FFFFFFFF");
    // A was deleted: the edited B, now the first file with a record, has the first one.
    CHECK(want.at("Maps/B.Map.Gbx") == "00000000");
    CHECK(before.at("Maps/B.Map.Gbx")->unknown != 0);

    // A patch over it: the files it adds or replaces, each with its record's place.
    ChangeSet patch;
    patch.root = dir / "patch";
    test::writeFile(patch.root / "Maps/D.Map.Gbx", mapWithUserData(60, 'D'));
    test::writeFile(patch.root / "New/G.Map.Gbx", mapWithUserData(5, 'g'));
    test::writeFile(patch.root / "New/g.txt", test::compressibleText(100, 3));
    for (const auto& p : {"Maps/D.Map.Gbx", "New/G.Map.Gbx", "New/g.txt"})
        patch.files.emplace(p, patch.root / p);
    patch.folders = {"Maps", "New"};
    patch.folderSet = {"Maps", "New"};
    ChangePlan plan = planPatch(
        patch,
        [&](const std::string& path) -> std::optional<ShownEntry> {
            auto found = after.find(path);
            if (found == after.end()) return std::nullopt;
            return ShownEntry{out, found->second};
        },
        3);
    REQUIRE(plan.changes.size() == 3);
    writePlan(plan.plan, dir / "Patch.pak", key, plan.options);
    auto patched = PakIndex::open(dir / "Patch.pak", key);
    REQUIRE(patched->entries().size() == 3);
    CHECK(patched->metadata().size() == 2);
    CHECK(recordFieldsWrong(*patched) == std::vector<std::string>{});
}
