// SPDX-License-Identifier: GPL-2.0-or-later
// What pakfs says of the mount point's state (a live pakfs mount there, a mount whose server
// died) and of bad usage (no mount point, an option nobody knows), each in one line before
// anything is mounted. Real mounts through the kernel; skipped when FUSE is not available.
// Every pakfs run here is bounded by a timeout, and a mount made against the rules is
// unmounted at the end.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/ShellWord.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The file system types /proc/self/mountinfo lists at `point`, bottom first.
std::vector<std::string> mountTypesAt(const stdfs::path& point) {
    std::vector<std::string> types;
    std::ifstream in("/proc/self/mountinfo");
    for (std::string line; std::getline(in, line);) {
        std::istringstream f(line);
        std::string id, parent, device, root, at, word, type;
        f >> id >> parent >> device >> root >> at;
        while (f >> word && word != "-") {
        }
        if (at == point.string() && f >> type) types.push_back(type);
    }
    return types;
}

// Unmounts whatever a test stacked at `point` (at most a few).
void unmountStacked(const stdfs::path& point) {
    for (int i = 0; i < 5 && isMounted(point); ++i)
        run("timeout -s KILL 10 fusermount3 -u -z " + quote(point.string()));
}

// pakfs with `args`, bounded by a timeout; whatever it mounted stays for the caller to see.
RunResult runPakfsBounded(const std::string& args) {
    RunResult r = run("timeout -s KILL 20 " + kPakfs + " " + args);
    CHECK(r.code != 137);  // not killed by the timeout
    return r;
}

}  // namespace

TEST_CASE("pakfs states: mounting on a live pakfs mount is refused, even with -o nonempty",
          "[mount][states]") {
    MountedPack m;
    const std::string mnt = m.mount->path().string();
    const std::string args = "--key " + std::string(kTestKeyHex) + " " + quote(m.pack.pak.string());
    REQUIRE(mountTypesAt(mnt) == std::vector<std::string>{"fuse.pakfs"});
    const std::string refused = "pakfs: " + mnt +
                                ": already mounted (by pakfs); unmount it first: fusermount3 -u " +
                                shellWord(mnt) + "\n";
    for (const char* extra : {"", " -o nonempty", " -f -o nonempty,icase"}) {
        INFO(extra);
        RunResult r = runPakfsBounded(args + " " + quote(mnt) + std::string(extra));
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err == refused);
        // Still the one mount, and it serves.
        CHECK(mountTypesAt(mnt) == std::vector<std::string>{"fuse.pakfs"});
        CHECK(stdfs::is_directory(m / "Media"));
    }
    // Through a path that leads there another way.
    const stdfs::path link = m.dir / "link";
    stdfs::create_directory_symlink(mnt, link);
    RunResult r = runPakfsBounded(args + " " + quote(link.string()) + " -o nonempty");
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + link.string() +
                       ": already mounted (by pakfs); unmount it first: fusermount3 -u " +
                       link.string() + "\n");
    CHECK(mountTypesAt(mnt) == std::vector<std::string>{"fuse.pakfs"});
    // What the refusal says to run, run as printed, unmounts it.
    const std::string advice = suggestedCommand(refused, "unmount it first: ");
    CHECK(advice == "fusermount3 -u " + shellWord(mnt));
    REQUIRE(runAsPrinted("timeout -s KILL 10 " + advice, m.dir.path()).code == 0);
    CHECK_FALSE(isMounted(mnt));
    unmountStacked(mnt);
}

TEST_CASE("pakfs states: another file system mounted there is named when it holds files",
          "[mount][states]") {
    // A FUSE mount of another name (pakfs itself, named otherwise: no root needed).
    MountedPack m({"-o", "fsname=other,subtype=other"});
    const std::string mnt = m.mount->path().string();
    REQUIRE(mountTypesAt(mnt) == std::vector<std::string>{"fuse.other"});
    const std::string args = "--key " + std::string(kTestKeyHex) + " " + quote(m.pack.pak.string());
    RunResult r = runPakfsBounded(args + " " + quote(mnt));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + mnt +
                       ": a fuse.other file system (other) is mounted there and holds files (they "
                       "would be hidden while mounted); unmount it first, or give -o nonempty to "
                       "mount over it\n");
    CHECK(mountTypesAt(mnt) == std::vector<std::string>{"fuse.other"});
    unmountStacked(mnt);
}

