// SPDX-License-Identifier: GPL-2.0-or-later
// What pakfs refuses before mounting (a path it uses inside its own mount point, a mount point
// that is not an empty folder, a source that is not a pak) and how signals end a mount whose
// requests are stuck. Real mounts through the kernel; skipped when FUSE is not available.
// Every pakfs here runs as a child whose mount is aborted and detached at the end whatever
// happened, so that a regression fails the test instead of hanging it.
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "archive/pak/PackList.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The connection number of the FUSE mount at `mountpoint` (fusectl's folder name), 0 if none.
unsigned fuseConnection(const stdfs::path& mountpoint) {
    std::ifstream in("/proc/self/mountinfo");
    unsigned found = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream f(line);
        std::string id, parent, device, root, point;
        f >> id >> parent >> device >> root >> point;
        unsigned major = 0, minor = 0;
        if (point == mountpoint.string() && line.find(" - fuse") != std::string::npos &&
            std::sscanf(device.c_str(), "%u:%u", &major, &minor) == 2)
            found = (major << 20) | minor;
    }
    return found;
}

// Ends a mount at `mountpoint` even when its requests are stuck, without a request to it:
// the abort file of the connection (when fusectl is mounted), a forced unmount (root: the
// kernel aborts the connection), then a lazy unmount.
void abortMount(const stdfs::path& mountpoint) {
    if (unsigned conn = fuseConnection(mountpoint)) {
        std::ofstream abort("/sys/fs/fuse/connections/" + std::to_string(conn) + "/abort");
        abort << "1";
    }
    if (::geteuid() == 0) {
        ::umount2(mountpoint.c_str(), MNT_FORCE);
        ::umount2(mountpoint.c_str(), MNT_DETACH);
    } else if (isMounted(mountpoint)) {
        run("timeout -s KILL 10 fusermount3 -u -z -q " + quote(mountpoint.string()));
    }
}

// A mount that could get stuck can be ended only as root or through fusectl.
void skipUnlessAbortable() {
    skipUnlessFuse();
    if (::geteuid() != 0 && !stdfs::exists("/sys/fs/fuse/connections/")) {
        std::printf("SKIPPED: a stuck mount can be ended only as root or with fusectl mounted\n");
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
}

// pakfs -f with `args` then the mount point, in a child. At the end its mount is aborted and
// detached and the child killed; a child that cannot be reaped is left behind, never waited on.
class Pakfs {
public:
    Pakfs(std::vector<std::string> args, const stdfs::path& mountpoint, const TempDir& dir)
        : mountpoint_(mountpoint), errPath_(dir / "pakfs.err") {
        std::vector<std::string> argv{kPakfs, "-f"};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.push_back(mountpoint.string());
        pid_ = spawnLogged(argv, errPath_);
    }
    ~Pakfs() {
        if (isMounted(mountpoint_)) abortMount(mountpoint_);
        if (pid_ > 0 && waitExit(10s) == kTimedOut) {
            kill(pid_, SIGKILL);
            waitExit(10s);
        }
    }
    Pakfs(const Pakfs&) = delete;
    Pakfs& operator=(const Pakfs&) = delete;

    bool waitMounted() {
        for (auto end = std::chrono::steady_clock::now() + 10s;
             std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(20ms)) {
            if (isMounted(mountpoint_)) return true;
            if (!alive()) return false;
        }
        return false;
    }
    bool alive() {
        if (pid_ <= 0) return false;
        if (waitpid(pid_, &status_, WNOHANG) != pid_) return true;
        pid_ = -1;
        return false;
    }
    static constexpr int kTimedOut = -1000;
    int waitExit(std::chrono::milliseconds timeout) {
        for (auto end = std::chrono::steady_clock::now() + timeout; alive();
             std::this_thread::sleep_for(20ms))
            if (std::chrono::steady_clock::now() > end) return kTimedOut;
        return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
    }
    pid_t pid() const { return pid_; }
    std::string errors() const {
        Bytes b = readFile(errPath_);
        return std::string(b.begin(), b.end());
    }

private:
    stdfs::path mountpoint_;
    stdfs::path errPath_;
    pid_t pid_ = -1;
    int status_ = 0;
};

// A folder under a fresh temp folder, named without symbolic links, so that the messages
// name it as given.
stdfs::path folder(const TempDir& dir, const std::string& name) {
    stdfs::path p = stdfs::canonical(dir.path()) / name;
    stdfs::create_directories(p);
    return p;
}

std::string refusal(const std::string& what, const std::string& where) {
    return "pakfs: " + what + " " + where +
           ": pakfs would send requests to its own mount and wait on itself\n";
}

// pakfs with `args`, refused before mounting: exit status 1, nothing mounted.
RunResult refused(const std::string& args, const stdfs::path& mountpoint,
                  const std::string& env = "") {
    RunResult r = run(env + "timeout -s KILL 20 " + kPakfs + " " + args);
    if (isMounted(mountpoint)) abortMount(mountpoint);
    CHECK(r.code == 1);
    CHECK_FALSE(isMounted(mountpoint));
    return r;
}

// The name of what the thread `tid` of `pid` waits on in the kernel.
std::string waitChannel(pid_t pid, const std::string& tid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + tid + "/wchan");
    std::string w;
    std::getline(in, w);
    return w;
}

