// SPDX-License-Identifier: GPL-2.0-or-later
// The pak command as a user runs it: exit codes, messages, output formats.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <set>

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Progress.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/SampleGbx.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::emptyMap;
using test::namesIn;
using test::run;
namespace fs = std::filesystem;

using test::kKeyArg;
using test::kPak;
using test::q;

TEST_CASE("cli: usage errors exit 2, input errors exit 1 with the file named", "[cli]") {
    CHECK(run(kPak).code == 2);
    CHECK(run(kPak + " frobnicate").code == 2);
    CHECK(run(kPak + " ls").code == 2);
    auto help = run(kPak + " --help");
    CHECK(help.code == 0);
    // Its first lines name every version read and every way to give a key.
    CHECK(help.out.rfind("pak: list, extract, check and build TrackMania .pak archives (version 3) "
                         "and ManiaPlanet / Trackmania 2020 .Pack.Gbx packs (versions 6 to 18)",
                         0) == 0);
    CHECK(help.out.find("--base-key HEX32 or --ms-key HEX32") != std::string::npos);
    CHECK(run(kPak + " ls --help").code == 0);
    auto r = run(kPak + " ls /nonexistent/x.pak " + kKeyArg);
    CHECK(r.code == 1);
    CHECK(r.err == "pak: /nonexistent/x.pak: no such file\n");
    // The file is looked at before any key: a wrong path is named as such.
    r = run(kPak + " ls /nonexistent/x.pak");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: /nonexistent/x.pak: no such file\n");
    test::TempDir dir;
    test::writeFile(dir / "src/a.txt", Bytes(10, 'a'));
    REQUIRE(
        run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(dir / "x.pak")).code ==
        0);
    r = run(kPak + " ls " + q(dir / "x.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "x.pak").string() +
                       ": no key given and no packlist.dat beside it (use --key, "
                       "--key-file or --packlist)\n");
    r = run(kPak + " ls " + q(dir / "x.pak") + " --key 1234");
    CHECK(r.code == 2);
    CHECK(
        r.err ==
        "pak: --key must be 32 hex digits (the 16 bytes of a key), got \"1234\" (pak ls --help)\n");
}

TEST_CASE("cli: packlist, pack, ls, cat, extract", "[cli]") {
    test::TempDir dir;
    test::writeFile(dir / "src/Folder/a.txt", Bytes(1000, 'a'));
    test::writeFile(dir / "src/b.bin", Bytes{1, 2, 3});
    auto r = run(kPak + " packlist add " + q(dir / "packlist.dat") +
                 " MyPack --key-string 0123456789ABCDEF0123456789ABCDEF");
    REQUIRE(r.code == 0);
    CHECK(r.out == "MyPack\t0123456789ABCDEF0123456789ABCDEF\t" +
                       hexString(archive::keyFromKeyString("0123456789ABCDEF0123456789ABCDEF")) +
                       "\n");
    r = run(kPak + " pack -q " + q(dir / "src") + " " + q(dir / "MyPack.pak"));
    REQUIRE(r.code == 0);
    // The key comes from packlist.dat beside the pak, matched case-insensitively.
    fs::rename(dir / "packlist.dat", dir / "PackList.DAT");
    r = run(kPak + " ls " + q(dir / "MyPack.pak"));
    CHECK(r.code == 0);
    CHECK(r.out == "b.bin\nFolder/a.txt\n");
    r = run(kPak + " ls --json " + q(dir / "MyPack.pak"));
    REQUIRE(r.code == 0);
    auto list = nlohmann::json::parse(r.out);
    REQUIRE(list.size() == 2);
    CHECK(list[1]["path"] == "Folder/a.txt");
    CHECK(list[1]["size"] == 1000);
    CHECK(list[1]["compressed"] == true);
    CHECK(list[1]["class_id"] == "09041000");
    CHECK(list[1]["flags"] == "0000000000000006");  // zlib, and the game's bit 0x02
    CHECK(list[1]["gbx"] == false);
    CHECK(list[0]["compressed"] == false);
    CHECK(list[0]["compressed_size"] == 8);
    r = run(kPak + " cat " + q(dir / "MyPack.pak") + " folder/A.TXT");
    CHECK(r.code == 0);
    CHECK(r.out == std::string(1000, 'a'));
    r = run(kPak + " cat " + q(dir / "MyPack.pak") + " nothere");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "MyPack.pak").string() + ": no file \"nothere\" in the pak\n");
    r = run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "out") + " Folder");
    CHECK(r.code == 0);
    CHECK(test::readFile(dir / "out/Folder/a.txt") == Bytes(1000, 'a'));
    CHECK_FALSE(fs::exists(dir / "out/b.bin"));
    r = run(kPak + " check " + q(dir / "MyPack.pak"));
    CHECK(r.code == 0);
    CHECK(r.out ==
          "plain unverified b.bin: stored, no checksum covers its bytes\n"
          "2 files: 2 plain (1 unverified), 0 gbx (0 parsed, 0 header, 0 exact, 0 verified, 0 "
          "refused), 0 undecodable\n");
    r = run(kPak + " packlist ls " + q(dir / "PackList.DAT"));
    CHECK(r.code == 0);
    CHECK(r.out.find("signature valid") != std::string::npos);
}

