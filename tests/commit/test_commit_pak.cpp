// SPDX-License-Identifier: GPL-2.0-or-later
// The commit workflow as a library call (commit/CommitPak.hpp), without the CLI: what it
// plans and writes, the locks it takes, the record it keeps, and the commit at unmount.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include "archive/entry/EntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "commit/CommitPak.hpp"
#include "commit/OverlayRecord.hpp"
#include "common/FileLock.hpp"
#include "packs/Sources.hpp"
#include "tests/support/PakFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

commit::CommitRequest requestFor(const TestPack& t, const stdfs::path& overlay) {
    commit::CommitRequest r;
    r.pak = t.pak;
    r.overlay = overlay;
    r.keys.keyHex = kTestKeyHex;
    return r;
}

}  // namespace

TEST_CASE("commit workflow: plans, writes in place, marks the record, and refuses it again",
          "[commit][workflow]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}, {"b.txt", bytesOf("b\n")}});
    const stdfs::path overlay = t.dir->path() / "ov";
    writeFile(overlay / "Test/c.txt", bytesOf("c\n"));
    writeFile(overlay / "Test/.wh.a.txt", Bytes{});

    commit::CommitRequest request = requestFor(t, overlay);
    request.dryRun = true;
    commit::CommitResult dry = commit::commitOverlay(request);
    CHECK_FALSE(dry.written);
    REQUIRE(dry.plan.changes.size() == 2);
    CHECK(dry.plan.changes[0].kind == 'D');
    CHECK(dry.plan.changes[0].path == "a.txt");
    CHECK(dry.plan.changes[1].kind == 'A');
    CHECK(dry.plan.changes[1].path == "c.txt");
    CHECK(dry.packOverlay == overlay / "Test");

    std::vector<std::string> warnings;
    request.dryRun = false;
    request.warn = [&](const std::string& w) { warnings.push_back(w); };
    commit::CommitResult done = commit::commitOverlay(request);
    CHECK(done.written);
    CHECK(done.target == t.pak);
    CHECK(done.pack.files == 2);
    CHECK(done.pack.copiedFromBase == 1);
    CHECK(warnings.empty());
    CHECK(contentsOf(t.pak) ==
          std::map<std::string, Bytes>{{"b.txt", bytesOf("b\n")}, {"c.txt", bytesOf("c\n")}});
    auto records = commit::readOverlayRecords(overlay);
    REQUIRE(records.size() == 1);
    CHECK(records[0].state == "committed");
    // No lock file is left beside the pak or in the overlay.
    CHECK_FALSE(stdfs::exists(lockFileOf(t.pak)));
    CHECK_FALSE(stdfs::exists(overlay / ".pakfs-lock"));

    REQUIRE_THROWS_WITH(commit::commitOverlay(request),
                        Catch::Contains("these changes were committed into"));
}

TEST_CASE("commit workflow: an overlay a mount holds and a pak another writer holds are refused",
          "[commit][workflow][locks]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    const stdfs::path overlay = t.dir->path() / "ov";
    writeFile(overlay / "Test/new.txt", bytesOf("new\n"));
    const Bytes before = readFile(t.pak);
    {
        FolderLock mount = commit::lockOverlay(overlay, "mount /mnt/game");
        REQUIRE_THROWS_WITH(commit::commitOverlay(requestFor(t, overlay)),
                            overlay.string() +
                                ": the writable mount at /mnt/game is using this overlay folder: "
                                "unmount /mnt/game first (fusermount3 -u /mnt/game)");
        // The mount committing at unmount holds the lock itself.
        commit::CommitRequest own = requestFor(t, overlay);
        own.holdsOverlay = true;
        own.dryRun = true;
        CHECK(commit::commitOverlay(own).plan.changes.size() == 1);
    }
    {
        WriterLock other = WriterLock::acquire(t.pak, false);
        REQUIRE_THROWS_WITH(
            commit::commitOverlay(requestFor(t, overlay)),
            Catch::StartsWith(t.pak.string() + ": another pak command is writing it now"));
        // The overlay's lock was given back when the commit was refused.
        FolderLock again = commit::lockOverlay(overlay, "commit");
        CHECK(again.taken());
    }
    CHECK(readFile(t.pak) == before);
    CHECK(commit::commitOverlay(requestFor(t, overlay)).written);
}

TEST_CASE("commit workflow: a second writable mount of an overlay is refused naming the first",
          "[commit][workflow][locks]") {
    TempDir dir;
    FolderLock first = commit::lockOverlay(dir.path(), "mount /mnt/a");
    REQUIRE(first.taken());
    REQUIRE_THROWS_WITH(commit::lockOverlay(dir.path(), "mount /mnt/b"),
                        dir.path().string() +
                            ": the writable mount at /mnt/a is using this overlay folder: "
                            "unmount /mnt/a first (fusermount3 -u /mnt/a)");
    first = FolderLock();
    CHECK(commit::lockOverlay(dir.path(), "mount /mnt/b").taken());
}

