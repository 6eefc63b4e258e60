// SPDX-License-Identifier: GPL-2.0-or-later
// pak pack and what a source folder may hold besides files and folders: symbolic links (left out
// with one warning, or followed with -L, loops and dangling ones refused), the pak being written
// and its temporary files, the packlist.dat holding its key, another packlist.dat; and an OUT
// that is a folder.
#include <catch2/catch.hpp>

#include "archive/pak/PackList.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::kTestKeyHex;
using test::q;
using test::run;
namespace fs = std::filesystem;

namespace {

// SRC with a.txt and sub/b.txt, and a folder "outside" beside it holding secret.txt.
struct LinkTree {
    test::TempDir dir;
    fs::path src = dir / "src";
    fs::path outside = dir / "outside";

    LinkTree() {
        test::writeFile(src / "a.txt", Bytes{'a'});
        test::writeFile(src / "sub/b.txt", Bytes{'b'});
        test::writeFile(outside / "secret.txt", Bytes{'s'});
    }
    test::RunResult pack(const std::string& options, const fs::path& out) const {
        return run("timeout 60 " + kPak + " pack -q --key " + kTestKeyHex + " " + options + " " +
                   q(src) + " " + q(out));
    }
    std::string listing(const fs::path& pak) const {
        auto r = run(kPak + " ls --key " + kTestKeyHex + " " + q(pak));
        REQUIRE(r.code == 0);
        return r.out;
    }
};

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n') + 1);
}

}  // namespace

TEST_CASE("pack links: by default symbolic links are left out, named in one warning",
          "[cli][pack][links]") {
    LinkTree t;
    fs::create_directory_symlink(t.outside, t.src / "etc");
    fs::create_directory_symlink("..", t.src / "sub/up");
    fs::create_symlink("a.txt", t.src / "alink");
    fs::create_symlink("nowhere", t.src / "gone");
    auto r = t.pack("", t.dir / "out.pak");
    CHECK(r.code == 0);
    CHECK(firstLine(r.err) ==
          "pak: warning: 4 symbolic links left out (pass -L to follow them): alink, etc, gone, "
          "sub/up\n");
    CHECK(r.err.find("symbolic link", firstLine(r.err).size()) == std::string::npos);
    CHECK(t.listing(t.dir / "out.pak") == "a.txt\nsub/b.txt\n");

    // Many: the first eight, then how many more; one: "it".
    for (int i = 0; i < 9; ++i) fs::create_symlink("a.txt", t.src / ("m" + std::to_string(i)));
    r = t.pack("", t.dir / "many.pak");
    CHECK(r.code == 0);
    CHECK(firstLine(r.err) ==
          "pak: warning: 13 symbolic links left out (pass -L to follow them): alink, etc, gone, "
          "m0, m1, m2, m3, m4 and 5 more\n");
    std::vector<fs::path> links{t.src / "sub/up"};
    for (const auto& item : fs::directory_iterator(t.src))
        if (fs::is_symlink(item.symlink_status())) links.push_back(item.path());
    for (const auto& link : links) fs::remove(link);
    fs::create_symlink("a.txt", t.src / "alink");
    r = t.pack("", t.dir / "one.pak");
    CHECK(r.code == 0);
    CHECK(firstLine(r.err) ==
          "pak: warning: 1 symbolic link left out (pass -L to follow it): alink\n");
}

TEST_CASE("pack links: -L follows links to files and folders, also out of SRCDIR",
          "[cli][pack][links]") {
    LinkTree t;
    fs::create_directory_symlink(t.outside, t.src / "etc");
    fs::create_symlink("../a.txt", t.src / "sub/alink");
    for (const std::string option : {"-L", "--dereference"}) {
        auto r = t.pack(option, t.dir / "out.pak");
        CHECK(r.code == 0);
        CHECK(r.err.find("symbolic link") == std::string::npos);
        CHECK(t.listing(t.dir / "out.pak") == "a.txt\netc/secret.txt\nsub/alink\nsub/b.txt\n");
        r = run(kPak + " cat --key " + kTestKeyHex + " " + q(t.dir / "out.pak") + " sub/alink");
        CHECK(r.code == 0);
        CHECK(r.out == "a");
        r = run(kPak + " cat --key " + kTestKeyHex + " " + q(t.dir / "out.pak") +
                " etc/secret.txt");
        CHECK(r.out == "s");
    }
}

TEST_CASE("pack links: -L refuses a link to a folder that holds it, in one line",
          "[cli][pack][links]") {
    LinkTree t;
    fs::create_directory_symlink("..", t.src / "sub/up");
    auto r = t.pack("-L", t.dir / "out.pak");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (t.src / "sub/up").string() + ": a symbolic link to " +
                       t.src.string() +
                       ", a folder that holds it: following it would never end (remove it, or "
                       "pack without -L)\n");
    CHECK_FALSE(fs::exists(t.dir / "out.pak"));
    // Through another folder: src/x -> outside, outside/back -> src.
    fs::remove(t.src / "sub/up");
    fs::create_directory_symlink(t.outside, t.src / "x");
    fs::create_directory_symlink(t.src, t.outside / "back");
    r = t.pack("-L", t.dir / "out.pak");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (t.src / "x/back").string() + ": a symbolic link to " +
                       t.src.string() +
                       ", a folder that holds it: following it would never end (remove it, or "
                       "pack without -L)\n");
    CHECK_FALSE(fs::exists(t.dir / "out.pak"));
}

