// SPDX-License-Identifier: GPL-2.0-or-later
// The mount's names and keys: real names by default across the mounted packs, a keys file for a
// Packs folder of version 6+ packs, a pak no packlist entry names, and ManiaPlanet's own pack
// served with the names and bytes `pak extract` gives.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "archive/ops/HashedNames.hpp"
#include "archive/write/PakWriter.hpp"
#include "packs/Sources.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/RealMp.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

constexpr const char* kNkHexA = "00112233445566778899AABBCCDDEEFF";
constexpr const char* kNkHexB = "0F1E2D3C4B5A69788796A5B4C3D2E1F0";

archive::PakKey nkKey(const std::string& hex) {
    archive::PakKey k{};
    REQUIRE(parseHex(hex, k));
    return k;
}

void nkWriteText(const stdfs::path& p, const std::string& text) {
    writeFile(p, Bytes(text.begin(), text.end()));
}

// A file read whole through the mount: its bytes, or the errno that stopped the read.
struct MountRead {
    Bytes bytes;
    int error = 0;
};

MountRead nkReadThrough(const stdfs::path& path) {
    MountRead out;
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) {
        out.error = errno;
        return out;
    }
    std::uint8_t buf[1 << 16];
    while (true) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            out.error = errno;
            break;
        }
        if (n == 0) break;
        out.bytes.insert(out.bytes.end(), buf, buf + n);
    }
    ::close(fd);
    return out;
}

// Every regular file below `root`, by path relative to it with '/'.
std::set<std::string> nkFilesBelow(const stdfs::path& root) {
    std::set<std::string> out;
    for (const auto& item : stdfs::recursive_directory_iterator(root))
        if (item.is_regular_file()) out.insert(stdfs::relative(item.path(), root).generic_string());
    return out;
}

// Two version 18 packs under different keys in one folder: the map in Alpha, the solid it
// refers to stored under its hash in Beta.
struct TwoKeyFolder {
    TempDir dir;
    stdfs::path packs = dir / "Packs";
    Bytes solid;

    TwoKeyFolder() {
        const stdfs::path sample = sourceDir() / "sample/tree/Tracks";
        stdfs::create_directories(dir / "a/Tracks");
        stdfs::create_directories(dir / "b/Tracks");
        stdfs::create_directories(packs);
        stdfs::copy_file(sample / "Demo.Challenge.Gbx", dir / "a/Tracks/Demo.Challenge.Gbx");
        stdfs::copy_file(sample / "Demo.Solid.Gbx",
                         dir / "b/Tracks" / archive::hashedName("Demo.Solid.Gbx"));
        solid = readFile(sample / "Demo.Solid.Gbx");
        archive::PackOptions options;
        options.version = 18;
        archive::writePak(dir / "a", packs / "Alpha.Pack.Gbx", nkKey(kNkHexA), options);
        archive::writePak(dir / "b", packs / "beta.pak", archive::keyFromBaseKey(nkKey(kNkHexB)),
                          options);
        nkWriteText(dir / "keys", std::string("# the folder's keys\nalpha key ") + kNkHexA +
                                      "\nBETA base-key " + kNkHexB + "\n");
    }
};

}  // namespace

TEST_CASE("names and keys: a keys file opens each pack of a folder, names resolved across them",
          "[names][keys][v6]") {
    TwoKeyFolder f;
    archive::KeyOptions keys;
    keys.keysFile = f.dir / "keys";
    auto loaded = packs::loadSources({f.packs}, keys);
    CHECK(loaded.warnings.empty());
    REQUIRE(loaded.packs.size() == 2);
    CHECK(loaded.packs[0].name == "Alpha");
    CHECK(loaded.packs[1].name == "beta");
    CHECK(loaded.packs[1].pak->entries().at(0).path == "Tracks/Demo.Solid.Gbx");
    // Each pack's own references alone (a writable mount, as pak commit finds names).
    loaded = packs::loadSources({f.packs}, keys, true, {}, false, false);
    CHECK(loaded.packs[1].pak->entries().at(0).path ==
          "Tracks/" + archive::hashedName("Demo.Solid.Gbx"));
    // The hashes, as asked.
    loaded = packs::loadSources({f.packs}, keys, false);
    CHECK(loaded.packs[1].pak->entries().at(0).path ==
          "Tracks/" + archive::hashedName("Demo.Solid.Gbx"));
    // One key for all: the pack of the other key is left out, with a warning.
    archive::KeyOptions one;
    one.keyHex = kNkHexA;
    loaded = packs::loadSources({f.packs}, one);
    REQUIRE(loaded.packs.size() == 1);
    CHECK(loaded.warnings.size() == 1);
    // A malformed keys file stops the load, naming its line.
    nkWriteText(f.dir / "bad", std::string("alpha key ") + kNkHexA + "\nbeta\n");
    keys.keysFile = f.dir / "bad";
    CHECK_THROWS_WITH(packs::loadSources({f.packs}, keys),
                      (f.dir / "bad").string() +
                          ": line 2: expected NAME KIND HEX (e.g. \"dedicated base-key "
                          "00000000000000000000000000000000\"), got 1 field");
}

