// SPDX-License-Identifier: GPL-2.0-or-later
// Names a pak can store but the game on Windows cannot open: the rule (archive/write/
// WindowsNames), and the one warning `pak pack` and `pak commit` give for them.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "archive/write/WindowsNames.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::test;
using archive::windowsNameProblem;
using archive::windowsNamesWarning;

namespace {

const std::string kWindowsTestKey = "661b61b07517cad5d713b69991fdb06f";

std::string timesOver(const std::string& s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

}  // namespace

TEST_CASE("windows names: characters, device names, trailing dots and spaces, long paths",
          "[windows-names]") {
    using O = std::optional<std::string>;
    for (const std::string ok :
         {"a/b.txt", "Media/Texture/Image/WhiteFlare1.tga", "COM0.txt", "COM10", "LPT",
          "CONSOLE.txt", "xcon", "aux_1", "a.b.c", ".hidden", "é/ü.txt", "a b/c d"})
        CHECK(windowsNameProblem(ok) == O());
    CHECK(windowsNameProblem("CON") == O("CON: CON is a device name on Windows"));
    CHECK(windowsNameProblem("Media/con.txt") ==
          O("Media/con.txt: CON is a device name on Windows"));
    CHECK(windowsNameProblem("prn") == O("prn: PRN is a device name on Windows"));
    CHECK(windowsNameProblem("Nul.tar.gz") == O("Nul.tar.gz: NUL is a device name on Windows"));
    CHECK(windowsNameProblem("nul .txt") == O("nul .txt: NUL is a device name on Windows"));
    CHECK(windowsNameProblem("a/Com1") == O("a/Com1: COM1 is a device name on Windows"));
    CHECK(windowsNameProblem("a/COM9.x") == O("a/COM9.x: COM9 is a device name on Windows"));
    CHECK(windowsNameProblem("lpt1") == O("lpt1: LPT1 is a device name on Windows"));
    CHECK(windowsNameProblem("LPT9.dds") == O("LPT9.dds: LPT9 is a device name on Windows"));
    // A folder's problem is named for the folder, the first from the root.
    CHECK(windowsNameProblem("AUX/f.txt") == O("AUX: AUX is a device name on Windows"));
    CHECK(windowsNameProblem("a/b:c/d?e") ==
          O("a/b:c: holds ':', which Windows does not allow in a name"));
    for (const char c : std::string("<>:\"|?*"))
        CHECK(windowsNameProblem(std::string("x/a") + c + "b") ==
              O(std::string("x/a") + c + "b: holds '" + c +
                "', which Windows does not allow in a name"));
    CHECK(windowsNameProblem("a\x01"
                             "b") == O("a\\x01b: holds a control character (0x01)"));
    CHECK(windowsNameProblem("d/\x1f") == O("d/\\x1F: holds a control character (0x1F)"));
    CHECK(windowsNameProblem("dir./f.txt") == O("dir.: ends with a dot"));
    CHECK(windowsNameProblem("f.txt.") == O("f.txt.: ends with a dot"));
    CHECK(windowsNameProblem("d/f ") == O("d/f : ends with a space"));
    // 259 characters at most, as UTF-16 counts them: é is one, a character past U+FFFF two.
    const std::string p259 =
        timesOver("a", 100) + "/" + timesOver("b", 100) + "/" + timesOver("c", 57);
    REQUIRE(p259.size() == 259);
    CHECK(windowsNameProblem(p259) == O());
    CHECK(windowsNameProblem(p259 + "d") ==
          O(p259 + "d: the path is 260 characters long, over the 259 Windows allows"));
    CHECK(windowsNameProblem(timesOver("é", 259)) == O());
    CHECK(
        windowsNameProblem(timesOver("é", 260)) ==
        O(timesOver("é", 260) + ": the path is 260 characters long, over the 259 Windows allows"));
    CHECK(windowsNameProblem(timesOver("\xF0\x9F\x98\x80", 130)) ==
          O(timesOver("\xF0\x9F\x98\x80", 130) +
            ": the path is 260 characters long, over the 259 Windows allows"));
}

TEST_CASE("windows names: one warning, each path once, a folder for all under it, capped",
          "[windows-names]") {
    CHECK(windowsNamesWarning({"a.txt", "b/c.txt", "b"}) == std::nullopt);
    CHECK(windowsNamesWarning({"CON", "CON/a.txt", "CON/b.txt", "ok.txt"}) ==
          "1 name the game on Windows cannot open (the pak holds it):\n"
          "  CON: CON is a device name on Windows");
    CHECK(windowsNamesWarning({"x/a.txt", "x/b?.txt", "y.", "x/b?.txt"}) ==
          "2 names the game on Windows cannot open (the pak holds them):\n"
          "  x/b?.txt: holds '?', which Windows does not allow in a name\n"
          "  y.: ends with a dot");
    std::vector<std::string> many;
    std::string want = "25 names the game on Windows cannot open (the pak holds them):";
    for (int i = 0; i < 25; ++i) {
        many.push_back("f" + std::to_string(i) + ".");
        if (i < 20) want += "\n  f" + std::to_string(i) + ".: ends with a dot";
    }
    want += "\n  and 5 more";
    CHECK(windowsNamesWarning(many) == want);
}

TEST_CASE("windows names: pak pack and pak commit warn once, naming each", "[windows-names][cli]") {
    TempDir dir;
    writeFile(dir / "src/ok.txt", Bytes{'o'});
    writeFile(dir / "src/Media/Good.dds", Bytes{'g'});
    writeFile(dir / "src/Media/AUX/a.txt", Bytes{'a'});
    writeFile(dir / "src/Media/AUX/b.txt", Bytes{'b'});
    writeFile(dir / "src/a:b.txt", Bytes{'c'});
    writeFile(dir / "src/notes.", Bytes{'d'});
    writeFile(dir / "src/Lpt3.Script.txt", Bytes{'e'});
    writeFile(dir / (std::string("src/tab\tname")), Bytes{'f'});
    const std::string deep = timesOver("d", 120) + "/" + timesOver("e", 120);
    writeFile(dir / ("src/" + deep + "/long-enough.txt"), Bytes{'g'});       // 241 + 16 = 257: no
    writeFile(dir / ("src/" + deep + "/longer-than-that.txt"), Bytes{'h'});  // 262
    auto r = run(kPak + " pack -q --key " + kWindowsTestKey + " " + q(dir / "src") + " " +
                 q(dir / "A.pak"));
    REQUIRE(r.code == 0);
    const std::string packWarning =
        "pak: warning: 6 names the game on Windows cannot open (the pak holds them):\n"
        "  Media/AUX: AUX is a device name on Windows\n"
        "  Lpt3.Script.txt: LPT3 is a device name on Windows\n"
        "  a:b.txt: holds ':', which Windows does not allow in a name\n"
        "  notes.: ends with a dot\n"
        "  tab\\x09name: holds a control character (0x09)\n"
        "  " +
        deep +
        "/longer-than-that.txt: the path is 262 characters long, over the 259 "
        "Windows allows\n";
    CHECK(r.err.substr(0, packWarning.size()) == packWarning);
    CHECK(r.err.substr(packWarning.size()).find("Windows") == std::string::npos);  // once

    // A tree the game can open: no warning at all.
    writeFile(dir / "clean/Media/a.txt", Bytes{'a'});
    r = run(kPak + " pack -q --key " + kWindowsTestKey + " " + q(dir / "clean") + " " +
            q(dir / "B.pak"));
    REQUIRE(r.code == 0);
    CHECK(r.err.find("warning") == std::string::npos);

    // A commit names what the pak would hold: a new folder, an added file, a renamed one (the
    // bytes of the file it deletes).
    writeFile(dir / "ov/B/New/q?.txt", Bytes{'q'});
    writeFile(dir / "ov/B/PRN/x.txt", Bytes{'x'});
    writeFile(dir / "ov/B/Media/.wh.a.txt", Bytes{});
    writeFile(dir / "ov/B/Media/a .txt ", Bytes{'a'});
    const std::string commitWarning =
        "pak: warning: 3 names the game on Windows cannot open (the pak holds them):\n"
        "  PRN: PRN is a device name on Windows\n"
        "  Media/a .txt : ends with a space\n"
        "  New/q?.txt: holds '?', which Windows does not allow in a name\n";
    for (const std::string& how : {std::string(" -n"), " " + q(dir / "C.pak")}) {
        INFO(how);
        r = run(kPak + " commit --key " + kWindowsTestKey + " " + q(dir / "B.pak") + " " +
                q(dir / "ov") + how);
        REQUIRE(r.code == 0);
        CHECK(r.err.substr(0, commitWarning.size()) == commitWarning);
        CHECK(r.err.substr(commitWarning.size()).find("Windows") == std::string::npos);
    }
    // The clean pak itself commits without one.
    std::filesystem::create_directories(dir / "ov2");
    r = run(kPak + " commit -n --key " + kWindowsTestKey + " " + q(dir / "B.pak") + " " +
            q(dir / "ov2"));
    CHECK(r.err.find("Windows") == std::string::npos);
}
