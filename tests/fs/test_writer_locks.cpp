// SPDX-License-Identifier: GPL-2.0-or-later
// Many hands at once: two commits of one pak, a commit while the mount is up, two mounts of one
// overlay, packs of one name, paks and packlists behind symbolic links, and -o commit.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <set>

#include "archive/entry/EntryReader.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "commit/OverlayRecord.hpp"
#include "common/FileLock.hpp"
#include "common/ShellWord.hpp"
#include "packs/Sources.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/Cli.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

const std::string kKeyString = "00112233445566778899AABBCCDDEEFF";

// DIR/NAME.pak holding `files`, its key in DIR/packlist.dat.
stdfs::path packWithListEntry(const stdfs::path& dir, const std::string& name,
                              const std::map<std::string, std::string>& files) {
    const stdfs::path src = dir / ("src-" + name);
    for (const auto& [path, data] : files) writeFile(src / path, bytesOf(data));
    REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " " + name + " --key-string " +
                kKeyString)
                .code == 0);
    const stdfs::path pak = dir / (name + ".pak");
    REQUIRE(run(kPak + " pack -q " + q(src) + " " + q(pak)).code == 0);
    stdfs::remove_all(src);
    return pak;
}

std::set<std::string> pathsIn(const stdfs::path& pak) {
    std::set<std::string> paths;
    const auto index = archive::PakIndex::open(pak, archive::resolveKey(pak, {}));
    for (const auto& e : index->entries()) paths.insert(e.path);
    return paths;
}

// What the writable mount records for `pak` in `overlayRoot`.
void recordMount(const stdfs::path& overlayRoot, const stdfs::path& pak) {
    auto loaded = packs::loadSources({pak}, {});
    for (const auto& w : commit::recordMountedPacks(overlayRoot, loaded.packs)) FAIL(w);
}

// The first line of a file (an exit code a shell wrote).
std::string firstLine(const stdfs::path& p) {
    const Bytes b = readFile(p);
    const std::string s(b.begin(), b.end());
    return s.substr(0, s.find('\n'));
}

std::string fileText(const stdfs::path& p) {
    const Bytes b = readFile(p);
    return std::string(b.begin(), b.end());
}

std::set<std::string> namesOf(const stdfs::path& dir) {
    std::set<std::string> out;
    for (const auto& item : stdfs::directory_iterator(dir)) out.insert(item.path().filename());
    return out;
}

}  // namespace

TEST_CASE("locks: two pak commit --in-place at once never both exit 0 with one change lost",
          "[commit][locks]") {
    // Repeated: without a lock, both commits read the old pak and the later rename wins.
    for (int round = 0; round < 6; ++round) {
        INFO("round " << round);
        TempDir dir;
        const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
        for (const char* ov : {"ovA", "ovB"}) {
            stdfs::create_directories(dir / ov);
            recordMount(dir / ov, pak);
            writeFile(dir / ov / "P" / (std::string(ov) + ".bin"),
                      bytesOf(std::string(20000, 'x')));
        }
        const std::string cmd = kPak + " commit -q " + q(pak) + " ";
        auto r = run("cd " + q(dir.path()) + " && { (" + cmd +
                     "ovA --in-place 2>errA; echo $? > rcA) & (" + cmd +
                     "ovB --in-place 2>errB; echo $? > rcB) & wait; }");
        REQUIRE(r.code == 0);
        const std::set<std::string> paths = pathsIn(pak);
        int succeeded = 0;
        for (const std::string ov : {"ovA", "ovB"}) {
            const std::string rc = firstLine(dir / ("rc" + ov.substr(2)));
            const std::string err = fileText(dir / ("err" + ov.substr(2)));
            INFO(ov << " exit " << rc << ": " << err);
            if (rc == "0") {
                ++succeeded;
                CHECK(paths.count(ov + ".bin") == 1);  // what exits 0 is in the pak
            } else {
                CHECK(rc == "1");
                CHECK(paths.count(ov + ".bin") == 0);
                // Refused at once by the lock, or, after the first was done, by the record.
                const bool locked =
                    err.find("another pak command is writing it now") != std::string::npos;
                const bool stale = err.find("these changes were made over") != std::string::npos;
                CHECK((locked || stale));
            }
        }
        CHECK(succeeded >= 1);
    }
}