// Whether a thread of `pid` waits for the answer to a FUSE request.
bool waitsOnFuse(pid_t pid) {
    std::error_code ec;
    for (const auto& t : stdfs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec))
        if (waitChannel(pid, t.path().filename().string()) == "request_wait_answer") return true;
    return false;
}

}  // namespace

TEST_CASE("pakfs safety: an overlay folder inside the mount point and the reverse are refused",
          "[mount][safety]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path m = folder(dir, "m"), ov = folder(dir, "m/ov"), outer = folder(dir, "outer");
    const std::string key = "--key " + std::string(kTestKeyHex) + " " + quote(pack.pak.string());

    // The reproduction of the hang: the overlay folder inside the mount point.
    auto r = refused(key + " " + quote(m.string()) + " -o overlay=" + quote(ov.string()), m);
    CHECK(r.err ==
          refusal(ov.string() + ": the overlay folder is inside the mount point", m.string()));
    // The same folder through "..", and through a symbolic link: both resolved.
    const std::string dotdot = (outer / ".." / "m" / "ov").string();
    r = refused(key + " " + quote(m.string()) + " -o overlay=" + quote(dotdot), m);
    CHECK(r.err == refusal(dotdot + ": the overlay folder is inside the mount point", m.string()));
    // A path through a link and "..": where it leads is named too.
    const stdfs::path deep = folder(dir, "m/ov/deep");
    stdfs::create_directory_symlink(deep, outer / "deeplink");
    const std::string back = (outer / "deeplink" / "..").string();
    r = refused(key + " " + quote(m.string()) + " -o overlay=" + quote(back), m);
    CHECK(r.err ==
          refusal(back + " (" + ov.string() + "): the overlay folder is inside the mount point",
                  m.string()));
    const stdfs::path link = outer / "link";
    stdfs::create_directory_symlink(ov, link);
    r = refused(key + " " + quote(m.string()) + " --overlay " + quote(link.string()), m);
    CHECK(r.err == refusal(link.string() + " (" + ov.string() +
                               "): the overlay folder is inside the mount point",
                           m.string()));
    // An overlay folder not made yet, inside the mount point.
    r = refused(
        key + " " + quote(outer.string()) + " -o overlay=" + quote((outer / "new").string()),
        outer);
    CHECK(r.err ==
          refusal((outer / "new").string() + ": the overlay folder is inside the mount point",
                  outer.string()));
    // The overlay folder as the mount point.
    r = refused(key + " " + quote(outer.string()) + " -o overlay=" + quote(outer.string()), outer);
    CHECK(r.err ==
          refusal(outer.string() + ": the overlay folder is the mount point", outer.string()));
    // The mount point inside the overlay folder.
    r = refused(key + " " + quote(ov.string()) + " -o overlay=" + quote(m.string()), ov);
    CHECK(r.err ==
          refusal(ov.string() + ": the mount point is inside the overlay folder", m.string()));
}

TEST_CASE(
    "pakfs safety: a pak, packlist, key file, name list or seek folder inside the mount "
    "point is refused",
    "[mount][safety]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path m = folder(dir, "m");
    // The reproduction: the pak and its packlist copied into the mount point.
    stdfs::copy_file(pack.pak, m / "Test.pak");
    archive::PackList list;
    list.entries.push_back({0, "Test", kTestKeyHex});
    archive::writePackList(m / "packlist.dat", list);
    writeFile(m / "key.txt", Bytes(kTestKeyHex, kTestKeyHex + 32));
    writeFile(m / "names.txt", Bytes{'x'});
    const std::string pak = quote(pack.pak.string()), mnt = quote(m.string());

    auto r = refused(quote((m / "Test.pak").string()) + " " + mnt, m);
    CHECK(r.err == refusal((m / "Test.pak").string() + ": the source is inside the mount point",
                           m.string()));
    r = refused(quote(m.string()) + " " + mnt, m);  // a Packs folder as its own mount point
    CHECK(r.err == refusal(m.string() + ": the source is the mount point", m.string()));
    r = refused("--packlist " + quote((m / "packlist.dat").string()) + " " + pak + " " + mnt, m);
    CHECK(r.err ==
          refusal((m / "packlist.dat").string() + ": the packlist is inside the mount point",
                  m.string()));
    r = refused("-o key_file=" + quote((m / "key.txt").string()) + " " + pak + " " + mnt, m);
    CHECK(r.err == refusal((m / "key.txt").string() + ": the key file is inside the mount point",
                           m.string()));
    r = refused("-o names=" + quote((m / "names.txt").string()) + " " + pak + " " + mnt, m);
    CHECK(r.err == refusal((m / "names.txt").string() + ": the name list is inside the mount point",
                           m.string()));
    // Seek points are written while mounted: their folder may not be in the mount either.
    r = refused("--key " + std::string(kTestKeyHex) + " " + pak + " " + mnt, m,
                "XDG_CACHE_HOME=" + quote((m / "cache").string()) + " ");
    CHECK(r.err == refusal((m / "cache/pakfs/seek").string() +
                               ": the seek point folder ($XDG_CACHE_HOME/pakfs/seek) is inside "
                               "the mount point",
                           m.string()));
}

