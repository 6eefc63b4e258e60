// SPDX-License-Identifier: GPL-2.0-or-later
// Paths and globs on the command line: pak ls, extract and rm select by them (case ignored, a
// folder standing for its tree), name each one that matches nothing (exit 1), and pak add
// --as puts a folder's tree under a path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/Cli.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::q;
using test::run;
namespace fs = std::filesystem;

// Named apart: this file is compiled in one unit with the other CLI test files.
namespace path_globs {

// DIR/Globs.pak, its key in DIR/packlist.dat, holding a small tree of media files.
fs::path makeGlobPack(const test::TempDir& dir) {
    for (const char* path : {"a.txt", "Media/Font/Arial.txt", "Media/Texture/Image/Sky.tga",
                             "Media/Texture/Image/Light.TGA", "Media/Texture/Image/Sub/Deep.tga",
                             "Media/Texture/b.dds", "Tracks/x.txt"})
        test::writeFile(dir / "src" / path, Bytes(path, path + std::strlen(path)));
    REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") +
                " Globs --key-string 00112233445566778899AABBCCDDEEFF")
                .code == 0);
    REQUIRE(run(kPak + " pack -q " + q(dir / "src") + " " + q(dir / "Globs.pak")).code == 0);
    return dir / "Globs.pak";
}

// The files under `root`, as relative paths.
std::set<std::string> filesUnder(const fs::path& root) {
    std::set<std::string> out;
    for (const auto& item : fs::recursive_directory_iterator(root))
        if (item.is_regular_file()) out.insert(fs::relative(item.path(), root).string());
    return out;
}

}  // namespace path_globs

using namespace path_globs;

TEST_CASE("pak ls takes paths and globs: * within a name, ** across, case ignored", "[cli][glob]") {
    test::TempDir dir;
    const fs::path pak = makeGlobPack(dir);
    auto r = run(kPak + " ls " + q(pak) + " 'Media/Texture/Image/*.tga'");
    CHECK(r.code == 0);
    CHECK(r.err == "");
    CHECK(r.out == "Media/Texture/Image/Light.TGA\nMedia/Texture/Image/Sky.tga\n");
    r = run(kPak + " ls " + q(pak) + " 'media/**/*.TGA'");
    CHECK(r.code == 0);
    CHECK(r.out ==
          "Media/Texture/Image/Light.TGA\nMedia/Texture/Image/Sky.tga\n"
          "Media/Texture/Image/Sub/Deep.tga\n");
    // A folder's path, and a pattern matching folders, stand for what is under them.
    r = run(kPak + " ls " + q(pak) + " MEDIA/font 'Tr?cks'");
    CHECK(r.code == 0);
    CHECK(r.out == "Media/Font/Arial.txt\nTracks/x.txt\n");
    r = run(kPak + " ls " + q(pak) + " '*'");
    CHECK(r.out == run(kPak + " ls " + q(pak)).out);
    // Each pattern that matches nothing is named; the others are still listed.
    r = run(kPak + " ls " + q(pak) + " 'Nothing/*' a.txt nothere");
    CHECK(r.code == 1);
    CHECK(r.out == "a.txt\n");
    CHECK(r.err == "pak: " + pak.string() + ": nothing in the pak matches \"Nothing/*\"\npak: " +
                       pak.string() + ": no file or folder \"nothere\" in the pak\n");
    r = run(kPak + " ls --json " + q(pak) + " '*.txt'");
    CHECK(r.code == 0);
    const auto list = nlohmann::json::parse(r.out);
    REQUIRE(list.size() == 1);
    CHECK(list[0]["path"] == "a.txt");
    r = run(kPak + " ls " + q(pak) + " /");
    CHECK(r.code == 2);
    CHECK(r.err == "pak: \"/\": not a path in a pak (pak ls --help)\n");
}

