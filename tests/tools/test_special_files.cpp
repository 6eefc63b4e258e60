// SPDX-License-Identifier: GPL-2.0-or-later
// A FIFO, socket or device given where pak reads a file (a pak, a packlist, a key file, a name
// list, a gbx file) is refused at once as "not a regular file": never an open that waits for a
// writer. Every run is bounded by timeout(1), so a regression fails instead of hanging.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "archive/pak/PackList.hpp"
#include "common/File.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::q;
using test::run;
namespace fs = std::filesystem;

namespace {

const std::string kPipeTestKeyString = "0123456789ABCDEF0123456789ABCDEF";

// A folder with a packlist naming MyPack, MyPack.pak, and a FIFO "pipe" with no writer.
struct PipeSetup {
    test::TempDir dir;
    fs::path pak = dir / "MyPack.pak";
    fs::path fifo = dir / "pipe";

    PipeSetup() {
        test::writeFile(dir / "src/a.txt", Bytes(100, 'a'));
        REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " MyPack --key-string " +
                    kPipeTestKeyString)
                    .code == 0);
        REQUIRE(run(kPak + " pack -q " + q(dir / "src") + " " + q(pak)).code == 0);
        REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    }
};

// `pak ARGS` under timeout(1): refused at once (exit status 1, not 124 for a timeout) with
// exactly "pak: PATH: not a regular file".
void refusedAsNotRegular(const std::string& args, const fs::path& path) {
    INFO("pak " << args);
    auto r = run("timeout 10 " + kPak + " " + args);
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + path.string() + ": not a regular file\n");
}

}  // namespace

TEST_CASE("special files: a FIFO given as the pak is refused at once by every reader",
          "[cli][special]") {
    PipeSetup s;
    const std::string fifo = q(s.fifo);
    refusedAsNotRegular("ls " + fifo, s.fifo);
    refusedAsNotRegular("ls --key " + std::string(32, '0') + " " + fifo, s.fifo);
    refusedAsNotRegular("info " + fifo, s.fifo);
    refusedAsNotRegular("check " + fifo, s.fifo);
    refusedAsNotRegular("cat " + fifo + " a.txt", s.fifo);
    refusedAsNotRegular("extract " + fifo + " " + q(s.dir / "out"), s.fifo);
    CHECK_FALSE(fs::exists(s.dir / "out"));
}

TEST_CASE("special files: a socket and a device given as the pak are refused", "[cli][special]") {
    test::TempDir dir;
    const fs::path sock = dir / "sock";
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, sock.c_str(), sizeof(addr.sun_path) - 1);
    REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0);
    refusedAsNotRegular("ls " + q(sock), sock);
    ::close(fd);
    refusedAsNotRegular("ls /dev/null", "/dev/null");
    refusedAsNotRegular("ls /dev/zero", "/dev/zero");
}

TEST_CASE("special files: a FIFO given as the packlist is refused at once", "[cli][special]") {
    PipeSetup s;
    refusedAsNotRegular("packlist ls " + q(s.fifo), s.fifo);
    refusedAsNotRegular("packlist add " + q(s.fifo) + " Other --key-string " + kPipeTestKeyString,
                        s.fifo);
    refusedAsNotRegular("ls --packlist " + q(s.fifo) + " " + q(s.pak), s.fifo);
}

TEST_CASE("special files: a FIFO given as the key file is refused at once", "[cli][special]") {
    PipeSetup s;
    refusedAsNotRegular("ls --key-file " + q(s.fifo) + " " + q(s.pak), s.fifo);
    refusedAsNotRegular(
        "pack -q --key-file " + q(s.fifo) + " " + q(s.dir / "src") + " " + q(s.dir / "Other.pak"),
        s.fifo);
    CHECK_FALSE(fs::exists(s.dir / "Other.pak"));
}

TEST_CASE("special files: a FIFO given as a name list is refused at once", "[cli][special]") {
    PipeSetup s;
    refusedAsNotRegular("ls --names " + q(s.fifo) + " " + q(s.pak), s.fifo);
    // A folder keeps its own message.
    auto r = run("timeout 10 " + kPak + " ls --names " + q(s.dir / "src") + " " + q(s.pak));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (s.dir / "src").string() + ": is a folder, not a name list\n");
}

TEST_CASE("special files: a FIFO given to pak gbx info or gbx refs is refused at once",
          "[cli][special]") {
    PipeSetup s;
    refusedAsNotRegular("gbx info " + q(s.fifo), s.fifo);
    refusedAsNotRegular("gbx refs " + q(s.fifo), s.fifo);
}

TEST_CASE("special files: openRegularFile opens regular files only, and never waits",
          "[cli][special]") {
    test::TempDir dir;
    test::writeFile(dir / "file", Bytes{'x'});
    REQUIRE(::mkfifo((dir / "pipe").c_str(), 0644) == 0);
    RegularFileOpen r = openRegularFile(dir / "file", O_RDONLY);
    REQUIRE(r.fd >= 0);
    CHECK(r.st.st_size == 1);
    // Blocking again, as any descriptor: O_NONBLOCK was only for the open.
    CHECK((::fcntl(r.fd, F_GETFL) & O_NONBLOCK) == 0);
    ::close(r.fd);
    r = openRegularFile(dir / "pipe", O_RDONLY);
    CHECK(r.fd == -1);
    CHECK(r.error == 0);
    CHECK(S_ISFIFO(r.st.st_mode));
    r = openRegularFile(dir.path(), O_RDONLY);
    CHECK(r.fd == -1);
    CHECK(r.error == 0);
    CHECK(S_ISDIR(r.st.st_mode));
    r = openRegularFile(dir / "none", O_RDONLY);
    CHECK(r.fd == -1);
    CHECK(r.error == ENOENT);
    struct stat st {};
    CHECK_THROWS_WITH(openRegularForReading(dir / "pipe", st),
                      (dir / "pipe").string() + ": not a regular file");
    CHECK_THROWS_WITH(openRegularForReading(dir.path(), st),
                      dir.path().string() + ": is a folder, not a file");
    CHECK_THROWS_WITH(openRegularForReading(dir / "none", st),
                      (dir / "none").string() + ": no such file");
}
