// SPDX-License-Identifier: GPL-2.0-or-later
// Damaged and hostile packs: clear errors naming the file, no crash, no huge allocation.
#include <catch2/catch.hpp>

#include <random>

#include "archive/codec/Streams.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/ops/Extract.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

// A pak whose header plaintext is given (no folder ivXor: callers use < 3 folders).
Bytes craftPak(Bytes header, ByteSpan data = {}) {
    header.resize(roundUp8(header.size()), 0);
    Blowfish bf(test::testKey());
    encryptSegments(header, 0, {}, bf);
    Bytes out;
    ByteWriter w(out);
    w.bytes(std::string_view("NadeoPak"));
    w.u32(3);
    w.u64(0);  // header IV
    w.bytes(header);
    w.bytes(data);
    return out;
}

Bytes headerStart(std::uint32_t numFolders) {
    Bytes h(16 + 16 + 16 + 4, 0);
    ByteWriter w(h);
    w.u32(numFolders);
    return h;
}

// The error opening `p` and reading every entry gives, or "" when there is none.
std::string openError(const fs::path& p) {
    try {
        auto pak = PakIndex::open(p, test::testKey());
        for (const auto& e : pak->entries()) readEntry(pak, e);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

fs::path samplePak(const test::TempDir& dir) {
    test::TempDir tree;
    std::string text;
    for (int i = 0; i < 3000; ++i) text += "line " + std::to_string(i) + "\n";
    test::writeFile(tree / "Folder/Sub/AnotherFolder/a.txt", Bytes(text.begin(), text.end()));
    test::writeFile(tree / "Folder/b.bin", Bytes(700, 0x5A));
    Bytes rnd(3000);
    std::mt19937 rng(1);
    for (auto& b : rnd) b = std::uint8_t(rng());
    test::writeFile(tree / "c.raw", rnd);
    writePak(tree.path(), dir / "sample.pak", test::testKey(), {});
    return dir / "sample.pak";
}

}  // namespace

TEST_CASE("bad input: not a pak, bad magic, unsupported version", "[pak][errors]") {
    test::TempDir dir;
    test::writeFile(dir / "empty.pak", {});
    CHECK(openError(dir / "empty.pak") ==
          (dir / "empty.pak").string() + ": not a pak file (too short for a header)");
    Bytes junk(100, 'x');
    test::writeFile(dir / "junk.pak", junk);
    CHECK(openError(dir / "junk.pak") ==
          (dir / "junk.pak").string() + ": not a pak file (no \"NadeoPak\" magic)");
    Bytes v4 = craftPak(headerStart(0));
    v4[8] = 4;
    test::writeFile(dir / "v4.pak", v4);
    CHECK(openError(dir / "v4.pak") ==
          (dir / "v4.pak").string() +
              ": unsupported pak version 4 (versions 3 and 6 to 18 are supported)");
    CHECK(openError(dir / "missing.pak") == (dir / "missing.pak").string() + ": no such file");
}

TEST_CASE("bad input: absurd counts and sizes are refused before allocating", "[pak][errors]") {
    test::TempDir dir;
    SECTION("folder count 0xFFFFFFFF") {
        test::writeFile(dir / "p.pak", craftPak(headerStart(0xFFFFFFFF), Bytes(64, 0)));
        CHECK_THAT(openError(dir / "p.pak"),
                   Catch::Contains("wrong key or damaged header") &&
                       Catch::Contains("folder count 4294967295 does not fit"));
    }
    SECTION("file count 0xFFFFFFFF") {
        Bytes h = headerStart(0);
        ByteWriter(h).u32(0xFFFFFFFF);
        test::writeFile(dir / "p.pak", craftPak(h));
        CHECK_THAT(openError(dir / "p.pak"), Catch::Contains("file count 4294967295 does not fit"));
    }
    SECTION("name length 0xFFFFFFF0") {
        Bytes h = headerStart(1);
        ByteWriter w(h);
        w.u32(0xFFFFFFFF);
        w.u32(0xFFFFFFF0);
        test::writeFile(dir / "p.pak", craftPak(h, Bytes(64, 0)));
        CHECK_THAT(openError(dir / "p.pak"), Catch::Contains("string length 4294967280 is absurd"));
    }
    SECTION("folder parent out of range") {
        Bytes h = headerStart(1);
        ByteWriter w(h);
        w.u32(7);
        w.string("x\\");
        w.u32(0);
        test::writeFile(dir / "p.pak", craftPak(h, Bytes(64, 0)));
        CHECK_THAT(openError(dir / "p.pak"),
                   Catch::Contains("folder 0 has parent index 7 out of range"));
    }
    SECTION("folder parents that loop") {
        Bytes h = headerStart(2);
        ByteWriter w(h);
        w.u32(1);
        w.string("x\\");
        w.u32(0);
        w.string("y\\");
        w.u32(0);
        Bytes plain = h;
        // A valid data offset and MD5, so the loop itself is what is reported.
        storeLE32(plain.data() + 20, std::uint32_t(0x14 + roundUp8(plain.size())));
        Md5Digest d = md5(plain);
        std::copy(d.begin(), d.end(), plain.begin());
        test::writeFile(dir / "p.pak", craftPak(plain, Bytes(64, 0)));
        CHECK(openError(dir / "p.pak") ==
              (dir / "p.pak").string() + ": damaged header (folder 0 is its own ancestor)");
    }
}

TEST_CASE("bad input: a wrong key", "[pak][errors]") {
    test::TempDir dir;
    fs::path p = samplePak(dir);
    PakKey wrong = test::testKey();
    wrong[15] ^= 0x80;
    CHECK_THROWS_WITH(PakIndex::open(p, wrong),
                      Catch::StartsWith(p.string() + ": wrong key or damaged header"));
}

TEST_CASE("bad input: truncation at every 64th byte and near the end", "[pak][errors]") {
    test::TempDir dir;
    fs::path p = samplePak(dir);
    Bytes whole = test::readFile(p);
    std::vector<std::size_t> cuts;
    for (std::size_t n = 0; n < whole.size(); n += 64) cuts.push_back(n);
    for (std::size_t n = whole.size() - 300; n < whole.size(); ++n) cuts.push_back(n);
    for (std::size_t n : cuts) {
        INFO("cut at " << n);
        Bytes part(whole.begin(), whole.begin() + std::ptrdiff_t(n));
        test::writeFile(dir / "cut.pak", part);
        std::string err = openError(dir / "cut.pak");
        // Cutting into the metadata section (after all data) leaves entries readable, with a
        // metadata warning; anything earlier must fail with a message naming the file.
        if (err.empty()) {
            auto pak = PakIndex::open(dir / "cut.pak", test::testKey());
            CHECK_FALSE(pak->metadataError().empty());
        } else {
            CHECK_THAT(err, Catch::StartsWith((dir / "cut.pak").string() + ": "));
        }
    }
}

TEST_CASE("bad input: bit flips never crash and never pass silently in the header",
          "[pak][errors]") {
    test::TempDir dir;
    fs::path p = samplePak(dir);
    Bytes whole = test::readFile(p);
    auto pak = PakIndex::open(p, test::testKey());
    std::size_t headerEnd = pak->dataOffset();
    std::mt19937 rng(42);
    for (int i = 0; i < 300; ++i) {
        Bytes flipped = whole;
        std::size_t at = 12 + rng() % (whole.size() - 12);
        flipped[at] ^= std::uint8_t(1u << (rng() % 8));
        test::writeFile(dir / "flip.pak", flipped);
        INFO("flip at " << at);
        std::string err = openError(dir / "flip.pak");
        if (at < headerEnd) CHECK_THAT(err, Catch::Contains("wrong key or damaged header"));
        // Elsewhere a flip may hit data (zlib error or changed bytes) or padding; it must not
        // crash.
    }
}

TEST_CASE("safe paths: what extraction refuses", "[pak][extract][errors]") {
    std::string why;
    CHECK(safeComponents("a/b/c.txt").value() == std::vector<std::string>{"a", "b", "c.txt"});
    CHECK_FALSE(safeComponents("../evil", &why));
    CHECK(why == "path component \".\" or \"..\"");
    CHECK_FALSE(safeComponents("/etc/passwd", &why));
    CHECK(why == "absolute path");
    CHECK_FALSE(safeComponents("a//b", &why));
    CHECK(why == "empty path component");
    CHECK_FALSE(safeComponents(std::string("a\0b", 3), &why));
    CHECK(why == "path contains a NUL byte");
    CHECK_FALSE(safeComponents("", &why));
    CHECK_FALSE(safeComponents("a/./b", &why));
}

TEST_CASE("extraction never follows a symlink out of the target folder", "[pak][extract][errors]") {
    test::TempDir tree, out, target, outside;
    test::writeFile(tree / "link/x.txt", Bytes{'h', 'i'});
    writePak(tree.path(), out / "p.pak", test::testKey(), {});
    auto pak = PakIndex::open(out / "p.pak", test::testKey());
    fs::create_directory_symlink(outside.path(), target / "link");
    std::vector<std::string> errors;
    ExtractOptions o;
    o.error = [&](const std::string& m) { errors.push_back(m); };
    ExtractResult r = extractEntries(pak, {&pak->entries()[0]}, target.path(), o);
    CHECK(r.failed == 1);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains("link/x.txt: cannot open folder \"link\""));
    CHECK_FALSE(fs::exists(outside / "x.txt"));
}