TEST_CASE("pak extract takes globs, and one matching nothing is named (exit 1)", "[cli][glob]") {
    test::TempDir dir;
    const fs::path pak = makeGlobPack(dir);
    auto r =
        run(kPak + " extract -q " + q(pak) + " " + q(dir / "out") + " 'Media/Texture/Image/*.tga'");
    CHECK(r.code == 0);
    CHECK(r.err == "");
    CHECK(filesUnder(dir / "out") ==
          std::set<std::string>{"Media/Texture/Image/Light.TGA", "Media/Texture/Image/Sky.tga"});
    CHECK(test::readText(dir / "out/Media/Texture/Image/Sky.tga") == "Media/Texture/Image/Sky.tga");
    r = run(kPak + " extract -q " + q(pak) + " " + q(dir / "out2") + " '**/*.dds' 'x*'");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + pak.string() + ": nothing in the pak matches \"x*\"\n");
    CHECK(filesUnder(dir / "out2") == std::set<std::string>{"Media/Texture/b.dds"});
    r = run(kPak + " extract -q " + q(pak) + " " + q(dir / "out3") + " 'y*'");
    CHECK(r.code == 1);
    CHECK_FALSE(fs::exists(dir / "out3"));
}

TEST_CASE("pak rm takes globs, and one matching nothing changes nothing", "[cli][glob][edit]") {
    test::TempDir dir;
    const fs::path pak = makeGlobPack(dir);
    auto r = run(kPak + " rm -n " + q(pak) + " 'Media/**/*.tga' 'media/t*/*.DDS'");
    CHECK(r.code == 0);
    // The folders the files leave empty go with them (pak rm).
    CHECK(r.out ==
          "D Media/Texture/\nD Media/Texture/Image/\nD Media/Texture/Image/Light.TGA\n"
          "D Media/Texture/Image/Sky.tga\nD Media/Texture/Image/Sub/\n"
          "D Media/Texture/Image/Sub/Deep.tga\nD Media/Texture/b.dds\n");
    // A pattern matching a folder removes it with its tree.
    r = run(kPak + " rm -n " + q(pak) + " 'Media/T*'");
    CHECK(r.code == 0);
    CHECK(r.out ==
          "D Media/Texture/\nD Media/Texture/Image/\nD Media/Texture/Image/Light.TGA\n"
          "D Media/Texture/Image/Sky.tga\nD Media/Texture/Image/Sub/\n"
          "D Media/Texture/Image/Sub/Deep.tga\nD Media/Texture/b.dds\n");
    const Bytes before = test::readFile(pak);
    r = run(kPak + " rm -q " + q(pak) + " '*.txt' 'Nothing/**'");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + pak.string() + ":Nothing/**: nothing in the pak matches it\n");
    CHECK(test::readFile(pak) == before);
    r = run(kPak + " rm -q " + q(pak) + " '*.txt' 'Media/Texture/Image/*'");
    CHECK(r.code == 0);
    CHECK(run(kPak + " ls " + q(pak)).out ==
          "Media/Font/Arial.txt\nMedia/Texture/b.dds\nTracks/x.txt\n");
}

TEST_CASE("pak add DIR --as PATH puts the folder's tree under PATH", "[cli][edit]") {
    test::TempDir dir;
    const fs::path pak = makeGlobPack(dir);
    test::writeFile(dir / "mods/Skins/a.dds", Bytes{'a'});
    test::writeFile(dir / "mods/Skins/Deep/b.dds", Bytes{'b'});
    auto r = run(kPak + " add -q " + q(pak) + " " + q(dir / "mods/Skins") + " --as Media/skins");
    CHECK(r.code == 0);
    r = run(kPak + " ls " + q(pak) + " media/skins");
    CHECK(r.code == 0);
    CHECK(r.out == "Media/skins/Deep/b.dds\nMedia/skins/a.dds\n");
    CHECK(run(kPak + " cat " + q(pak) + " Media/skins/Deep/b.dds").out == "b");
}
