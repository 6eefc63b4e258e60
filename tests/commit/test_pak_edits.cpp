// SPDX-License-Identifier: GPL-2.0-or-later
// pak add, rm and mv end to end: the result read back, untouched entries' slots identical, a
// replaced or moved file keeping what the game knows of it, the lock, and kill -9 mid-way.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "archive/ops/Diff.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/FileLock.hpp"
#include "common/ShellWord.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/PakEntries.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

const std::string kPakBinary = PAKFS_PAK_BINARY;

std::string quoted(const stdfs::path& p) {
    return "'" + p.string() + "'";
}

// Every entry of `before` that `after` holds at `moved(path)` has the same slot there.
void checkSlotsKept(
    const stdfs::path& before, const stdfs::path& after, const std::set<std::string>& untouched,
    const std::function<std::string(const std::string&)>& moved = [](const std::string& p) {
        return p;
    }) {
    auto a = archive::PakIndex::open(before, testKey());
    auto b = archive::PakIndex::open(after, testKey());
    for (const auto& path : untouched) {
        INFO(path);
        const archive::PakEntry* ea = findEntry(*a, path);
        const archive::PakEntry* eb = findEntry(*b, moved(path));
        REQUIRE(ea);
        REQUIRE(eb);
        CHECK(archive::sameSlot(*a, *ea, *b, *eb));
        CHECK(ea->classId == eb->classId);
        CHECK(ea->flags == eb->flags);
    }
}

std::string pakCommand(const std::string& args) {
    return kPakBinary + " " + args + " --key " + kTestKeyHex;
}

}  // namespace

TEST_CASE("pak add: files and folders in, a replaced file keeps its class ID, the rest copied",
          "[edit][cli]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")},
                               {"Media/b.dds", bytesOf("bbbb")},
                               {"Media/c.txt", bytesOf("c\n")}});
    const stdfs::path before = t.dir->path() / "before.pak";
    stdfs::copy_file(t.pak, before);
    writeFile(t.dir->path() / "in/new.txt", bytesOf("new\n"));
    writeFile(t.dir->path() / "in/Tree/x.txt", bytesOf("x\n"));
    writeFile(t.dir->path() / "in/Tree/Deep/y.txt", bytesOf("y\n"));
    writeFile(t.dir->path() / "in/b2.dds", bytesOf("BBBB"));

    auto r = run(pakCommand("add -q " + quoted(t.pak) + " " + quoted(t.dir->path() / "in/new.txt") +
                            " " + quoted(t.dir->path() / "in/Tree")));
    REQUIRE(r.code == 0);
    CHECK(
        r.err.ends_with(": 6 files in 4 folders (3 copied as they were, 3 encoded), 5 changes\n"));
    std::set<std::string> folders;
    const auto written = archive::PakIndex::open(t.pak, testKey());  // held while listed
    for (const auto& f : written->folders()) folders.insert(f.path);
    // The test pack keeps an empty folder of its own.
    CHECK(folders == std::set<std::string>{"EmptyFolder", "Media", "Tree", "Tree/Deep"});
    // --as: one file at a path the pak holds: replaced, its class ID and flags kept.
    r = run(pakCommand("add -q " + quoted(t.pak) + " " + quoted(t.dir->path() / "in/b2.dds") +
                       " --as media/B.dds"));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(t.pak) == std::map<std::string, Bytes>{{"a.txt", bytesOf("a\n")},
                                                            {"Media/b.dds", bytesOf("BBBB")},
                                                            {"Media/c.txt", bytesOf("c\n")},
                                                            {"new.txt", bytesOf("new\n")},
                                                            {"Tree/x.txt", bytesOf("x\n")},
                                                            {"Tree/Deep/y.txt", bytesOf("y\n")}});
    checkSlotsKept(before, t.pak, {"a.txt", "Media/c.txt"});
    auto a = archive::PakIndex::open(before, testKey());
    auto b = archive::PakIndex::open(t.pak, testKey());
    CHECK(findEntry(*b, "Media/b.dds")->classId == findEntry(*a, "Media/b.dds")->classId);

    // Usage: --as with two files, or with a folder.
    r = run(pakCommand("add " + quoted(t.pak) + " " + quoted(t.dir->path() / "in/new.txt") + " " +
                       quoted(t.dir->path() / "in/b2.dds") + " --as x.txt"));
    CHECK(r.code == 2);
    CHECK(r.err ==
          "pak: --as names where one FILE goes in the pak: give one FILE with it (pak "
          "add --help)\n");
    // A symbolic link is refused, naming it; nothing is written.
    stdfs::create_symlink("new.txt", t.dir->path() / "in/link.txt");
    const Bytes now = readFile(t.pak);
    r = run(pakCommand("add " + quoted(t.pak) + " " + quoted(t.dir->path() / "in/link.txt")));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (t.dir->path() / "in/link.txt").string() +
                       ": a symbolic link, which a pak cannot hold (give the file it names)\n");
    CHECK(readFile(t.pak) == now);
}