TEST_CASE("cli: extract carries on past an undecodable gbx entry and exits 1", "[cli]") {
    test::TempDir dir;
    // Not a parseable gbx: "GBX" then garbage. Stored with --raw, it cannot be read back.
    Bytes junk = {'G', 'B', 'X', 6, 0, 'B', 'U', 'U', 'R', 0, 0x30, 0x04, 0x03, 0, 0, 0, 0};
    junk.resize(400, 0xEE);
    test::writeFile(dir / "src/bad.Map.Gbx", junk);
    test::writeFile(dir / "src/good.txt", Bytes(50, 'g'));
    auto r = run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(dir / "p.pak"));
    CHECK(r.code == 1);
    CHECK(r.err.find("bad.Map.Gbx: cannot be decoded exactly") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "p.pak"));
    r = run(kPak + " pack -q " + kKeyArg + " --raw '*.Gbx' " + q(dir / "src") + " " +
            q(dir / "p.pak"));
    CHECK(r.code == 0);
    CHECK(r.err.find("pak: warning: bad.Map.Gbx: stored with --raw") == 0);
    r = run(kPak + " extract -q " + kKeyArg + " " + q(dir / "p.pak") + " " + q(dir / "out"));
    CHECK(r.code == 1);
    CHECK(r.err.find("bad.Map.Gbx: cannot be decoded exactly") != std::string::npos);
    CHECK(r.err.find("1 of 2 files could not be extracted") != std::string::npos);
    CHECK(test::readFile(dir / "out/good.txt") == Bytes(50, 'g'));
    CHECK_FALSE(fs::exists(dir / "out/bad.Map.Gbx"));
    r = run(kPak + " ls -l " + kKeyArg + " " + q(dir / "p.pak"));
    CHECK(r.out.find(" gbx!         bad.Map.Gbx\n") != std::string::npos);
    r = run(kPak + " check " + kKeyArg + " " + q(dir / "p.pak"));
    CHECK(r.code == 1);
    CHECK(r.out.find("gbx refused   " + (dir / "p.pak").string() +
                     ": bad.Map.Gbx: cannot be decoded exactly: ") == 0);
    CHECK(r.out.find(
              "\n2 files: 1 plain, 1 gbx (0 parsed, 0 header, 0 exact, 0 verified, 1 refused), 0 "
              "undecodable\n") != std::string::npos);
}

