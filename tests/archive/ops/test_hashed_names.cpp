// SPDX-License-Identifier: GPL-2.0-or-later
// Hashed names: the hash's vectors, resolution at each split of a path, hash lists (hostile ones
// too), names from gbx reference tables, and pak ls, cat, extract and check naming files by them.
#include <catch2/catch.hpp>

#include <cstdio>

#include "archive/cipher/Crypto.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/ops/HashedNames.hpp"
#include "archive/ops/PakOpener.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

// The stored form computed straight from the documented layout, for a path the caller has
// already lower-cased and written with backslashes: the length byte, then the MD5, each byte
// printed low nibble first.
std::string expected(const std::string& loweredPath) {
    std::vector<std::uint8_t> bytes{std::uint8_t(loweredPath.size() % 256)};
    for (std::uint8_t b : md5(std::string_view(loweredPath))) bytes.push_back(b);
    std::string out;
    for (std::uint8_t b : bytes) {
        char two[8];
        std::snprintf(two, sizeof two, "%X%X", unsigned(b & 0xF), unsigned(b >> 4));
        out += two;
    }
    return out;
}

constexpr const char* kEmptyVector = "004DD1C89DF8002B409E089089CE8F24E7";
constexpr const char* kTextureVector = "318D1445BCEB9EEC36875B7CC0093785DE";

gbx::ExternalRef nameRef(std::string name, std::uint32_t folderIndex) {
    gbx::ExternalRef r;
    r.name = std::move(name);
    r.folderIndex = folderIndex;
    return r;
}

}  // namespace

TEST_CASE("hashed names: the documented vectors", "[names]") {
    CHECK(hashedName("") == kEmptyVector);
    CHECK(hashedName("Media\\Texture\\A.dds") == kTextureVector);
    // The independent computation agrees on both.
    CHECK(expected("") == kEmptyVector);
    CHECK(expected("media\\texture\\a.dds") == kTextureVector);
    // The vector holds for backslashes only; slashes are taken as backslashes.
    CHECK(expected("media/texture/a.dds") != kTextureVector);
    CHECK(hashedName("Media/Texture/A.dds") == kTextureVector);
}

TEST_CASE("hashed names: case-insensitive, ASCII lower-casing, length modulo 256", "[names]") {
    CHECK(hashedName("MEDIA\\texture\\a.DDS") == kTextureVector);
    CHECK(hashedName("media\\TEXTURE\\A.dds") == kTextureVector);
    // Non-ASCII bytes are hashed as they are ("É" stays "É").
    CHECK(hashedName("Skins\\\xC3\x89t\xC3\xA9.dds") == expected("skins\\\xC3\x89t\xC3\xA9.dds"));
    // 300 bytes: the length byte is 300 % 256 = 0x2C, printed "C2".
    std::string longPath(300, 'x');
    CHECK(hashedName(longPath).substr(0, 2) == "C2");
    CHECK(hashedName(longPath) == expected(longPath));
    CHECK(hashedName(std::string(256, 'Q')) == expected(std::string(256, 'q')));
    CHECK(hashedName(std::string(256, 'Q')).substr(0, 2) == "00");
}

TEST_CASE("hashed names: looksHashed", "[names]") {
    CHECK(looksHashed(kEmptyVector));
    CHECK(looksHashed(kTextureVector));
    CHECK(looksHashed(std::string(34, '0')));
    CHECK(looksHashed("0123456789ABCDEF0123456789ABCDEF01"));
    CHECK_FALSE(looksHashed(""));
    CHECK_FALSE(looksHashed("A.dds"));
    CHECK_FALSE(looksHashed("318d1445bceb9eec36875b7cc0093785de"));   // lower case
    CHECK_FALSE(looksHashed("318D1445BCEB9EEC36875B7CC0093785D"));    // 33 digits
    CHECK_FALSE(looksHashed("318D1445BCEB9EEC36875B7CC0093785DE0"));  // 35 digits
    CHECK_FALSE(looksHashed("318D1445BCEB9EEC36875B7CC0093785DG"));   // not hex
    CHECK_FALSE(looksHashed("318D1445BCEB9EEC36875B7CC0093785D "));
    CHECK_FALSE(looksHashed(std::string_view("318D1445BCEB9EEC36875B7CC0093785D\0", 34)));
}

