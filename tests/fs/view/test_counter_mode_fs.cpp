// SPDX-License-Identifier: GPL-2.0-or-later
// Version 6+ files encrypted in counter mode in the pack view: EIO and one log line without
// -o unverified; with it the exact bytes, whole or in pieces at any offset, and a log line
// saying they are unproven; the user.pak.cipher attribute.
#include <fcntl.h>

#include <catch2/catch.hpp>

#include "fs/view/PackView.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/CounterPack.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
namespace fsys = std::filesystem;
using test::xattr;

namespace {

const archive::PakKey kKey = {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                              0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};

struct View {
    std::vector<std::string> log;
    std::unique_ptr<fs::PackView> f;
};

View mount(const fsys::path& pak, fs::PackViewOptions options) {
    View v;
    options.log = [log = &v.log](const std::string& line) { log->push_back(line); };
    std::vector<packs::Pack> packs{{"Counter", archive::PakIndex::open(pak, kKey)}};
    v.f = std::make_unique<fs::PackView>(std::move(packs), options);
    return v;
}

// pread of `size` bytes at `offset` through an open handle.
long readAt(fs::PackView& f, const std::string& path, std::uint64_t offset, Bytes& out,
            std::size_t size) {
    const fs::View::Ino ino = fs::inoAt(f, path);
    std::uint64_t fh = 0;
    REQUIRE(f.open(ino, O_RDONLY, &fh) == 0);
    out.assign(size, 0);
    long n = f.read(ino, fh, reinterpret_cast<char*>(out.data()), size, std::int64_t(offset));
    REQUIRE(f.release(ino, fh) == 0);
    if (n >= 0) out.resize(std::size_t(n));
    return n;
}

}  // namespace

TEST_CASE("pakfs: counter-mode files need -o unverified unless zlib proves them",
          "[fs][v6][counter]") {
    const Bytes notes = test::compressibleText(3000 + 5, 31);
    const Bytes config = test::compressibleText(40000, 32);
    Bytes map = test::randomBytes(700, 33);
    map[0] = 'G', map[1] = 'B', map[2] = 'X';
    test::TempDir dir;
    const fsys::path pak = dir / "Counter.Pack.Gbx";
    test::writeCounterPack(pak, 17, kKey,
                           {{"notes.xml", notes},
                            {"config.xml", config, archive::EntryCodec::Zlib},
                            {"Demo.Map.Gbx", map}});
    const std::string stored = pak.string() +
                               ": notes.xml: encrypted in counter mode (seekable flag) and stored "
                               "without a checksum: its bytes cannot be verified; pass "
                               "--unverified (pak) or -o unverified (pakfs) to read it unverified";
    const std::string unproven =
        "decoded in counter mode (seekable flag) without proof: stored, no checksum covers its "
        "bytes";

    // Small files whole (the default), or every file streamed (a whole-entry limit of 16).
    for (std::uint64_t wholeLimit : {std::uint64_t(0), std::uint64_t(16)}) {
        INFO("whole entry limit " << wholeLimit);
        fs::PackViewOptions options;
        options.wholeEntryLimit = wholeLimit;
        options.readAheadFiles = 0;
        {
            View v = mount(pak, options);
            Bytes got;
            CHECK(readAt(*v.f, "/Counter/notes.xml", 0, got, 4096) == -EIO);
            CHECK(readAt(*v.f, "/Counter/notes.xml", 100, got, 10) == -EIO);
            CHECK(readAt(*v.f, "/Counter/Demo.Map.Gbx", 0, got, 4096) == -EIO);
            CHECK(readAt(*v.f, "/Counter/config.xml", 0, got, 65536) == long(config.size()));
            CHECK(got == config);
            REQUIRE(v.log.size() == 2);  // one line per file
            CHECK(v.log[0] == "cannot read /Counter/notes.xml: " + stored);
            CHECK(v.log[1] ==
                  "cannot read /Counter/Demo.Map.Gbx: " + pak.string() +
                      ": Demo.Map.Gbx: encrypted in counter mode (seekable flag) and stored "
                      "without a checksum: its bytes cannot be verified; pass --unverified (pak) "
                      "or -o unverified (pakfs) to read it unverified");
            CHECK(xattr(*v.f, "/Counter/notes.xml", fs::kXattrCipher) == "counter:unverified");
            CHECK(xattr(*v.f, "/Counter/config.xml", fs::kXattrCipher) == "counter");
            CHECK(xattr(*v.f, "/Counter/Demo.Map.Gbx", fs::kXattrCipher) == "counter:unverified");
            // Listed on counter-mode files only (the pack's CBC files have none).
            const fs::View::Ino ino = fs::inoAt(*v.f, "/Counter/notes.xml");
            std::string names(256, '\0');
            long n = v.f->listxattr(ino, names.data(), names.size());
            REQUIRE(n > 0);
            names.resize(std::size_t(n));
            CHECK(names ==
                  std::string("user.pak.class_id\0user.pak.flags\0user.pak.compressed_size\0"
                              "user.pak.cipher\0",
                              n));
        }
        options.unverified = true;
        View v = mount(pak, options);
        Bytes got;
        // Pieces at offsets that cross blocks and segments, then the whole file.
        for (std::uint64_t at :
             {std::uint64_t(1000), std::uint64_t(7), std::uint64_t(255), std::uint64_t(2999)}) {
            INFO("offset " << at);
            REQUIRE(readAt(*v.f, "/Counter/notes.xml", at, got, 300) ==
                    long(std::min<std::uint64_t>(300, notes.size() - at)));
            CHECK(got == Bytes(notes.begin() + std::ptrdiff_t(at),
                               notes.begin() + std::ptrdiff_t(at + got.size())));
        }
        CHECK(readAt(*v.f, "/Counter/notes.xml", 0, got, 8192) == long(notes.size()));
        CHECK(got == notes);
        CHECK(readAt(*v.f, "/Counter/Demo.Map.Gbx", 0, got, 8192) == long(map.size()));
        CHECK(got == map);
        REQUIRE(v.log.size() == 2);  // once per file
        CHECK(v.log[0] == "warning: " + pak.string() + ": notes.xml: " + unproven);
        CHECK(v.log[1] == "warning: " + pak.string() + ": Demo.Map.Gbx: " + unproven);
    }
}