TEST_CASE("pak add and pak mv: the pak rm they suggest, run as printed, lets them through",
          "[edit][cli][advice]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")},
                               {"Media/Font/Arial.txt", bytesOf("f\n")},
                               {"Tracks/d.txt", bytesOf("d\n")},
                               {"Assets/b.txt", bytesOf("b\n")}});
    const stdfs::path in = t.dir->path() / "in";
    writeFile(in / "Media", bytesOf("notes\n"));
    writeFile(in / "folder/a.txt/x.txt", bytesOf("x\n"));
    // Given as a user in the pak's folder gives them: by their names there.
    const stdfs::path here = t.dir->path();
    const std::string key = " --key " + std::string(kTestKeyHex);
    const std::string pak = t.pak.filename().string();

    // `command` is refused with advice between `from` and `to`: the advice is `expected`, it
    // runs, and then `retry` does.
    const auto followAdvice = [&](const std::string& command, const char* from, const char* to,
                                  const std::string& expected, const std::string& retry) {
        const auto r = runAsPrinted(command + key, here);
        REQUIRE(r.code == 1);
        const std::string advice = suggestedCommand(r.err, from, to);
        CHECK(advice == expected + key);
        REQUIRE(runAsPrinted(advice, here).code == 0);
        REQUIRE(runAsPrinted(retry + key, here).code == 0);
    };
    // A file over a folder.
    followAdvice("pak add " + pak + " in/Media", "(first run: ", ", or pass --force",
                 "pak rm " + pak + " Media", "pak add -q " + pak + " in/Media");
    // A folder over a file.
    followAdvice("pak add " + pak + " in/folder/a.txt", "(first run: ", ", or pass --force",
                 "pak rm " + pak + " a.txt", "pak add -q " + pak + " in/folder/a.txt");
    // A move onto a file the pak holds.
    followAdvice("pak mv " + pak + " Tracks/d.txt Assets/b.txt", "first run: ", ", or move",
                 "pak rm " + pak + " Assets/b.txt",
                 "pak mv -q " + pak + " Tracks/d.txt Assets/b.txt");
    CHECK(contentsOf(t.pak) == std::map<std::string, Bytes>{{"Media", bytesOf("notes\n")},
                                                            {"a.txt/x.txt", bytesOf("x\n")},
                                                            {"Assets/b.txt", bytesOf("d\n")}});
}