TEST_CASE("hashed names: resolution at each split of a four-component path", "[names]") {
    // Four files of the same depth, each stored at a different split.
    std::vector<HashedEntryName> entries = {
        {"Media/Texture/Sub", expected("rock.dds")},
        {"Media/Texture", expected("sub\\sand.dds")},
        {"Media", expected("texture\\sub\\grass.dds")},
        {"", expected("media\\texture\\sub\\dirt.dds")},
        {"Media/Texture/Sub", "Plain.dds"},  // not hashed
    };
    std::vector<std::string> candidates = {
        "Media/Texture/Sub/Rock.dds",  "Media\\Texture\\Sub\\Sand.dds",
        "media/texture/sub/Grass.dds", "Media/Texture/Sub/Dirt.dds",
        "Media/Texture/Sub/Plain.dds",
    };
    auto names = resolveHashedNames(entries, candidates);
    CHECK(names == std::map<std::size_t, std::string>{
                       {0, "Media/Texture/Sub/Rock.dds"},
                       {1, "Media/Texture/Sub/Sand.dds"},
                       // The entry's folder as the pack spells it, the rest as the candidate.
                       {2, "Media/texture/sub/Grass.dds"},
                       {3, "Media/Texture/Sub/Dirt.dds"},
                   });
    // The order of the candidates does not matter when each matches one entry.
    std::vector<std::string> reversed(candidates.rbegin(), candidates.rend());
    CHECK(resolveHashedNames(entries, reversed) == names);

    // Folders compare case-insensitively, and slashes, backslashes and doubled separators in
    // the entry folder are the same folder.
    std::vector<HashedEntryName> odd = {{"MEDIA\\texture//", expected("sub\\sand.dds")}};
    CHECK(resolveHashedNames(odd, candidates) ==
          std::map<std::size_t, std::string>{{0, "MEDIA/texture/Sub/Sand.dds"}});
}

TEST_CASE("hashed names: a candidate that matches nothing", "[names]") {
    std::vector<HashedEntryName> entries = {
        {"Media/Texture/Sub", expected("rock.dds")},
        {"Other", expected("rock.dds")},  // the right hash in the wrong folder
    };
    CHECK(resolveHashedNames(entries, {"Media/Texture/Sub/Stone.dds"}).empty());
    CHECK(resolveHashedNames(entries, {"Elsewhere/Rock.dds", "", "/", "Rock.dds"}).empty());
    CHECK(resolveHashedNames(entries, {}).empty());
    CHECK(resolveHashedNames({}, {"Media/Texture/Sub/Rock.dds"}).empty());
    auto one = resolveHashedNames(entries, {"Media/Texture/Sub/Rock.dds"});
    CHECK(one == std::map<std::size_t, std::string>{{0, "Media/Texture/Sub/Rock.dds"}});
}

TEST_CASE("hashed names: entries that are not hashed are never renamed", "[names]") {
    std::string lowerHex = expected("a.dds");
    for (char& c : lowerHex)
        if (c >= 'A' && c <= 'F') c = char(c - 'A' + 'a');
    std::vector<HashedEntryName> entries = {
        {"Media", "A.dds"},
        {"Media", lowerHex},                    // hex, but not the stored form
        {"Media", expected("a.dds") + ".gbx"},  // a hash with an extension
        {"Media", expected("a.dds")},
    };
    auto names = resolveHashedNames(entries, {"Media/A.dds", "Media/A.dds"});
    CHECK(names == std::map<std::size_t, std::string>{{3, "Media/A.dds"}});
    // Duplicate entries (a hostile pack) both get the name.
    std::vector<HashedEntryName> twice = {{"", expected("a.dds")}, {"", expected("a.dds")}};
    CHECK(resolveHashedNames(twice, {"a.dds"}).size() == 2);
    // Candidates that differ only in case: the first wins.
    CHECK(resolveHashedNames(twice, {"A.DDS", "a.dds"}).at(0) == "A.DDS");
}