TEST_CASE("pakfs safety: the mount point must be an empty folder, or any folder with -o nonempty",
          "[mount][safety]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path base = folder(dir, "base");
    const std::string key = "--key " + std::string(kTestKeyHex) + " " + quote(pack.pak.string());

    const stdfs::path file = base / "file";
    writeFile(file, Bytes{'f'});
    auto r = refused(key + " " + quote(file.string()), file);
    CHECK(r.err == "pakfs: " + file.string() + ": the mount point is not a folder\n");
    const stdfs::path missing = base / "missing";
    r = refused(key + " " + quote(missing.string()), missing);
    CHECK(r.err ==
          "pakfs: " + missing.string() + ": the mount point does not exist (make the folder)\n");
    CHECK_FALSE(stdfs::exists(missing));
    const stdfs::path full = folder(dir, "full");
    writeFile(full / "mine.txt", Bytes{'m'});
    r = refused(key + " " + quote(full.string()), full);
    CHECK(r.err == "pakfs: " + full.string() +
                       ": the mount point is not empty (its files would be hidden while "
                       "mounted; give -o nonempty to mount over them)\n");

    {
        Pakfs p({"-o", "nonempty", "--key", kTestKeyHex, pack.pak.string()}, full, dir);
        INFO(p.errors());
        REQUIRE(p.waitMounted());
        std::vector<std::string> shown;
        for (const auto& e : stdfs::directory_iterator(full))
            shown.push_back(e.path().filename().string());
        CHECK(shown == std::vector<std::string>{"Test"});  // mine.txt is hidden
        REQUIRE(run("fusermount3 -u " + quote(full.string())).code == 0);
        CHECK(p.waitExit(10s) == 0);
    }
    CHECK(readFile(full / "mine.txt") == Bytes{'m'});  // and back
}

TEST_CASE(
    "pakfs safety: a SOURCE that is missing, not a pak or a folder where a file is "
    "expected is named before any key is looked up",
    "[mount][safety]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path m = folder(dir, "m"), base = folder(dir, "base");
    const std::string mnt = quote(m.string());
    // No key option and no packlist.dat beside it: the key lookup would fail, but the file is
    // looked at first.
    const stdfs::path text = base / "README.md";
    writeFile(text, Bytes(100, 'r'));
    auto r = refused(quote(text.string()) + " " + mnt, m);
    CHECK(r.err == "pakfs: " + text.string() + ": not a pak file (no \"NadeoPak\" magic)\n");
    const stdfs::path empty = base / "empty.pak";
    writeFile(empty, Bytes{});
    r = refused(quote(empty.string()) + " " + mnt, m);
    CHECK(r.err == "pakfs: " + empty.string() + ": not a pak file (too short for a header)\n");
    r = refused(quote((base / "gone.pak").string()) + " " + mnt, m);
    CHECK(r.err == "pakfs: " + (base / "gone.pak").string() + ": no such file or folder\n");
    const std::string pak = quote(pack.pak.string());
    r = refused("--packlist " + quote(base.string()) + " " + pak + " " + mnt, m);
    CHECK(r.err == "pakfs: " + base.string() + ": is a folder, not a file\n");
    r = refused("--key-file " + quote(base.string()) + " " + pak + " " + mnt, m);
    CHECK(r.err == "pakfs: " + base.string() + ": is a folder, not a file\n");
    r = refused("-o names=" + quote(base.string()) + " " + pak + " " + mnt, m);
    CHECK(r.err == "pakfs: " + base.string() + ": is a folder, not a name list\n");
}

