// SPDX-License-Identifier: GPL-2.0-or-later
// The installed library's API (<pakfs/pakfs.hpp>) as a program uses it: names in pak ls order,
// bytes as pak cat writes them, a streaming reader that seeks, entry information, gbx header,
// references and thumbnail, each kind of error, and reads from several threads at once.
#include <pakfs/pakfs.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "tests/support/Cli.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using pakfs::test::kPak;
using pakfs::test::q;
using pakfs::test::run;
namespace fs = std::filesystem;

namespace {

const std::string kKeyString = "00112233445566778899AABBCCDDEEFF";

// The bytes of a file of no known layout that begins as a map does: a stored one is refused.
std::vector<std::uint8_t> junkGbx() {
    std::vector<std::uint8_t> junk = {'G', 'B',  'X',  6,    0, 'B', 'U', 'U', 'R',
                                      0,   0x30, 0x04, 0x03, 0, 0,   0,   0};
    junk.resize(400, 0xEE);
    return junk;
}

// DIR/Lib.pak, its key in DIR/packlist.dat: sample/tree, a large compressible file, and a
// stored gbx file nothing proves.
struct LibPack {
    pakfs::test::TempDir dir;
    fs::path pak;
    std::vector<std::uint8_t> big;
    LibPack() {
        const fs::path tree = dir / "tree";
        fs::copy(fs::path(PAKFS_SOURCE_DIR) / "sample/tree", tree, fs::copy_options::recursive);
        std::mt19937 rng(7);
        for (int i = 0; i < 3 << 20; ++i) big.push_back(std::uint8_t('a' + rng() % 4));
        pakfs::test::writeFile(tree / "Media/big.bin", big);
        pakfs::test::writeFile(tree / "bad.Map.Gbx", junkGbx());
        REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " Lib --key-string " +
                    kKeyString)
                    .code == 0);
        pak = dir / "Lib.pak";
        REQUIRE(run(kPak + " pack -q --raw bad.Map.Gbx " + q(tree) + " " + q(pak)).code == 0);
    }
};

std::vector<std::uint8_t> bytesOf(const std::string& s) {
    return std::vector<std::uint8_t>(s.begin(), s.end());
}

pakfs::ErrorKind kindOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const pakfs::Exception& e) {
        return e.kind();
    }
    FAIL("no pakfs::Exception");
    return pakfs::ErrorKind::usage;
}

}  // namespace

TEST_CASE("library: names in pak ls order, bytes as pak cat writes them, info as ls -l says",
          "[library]") {
    LibPack t;
    const pakfs::PakFile pak(t.pak.string());  // the key from packlist.dat beside it
    CHECK(pak.version() == 3);
    const auto ls = run(kPak + " ls " + q(t.pak));
    std::string names;
    for (const auto& n : pak.names()) names += n + "\n";
    CHECK(names == ls.out);
    for (const auto& n : pak.names()) {
        if (n == "bad.Map.Gbx") continue;
        INFO(n);
        CHECK(pak.read(n) == bytesOf(run(kPak + " cat " + q(t.pak) + " " + q(n)).out));
    }
    CHECK(pak.read("media/BIG.BIN") == t.big);  // without regard to case, as the game
    CHECK(pak.contains("MEDIA/big.bin"));
    CHECK_FALSE(pak.contains("Media"));

    const pakfs::EntryInfo big = pak.info("Media/big.bin");
    CHECK(big.name == "Media/big.bin");
    CHECK(big.size == t.big.size());
    CHECK(big.stored_size < big.size);
    CHECK(big.compression == "zlib");
    CHECK(big.encrypted);
    CHECK_FALSE(big.gbx);
    CHECK(big.decode == "-");
    const pakfs::EntryInfo map = pak.info("Tracks/Demo.Challenge.Gbx");
    CHECK(map.gbx);
    CHECK(map.class_id == 0x03043000);
    CHECK(map.decode.starts_with("gbx:"));
    const pakfs::EntryInfo bad = pak.info("bad.Map.Gbx");
    CHECK(bad.decode == "gbx!");
    CHECK(bad.compression == "zlib");  // pak pack gives gbx files no reader knows a zlib stream
    // The whole list as pak ls -l gives the kinds.
    const auto lsl = run(kPak + " ls -l " + q(t.pak));
    std::string kinds;
    for (const auto& i : pak.infos()) kinds += i.decode + " " + i.name + "\n";
    std::string want;
    std::istringstream lines(lsl.out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string size, stored, cls, flags, kind, path;
        words >> size >> stored >> cls >> flags >> kind >> path;
        want += kind + " " + path + "\n";
    }
    CHECK(kinds == want);
    // pak check --json's facts.
    auto check = nlohmann::json::parse(run(kPak + " check --json " + q(t.pak)).out);
    check.erase("file");
    CHECK(nlohmann::json::parse(pak.check_json()) == check);
}