TEST_CASE("pakfs states: a mount whose pakfs was killed is named with the fusermount3 to run",
          "[mount][states]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const std::string args = "--key " + std::string(kTestKeyHex) + " " + quote(pack.pak.string());
    const stdfs::path mnt = stdfs::canonical(dir.path()) / "mnt";
    stdfs::create_directories(mnt);
    struct Cleanup {
        stdfs::path mnt;
        ~Cleanup() { unmountStacked(mnt); }
    } cleanup{mnt};
    // pakfs -f in a child, killed: its mount stays, with no server.
    const pid_t server = spawnLogged(
        {kPakfs, "-f", "--key", kTestKeyHex, pack.pak.string(), mnt.string()}, dir / "first.err");
    REQUIRE(server > 0);
    for (int i = 0; i < 500 && !isMounted(mnt); ++i) std::this_thread::sleep_for(20ms);
    REQUIRE(isMounted(mnt));
    // Read once, so that the kernel keeps the root's attributes: a plain stat of the mount
    // point then still succeeds after the server is gone.
    REQUIRE(stdfs::is_directory(mnt / "Test"));
    REQUIRE(::kill(server, SIGKILL) == 0);
    int status = 0;
    REQUIRE(::waitpid(server, &status, 0) == server);
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
    REQUIRE(isMounted(mnt));
    const std::string hint = "pakfs: " + mnt.string() +
                             ": a mount there has died (transport endpoint not connected); run: "
                             "fusermount3 -u " +
                             shellWord(mnt.string()) + "\n";
    for (const char* extra : {"", " -o nonempty"}) {
        INFO(extra);
        RunResult r = runPakfsBounded(args + " " + quote(mnt.string()) + std::string(extra));
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err == hint);
    }
    // A mount point inside the dead mount names the mount to clear.
    const stdfs::path inside = mnt / "Test";
    RunResult r = runPakfsBounded(args + " " + quote(inside.string()));
    CHECK(r.code == 1);
    CHECK(r.err == "pakfs: " + inside.string() + ": inside " + mnt.string() +
                       ", a mount that has died (transport endpoint not connected); run: "
                       "fusermount3 -u " +
                       mnt.string() + "\n");
    CHECK(mountTypesAt(mnt) == std::vector<std::string>{"fuse.pakfs"});

    // Doing what it says, run as printed, clears it, and a mount works again.
    const std::string advice = suggestedCommand(r.err, "run: ");
    CHECK(advice == "fusermount3 -u " + shellWord(mnt.string()));
    REQUIRE(runAsPrinted("timeout -s KILL 10 " + advice, dir.path()).code == 0);
    CHECK_FALSE(isMounted(mnt));
    Mount again({"--key", kTestKeyHex, pack.pak.string()}, mnt, dir);
    INFO(again.errors());
    REQUIRE(again.waitMounted());
    CHECK(readFile(mnt / "Test/Text/readme.txt") == pack.file("Text/readme.txt"));
    CHECK(mountTypesAt(mnt) == std::vector<std::string>{"fuse.pakfs"});
}

