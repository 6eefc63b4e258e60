// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points against a straight decode from the start.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <random>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/stream/SeekPoints.hpp"
#include "fs/view/SeekIndexFile.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/TestUtil.hpp"

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
    auto pak = archive::PakIndex::open(t.pak, testKey());
    const auto& entry = entryAt(*pak, "big.txt");
    REQUIRE(entry.compressed());
    const Bytes& want = t.file("big.txt");
    REQUIRE(archive::readEntry(pak, entry) == want);

    auto index = std::make_shared<archive::SeekIndex>(128 * 1024, 1000);
    {
        // One pass from the start leaves points behind.
        archive::PlainEntryReader reader(pak, entry, archive::ReadRequest::points(index));
        Bytes all(want.size());
        REQUIRE(reader.read(all.data(), all.size()) == all.size());
        CHECK(all == want);
    }
    // Points fall on deflate block ends: libdeflate's blocks hold about 300 KiB of this text.
    CHECK(index->size() > 12);
    CHECK(index->size() <= want.size() / index->span() + 1);

    archive::PlainEntryReader reader(pak, entry, archive::ReadRequest::points(index));
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

    // A little ahead: a seek resumes nearer than decoding on only when a point lies between.
    const auto points = index->points();
    REQUIRE(points.size() > 3);
    const std::uint64_t p1 = points[1]->out, p2 = points[2]->out;
    reader.seek(p1 + 10);
    CHECK_FALSE(reader.seekResumesNearer(p1 + 20));
    CHECK_FALSE(reader.seekResumesNearer(p1));
    CHECK(reader.seekResumesNearer(p2));
    CHECK(reader.seekResumesNearer(p2 + 100));
    const std::uint64_t before = reader.decodedBytes();
    reader.seek(p2 + 100);
    Bytes got(100);
    REQUIRE(reader.read(got.data(), got.size()) == got.size());
    CHECK(std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(p2 + 100)));
    // Resumed at p2: about 200 bytes decoded, not the span between the two points.
    CHECK(reader.decodedBytes() - before < p2 - p1);
}

