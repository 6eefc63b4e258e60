// SPDX-License-Identifier: GPL-2.0-or-later
// Real mounts with the pakfs binary through the kernel. Skipped when FUSE is not available.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PackList.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/DrivesFixture.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

Bytes preadExact(int fd, std::uint64_t off, std::size_t n) {
    Bytes out(n);
    std::size_t done = 0;
    while (done < n) {
        ssize_t got = pread(fd, out.data() + done, n - done, off_t(off + done));
        if (got <= 0) break;
        done += std::size_t(got);
    }
    out.resize(done);
    return out;
}

}  // namespace

TEST_CASE("pakfs mount: cp -r of the whole mount equals pak extract", "[mount]") {
    MountedPack m;
    auto copy = m.dir / "copy";
    auto extracted = m.dir / "extracted";
    auto cp = run("timeout 120 cp -r " + quote((m.mount->path() / "Test").string()) + " " +
                  quote(copy.string()));
    INFO(cp.err);
    REQUIRE(cp.code == 0);
    auto ex = run("timeout 120 " + kPak + " extract -q --key " + kTestKeyHex + " " +
                  quote(m.pack.pak.string()) + " " + quote(extracted.string()));
    INFO(ex.err);
    REQUIRE(ex.code == 0);
    // pak extract writes files only, so an empty folder of the pack is not in its output.
    auto diff =
        run("diff -r -x EmptyFolder " + quote(copy.string()) + " " + quote(extracted.string()));
    INFO(diff.out);
    CHECK(diff.code == 0);
    for (const auto& [path, data] : m.pack.files) {
        INFO(path);
        CHECK(sha256Hex(readFile(copy / path)) == sha256Hex(data));
    }
    CHECK(stdfs::is_directory(copy / "EmptyFolder"));
}

TEST_CASE("pakfs mount: random-offset reads equal the extracted bytes", "[mount]") {
    MountedPack m;
    auto extracted = m.dir / "extracted";
    REQUIRE(run(kPak + " extract -q --key " + kTestKeyHex + " " + quote(m.pack.pak.string()) + " " +
                quote(extracted.string()))
                .code == 0);
    std::mt19937_64 rng(99);
    for (const std::string path :
         {"Media/compress6m.txt", "Media/random3m.bin", "Data/c100k.txt", "Data/r1024.bin"}) {
        INFO(path);
        Bytes want = readFile(extracted / path);
        REQUIRE(want == m.pack.file(path));
        int fd = ::open((m / path).c_str(), O_RDONLY);
        REQUIRE(fd >= 0);
        for (int i = 0; i < 150; ++i) {
            std::uint64_t off = rng() % want.size();
            std::size_t n = std::size_t(rng() % 300000) + 1;
            Bytes got = preadExact(fd, off, n);
            REQUIRE(got.size() == std::min<std::size_t>(n, want.size() - off));
            REQUIRE(std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(off)));
        }
        ::close(fd);
    }
}

TEST_CASE("pakfs mount: 8 concurrent readers get the right bytes", "[mount]") {
    MountedPack m;
    std::vector<std::string> paths;
    for (const auto& [path, data] : m.pack.files) paths.push_back(path);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < 10; ++k) {
        threads.emplace_back([&, k] {
            std::mt19937_64 rng(std::uint64_t(k) + 1);
            // Half the threads stream whole big files, half read anything at random offsets.
            for (int i = 0; i < (k % 2 ? 3 : 60); ++i) {
                const std::string path =
                    k % 2 ? (i % 2 ? "Media/compress6m.txt" : "Media/random3m.bin")
                          : paths[rng() % paths.size()];
                const Bytes& want = m.pack.file(path);
                int fd = ::open((m / path).c_str(), O_RDONLY);
                if (fd < 0) {
                    ++failures;
                    continue;
                }
                if (k % 2) {
                    if (preadExact(fd, 0, want.size() + 1) != want) ++failures;
                } else if (!want.empty()) {
                    std::uint64_t off = rng() % want.size();
                    Bytes got = preadExact(fd, off, std::size_t(rng() % 200000) + 1);
                    if (!std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(off)))
                        ++failures;
                }
                ::close(fd);
            }
        });
    }
    for (auto& t : threads) t.join();
    CHECK(failures == 0);
}

