// SPDX-License-Identifier: GPL-2.0-or-later
// The writable mount (-o overlay=DIR) through the kernel: everyday tools, what is refused,
// crashes, a full overlay, an overlay edited by hand, and pak commit of what it holds (also as
// a patch pack of a -o drives mount).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <thread>

#include "archive/pak/PackList.hpp"
#include "commit/OverlayRecord.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/fs/OverlayFixture.hpp"
#include "tests/support/DrivesFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

TEST_CASE(
    "pakfs overlay: cp, cp -a, mv, rm -r, tar x, rsync, an editor's save, truncate, mmap and two "
    "writers go to the overlay, and remount and pak commit show the same tree",
    "[mount][overlay]") {
    OverlayMount m;
    const stdfs::path outside = m.dir / "outside";
    stdfs::create_directories(outside / "tree" / "sub");
    writeFile(outside / "new.txt", Bytes{'n', 'e', 'w', '\n'});
    writeFile(outside / "tree" / "a.txt", compressibleText(5000, 11));
    writeFile(outside / "tree" / "sub" / "b.bin", randomBytes(70000, 12));
    const Bytes readme = m.pack.file("Text/readme.txt");

    m.sh("cp " + quote((outside / "new.txt").string()) + " Text/new.txt");
    m.sh("cp -a Data DataCopy");
    m.sh("mv Text/one.txt Text/uno.txt");
    m.sh("rm -r Data/Deep");
    m.sh("mkdir Tar && tar -C " + quote(outside.string()) + " -cf - tree | tar -C Tar -xf -");
    m.sh("rsync -a " + quote((outside / "tree").string() + "/") + " Rsync/");
    // An editor: the new content goes to a temporary name, which replaces the file.
    m.sh("printf 'edited\\n' > Text/.readme.txt.swp && mv Text/.readme.txt.swp Text/readme.txt");
    m.sh("truncate -s 100 Data/c100k.txt && truncate -s 5000 Text/empty.txt");
    m.sh("touch -d '2001-02-03 04:05:06' Data/r255.bin");
    m.sh("echo tail >> Media/compress6m.txt");
    {
        // A shared writable mapping of a file of the pack.
        int fd = ::open((m / "root.txt").c_str(), O_RDWR);
        REQUIRE(fd >= 0);
        void* p = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        REQUIRE(p != MAP_FAILED);
        std::memcpy(static_cast<char*>(p) + 10, "MMAPWRITE", 9);
        REQUIRE(::msync(p, 4096, MS_SYNC) == 0);
        ::munmap(p, 4096);
        ::close(fd);
    }
    const Bytes big1 = randomBytes(2 << 20, 21), big2 = compressibleText(2 << 20, 22);
    {
        auto writer = [&](const std::string& name, const Bytes& data) {
            int fd = ::open((m / name).c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
            REQUIRE(fd >= 0);
            for (std::size_t at = 0; at < data.size(); at += 65536)
                REQUIRE(::write(fd, data.data() + at,
                                std::min<std::size_t>(65536, data.size() - at)) > 0);
            REQUIRE(::fsync(fd) == 0);
            ::close(fd);
        };
        std::thread a(writer, "Media/w1.bin", std::cref(big1));
        std::thread b(writer, "Media/w2.txt", std::cref(big2));
        a.join();
        b.join();
    }

    // What the mount shows.
    CHECK(str(readFile(m / "Text/new.txt")) == "new\n");
    CHECK(readFile(m / "DataCopy/r1024.bin") == m.pack.file("Data/r1024.bin"));
    CHECK(readFile(m / "DataCopy/Deep/Er/c1024.txt") == m.pack.file("Data/Deep/Er/c1024.txt"));
    CHECK_FALSE(stdfs::exists(m / "Text/one.txt"));
    CHECK(str(readFile(m / "Text/uno.txt")) == "x");
    CHECK_FALSE(stdfs::exists(m / "Data/Deep"));
    CHECK(readFile(m / "Tar/tree/sub/b.bin") == readFile(outside / "tree" / "sub" / "b.bin"));
    CHECK(readFile(m / "Rsync/a.txt") == readFile(outside / "tree" / "a.txt"));
    CHECK(str(readFile(m / "Text/readme.txt")) == "edited\n");
    Bytes c100 = m.pack.file("Data/c100k.txt");
    c100.resize(100);
    CHECK(sha256Hex(readFile(m / "Data/c100k.txt")) == sha256Hex(c100));
    CHECK(readFile(m / "Text/empty.txt") == Bytes(5000, 0));
    Bytes big6 = m.pack.file("Media/compress6m.txt");
    for (char c : std::string("tail\n")) big6.push_back(std::uint8_t(c));
    {
        const Bytes got = readFile(m / "Media/compress6m.txt");
        INFO("size " << got.size() << " of " << big6.size());
        std::size_t firstDiff = 0;
        while (firstDiff < std::min(got.size(), big6.size()) && got[firstDiff] == big6[firstDiff])
            ++firstDiff;
        INFO("first difference at " << firstDiff);
        CHECK(sha256Hex(got) == sha256Hex(big6));
    }
    Bytes root = m.pack.file("root.txt");
    std::memcpy(root.data() + 10, "MMAPWRITE", 9);
    CHECK(sha256Hex(readFile(m / "root.txt")) == sha256Hex(root));
    CHECK(sha256Hex(readFile(m / "Media/w1.bin")) == sha256Hex(big1));
    CHECK(sha256Hex(readFile(m / "Media/w2.txt")) == sha256Hex(big2));
    CHECK(readFile(m / "Data/r256.bin") == m.pack.file("Data/r256.bin"));  // untouched
    struct stat st;
    REQUIRE(::stat((m / "Data/r255.bin").c_str(), &st) == 0);
    const time_t touched = st.st_mtime;

    // The overlay folder, in the OCI layout.
    CHECK(stdfs::is_regular_file(m.overlay / "Test/Text/.wh.one.txt"));
    CHECK(stdfs::is_regular_file(m.overlay / "Test/Data/.wh.Deep"));
    CHECK(str(readFile(m.overlay / "Test/Text/readme.txt")) == "edited\n");
    CHECK_FALSE(stdfs::exists(m.overlay / "Test/Data/r256.bin"));
    CHECK(stdfs::is_empty(m.overlay / ".pakfs-work"));

    const auto seen = snapshot(m.mount->path() / "Test");
    m.remount("--overlay");
    CHECK(snapshot(m.mount->path() / "Test") == seen);
    REQUIRE(::stat((m / "Data/r255.bin").c_str(), &st) == 0);
    CHECK(st.st_mtime == touched);
    m.mount.reset();

    // pak commit: the pak with these changes, every entry proven, the same files.
    const stdfs::path out = m.dir / "Out.pak";
    auto r = run(kPak + " commit -q" + keyArg() + quote(m.pack.pak.string()) + " " +
                 quote(m.overlay.string()) + " " + quote(out.string()));
    INFO(r.err);
    REQUIRE(r.code == 0);
    r = run(kPak + " check -q" + keyArg() + quote(out.string()));
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    r = run(kPak + " extract -q" + keyArg() + quote(out.string()) + " " +
            quote((m.dir / "x").string()));
    REQUIRE(r.code == 0);
    auto files = seen;
    std::erase_if(files, [](const auto& kv) { return kv.second == "<dir>"; });
    CHECK(snapshot(m.dir / "x", false) == files);
}

TEST_CASE("pakfs overlay: what a pak cannot hold is refused with the usual errno and a log line",
          "[mount][overlay]") {
    OverlayMount m;
    errno = 0;
    CHECK(::symlink("root.txt", (m / "link").c_str()) == -1);
    CHECK(errno == EPERM);
    CHECK(::link((m / "root.txt").c_str(), (m / "hard").c_str()) == -1);
    CHECK(errno == EPERM);
    CHECK(::mkfifo((m / "fifo").c_str(), 0644) == -1);
    CHECK(errno == EPERM);
    CHECK(::chown((m / "root.txt").c_str(), 12345, 12345) == -1);
    CHECK(errno == EPERM);
    // Owners every file has already: nothing to change (cp -a, mv as root).
    CHECK(::chown((m / "root.txt").c_str(), getuid(), getgid()) == 0);
    CHECK(::open((m / "Text/a\\b.txt").c_str(), O_CREAT | O_WRONLY, 0644) == -1);
    CHECK(errno == EINVAL);
    CHECK(::mkdir((m / "Text/.wh.x").c_str(), 0755) == -1);
    CHECK(errno == EINVAL);
    CHECK(::open((m.mount->path() / "top.txt").c_str(), O_CREAT | O_WRONLY, 0644) == -1);
    CHECK(errno == EPERM);
    CHECK(::rename((m / "Data").c_str(), (m / "Data2").c_str()) == -1);
    CHECK(errno == EXDEV);
    CHECK(::rmdir((m / "Text").c_str()) == -1);
    CHECK(errno == ENOTEMPTY);
    // renameat2: no exchange, no whiteout (a device file) left at the old name.
    for (unsigned flags : {RENAME_EXCHANGE, RENAME_WHITEOUT}) {
        errno = 0;
        CHECK(::renameat2(AT_FDCWD, (m / "root.txt").c_str(), AT_FDCWD,
                          (m / "Data/c100k.txt").c_str(), flags) == -1);
        CHECK(errno == EINVAL);
    }
    CHECK(::renameat2(AT_FDCWD, (m / "root.txt").c_str(), AT_FDCWD, (m / "Data/c100k.txt").c_str(),
                      RENAME_NOREPLACE) == -1);
    CHECK(errno == EEXIST);
    CHECK(readFile(m / "root.txt") == m.pack.file("root.txt"));
    // A folder made in the overlay can be renamed.
    REQUIRE(::mkdir((m / "Made").c_str(), 0755) == 0);
    writeFile(m / "Made/f.txt", Bytes{'f'});
    CHECK(::rename((m / "Made").c_str(), (m / "Made2").c_str()) == 0);
    CHECK(str(readFile(m / "Made2/f.txt")) == "f");
    CHECK(stdfs::is_regular_file(m.overlay / "Test/Made2/f.txt"));
    CHECK_FALSE(stdfs::exists(m.overlay / "Test/.wh.Made"));
    m.mount.reset();
    const std::string log = Mount::errorsOf(m.dir);
    CHECK(log.find("symlink link (a symbolic link): a pak cannot hold it") != std::string::npos);
    CHECK(log.find("link hard (a hard link): a pak cannot hold it") != std::string::npos);
    CHECK(log.find("chown Test/root.txt: a pak stores no owners") != std::string::npos);
    CHECK(log.find("a name with a backslash cannot be stored in a pak") != std::string::npos);
    CHECK(log.find("top.txt: the top level holds the packs") != std::string::npos);
    // Nothing of the refused changes reached the overlay.
    CHECK(snapshot(m.overlay / "Test") ==
          std::map<std::string, std::string>{{"Made2/", "<dir>"}, {"Made2/f.txt", "f"}});
}

TEST_CASE("pakfs overlay: kill -9 during a copy-up leaves the old or the new content",
          "[mount][overlay]") {
    OverlayMount m;
    const Bytes old = m.pack.file("Media/compress6m.txt");
    Bytes appended = old;
    appended.push_back('!');
    int sawOld = 0, sawNew = 0;
    for (int delayMs : {0, 2, 5, 10, 20, 40}) {
        INFO("kill after " << delayMs << " ms");
        // Start from the pack's file each round.
        stdfs::remove_all(m.overlay / "Test");
        m.remount();
        const pid_t writer = fork();
        if (writer == 0) {
            int fd = ::open((m / "Media/compress6m.txt").c_str(), O_WRONLY | O_APPEND);
            if (fd >= 0 && ::write(fd, "!", 1) == 1) ::fsync(fd);
            _exit(0);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        ::kill(m.mount->pid(), SIGKILL);
        ::waitpid(writer, nullptr, 0);
        m.mount.reset();
        m.start();
        const Bytes now = readFile(m / "Media/compress6m.txt");
        const bool isOld = now == old, isNew = now == appended;
        CHECK((isOld || isNew));
        sawOld += isOld;
        sawNew += isNew;
        CHECK(stdfs::is_empty(m.overlay / ".pakfs-work"));
    }
    INFO("old " << sawOld << ", new " << sawNew);
    CHECK(sawOld + sawNew == 6);
}

TEST_CASE("pakfs overlay: a full overlay file system gives ENOSPC, the mount keeps serving",
          "[mount][overlay]") {
    OverlayMount m;
    m.mount.reset();
    auto r = run("mount -t tmpfs -o size=1m pakfs-test " + quote(m.overlay.string()));
    if (r.code != 0) {
        std::printf("SKIPPED: cannot mount a small tmpfs for the overlay: %s\n", r.err.c_str());
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
    struct Unmount {
        stdfs::path p;
        ~Unmount() { run("umount -l " + quote(p.string())); }
    } unmount{m.overlay};
    m.start();
    writeFile(m / "Text/small.txt", Bytes{'k', 'e', 'p', 't'});
    // Larger than the overlay: the write fails with ENOSPC.
    int fd = ::open((m / "Media/huge.bin").c_str(), O_CREAT | O_WRONLY, 0644);
    REQUIRE(fd >= 0);
    const Bytes chunk = randomBytes(1 << 20, 5);
    int err = 0;
    for (int i = 0; i < 4 && err == 0; ++i)
        if (::write(fd, chunk.data(), chunk.size()) < 0) err = errno;
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    if (err == 0 && ::close(fd) != 0)
        err = errno;
    else
        ::close(fd);
    CHECK(err == ENOSPC);
    // A copy-up that does not fit: the first change (no OPEN reaches the mount, so the open
    // succeeds) fails with ENOSPC, and the file still reads as the pack's, also through the
    // pages the kernel had cached before the failed write.
    const Bytes packBytes = m.pack.file("Media/compress6m.txt");
    CHECK(readFile(m / "Media/compress6m.txt") == packBytes);
    fd = ::open((m / "Media/compress6m.txt").c_str(), O_WRONLY | O_APPEND);
    REQUIRE(fd >= 0);
    errno = 0;
    CHECK(::write(fd, chunk.data(), 4096) == -1);
    CHECK(errno == ENOSPC);
    ::close(fd);
    fd = ::open((m / "Media/compress6m.txt").c_str(), O_RDWR);
    REQUIRE(fd >= 0);
    errno = 0;
    CHECK(::pwrite(fd, chunk.data(), 100, 5) == -1);
    CHECK(errno == ENOSPC);
    errno = 0;
    CHECK(::ftruncate(fd, 10) == -1);
    CHECK(errno == ENOSPC);
    ::close(fd);
    CHECK(readFile(m / "Media/compress6m.txt") == packBytes);
    CHECK(stdfs::file_size(m / "Media/compress6m.txt") == packBytes.size());
    // Still serving, and nothing in the overlay lost.
    CHECK(readFile(m / "Data/r1024.bin") == m.pack.file("Data/r1024.bin"));
    CHECK(str(readFile(m / "Text/small.txt")) == "kept");
    CHECK(str(readFile(m.overlay / "Test/Text/small.txt")) == "kept");
    CHECK(stdfs::is_empty(m.overlay / ".pakfs-work"));
}

TEST_CASE(
    "pakfs overlay: an overlay folder edited by hand: the mount serves what it can, pak commit "
    "refuses with the path and the reason",
    "[mount][overlay]") {
    OverlayMount m;
    m.mount.reset();
    stdfs::create_directories(m.overlay / "Test/Text");
    writeFile(m.overlay / "Test/Text/fine.txt", Bytes{'o', 'k'});
    stdfs::create_symlink("/etc/passwd", m.overlay / "Test/Text/out");
    m.start();
    CHECK(str(readFile(m / "Text/fine.txt")) == "ok");
    CHECK_FALSE(stdfs::exists(stdfs::symlink_status(m / "Text/out")));
    CHECK(readFile(m / "Text/readme.txt") == m.pack.file("Text/readme.txt"));
    m.mount.reset();
    CHECK(Mount::errorsOf(m.dir).find("Test/Text/out: neither a file nor a folder") !=
          std::string::npos);

    const stdfs::path out = m.dir / "Out.pak";
    auto commit = [&] {
        return run(kPak + " commit -q" + keyArg() + quote(m.pack.pak.string()) + " " +
                   quote(m.overlay.string()) + " " + quote(out.string()));
    };
    auto r = commit();
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (m.overlay / "Test/Text/out").string() +
                       ": a symbolic link, which a pak cannot hold\n");
    CHECK_FALSE(stdfs::exists(out));
    stdfs::remove(m.overlay / "Test/Text/out");
    writeFile(m.overlay / "Test/Text/.wh.nothing.txt", {});
    r = commit();
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (m.overlay / "Test/Text/.wh.nothing.txt").string() +
                       ": a whiteout of Text/nothing.txt, which the pack does not hold\n");
    stdfs::remove(m.overlay / "Test/Text/.wh.nothing.txt");
    writeFile(m.overlay / "Test/Text/a\\b.txt", {});
    r = commit();
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (m.overlay / "Test/Text/a\\b.txt").string() +
                       ": a name with a backslash cannot be stored in a pak, so a pak cannot "
                       "hold it\n");
    CHECK_FALSE(stdfs::exists(out));
    stdfs::remove(m.overlay / "Test/Text/a\\b.txt");
    r = commit();
    INFO(r.err);
    CHECK(r.code == 0);
}