TEST_CASE("commit workflow: the lock of a mount that was just unmounted is waited for",
          "[commit][workflow][locks]") {
    // "fusermount3 -u MOUNT; pak commit ..." as one line: the pakfs that served MOUNT still
    // holds the overlay's lock for a moment after the unmount returns. A holder in another
    // process whose mount point has nothing mounted is waited for; it lets go after 300 ms.
    TempDir dir;
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        FolderLock held = commit::lockOverlay(dir.path(), "mount /nonexistent/pakfs-ended-mount");
        char c = held.taken() ? 'y' : 'n';
        (void)!::write(ready[1], &c, 1);
        ::usleep(300 * 1000);
        ::_exit(0);
    }
    ::close(ready[1]);
    char c = 0;
    REQUIRE(::read(ready[0], &c, 1) == 1);
    ::close(ready[0]);
    REQUIRE(c == 'y');
    FolderLock mine;
    CHECK_NOTHROW(mine = commit::lockOverlay(dir.path(), "commit"));
    CHECK(mine.taken());
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("commit workflow: a served pak's writer names the mounts that serve it",
          "[commit][workflow][locks]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    {
        ServedMark one = ServedMark::mark(t.pak, "/mnt/one");
        ServedMark two = ServedMark::mark(t.pak, "/mnt/two");
        { ServedMark gone = ServedMark::mark(t.pak, "/mnt/gone"); }
        WriterLock lock = WriterLock::acquire(t.pak, false);
        CHECK(lock.servingMounts() == std::vector<std::string>{"/mnt/one", "/mnt/two"});
    }
    // The last one out removed the lock file.
    CHECK_FALSE(stdfs::exists(lockFileOf(t.pak)));
    WriterLock lock = WriterLock::acquire(t.pak, false);
    CHECK(lock.servingMounts().empty());
}

TEST_CASE("commit workflow: a pak a writable mount serves is marked by no second one",
          "[commit][workflow][locks]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    std::string servedBy;
    {
        ServedMark one = ServedMark::markAlone(t.pak, "/mnt/one", servedBy);
        CHECK(servedBy.empty());
        ServedMark two = ServedMark::markAlone(t.pak, "/mnt/two", servedBy);
        CHECK(servedBy == "/mnt/one");
        WriterLock lock = WriterLock::acquire(t.pak, false);
        CHECK(lock.servingMounts() == std::vector<std::string>{"/mnt/one"});
        CHECK_THROWS_WITH(commit::refuseServingMounts(lock, ""),
                          t.pak.string() +
                              " is served by the writable mount at /mnt/one, whose changes are "
                              "made over it: unmount /mnt/one first (fusermount3 -u /mnt/one)");
        CHECK_NOTHROW(commit::refuseServingMounts(lock, "/mnt/one"));
    }
    ServedMark again = ServedMark::markAlone(t.pak, "/mnt/two", servedBy);
    CHECK(servedBy.empty());
}

TEST_CASE("commit workflow: commit at unmount empties a committed pack's folder only",
          "[commit][workflow]") {
    TestPack t = makeTestPack({{"a.txt", bytesOf("a\n")}});
    const stdfs::path overlay = t.dir->path() / "ov";
    stdfs::create_directories(overlay);
    auto loaded = packs::loadSources({t.pak}, archive::KeyOptions{kTestKeyHex, {}, {}, {}, {}});
    for (const auto& w : commit::recordMountedPacks(overlay, loaded.packs)) FAIL(w);
    writeFile(overlay / "Test/new.txt", bytesOf("new\n"));
    std::vector<std::string> log;
    FolderLock held = commit::lockOverlay(overlay, "mount /mnt/t");
    CHECK(commit::commitAtUnmount(loaded.packs, overlay, {kTestKeyHex, {}, {}, {}, {}}, "/mnt/t",
                                  [&](const std::string& l) { log.push_back(l); }));
    REQUIRE(log.size() == 1);
    CHECK(log[0] == "-o commit: " + t.pak.string() + ": 1 change committed from " +
                        (overlay / "Test").string() + " (emptied)");
    CHECK(stdfs::is_empty(overlay / "Test"));
    CHECK(contentsOf(t.pak).count("new.txt") == 1);

    // The record now says committed: new changes made over an older stamp are kept, not lost.
    auto records = commit::readOverlayRecords(overlay);
    REQUIRE(records.size() == 1);
    records[0].state = "mounted";
    records[0].stamp = "v3:md5:00000000000000000000000000000000";
    commit::writeOverlayRecords(overlay, records);
    writeFile(overlay / "Test/late.txt", bytesOf("late\n"));
    log.clear();
    CHECK_FALSE(commit::commitAtUnmount(loaded.packs, overlay, {kTestKeyHex, {}, {}, {}, {}},
                                        "/mnt/t", [&](const std::string& l) { log.push_back(l); }));
    REQUIRE(log.size() == 1);
    CHECK(log[0].starts_with("-o commit: not committed, " + (overlay / "Test").string() +
                             " left as it was: "));
    CHECK(stdfs::exists(overlay / "Test/late.txt"));
    // Its reason is kept in the overlay folder until a commit of the pack succeeds.
    const auto failures = commit::unmountCommitFailures(overlay);
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].starts_with((overlay / ".pakfs-commit-failed").string() +
                                  ": the commit at the unmount of /mnt/t (-o commit) on "));
    CHECK(failures[0].ends_with(log[0].substr(std::string("-o commit: not committed, ").size())));
    commit::CommitRequest request;
    request.pak = t.pak;
    request.overlay = overlay;
    request.keys.keyHex = kTestKeyHex;
    request.holdsOverlay = true;
    request.force = true;
    CHECK(commit::commitOverlay(request).written);
    CHECK(commit::unmountCommitFailures(overlay).empty());
    CHECK_FALSE(stdfs::exists(overlay / ".pakfs-commit-failed"));
}