TEST_CASE("pakfs mount: reads of one file sent at once, near and far apart, get the right bytes",
          "[mount]") {
    // O_DIRECT: each pread reaches pakfs as a read of its own, as many at once as there are
    // threads. Six threads take the file's 64 KiB pieces in turn (reads near each other, left
    // to the thread answering the first); two read far from them meanwhile. Read-only and
    // writable (reads without a handle).
    for (const bool writable : {false, true}) {
        INFO((writable ? "writable" : "read-only"));
        TempDir overlay;
        MountedPack m(writable
                          ? std::vector<std::string>{"-o", "overlay=" + overlay.path().string()}
                          : std::vector<std::string>{});
        const std::string path = "Media/compress6m.txt";
        const Bytes& want = m.pack.file(path);
        REQUIRE(want.size() > (4u << 20));
        int fd = ::open((m / path).c_str(), O_RDONLY | O_DIRECT);
        REQUIRE(fd >= 0);
        constexpr std::size_t kPiece = 64 * 1024;
        std::atomic<std::size_t> nextPiece{0};
        std::atomic<int> reads{0}, failures{0};
        std::vector<std::thread> threads;
        for (int k = 0; k < 8; ++k) {
            threads.emplace_back([&, k] {
                void* mem = std::aligned_alloc(4096, kPiece);
                if (!mem) {
                    ++failures;
                    return;
                }
                std::mt19937_64 rng(std::uint64_t(k) + 7);
                for (int i = 0;; ++i) {
                    std::uint64_t off;
                    if (k < 6) {
                        off = nextPiece.fetch_add(1) * kPiece;
                        if (off >= want.size()) break;
                    } else {
                        if (i == 40) break;
                        off = (rng() % (want.size() / 4096)) * 4096;
                    }
                    const std::size_t n =
                        std::size_t(std::min<std::uint64_t>(kPiece, want.size() - off));
                    ssize_t got = ::pread(fd, mem, kPiece, off_t(off));
                    ++reads;
                    if (got != ssize_t(n) || std::memcmp(mem, want.data() + off, n) != 0)
                        ++failures;
                }
                std::free(mem);
            });
        }
        for (auto& t : threads) t.join();
        ::close(fd);
        CHECK(failures == 0);
        CHECK(reads == int((want.size() + kPiece - 1) / kPiece + 80));
    }
}

TEST_CASE("pakfs mount: writes get EROFS, attributes and xattrs come from the table", "[mount]") {
    MountedPack m;
    errno = 0;
    CHECK(::open((m / "root.txt").c_str(), O_WRONLY) == -1);
    CHECK(errno == EROFS);
    errno = 0;
    CHECK(::open((m / "new.txt").c_str(), O_WRONLY | O_CREAT, 0644) == -1);
    CHECK(errno == EROFS);
    errno = 0;
    CHECK(::mkdir((m / "NewFolder").c_str(), 0755) == -1);
    CHECK(errno == EROFS);
    errno = 0;
    CHECK(::unlink((m / "root.txt").c_str()) == -1);
    CHECK(errno == EROFS);
    errno = 0;
    CHECK(::setxattr((m / "root.txt").c_str(), "user.x", "1", 1, 0) == -1);
    CHECK(errno == EROFS);

    struct stat st;
    REQUIRE(::stat((m / "Media/compress6m.txt").c_str(), &st) == 0);
    CHECK(std::uint64_t(st.st_size) == m.pack.file("Media/compress6m.txt").size());
    struct stat pakStat;
    REQUIRE(::stat(m.pack.pak.c_str(), &pakStat) == 0);
    CHECK(st.st_mtime == pakStat.st_mtime);  // the pak's time
    struct stat again;
    REQUIRE(::stat((m / "Media/compress6m.txt").c_str(), &again) == 0);
    CHECK(again.st_ino == st.st_ino);

    char value[64] = {};
    ssize_t n = ::getxattr((m / "root.txt").c_str(), "user.pak.class_id", value, sizeof value);
    REQUIRE(n > 0);
    CHECK(std::string(value, std::size_t(n)) == "09041000");
    n = ::getxattr((m / "Media/random3m.bin").c_str(), "user.pak.flags", value, sizeof value);
    REQUIRE(n > 0);
    CHECK(std::string(value, std::size_t(n)) == "0000000000000002");  // stored (0x02: every file)
    auto df = run("df -P " + quote(m.mount->path().string()));
    CHECK(df.code == 0);
}

