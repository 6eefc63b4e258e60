// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points against a straight decode from the start.
#include <catch2/catch.hpp>
#include <random>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/entry/SeekPoints.hpp"
#include "tests/fs/PakFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;

namespace {
const archive::PakEntry& entryAt(const archive::PakIndex& pak, const std::string& path) {
    for (const auto& e : pak.entries())
        if (e.path == path) return e;
    FAIL("no entry " << path);
    throw 0;
}
}  // namespace

TEST_CASE("pakfs seek: seek points resume decoding mid-stream with the same bytes", "[seek]") {
    std::map<std::string, Bytes> files;
    files["big.txt"] = compressibleText(5 * 1024 * 1024 + 3, 11);
    TestPack t = makeTestPack(files);
    auto pak = archive::PakIndex::open(t.pak, kTestKey);
    const auto& entry = entryAt(*pak, "big.txt");
    REQUIRE(entry.compressed());
    const Bytes& want = t.file("big.txt");
    REQUIRE(archive::readEntry(pak, entry) == want);

    auto index = std::make_shared<archive::SeekIndex>(128 * 1024, 1000);
    {
        // One pass from the start leaves points behind.
        archive::PlainEntryReader reader(pak, entry, index);
        Bytes all(want.size());
        REQUIRE(reader.read(all.data(), all.size()) == all.size());
        CHECK(all == want);
    }
    // Points fall on deflate block ends: libdeflate's blocks hold about 300 KiB of this text.
    CHECK(index->size() > 12);
    CHECK(index->size() <= want.size() / index->span() + 1);

    archive::PlainEntryReader reader(pak, entry, index);
    std::mt19937_64 rng(5);
    std::uint64_t decodedBefore = reader.decodedBytes();
    const int reads = 200;
    for (int i = 0; i < reads; ++i) {
        std::uint64_t off = rng() % want.size();
        std::size_t n = std::size_t(rng() % 20000) + 1;
        reader.seek(off);
        CHECK(reader.position() == off);
        Bytes got(n);
        got.resize(reader.read(got.data(), n));
        REQUIRE(got.size() == std::min<std::size_t>(n, want.size() - off));
        REQUIRE(std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(off)));
    }
    // Each random read decodes at most one span plus the read, not the file up to the offset.
    std::uint64_t decoded = reader.decodedBytes() - decodedBefore;
    CHECK(decoded < std::uint64_t(reads) * (index->span() + 20000 + 64 * 1024));
}

TEST_CASE("pakfs seek: seek points are added while reading and bounded in number", "[seek]") {
    std::map<std::string, Bytes> files;
    files["big.txt"] = compressibleText(3 * 1024 * 1024, 12);
    TestPack t = makeTestPack(files);
    auto pak = archive::PakIndex::open(t.pak, kTestKey);
    const auto& entry = entryAt(*pak, "big.txt");
    const Bytes& want = t.file("big.txt");

    auto index = std::make_shared<archive::SeekIndex>(64 * 1024, 8);
    archive::PlainEntryReader reader(pak, entry, index);
    // Backwards jumps from the end: each restart finds a point no later than the target.
    for (std::uint64_t off = want.size() - 1000; off > 1000; off = off * 2 / 3) {
        reader.seek(off);
        Bytes got(1000);
        REQUIRE(reader.read(got.data(), got.size()) == got.size());
        REQUIRE(std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(off)));
    }
    CHECK(index->size() == 8);
    CHECK(index->memoryBytes() <= 8 * (archive::kInflateWindow + sizeof(archive::SeekPoint)));
    CHECK(archive::SeekIndex::spanFor(1000, 4 << 20, 64) == 4 << 20);
    CHECK(archive::SeekIndex::spanFor(std::uint64_t(1) << 32, 4 << 20, 64) >
          (std::uint64_t(1) << 32) / 64);
}

TEST_CASE("pakfs seek: stored entries read from any offset without seek points", "[seek]") {
    std::map<std::string, Bytes> files;
    files["random.bin"] = randomBytes(700 * 1024 + 5, 13);
    TestPack t = makeTestPack(files);
    auto pak = archive::PakIndex::open(t.pak, kTestKey);
    const auto& entry = entryAt(*pak, "random.bin");
    REQUIRE_FALSE(entry.compressed());
    const Bytes& want = t.file("random.bin");
    archive::PlainEntryReader reader(pak, entry);
    std::mt19937_64 rng(6);
    for (int i = 0; i < 300; ++i) {
        std::uint64_t off = rng() % (want.size() + 1);
        reader.seek(off);
        Bytes got(std::size_t(rng() % 5000) + 1);
        got.resize(reader.read(got.data(), got.size()));
        REQUIRE(got.size() == std::min<std::size_t>(got.capacity(), want.size() - off));
        REQUIRE(std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(off)));
    }
    CHECK(reader.decodedBytes() < 300 * 5000);
}

TEST_CASE("pakfs seek: seek readers agree with the sequential decoder on every file size",
          "[seek]") {
    auto files = smallFiles();
    TestPack t = makeTestPack(files);
    auto pak = archive::PakIndex::open(t.pak, kTestKey);
    for (const auto& entry : pak->entries()) {
        INFO(entry.path);
        Bytes want = archive::readEntry(pak, entry);
        auto index = std::make_shared<archive::SeekIndex>(1024, 100);
        archive::PlainEntryReader reader(pak, entry, index);
        Bytes got(want.size() + 10);
        got.resize(reader.read(got.data(), got.size()));
        CHECK(got == want);
        if (want.size() > 3) {
            reader.seek(want.size() / 3);
            Bytes tail(want.size());
            tail.resize(reader.read(tail.data(), tail.size()));
            CHECK(std::equal(tail.begin(), tail.end(),
                             want.begin() + std::ptrdiff_t(want.size() / 3)));
            CHECK(tail.size() == want.size() - want.size() / 3);
        }
    }
}