TEST_CASE("locks: with --wait, two commits of overlays without a record both land",
          "[commit][locks]") {
    for (int round = 0; round < 4; ++round) {
        INFO("round " << round);
        TempDir dir;
        const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
        for (const char* ov : {"ovA", "ovB"})
            writeFile(dir / ov / "P" / (std::string(ov) + ".bin"),
                      bytesOf(std::string(20000, 'y')));
        const std::string cmd = kPak + " commit -q --wait " + q(pak) + " ";
        auto r =
            run("cd " + q(dir.path()) + " && { (" + cmd + "ovA --in-place; echo $? > rcA) & (" +
                cmd + "ovB --in-place; echo $? > rcB) & wait; }");
        REQUIRE(r.code == 0);
        CHECK(firstLine(dir / "rcA") == "0");
        CHECK(firstLine(dir / "rcB") == "0");
        CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "ovA.bin", "ovB.bin"});
        // The last one out removed the lock file.
        CHECK_FALSE(stdfs::exists(dir / ".P.pak.pakfs-lock"));
    }
}

TEST_CASE("locks: a pak, packlist or OUT another command holds is refused at once, naming it",
          "[commit][locks]") {
    TempDir dir;
    const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
    writeFile(dir / "ov/P/new.txt", bytesOf("new\n"));
    writeFile(dir / "src/a.txt", bytesOf("a\n"));
    {
        const WriterLock held = WriterLock::acquire(pak, false);
        auto r = run(kPak + " commit -q " + q(pak) + " " + q(dir / "ov") + " --in-place");
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + pak.string() +
                           ": another pak command is writing it now (it holds the lock file " +
                           (dir / ".P.pak.pakfs-lock").string() +
                           "); try again when it is done, or pass --wait\n");
        r = run(kPak + " pack -q --key-string " + kKeyString + " " + q(dir / "src") + " " + q(pak));
        if (r.code == 2) r = run(kPak + " pack -q " + q(dir / "src") + " " + q(pak));
        CHECK(r.code == 1);
        CHECK(r.err.find(pak.string() + ": another pak command is writing it now") !=
              std::string::npos);
        CHECK(pathsIn(pak) == std::set<std::string>{"base.txt"});
    }
    {
        const WriterLock held = WriterLock::acquire(dir / "packlist.dat", false);
        auto r = run(kPak + " packlist add " + q(dir / "packlist.dat") + " Q");
        CHECK(r.code == 1);
        CHECK(r.err.find((dir / "packlist.dat").string() +
                         ": another pak command is writing it now") != std::string::npos);
    }
    // Released: the same commands go through.
    CHECK(run(kPak + " commit -q " + q(pak) + " " + q(dir / "ov") + " --in-place").code == 0);
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "new.txt"});
    CHECK(run(kPak + " packlist add " + q(dir / "packlist.dat") + " Q").code == 0);
}

