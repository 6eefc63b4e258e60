// SPDX-License-Identifier: GPL-2.0-or-later
// Hashed file names of version 6+ packs: the notes' vectors, every split of a path, and real
// names from a gbx reference table of the same pack (`pak ls --resolve-names`).
#include <catch2/catch.hpp>

#include "archive/Crypto.hpp"
#include "archive/HashedNames.hpp"
#include "archive/PakIndex.hpp"
#include "archive/PakWriter.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

// The layout written out here from the notes: length byte, then MD5 of the lower-cased path;
// each byte as two upper-case hex digits, low nibble first.
std::string expectedHash(const std::string& lowerPath) {
    Bytes raw{std::uint8_t(lowerPath.size())};
    Md5Digest d = md5(std::string_view(lowerPath));
    raw.insert(raw.end(), d.begin(), d.end());
    std::string hex = hexString(raw, true), out;
    for (std::size_t i = 0; i < hex.size(); i += 2) out += std::string{hex[i + 1], hex[i]};
    return out;
}

}  // namespace

TEST_CASE("hashed names: the notes' vectors, case and layout", "[names]") {
    CHECK(hashedName("") == "004DD1C89DF8002B409E089089CE8F24E7");
    CHECK(hashedName("Media\\Texture\\A.dds") == "318D1445BCEB9EEC36875B7CC0093785DE");
    CHECK(hashedName("MEDIA\\texture\\a.DDS") == "318D1445BCEB9EEC36875B7CC0093785DE");
    CHECK(hashedName("Tracks\\Demo.Solid.Gbx") == expectedHash("tracks\\demo.solid.gbx"));
    CHECK(looksHashed("318D1445BCEB9EEC36875B7CC0093785DE"));
    CHECK_FALSE(looksHashed("318d1445bceb9eec36875b7cc0093785de"));
    CHECK_FALSE(looksHashed("318D1445BCEB9EEC36875B7CC0093785D"));
    CHECK_FALSE(looksHashed("Demo.Solid.Gbx"));
}

TEST_CASE("hashed names: a candidate path resolves every split of itself", "[names]") {
    const std::string path = "A/B/C/name.txt";
    std::vector<HashedEntryName> entries = {
        {"A/B/C", expectedHash("name.txt")},
        {"a/b", expectedHash("c\\name.txt")},  // folders compare case-insensitively
        {"A", expectedHash("b\\c\\name.txt")},
        {"", expectedHash("a\\b\\c\\name.txt")},
        {"A/B", expectedHash("name.txt")},    // wrong folder for this hash
        {"A/B/C", "name.txt"},                // not hashed: never renamed
        {"X", expectedHash("x\\other.txt")},  // no candidate
    };
    auto got = resolveHashedNames(entries, {path, "Unrelated/file.bin"});
    CHECK(got == std::map<std::size_t, std::string>{{0, path}, {1, path}, {2, path}, {3, path}});
    CHECK(resolveHashedNames(entries, {"A\\B\\C\\name.txt"}).size() == 4);
    CHECK(resolveHashedNames(entries, {}).empty());
}

TEST_CASE("hashed names: pak ls --resolve-names names files from a gbx reference table",
          "[names][v6]") {
    // The demo map refers to Demo.Solid.Gbx beside it; here the solid is stored under its
    // hash, once in Tracks (h(name)) and once at the root (h(Tracks\name)).
    test::TempDir dir;
    fs::path sample = test::sourceDir() / "sample/tree/Tracks";
    fs::create_directories(dir / "src/Tracks");
    fs::copy_file(sample / "Demo.Challenge.Gbx", dir / "src/Tracks/Demo.Challenge.Gbx");
    fs::copy_file(sample / "Demo.Solid.Gbx", dir / "src/Tracks" / hashedName("Demo.Solid.Gbx"));
    fs::copy_file(sample / "Demo.Solid.Gbx", dir / "src" / hashedName("Tracks\\Demo.Solid.Gbx"));
    test::writeFile(dir / "src" / hashedName("Nobody\\Refers.txt"), Bytes(10, 'n'));
    PackOptions options;
    options.version = 17;
    PakKey key{};
    key[0] = 1;
    writePak(dir / "src", dir / "H.Pack.Gbx", key, options);
    auto plain = PakIndex::open(dir / "H.Pack.Gbx", key);
    auto named = PakIndex::open(dir / "H.Pack.Gbx", PakKeyInput{key}, true);
    CHECK(named->resolvedNames() == 2);
    std::vector<std::string> before, after;
    for (const auto& e : plain->entries()) before.push_back(e.path);
    for (const auto& e : named->entries()) after.push_back(e.path);
    CHECK(before == std::vector<std::string>{
                        hashedName("Nobody\\Refers.txt"), hashedName("Tracks\\Demo.Solid.Gbx"),
                        "Tracks/Demo.Challenge.Gbx", "Tracks/" + hashedName("Demo.Solid.Gbx")});
    CHECK(after == std::vector<std::string>{hashedName("Nobody\\Refers.txt"),
                                            "Tracks/Demo.Solid.Gbx", "Tracks/Demo.Challenge.Gbx",
                                            "Tracks/Demo.Solid.Gbx"});
    auto r = test::run(std::string(PAKFS_PAK_BINARY) + " ls --resolve-names --key " +
                       hexString(key) + " '" + (dir / "H.Pack.Gbx").string() + "'");
    CHECK(r.code == 0);
    CHECK(r.out ==
          hashedName("Nobody\\Refers.txt") +
              "\nTracks/Demo.Solid.Gbx\nTracks/Demo.Challenge.Gbx\nTracks/Demo.Solid.Gbx\n");
}
