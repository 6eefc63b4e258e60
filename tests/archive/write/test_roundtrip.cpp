// SPDX-License-Identifier: GPL-2.0-or-later
// pak pack -> read back, on generated trees.
#include <catch2/catch.hpp>

#include <random>

#include "archive/codec/Streams.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/ops/Extract.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

// Packs `tree`, reads every entry back and compares with the files.
void checkRoundTrip(const fs::path& tree, const PackOptions& options = {}) {
    test::TempDir out;
    PakKey key = test::testKey();
    auto pakPath = out / "test.pak";
    writePak(tree, pakPath, key, options);
    auto pak = PakIndex::open(pakPath, key);
    std::size_t files = 0;
    for (auto it = fs::recursive_directory_iterator(tree); it != fs::recursive_directory_iterator();
         ++it)
        if (it->is_regular_file()) ++files;
    REQUIRE(pak->entries().size() == files);
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        Bytes want = test::readFile(tree / e.path);
        Bytes got = readEntry(pak, e);
        REQUIRE(got.size() == want.size());
        CHECK(got == want);
    }
}

}  // namespace

TEST_CASE("round trip: sizes around 8, 256 and 1024 byte boundaries, stored and compressed",
          "[pak][roundtrip]") {
    test::TempDir tree;
    std::uint32_t seed = 1;
    for (std::size_t n : {0, 1, 7, 8, 9, 15, 16, 255, 256, 257, 263, 264, 1023, 1024, 1025, 4095,
                          4096, 65536, 300000}) {
        test::writeFile(tree / ("random/r" + std::to_string(n) + ".bin"),
                        test::randomBytes(n, seed++));
        test::writeFile(tree / ("text/t" + std::to_string(n) + ".txt"),
                        test::compressibleText(n, seed++));
    }
    SECTION("level 9") {
        checkRoundTrip(tree.path());
    }
    SECTION("level 1") {
        PackOptions o;
        o.level = 1;
        checkRoundTrip(tree.path(), o);
    }
    SECTION("stored (level 0)") {
        PackOptions o;
        o.level = 0;
        checkRoundTrip(tree.path(), o);
    }
}

TEST_CASE("round trip: deep folders and a long third folder name (header ivXor)",
          "[pak][roundtrip]") {
    test::TempDir tree;
    // Folders are taken in sorted order: the third is "a/b/ThirdLongName".
    std::string deep = "a/b/ThirdLongName/d/e/f/g/h/i/j/k";
    test::writeFile(tree / deep / "leaf.txt", test::compressibleText(100, 3));
    test::writeFile(tree / "a/top.bin", test::randomBytes(300, 4));
    // Enough entries that the file table crosses many 256-byte segments.
    for (int i = 0; i < 200; ++i)
        test::writeFile(
            tree / ("a/b/ThirdLongName/file_with_a_long_name_" + std::to_string(i) + ".txt"),
            test::compressibleText(std::size_t(i * 13), std::uint32_t(i)));
    test::TempDir out;
    writePak(tree.path(), out / "x.pak", test::testKey(), {});
    auto pak = PakIndex::open(out / "x.pak", test::testKey());
    REQUIRE(pak->folders().size() >= 3);
    CHECK(pak->folders()[2].name == "ThirdLongName\\");
    CHECK(pak->headerIvXor() != 0);
    checkRoundTrip(tree.path());
}

TEST_CASE("round trip: folder list ending exactly on a segment boundary", "[pak][roundtrip]") {
    // Header before folders: 16+16+16+4+4 = 56 bytes; each folder adds 8 + name length.
    // Three folders with names summing to 256-56-24 = 176 bytes end the folder list at 256.
    test::TempDir tree;
    std::string n1(60, 'a'), n2(60, 'b'), n3(53, 'c');  // + backslash each = 176
    test::writeFile(tree / n1 / "x.txt", test::compressibleText(10, 1));
    test::writeFile(tree / n1 / n2 / "y.txt", test::compressibleText(10, 2));
    test::writeFile(tree / n1 / n2 / n3 / "z.txt", test::compressibleText(10, 3));
    for (int i = 0; i < 40; ++i)
        test::writeFile(tree / n1 / ("f" + std::to_string(i)), test::compressibleText(5, 9));
    checkRoundTrip(tree.path());
}

TEST_CASE("round trip: thousands of entries", "[pak][roundtrip]") {
    test::TempDir tree;
    for (int d = 0; d < 20; ++d)
        for (int f = 0; f < 150; ++f)
            test::writeFile(
                tree / ("dir" + std::to_string(d)) / ("file" + std::to_string(f) + ".dat"),
                test::randomBytes(std::size_t(f % 17), std::uint32_t(d * 1000 + f)));
    checkRoundTrip(tree.path());
}

TEST_CASE("round trip: extraction writes the same tree", "[pak][roundtrip][extract]") {
    test::TempDir tree, out, target;
    test::writeFile(tree / "A/B/c.txt", test::compressibleText(5000, 1));
    test::writeFile(tree / "A/d.bin", test::randomBytes(777, 2));
    test::writeFile(tree / "e", {});
    fs::create_directories(tree / "Empty/Inner");
    writePak(tree.path(), out / "p.pak", test::testKey(), {});
    auto pak = PakIndex::open(out / "p.pak", test::testKey());
    std::vector<const PakEntry*> all;
    for (const auto& e : pak->entries()) all.push_back(&e);
    std::vector<const PakFolder*> folders;
    for (const auto& f : pak->folders()) folders.push_back(&f);
    ExtractOptions o;
    o.jobs = 3;
    ExtractResult r = extractEntries(pak, all, target.path(), o, folders);
    CHECK(fs::is_directory(target / "Empty/Inner"));
    CHECK(r.failed == 0);
    CHECK(r.written == 3);
    for (const char* p : {"A/B/c.txt", "A/d.bin", "e"})
        CHECK(test::readFile(target / p) == test::readFile(tree / p));
}

