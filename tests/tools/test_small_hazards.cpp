// SPDX-License-Identifier: GPL-2.0-or-later
// Smaller hazards of the pak command: a target extract cannot make names its real cause, a
// packlist refuses a pack name with a folder, check --refs --json prints JSON, every name that
// differs only in case is listed, and option values given wrong are usage errors (exit 2).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "archive/pak/PackList.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/DrivesFixture.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::namesIn;
using test::q;
using test::run;
namespace fs = std::filesystem;

// Named apart: this file is compiled in one unit with the other CLI test files.
namespace small_hazards {

const std::string kHazardKeyString = "00112233445566778899AABBCCDDEEFF";

// DIR/packlist.dat naming MyPack, and DIR/MyPack.pak made from `files`.
void makeMyPack(const test::TempDir& dir, const std::map<std::string, Bytes>& files) {
    for (const auto& [path, data] : files) test::writeFile(dir / "src" / path, data);
    REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " MyPack --key-string " +
                kHazardKeyString)
                .code == 0);
    REQUIRE(run(kPak + " pack -q " + q(dir / "src") + " " + q(dir / "MyPack.pak")).code == 0);
}

// Mounts a small read-only tmpfs on `at` for the life of the object; skips the test (exit 77)
// when it cannot be made.
struct ReadOnlyMount {
    fs::path at;
    explicit ReadOnlyMount(const fs::path& where) : at(where) {
        fs::create_directories(at);
        auto m = run("mount -t tmpfs -o ro,size=64k pakfs-test " + q(at));
        if (m.code != 0) {
            std::printf("SKIPPED: cannot mount a read-only tmpfs: %s\n", m.err.c_str());
            std::fflush(stdout);
            std::_Exit(77);
        }
    }
    ~ReadOnlyMount() { run("umount -l " + q(at)); }
    ReadOnlyMount(const ReadOnlyMount&) = delete;
    ReadOnlyMount& operator=(const ReadOnlyMount&) = delete;
};

}  // namespace small_hazards

using small_hazards::kHazardKeyString;
using small_hazards::makeMyPack;

TEST_CASE("small hazards: extract into a read-only file system names it", "[cli][hazards]") {
    test::TempDir dir;
    makeMyPack(dir, {{"Folder/a.txt", Bytes(10, 'a')}});
    small_hazards::ReadOnlyMount ro(dir / "rofs");
    // A target folder to be made there: the failing mkdir's cause, not the open's ENOENT.
    auto r = run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "rofs/out"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "rofs/out").string() +
                       ": cannot create target folder: Read-only file system\n");
    // The read-only folder itself: its first folder fails, and the run stops there.
    r = run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "rofs"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "MyPack.pak").string() +
                       ": Folder: cannot create folder \"Folder\": Read-only file system; "
                       "stopped: 0 files extracted, 1 not\n");
}

TEST_CASE("small hazards: extract names a file in the way of the target folder", "[cli][hazards]") {
    test::TempDir dir;
    makeMyPack(dir, {{"a.txt", Bytes(10, 'a')}});
    test::writeFile(dir / "file", Bytes{'x'});
    auto r = run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "file/out"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "file/out").string() +
                       ": cannot create target folder: Not a directory\n");
    r = run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "file"));
    CHECK(r.code == 1);
    CHECK(r.err ==
          "pak: " + (dir / "file").string() + ": cannot create target folder: Not a directory\n");
    CHECK(test::readFile(dir / "file") == Bytes{'x'});
}

TEST_CASE("small hazards: extract into a folder it may not write names the permission",
          "[cli][hazards]") {
    test::TempDir dir;
    makeMyPack(dir, {{"Folder/a.txt", Bytes(10, 'a')}});
    fs::create_directories(dir / "locked");
    ::chmod((dir / "locked").c_str(), 0555);
    // As root, without the capabilities that let root write anywhere (setpriv, util-linux).
    std::string as = "";
    if (::geteuid() == 0) {
        as = "setpriv --bounding-set=-dac_override,-dac_read_search ";
        if (run(as + "sh -c " + q("test ! -w " + (dir / "locked").string())).code != 0) {
            std::printf("SKIPPED: cannot drop root's right to write into a read-only folder\n");
            std::fflush(stdout);
            std::_Exit(77);
        }
    }
    auto r = run(as + kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "locked/out"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "locked/out").string() +
                       ": cannot create target folder: Permission denied\n");
    // Inside it: the folder and the file each named with the cause, and counted right.
    r = run(as + kPak + " extract -q -j 1 " + q(dir / "MyPack.pak") + " " + q(dir / "locked"));
    CHECK(r.code == 1);
    const std::string pak = (dir / "MyPack.pak").string();
    CHECK(r.err == "pak: " + pak +
                       ": Folder: cannot create folder \"Folder\": Permission denied\n" +
                       "pak: " + pak +
                       ": Folder/a.txt: cannot create folder \"Folder\": Permission denied\n" +
                       "pak: 1 of 1 file could not be extracted\n");
    CHECK(namesIn(dir / "locked").empty());
}