TEST_CASE("cli: info shows the header fields as text and as JSON", "[cli]") {
    test::TempDir dir;
    test::writeFile(dir / "src/Folder/a.txt", Bytes(1000, 'a'));
    test::writeFile(dir / "src/b.bin", Bytes{1, 2, 3});
    const fs::path pakPath = dir / "p.pak";
    REQUIRE(run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(pakPath)).code == 0);
    archive::PakKey key{};
    REQUIRE(parseHex(kKeyArg.substr(6), key));
    auto pak = archive::PakIndex::open(pakPath, key);
    char iv[17], ivXor[17];
    std::snprintf(iv, sizeof iv, "%016llx", (unsigned long long)pak->headerIv());
    std::snprintf(ivXor, sizeof ivXor, "%016llx", (unsigned long long)pak->headerIvXor());
    std::uint64_t stored = 0;
    for (const auto& e : pak->entries()) stored += e.cipherSize() + 8;
    auto r = run(kPak + " info " + kKeyArg + " " + q(pakPath));
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "file: " + pakPath.string() + "\nversion: 3\nheader iv: " + iv + "\nheader md5: " +
              hexString(pak->headerMd5()) + "\nheader flags: 0x00000000\nheader ivxor: " + ivXor +
              "\ndata offset: " + std::to_string(pak->dataOffset()) +
              "\nmetadata offset: " + std::to_string(pak->metaDataOffset()) +
              "\nmetadata size: " + std::to_string(pak->metaDataUncompressedSize()) +
              "\nmetadata compressed size: " + std::to_string(pak->metaDataCompressedSize()) +
              "\nmetadata records: " + std::to_string(pak->metadata().size()) +
              "\nfolders: " + std::to_string(pak->folders().size()) +
              "\nfiles: 2\ncontent bytes: 1003\nstored bytes: " + std::to_string(stored) + "\n");
    r = run(kPak + " info --json " + kKeyArg + " " + q(pakPath));
    CHECK(r.code == 0);
    auto info = nlohmann::json::parse(r.out);
    CHECK(info["file"] == pakPath.string());
    CHECK(info["version"] == 3);
    CHECK(info["header_md5"] == hexString(pak->headerMd5()));
    CHECK(info["header_iv"] == iv);
    CHECK(info["files"] == 2);
    CHECK(info["content_bytes"] == 1003);
    CHECK(info["stored_bytes"] == stored);
    CHECK_FALSE(info.contains("metadata_error"));
    // A wrong key: the header MD5 says so, nothing is printed on standard output.
    r = run(kPak + " info --json --key 00000000000000000000000000000000 " + q(pakPath));
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("pak: " + pakPath.string() + ": wrong key or damaged header") == 0);
}

TEST_CASE("cli: cat of a large file writes it whole, and nothing when it cannot be decoded",
          "[cli]") {
    test::TempDir dir;
    const Bytes text = test::compressibleText(6 * 1024 * 1024 + 77, 41);
    test::writeFile(dir / "src/big.txt", text);
    const fs::path pakPath = dir / "p.pak";
    REQUIRE(run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(pakPath)).code == 0);
    auto r = run(kPak + " cat " + kKeyArg + " " + q(pakPath) + " big.txt");
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == std::string(text.begin(), text.end()));
    // A byte changed halfway through the file's stream: an error, and no byte written.
    archive::PakKey key;
    REQUIRE(parseHex(kKeyArg.substr(6), key));
    const auto pak = archive::PakIndex::open(pakPath, key);
    const archive::PakEntry& e = pak->entries().at(0);
    Bytes bytes = test::readFile(pakPath);
    bytes[std::size_t(pak->entryOffset(e) + 8 + e.cipherSize() / 2)] ^= 0x40;
    test::writeFile(dir / "damaged.pak", bytes);
    r = run(kPak + " cat " + kKeyArg + " " + q(dir / "damaged.pak") + " big.txt");
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    const std::string start =
        "pak: " + (dir / "damaged.pak").string() + ": big.txt: corrupt compressed data (zlib: ";
    CHECK(r.err.substr(0, start.size()) == start);
}