TEST_CASE("pak add replaces no folder by a file and no file by a folder unless --force",
          "[edit][cli]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")},
                               {"Media/Font/Arial.txt", bytesOf("f\n")},
                               {"Media/b.txt", bytesOf("b\n")}});
    const Bytes original = readFile(t.pak);
    const stdfs::path in = t.dir->path() / "in";
    writeFile(in / "Media", bytesOf("notes\n"));
    writeFile(in / "notice.txt", bytesOf("n\n"));
    writeFile(in / "folder/a.txt/x.txt", bytesOf("x\n"));
    const std::string pak = quoted(t.pak);

    // A file over a folder, by its name or with --as (names as the game compares them).
    auto r = run(pakCommand("add " + pak + " " + quoted(in / "Media")));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (in / "Media").string() + ": a file, but " + t.pak.string() +
                       ":Media is a folder (2 files in it): pak add replaces no folder by a "
                       "file (first run: pak rm " +
                       shellWord(t.pak.string()) + " Media --key " + std::string(kTestKeyHex) +
                       ", or pass --force to replace it)\n");
    r = run(pakCommand("add -n " + pak + " " + quoted(in / "notice.txt") + " --as media/font"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (in / "notice.txt").string() + ": a file, but " + t.pak.string() +
                       ":Media/Font is a folder (1 file in it): pak add replaces no folder by a "
                       "file (first run: pak rm " +
                       shellWord(t.pak.string()) + " Media/Font --key " + std::string(kTestKeyHex) +
                       ", or pass --force to replace it)\n");
    CHECK(r.out.empty());
    // A folder over a file, and a file under a path whose parent is a file of the pak.
    r = run(pakCommand("add " + pak + " " + quoted(in / "folder/a.txt")));
    CHECK(r.code == 1);
    CHECK(r.err ==
          "pak: " + (in / "folder/a.txt").string() + ": a folder, but " + t.pak.string() +
              ":a.txt is a file: pak add replaces no file by a folder (first run: pak rm " +
              shellWord(t.pak.string()) + " a.txt --key " + std::string(kTestKeyHex) +
              ", or pass --force to replace it)\n");
    r = run(pakCommand("add " + pak + " " + quoted(in / "notice.txt") + " --as A.txt/notice.txt"));
    CHECK(r.code == 1);
    CHECK(r.err ==
          "pak: " + (in / "notice.txt").string() + ": goes in under a.txt/, as in a folder, but " +
              t.pak.string() +
              ":a.txt is a file: pak add replaces no file by a folder (first run: pak rm " +
              shellWord(t.pak.string()) + " a.txt --key " + std::string(kTestKeyHex) +
              ", or pass --force to replace it)\n");
    // A folder with a file of the pak's path deep in it.
    writeFile(in / "Tree/Media/Font/Arial.txt/deep.txt", bytesOf("d\n"));
    r = run(pakCommand("add " + pak + " " + quoted(in / "Tree/Media") + " " + quoted(in / "Tree")));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (in / "Tree/Media/Font/Arial.txt").string() + ": a folder, but " +
                       t.pak.string() +
                       ":Media/Font/Arial.txt is a file: pak add replaces no file by a folder "
                       "(first run: pak rm " +
                       shellWord(t.pak.string()) + " Media/Font/Arial.txt --key " +
                       std::string(kTestKeyHex) + ", or pass --force to replace it)\n");
    CHECK(readFile(t.pak) == original);

    // --force replaces them.
    r = run(pakCommand("add -q --force " + pak + " " + quoted(in / "Media")));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(t.pak) ==
          std::map<std::string, Bytes>{{"a.txt", bytesOf("a\n")}, {"Media", bytesOf("notes\n")}});
    r = run(pakCommand("add -q --force " + pak + " " + quoted(in / "folder/a.txt")));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(t.pak) == std::map<std::string, Bytes>{{"a.txt/x.txt", bytesOf("x\n")},
                                                            {"Media", bytesOf("notes\n")}});
}