TEST_CASE("library: the streaming reader reads in pieces and seeks both ways", "[library]") {
    LibPack t;
    const pakfs::PakFile pak(t.pak.string());
    pakfs::EntryReader r = pak.open("Media/big.bin");
    CHECK(r.size() == t.big.size());
    std::vector<std::uint8_t> got(t.big.size());
    std::size_t at = 0;
    while (std::size_t n = r.read(got.data() + at, std::min<std::size_t>(100000, got.size() - at)))
        at += n;
    CHECK(at == t.big.size());
    CHECK(got == t.big);
    for (std::uint64_t offset : {std::uint64_t(2500000), std::uint64_t(17), std::uint64_t(1 << 21),
                                 std::uint64_t(t.big.size() - 5)}) {
        INFO(offset);
        r.seek(offset);
        CHECK(r.tell() == offset);
        std::uint8_t buf[10];
        const std::size_t n = r.read(buf, sizeof buf);
        CHECK(n == std::min<std::size_t>(10, t.big.size() - offset));
        CHECK(std::equal(buf, buf + n, t.big.begin() + std::ptrdiff_t(offset)));
    }
    CHECK_THROWS_AS(r.seek(t.big.size() + 1), pakfs::Exception);
    // A gbx file: the same bytes as read().
    pakfs::EntryReader m = pak.open("Tracks/Demo.Challenge.Gbx");
    std::vector<std::uint8_t> whole(m.size());
    CHECK(m.read(whole.data(), whole.size()) == whole.size());
    CHECK(whole == pak.read("Tracks/Demo.Challenge.Gbx"));
    m.seek(3);
    std::uint8_t b = 0;
    CHECK(m.read(&b, 1) == 1);
    CHECK(b == whole[3]);
}

TEST_CASE("library: each kind of error, with the message pak prints", "[library]") {
    LibPack t;
    using K = pakfs::ErrorKind;
    const pakfs::PakFile pak(t.pak.string());
    CHECK(kindOf([&] { pak.read("nothere.txt"); }) == K::missing_name);
    CHECK_THROWS_WITH(pak.read("nothere.txt"),
                      t.pak.string() + ": no file \"nothere.txt\" in the pak");
    CHECK(kindOf([&] { pak.info("nothere.txt"); }) == K::missing_name);
    CHECK(kindOf([&] { pak.read("bad.Map.Gbx"); }) == K::unproven);
    CHECK(kindOf([&] { pak.open("bad.Map.Gbx"); }) == K::unproven);
    try {
        pak.read("bad.Map.Gbx");
    } catch (const std::runtime_error& e) {  // the base every program may catch
        CHECK(std::string(e.what()).starts_with(t.pak.string() +
                                                ": bad.Map.Gbx: cannot be decoded exactly: "));
    }
    // Asked for unproven bytes, a file the node scan cannot decode either is still refused, as
    // pak cat --unverified refuses it.
    pakfs::OpenOptions unproven;
    unproven.allow_unproven = true;
    const auto cat = run(kPak + " cat --unverified " + q(t.pak) + " bad.Map.Gbx");
    CHECK(cat.code == 1);
    CHECK_THROWS_WITH(pakfs::PakFile(t.pak.string(), unproven).read("bad.Map.Gbx"),
                      cat.err.substr(5, cat.err.size() - 6));  // without "pak: " and "\n"

    // Keys: none found, a wrong one, one given wrong.
    const fs::path alone = t.dir / "alone/Lib.pak";
    fs::create_directories(alone.parent_path());
    fs::copy_file(t.pak, alone);
    CHECK(kindOf([&] { pakfs::PakFile p(alone.string()); }) == K::no_key);
    CHECK_THROWS_WITH(pakfs::PakFile(alone.string()),
                      alone.string() +
                          ": no key given and no packlist.dat beside it (use --key, --key-file "
                          "or --packlist)");
    pakfs::OpenOptions wrong;
    wrong.key = "000102030405060708090A0B0C0D0E0F";
    CHECK(kindOf([&] { pakfs::PakFile p(alone.string(), wrong); }) == K::wrong_key);
    pakfs::OpenOptions bad;
    bad.key = "1234";
    CHECK(kindOf([&] { pakfs::PakFile p(alone.string(), bad); }) == K::usage);
    pakfs::OpenOptions listed;
    listed.packlist = (t.dir / "packlist.dat").string();
    CHECK(pakfs::PakFile(alone.string(), listed).names() == pak.names());

    // Files that are no pak, or none at all.
    CHECK(kindOf([&] { pakfs::PakFile p((t.dir / "nothere.pak").string()); }) == K::io);
    CHECK(kindOf([&] { pakfs::PakFile p(t.dir.path().string()); }) == K::io);
    pakfs::test::writeFile(t.dir / "junk.pak", std::vector<std::uint8_t>(200, 'x'));
    CHECK(kindOf([&] { pakfs::PakFile p((t.dir / "junk.pak").string()); }) == K::damaged_pack);
    CHECK(std::string(pakfs::error_kind_name(K::no_key)) == "no_key");
}