TEST_CASE("pakfs seek: seek points are added while reading and bounded in number", "[seek]") {
    std::map<std::string, Bytes> files;
    files["big.txt"] = compressibleText(3 * 1024 * 1024, 12);
    TestPack t = makeTestPack(files);
    auto pak = archive::PakIndex::open(t.pak, testKey());
    const auto& entry = entryAt(*pak, "big.txt");
    const Bytes& want = t.file("big.txt");

    auto index = std::make_shared<archive::SeekIndex>(64 * 1024, 8);
    archive::PlainEntryReader reader(pak, entry, archive::ReadRequest::points(index));
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
    auto pak = archive::PakIndex::open(t.pak, testKey());
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
    auto pak = archive::PakIndex::open(t.pak, testKey());
    for (const auto& entry : pak->entries()) {
        INFO(entry.path);
        Bytes want = archive::readEntry(pak, entry);
        auto index = std::make_shared<archive::SeekIndex>(1024, 100);
        archive::PlainEntryReader reader(pak, entry, archive::ReadRequest::points(index));
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

namespace {

// The big text entry of a fresh pack, its bytes, and an index filled by one recording pass.
struct IndexedEntry {
    TestPack t;
    std::shared_ptr<const archive::PakIndex> pak;
    const archive::PakEntry* entry = nullptr;
    std::shared_ptr<archive::SeekIndex> index;
    const Bytes& want() const { return t.file("big.txt"); }
};

IndexedEntry indexedEntry(std::size_t size, std::uint64_t seed, std::uint64_t span = 64 * 1024) {
    std::map<std::string, Bytes> files;
    files["big.txt"] = compressibleText(size, seed);
    IndexedEntry e{makeTestPack(files), nullptr, nullptr, nullptr};
    e.pak = archive::PakIndex::open(e.t.pak, testKey());
    e.entry = &entryAt(*e.pak, "big.txt");
    e.index = std::make_shared<archive::SeekIndex>(span, 4096);
    archive::PlainEntryReader pass(e.pak, *e.entry, archive::ReadRequest::points(e.index));
    Bytes all(size);
    REQUIRE(pass.read(all.data(), all.size()) == size);
    REQUIRE(all == e.want());
    return e;
}

// Reads `n` bytes at `off` with `reader` and checks them against `want`.
void checkRead(archive::PlainEntryReader& reader, const Bytes& want, std::uint64_t off,
               std::size_t n) {
    reader.seek(off);
    REQUIRE(reader.position() == std::min<std::uint64_t>(off, want.size()));
    Bytes got(n);
    got.resize(reader.read(got.data(), n));
    REQUIRE(got.size() ==
            std::min<std::uint64_t>(n, want.size() - std::min<std::uint64_t>(off, want.size())));
    REQUIRE(std::equal(got.begin(), got.end(), want.begin() + std::ptrdiff_t(off)));
}

// Offsets around every point (at it, just before, just after), the entry's ends, and random
// ones.
std::vector<std::uint64_t> offsetsAround(const archive::SeekIndex& index, std::uint64_t size,
                                         std::uint64_t seed) {
    std::vector<std::uint64_t> out{0, 1, size - 1, size - 4096, size};
    for (const auto& p : index.points())
        for (std::uint64_t o : {p->out - 1, p->out, p->out + 1}) out.push_back(o);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 100; ++i) out.push_back(rng() % size);
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

}  // namespace

TEST_CASE(
    "pakfs seek: points sit at block ends with deflated windows, and readers that only "
    "look them up resume through ISA-L with the same bytes",
    "[seek]") {
    IndexedEntry e = indexedEntry(4 * 1024 * 1024 + 77, 21);
    const Bytes& want = e.want();
    REQUIRE(e.index->size() >= 8);
    std::size_t deflated = 0;
    for (const auto& p : e.index->points()) {
        REQUIRE(p->windowSize == archive::kInflateWindow);
        if (p->windowDeflated) ++deflated;
        // The window is the output just before the point.
        Bytes window(p->windowSize);
        p->windowBytes(window.data());
        REQUIRE(std::equal(window.begin(), window.end(),
                           want.begin() + std::ptrdiff_t(p->out - p->windowSize)));
    }
    CHECK(deflated == e.index->size());  // text deflates
    CHECK(e.index->memoryBytes() < e.index->size() * archive::kInflateWindow / 2);

    archive::PlainEntryReader reader(
        e.pak, *e.entry, archive::ReadRequest::points(e.index, archive::PointUse::LookUp));
    for (std::uint64_t off : offsetsAround(*e.index, want.size(), 22))
        checkRead(reader, want, off, 4096);
    // A read across several points at once.
    checkRead(reader, want, 100, 3 * 1024 * 1024);
}

TEST_CASE(
    "pakfs seek: a point whose window is damaged is an error naming the entry, never "
    "wrong bytes",
    "[seek]") {
    IndexedEntry e = indexedEntry(2 * 1024 * 1024, 23);
    auto damaged = std::make_shared<archive::SeekIndex>(e.index->span(), 4096);
    for (const auto& p : e.index->points()) {
        auto q = std::make_shared<archive::SeekPoint>(*p);
        q->window[q->window.size() / 2] ^= 0x55;
        q->window.resize(q->window.size() - 3);
        damaged->add(q);
    }
    const auto p = damaged->points().at(1);
    for (bool record : {true, false}) {
        archive::PlainEntryReader reader(
            e.pak, *e.entry,
            archive::ReadRequest::points(
                damaged, record ? archive::PointUse::Record : archive::PointUse::LookUp));
        REQUIRE_THROWS_WITH(reader.seek(p->out + 10),
                            Catch::Contains("big.txt") && Catch::Contains("damaged"));
    }
}

TEST_CASE("pakfs seek: a memory budget thins the points out over the whole entry", "[seek]") {
    IndexedEntry e = indexedEntry(3 * 1024 * 1024, 24);
    const std::size_t all = e.index->size();
    REQUIRE(all >= 6);
    // Room for about a third of them: every other one goes, then every other again.
    const std::size_t budget = e.index->memoryBytes() / 3;
    auto thin = std::make_shared<archive::SeekIndex>(e.index->span(), 4096, budget);
    for (const auto& p : e.index->points()) thin->add(p);
    CHECK(thin->memoryBytes() <= budget);
    CHECK(thin->size() >= all / 4);
    CHECK(thin->size() <= all / 2 + 1);
    CHECK(thin->currentSpan() >= 4 * e.index->span());
    CHECK(thin->points().back()->out > e.want().size() / 2);  // not only the first ones
    archive::PlainEntryReader reader(e.pak, *e.entry,
                                     archive::ReadRequest::points(thin, archive::PointUse::LookUp));
    for (std::uint64_t off : offsetsAround(*thin, e.want().size(), 25))
        checkRead(reader, e.want(), off, 5000);
}

TEST_CASE(
    "pakfs seek: points saved in an index file read back to the same bytes, old files and "
    "damaged tables are refused, damaged windows drop their points",
    "[seek]") {
    IndexedEntry e = indexedEntry(3 * 1024 * 1024 + 9, 26);
    TempDir dir;
    const auto file = dir / "entry.idx";
    fs::saveSeekIndex(file, *e.pak, *e.entry, *e.index);
    auto loaded = std::make_shared<archive::SeekIndex>(e.index->span(), 4096);
    REQUIRE(fs::loadSeekIndex(file, *e.pak, *e.entry, *loaded));
    REQUIRE(loaded->size() == e.index->size());
    // Per GiB of this text: what BENCHMARKS.md measures for the files.
    CHECK(std::filesystem::file_size(file) < e.index->size() * archive::kInflateWindow / 2);

    archive::PlainEntryReader reader(
        e.pak, *e.entry, archive::ReadRequest::points(loaded, archive::PointUse::LookUp));
    for (std::uint64_t off : offsetsAround(*loaded, e.want().size(), 27))
        checkRead(reader, e.want(), off, 4096);

    Bytes bytes = test::readFile(file);
    auto refused = [&](const Bytes& data) {
        test::writeFile(file, data);
        archive::SeekIndex into(e.index->span(), 4096);
        const bool ok = fs::loadSeekIndex(file, *e.pak, *e.entry, into);
        return !ok && into.size() == 0;
    };
    Bytes v1 = bytes;
    v1[7] = '1';  // the version 1 magic: windows kept raw
    CHECK(refused(v1));
    Bytes table = bytes;
    table[100] ^= 1;  // in the point table, which its MD5 covers
    CHECK(refused(table));
    CHECK(refused(Bytes(bytes.begin(), bytes.end() - 1)));
    // A damaged window is found when a read resumes at its point (loading reads only the
    // table): the point is dropped, the handler told once, and the read resumes at the point
    // before, with the entry's bytes. Damaged before loading, after it (the file changed under
    // the mount), or every window (the read decodes from the start).
    Bytes lastWindow = bytes;
    lastWindow.back() ^= 1;  // in the last window, which its CRC-32 covers
    for (int damage : {0, 1, 2}) {
        for (bool record : {false, true}) {
            test::writeFile(file, damage == 0 ? lastWindow : bytes);
            auto lazyIndex = std::make_shared<archive::SeekIndex>(e.index->span(), 4096);
            REQUIRE(fs::loadSeekIndex(file, *e.pak, *e.entry, *lazyIndex));
            const auto points = lazyIndex->points();
            REQUIRE(points.size() == e.index->size());
            if (damage > 0) {
                std::FILE* f = std::fopen(file.c_str(), "r+b");
                REQUIRE(f);
                for (const auto& p : points) {
                    if (damage == 1 && p != points.back()) continue;
                    const long at = long(p->windowAt + p->windowLength - 1);
                    std::fseek(f, at, SEEK_SET);
                    std::fputc(bytes[std::size_t(at)] ^ 1, f);
                }
                std::fclose(f);
            }
            int told = 0;
            lazyIndex->onDamaged([&] { ++told; });
            archive::PlainEntryReader lazy(
                e.pak, *e.entry,
                archive::ReadRequest::points(
                    lazyIndex, record ? archive::PointUse::Record : archive::PointUse::LookUp));
            if (damage < 2) {
                checkRead(lazy, e.want(), points.front()->out + 5, 4096);
                CHECK(told == 0);
            }
            checkRead(lazy, e.want(), points.back()->out + 5, 4096);
            CHECK(told == 1);
            // Damage 0 and 1: only the last point went; 2: every one, tried last to first.
            // (A reader that records points puts new ones, in memory, where it decodes.)
            const auto left = lazyIndex->points();
            CHECK(std::count_if(left.begin(), left.end(), [](const auto& p) {
                      return p->windowFile != nullptr;
                  }) == std::ptrdiff_t(damage < 2 ? points.size() - 1 : 0));
            if (!record) CHECK(left.size() == (damage < 2 ? points.size() - 1 : 0));
            checkRead(lazy, e.want(), points.back()->out + 7000, 4096);
            checkRead(lazy, e.want(), points[points.size() / 2]->out + 3, 4096);
            CHECK(told == 1);
        }
    }
    auto otherSpan = std::make_shared<archive::SeekIndex>(e.index->span() * 2, 4096);
    test::writeFile(file, bytes);
    CHECK_FALSE(fs::loadSeekIndex(file, *e.pak, *e.entry, *otherSpan));
}

TEST_CASE("pakfs seek: a stream error after resuming at a window damaged since is zlib's error",
          "[seek]") {
    // ISA-L resumes at a point from an index file; the window is damaged on disk after that,
    // and the stream further on has a block ISA-L refuses. zlib takes over from the point
    // before (the damaged one is dropped) and reports the stream's error, not the window's.
    IndexedEntry e = indexedEntry(3 * 1024 * 1024 + 5, 31);
    TempDir dir;
    const auto file = dir / "entry.idx";
    fs::saveSeekIndex(file, *e.pak, *e.entry, *e.index);
    const auto points = e.index->points();
    REQUIRE(points.size() > 6);
    const auto& resumeAt = points[points.size() - 4];
    const auto& badBlock = points[points.size() - 2];
    // The block starting at badBlock gets block type 3 (reserved): every inflater refuses it.
    const std::filesystem::path pakPath = e.t.pak;
    const auto mtime = std::filesystem::last_write_time(pakPath);
    Bytes pakBytes = readFile(pakPath);
    const std::size_t slot = std::size_t(e.pak->entryOffset(*e.entry));
    std::uint64_t iv = loadLE64(pakBytes.data() + slot);
    Bytes plain(pakBytes.begin() + std::ptrdiff_t(slot + 8),
                pakBytes.begin() + std::ptrdiff_t(slot + 8 + e.entry->cipherSize()));
    std::uint64_t ivDec = iv, ivEnc = iv;
    e.pak->cipher().cbcDecrypt(plain.data(), plain.size(), ivDec);
    const std::uint64_t bit = badBlock->in * 8 - std::uint64_t(badBlock->bits) + 1;
    for (std::uint64_t b : {bit, bit + 1}) plain[std::size_t(b / 8)] |= std::uint8_t(1 << (b % 8));
    e.pak->cipher().cbcEncrypt(plain.data(), plain.size(), ivEnc);
    std::copy(plain.begin(), plain.end(), pakBytes.begin() + std::ptrdiff_t(slot + 8));
    writeFile(pakPath, pakBytes);
    std::filesystem::last_write_time(pakPath, mtime);  // the index file still matches
    auto pak = archive::PakIndex::open(pakPath, testKey());
    const archive::PakEntry& entry = entryAt(*pak, "big.txt");
    auto loaded = std::make_shared<archive::SeekIndex>(e.index->span(), 4096);
    REQUIRE(fs::loadSeekIndex(file, *pak, entry, *loaded));
    int told = 0;
    loaded->onDamaged([&] { ++told; });

    archive::PlainEntryReader reader(
        pak, entry, archive::ReadRequest::points(loaded, archive::PointUse::LookUp));
    checkRead(reader, e.want(), resumeAt->out + 5, 4096);
    REQUIRE(reader.streamsWithIsal());
    const auto windowed = loaded->before(resumeAt->out);
    REQUIRE(windowed->out == resumeAt->out);
    {
        std::FILE* f = std::fopen(file.c_str(), "r+b");
        REQUIRE(f);
        const long at = long(windowed->windowAt + windowed->windowLength - 1);
        std::fseek(f, at, SEEK_SET);
        const int old = std::fgetc(f);
        std::fseek(f, at, SEEK_SET);
        std::fputc(old ^ 1, f);
        std::fclose(f);
    }
    Bytes rest(std::size_t(badBlock->out - reader.position() + 4096));
    CHECK_THROWS_WITH(
        reader.read(rest.data(), rest.size()),
        pakPath.string() + ": big.txt: corrupt compressed data (zlib: invalid block type)");
    CHECK(told == 1);
    CHECK(loaded->before(resumeAt->out)->out < resumeAt->out);
}

TEST_CASE("pakfs seek: readers on several threads share the points and read exact bytes",
          "[seek]") {
    IndexedEntry e = indexedEntry(3 * 1024 * 1024, 28);
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            archive::PlainEntryReader reader(
                e.pak, *e.entry,
                archive::ReadRequest::points(
                    e.index, t % 2 == 0 ? archive::PointUse::Record : archive::PointUse::LookUp));
            std::mt19937_64 rng(std::uint64_t(30 + t));
            Bytes got(4096);
            for (int i = 0; i < 60; ++i) {
                std::uint64_t off = rng() % (e.want().size() - got.size());
                reader.seek(off);
                if (reader.read(got.data(), got.size()) != got.size() ||
                    !std::equal(got.begin(), got.end(), e.want().begin() + std::ptrdiff_t(off)))
                    ++bad;
            }
        });
    for (auto& t : threads) t.join();
    CHECK(bad == 0);
}
