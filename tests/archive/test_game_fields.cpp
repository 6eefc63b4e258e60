// SPDX-License-Identifier: GPL-2.0-or-later
// What pakfs writes in the file table where the game's own pack shows how the game fills it
// (doc/FORMAT.md §2.3, §2.5): the class ID a plain file gets from the end of its name, and the
// game's pack extracted and packed again without --base, compared entry by entry with it.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "gbx/Classes.hpp"
#include "tests/support/Cli.hpp"
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