TEST_CASE("locks: a pak or packlist behind a symbolic link is written through, the link stays",
          "[commit][locks][links]") {
    TempDir dir;
    stdfs::create_directories(dir / "game");
    const stdfs::path pak = packWithListEntry(dir / "game", "Resource", {{"base.txt", "base\n"}});
    stdfs::create_directories(dir / "work");
    stdfs::create_symlink("../game/Resource.pak", dir / "work/Resource.pak");
    stdfs::create_symlink("../game/packlist.dat", dir / "work/packlist.dat");
    writeFile(dir / "ov/Resource/added.txt", bytesOf("added\n"));
    auto r = run(kPak + " commit -q " + q(dir / "work/Resource.pak") + " " + q(dir / "ov") +
                 " --in-place");
    REQUIRE(r.code == 0);
    CHECK(r.err == (dir / "work/Resource.pak").string() + " -> " + pak.string() +
                       ": 2 files in 0 folders (1 copied as they were, 1 encoded), 1 change\n");
    CHECK(stdfs::is_symlink(dir / "work/Resource.pak"));
    CHECK(stdfs::read_symlink(dir / "work/Resource.pak") == "../game/Resource.pak");
    CHECK(pathsIn(pak) == std::set<std::string>{"added.txt", "base.txt"});
    // No temporary or lock file is left in either folder.
    CHECK(namesOf(dir / "work") == std::set<std::string>{"Resource.pak", "packlist.dat"});
    CHECK(namesOf(dir / "game") == std::set<std::string>{"Resource.pak", "packlist.dat"});

    // The packlist through its link: the game's file gets the new pack.
    r = run(kPak + " packlist add " + q(dir / "work/packlist.dat") + " Extra");
    REQUIRE(r.code == 0);
    CHECK(stdfs::is_symlink(dir / "work/packlist.dat"));
    CHECK(archive::readPackList(dir / "game/packlist.dat").find("Extra") != nullptr);

    // A link that loops is an error naming it, not a hang.
    stdfs::create_symlink("loop2.pak", dir / "work/loop1.pak");
    stdfs::create_symlink("loop1.pak", dir / "work/loop2.pak");
    r = run("timeout 20 " + kPak + " pack -q --key 00112233445566778899aabbccddeeff " +
            q(dir / "ov/Resource") + " " + q(dir / "work/loop1.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "work/loop1.pak").string() +
                       ": its symbolic links loop or run over 40 levels\n");
}

TEST_CASE("locks: an extracted tree given as the overlay folder is refused, naming what it holds",
          "[commit][locks]") {
    TempDir dir;
    const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"Media/base.txt", "base\n"}});
    writeFile(dir / "ov/Media/base.txt", bytesOf("edited\n"));
    auto r = run(kPak + " commit -q " + q(pak) + " " + q(dir / "ov") + " --in-place");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "ov").string() + ": holds no folder P for " + pak.string() +
                       ", but Media, which no pack's folder is: an overlay folder keeps each "
                       "pack's changes in a folder named like the pack (" +
                       (dir / "ov/P").string() + "/...); move them there\n");
}

TEST_CASE("locks: a live writable mount owns its overlay folder", "[commit][locks][mount]") {
    skipUnlessFuse();
    TempDir dir;
    const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
    stdfs::create_directories(dir / "ov");
    Mount first({pak.string(), "-o", "overlay=" + (dir / "ov").string()}, dir / "mnt", dir);
    REQUIRE(first.waitMounted());
    writeFile(first.path() / "P/kept.txt", bytesOf("kept while open\n"));
    // A file deleted while open is kept in the overlay's work folder for its reader.
    const int fd = ::open((first.path() / "P/kept.txt").c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    REQUIRE(::unlink((first.path() / "P/kept.txt").c_str()) == 0);

    // A second writable mount of the overlay is refused naming the first mount point, and the
    // first one's work folder is left alone.
    stdfs::create_directories(dir / "mnt2");
    auto r = run("timeout 20 " + kPakfs + " " + q(pak) + " " + q(dir / "mnt2") +
                 " -o overlay=" + q(dir / "ov"));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + (dir / "ov").string() + ": the writable mount at " +
                       first.path().string() + " is using this overlay folder: unmount " +
                       first.path().string() + " first (fusermount3 -u " +
                       shellWord(first.path().string()) + ")\n");
    CHECK_FALSE(isMounted(dir / "mnt2"));
    char buf[64] = {};
    CHECK(::pread(fd, buf, sizeof buf, 0) == 16);
    CHECK(std::string(buf) == "kept while open\n");
    ::close(fd);

    // A commit of it is refused the same way, and so is one with --force.
    for (const std::string extra : {"", " --force"}) {
        r = run("timeout 20 " + kPak + " commit -q " + q(pak) + " " + q(dir / "ov") +
                " --in-place" + extra);
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + (dir / "ov").string() + ": the writable mount at " +
                           first.path().string() + " is using this overlay folder: unmount " +
                           first.path().string() + " first (fusermount3 -u " +
                           shellWord(first.path().string()) + ")\n");
    }
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt"});
    // A dry run only reads: allowed.
    r = run(kPak + " commit -n " + q(pak) + " " + q(dir / "ov"));
    CHECK(r.code == 0);

    // Replacing the pak it serves is refused, naming the mount: a commit from another overlay,
    // pak add, rm, mv and pack (the mount's changes are made over the pak).
    const std::string mnt = first.path().string();
    const std::string served = "pak: " + pak.string() + " is served by the writable mount at " +
                               mnt + ", whose changes are made over it: unmount " + mnt +
                               " first (fusermount3 -u " + shellWord(mnt) + ")\n";
    writeFile(dir / "ov2/P/other.txt", bytesOf("other\n"));
    writeFile(dir / "src/other.txt", bytesOf("other\n"));
    for (const std::string& args :
         {"commit -q " + q(pak) + " " + q(dir / "ov2") + " --in-place",
          "add -q " + q(pak) + " " + q(dir / "src/other.txt"), "rm -q " + q(pak) + " base.txt",
          "mv -q " + q(pak) + " base.txt moved.txt", "pack -q " + q(dir / "src") + " " + q(pak)}) {
        INFO(args);
        r = run(kPak + " " + args);
        CHECK(r.code == 1);
        CHECK(r.err == served);
    }
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt"});
    // To OUT, or a dry run: allowed.
    CHECK(run(kPak + " add -q " + q(pak) + " " + q(dir / "src/other.txt") + " -o " +
              q(dir / "Out.pak"))
              .code == 0);
    CHECK(run(kPak + " add -n " + q(pak) + " " + q(dir / "src/other.txt")).code == 0);

    // A second writable mount of the pak, with an overlay folder of its own: refused at once,
    // naming the first; a read-only mount beside it is allowed.
    stdfs::create_directories(dir / "ov3");
    r = run("timeout 20 " + kPakfs + " " + q(pak) + " " + q(dir / "mnt2") +
            " -o overlay=" + q(dir / "ov3"));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + pak.string() + ": the writable mount at " + mnt +
                       " serves it already (one writable mount per pak): unmount " + mnt +
                       " first (fusermount3 -u " + shellWord(mnt) +
                       "), or mount it read-only (without -o overlay)\n");
    CHECK_FALSE(isMounted(dir / "mnt2"));
    {
        TempDir other;
        Mount ro({pak.string()}, dir / "mnt2", other);
        CHECK(ro.waitMounted());
    }

    // Unmounted as the refusal says, run as printed: the commit from the other overlay goes
    // through.
    const std::string advice = suggestedCommand(r.err, "first (", ")");
    CHECK(advice == "fusermount3 -u " + shellWord(mnt));
    REQUIRE(runAsPrinted(advice, dir.path()).code == 0);
    REQUIRE(first.waitExit(std::chrono::seconds(10)) == 0);
    r = run(kPak + " commit -q " + q(pak) + " " + q(dir / "ov2") + " --in-place");
    CHECK(r.code == 0);
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "other.txt"});
    CHECK_FALSE(stdfs::exists(dir / "ov/.pakfs-lock"));
    CHECK_FALSE(stdfs::exists(dir / ".P.pak.pakfs-lock"));
}