TEST_CASE("cli: version 6+ packs: public header, keys, locked files, pack --version", "[cli][v6]") {
    test::TempDir dir;
    Bytes v6 = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k', 6, 0, 0, 0};
    for (int i = 0; i < 32; ++i) v6.push_back(std::uint8_t(i));
    v6.insert(v6.end(), {1, 0, 0, 0});
    v6.resize(v6.size() + 8 + 48);  // the IV and the fixed fields of the private header
    test::writeFile(dir / "Title.Pack.Gbx", v6);
    // A private header without its key: the public header shows, "entries" says why.
    auto r = run(kPak + " info " + q(dir / "Title.Pack.Gbx"));
    CHECK(r.code == 1);
    CHECK(r.out == "file: " + (dir / "Title.Pack.Gbx").string() +
                       "\nversion: 6\nformat: ManiaPlanet .Pack.Gbx\ncontents checksum: "
                       "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n"
                       "decrypt flags: 0x00000001\nentries: " +
                       (dir / "Title.Pack.Gbx").string() +
                       ": the header is private: give the pack key (--key, --base-key or "
                       "--ms-key) to list it\n");

    // A pack written with a base key, its header under the default key only: it lists without
    // a key; the public file reads, the others are locked.
    test::writeFile(dir / "src/pub/readme.txt", Bytes(100, 'p'));
    test::writeFile(dir / "src/secret.txt", Bytes(200, 's'));
    const std::string base = "--base-key 00112233445566778899aabbccddeeff";
    fs::path pack = dir / "Skins.Pack.Gbx";
    r = run(kPak + " pack --version 18 --header-key default --public 'pub/*' --author-login me " +
            base + " " + q(dir / "src") + " " + q(pack));
    REQUIRE(r.code == 0);
    r = run(kPak + " ls -l " + q(pack));
    CHECK(r.code == 0);
    CHECK(r.out.find("locked       secret.txt\n") != std::string::npos);
    CHECK(r.out.find("-            pub/readme.txt\n") != std::string::npos);
    r = run(kPak + " cat " + q(pack) + " pub/readme.txt");
    CHECK(r.code == 0);
    CHECK(r.out == std::string(100, 'p'));
    r = run(kPak + " cat " + q(pack) + " secret.txt");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + pack.string() +
                       ": secret.txt: encrypted with the pack key, which was not given (--key, "
                       "--base-key or --ms-key)\n");
    r = run(kPak + " cat " + base + " " + q(pack) + " secret.txt");
    CHECK(r.code == 0);
    CHECK(r.out == std::string(200, 's'));
    r = run(kPak + " info --json " + base + " " + q(pack));
    CHECK(r.code == 0);
    auto info = nlohmann::json::parse(r.out);
    CHECK(info["version"] == 18);
    CHECK(info["decrypt_flags"] == "0x00000006");
    CHECK(info["author_login"] == "me");
    CHECK(info["files"] == 2);
    CHECK(info["key"] == "given");
    r = run(kPak + " check " + base + " " + q(pack));
    CHECK(r.code == 0);
    CHECK(r.out ==
          "2 files: 2 plain, 0 gbx (0 parsed, 0 header, 0 exact, 0 verified, 0 refused), 0 "
          "undecodable\n");
    r = run(kPak + " pack --version 5 " + base + " " + q(dir / "src") + " " + q(dir / "x.pak"));
    CHECK(r.code != 0);
    r = run(kPak + " ls --key 00112233445566778899aabbccddeeff " + base + " " + q(pack));
    CHECK(r.code == 2);
    CHECK(r.err.find("give one of --key, --key-file, --base-key and --ms-key, not several") !=
          std::string::npos);
}

TEST_CASE("cli: pack, extract and check show progress on a terminal only, and -q hides it",
          "[cli]") {
    if (run("command -v script").code != 0) {
        std::printf("SKIPPED: script(1) is missing (util-linux), no terminal to test with\n");
        std::fflush(stdout);
        std::_Exit(test::kSkipExitCode);
    }
    test::TempDir dir;
    test::writeFile(dir / "src/a.txt", Bytes(3000, 'a'));
    test::writeFile(dir / "src/b/c.txt", Bytes(5000, 'c'));
    // script(1) gives the command a terminal and copies what it writes to our stdout.
    auto onTty = [&](const std::string& command) {
        return run("script -qec " + q(command) + " /dev/null");
    };
    const std::string pack =
        kPak + " pack " + kKeyArg + " " + q(dir / "src") + " " + q(dir / "p.pak");
    // The rate shows only from half a second on (see "progress line: no rate before"), which
    // this run may or may not reach: the line is checked up to it.
    auto r = onTty(pack);
    CHECK(r.code == 0);
    CHECK(r.out.find("2/2 files, 0.0/0.0 MB") != std::string::npos);
    r = onTty(pack + " -q");
    CHECK(r.out.find(" files, ") == std::string::npos);
    r = run(pack);  // stderr is not a terminal
    CHECK(r.code == 0);
    CHECK(r.err.find(" files, ") == std::string::npos);
    r = onTty(kPak + " check " + kKeyArg + " " + q(dir / "p.pak"));
    CHECK(r.code == 0);
    CHECK(r.out.find("2/2 files, 0.0/0.0 MB") != std::string::npos);
    r = onTty(kPak + " extract " + kKeyArg + " " + q(dir / "p.pak") + " " + q(dir / "out"));
    CHECK(r.code == 0);
    CHECK(r.out.find("2/2 files, 0.0/0.0 MB") != std::string::npos);
    r = run(kPak + " check -q " + kKeyArg + " " + q(dir / "p.pak"));
    CHECK(r.err.empty());
}