TEST_CASE("library: a PakFile read from several threads at once", "[library]") {
    LibPack t;
    const pakfs::PakFile pak(t.pak.string());
    std::map<std::string, std::vector<std::uint8_t>> want;
    for (const auto& n : pak.names())
        if (n != "bad.Map.Gbx") want[n] = pak.read(n);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&] {
            for (int round = 0; round < 3; ++round)
                for (const auto& [n, bytes] : want)
                    if (pak.read(n) != bytes) ++wrong;
        });
    for (auto& th : threads) th.join();
    CHECK(wrong == 0);
}

TEST_CASE("library: gbx header, references and thumbnail as pak gbx info and thumbnail give them",
          "[library]") {
    LibPack t;
    const pakfs::PakFile pak(t.pak.string());
    const std::string name = "Tracks/Demo.Challenge.Gbx";
    const auto bytes = pak.read(name);
    const pakfs::GbxInfo info = pakfs::gbx_info(bytes, name);
    const auto cli = run(kPak + " gbx info --json " + q(t.pak.string() + ":" + name));
    REQUIRE(cli.code == 0);
    auto want = nlohmann::json::parse(cli.out);
    want.erase("file");
    CHECK(nlohmann::json::parse(info.json) == want);
    CHECK(info.class_id == 0x03043000);
    CHECK(info.class_name == "CGameCtnChallenge (03043000)");
    CHECK(info.version == want["version"]);
    CHECK(info.num_nodes == want["num_nodes"]);
    CHECK(info.header_chunks.size() == want["header_chunks"].size());
    CHECK_FALSE(info.map_title.has_value());  // the sample map has no header chunks

    // The sample map has no thumbnail chunk: none, as pak gbx thumbnail finds none.
    CHECK_FALSE(pakfs::gbx_thumbnail(bytes, name).has_value());
    CHECK(
        run(kPak + " gbx thumbnail -o " + q(t.dir / "none") + " " + q(t.pak.string() + ":" + name))
            .code == 1);
    CHECK(kindOf([&] { pakfs::gbx_info(bytesOf("GBX nonsense")); }) ==
          pakfs::ErrorKind::damaged_pack);
    CHECK_FALSE(pakfs::gbx_thumbnail(pak.read("Tracks/Demo.Solid.Gbx")).has_value());
}

TEST_CASE("library: a map's thumbnail as pak gbx thumbnail writes it", "[library][fixtures]") {
    const fs::path map = pakfs::test::sharedDir("fixtures/gbx") /
                         "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx";
    pakfs::test::TempDir dir;
    REQUIRE(run(kPak + " gbx thumbnail -o " + q(dir / "t.jpg") + " " + q(map)).code == 0);
    const auto thumbnail = pakfs::gbx_thumbnail(pakfs::test::readFile(map), map.string());
    REQUIRE(thumbnail);
    CHECK(thumbnail->bytes == pakfs::test::readFile(dir / "t.jpg"));
    CHECK(thumbnail->format == "jpeg");
    CHECK_FALSE(thumbnail->icon);
    CHECK(thumbnail->width == 256);
    CHECK(thumbnail->height == 256);
    const pakfs::GbxInfo info = pakfs::gbx_info(pakfs::test::readFile(map));
    CHECK(info.map_title.has_value());
}