TEST_CASE("pakfs mount: cp -r of a pack with counter-mode files, without and with -o unverified",
          "[mount][v6][counter]") {
    test::skipUnlessFuse();
    const Bytes notes = test::compressibleText(3000 + 5, 41);
    const Bytes config = test::compressibleText(40000, 42);
    test::TempDir dir;
    const fsys::path pak = dir / "Counter.Pack.Gbx";
    test::writeCounterPack(
        pak, 18, kKey,
        {{"notes.xml", notes}, {"config.txt", config, archive::EntryCodec::Lz4, false}});
    const std::string key = "1032547698badcfe0123456789abcdef";
    {
        test::Mount m({"--key", key, pak.string()}, dir / "mnt", dir);
        REQUIRE(m.waitMounted());
        auto cp = test::run("cp -r " + test::quote((m.path() / "Counter").string()) + " " +
                            test::quote((dir / "copy").string()));
        CHECK(cp.code == 1);
        // cp names the file it could not read (EIO).
        CHECK((cp.out + cp.err).find("notes.xml': Input/output error") != std::string::npos);
        CHECK(test::readFile(dir / "copy/config.txt") == config);
    }
    CHECK(test::Mount::errorsOf(dir).find(
              "cannot read /Counter/notes.xml: " + pak.string() +
              ": notes.xml: encrypted in counter mode (seekable flag) and stored without a "
              "checksum: its bytes cannot be verified; pass --unverified (pak) or -o unverified "
              "(pakfs) to read it unverified") != std::string::npos);
    {
        test::Mount m({"--key", key, "-o", "unverified", pak.string()}, dir / "mnt", dir);
        REQUIRE(m.waitMounted());
        auto cp = test::run("cp -r " + test::quote((m.path() / "Counter").string()) + " " +
                            test::quote((dir / "copy2").string()));
        CHECK(cp.code == 0);
        CHECK(test::readFile(dir / "copy2/notes.xml") == notes);
        CHECK(test::readFile(dir / "copy2/config.txt") == config);
    }
    CHECK(test::Mount::errorsOf(dir).find(
              "warning: " + pak.string() +
              ": notes.xml: decoded in counter mode (seekable flag) without proof: stored, no "
              "checksum covers its bytes") != std::string::npos);
}