TEST_CASE("hashed names: a shared hash list, one right and one wrong pair", "[names]") {
    std::string text = std::string(kTextureVector) + "\n" + "Media\\Texture\\A.dds\n" +
                       expected("media\\texture\\b.dds") + "\n" + "Media\\Texture\\C.dds\n";
    std::size_t rejected = 99;
    auto list = readHashList(text, &rejected);
    CHECK(rejected == 1);
    CHECK(list == std::map<std::string, std::string>{{kTextureVector, "Media\\Texture\\A.dds"}});
    // CRLF, blank lines, surrounding blanks, a byte order mark and lower-case hex are accepted.
    std::string crlf =
        "\xEF\xBB\xBF\r\n  318d1445bceb9eec36875b7cc0093785de \r\n\r\n"
        "\tMedia\\Texture\\A.dds\r\n";
    CHECK(readHashList(crlf, &rejected) == list);
    CHECK(rejected == 0);
    CHECK(readHashList(text) == list);  // no count wanted
}

TEST_CASE("hashed names: hostile hash lists never crash", "[names]") {
    std::size_t rejected = 99;
    CHECK(readHashList("", &rejected).empty());
    CHECK(rejected == 0);
    CHECK(readHashList("\n\n\r\n  \n", &rejected).empty());
    CHECK(rejected == 0);

    // Odd line count: the last hash has no path.
    std::string odd = std::string(kTextureVector) + "\nMedia\\Texture\\A.dds\n" + kEmptyVector;
    CHECK(readHashList(odd, &rejected).size() == 1);
    CHECK(rejected == 1);
    // A hash line followed by another hash line: the first is rejected, the second paired.
    std::string twoHashes =
        std::string(kEmptyVector) + "\n" + kTextureVector + "\nMedia\\Texture\\A.dds\n";
    CHECK(readHashList(twoHashes, &rejected).size() == 1);
    CHECK(rejected == 1);
    // A path with no hash before it.
    CHECK(readHashList("Media\\Texture\\A.dds\n", &rejected).empty());
    CHECK(rejected == 1);
    // Non-hex and wrong-length hash lines are not hashes: both lines of each pair are rejected.
    std::string nonHex =
        "318D1445BCEB9EEC36875B7CC0093785DZ\nMedia\\Texture\\A.dds\n"
        "318D1445BCEB9EEC36875B7CC0093785D\nMedia\\Texture\\A.dds\n";
    CHECK(readHashList(nonHex, &rejected).empty());
    CHECK(rejected == 4);
    // Very long lines, as a hash and as a path.
    std::string longLine(1 << 20, 'A');
    std::string hostile = longLine + "\n" + kTextureVector + "\n" + longLine + "\n" +
                          expected(std::string(1 << 20, 'a')) + "\n" + longLine;
    auto list = readHashList(hostile, &rejected);
    CHECK(list.size() == 1);
    CHECK(list.begin()->second.size() == longLine.size());
    CHECK(rejected == 2);
    // Embedded NUL bytes and no final newline.
    std::string nul("\0\0\n\0", 4);
    CHECK(readHashList(nul, &rejected).empty());
    CHECK(rejected == 2);
    // A hash listed twice keeps its first right path.
    std::string dup = std::string(kTextureVector) + "\nMedia\\Texture\\A.dds\n" + kTextureVector +
                      "\nMEDIA\\TEXTURE\\A.DDS\n";
    CHECK(readHashList(dup, &rejected).at(kTextureVector) == "Media\\Texture\\A.dds");
    CHECK(rejected == 0);
}