TEST_CASE(
    "pakfs overlay: a -o drives mount's changes as a patch pack the game view shows, and -o ro",
    "[mount][overlay][commit]") {
    skipUnlessFuse();
    PacksFolder f;
    TempDir dir;
    const stdfs::path overlay = dir / "overlay";
    stdfs::create_directories(overlay);
    const Bytes road(300, 'R');
    {
        Mount m({"-o", "drives,overlay=" + overlay.string(), f.packs.string()}, dir / "mnt", dir);
        INFO(m.errors());
        REQUIRE(m.waitMounted());
        const std::string game = quote((m.path() / "Game").string());
        auto r = run("cd " + game + " && cp shared.TXT Copy.txt && printf notes > " +
                     "Stadium/Media/notes.txt && head -c 300 /dev/zero | tr '\\0' R > " +
                     "Stadium/Media/Texture/Road.dds && touch shared.TXT && " +
                     "cat Stadium/Media/Texture/Road.dds > /dev/null");
        INFO(r.err);
        CHECK(r.code == 0);
        CHECK(readFile(m.path() / "Game/Stadium/Media/Texture/Road.dds") == road);
    }
    CHECK(readFile(overlay / "Game/Stadium/Media/Texture/Road.dds") == road);
    {
        // -o ro (as mount(8) passes it) with the overlay: the same view, read-only.
        Mount m({"-o", "ro,drives,overlay=" + overlay.string(), f.packs.string()}, dir / "mnt",
                dir);
        INFO(m.errors());
        REQUIRE(m.waitMounted());
        CHECK(readFile(m.path() / "Game/Stadium/Media/Texture/Road.dds") == road);
        CHECK(str(readFile(m.path() / "Game/Stadium/Media/notes.txt")) == "notes");
        const int fd = ::open((m.path() / "Game/more.txt").c_str(), O_WRONLY | O_CREAT, 0644);
        const int err = errno;
        CHECK(fd == -1);
        CHECK(err == EROFS);
        if (fd >= 0) ::close(fd);
    }
    CHECK_FALSE(stdfs::exists(overlay / "Game/more.txt"));
    // touch copied shared.TXT up with its content: no change for the patch.
    CHECK(str(readFile(overlay / "Game/shared.TXT")) == "com");
    const std::string args = quote(f.packs.string()) + " " + quote(overlay.string());
    auto r = run(kPak + " commit --patch Patch " + args + " -n");
    CHECK(r.code == 0);
    CHECK(r.out == "A Copy.txt\nM Stadium/Media/Texture/Road.dds\nA Stadium/Media/notes.txt\n");
    r = run(kPak + " commit --patch Patch " + args + " --packlist " +
            quote((f.packs / "packlist.dat").string()));
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(archive::readPackList(f.packs / "packlist.dat").entries.back().name == "Patch");

    // Mounted again without the overlay: the patch wins, the rest is as it was.
    Mount m({"-o", "drives", f.packs.string()}, dir / "mnt2", dir);
    INFO(m.errors());
    REQUIRE(m.waitMounted());
    CHECK(readFile(m.path() / "Game/Stadium/Media/Texture/Road.dds") == road);
    CHECK(str(readFile(m.path() / "Game/Stadium/Media/notes.txt")) == "notes");
    CHECK(str(readFile(m.path() / "Game/Copy.txt")) == "com");
    CHECK(str(readFile(m.path() / "Game/shared.TXT")) == "com");
    CHECK(readFile(m.path() / "Resource/Media/Texture/B.dds") == Bytes(200, 'b'));
}

