// SPDX-License-Identifier: GPL-2.0-or-later
// The packlist edits `pak packlist add` and `pak commit --patch --packlist` share.
#include <catch2/catch.hpp>

#include "archive/pak/PackList.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

bool isUpperHex(const std::string& s) {
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) return false;
    return true;
}

}  // namespace

TEST_CASE("packlist: putLast moves an entry last, keeping its key string, or adds a new one") {
    PackList list;
    list.entries = {{0, "Stadium", std::string(32, 'A')},
                    {0, "Patch", std::string(32, 'B')},
                    {0, "Music", std::string(32, 'C')}};
    bool added = true;
    const PackListEntry& moved = list.putLast("patch", added);
    CHECK_FALSE(added);
    CHECK(moved.name == "Patch");
    CHECK(moved.keyString == std::string(32, 'B'));
    REQUIRE(list.entries.size() == 3);
    CHECK(list.entries[0].name == "Stadium");
    CHECK(list.entries[1].name == "Music");
    CHECK(list.entries[2].name == "Patch");
    CHECK(list.namesAfter("STADIUM") == std::vector<std::string>{"Music", "Patch"});
    CHECK(list.namesAfter("Patch").empty());
    CHECK(list.namesAfter("None").empty());

    const PackListEntry& fresh = list.putLast("Extra", added);
    CHECK(added);
    CHECK(fresh.name == "Extra");
    CHECK(fresh.keyString.size() == 32);
    CHECK(isUpperHex(fresh.keyString));
    REQUIRE(list.entries.size() == 4);
    CHECK(&list.entries.back() == &fresh);
}

TEST_CASE("packlist: readPackListOrNew reads the file, or starts an empty signed list") {
    test::TempDir dir;
    const auto path = dir / "packlist.dat";
    PackList made = readPackListOrNew(path);
    CHECK(made.entries.empty());
    CHECK(made.salt < 1000000000u);
    bool added = false;
    const std::string keyString = made.putLast("Mine", added).keyString;
    writePackList(path, made);
    const PackList read = readPackListOrNew(path);
    CHECK(read.signatureValid);
    CHECK(read.salt == made.salt);
    REQUIRE(read.entries.size() == 1);
    CHECK(read.entries[0].name == "Mine");
    CHECK(read.entries[0].keyString == keyString);
}

TEST_CASE("packlist: isPackFile and packNameOf agree on the extensions, in any case") {
    CHECK(isPackFile("Packs/Stadium.pak"));
    CHECK(isPackFile("Packs/Stadium.PAK"));
    CHECK(isPackFile("Stadium.Pack.Gbx"));
    CHECK(isPackFile("stadium.pack.gbx"));
    CHECK_FALSE(isPackFile("Stadium.gbx"));
    CHECK_FALSE(isPackFile("Stadium.pak.bak"));
    CHECK_FALSE(isPackFile("packlist.dat"));
    CHECK(packNameOf("Packs/Stadium.PAK") == "Stadium");
    CHECK(packNameOf("Stadium.Pack.Gbx") == "Stadium");
}

TEST_CASE("packlist: findPackFile finds a pack by name in any case, and only packs") {
    test::TempDir dir;
    test::writeFile(dir / "Stadium.PAK", Bytes{1});
    test::writeFile(dir / "Music.txt", Bytes{2});
    CHECK(findPackFile(dir.path(), "stadium") == dir / "Stadium.PAK");
    CHECK(findPackFile(dir.path(), "Music") == std::nullopt);
    CHECK(findPackFile(dir.path(), "Other") == std::nullopt);
}
