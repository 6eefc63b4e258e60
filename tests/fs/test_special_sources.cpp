// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs given a FIFO where it reads a file (the SOURCE, the packlist, the key file, a name list)
// refuses it at once as "not a regular file", before mounting: never an open that waits for a
// writer. Every run is bounded by timeout(1), so a regression fails instead of hanging.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "tests/fs/MountFixture.hpp"
#include "tests/support/PakFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

TEST_CASE("pakfs special files: a FIFO as source, packlist, key file or name list is refused",
          "[mount][special]") {
    skipUnlessFuse();
    TestPack pack = makeTestPack();
    TempDir dir;
    const stdfs::path base = stdfs::canonical(dir.path());
    const stdfs::path fifo = base / "pipe.pak", mnt = base / "mnt";
    stdfs::create_directories(mnt);
    REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    const std::string pak = quote(pack.pak.string()), m = quote(mnt.string());
    const std::string f = quote(fifo.string());
    for (const std::string& args :
         {"--key " + std::string(kTestKeyHex) + " " + f + " " + m, f + " " + m,
          "--packlist " + f + " " + pak + " " + m, "--key-file " + f + " " + pak + " " + m,
          "--key " + std::string(kTestKeyHex) + " -o names=" + f + " " + pak + " " + m}) {
        INFO("pakfs " << args);
        auto r = run("timeout -s KILL 10 " + kPakfs + " " + args);
        if (isMounted(mnt)) run("fusermount3 -u -z " + m);
        CHECK(r.code == 1);
        CHECK(r.err == "pakfs: " + fifo.string() + ": not a regular file\n");
        CHECK_FALSE(isMounted(mnt));
    }
}