TEST_CASE("pakfs states: usage errors are one line naming pakfs, exit status 2",
          "[mount][states]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path mnt = stdfs::canonical(dir.path()) / "mnt";
    stdfs::create_directories(mnt);
    const std::string pak = quote(pack.pak.string());
    const std::string key = "--key " + std::string(kTestKeyHex) + " ";
    const std::string noMountPoint =
        "pakfs: give at least one SOURCE and the MOUNTPOINT (pakfs --help lists the options)\n";
    struct Case {
        std::string args;
        std::string err;
    };
    const std::vector<Case> cases = {
        {key + pak, noMountPoint},
        {"", noMountPoint},
        {"-f -o icase " + pak, noMountPoint},
        // Before the packs are read (no key given here): nothing is loaded for a bad option.
        {pak + " " + quote(mnt.string()) + " -o bogus",
         "pakfs: unknown mount option: bogus (pakfs --help lists the options)\n"},
        {key + pak + " " + quote(mnt.string()) + " -o ro,icase,bogus2,nosuid",
         "pakfs: unknown mount option: bogus2 (pakfs --help lists the options)\n"},
        {key + pak + " " + quote(mnt.string()) + " -obogus",
         "pakfs: unknown mount option: bogus (pakfs --help lists the options)\n"},
        // An option of libfuse's high-level interface, which pakfs does not use.
        {key + pak + " " + quote(mnt.string()) + " -o kernel_cache",
         "pakfs: unknown mount option: kernel_cache (pakfs --help lists the options)\n"},
        {key + pak + " " + quote(mnt.string()) + " -o " + quote("fsname=a\\\\,bogus3"),
         "pakfs: unknown mount option: bogus3 (pakfs --help lists the options)\n"},
        {key + "--bogus " + pak + " " + quote(mnt.string()),
         "pakfs: unknown option: --bogus (pakfs --help lists the options)\n"},
        {key + pak + " -x " + quote(mnt.string()),
         "pakfs: unknown option: -x (pakfs --help lists the options)\n"},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        RunResult r = runPakfsBounded(c.args);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == c.err);
        CHECK_FALSE(isMounted(mnt));
        unmountStacked(mnt);
    }
    // An option libfuse knows with a value it refuses: libfuse's reason, named as pakfs's.
    RunResult r = runPakfsBounded(key + pak + " " + quote(mnt.string()) + " -o max_threads=many");
    CHECK(r.code == 2);
    CHECK(r.err.rfind("pakfs: mount option max_threads=many: ", 0) == 0);
    CHECK(r.err.find("(pakfs --help lists the options)\n") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(isMounted(mnt));
    unmountStacked(mnt);

    // libfuse's own options still pass through to it.
    Mount m({"--key", kTestKeyHex, "-o", "max_threads=4,noatime,nosuid", "-o", "clone_fd",
             pack.pak.string()},
            mnt, dir);
    INFO(m.errors());
    REQUIRE(m.waitMounted());
    CHECK(readFile(mnt / "Test/Text/readme.txt") == pack.file("Text/readme.txt"));
}

TEST_CASE(
    "pakfs states: the mkdir a missing overlay folder's refusal suggests, run as printed, "
    "lets the writable mount in",
    "[mount][states][advice]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    stdfs::create_directories(dir / "mnt");
    // A folder name a shell would split: the advice quotes it.
    const std::string args = "--key " + std::string(kTestKeyHex) + " " + quote(pack.pak.string()) +
                             " mnt -o 'overlay=my changes'";
    RunResult r = runAsPrinted("timeout -s KILL 20 pakfs " + args, dir.path());
    CHECK(r.code == 1);
    CHECK(r.err ==
          "pakfs: my changes: no such folder (the overlay folder must exist: mkdir 'my changes' "
          "first)\n");
    CHECK_FALSE(isMounted(dir / "mnt"));
    const std::string advice = suggestedCommand(r.err, "must exist: ", " first)");
    REQUIRE(advice == "mkdir 'my changes'");
    REQUIRE(runAsPrinted(advice, dir.path()).code == 0);
    CHECK(stdfs::is_directory(dir / "my changes"));
    Mount again(
        {"--key", kTestKeyHex, pack.pak.string(), "-o", "overlay=" + (dir / "my changes").string()},
        dir / "mnt", dir);
    INFO(again.errors());
    REQUIRE(again.waitMounted());
    writeFile(dir / "mnt/Test/new.txt", bytesOf("new\n"));
    CHECK(readFile(dir / "my changes/Test/new.txt") == bytesOf("new\n"));
}