TEST_CASE("the fast path and the exact pipeline agree on plain entries", "[pak][pipeline]") {
    test::TempDir tree, out;
    test::writeFile(tree / "t.txt", test::compressibleText(200000, 5));
    test::writeFile(tree / "r.bin", test::randomBytes(5000, 6));
    writePak(tree.path(), out / "p.pak", test::testKey(), {});
    auto pak = PakIndex::open(out / "p.pak", test::testKey());
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        Bytes fast = readEntry(pak, e);
        // Exact path: 256-byte segments and the 0x100/0x400 zlib stage.
        std::uint64_t at = pak->entryOffset(e);
        std::uint64_t iv = loadLE64(pak->file()->readAt(at, 8).data());
        CryptedStream crypted(ByteRange(pak->file(), at + 8, e.cipherSize()), &pak->cipher(), iv,
                              e.compressed() ? e.cipherSize() : e.uncompressedSize);
        Bytes exact(e.uncompressedSize);
        if (e.compressed()) {
            ZlibStage z(crypted, e.compressedSize, e.uncompressedSize, e.path);
            z.read(exact);
        } else {
            crypted.read(exact);
        }
        CHECK(exact == fast);
    }
}

TEST_CASE(
    "crypted stream: a file read ahead gives the bytes memory gives, and a cut one fails "
    "where it is cut",
    "[pak][pipeline]") {
    test::TempDir dir;
    const Blowfish cipher(test::testKey());
    // Beyond three reads ahead of 64 KiB, and not a whole number of them.
    const Bytes raw = test::randomBytes(200 * 1024 + 8 * 37, 11);
    const std::uint64_t size = raw.size() - 8, iv = 0x0123456789ABCDEFull;
    test::writeFile(dir / "whole", raw);
    CryptedStream fromFile(ByteRange(InputFile::open(dir / "whole"), 8, size), &cipher, iv, size);
    CryptedStream fromMemory(ByteRange(ByteSpan(raw).subspan(8)), &cipher, iv, size);
    Bytes a(size), b(size);
    // Reads of odd sizes with an ivXor mixed in after each, as the gbx reader makes them.
    for (std::size_t at = 0; at < size; at += 1000) {
        const std::size_t n = std::min<std::size_t>(1000, size - at);
        fromFile.read({a.data() + at, n});
        fromMemory.read({b.data() + at, n});
        fromFile.mixIvXor({a.data() + at, std::min<std::size_t>(n, 13)});
        fromMemory.mixIvXor({b.data() + at, std::min<std::size_t>(n, 13)});
    }
    CHECK(a == b);

    // The file ends 100 bytes into the segment at 150 KiB of a range declared whole.
    const std::uint64_t held = 150 * 1024;
    test::writeFile(dir / "cut", ByteSpan(raw).first(8 + held + 100));
    CryptedStream cut(ByteRange(InputFile::open(dir / "cut"), 8, size), &cipher, iv, size);
    CryptedStream whole(ByteRange(ByteSpan(raw).subspan(8)), &cipher, iv, size);
    Bytes c(held), d(held);
    cut.read(c);
    whole.read(d);
    CHECK(c == d);
    Bytes next(256);
    CHECK_THROWS_WITH(cut.read(next), (dir / "cut").string() +
                                          ": file is truncated (needs 256 bytes at offset " +
                                          std::to_string(8 + held) + ", file has " +
                                          std::to_string(8 + held + 100) + ")");
}

TEST_CASE("plain zlib entries: the whole-buffer inflater and the streaming zlib path agree",
          "[pak][inflate]") {
    // Read from the start without a seek index, a zlib entry goes through libdeflate in one
    // call; with an index (the mount's large files) it streams through zlib. Same bytes,
    // for sync-flushed streams too.
    test::TempDir tree, out;
    test::writeFile(tree / "text.txt", test::compressibleText(300000, 1));
    test::writeFile(tree / "mixed.bin", test::compressibleText(20000, 2));
    PakKey key = test::testKey();
    for (std::size_t sync : {std::size_t(0), std::size_t(4096)}) {
        PackOptions options;
        options.syncFlushEvery = sync;
        writePak(tree.path(), out / "z.pak", key, options);
        auto pak = PakIndex::open(out / "z.pak", key);
        for (const auto& e : pak->entries()) {
            INFO(e.path << " sync " << sync);
            REQUIRE(e.compressed());
            Bytes whole(e.uncompressedSize), streamed(e.uncompressedSize);
            PlainEntryReader fast(pak, e);
            REQUIRE(fast.read(whole.data(), whole.size()) == whole.size());
            PlainEntryReader slow(pak, e,
                                  ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8)));
            REQUIRE(slow.read(streamed.data(), streamed.size()) == streamed.size());
            CHECK(whole == test::readFile(tree / e.path));
            CHECK(streamed == whole);
        }
    }
}