TEST_CASE(
    "pakfs safety: SIGTERM unmounts and ends pakfs while a request waits on the mount "
    "itself",
    "[mount][safety]") {
    skipUnlessAbortable();
    std::vector<std::string> mode;
    SECTION("worker threads") {}
    SECTION("one thread (-s)") {
        mode = {"-s"};
    }
    SECTION("a device per thread (-o clone_fd)") {
        mode = {"-o", "clone_fd"};
    }
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path m = folder(dir, "m"), ov = folder(dir, "ov"), link = dir / "link";
    stdfs::create_directory_symlink(ov, link);
    std::vector<std::string> args = mode;
    for (std::string a : {"--key", kTestKeyHex, "-o"}) args.push_back(a);
    args.push_back("overlay=" + link.string());
    args.push_back(pack.pak.string());
    Pakfs p(args, m, dir);
    INFO(p.errors());
    REQUIRE(p.waitMounted());
    REQUIRE(stdfs::is_directory(m / "Test"));
    // The overlay folder, a link checked when mounting, now leads into the mount: a new file
    // has pakfs make it there, through its own mount, while it serves the request.
    stdfs::remove(link);
    stdfs::create_directory_symlink(m, link);
    pid_t writer = fork();
    if (writer == 0) {
        int fd = ::open((m / "Test/new.txt").c_str(), O_WRONLY | O_CREAT, 0644);
        _exit(fd >= 0 ? 0 : errno);
    }
    REQUIRE(writer > 0);
    bool stuck = false;
    for (auto end = std::chrono::steady_clock::now() + 10s;
         !stuck && std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(20ms))
        stuck = waitsOnFuse(p.pid()) && waitsOnFuse(writer);
    REQUIRE(stuck);  // pakfs waits on a request to its own mount, the writer on pakfs

    REQUIRE(::kill(p.pid(), SIGTERM) == 0);
    CHECK(p.waitExit(20s) == 0);
    CHECK_FALSE(isMounted(m));
    CHECK(p.errors() == "pakfs: SIGTERM: " + m.string() +
                            " is busy (a file open or a request waiting): aborting the "
                            "connection (requests still waiting fail), then unmounting it "
                            "lazily\n");
    // The writer's request failed instead of waiting for ever.
    if (isMounted(m)) abortMount(m);
    int status = 0;
    pid_t reaped = 0;
    for (auto end = std::chrono::steady_clock::now() + 10s;
         reaped == 0 && std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(20ms))
        reaped = waitpid(writer, &status, WNOHANG);
    REQUIRE(reaped == writer);
    CHECK(WIFEXITED(status));
    CHECK((WEXITSTATUS(status) == ECONNABORTED || WEXITSTATUS(status) == ENOTCONN));
}

TEST_CASE("pakfs safety: SIGINT unmounts a mount that a process is in", "[mount][safety]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path m = folder(dir, "m");
    Pakfs p({"--key", kTestKeyHex, pack.pak.string()}, m, dir);
    INFO(p.errors());
    REQUIRE(p.waitMounted());
    // A file held open: the kernel calls the mount busy, as fusermount3 -u says.
    int fd = ::open((m / "Test/root.txt").c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    auto busy = run("fusermount3 -u " + quote(m.string()));
    CHECK(busy.code == 1);
    CHECK(busy.err ==
          "fusermount3: failed to unmount " + m.string() + ": Device or resource busy\n");
    REQUIRE(::kill(p.pid(), SIGINT) == 0);
    CHECK(p.waitExit(20s) == 0);
    CHECK_FALSE(isMounted(m));
    char c;
    errno = 0;
    CHECK(::read(fd, &c, 1) == -1);
    CHECK((errno == ENOTCONN || errno == ECONNABORTED));
    ::close(fd);
    CHECK(p.errors() == "pakfs: SIGINT: " + m.string() +
                            " is busy (a file open or a request waiting): aborting the "
                            "connection (requests still waiting fail), then unmounting it "
                            "lazily\n");
}

TEST_CASE(
    "pakfs safety: an overlay folder reached through a bind mount of the mount point is "
    "refused",
    "[mount][safety]") {
    skipUnlessFuse();
    if (::geteuid() != 0) {
        std::printf("SKIPPED: a bind mount needs root\n");
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path m = folder(dir, "m"), ov = folder(dir, "m/ov"), bound = folder(dir, "bound");
    REQUIRE(::mount(m.c_str(), bound.c_str(), nullptr, MS_BIND, nullptr) == 0);
    struct Unbind {
        stdfs::path p;
        ~Unbind() { ::umount2(p.c_str(), MNT_DETACH); }
    } unbind{bound};
    // bound/ov is m/ov under another name: no link or ".." leads there, only the bind mount.
    auto r = refused("--key " + std::string(kTestKeyHex) + " " + quote(pack.pak.string()) + " " +
                         quote(m.string()) + " -o overlay=" + quote((bound / "ov").string()),
                     m);
    CHECK(r.err ==
          refusal((bound / "ov").string() + ": the overlay folder is inside the mount point",
                  m.string()));
}