TEST_CASE("pakfs overlay: every listing has . and .., and the overlay's own files do not show",
          "[mount][overlay]") {
    OverlayMount m;
    m.sh("printf 'x\\n' > Text/new.txt && mkdir NewFolder");
    // A changed folder, an unchanged one, a new one, the pack's folder and the mount's root.
    for (const char* folder : {"Test/Text", "Test/Data", "Test/NewFolder", "Test", ""}) {
        INFO(folder);
        auto r = run("ls -a " + quote((m.mount->path() / folder).string()));
        REQUIRE(r.code == 0);
        CHECK(r.out.rfind(".\n..\n", 0) == 0);
        if (*folder == '\0') continue;  // the mount root's parent is outside the mount
        // ".." names the parent folder's inode.
        const stdfs::path path = m.mount->path() / folder;
        DIR* d = ::opendir(path.c_str());
        REQUIRE(d);
        ino_t dotdot = 0;
        while (dirent* e = ::readdir(d))
            if (std::strcmp(e->d_name, "..") == 0) dotdot = e->d_ino;
        ::closedir(d);
        struct stat parent;
        REQUIRE(::stat(path.parent_path().c_str(), &parent) == 0);
        CHECK(dotdot == parent.st_ino);
    }
    auto r = run("ls -a " + quote(m.mount->path().string()));
    CHECK(r.out == ".\n..\nTest\n");
    // The record of the pak the changes are made over is in the overlay folder, not shown.
    auto records = commit::readOverlayRecords(m.overlay);
    REQUIRE(records.size() == 1);
    CHECK(records[0].pack == "Test");
    CHECK(records[0].state == "mounted");
    CHECK(records[0].pakPath == m.pack.pak.string());
}