namespace {

// The format of a gbx file ("BUCR"): its third letter 'C' says the body is LZO-compressed.
std::string gbxFormat(const Bytes& file) {
    return file.size() >= 9 ? std::string(file.begin() + 5, file.begin() + 9) : std::string();
}

// Three gbx files whose cipher cannot be planned, each for another reason: not a gbx past its
// first bytes, one cut in its header, and an LZO body that does not decompress to its size.
std::map<std::string, Bytes> unplannableGbx() {
    std::map<std::string, Bytes> f;
    Bytes junk = {'G', 'B', 'X', 6, 0, 'B', 'U', 'U', 'R', 0, 0x30, 0x04, 0x03, 0, 0, 0, 0};
    junk.resize(400, 0xEE);
    f["Maps/a.Map.Gbx"] = junk;
    Bytes cut = emptyMap().build();
    cut.resize(20);
    f["Maps/b.Map.Gbx"] = cut;
    gbx::GbxBuilder lzo = emptyMap();
    lzo.format = "BUCR";
    Bytes wrongSize = lzo.build();
    std::uint8_t* size = wrongSize.data() + lzo.bodyOffset();
    storeLE32(size, loadLE32(size) + 1);  // one byte more than the LZO stream holds
    f["c.Map.Gbx"] = wrongSize;
    return f;
}

}  // namespace

TEST_CASE("cli: pack names every gbx file a version 3 pak cannot plan, in one run, writes nothing",
          "[cli][pack]") {
    test::TempDir dir;
    for (const auto& [path, data] : unplannableGbx()) test::writeFile(dir / "src" / path, data);
    test::writeFile(dir / "src/Maps/good.Map.Gbx", emptyMap().build());
    test::writeFile(dir / "src/Text/readme.txt", Bytes(3000, 'r'));
    const std::string expected =
        "pak: 3 gbx files cannot be planned for a version 3 pak, so nothing was written:\n"
        "  c.Map.Gbx: cannot be decoded exactly: LZO body decompresses to 4 bytes, not 5\n"
        "  Maps/a.Map.Gbx: cannot be decoded exactly: count 4008636142 of external references at "
        "offset 21 needs at least 48103633704 bytes but only 375 are left\n"
        "  Maps/b.Map.Gbx: cannot be decoded exactly: <memory>: unexpected end of data at "
        "offset 17 (wanted 4 bytes, 3 left)\n"
        "To go on: store them with --raw GLOB (the game will not read them right), write a "
        "version 6+ pack with --version N (6 to 18), where they are flagged DontUseDummyWrite "
        "(node reads do not mix the cipher), which the game reads right, or remove them from " +
        (dir / "src").string() + ".\n";
    // In plan order whatever the threads: every file is planned, the refused ones listed.
    for (const char* jobs : {"1", "3"}) {
        INFO("-j " << jobs);
        auto r = run(kPak + " pack -q -j " + jobs + " " + kKeyArg + " " + q(dir / "src") + " " +
                     q(dir / "p.pak"));
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err == expected);
        CHECK(namesIn(dir.path()) == std::set<std::string>{"src"});  // no pak, no temp file
    }
    // An existing output is left as it was.
    test::writeFile(dir / "p.pak", Bytes{'o', 'l', 'd'});
    auto r = run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(dir / "p.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == expected);
    CHECK(test::readFile(dir / "p.pak") == Bytes{'o', 'l', 'd'});
    CHECK(namesIn(dir.path()) == std::set<std::string>{"src", "p.pak"});
    // Each way on that the message names writes the pak.
    r = run(kPak + " pack -q " + kKeyArg + " --raw '?.Map.Gbx' " + q(dir / "src") + " " +
            q(dir / "raw.pak"));
    CHECK(r.code == 0);
    CHECK(r.err.rfind(
              "pak: warning: c.Map.Gbx: stored with --raw: the game will not read this gbx file "
              "right\npak: warning: Maps/a.Map.Gbx: stored with --raw: the game will not read this "
              "gbx file right\npak: warning: Maps/b.Map.Gbx: stored with --raw: the game will not "
              "read this gbx file right\n",
              0) == 0);
    r = run(kPak + " pack -q --version 6 " + kKeyArg + " " + q(dir / "src") + " " +
            q(dir / "p6.Pack.Gbx"));
    CHECK(r.code == 0);
    CHECK(r.err.find("pak: warning: Maps/b.Map.Gbx: written with DontUseDummyWrite") !=
          std::string::npos);
    fs::remove_all(dir / "src/Maps");
    fs::remove(dir / "src/c.Map.Gbx");
    r = run(kPak + " pack -q " + kKeyArg + " " + q(dir / "src") + " " + q(dir / "p.pak"));
    CHECK(r.code == 0);
}

