// SPDX-License-Identifier: GPL-2.0-or-later
// Keys files (--keys, -o keys=): their lines, their errors, and the key each pak gets from one;
// and the packlist key a pak that no entry names opens with (its header MD5 fits).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "archive/pak/KeysFile.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/write/PakWriter.hpp"
#include "common/Error.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace stdfs = std::filesystem;

namespace {

constexpr const char* kHexA = "00112233445566778899AABBCCDDEEFF";
constexpr const char* kHexB = "FFEEDDCCBBAA99887766554433221100";

PakKey keyOfHex(const std::string& hex) {
    PakKey k{};
    REQUIRE(parseHex(hex, k));
    return k;
}

void writeTextFile(const stdfs::path& p, const std::string& text) {
    test::writeFile(p, Bytes(text.begin(), text.end()));
}

}  // namespace

TEST_CASE("keys file: NAME KIND HEX lines, comments, blank lines, names in any case", "[keys]") {
    const std::string text = std::string("\xEF\xBB\xBF") +  // a byte order mark is skipped
                             "# the Packs folder of a server\n"
                             "\n"
                             "dedicated base-key " +
                             kHexA +
                             "\r\n"
                             "  Foo\tkey  " +
                             kHexB +
                             "   # the pack key itself\n"
                             "Bar ms-key " +
                             std::string(kHexA) + "#comment\n";
    // A '#' right after the hex digits is not a comment: HEX then is not 32 hex digits.
    CHECK_THROWS_WITH(parseKeysFile(text, "keys.txt"),
                      "keys.txt: line 5: the ms-key must be 32 hex digits (the 16 bytes of a "
                      "key), got \"" +
                          std::string(kHexA) + "#comment\"");
    const KeysFile keys =
        parseKeysFile(text.substr(0, text.rfind("Bar")) + "Bar ms-key " + kHexA + "\n", "k");
    REQUIRE(keys.entries.size() == 3);
    CHECK(keys.entries[0].line == 3);
    CHECK(keys.entries[1].name == "Foo");
    CHECK(keys.entries[1].line == 4);
    CHECK(keys.entries[2].line == 5);
    // Names match without regard to case; the kinds give the key PakIndex::open takes.
    REQUIRE(keys.find("DEDICATED") == &keys.entries[0]);
    REQUIRE(keys.find("foo") == &keys.entries[1]);
    CHECK(keys.find("dedicated.pak") == nullptr);
    CHECK(keys.find("other") == nullptr);
    const PakKeyInput base = keyInputOf(keys.entries[0]);
    CHECK(*base.key == keyFromBaseKey(keyOfHex(kHexA)));
    CHECK(!base.masterServer);
    const PakKeyInput plain = keyInputOf(keys.entries[1]);
    CHECK(*plain.key == keyOfHex(kHexB));
    CHECK(!plain.masterServer);
    const PakKeyInput ms = keyInputOf(*keys.find("bar"));
    CHECK(*ms.key == keyOfHex(kHexA));
    CHECK(ms.masterServer);
    CHECK(parseKeysFile("", "empty").entries.empty());
    CHECK(parseKeysFile("# nothing but a comment\n\n", "c").entries.empty());
}

TEST_CASE("keys file: a malformed line is an error naming the file and the line", "[keys]") {
    const std::string hex = kHexA;
    auto fails = [](const std::string& text, const std::string& message) {
        INFO(text);
        CHECK_THROWS_WITH(parseKeysFile(text, "/p/keys"), message);
    };
    fails("a key " + hex + "\nb key\n",
          "/p/keys: line 2: expected NAME KIND HEX (e.g. \"dedicated base-key "
          "00000000000000000000000000000000\"), got 2 fields");
    fails("a key " + hex + " extra\n",
          "/p/keys: line 1: expected NAME KIND HEX (e.g. \"dedicated base-key "
          "00000000000000000000000000000000\"), got 4 fields");
    fails("lonely\n",
          "/p/keys: line 1: expected NAME KIND HEX (e.g. \"dedicated base-key "
          "00000000000000000000000000000000\"), got 1 field");
    fails("a basekey " + hex + "\n",
          "/p/keys: line 1: KIND must be key, base-key or ms-key, got \"basekey\"");
    fails("a KEY " + hex + "\n",
          "/p/keys: line 1: KIND must be key, base-key or ms-key, got \"KEY\"");
    fails("a key " + hex.substr(0, 31) + "\n",
          "/p/keys: line 1: the key must be 32 hex digits (the 16 bytes of a key), got \"" +
              hex.substr(0, 31) + "\"");
    fails("a base-key " + hex + "0\n",
          "/p/keys: line 1: the base-key must be 32 hex digits (the 16 bytes of a key), got \"" +
              hex + "0\"");
    fails("a key " + hex.substr(0, 30) + "zz\n",
          "/p/keys: line 1: the key must be 32 hex digits (the 16 bytes of a key), got \"" +
              hex.substr(0, 30) + "zz\"");
    fails("dedicated.pak key " + hex + "\n",
          "/p/keys: line 1: NAME is the pack file's name without its extension: \"dedicated\", "
          "not \"dedicated.pak\"");
    fails("Foo.Pack.Gbx key " + hex + "\n",
          "/p/keys: line 1: NAME is the pack file's name without its extension: \"Foo\", not "
          "\"Foo.Pack.Gbx\"");
    fails("Packs/foo key " + hex + "\n",
          "/p/keys: line 1: the pack name \"Packs/foo\" holds a path separator ('/' or '\\'): a "
          "packlist names packs, not their files");
    fails("# two packs\nFoo key " + hex + "\n\nfoo base-key " + hex + "\n",
          "/p/keys: line 4: pack \"foo\" is listed already on line 2 (names are compared "
          "without regard to case)");
}