TEST_CASE("locks: a pak is replaced right after its writable mount was unmounted",
          "[commit][locks][mount]") {
    skipUnlessFuse();
    TempDir dir;
    const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
    writeFile(dir / "in/new.txt", bytesOf("new\n"));
    stdfs::create_directories(dir / "ov");
    for (int i = 0; i < 3; ++i) {
        INFO("round " << i);
        Mount m({pak.string(), "-o", "overlay=" + (dir / "ov").string()}, dir / "mnt", dir);
        REQUIRE(m.waitMounted());
        REQUIRE(run("fusermount3 -u " + q(m.path())).code == 0);
        // The mount's process may still be ending: waited for, not refused.
        auto r = run(kPak + " add -q " + q(pak) + " " + q(dir / "in/new.txt") + " --as n" +
                     std::to_string(i) + ".txt");
        CHECK(r.code == 0);
        INFO(r.err);
        CHECK(r.err.find("served") == std::string::npos);
    }
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "n0.txt", "n1.txt", "n2.txt"});
}

TEST_CASE("locks: two packs of one name cannot share a writable mount", "[locks][mount]") {
    skipUnlessFuse();
    TempDir dir;
    stdfs::create_directories(dir / "a");
    stdfs::create_directories(dir / "b");
    const stdfs::path a = packWithListEntry(dir / "a", "Resource", {{"a.txt", "a\n"}});
    const stdfs::path b = packWithListEntry(dir / "b", "resource", {{"b.txt", "b\n"}});
    stdfs::create_directories(dir / "ov");
    stdfs::create_directories(dir / "mnt");
    auto r = run("timeout 20 " + kPakfs + " " + q(a) + " " + q(b) + " " + q(dir / "mnt") +
                 " -o overlay=" + q(dir / "ov"));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + a.string() + " and " + b.string() +
                       ": two packs named Resource cannot share a writable mount (their changes "
                       "would share the overlay folder Resource); mount them apart, each with "
                       "its own overlay folder\n");
    CHECK_FALSE(isMounted(dir / "mnt"));
    // Read-only, they still mount side by side.
    Mount ro({a.string(), b.string()}, dir / "mnt", dir);
    CHECK(ro.waitMounted());
}