TEST_CASE("cli: pack of the later games' assets plans each from its chunk readers",
          "[cli][pack][fixtures]") {
    // Every asset fixture reads whole now: none is planned from the node scan (which warns).
    auto assets = test::sharedDir("fixtures/assets");
    test::TempDir dir;
    auto r = run(kPak + " pack -q " + kKeyArg + " " + q(assets) + " " + q(dir / "a.pak"));
    CHECK(r.code == 0);
    CHECK(r.err.find("warning") == std::string::npos);
    r = run(kPak + " check " + kKeyArg + " " + q(dir / "a.pak"));
    CHECK(r.code == 0);
    CHECK(r.out.find("gbx refused") == std::string::npos);
    for (const std::string name : {"CPlugSolid2Model~GBX-NET_2_CPlugSolid2Model_MP4_001.Mesh.Gbx",
                                   "CPlugPrefab~GBX-NET_2_CPlugPrefab_TM2020_001.Prefab.Gbx"}) {
        INFO(name);
        CHECK(r.out.find("\ngbx parsed    " + name +
                         ": parsed by known chunk readers to the end") != std::string::npos);
    }
}

TEST_CASE("cli: a gbx body LZO-compressed inside the file is labelled header, not parsed",
          "[cli][fixtures]") {
    auto assets = test::sharedDir("fixtures/assets");
    auto gbxDir = test::sharedDir("fixtures/gbx");
    test::TempDir dir;
    // Ground.Solid.Gbx has an LZO body (read whole by pak gbx info --nodes); BaseValley
    // has an uncompressed body with unknown skippable chunks; the empty map is read whole.
    fs::create_directories(dir / "src");
    fs::copy_file(assets / "Solids~1_TrackMania_Sunrise~Ground.Solid.Gbx",
                  dir / "src/Ground.Solid.Gbx");
    fs::copy_file(gbxDir / "DemoRaceB1.Challenge.Gbx", dir / "src/DemoRaceB1.Challenge.Gbx");
    fs::copy_file(gbxDir / "BaseValley.Map.Gbx", dir / "src/BaseValley.Map.Gbx");
    test::writeFile(dir / "src/Empty.Map.Gbx", emptyMap().build());
    const std::string header = "header and reference table read; the body (format ";
    const std::string lzo =
        ") is LZO-compressed inside the gbx: the game reads its nodes from memory, so no node "
        "read reaches the pak's cipher and no byte depends on them (the body's nodes were not "
        "read; its LZO stream decompresses to its stated ";
    const std::string skipped =
        "read to the end by known chunk readers, every node slot filled, except 16 unknown "
        "skippable chunks skipped by size with no node signature in the data: no node read the "
        "reader did not see can change a byte";
    for (int level : {6, 0}) {
        INFO("level " << level);
        const std::string sum = level ? "; Adler-32 and size match" : "; no checksum";
        const fs::path pak = dir / ("l" + std::to_string(level) + ".pak");
        REQUIRE(run(kPak + " pack -q --level " + std::to_string(level) + " " + kKeyArg + " " +
                    q(dir / "src") + " " + q(pak))
                    .code == 0);
        auto r = run(kPak + " check " + kKeyArg + " " + q(pak));
        CHECK(r.code == 0);
        CHECK(r.out ==
              "gbx exact     BaseValley.Map.Gbx: " + skipped +
                  (level ? "; Adler-32 and size match" : " (no checksum)") +
                  "\ngbx header    DemoRaceB1.Challenge.Gbx: " + header + "BUCE" + lzo +
                  "8071 bytes, and the gbx data ends at the entry's end)" + sum +
                  "\ngbx parsed    Empty.Map.Gbx: parsed by known chunk readers to the end, "
                  "every node slot filled (no checksum: the parse is the proof)\n"
                  "gbx header    Ground.Solid.Gbx: " +
                  header + "BUCR" + lzo +
                  "586719 bytes, and the gbx data ends at the entry's end)" + sum +
                  "\n4 files: 0 plain, 4 gbx (1 parsed, 2 header, 1 exact, 0 verified, 0 "
                  "refused), 0 undecodable\n");
        r = run(kPak + " check --json " + kKeyArg + " " + q(pak));
        auto check = nlohmann::json::parse(r.out);
        CHECK(check["gbx"] ==
              nlohmann::json{
                  {"parsed", 1}, {"header", 2}, {"exact", 1}, {"verified", 0}, {"refused", 0}});
        std::map<std::string, std::string> decode;
        for (const auto& e : check["entries"]) decode[e["path"]] = e["decode"];
        const std::map<std::string, std::string> want = {{"BaseValley.Map.Gbx", "exact"},
                                                         {"DemoRaceB1.Challenge.Gbx", "header"},
                                                         {"Empty.Map.Gbx", "parsed"},
                                                         {"Ground.Solid.Gbx", "header"}};
        CHECK(decode == want);
        r = run(kPak + " ls --json " + kKeyArg + " " + q(pak));
        decode.clear();
        for (const auto& e : nlohmann::json::parse(r.out)) decode[e["path"]] = e["decode"];
        CHECK(decode == want);
        r = run(kPak + " ls -l " + kKeyArg + " " + q(pak));
        for (const auto& [path, kind] : want) {
            std::string column = "gbx:" + kind;
            column.resize(12, ' ');
            CHECK(r.out.find(" " + column + " " + path + "\n") != std::string::npos);
        }
    }
    // pak gbx info --nodes reads the body whole (88 nodes), but the pak's label does not
    // borrow from it: the LZO body's node reads never reach the pak's cipher.
    auto r =
        run(kPak + " gbx info --nodes " + kKeyArg + " " + q(dir / "l6.pak") + ":Ground.Solid.Gbx");
    CHECK(r.code == 0);
    CHECK(r.out.find("\nnodes: 88\n") != std::string::npos);
}