TEST_CASE("small hazards: packlist add refuses a pack name with a folder in it", "[cli][hazards]") {
    test::TempDir dir;
    const fs::path list = dir / "packlist.dat";
    for (const std::string name : {"bad/name", "bad\\name", "name/", "Packs/Bar.pak"}) {
        INFO(name);
        auto r = run(kPak + " packlist add " + q(list) + " " + q(name));
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "pak: NAME \"" + name +
                           "\" holds a path separator ('/' or '\\'): a packlist names packs, not "
                           "their files (pak packlist add --help)\n");
        CHECK_FALSE(fs::exists(list));
    }
    auto r = run(kPak + " packlist add " + q(list) + " ''");
    CHECK(r.code == 2);
    CHECK(r.err == "pak: NAME \"\" is empty (pak packlist add --help)\n");
    // A list that is there is left as it was.
    REQUIRE(
        run(kPak + " packlist add " + q(list) + " Good --key-string " + kHazardKeyString).code ==
        0);
    const Bytes before = test::readFile(list);
    r = run(kPak + " packlist add " + q(list) + " a/Good");
    CHECK(r.code == 2);
    CHECK(test::readFile(list) == before);
    // The library refuses such a name too (commit --patch adds through it).
    archive::PackList pl;
    bool added = false;
    CHECK_THROWS_WITH(pl.putLast("x/y", added),
                      "pack name \"x/y\" holds a path separator ('/' or '\\'): a packlist names "
                      "packs, not their files");
    CHECK(pl.entries.empty());
}

TEST_CASE("small hazards: check --refs --json prints one JSON object", "[cli][hazards]") {
    test::PacksFolder p;
    auto r = run(kPak + " check --refs --json " + q(p.packs));
    CHECK(r.code == 1);  // one broken reference, as the text form
    CHECK(r.err.empty());
    nlohmann::json j;
    REQUIRE_NOTHROW(j = nlohmann::json::parse(r.out));
    const nlohmann::json expected = {
        {"packs", p.packs.string()},
        {"gbx_files", 1},
        {"references", 4},
        {"broken", 1},
        {"unreadable", 0},
        {"hidden", 1},
        {"by_resource_index", 2},
        {"broken_references",
         {{{"path", "Game/Stadium/Media/Solid/Road.Solid.Gbx"},
           {"node_index", 3},
           {"name", "Missing.dds"},
           {"resolved", "Game/Stadium/Media/Missing.dds"}}}},
        {"unreadable_files", nlohmann::json::array()},
        {"hidden_files",
         {{{"path", "Game/Shared.txt"}, {"pack", "Stadium"}, {"hidden_by", "Common"}}}}};
    CHECK(j == expected);
    // The keys in the order the help gives them.
    CHECK(r.out.find("\"packs\"") < r.out.find("\"gbx_files\""));
    CHECK(r.out.find("\"by_resource_index\"") < r.out.find("\"broken_references\""));
    // The text form is unchanged.
    r = run(kPak + " check --refs " + q(p.packs));
    CHECK(r.code == 1);
    CHECK(r.out ==
          "Game/Stadium/Media/Solid/Road.Solid.Gbx: node 3: Missing.dds -> "
          "Game/Stadium/Media/Missing.dds MISSING\n"
          "Game/Shared.txt: the file of pack Stadium is hidden by pack Common\n"
          "1 gbx files, 4 references, 1 broken, 0 unreadable, 1 hidden by another pack, 2 by "
          "resource index (not resolved)\n");
}

TEST_CASE("small hazards: commit lists every name that differs only in case", "[cli][hazards]") {
    test::TempDir dir;
    makeMyPack(dir, {{"Media/x.txt", Bytes(10, 'x')}, {"Text/a.txt", Bytes(10, 'a')}});
    const fs::path up = dir / "ov/MyPack";
    test::writeFile(up / "media/y.txt", Bytes(3, 'y'));  // beside the pack's Media/
    test::writeFile(up / "media/x.txt", Bytes(3, 'y'));  // inside it: left out of the list
    test::writeFile(up / "Text/A.txt", Bytes(3, 'A'));   // beside the pack's Text/a.txt
    test::writeFile(up / "NEW.txt", Bytes(3, 'n'));
    test::writeFile(up / "new.txt", Bytes(3, 'n'));  // beside another name of the overlay
    test::writeFile(up / "fine.txt", Bytes(3, 'f'));
    auto r = run(kPak + " commit " + q(dir / "MyPack.pak") + " " + q(dir / "ov") + " " +
                 q(dir / "Out.pak"));
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "pak: " + up.string() +
              ": 3 names differ only in case from another, which the game would not "
              "tell apart:\n  " +
              (up / "media").string() + ": differs only in case from Media in the pack\n  " +
              (up / "Text/A.txt").string() +
              ": differs only in case from Text/a.txt in the pack\n  " + (up / "new.txt").string() +
              ": differs only in case from NEW.txt in the overlay\n");
    CHECK_FALSE(fs::exists(dir / "Out.pak"));
    // One alone keeps its one line.
    fs::remove_all(up / "media");
    fs::remove_all(up / "Text");
    fs::remove(up / "NEW.txt");
    test::writeFile(up / "Fine.txt", Bytes(3, 'f'));
    r = run(kPak + " commit " + q(dir / "MyPack.pak") + " " + q(dir / "ov") + " " +
            q(dir / "Out.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (up / "fine.txt").string() +
                       ": differs only in case from Fine.txt in the overlay, which the game would "
                       "not tell apart\n");
}