TEST_CASE("locks: -o commit commits at unmount and empties the overlay, or keeps it and says so",
          "[commit][locks][mount]") {
    skipUnlessFuse();
    TempDir dir;
    const stdfs::path pak =
        packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}, {"gone.txt", "x\n"}});
    stdfs::create_directories(dir / "ov");
    {
        Mount m({pak.string(), "-o", "overlay=" + (dir / "ov").string() + ",commit"}, dir / "mnt",
                dir);
        REQUIRE(m.waitMounted());
        writeFile(m.path() / "P/new.txt", bytesOf("new\n"));
        REQUIRE(::unlink((m.path() / "P/gone.txt").c_str()) == 0);
        REQUIRE(run("fusermount3 -u " + q(m.path())).code == 0);
        CHECK(m.waitExit(std::chrono::seconds(30)) == 0);
        CHECK(m.errors().find("pakfs: -o commit: " + pak.string() + ": 2 changes committed from " +
                              (dir / "ov/P").string() + " (emptied)") != std::string::npos);
    }
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "new.txt"});
    CHECK(namesOf(dir / "ov/P").empty());

    // Changes over another pak: not committed, the folder kept, exit status 3.
    writeFile(dir / "ov/P/late.txt", bytesOf("late\n"));
    auto records = commit::readOverlayRecords(dir / "ov");
    REQUIRE(records.size() == 1);
    records[0].state = "mounted";
    records[0].stamp = "v3:md5:00000000000000000000000000000000";
    commit::writeOverlayRecords(dir / "ov", records);
    {
        Mount m({pak.string(), "-o", "overlay=" + (dir / "ov").string() + ",commit"}, dir / "mnt",
                dir);
        REQUIRE(m.waitMounted());
        REQUIRE(run("fusermount3 -u " + q(m.path())).code == 0);
        CHECK(m.waitExit(std::chrono::seconds(30)) == 3);
        CHECK(m.errors().find("pakfs: -o commit: not committed, " + (dir / "ov/P").string() +
                              " left as it was: ") != std::string::npos);
    }
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "new.txt"});
    CHECK(namesOf(dir / "ov/P") == std::set<std::string>{"late.txt"});
    // The reason is kept in the overlay folder, said by pak commit (a dry run too) and by the
    // next mount of the overlay, until a commit of the pack succeeds.
    const std::string failed = fileText(dir / "ov/.pakfs-commit-failed");
    const std::string reason =
        "the commit at the unmount of " + (dir / "mnt").string() + " (-o commit) on ";
    CHECK(failed.find("\nP\t" + reason) != std::string::npos);
    CHECK(failed.find(" failed: " + (dir / "ov/P").string() +
                      " left as it was: " + (dir / "ov/P").string() +
                      ": these changes were made over") != std::string::npos);
    const std::string said =
        "warning: " + (dir / "ov/.pakfs-commit-failed").string() + ": " + reason;
    auto r = run(kPak + " commit -n " + q(pak) + " " + q(dir / "ov"));
    CHECK(r.code == 1);  // the record refuses them, as it refused the commit at unmount
    CHECK(r.err.starts_with("pak: " + said));
    CHECK(r.err.find("these changes were made over") != std::string::npos);
    {
        Mount m({pak.string(), "-o", "overlay=" + (dir / "ov").string()}, dir / "mnt", dir);
        REQUIRE(m.waitMounted());
        CHECK(m.errors().starts_with("pakfs: " + said));
        // Ls of the mount's top shows no file of the overlay's own.
        CHECK(namesOf(m.path()) == std::set<std::string>{"P"});
    }
    r = run(kPak + " commit -q --force " + q(pak) + " " + q(dir / "ov") + " --in-place");
    CHECK(r.code == 0);
    CHECK(r.err.starts_with("pak: " + said));
    CHECK_FALSE(stdfs::exists(dir / "ov/.pakfs-commit-failed"));
    r = run(kPak + " commit -n " + q(pak) + " " + q(dir / "ov"));
    CHECK(r.err.find(".pakfs-commit-failed") == std::string::npos);
    CHECK(pathsIn(pak) == std::set<std::string>{"base.txt", "late.txt", "new.txt"});

    // Usage: -o commit needs an overlay.
    r = run(kPakfs + " " + q(pak) + " " + q(dir / "mnt") + " -o commit");
    CHECK(r.code == 2);
    CHECK(
        r.err ==
        "pakfs: -o commit commits an overlay's changes at unmount: give -o overlay=DIR with it\n");
}