TEST_CASE("pak rm and mv: files and folders, slots kept, to OUT, errors named", "[edit][cli]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")},
                               {"Media/b.txt", bytesOf("b\n")},
                               {"Media/Sub/c.txt", bytesOf("c\n")},
                               {"Tracks/d.txt", bytesOf("d\n")}});
    const stdfs::path before = t.dir->path() / "before.pak";
    stdfs::copy_file(t.pak, before);

    auto r = run(pakCommand("rm -n " + quoted(t.pak) + " media/sub a.txt"));
    REQUIRE(r.code == 0);
    CHECK(r.out == "D Media/Sub/\nD Media/Sub/c.txt\nD a.txt\n");
    CHECK(readFile(t.pak) == readFile(before));

    // To OUT: PAK is left as it was.
    const stdfs::path out = t.dir->path() / "Out.pak";
    r = run(pakCommand("rm -q " + quoted(t.pak) + " media/sub a.txt -o " + quoted(out)));
    REQUIRE(r.code == 0);
    CHECK(readFile(t.pak) == readFile(before));
    CHECK(contentsOf(out) == std::map<std::string, Bytes>{{"Media/b.txt", bytesOf("b\n")},
                                                          {"Tracks/d.txt", bytesOf("d\n")}});
    checkSlotsKept(before, out, {"Media/b.txt", "Tracks/d.txt"});

    // mv of a folder: every file under it keeps its slot at the new path.
    r = run(pakCommand("mv -q " + quoted(t.pak) + " Media Assets"));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(t.pak) == std::map<std::string, Bytes>{{"a.txt", bytesOf("a\n")},
                                                            {"Assets/b.txt", bytesOf("b\n")},
                                                            {"Assets/Sub/c.txt", bytesOf("c\n")},
                                                            {"Tracks/d.txt", bytesOf("d\n")}});
    checkSlotsKept(before, t.pak, {"Media/b.txt", "Media/Sub/c.txt"},
                   [](const std::string& p) { return "Assets" + p.substr(5); });
    checkSlotsKept(before, t.pak, {"a.txt", "Tracks/d.txt"});
    // mv of a file into a new folder.
    r = run(pakCommand("mv -q " + quoted(t.pak) + " a.txt New/Place/a2.txt"));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(t.pak).at("New/Place/a2.txt") == bytesOf("a\n"));

    // A new spelling of the same name is a rename (the game tells no case apart), a file's
    // and a folder's.
    r = run(pakCommand("mv -q " + quoted(t.pak) + " tracks/d.txt Tracks/D.TXT"));
    REQUIRE(r.code == 0);
    r = run(pakCommand("mv -q " + quoted(t.pak) + " assets/sub ASSETS/SUB"));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(t.pak) == std::map<std::string, Bytes>{{"Assets/b.txt", bytesOf("b\n")},
                                                            {"Assets/SUB/c.txt", bytesOf("c\n")},
                                                            {"New/Place/a2.txt", bytesOf("a\n")},
                                                            {"Tracks/D.TXT", bytesOf("d\n")}});
    r = run(pakCommand("mv " + quoted(t.pak) + " Tracks/D.TXT tracks/D.TXT"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + t.pak.string() +
                       ":tracks/D.TXT: that is Tracks/D.TXT as the pak spells it already (its "
                       "folders keep their spelling): nothing to move\n");
    r = run(pakCommand("mv -q " + quoted(t.pak) + " tracks/D.txt Tracks/d.txt"));
    REQUIRE(r.code == 0);
    r = run(pakCommand("mv -q " + quoted(t.pak) + " assets/sub Assets/Sub"));
    REQUIRE(r.code == 0);
    // Errors name the path in the pak; nothing is written.
    const Bytes now = readFile(t.pak);
    r = run(pakCommand("rm " + quoted(t.pak) + " nothere.txt"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + t.pak.string() + ":nothere.txt: no such file or folder in the pak\n");
    r = run(pakCommand("mv " + quoted(t.pak) + " Tracks/d.txt Assets/b.txt"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + t.pak.string() + ":Assets/b.txt is there already: first run: pak rm " +
                       shellWord(t.pak.string()) + " Assets/b.txt --key " +
                       std::string(kTestKeyHex) + ", or move Tracks/d.txt elsewhere\n");
    r = run(pakCommand("mv " + quoted(t.pak) + " Assets Assets/Sub/In"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + t.pak.string() +
                       ":Assets/Sub/In: inside Assets, which cannot move into itself\n");
    r = run(pakCommand("rm " + quoted(t.pak) + " ../x"));
    CHECK(r.code == 2);
    CHECK(r.err == "pak: \"../x\": a path in a pak has no . or .. in it (pak rm --help)\n");
    CHECK(readFile(t.pak) == now);

    // The lock: another writer holds the pak.
    {
        const WriterLock held = WriterLock::acquire(t.pak, false);
        r = run(pakCommand("rm " + quoted(t.pak) + " Tracks"));
        CHECK(r.code == 1);
        CHECK(r.err.starts_with("pak: " + t.pak.string() +
                                ": another pak command is writing it now"));
    }
    CHECK(readFile(t.pak) == now);
}

TEST_CASE("pak mv in the game's pack keeps class ID, flags and metadata record",
          "[edit][cli][real-pack]") {
    const stdfs::path real = sharedDir("fixtures/real") / "Resource.pak";
    TempDir dir;
    stdfs::copy_file(real, dir / "Resource.pak");
    stdfs::copy_file(real.parent_path() / "packlist.dat", dir / "packlist.dat");
    auto r = run(kPakBinary + " mv -q " + quoted(dir / "Resource.pak") +
                 " Media/Font/Arial.Font.Gbx Media/Font/Renamed.Font.Gbx");
    REQUIRE(r.code == 0);
    auto a = archive::PakIndex::open(real, archive::resolveKey(real, {}));
    auto b = archive::PakIndex::open(dir / "Resource.pak", a->key());
    const archive::PakEntry* ea = findEntry(*a, "Media/Font/Arial.Font.Gbx");
    const archive::PakEntry* eb = findEntry(*b, "Media/Font/Renamed.Font.Gbx");
    REQUIRE(ea);
    REQUIRE(eb);
    CHECK(archive::sameSlot(*a, *ea, *b, *eb));
    CHECK(eb->classId == ea->classId);
    CHECK(eb->flags == ea->flags);
    CHECK(archive::readEntry(b, *eb) == archive::readEntry(a, *ea));
    CHECK(b->entries().size() == a->entries().size());
}

TEST_CASE("pak add killed with SIGKILL leaves the pak as it was", "[edit][cli][kill]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    const Bytes original = readFile(t.pak);
    Bytes big = randomBytes(24 << 20, 7);
    writeFile(t.dir->path() / "big.bin", big);
    for (int delayMs : {5, 30, 80, 150}) {
        INFO("killed after " << delayMs << " ms");
        const pid_t pid = ::fork();
        if (pid == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::execl(kPakBinary.c_str(), kPakBinary.c_str(), "add", "-q", "--level", "9",
                    t.pak.c_str(), (t.dir->path() / "big.bin").c_str(), "--key", kTestKeyHex,
                    nullptr);
            ::_exit(127);
        }
        REQUIRE(pid > 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        ::kill(pid, SIGKILL);
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        const Bytes now = readFile(t.pak);
        if (WIFEXITED(status)) {
            // Done before the kill: whole, with the file.
            CHECK(WEXITSTATUS(status) == 0);
            CHECK(contentsOf(t.pak).at("big.bin") == big);
            break;
        }
        CHECK(now == original);
        // Nothing holds the lock now: the next edit goes through.
        CHECK(run(pakCommand("rm -q " + quoted(t.pak) + " a.txt -n")).code == 0);
    }
}

TEST_CASE(
    "pak edits and commit: counts in the singular, -o OUT for commit, JSON without an "
    "overlay, cat of a folder, a missing overlay folder",
    "[edit][cli]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}, {"Media/b.txt", bytesOf("b\n")}});
    writeFile(t.dir->path() / "in/new.txt", bytesOf("new\n"));
    const std::string pak = quoted(t.pak);
    // One change, one file, one folder: no "1 changes".
    auto r = run(pakCommand("rm -q " + pak + " a.txt -o " + quoted(t.dir->path() / "One.pak")));
    REQUIRE(r.code == 0);
    CHECK(
        r.err.starts_with((t.dir->path() / "One.pak").string() +
                          ": 1 file in 2 folders (1 copied as they were, 0 encoded), 1 change\n"));
    r = run(pakCommand("add -n " + pak + " " + quoted(t.dir->path() / "in/new.txt")));
    CHECK(r.err == t.pak.string() + ": 1 change by pak add\n");
    // An edit's JSON names no overlay.
    r = run(pakCommand("add -n --json " + pak + " " + quoted(t.dir->path() / "in/new.txt")));
    REQUIRE(r.code == 0);
    CHECK(r.out ==
          "{\n  \"changes\": [\n    {\n      \"change\": \"A\",\n      \"path\": "
          "\"new.txt\"\n    }\n  ],\n  \"pak\": \"" +
              t.pak.string() + "\"\n}\n");

    // pak commit takes OUT as -o OUT too, not both.
    writeFile(t.dir->path() / "ov/Test/c.txt", bytesOf("c\n"));
    const stdfs::path out = t.dir->path() / "Out.pak";
    r = run(
        pakCommand("commit -q " + pak + " " + quoted(t.dir->path() / "ov") + " -o " + quoted(out)));
    REQUIRE(r.code == 0);
    CHECK(contentsOf(out).at("c.txt") == bytesOf("c\n"));
    r = run(pakCommand("commit -q " + pak + " " + quoted(t.dir->path() / "ov") + " " + quoted(out) +
                       " -o " + quoted(out)));
    CHECK(r.code == 2);
    CHECK(r.err.starts_with("pak: give OUT once: as an argument or as -o OUT, not both"));

    // pak cat of a folder says it is one.
    r = run(pakCommand("cat " + pak + " media"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + t.pak.string() +
                       ": \"media\" is a folder, not a file (pak cat writes one file; pak extract "
                       "writes a folder's)\n");

    // pak rm of a folder's last file removes the folders it leaves empty; a folder that was
    // empty before (EmptyFolder) stays.
    TestPack deep = makeTestPack({{"Deep/Er/x.txt", bytesOf("x\n")},
                                  {"Deep/Er/y.txt", bytesOf("y\n")},
                                  {"Side/z.txt", bytesOf("z\n")}});
    r = run(pakCommand("rm -n " + quoted(deep.pak) + " deep/er/x.txt Deep/Er/y.txt"));
    REQUIRE(r.code == 0);
    CHECK(r.out == "D Deep/\nD Deep/Er/\nD Deep/Er/x.txt\nD Deep/Er/y.txt\n");
    r = run(pakCommand("rm -q " + quoted(deep.pak) + " Deep/Er/x.txt"));
    REQUIRE(r.code == 0);
    r = run(pakCommand("rm -n " + quoted(deep.pak) + " Side/z.txt Deep/Er/y.txt"));
    CHECK(r.out == "D Deep/\nD Deep/Er/\nD Deep/Er/y.txt\nD Side/\nD Side/z.txt\n");
    {
        const auto index = archive::PakIndex::open(deep.pak, testKey());
        std::set<std::string> folders;
        for (const auto& f : index->folders()) folders.insert(f.path);
        CHECK(folders == std::set<std::string>{"Deep", "Deep/Er", "EmptyFolder", "Side"});
    }

    // pakfs with an overlay folder that does not exist says so (before any mount).
    const std::string pakfs = (stdfs::path(PAKFS_PAK_BINARY).parent_path() / "pakfs").string();
    stdfs::create_directories(t.dir->path() / "mnt");
    const stdfs::path missing = t.dir->path() / "nothere";
    r = run(pakfs + " --key " + kTestKeyHex + " " + pak + " " + quoted(t.dir->path() / "mnt") +
            " -o overlay=" + quoted(missing));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + missing.string() +
                       ": no such folder (the overlay folder must exist: mkdir " +
                       missing.string() + " first)\n");
}

TEST_CASE("pak add stopped by SIGINT leaves the pak as it was and no lock file",
          "[edit][cli][kill]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    const Bytes original = readFile(t.pak);
    writeFile(t.dir->path() / "big.bin", randomBytes(24 << 20, 9));
    for (int delayMs : {30, 150}) {
        INFO("interrupted after " << delayMs << " ms");
        const pid_t pid = ::fork();
        if (pid == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::execl(kPakBinary.c_str(), kPakBinary.c_str(), "add", "-q", "--level", "9",
                    t.pak.c_str(), (t.dir->path() / "big.bin").c_str(), "--key", kTestKeyHex,
                    nullptr);
            ::_exit(127);
        }
        REQUIRE(pid > 0);
        // Until the lock file is there: the command holds the lock.
        for (int i = 0; i < 2000 && !stdfs::exists(lockFileOf(t.pak)); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        ::kill(pid, SIGINT);
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        if (WIFEXITED(status)) break;  // done before the signal
        CHECK(WTERMSIG(status) == SIGINT);
        CHECK(readFile(t.pak) == original);
        CHECK_FALSE(stdfs::exists(lockFileOf(t.pak)));
    }
}

TEST_CASE("a path holding a newline or a tab shows in the shell's $'...' form, one line each",
          "[edit][cli]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    const std::string key = " --key " + std::string(kTestKeyHex);
    writeFile(t.dir->path() / "in/line\nbreak.txt", bytesOf("n\n"));
    writeFile(t.dir->path() / "in/tab\there's.txt", bytesOf("t\n"));
    // pak add -n: a line per change.
    auto r = run(kPakBinary + " add -n " + quoted(t.pak) + " " + quoted(t.dir->path() / "in") +
                 " --as In" + key);
    CHECK(r.code == 0);
    CHECK(r.out == "A In/\nA $'In/line\\nbreak.txt'\nA $'In/tab\\there\\'s.txt'\n");
    // pak commit -n of an overlay holding such a name.
    writeFile(t.dir->path() / "ov/Test/new\nline.txt", bytesOf("x\n"));
    r = run(kPakBinary + " commit -n " + quoted(t.pak) + " " + quoted(t.dir->path() / "ov") + key);
    CHECK(r.code == 0);
    CHECK(r.out == "A $'new\\nline.txt'\n");
    // pak ls, short and long: the same form; other paths as they are.
    REQUIRE(run(kPakBinary + " add -q " + quoted(t.pak) + " " + quoted(t.dir->path() / "in") +
                " --as In" + key)
                .code == 0);
    r = run(kPakBinary + " ls " + quoted(t.pak) + key);
    CHECK(r.code == 0);
    CHECK(r.out == "a.txt\n$'In/line\\nbreak.txt'\n$'In/tab\\there\\'s.txt'\n");
    r = run(kPakBinary + " ls -l " + quoted(t.pak) + " 'In/line*'" + key);
    CHECK(r.code == 0);
    CHECK(r.out.ends_with(" $'In/line\\nbreak.txt'\n"));
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
}