TEST_CASE(
    "pakfs overlay: a file of the pack opened for reading before a change reads the new bytes, "
    "one deleted while open keeps its bytes",
    "[mount][overlay]") {
    OverlayMount m;
    auto readAll = [](int fd) {
        // Dropped from the page cache first: the reads reach the mount.
        REQUIRE(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0);
        Bytes out(1 << 20);
        std::size_t done = 0;
        for (ssize_t n; (n = ::pread(fd, out.data() + done, out.size() - done, off_t(done))) > 0;)
            done += std::size_t(n);
        out.resize(done);
        return out;
    };
    Bytes content = m.pack.file("Data/c100k.txt");
    const int reader = ::open((m / "Data/c100k.txt").c_str(), O_RDONLY);
    REQUIRE(reader >= 0);
    CHECK(readAll(reader) == content);
    // Changed through another open: copied up, then written.
    const int writer = ::open((m / "Data/c100k.txt").c_str(), O_WRONLY);
    REQUIRE(writer >= 0);
    REQUIRE(::pwrite(writer, "CHANGED", 7, 1000) == 7);
    REQUIRE(::close(writer) == 0);
    std::memcpy(content.data() + 1000, "CHANGED", 7);
    CHECK(sha256Hex(readAll(reader)) == sha256Hex(content));
    ::close(reader);

    const Bytes kept = m.pack.file("Data/r1024.bin");
    const int held = ::open((m / "Data/r1024.bin").c_str(), O_RDONLY);
    REQUIRE(held >= 0);
    REQUIRE(::unlink((m / "Data/r1024.bin").c_str()) == 0);
    CHECK_FALSE(stdfs::exists(m / "Data/r1024.bin"));
    CHECK(readAll(held) == kept);
    struct stat st;
    REQUIRE(::fstat(held, &st) == 0);
    CHECK(st.st_nlink == 0);
    CHECK(st.st_size == off_t(kept.size()));
    ::close(held);

    // A changed file replaced by a rename (an editor's save) while open: whoever has it open
    // reads and writes its bytes, the new name shows the new file; once closed, nothing of it
    // stays in the overlay folder.
    const stdfs::path work = m.overlay / ".pakfs-work";
    const int old = ::open((m / "Data/c100k.txt").c_str(), O_RDWR);
    REQUIRE(old >= 0);
    writeFile(m / "Data/c100k.txt.new", Bytes{'n', 'e', 'w'});
    REQUIRE(::rename((m / "Data/c100k.txt.new").c_str(), (m / "Data/c100k.txt").c_str()) == 0);
    CHECK(str(readFile(m / "Data/c100k.txt")) == "new");
    CHECK(sha256Hex(readAll(old)) == sha256Hex(content));
    REQUIRE(::pwrite(old, "AGAIN", 5, 0) == 5);
    std::memcpy(content.data(), "AGAIN", 5);
    CHECK(sha256Hex(readAll(old)) == sha256Hex(content));
    CHECK(str(readFile(m / "Data/c100k.txt")) == "new");
    CHECK(str(readFile(m.overlay / "Test/Data/c100k.txt")) == "new");
    // And the new one deleted while open.
    const int fresh = ::open((m / "Data/c100k.txt").c_str(), O_RDONLY);
    REQUIRE(fresh >= 0);
    REQUIRE(::unlink((m / "Data/c100k.txt").c_str()) == 0);
    CHECK(str(readAll(fresh)) == "new");
    CHECK_FALSE(stdfs::exists(m.overlay / "Test/Data/c100k.txt"));
    CHECK_FALSE(stdfs::is_empty(work));
    ::close(fresh);
    ::close(old);
    // The kernel forgets the inodes once closed (its FORGET comes on its own time).
    for (int i = 0; i < 200 && !stdfs::is_empty(work); ++i) ::usleep(20000);
    CHECK(stdfs::is_empty(work));
}