TEST_CASE("small hazards: pack lists every name that differs only in case, writes nothing",
          "[cli][hazards]") {
    test::TempDir dir;
    const fs::path src = dir / "src";
    test::writeFile(src / "Media/a.txt", Bytes(3, 'a'));
    test::writeFile(src / "Media/Sub/c.txt", Bytes(3, 'c'));
    test::writeFile(src / "media/Sub/c.txt", Bytes(3, 'c'));  // inside media/: left out
    test::writeFile(src / "X.TXT", Bytes(3, 'x'));
    test::writeFile(src / "x.txt", Bytes(3, 'x'));
    test::writeFile(src / "Dir/File", Bytes(3, 'f'));
    test::writeFile(src / "Dir/file", Bytes(3, 'f'));
    REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " Out --key-string " +
                kHazardKeyString)
                .code == 0);
    auto r = run(kPak + " pack -q " + q(src) + " " + q(dir / "Out.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + src.string() +
                       ": 3 names differ only in case from another, which the game would not "
                       "tell apart:\n  " +
                       (src / "media").string() + ": differs only in case from Media\n  " +
                       (src / "Dir/file").string() + ": differs only in case from Dir/File\n  " +
                       (src / "x.txt").string() + ": differs only in case from X.TXT\n");
    CHECK(namesIn(dir.path()) == std::set<std::string>{"packlist.dat", "src"});
}

TEST_CASE("small hazards: option values given wrong are usage errors (exit 2)", "[cli][hazards]") {
    test::TempDir dir;
    makeMyPack(dir, {{"a.txt", Bytes(10, 'a')}});
    const std::string pak = q(dir / "MyPack.pak");
    const std::string key32 = "00112233445566778899aabbccddeeff";
    auto usage = [&](const std::string& args, const std::string& message) {
        INFO(args);
        auto r = run(kPak + " " + args);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "pak: " + message + "\n");
    };
    const std::string hex = " must be 32 hex digits (the 16 bytes of a key), got ";
    usage("ls " + pak + " --key 0011", "--key" + hex + "\"0011\" (pak ls --help)");
    usage("ls " + pak + " --key " + key32 + "00",
          "--key" + hex + "\"" + key32 + "00\" (pak ls --help)");
    usage("cat " + pak + " a.txt --key 0011223344556677889900aabbccddXX",
          "--key" + hex + "\"0011223344556677889900aabbccddXX\" (pak cat --help)");
    usage("extract " + pak + " " + q(dir / "out") + " --base-key 12",
          "--base-key" + hex + "\"12\" (pak extract --help)");
    usage("check " + pak + " --ms-key zz", "--ms-key" + hex + "\"zz\" (pak check --help)");
    // Before any file is looked at: a missing pak is not what is said.
    usage("info " + q(dir / "nothere.pak") + " --key 0011",
          "--key" + hex + "\"0011\" (pak info --help)");
    usage("pack -q " + q(dir / "src") + " " + q(dir / "New.pak") + " --key 0011",
          "--key" + hex + "\"0011\" (pak pack --help)");
    usage("commit " + pak + " " + q(dir / "ov") + " " + q(dir / "Out.pak") + " --key abc",
          "--key" + hex + "\"abc\" (pak commit --help)");
    usage("ls " + pak + " --key " + key32 + " --base-key " + key32,
          "give one of --key, --key-file, --base-key and --ms-key, not several (pak ls --help)");
    usage("pack -q --version 5 " + q(dir / "src") + " " + q(dir / "New.pak"),
          "--version 5: pak writes versions 3 and 6 to 18 (pak pack --help)");
    usage(
        "pack -q --version 18 --ms-key " + key32 + " " + q(dir / "src") + " " + q(dir / "New.pak"),
        "--ms-key cannot be used to write a pack (the key would depend on the checksum of what "
        "it encrypts); give --key or --base-key (pak pack --help)");
    usage("packlist add " + q(dir / "packlist.dat") + " Other --key-string 0011",
          "--key-string must be 32 hex digits, got \"0011\" (pak packlist add --help)");
    CHECK_FALSE(fs::exists(dir / "New.pak"));
    CHECK_FALSE(fs::exists(dir / "out"));
    // What a file holds stays bad input (exit 1): a key file that is no key.
    test::writeFile(dir / "key.txt", Bytes{'n', 'o', '\n'});
    auto r = run(kPak + " ls " + pak + " --key-file " + q(dir / "key.txt"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "key.txt").string() +
                       ": a key file holds 16 raw bytes or 32 hex digits\n");
}
