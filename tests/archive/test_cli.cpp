// SPDX-License-Identifier: GPL-2.0-or-later
// The pak command as a user runs it: exit codes, messages, output formats.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "archive/PackList.hpp"
#include "archive/PakIndex.hpp"
#include "common/Progress.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::run;
namespace fs = std::filesystem;

namespace {
const std::string kPak = PAKFS_PAK_BINARY;
const std::string kKey = "--key 0f1e2d3c4b5a69788796a5b4c3d2e1f0";
std::string q(const fs::path& p) {
    return "'" + p.string() + "'";
}
}  // namespace

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
    auto r = run(kPak + " ls /nonexistent/x.pak " + kKey);
    CHECK(r.code == 1);
    CHECK(r.err == "pak: /nonexistent/x.pak: no such file\n");
    // The path is checked before any key is looked for.
    r = run(kPak + " ls /nonexistent/x.pak");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: /nonexistent/x.pak: no such file\n");
    test::TempDir dir;
    test::writeFile(dir / "src/a.txt", Bytes(10, 'a'));
    REQUIRE(run(kPak + " pack -q " + kKey + " " + q(dir / "src") + " " + q(dir / "x.pak")).code ==
            0);
    r = run(kPak + " ls " + q(dir / "x.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "x.pak").string() +
                       ": no key given and no packlist.dat beside it (use --key, "
                       "--key-file or --packlist)\n");
    r = run(kPak + " ls " + q(dir / "x.pak") + " --key 1234");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: --key must be 32 hex digits (the 16-byte key), got \"1234\"\n");
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
    CHECK(list[1]["flags"] == "0000000000000004");
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
          "2 files: 2 plain, 0 gbx (0 parsed, 0 exact, 0 verified, 0 refused), 0 undecodable\n");
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
    auto r = run(kPak + " pack -q " + kKey + " " + q(dir / "src") + " " + q(dir / "p.pak"));
    CHECK(r.code == 1);
    CHECK(r.err.find("bad.Map.Gbx: cannot be decoded exactly") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "p.pak"));
    r = run(kPak + " pack -q " + kKey + " --raw '*.Gbx' " + q(dir / "src") + " " +
            q(dir / "p.pak"));
    CHECK(r.code == 0);
    CHECK(r.err.find("pak: warning: bad.Map.Gbx: stored with --raw") == 0);
    r = run(kPak + " extract -q " + kKey + " " + q(dir / "p.pak") + " " + q(dir / "out"));
    CHECK(r.code == 1);
    CHECK(r.err.find("bad.Map.Gbx: cannot be decoded exactly") != std::string::npos);
    CHECK(r.err.find("1 of 2 files could not be extracted") != std::string::npos);
    CHECK(test::readFile(dir / "out/good.txt") == Bytes(50, 'g'));
    CHECK_FALSE(fs::exists(dir / "out/bad.Map.Gbx"));
    r = run(kPak + " ls -l " + kKey + " " + q(dir / "p.pak"));
    CHECK(r.out.find(" gbx!         bad.Map.Gbx\n") != std::string::npos);
    r = run(kPak + " check " + kKey + " " + q(dir / "p.pak"));
    CHECK(r.code == 1);
    CHECK(r.out.find("gbx refused   " + (dir / "p.pak").string() +
                     ": bad.Map.Gbx: cannot be decoded exactly: ") == 0);
    CHECK(r.out.find("\n2 files: 1 plain, 1 gbx (0 parsed, 0 exact, 0 verified, 1 refused), 0 "
                     "undecodable\n") != std::string::npos);
}

TEST_CASE("cli: info shows the header fields as text and as JSON", "[cli]") {
    test::TempDir dir;
    test::writeFile(dir / "src/Folder/a.txt", Bytes(1000, 'a'));
    test::writeFile(dir / "src/b.bin", Bytes{1, 2, 3});
    const fs::path pakPath = dir / "p.pak";
    REQUIRE(run(kPak + " pack -q " + kKey + " " + q(dir / "src") + " " + q(pakPath)).code == 0);
    archive::PakKey key{};
    REQUIRE(parseHex(kKey.substr(6), key));
    auto pak = archive::PakIndex::open(pakPath, key);
    char iv[17], ivXor[17];
    std::snprintf(iv, sizeof iv, "%016llx", (unsigned long long)pak->headerIv());
    std::snprintf(ivXor, sizeof ivXor, "%016llx", (unsigned long long)pak->headerIvXor());
    std::uint64_t stored = 0;
    for (const auto& e : pak->entries()) stored += e.cipherSize() + 8;
    auto r = run(kPak + " info " + kKey + " " + q(pakPath));
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
    r = run(kPak + " info --json " + kKey + " " + q(pakPath));
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

TEST_CASE("cli: version 6+ packs: public header, keys, locked files, pack --version", "[cli][v6]") {
    test::TempDir dir;
    Bytes v6 = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k', 6, 0, 0, 0};
    for (int i = 0; i < 32; ++i) v6.push_back(std::uint8_t(i));
    v6.insert(v6.end(), {1, 0, 0, 0});
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
          "2 files: 2 plain, 0 gbx (0 parsed, 0 exact, 0 verified, 0 refused), 0 "
          "undecodable\n");
    r = run(kPak + " pack --version 5 " + base + " " + q(dir / "src") + " " + q(dir / "x.pak"));
    CHECK(r.code != 0);
    r = run(kPak + " ls --key 00112233445566778899aabbccddeeff " + base + " " + q(pack));
    CHECK(r.code != 0);
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
    const std::string pack = kPak + " pack " + kKey + " " + q(dir / "src") + " " + q(dir / "p.pak");
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
    r = onTty(kPak + " check " + kKey + " " + q(dir / "p.pak"));
    CHECK(r.code == 0);
    CHECK(r.out.find("2/2 files, 0.0/0.0 MB") != std::string::npos);
    r = onTty(kPak + " extract " + kKey + " " + q(dir / "p.pak") + " " + q(dir / "out"));
    CHECK(r.code == 0);
    CHECK(r.out.find("2/2 files, 0.0/0.0 MB") != std::string::npos);
    r = run(kPak + " check -q " + kKey + " " + q(dir / "p.pak"));
    CHECK(r.err.empty());
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
