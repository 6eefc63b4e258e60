// SPDX-License-Identifier: GPL-2.0-or-later
// Drives merged from a Packs folder and gbx references resolved across them.
#include <fcntl.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "archive/entry/GbxEntry.hpp"
#include "fs/view/PackView.hpp"
#include "packs/Drives.hpp"
#include "packs/Sources.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/DrivesFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;

namespace {

std::unique_ptr<packs::Drives> drivesOf(const PacksFolder& p) {
    auto loaded = packs::loadSources({p.packs}, {});
    REQUIRE(loaded.packs.size() == 3);
    return std::make_unique<packs::Drives>(
        packs::orderPacks(std::move(loaded.packs), packs::packListOrder({p.packs})));
}

}  // namespace

TEST_CASE("drives: Resource and Game, packlist order, later pack wins", "[drives]") {
    PacksFolder p;
    auto d = drivesOf(p);
    REQUIRE(d->packs().size() == 3);
    CHECK(d->packs()[0].name == "Resource");
    CHECK(d->packs()[1].name == "Stadium");
    CHECK(d->packs()[2].name == "Common");
    const packs::DriveFile* shared = d->find("game/SHARED.txt");
    REQUIRE(shared);
    CHECK(d->packs()[std::size_t(shared->pack)].name == "Common");
    CHECK(shared->path == "Game/shared.TXT");
    REQUIRE(d->shadowed().size() == 1);
    CHECK(d->shadowed()[0].hiddenPack == "Stadium");
    CHECK(d->shadowed()[0].winnerPack == "Common");
    REQUIRE(d->resources().size() == 3);
    CHECK(d->resources()[1]->path == "Resource/Media/Texture/B.dds");
    CHECK(d->hasFolder("Game/Stadium/Media/Texture"));
    CHECK(d->files().size() == 6);
}

TEST_CASE("drives: references across folders, packs and into Resource.pak", "[drives]") {
    PacksFolder p;
    auto d = drivesOf(p);
    const packs::DriveFile* f = d->find("Game/Stadium/Media/Solid/Road.Solid.Gbx");
    REQUIRE(f);
    auto refs = archive::readGbxEntryRefs(d->packs()[std::size_t(f->pack)].pak, *f->entry).refs;
    auto r = packs::resolveReferences(*d, f->path, refs);
    REQUIRE(r.size() == 4);
    CHECK(r[0].resolved.value() == "Game/Stadium/Media/Texture/Road.dds");
    CHECK(r[0].exists);
    // By resource index: not resolved (the game's own pack refutes the file-table mapping).
    CHECK_FALSE(r[1].resolved);
    CHECK_FALSE(r[1].exists);
    CHECK(r[1].unknown);
    CHECK(r[1].problem ==
          "resource index 1: which file it names is not known (not Resource.pak's file table "
          "order)");
    CHECK(r[2].resolved.value() == "Game/Stadium/Media/Missing.dds");
    CHECK_FALSE(r[2].exists);
    CHECK_FALSE(r[3].resolved);
    CHECK(r[3].unknown);
    CHECK_FALSE(r[2].unknown);
    // An ancestor level above the drive's top points nowhere.
    refs.ancestorLevel = 9;
    auto deep = packs::resolveReferences(*d, f->path, refs);
    CHECK_FALSE(deep[0].resolved);
    CHECK(deep[0].problem == "ancestor level 9 goes above the top of the drive");
}

TEST_CASE("drives: pak gbx refs and pak check --refs", "[drives][cli]") {
    PacksFolder p;
    std::string packs = "'" + p.packs.string() + "'";
    auto r =
        run(kPak + " gbx refs Game/stadium/media/solid/road.solid.gbx --json --packs " + packs);
    REQUIRE(r.code == 0);
    auto list = nlohmann::json::parse(r.out);
    REQUIRE(list.size() == 4);
    CHECK(list[0] == nlohmann::json({{"node_index", 1},
                                     {"name", "Road.dds"},
                                     {"resolved", "Game/Stadium/Media/Texture/Road.dds"},
                                     {"exists", true}}));
    CHECK(list[1] == nlohmann::json({{"node_index", 2},
                                     {"resource_index", 1},
                                     {"resolved", nullptr},
                                     {"exists", false},
                                     {"unknown", true}}));
    CHECK(list[2]["exists"] == false);
    CHECK(list[3]["resolved"].is_null());
    // The PAK:PATH form, and --strict.
    r = run(kPak + " gbx refs --strict --packs " + packs + " '" +
            (p.packs / "Stadium.pak").string() + ":Stadium/Media/Solid/Road.Solid.Gbx'");
    CHECK(r.code == 1);
    CHECK(r.out.find("node 3\tMissing.dds\t-> Game/Stadium/Media/Missing.dds\tMISSING") !=
          std::string::npos);
    r = run(kPak + " check --refs " + packs);
    CHECK(r.code == 1);
    CHECK(r.out.find(
              "1 gbx files, 4 references, 1 broken, 0 unreadable, 1 hidden by another pack, 2 by "
              "resource index (not resolved)") != std::string::npos);
    CHECK(r.out.find("Game/Shared.txt: the file of pack Stadium is hidden by pack Common") !=
          std::string::npos);
}

TEST_CASE("drives: the drive view of the filesystem, and user.gbx.refs", "[drives]") {
    PacksFolder p;
    auto loaded = packs::loadSources({p.packs}, {});
    fs::PackViewOptions o;
    o.drives = true;
    fs::PackView filesystem(
        packs::orderPacks(std::move(loaded.packs), packs::packListOrder({p.packs})), o);
    std::vector<std::string> names;
    filesystem.readdir(fs::inoAt(filesystem, "/"), 0,
                       [&](const char* n, const struct stat&, std::int64_t) {
                           names.emplace_back(n);
                           return true;
                       });
    CHECK(names == std::vector<std::string>{".", "..", "Game", "Resource"});
    struct stat st {};
    REQUIRE(filesystem.getattr(fs::inoAt(filesystem, "/Game/shared.TXT"), &st) == 0);
    CHECK(st.st_size == 3);  // Common's file
    CHECK(filesystem.getattr(fs::inoAt(filesystem, "/Game/Shared.txt"), &st) == -ENOENT);
    REQUIRE(filesystem.getattr(fs::inoAt(filesystem, "/Resource/Shaders/x.fx"), &st) == 0);
    char buf[512];
    long n = filesystem.getxattr(fs::inoAt(filesystem, "/Game/Stadium/Media/Solid/Road.Solid.Gbx"),
                                 fs::kXattrGbxRefs, buf, sizeof buf);
    REQUIRE(n > 0);
    CHECK(std::string(buf, std::size_t(n)) ==
          "Game/Stadium/Media/Texture/Road.dds\n"
          "resource 1 (not resolved)\n"
          "Game/Stadium/Media/Missing.dds (missing)\n"
          "resource 99 (not resolved)\n");
    const fs::View::Ino dds = fs::inoAt(filesystem, "/Game/Stadium/Media/Texture/Road.dds");
    std::uint64_t fh = 0;
    REQUIRE(filesystem.open(dds, O_RDONLY, &fh) == 0);
    CHECK(filesystem.read(dds, fh, buf, sizeof buf, 0) == 300);
    CHECK(buf[0] == 'r');
    filesystem.release(dds, fh);
}