TEST_CASE("pack links: -L refuses a dangling link, naming it", "[cli][pack][links]") {
    LinkTree t;
    fs::create_symlink("nowhere.txt", t.src / "sub/gone");
    auto r = t.pack("-L", t.dir / "out.pak");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (t.src / "sub/gone").string() +
                       ": a symbolic link to nowhere.txt, which does not exist (remove it, or "
                       "pack without -L)\n");
    CHECK_FALSE(fs::exists(t.dir / "out.pak"));
}

TEST_CASE(
    "pack links: OUT inside SRCDIR, its temporary files and its key's packlist.dat are "
    "not packed",
    "[cli][pack][links]") {
    LinkTree t;
    // The key from the packlist.dat beside OUT, which is in SRCDIR.
    REQUIRE(run(kPak + " packlist add " + q(t.src / "packlist.dat") + " Out").code == 0);
    test::writeFile(t.src / ".Out.pak.tmp-AbC123", Bytes{'t'});  // left by a killed run
    const fs::path out = t.src / "Out.pak";
    for (int round = 0; round < 2; ++round) {
        auto r = run("timeout 60 " + kPak + " pack -q " + q(t.src) + " " + q(out));
        CHECK(r.code == 0);
        CHECK(r.err == out.string() +
                           ": 2 files in 1 folder, 0 compressed, 0 copied from base, 2 -> " +
                           std::to_string(fs::file_size(out)) + " bytes\n");
        auto ls = run(kPak + " ls " + q(out));
        CHECK(ls.code == 0);
        CHECK(ls.out == "a.txt\nsub/b.txt\n");
    }
    // With -L, a link to OUT is not packed either.
    fs::create_symlink("../Out.pak", t.src / "sub/again.pak");
    auto r = run("timeout 60 " + kPak + " pack -q -L " + q(t.src) + " " + q(out));
    CHECK(r.code == 0);
    CHECK(run(kPak + " ls " + q(out)).out == "a.txt\nsub/b.txt\n");

    // --packlist inside SRCDIR, OUT outside: the list is not packed.
    fs::remove(t.src / "sub/again.pak");
    fs::remove(t.src / ".Out.pak.tmp-AbC123");
    fs::remove(out);
    REQUIRE(run(kPak + " packlist add " + q(t.src / "sub/keys.dat") + " Other").code == 0);
    r = run("timeout 60 " + kPak + " pack -q --packlist " + q(t.src / "sub/keys.dat") + " " +
            q(t.src) + " " + q(t.dir / "Other.pak"));
    CHECK(r.code == 0);
    auto ls =
        run(kPak + " ls --packlist " + q(t.src / "sub/keys.dat") + " " + q(t.dir / "Other.pak"));
    CHECK(ls.out == "a.txt\npacklist.dat\nsub/b.txt\n");
    CHECK(r.err.find("pak: warning: " + (t.src / "packlist.dat").string() +
                     " is packed (as packlist.dat): a packlist.dat holds keys\n") == 0);
}

TEST_CASE("pack links: another packlist.dat is packed, with a warning", "[cli][pack][links]") {
    LinkTree t;
    REQUIRE(run(kPak + " packlist add " + q(t.src / "sub/PackList.dat") + " Game").code == 0);
    auto r = t.pack("", t.dir / "out.pak");
    CHECK(r.code == 0);
    CHECK(firstLine(r.err) == "pak: warning: " + (t.src / "sub/PackList.dat").string() +
                                  " is packed (as sub/PackList.dat): a packlist.dat holds keys\n");
    CHECK(t.listing(t.dir / "out.pak") == "a.txt\nsub/PackList.dat\nsub/b.txt\n");
}

TEST_CASE("pack links: an OUT that is a folder is refused before any file is read",
          "[cli][pack][links]") {
    LinkTree t;
    fs::create_directories(t.dir / "dest");
    // A dangling link that -L would refuse: the OUT error comes first.
    fs::create_symlink("nowhere.txt", t.src / "gone");
    const std::string expected = "pak: " + (t.dir / "dest").string() +
                                 ": is a folder; give the pak file to write (e.g. " +
                                 (t.dir / "dest/NAME.pak").string() + ")\n";
    auto r = t.pack("-L", t.dir / "dest");
    CHECK(r.code == 1);
    CHECK(r.err == expected);
    // Without a key option either (no packlist.dat to find one in), and through a link.
    r = run("timeout 60 " + kPak + " pack -q " + q(t.src) + " " + q(t.dir / "dest"));
    CHECK(r.code == 1);
    CHECK(r.err == expected);
    fs::create_directory_symlink(t.dir / "dest", t.dir / "destlink");
    r = t.pack("", t.dir / "destlink");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (t.dir / "destlink").string() +
                       ": is a folder; give the pak file to write (e.g. " +
                       (t.dir / "destlink/NAME.pak").string() + ")\n");
    CHECK(test::namesIn(t.dir / "dest").empty());
}