TEST_CASE(
    "pakfs mount: -o icase, cache_size, seek_memory and read_ahead are taken, others "
    "passed on",
    "[mount]") {
    MountedPack m({"-o", "icase,cache_size=2M,seek_memory=4M,read_ahead=0", "-o", "allow_other"});
    CHECK(readFile(m.mount->path() / "test" / "DATA" / "r1024.BIN") ==
          m.pack.file("Data/r1024.bin"));
    auto mounts = run("grep " + quote(m.mount->path().string()) + " /proc/self/mounts");
    CHECK(mounts.out.find("allow_other") != std::string::npos);
    CHECK(mounts.out.find("fuse.pakfs") != std::string::npos);
}

TEST_CASE("pakfs mount: files decoded ahead go into the page cache and read with no request",
          "[mount]") {
    MountedPack m({"-d"});  // -d: libfuse logs every request
    // Data holds Deep/, c100k.txt, r1024.bin, r255.bin and r256.bin, in name order: reading
    // c100k.txt from its start has the next files decoded and stored in the kernel's cache,
    // which takes them for inodes it knows: listed here (as cp -r, find and tar do).
    std::size_t listed = 0;
    for ([[maybe_unused]] const auto& e : stdfs::directory_iterator(m / "Data")) ++listed;
    CHECK(listed == 5);
    CHECK(readFile(m / "Data/c100k.txt") == m.pack.file("Data/c100k.txt"));
    const stdfs::path next = m / "Data/r1024.bin";
    struct stat st;
    REQUIRE(::stat(next.c_str(), &st) == 0);
    REQUIRE(st.st_size == 1024);
    int fd = ::open(next.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    void* map = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    REQUIRE(map != MAP_FAILED);
    // mincore says whether the page is in the page cache without reading it.
    unsigned char resident = 0;
    for (int i = 0; i < 500 && !(resident & 1); ++i) {
        REQUIRE(::mincore(map, std::size_t(st.st_size), &resident) == 0);
        if (!(resident & 1)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::munmap(map, std::size_t(st.st_size));
    CHECK((resident & 1) == 1);
    CHECK(preadExact(fd, 0, 4096) == m.pack.file("Data/r1024.bin"));
    ::close(fd);
    const std::string log = m.mount->errors();
    const std::string nodeid = "nodeid: " + std::to_string(st.st_ino) + ",";
    std::size_t reads = 0, lines = 0;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line); ++lines)
        if (line.find("opcode: READ ") != std::string::npos &&
            line.find(nodeid) != std::string::npos)
            ++reads;
    INFO(log.substr(0, 4000));
    CHECK(lines > 10);                                      // the log is there
    CHECK(log.find("opcode: READ ") != std::string::npos);  // c100k.txt's request
    CHECK(reads == 0);
}

TEST_CASE("pakfs mount: closing a file costs no request, opening one only the first time",
          "[mount]") {
    MountedPack m({"-d"});  // -d: libfuse logs every request
    const stdfs::path root = m.mount->path() / "Test";
    int files = 0;
    for (const auto& e : stdfs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        CHECK(readFile(e.path()) == m.pack.file(stdfs::relative(e.path(), root).generic_string()));
        ++files;
    }
    CHECK(files > 5);
    const std::string log = m.mount->errors();
    auto count = [&](const std::string& op) {
        std::size_t n = 0;
        for (std::size_t at = log.find(op); at != std::string::npos; at = log.find(op, at + 1)) ++n;
        return n;
    };
    INFO(log.substr(0, 4000));
    CHECK(count("opcode: READDIRPLUS") > 0);  // the log is there
    // The first of each is answered ENOSYS, and the kernel sends no more.
    CHECK(count("opcode: OPEN ") <= 1);
    CHECK(count("opcode: FLUSH") <= 1);
    CHECK(count("opcode: RELEASE ") == 0);
}

TEST_CASE("pakfs mount: -o uid, gid and umask set owners and modes, bad values are refused",
          "[mount]") {
    MountedPack m({"-o", "uid=1234,gid=2345,umask=027"});
    struct stat st;
    REQUIRE(::stat((m / "root.txt").c_str(), &st) == 0);
    CHECK(st.st_uid == 1234);
    CHECK(st.st_gid == 2345);
    CHECK((st.st_mode & 07777) == 0440);
    REQUIRE(::stat((m / "Media").c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0550);
    CHECK(S_ISDIR(st.st_mode));
    CHECK(readFile(m / "root.txt") == m.pack.file("root.txt"));  // root reads it anyway

    TempDir dir;
    auto mnt = dir / "mnt";
    stdfs::create_directories(mnt);
    const std::string tail = " --key " + std::string(kTestKeyHex) + " " +
                             quote(m.pack.pak.string()) + " " + quote(mnt.string());
    auto bad = run(kPakfs + " -o umask=9" + tail);
    CHECK(bad.code == 2);
    CHECK(bad.err == "pakfs: -o umask= takes an octal mode such as 022, got \"9\"\n");
    bad = run(kPakfs + " -o uid=-1" + tail);
    CHECK(bad.code == 2);
    CHECK(bad.err == "pakfs: -o uid= takes a number, got \"-1\"\n");
    bad = run(kPakfs + " -o gid=99999999999" + tail);
    CHECK(bad.code == 2);
    CHECK(bad.err == "pakfs: -o gid= takes a number, got \"99999999999\"\n");
    bad = run(kPakfs + " -o salvage -o overlay=" + quote((dir / "ov").string()) + tail);
    CHECK(bad.code == 2);
    CHECK(bad.err ==
          "pakfs: -o salvage mounts read-only: a pack cut short cannot take an overlay's "
          "changes\n");
    CHECK_FALSE(isMounted(stdfs::weakly_canonical(mnt)));
}

TEST_CASE("pakfs mount: SIGTERM unmounts cleanly", "[mount]") {
    MountedPack m;
    int fd = ::open((m / "Media/compress6m.txt").c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    CHECK(preadExact(fd, 1000, 1000).size() == 1000);
    ::close(fd);
    REQUIRE(kill(m.mount->pid(), SIGTERM) == 0);
    CHECK(m.mount->waitExit(std::chrono::seconds(10)) == 0);
    CHECK_FALSE(isMounted(m.mount->path()));
}

TEST_CASE("pakfs mount: fusermount3 -u ends pakfs with exit code 0", "[mount]") {
    MountedPack m;
    REQUIRE(run("fusermount3 -u " + quote(m.mount->path().string())).code == 0);
    CHECK(m.mount->waitExit(std::chrono::seconds(10)) == 0);
}

TEST_CASE("pakfs mount: a wrong key fails the mount with a message and a non-zero exit",
          "[mount]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    auto mnt = dir / "mnt";
    stdfs::create_directories(mnt);
    auto r = run("timeout 20 " + kPakfs + " --key ffffffffffffffffffffffffffffffff " +
                 quote(pack.pak.string()) + " " + quote(mnt.string()));
    CHECK(r.code == 1);
    CHECK(r.err.find("Test.pak") != std::string::npos);
    CHECK_FALSE(isMounted(stdfs::weakly_canonical(mnt)));

    auto usage = run(kPakfs + " " + quote(pack.pak.string()));
    CHECK(usage.code == 2);
    auto help = run(kPakfs + " --help");
    CHECK(help.code == 0);
    CHECK(help.out.find("cache_size") != std::string::npos);
    CHECK(help.out.find("icase") != std::string::npos);
    CHECK(help.out.find("read_ahead=N") != std::string::npos);
    auto bad = run(kPakfs + " -o read_ahead=many --key ffffffffffffffffffffffffffffffff " +
                   quote(pack.pak.string()) + " " + quote(mnt.string()));
    CHECK(bad.code == 2);
    CHECK(bad.err ==
          "pakfs: -o read_ahead= takes a number of files from 0 to 9999, got \"many\"\n");
    CHECK_FALSE(isMounted(stdfs::weakly_canonical(mnt)));
}

TEST_CASE("pakfs mount: a Packs folder mounts every pack its packlist.dat has a key for",
          "[mount]") {
    skipUnlessFuse();
    TempDir dir;
    auto packs = dir / "Packs";
    stdfs::create_directories(packs);
    archive::PackList list;
    const std::string keyA = "0123456789abcdef0123456789abcdef";
    list.entries.push_back({0, "Alpha", keyA});
    archive::writePackList(packs / "packlist.dat", list);
    TestPack alpha = makeTestPack(smallFiles(), "Alpha", archive::keyFromKeyString(keyA));
    TestPack other = makeTestPack(smallFiles(), "Other", testKey());
    stdfs::copy_file(alpha.pak, packs / "Alpha.pak");
    stdfs::copy_file(other.pak, packs / "Other.pak");
    Mount mount({packs.string()}, dir / "mnt", dir);
    INFO(mount.errors());
    REQUIRE(mount.waitMounted());
    CHECK(readFile(mount.path() / "Alpha" / "Data" / "r256.bin") == alpha.file("Data/r256.bin"));
    CHECK_FALSE(stdfs::exists(mount.path() / "Other"));
    CHECK(mount.errors().find("Other.pak") != std::string::npos);
}

TEST_CASE("pakfs mount: -o drives shows the game's merged view of a Packs folder",
          "[mount][drives]") {
    skipUnlessFuse();
    PacksFolder packs;
    TempDir dir;
    Mount mount({"-o", "drives", packs.packs.string()}, dir / "mnt", dir);
    INFO(mount.errors());
    REQUIRE(mount.waitMounted());
    std::vector<std::string> top;
    for (const auto& e : stdfs::directory_iterator(mount.path()))
        top.push_back(e.path().filename().string());
    std::sort(top.begin(), top.end());
    CHECK(top == std::vector<std::string>{"Game", "Resource"});
    // Browsed like a folder; the later pack's copy of a shared path is the one shown.
    CHECK(readFile(mount.path() / "Game/shared.TXT") == Bytes{'c', 'o', 'm'});
    CHECK(readFile(mount.path() / "Resource/Media/Texture/B.dds") == Bytes(200, 'b'));
    auto r =
        run("cp -r '" + (mount.path() / "Game").string() + "' '" + (dir / "copy").string() + "'");
    CHECK(r.code == 0);
    CHECK(readFile(dir / "copy/Stadium/Media/Texture/Road.dds") == Bytes(300, 'r'));
    char buf[512];
    ssize_t n = ::getxattr((mount.path() / "Game/Stadium/Media/Solid/Road.Solid.Gbx").c_str(),
                           "user.gbx.refs", buf, sizeof buf);
    REQUIRE(n > 0);
    CHECK(std::string(buf, std::size_t(n)) ==
          "Game/Stadium/Media/Texture/Road.dds\n"
          "resource 1 (not resolved)\n"
          "Game/Stadium/Media/Missing.dds (missing)\n"
          "resource 99 (not resolved)\n");
}

TEST_CASE("pakfs mount: the game's pack serves all 27 files exactly, cp -r copies them all",
          "[mount][real-pack][fixtures]") {
    skipUnlessFuse();
    auto pakPath = sharedDir("fixtures/real") / "Resource.pak";
    auto pak = archive::PakIndex::open(pakPath, archive::resolveKey(pakPath, {}));
    TempDir dir;
    // Its key comes from packlist.dat beside it; no -o unverified.
    Mount m({pakPath.string()}, dir / "mnt", dir);
    REQUIRE(m.waitMounted());
    std::size_t served = 0;
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        int fd = ::open((m.path() / "Resource" / e.path).c_str(), O_RDONLY);
        REQUIRE(fd >= 0);
        Bytes got(e.uncompressedSize + 1);
        ssize_t n = ::read(fd, got.data(), got.size());
        ::close(fd);
        REQUIRE(n == ssize_t(e.uncompressedSize));
        got.resize(std::size_t(n));
        CHECK(got == archive::readEntry(pak, e));
        ++served;
    }
    CHECK(served == 27u);
    // What a new user does first: copy the whole pack out.
    auto cp = run("cp -r " + quote((m.path() / "Resource").string()) + " " +
                  quote((dir / "copy").string()) + " 2>&1");
    CHECK(cp.code == 0);
    CHECK(cp.out.empty());
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        CHECK(readFile(dir / "copy" / e.path) == archive::readEntry(pak, e));
    }
    // The engine classes' attributes, as for maps.
    char buf[256];
    ssize_t n = ::getxattr((m.path() / "Resource/Media/Font/Arial.Font.Gbx").c_str(),
                           "user.gbx.class", buf, sizeof buf);
    REQUIRE(n > 0);
    CHECK(std::string(buf, std::size_t(n)) == "CPlugFontBitmap");
    n = ::getxattr((m.path() / "Resource/Media/ControlStyle/Default.ControlStyle.Gbx").c_str(),
                   "user.gbx.class", buf, sizeof buf);
    REQUIRE(n > 0);
    CHECK(std::string(buf, std::size_t(n)) == "CControlStyle");
    run("fusermount3 -u " + quote(m.path().string()));
    CHECK(m.waitExit(std::chrono::seconds(10)) == 0);
    CHECK(m.errors().find("stored gbx entry") == std::string::npos);
    CHECK(m.errors().find("warning: ") == std::string::npos);
}

TEST_CASE("pakfs mount: mount -t fuse.pakfs, an fstab line (mount -T), then umount",
          "[mount][install]") {
    skipUnlessFuse();
    if (::geteuid() != 0 || !stdfs::exists("/sbin/mount.fuse3")) {
        std::printf("SKIPPED: mount -t needs root and mount.fuse3 (the fuse3 package)\n");
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
    // mount(8) drops PATH from its helpers' environment, so mount.fuse3's shell looks for
    // pakfs in its default PATH, where an installed one lives. The built one is linked into
    // /usr/local/sbin for the test, unless something else is there.
    const stdfs::path link = "/usr/local/sbin/pakfs";
    std::error_code ec;
    if (stdfs::exists(stdfs::symlink_status(link, ec)) &&
        stdfs::read_symlink(link, ec) != stdfs::path(kPakfs)) {
        std::printf("SKIPPED: %s exists and is not this build's pakfs\n", link.c_str());
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
    stdfs::create_directories(link.parent_path());
    stdfs::remove(link, ec);
    stdfs::create_symlink(kPakfs, link);
    struct Unlink {
        stdfs::path p;
        ~Unlink() {
            std::error_code e;
            stdfs::remove(p, e);
        }
    } unlink{link};

    TestPack t = makeTestPack();
    TempDir dir;
    stdfs::path mnt = dir / "mnt";
    stdfs::create_directories(mnt);
    std::string mount = "mount -t fuse.pakfs " + quote(t.pak.string()) + " " + quote(mnt.string());
    auto r = run(mount + " -o ro,key=" + std::string(kTestKeyHex) +
                 ",icase,nosuid,nodev,noexec,noauto,_netdev,defaults,users");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    // pakfs went to the background once the mount was up: it is there when mount returns.
    REQUIRE(isMounted(mnt));
    CHECK(readFile(mnt / "Test" / "TEXT" / "README.txt") == t.file("Text/readme.txt"));
    {
        std::ifstream in("/proc/self/mounts");
        std::string line, found;
        while (std::getline(in, line))
            if (line.find(" " + mnt.string() + " ") != std::string::npos) found = line;
        CHECK(found.find(" fuse.pakfs ro,nosuid,nodev,noexec,") != std::string::npos);
    }
    CHECK(run("umount " + quote(mnt.string())).code == 0);
    CHECK_FALSE(isMounted(mnt));
    // An fstab line, as the README gives it (a file of its own: mount -T), mounted by its
    // mount point alone.
    std::string fstab = (dir / "fstab").string();
    {
        std::ofstream f(fstab);
        f << t.pak.string() << "  " << mnt.string() << "  fuse.pakfs  ro,key=" << kTestKeyHex
          << ",icase,drives,allow_other,noauto  0 0\n";
    }
    r = run("mount -T " + quote(fstab) + " " + quote(mnt.string()));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(isMounted(mnt));
    CHECK(readFile(mnt / "Game" / "text" / "README.TXT") == t.file("Text/readme.txt"));
    CHECK(run("umount " + quote(mnt.string())).code == 0);
    CHECK_FALSE(isMounted(mnt));
    // Without ro, mount(8) passes rw: refused with a message, nothing mounted.
    r = run(mount + " -o key=" + std::string(kTestKeyHex));
    CHECK(r.code != 0);
    CHECK((r.out + r.err).find("pakfs: -o rw: a pak is never changed; give -o overlay=DIR") !=
          std::string::npos);
    CHECK_FALSE(isMounted(mnt));
    // A wrong key: the mount fails and says so before mount returns.
    r = run(mount + " -o ro,key=00000000000000000000000000000000");
    CHECK(r.code != 0);
    CHECK((r.out + r.err).find("wrong key or damaged header") != std::string::npos);
    CHECK_FALSE(isMounted(mnt));
}

TEST_CASE("pakfs mount: a version 18 .Pack.Gbx, with -o base_key and without a key",
          "[mount][v6]") {
    skipUnlessFuse();
    TempDir dir;
    writeFile(dir / "src/pub/free.txt", Bytes(3000, 'p'));
    writeFile(dir / "src/Data/big.txt", Bytes(100000, 'b'));
    stdfs::path sample = stdfs::path(PAKFS_SOURCE_DIR) / "sample/tree/Tracks";
    stdfs::create_directories(dir / "src/Tracks");
    stdfs::copy_file(sample / "Demo.Challenge.Gbx", dir / "src/Tracks/Demo.Challenge.Gbx");
    const std::string baseHex = "00112233445566778899aabbccddeeff";
    archive::PakKey base{};
    REQUIRE(parseHex(baseHex, base));
    archive::PackOptions options;
    options.version = 18;
    options.header.headerFlags = archive::kHeaderDefaultKey;  // lists without a key
    options.publicGlobs = {"pub/*"};
    const stdfs::path pack = dir / "Skins.Pack.Gbx";
    archive::writePak(dir / "src", pack, archive::keyFromBaseKey(base), options);
    {
        Mount mount({"-o", "base_key=" + baseHex, pack.string()}, dir / "mnt", dir);
        INFO(mount.errors());
        REQUIRE(mount.waitMounted());
        // The pack shows as a folder named after its file without ".Pack.Gbx".
        CHECK(readFile(mount.path() / "Skins/Data/big.txt") == Bytes(100000, 'b'));
        CHECK(readFile(mount.path() / "Skins/pub/free.txt") == Bytes(3000, 'p'));
        CHECK(readFile(mount.path() / "Skins/Tracks/Demo.Challenge.Gbx") ==
              readFile(sample / "Demo.Challenge.Gbx"));
    }
    {
        Mount mount({pack.string()}, dir / "mnt2", dir);
        INFO(mount.errors());
        REQUIRE(mount.waitMounted());
        CHECK(readFile(mount.path() / "Skins/pub/free.txt") == Bytes(3000, 'p'));
        std::ifstream locked(mount.path() / "Skins/Data/big.txt", std::ios::binary);
        char c;
        CHECK_FALSE(locked.read(&c, 1));  // EIO: the pack key was not given
        CHECK(mount.errors().find("Data/big.txt: encrypted with the pack key, which was not "
                                  "given") != std::string::npos);
    }
}