TEST_CASE("hashed names: candidates from a gbx reference table", "[names]") {
    gbx::RefTable refs;
    refs.folderPaths = {"Media/", "Media/Texture/"};  // folder indices 1 and 2
    const std::string referrer = "Items/Trees/Oak.Item.Gbx";

    refs.ancestorLevel = 0;
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 0)) == "Items/Trees/Bark.dds");
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 2)) ==
          "Items/Trees/Media/Texture/Bark.dds");
    refs.ancestorLevel = 2;
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 0)) == "Bark.dds");
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 1)) == "Media/Bark.dds");
    CHECK(refCandidatePath(referrer, refs, nameRef("Sub\\Bark.dds", 2)) ==
          "Media/Texture/Sub/Bark.dds");
    refs.ancestorLevel = 1;
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 1)) == "Items/Media/Bark.dds");

    // Above the root, a bad folder index, no name, by resource: no candidate.
    refs.ancestorLevel = 3;
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 0)) == std::nullopt);
    refs.ancestorLevel = 0;
    CHECK(refCandidatePath("Oak.Item.Gbx", refs, nameRef("Bark.dds", 0)) == "Bark.dds");
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 3)) == std::nullopt);
    CHECK(refCandidatePath(referrer, refs, nameRef("", 0)) == std::nullopt);
    gbx::ExternalRef byResource;
    byResource.flags = 4;
    CHECK(refCandidatePath(referrer, refs, byResource) == std::nullopt);
    refs.ancestorLevel = 0xFFFFFFFF;
    CHECK(refCandidatePath(referrer, refs, nameRef("Bark.dds", 0)) == std::nullopt);

    // The candidates name the hashed entries they point to.
    refs.ancestorLevel = 2;
    auto candidate = refCandidatePath(referrer, refs, nameRef("Bark.dds", 2));
    REQUIRE(candidate);
    std::vector<HashedEntryName> entries = {{"Media", expected("texture\\bark.dds")}};
    CHECK(resolveHashedNames(entries, {*candidate}) ==
          std::map<std::size_t, std::string>{{0, "Media/Texture/Bark.dds"}});
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
    auto named = openPakIndex(dir / "H.Pack.Gbx", PakKeyInput{key},
                              {.resolveNames = true, .nameLists = {}, .salvage = false});
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
    // By default, and with --resolve-names (what it asked for is the default now).
    const std::string ls = std::string(PAKFS_PAK_BINARY) + " ls --key " + hexString(key) + " '" +
                           (dir / "H.Pack.Gbx").string() + "'";
    for (const char* extra : {"", " --resolve-names"}) {
        auto r = test::run(ls + extra);
        CHECK(r.code == 0);
        CHECK(r.out ==
              hashedName("Nobody\\Refers.txt") +
                  "\nTracks/Demo.Solid.Gbx\nTracks/Demo.Challenge.Gbx\nTracks/Demo.Solid.Gbx\n");
    }
    // --hashed-names shows what the pack stores.
    auto r = test::run(ls + " --hashed-names");
    CHECK(r.code == 0);
    CHECK(r.out == hashedName("Nobody\\Refers.txt") + "\n" + hashedName("Tracks\\Demo.Solid.Gbx") +
                       "\nTracks/Demo.Challenge.Gbx\nTracks/" + hashedName("Demo.Solid.Gbx") +
                       "\n");
    // A file is found by its stored path too; the check counts the names.
    r = test::run(std::string(PAKFS_PAK_BINARY) + " cat --key " + hexString(key) + " '" +
                  (dir / "H.Pack.Gbx").string() + "' " + hashedName("Tracks\\Demo.Solid.Gbx"));
    CHECK(r.code == 0);
    CHECK(Bytes(r.out.begin(), r.out.end()) == test::readFile(sample / "Demo.Solid.Gbx"));
    CHECK(countHashedNames(*named).resolved == 2);
    CHECK(countHashedNames(*named).left == 1);
    CHECK(countHashedNames(*plain).resolved == 0);
    CHECK(countHashedNames(*plain).left == 3);
    r = test::run(std::string(PAKFS_PAK_BINARY) + " check --key " + hexString(key) + " '" +
                  (dir / "H.Pack.Gbx").string() + "'");
    CHECK(r.out.find("\n3 files stored under a hashed name: 2 named, 1 left as hashes\n") !=
          std::string::npos);
    r = test::run(ls + " --hashed-names --names '" + (dir / "H.Pack.Gbx").string() + "'");
    CHECK(r.code == 2);
    CHECK(r.err.find("--hashed-names shows the stored hashes: it does not go with --names") !=
          std::string::npos);
}