TEST_CASE("cli: every gbx fixture with an LZO body is labelled header, the others not",
          "[cli][fixtures]") {
    test::TempDir dir;
    for (const char* sub : {"fixtures/assets", "fixtures/gbx"}) {
        auto src = test::sharedDir(sub);
        INFO(sub);
        // The asset fixtures of unknown classes cannot be planned: stored with --raw.
        const fs::path pak = dir / (fs::path(sub).filename().string() + ".pak");
        auto r = run(kPak + " pack -q " + kKeyArg +
                     " --raw 'CPlugPrefab*' --raw 'CPlugSolid2Model*' --raw 'CPlugTrainWagon*' " +
                     q(src) + " " + q(pak));
        REQUIRE(r.code == 0);
        r = run(kPak + " check --json " + kKeyArg + " " + q(pak));
        const auto check = nlohmann::json::parse(r.out);
        std::size_t lzoBodies = 0;
        for (const auto& e : check["entries"]) {
            if (!e["gbx"].get<bool>()) continue;
            const std::string path = e["path"];
            INFO(path);
            const bool lzoBody = gbxFormat(test::readFile(src / path))[2] == 'C';
            lzoBodies += lzoBody;
            CHECK((e["decode"] == "header") == lzoBody);
        }
        CHECK(lzoBodies == (fs::path(sub).filename() == "gbx" ? 49 : 9));
    }
}

TEST_CASE("progress line: no rate before half a second, then MB/s", "[cli]") {
    // A first tick after microseconds would claim absurd rates ("101852.9 MB/s").
    CHECK(ProgressLine::text(1, 7, 101852900, 2000000000, 0.000001) ==
          "1/7 files, 101.9/2000.0 MB");
    CHECK(ProgressLine::text(1, 7, 101852900, 2000000000, 0.499) == "1/7 files, 101.9/2000.0 MB");
    CHECK(ProgressLine::text(3, 7, 150000000, 2000000000, 0.5) ==
          "3/7 files, 150.0/2000.0 MB, 300.0 MB/s");
    CHECK(ProgressLine::text(7, 7, 2000000000, 2000000000, 8.0) ==
          "7/7 files, 2000.0/2000.0 MB, 250.0 MB/s");
}