TEST_CASE("names and keys: pakfs -o keys= mounts a Packs folder of version 6+ packs",
          "[mount][names][keys][v6]") {
    skipUnlessFuse();
    TwoKeyFolder f;
    for (const std::string option : {"-o", "--keys"}) {
        INFO(option);
        TempDir dir;
        const std::string value =
            option == "-o" ? "keys=" + (f.dir / "keys").string() : (f.dir / "keys").string();
        Mount m({option, value, f.packs.string()}, dir / "mnt", dir);
        INFO(Mount::errorsOf(dir));
        REQUIRE(m.waitMounted());
        CHECK(readFile(m.path() / "Alpha/Tracks/Demo.Challenge.Gbx") ==
              readFile(sourceDir() / "sample/tree/Tracks/Demo.Challenge.Gbx"));
        // Named by the map of the other pack.
        CHECK(readFile(m.path() / "beta/Tracks/Demo.Solid.Gbx") == f.solid);
    }
    {
        TempDir dir;
        Mount m({"-o", "hashed_names,keys=" + (f.dir / "keys").string(), f.packs.string()},
                dir / "mnt", dir);
        REQUIRE(m.waitMounted());
        CHECK(namesIn(m.path() / "beta/Tracks") ==
              std::set<std::string>{archive::hashedName("Demo.Solid.Gbx")});
    }
    // A malformed line stops the mount, naming the file and the line.
    nkWriteText(f.dir / "bad", "alpha key 1234\n");
    TempDir dir;
    stdfs::create_directories(dir / "mnt");
    auto r = run(kPakfs + " -o keys=" + q(f.dir / "bad") + " " + q(f.packs) + " " + q(dir / "mnt"));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + (f.dir / "bad").string() +
                       ": line 1: the key must be 32 hex digits (the 16 bytes of a key), got "
                       "\"1234\"\n");
    CHECK(!isMounted(dir / "mnt"));
    // Not with a key for every pack (usage).
    r = run(kPakfs + " --key " + kNkHexA + " --keys " + q(f.dir / "keys") + " " + q(f.packs) + " " +
            q(dir / "mnt"));
    CHECK(r.code == 2);
    CHECK(r.err.find("--keys gives each pack its own key") != std::string::npos);
}

TEST_CASE("names and keys: the mount opens a pak no packlist entry names with the key that fits",
          "[mount][keys][fixtures]") {
    skipUnlessFuse();
    const stdfs::path real = sharedDir("fixtures/real");
    TempDir dir;
    stdfs::create_directories(dir / "Packs");
    stdfs::copy_file(real / "Resource.pak", dir / "Packs/Resource.orig.pak");
    stdfs::copy_file(real / "packlist.dat", dir / "Packs/packlist.dat");
    Mount m({(dir / "Packs/Resource.orig.pak").string()}, dir / "mnt", dir);
    REQUIRE(m.waitMounted());
    CHECK(readText(m.path() / "Resource.orig/Media/Text/Vsh/Sprites.vsh.txt") ==
          run(kPak + " cat " + q(real / "Resource.pak") + " Media/Text/Vsh/Sprites.vsh.txt").out);
    CHECK(Mount::errorsOf(dir).find("pakfs: warning: " + (dir / "Packs/packlist.dat").string() +
                                    " has no entry for pack \"Resource.orig\" (") !=
          std::string::npos);
    CHECK(Mount::errorsOf(dir).find("opened with the key of its entry \"resource\"") !=
          std::string::npos);
}

TEST_CASE("names and keys: ManiaPlanet's pack mounts with the names and bytes pak extract gives",
          "[mount][names][real-mp][fixtures]") {
    skipUnlessFuse();
    const stdfs::path pak = dedicatedPak();
    const std::string key = dedicatedBaseKey();
    TempDir dir;
    nkWriteText(dir / "keys", "DEDICATED base-key " + key + "\n");
    // Every file pak extract gives, under the names pak ls shows; those it refuses are named on
    // its stderr (exit 1 when there are any).
    auto extracted =
        run(kPak + " extract -q --keys " + q(dir / "keys") + " " + q(pak) + " " + q(dir / "out"));
    CHECK((extracted.code == 0 || extracted.code == 1));
    auto listed = run(kPak + " ls --keys " + q(dir / "keys") + " " + q(pak));
    REQUIRE(listed.code == 0);
    std::set<std::string> names;
    std::size_t hashed = 0;
    for (std::size_t at = 0; at < listed.out.size();) {
        const std::size_t eol = listed.out.find('\n', at);
        const std::string line = listed.out.substr(at, eol - at);
        at = eol + 1;
        names.insert(line);
        const std::size_t slash = line.rfind('/');
        if (archive::looksHashed(slash == std::string::npos ? line : line.substr(slash + 1)))
            ++hashed;
    }
    CHECK(names.size() == 997);
    CHECK(hashed <= 10);  // real names by default
    const std::set<std::string> out = nkFilesBelow(dir / "out");
    for (const auto& name : out) CHECK(names.count(name) == 1);

    Mount m({"-o", "keys=" + (dir / "keys").string(), pak.string()}, dir / "mnt", dir);
    REQUIRE(m.waitMounted());
    const stdfs::path root = m.path() / "dedicated";
    // The same tree of names.
    CHECK(nkFilesBelow(root) == names);
    // Each file: the bytes extract wrote, or, where extract refused it, an I/O error (and extract
    // named it).
    std::size_t same = 0, refused = 0;
    for (const auto& name : names) {
        INFO(name);
        const MountRead got = nkReadThrough(root / name);
        if (out.count(name)) {
            CHECK(got.error == 0);
            CHECK(got.bytes == readFile(dir / "out" / name));
            ++same;
        } else {
            CHECK(got.error == EIO);
            CHECK(extracted.err.find(name) != std::string::npos);
            ++refused;
        }
    }
    CHECK(same + refused == 997);
    CHECK(same == out.size());
    CHECK((refused == 0) == (extracted.code == 0));
}