TEST_CASE("hashed names: packs read together name each other's files", "[names][v6]") {
    // The map is in one pack, the solid it refers to stored under its hash in another.
    test::TempDir dir;
    fs::path sample = test::sourceDir() / "sample/tree/Tracks";
    fs::create_directories(dir / "a/Tracks");
    fs::create_directories(dir / "b/Tracks");
    fs::copy_file(sample / "Demo.Challenge.Gbx", dir / "a/Tracks/Demo.Challenge.Gbx");
    fs::copy_file(sample / "Demo.Solid.Gbx", dir / "b/Tracks" / hashedName("Demo.Solid.Gbx"));
    PackOptions options;
    options.version = 18;
    PakKey key{};
    key[5] = 7;
    writePak(dir / "a", dir / "A.Pack.Gbx", key, options);
    writePak(dir / "b", dir / "B.Pack.Gbx", key, options);
    // Alone, B cannot name its file.
    auto alone = openPakIndex(dir / "B.Pack.Gbx", PakKeyInput{key});
    CHECK(alone->entries().at(0).path == "Tracks/" + hashedName("Demo.Solid.Gbx"));
    CHECK(alone->resolvedNames() == 0);
    std::vector<std::shared_ptr<const PakIndex>> paks{
        openPakIndex(dir / "A.Pack.Gbx", PakKeyInput{key}, {.resolveNames = false}),
        openPakIndex(dir / "B.Pack.Gbx", PakKeyInput{key}, {.resolveNames = false})};
    CHECK(resolvePacksNames(paks) ==
          std::vector<std::map<std::size_t, std::string>>{{}, {{0, "Tracks/Demo.Solid.Gbx"}}});
    const auto before = paks[1];
    resolveNamesTogether(paks, {.resolveNames = false});  // nothing asked: nothing changes
    CHECK(paks[1] == before);
    resolveNamesTogether(paks, {});
    CHECK(paks[1]->entries().at(0).path == "Tracks/Demo.Solid.Gbx");
    CHECK(paks[1]->entries().at(0).name == hashedName("Demo.Solid.Gbx"));  // as stored
    CHECK(paks[1]->resolvedNames() == 1);
    CHECK(before->entries().at(0).path == "Tracks/" + hashedName("Demo.Solid.Gbx"));
    // The renamed copy reads as the original.
    CHECK(readEntry(paks[1], paks[1]->entries().at(0)) ==
          test::readFile(sample / "Demo.Solid.Gbx"));
    // pak diff reads its two paks together: B's file has its name, so it is "A" in B.
    auto r = test::run(std::string(PAKFS_PAK_BINARY) + " diff --key " + hexString(key) + " '" +
                       (dir / "A.Pack.Gbx").string() + "' '" + (dir / "B.Pack.Gbx").string() + "'");
    CHECK(r.code == 1);
    CHECK(r.out == "D Tracks/Demo.Challenge.Gbx\nA Tracks/Demo.Solid.Gbx\n");
}

namespace {
void writeText(const fs::path& p, const std::string& text) {
    test::writeFile(p, Bytes(text.begin(), text.end()));
}
}  // namespace