TEST_CASE("cli: check names the plain files no checksum covers: unverified, exit 0 unless --strict",
          "[cli][check]") {
    test::TempDir dir;
    const Bytes stored = test::randomBytes(300, 7);  // does not compress: stored
    test::writeFile(dir / "src/M/r.bin", stored);
    test::writeFile(dir / "src/M/z.txt", Bytes(2000, 'z'));  // zlib: its Adler-32 covers it
    const std::string key = test::kTestKeyHex;
    // A byte of r.bin's data flipped: version 3 keeps no checksum of it, so cat returns other
    // bytes and nothing can tell; check says so. Versions 6 and 14 cover it with the contents
    // checksum until it is flipped, and version 14 with the slot's MD5 too.
    auto flipped = [&](const fs::path& pak) {
        archive::PakKey k{};
        REQUIRE(parseHex(key, k));
        auto index = archive::PakIndex::open(pak, archive::PakKeyInput{k});
        const archive::PakEntry* e = nullptr;
        for (const auto& entry : index->entries())
            if (entry.path == "M/r.bin") e = &entry;
        REQUIRE(e);
        REQUIRE_FALSE(e->compressed());
        Bytes bytes = test::readFile(pak);
        bytes.at(std::size_t(index->entryOffset(*e)) + 8 + 100) ^= 0x10;
        const fs::path out = pak.parent_path() / ("flipped-" + pak.filename().string());
        test::writeFile(out, bytes);
        return out;
    };
    const std::string clean =
        "2 files: 2 plain, 0 gbx (0 parsed, 0 header, 0 exact, 0 verified, 0 refused), 0 "
        "undecodable\n";
    const std::string oneUnverified =
        "2 files: 2 plain (1 unverified), 0 gbx (0 parsed, 0 header, 0 exact, 0 verified, 0 "
        "refused), 0 undecodable\n";
    for (const auto& [version, reason] : std::vector<std::pair<int, std::string>>{
             {3, ""},
             {6, " (the contents checksum does not match)"},
             {14, " (neither the contents checksum nor its slot MD5 matches)"}}) {
        INFO("version " << version);
        const fs::path pak = dir / ("v" + std::to_string(version) + ".pak");
        REQUIRE(run(kPak + " pack -q --key " + key + " --version " + std::to_string(version) + " " +
                    q(dir / "src") + " " + q(pak))
                    .code == 0);
        const std::string line = "plain unverified M/r.bin: stored, no checksum covers its bytes";
        auto r = run(kPak + " check -q --strict --key " + key + " " + q(pak));
        if (version == 3) {
            CHECK(r.out == line + "\n" + oneUnverified);
            CHECK(r.code == 1);
        } else {
            CHECK(r.out == clean);
            CHECK(r.code == 0);
        }
        const fs::path bad = flipped(pak);
        r = run(kPak + " cat --key " + key + " " + q(bad) + " M/r.bin");
        CHECK(r.code == 0);
        CHECK(r.out.size() == stored.size());
        CHECK(r.out != std::string(stored.begin(), stored.end()));
        r = run(kPak + " check -q --key " + key + " " + q(bad));
        CHECK(r.out == line + reason + "\n" + oneUnverified);
        CHECK(r.code == 0);
        r = run(kPak + " check -q --strict --key " + key + " " + q(bad));
        CHECK(r.out == line + reason + "\n" + oneUnverified);
        CHECK(r.code == 1);
        r = run(kPak + " check -q --json --key " + key + " " + q(bad));
        CHECK(r.code == 0);
        auto j = nlohmann::json::parse(r.out);
        CHECK(j["plain"] == 2);
        CHECK(j["plain_unverified"] == 1);
        CHECK(j["failed"] == 0);
        CHECK(j["entries"][0]["path"] == "M/r.bin");
        CHECK(j["entries"][0]["unverified"] == "stored, no checksum covers its bytes" + reason);
        CHECK_FALSE(j["entries"][1].contains("unverified"));
    }
}