TEST_CASE("keys file: each pak of a folder opens with the key its pack name is given",
          "[keys][v6]") {
    test::TempDir dir;
    test::writeFile(dir / "src/a.txt", Bytes{'a', '\n'});
    PackOptions options;
    options.version = 18;
    writePak(dir / "src", dir / "Alpha.Pack.Gbx", keyOfHex(kHexA), options);
    writePak(dir / "src", dir / "beta.pak", keyFromBaseKey(keyOfHex(kHexB)), options);
    writeTextFile(dir / "keys",
                  std::string("ALPHA key ") + kHexA + "\nBeta base-key " + kHexB + "\n");
    KeyOptions keys;
    keys.keysFile = dir / "keys";
    CHECK(*resolvePakKey(dir / "Alpha.Pack.Gbx", keys).key == keyOfHex(kHexA));
    CHECK(*resolvePakKey(dir / "beta.pak", keys).key == keyFromBaseKey(keyOfHex(kHexB)));
    CHECK(PakIndex::open(dir / "beta.pak", resolvePakKey(dir / "beta.pak", keys))->hasKey());
    // A pack the file does not name: the packlist's key, or (version 6+) none.
    writePak(dir / "src", dir / "Gamma.Pack.Gbx", keyOfHex(kHexB), options);
    CHECK(!resolvePakKey(dir / "Gamma.Pack.Gbx", keys).key);
    // Not with a key for every pak.
    keys.keyHex = kHexA;
    CHECK_THROWS_AS(resolvePakKey(dir / "Alpha.Pack.Gbx", keys), UsageError);
    keys.keyHex.clear();
    // An ms-key cannot write a pack or open a version 3 pak.
    writeTextFile(dir / "keys", std::string("alpha ms-key ") + kHexA + "\n");
    CHECK(resolvePakKey(dir / "Alpha.Pack.Gbx", keys).masterServer);
    CHECK_THROWS_WITH(resolveKey(dir / "Alpha.Pack.Gbx", keys),
                      (dir / "keys").string() +
                          ": pack \"Alpha\" has an ms-key, which needs a version 6+ pack's "
                          "contents checksum (it cannot open a version 3 pak or write a pack)");
    // A keys file that cannot be read names itself.
    keys.keysFile = dir / "absent";
    CHECK_THROWS_AS(resolvePakKey(dir / "Alpha.Pack.Gbx", keys), Error);
}

TEST_CASE("packlist: a pak no entry names opens with the entry whose key its header MD5 fits",
          "[keys][packlist]") {
    // Version 3 and a version 18 pack with a private header, each named in no entry.
    test::TempDir dir;
    test::writeFile(dir / "src/a.txt", Bytes{'a', '\n'});
    PackList list;
    bool added = false;
    list.putLast("first", added);
    const PackListEntry& second = list.putLast("second", added);
    const PakKey key = second.key();
    writePackList(dir / "packlist.dat", list);
    writePak(dir / "src", dir / "Second.orig.pak", key, PackOptions{});
    PackOptions v18;
    v18.version = 18;
    writePak(dir / "src", dir / "Second.orig.Pack.Gbx", key, v18);
    CHECK(PakIndex::keyFits(dir / "Second.orig.pak", key));
    CHECK(!PakIndex::keyFits(dir / "Second.orig.pak", list.entries[0].key()));
    CHECK(PakIndex::keyFits(dir / "Second.orig.Pack.Gbx", key));
    CHECK(!PakIndex::keyFits(dir / "Second.orig.Pack.Gbx", list.entries[0].key()));
    for (const char* name : {"Second.orig.pak", "Second.orig.Pack.Gbx"}) {
        INFO(name);
        std::vector<std::string> warnings;
        CHECK(*resolvePakKey(dir / name, {}, &warnings).key == key);
        REQUIRE(warnings.size() == 1);
        CHECK(warnings[0] == (dir / "packlist.dat").string() + " has no entry for pack \"" +
                                 packNameOf(name) + "\" (" + (dir / name).string() +
                                 "): opened with the key of its entry \"second\", which its "
                                 "header MD5 fits");
    }
    // No entry's key fits: the version 3 pak names the packlist and says so.
    writePak(dir / "src", dir / "Other.pak", keyOfHex(kHexA), PackOptions{});
    CHECK(!PakIndex::keyFits(dir / "Other.pak", key));
    CHECK_THROWS_WITH(resolvePakKey(dir / "Other.pak", {}),
                      (dir / "packlist.dat").string() + ": has no entry for pack \"Other\" (" +
                          (dir / "Other.pak").string() +
                          "), and the key of none of its entries fits the pak's header");
}

TEST_CASE("packlist: the game's pak under another name opens with its entry's key",
          "[keys][packlist][fixtures]") {
    const stdfs::path real = test::sharedDir("fixtures/real");
    test::TempDir dir;
    stdfs::copy_file(real / "Resource.pak", dir / "Resource.orig.pak");
    stdfs::copy_file(real / "packlist.dat", dir / "packlist.dat");
    std::vector<std::string> warnings;
    const PakKey key = resolveKey(dir / "Resource.orig.pak", {}, &warnings);
    CHECK(key == resolveKey(real / "Resource.pak", {}));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("opened with the key of its entry \"resource\"") != std::string::npos);
    CHECK(PakIndex::open(dir / "Resource.orig.pak", key)->entries().size() == 27);
}