TEST_CASE("hashed names: pak ls, cat, extract and check --names with shared lists of both forms",
          "[names][v6]") {
    // Stored under their hashes: one in its folder (h(name)), one at the root (h(path)), one
    // that no list names.
    test::TempDir dir;
    fs::create_directories(dir / "src/Media/Texture");
    test::writeFile(dir / "src/Media/Texture" / hashedName("A.dds"), Bytes(100, 'a'));
    test::writeFile(dir / "src" / hashedName("Media\\Sound\\B.ogg"), Bytes(50, 'b'));
    test::writeFile(dir / "src" / hashedName("Unknown.txt"), Bytes(5, 'u'));
    PackOptions options;
    options.version = 17;
    PakKey key{};
    key[3] = 9;
    writePak(dir / "src", dir / "N.Pack.Gbx", key, options);
    // One list in the one-line form (with a wrong pair and a hash without a name), one in the
    // two-line form.
    writeText(dir / "one.txt", "# names of the test pack\n" + hashedName("A.dds") + " A.dds\n" +
                                   hashedName("X.dds") + " Y.dds\n" + hashedName("Lonely.txt") +
                                   " \n");
    writeText(dir / "two.txt", hashedName("Media\\Sound\\B.ogg") + "\nMedia\\Sound\\B.ogg\n");
    const std::string pak = std::string(PAKFS_PAK_BINARY);
    const std::string args =
        " --key " + hexString(key) + " --names '" + (dir / "one.txt").string() + "' --names '" +
        (dir / "two.txt").string() + "' '" + (dir / "N.Pack.Gbx").string() + "'";
    auto r = test::run(pak + " ls" + args);
    CHECK(r.code == 0);
    // In the file table's order: the root's files, then the folders'.
    CHECK(r.out == "Media/Sound/B.ogg\n" + hashedName("Unknown.txt") + "\nMedia/Texture/A.dds\n");
    CHECK(r.err == "pak: warning: " + (dir / "one.txt").string() +
                       ": 2 lines left out (a name that does not hash to its hash, a hash without "
                       "a name, or neither)\n");
    r = test::run(pak + " cat" + args + " Media/Sound/B.ogg");
    CHECK(r.code == 0);
    CHECK(r.out == std::string(50, 'b'));
    r = test::run(pak + " extract -q" + args + " '" + (dir / "x").string() + "'");
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(test::readFile(dir / "x/Media/Texture/A.dds") == Bytes(100, 'a'));
    r = test::run(pak + " check -q" + args);
    CHECK(r.code == 0);
    // A list that is not there, or names nothing: an error naming it.
    r = test::run(pak + " ls --key " + hexString(key) + " --names '" +
                  (dir / "missing.txt").string() + "' '" + (dir / "N.Pack.Gbx").string() + "'");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "missing.txt").string() + ": cannot open the name list\n");
    writeText(dir / "bad.txt", "not a list\n");
    r = test::run(pak + " ls --key " + hexString(key) + " --names '" + (dir / "bad.txt").string() +
                  "' '" + (dir / "N.Pack.Gbx").string() + "'");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "bad.txt").string() +
                       ": no name in it hashes to its hash (lines: HASH NAME, or HASH then "
                       "NAME)\n");
}

TEST_CASE("hashed names: the lists players share read whole", "[names][shared]") {
    const fs::path lists = test::sharedDir("data/namelists");
    std::size_t rejected = 0;
    auto tm2020 = readHashListFile(lists / "FileHashes_TM2020.txt", &rejected);
    // Every named line hashes right (the list's README); the rest are hashes without a name.
    CHECK(tm2020.size() + rejected == 23957);
    CHECK(tm2020.size() > 20000);
    auto tmuf = readHashListFile(lists / "FileHashes_TMUF.txt", &rejected);
    CHECK(tmuf.at("218CC7841AF34F56FB6E9C283CFC7D12C8") == "321Go.Material.Gbx");
    for (const auto& [hash, name] : tmuf) CHECK(hashedName(name) == hash);
}