TEST_CASE("bad input: a damaged zlib checksum is an error, not wrong bytes", "[pak][errors]") {
    test::TempDir tree, dir;
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "row " + std::to_string(i) + "\n";
    test::writeFile(tree / "t.txt", Bytes(text.begin(), text.end()));
    writePak(tree.path(), dir / "p.pak", test::testKey(), {});
    auto pak = PakIndex::open(dir / "p.pak", test::testKey());
    const PakEntry& e = pak->entries()[0];
    REQUIRE(e.compressed());
    // Re-encrypt the entry with one byte of the Adler-32 trailer changed.
    Bytes file = test::readFile(dir / "p.pak");
    std::size_t at = std::size_t(pak->entryOffset(e));
    std::uint64_t iv = loadLE64(file.data() + at);
    Bytes plain(file.begin() + std::ptrdiff_t(at + 8),
                file.begin() + std::ptrdiff_t(at + 8 + e.cipherSize()));
    std::uint64_t ivDec = iv;
    Blowfish bf(test::testKey());
    bf.cbcDecrypt(plain.data(), plain.size(), ivDec);
    plain[e.compressedSize - 1] ^= 0x01;
    std::uint64_t ivEnc = iv;
    bf.cbcEncrypt(plain.data(), plain.size(), ivEnc);
    std::copy(plain.begin(), plain.end(), file.begin() + std::ptrdiff_t(at + 8));
    test::writeFile(dir / "damaged.pak", file);
    auto damaged = PakIndex::open(dir / "damaged.pak", test::testKey());
    CHECK_THROWS_WITH(readEntry(damaged, damaged->entries()[0]),
                      (dir / "damaged.pak").string() +
                          ": t.txt: corrupt compressed data (zlib: incorrect data check)");
}