TEST_CASE("pakfs overlay: opening files costs no request, a truncating open empties the file",
          "[mount][overlay]") {
    OverlayMount m({"-d"});  // -d: libfuse logs every request
    int files = 0;
    for (const auto& e : stdfs::recursive_directory_iterator(m / "")) {
        if (!e.is_regular_file()) continue;
        CHECK(readFile(e.path()) ==
              m.pack.file(stdfs::relative(e.path(), m / "").generic_string()));
        ++files;
    }
    CHECK(files > 5);
    // A file of the pack opened with O_TRUNC (no OPEN carries the flag): empty, then written.
    const int fd = ::open((m / "Data/c100k.txt").c_str(), O_WRONLY | O_TRUNC);
    REQUIRE(fd >= 0);
    struct stat st;
    REQUIRE(::fstat(fd, &st) == 0);
    CHECK(st.st_size == 0);
    REQUIRE(::write(fd, "short", 5) == 5);
    REQUIRE(::close(fd) == 0);
    CHECK(str(readFile(m / "Data/c100k.txt")) == "short");
    CHECK(str(readFile(m.overlay / "Test/Data/c100k.txt")) == "short");
    // Cut to a length: the pack's first bytes (only those are copied up), then grown: zeros.
    const Bytes r1024 = m.pack.file("Data/r1024.bin");
    REQUIRE(::truncate((m / "Data/r1024.bin").c_str(), 100) == 0);
    CHECK(readFile(m / "Data/r1024.bin") == Bytes(r1024.begin(), r1024.begin() + 100));
    REQUIRE(::truncate((m / "Data/r1024.bin").c_str(), 150) == 0);
    Bytes grown(r1024.begin(), r1024.begin() + 100);
    grown.resize(150, 0);
    CHECK(readFile(m / "Data/r1024.bin") == grown);
    CHECK(readFile(m.overlay / "Test/Data/r1024.bin") == grown);
    // Created files hold nothing open in pakfs (no RELEASE would come to close it).
    auto openFds = [&] {
        return std::distance(
            stdfs::directory_iterator("/proc/" + std::to_string(m.mount->pid()) + "/fd"),
            stdfs::directory_iterator());
    };
    const auto fdsBefore = openFds();
    for (int i = 0; i < 20; ++i)
        writeFile(m / ("Data/created" + std::to_string(i) + ".txt"),
                  Bytes{'c', std::uint8_t('a' + i)});
    CHECK(openFds() == fdsBefore);
    CHECK(str(readFile(m / "Data/created7.txt")) == "ch");
    CHECK(str(readFile(m.overlay / "Test/Data/created7.txt")) == "ch");
    const std::string log = m.mount->errors();
    auto count = [&](const std::string& op) {
        std::size_t n = 0;
        for (std::size_t at = log.find(op); at != std::string::npos; at = log.find(op, at + 1)) ++n;
        return n;
    };
    INFO(log.substr(log.size() > 6000 ? log.size() - 6000 : 0));
    CHECK(count("opcode: READDIRPLUS") > 0);  // the log is there
    // The first OPEN is answered ENOSYS and the kernel sends no more, nor any RELEASE.
    CHECK(count("opcode: OPEN ") <= 1);
    CHECK(count("opcode: CREATE ") == 20);
    CHECK(count("opcode: RELEASE ") == 0);
    m.mount.reset();
    CHECK(stdfs::is_empty(m.overlay / ".pakfs-work"));
}