TEST_CASE("locks: a named pipe as the overlay's record is refused at once, by commit and mount",
          "[commit][locks][mount]") {
    skipUnlessFuse();
    TempDir dir;
    const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
    writeFile(dir / "ov/P/new.txt", bytesOf("new\n"));
    REQUIRE(::mkfifo((dir / "ov/.pakfs-packs").c_str(), 0644) == 0);
    const std::string refusal = (dir / "ov/.pakfs-packs").string() + ": not a regular file\n";
    auto r =
        run("timeout 20 " + kPak + " commit -q " + q(pak) + " " + q(dir / "ov") + " --in-place");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + refusal);
    stdfs::create_directories(dir / "mnt");
    r = run("timeout 20 " + kPakfs + " " + q(pak) + " " + q(dir / "mnt") +
            " -o overlay=" + q(dir / "ov"));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + refusal);
    CHECK_FALSE(isMounted(dir / "mnt"));
    // A malformed key as a mount option is a usage error.
    r = run("timeout 20 " + kPakfs + " " + q(pak) + " " + q(dir / "mnt") + " -o key=0011");
    CHECK(r.code == 2);
    CHECK(r.err ==
          "pakfs: --key must be 32 hex digits (the 16 bytes of a key), got \"0011\" "
          "(pakfs --help lists the options)\n");
}

TEST_CASE("locks: without syslog, a background mount's -o commit failure is in the overlay folder",
          "[commit][locks][mount]") {
    skipUnlessFuse();
    if (stdfs::exists("/dev/log")) {
        std::printf("SKIPPED: /dev/log exists (syslog takes the log lines here)\n");
        return;
    }
    TempDir dir;
    const stdfs::path pak = packWithListEntry(dir.path(), "P", {{"base.txt", "base\n"}});
    const stdfs::path other = packWithListEntry(dir / "other", "P", {{"other.txt", "other\n"}});
    stdfs::copy_file(dir / "other/packlist.dat", dir / "packlist.dat",
                     stdfs::copy_options::overwrite_existing);
    stdfs::create_directories(dir / "ov");
    stdfs::create_directories(dir / "mnt");
    // In the background (no -f): pakfs exits 0 once the mount is up.
    auto r = run(kPakfs + " " + q(pak) + " " + q(dir / "mnt") + " -o overlay=" + q(dir / "ov") +
                 ",commit");
    REQUIRE(r.code == 0);
    writeFile(dir / "mnt/P/new.txt", bytesOf("new\n"));
    // Another pak put in its place by a writer that takes no lock (mv): the commit at
    // unmount refuses the changes made over the old one.
    REQUIRE(::rename(other.c_str(), pak.c_str()) == 0);
    REQUIRE(run("fusermount3 -u " + q(dir / "mnt")).code == 0);
    // The mount's process commits after the unmount returned: wait for it to let go.
    for (int i = 0; i < 600 && stdfs::exists(dir / "ov/.pakfs-lock"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE_FALSE(stdfs::exists(dir / "ov/.pakfs-lock"));
    const std::string log = fileText(dir / "ov/.pakfs-log");
    INFO(log);
    CHECK(log.find(" pakfs[") != std::string::npos);
    CHECK(log.find("]: -o commit: not committed, " + (dir / "ov/P").string() +
                   " left as it was: ") != std::string::npos);
    CHECK(fileText(dir / "ov/.pakfs-commit-failed").find("\nP\tthe commit at the unmount of ") !=
          std::string::npos);
    r = run(kPak + " commit -n " + q(pak) + " " + q(dir / "ov"));
    CHECK(r.err.starts_with("pak: warning: " + (dir / "ov/.pakfs-commit-failed").string() +
                            ": the commit at the unmount of "));
    CHECK(pathsIn(pak) == std::set<std::string>{"other.txt"});
}
