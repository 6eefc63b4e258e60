// SPDX-License-Identifier: GPL-2.0-or-later
// zlib entries over the whole-buffer limit stream through ISA-L when read from their start: the
// same bytes as zlib, and for damaged or inconsistent streams the same errors. The limit is
// lowered so that entries of a few MB take that path.
#include <catch2/catch.hpp>

#include <optional>
#include <random>

#include <sched.h>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "common/Cpus.hpp"
#include "common/PageBlock.hpp"
#include "tests/hostile/Generators.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kTestLimit = 64 * 1024;

// A reader without an index whose whole-buffer limit is lowered to kTestLimit, so that the
// tests' entries stream through ISA-L.
ReadRequest lowLimit() {
    ReadTuning tuning;
    tuning.wholeInflateLimit = kTestLimit;
    return ReadRequest().withTuning(tuning);
}

// Random runs (stored deflate blocks) between runs of text, so that the entry is compressed.
Bytes randomAndTextRuns(std::size_t n, std::uint32_t seed) {
    Bytes out;
    for (std::uint32_t i = 0; out.size() < n; ++i) {
        Bytes run =
            i % 2 ? test::compressibleText(150000, seed + i) : test::randomBytes(100000, seed + i);
        out.insert(out.end(), run.begin(), run.end());
    }
    out.resize(n);
    return out;
}

// Reads the rest of the entry in pieces of odd sizes.
Bytes readPieces(PlainEntryReader& reader) {
    static const std::size_t sizes[] = {1, 3, 4093, 65537, 1, 100003, 7, 1 << 20, 31};
    Bytes out(std::size_t(reader.size() - reader.position()));
    std::size_t have = 0;
    for (std::size_t i = 0; have < out.size(); ++i) {
        std::size_t want = std::min(sizes[i % std::size(sizes)], out.size() - have);
        std::size_t got = reader.read(out.data() + have, want);
        REQUIRE(got == want);
        have += got;
    }
    return out;
}

// Reads the whole entry through zlib (a reader with a seek index never uses ISA-L).
Bytes readByZlib(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e) {
    PlainEntryReader reader(pak, e, ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8)));
    Bytes out(e.uncompressedSize);
    REQUIRE(reader.read(out.data(), out.size()) == out.size());
    CHECK_FALSE(reader.streamsWithIsal());
    return out;
}

// The message of the Error that reading the whole entry with `reader` throws ("" if none).
std::string readError(PlainEntryReader& reader) {
    try {
        Bytes out(1 << 20);
        while (reader.position() < reader.size()) reader.read(out.data(), out.size());
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// A pack of one compressed entry "big.bin" holding `content`; returns its path.
fs::path packOne(const test::TempDir& dir, const Bytes& content) {
    test::TempDir tree;
    test::writeFile(tree / "big.bin", content);
    writePak(tree.path(), dir / "one.pak", test::testKey(), {});
    return dir / "one.pak";
}

// The pack at `path` written again as `name` with the first entry's sizes changed.
fs::path withSizes(const fs::path& path, const std::string& name, std::uint32_t uncompressed,
                   std::uint32_t compressed) {
    hostile::PakModel m = hostile::PakModel::read(path, test::testKey());
    m.rows[0].uncompressedSize = uncompressed;
    m.rows[0].compressedSize = compressed;
    fs::path out = path.parent_path() / name;
    hostile::writeBytes(out, m.build(test::testKey()));
    return out;
}

}  // namespace

TEST_CASE("isa-l: large zlib entries stream through ISA-L with zlib's bytes",
          "[pak][inflate][isal]") {
    test::TempDir tree, out;
    test::writeFile(tree / "text.txt", test::compressibleText(3000000, 1));
    test::writeFile(tree / "mixed.bin", randomAndTextRuns(2000000, 2));
    test::writeFile(tree / "small.txt",
                    test::compressibleText(kTestLimit, 3));  // at the limit: libdeflate
    for (std::size_t sync : {std::size_t(0), std::size_t(4096)}) {
        PackOptions options;
        options.syncFlushEvery = sync;
        writePak(tree.path(), out / "z.pak", test::testKey(), options);
        auto pak = PakIndex::open(out / "z.pak", test::testKey());
        for (const auto& e : pak->entries()) {
            INFO(e.path << " sync " << sync);
            REQUIRE(e.compressed());
            const Bytes want = test::readFile(tree / e.path);
            PlainEntryReader reader(pak, e, lowLimit());
            Bytes got = readPieces(reader);
            CHECK(got == want);
            // ISA-L did it all: no zlib pass over the entry after it.
            CHECK(reader.streamsWithIsal() == (e.uncompressedSize > kTestLimit));
            CHECK(reader.decodedBytes() == e.uncompressedSize);
            CHECK(readByZlib(pak, e) == want);
            CHECK(readEntry(pak, e) == want);
        }
    }
}

TEST_CASE("isa-l: a seek leaves ISA-L for zlib and gives exact bytes", "[pak][inflate][isal]") {
    test::TempDir dir;
    const Bytes want = test::compressibleText(3000000, 4);
    auto pak = PakIndex::open(packOne(dir, want), test::testKey());
    const PakEntry& e = pak->entries()[0];
    auto expect = [&](PlainEntryReader& r, std::size_t at, std::size_t n) {
        Bytes got(n);
        REQUIRE(r.read(got.data(), n) == n);
        CHECK(got ==
              Bytes(want.begin() + std::ptrdiff_t(at), want.begin() + std::ptrdiff_t(at + n)));
    };
    SECTION("back") {
        PlainEntryReader r(pak, e, lowLimit());
        expect(r, 0, 1000003);
        REQUIRE(r.streamsWithIsal());
        r.seek(500001);
        CHECK_FALSE(r.streamsWithIsal());
        expect(r, 500001, 777777);
        CHECK(readPieces(r) == Bytes(want.begin() + 1277778, want.end()));
    }
    SECTION("forward") {
        PlainEntryReader r(pak, e, lowLimit());
        expect(r, 0, 12345);
        REQUIRE(r.streamsWithIsal());
        r.seek(2500000);
        CHECK_FALSE(r.streamsWithIsal());
        CHECK(readPieces(r) == Bytes(want.begin() + 2500000, want.end()));
    }
    SECTION("before the first read: zlib from the start") {
        PlainEntryReader r(pak, e, lowLimit());
        r.seek(99999);
        expect(r, 99999, 3);
        CHECK_FALSE(r.streamsWithIsal());
        CHECK(readPieces(r) == Bytes(want.begin() + 100002, want.end()));
    }
}

TEST_CASE("isa-l: a reader that only looks its seek index up streams through ISA-L",
          "[pak][inflate][isal]") {
    test::TempDir dir;
    const Bytes want = test::compressibleText(3000000, 9);
    auto pak = PakIndex::open(packOne(dir, want), test::testKey());
    const PakEntry& e = pak->entries()[0];
    // The mount's case: points come from another pass; whole decodes never (memory), at any
    // size, so the default limit stays.
    auto index = std::make_shared<SeekIndex>(1u << 18, 64);
    {
        PlainEntryReader recorder(pak, e,
                                  ReadRequest::points(index));  // fills the index, through zlib
        CHECK(readPieces(recorder) == want);
        CHECK_FALSE(recorder.streamsWithIsal());
    }
    const std::size_t points = index->size();
    REQUIRE(points >= 8);
    PlainEntryReader r(pak, e, ReadRequest::points(index, PointUse::LookUp));
    Bytes head(1000000);
    REQUIRE(r.read(head.data(), head.size()) == head.size());
    CHECK(r.streamsWithIsal());
    CHECK(head == Bytes(want.begin(), want.begin() + 1000000));
    // A seek resumes at a point of the index, through ISA-L too, and records nothing.
    r.seek(2100000);
    CHECK(r.streamsWithIsal());
    CHECK(readPieces(r) == Bytes(want.begin() + 2100000, want.end()));
    CHECK(r.decodedBytes() < want.size());  // from a point, not from the start
    CHECK(index->size() == points);
    // From the start to the end through ISA-L, nothing added either.
    PlainEntryReader whole(pak, e, ReadRequest::points(index, PointUse::LookUp));
    CHECK(readPieces(whole) == want);
    CHECK(whole.streamsWithIsal());
    CHECK(index->size() == points);
}

TEST_CASE("isa-l: a reader decrypting ahead on another thread gives exact bytes at every jump",
          "[pak][inflate][isal]") {
    test::TempDir dir;
    // Random runs keep most of it stored: megabytes of ciphertext, so many pieces decrypted
    // ahead, by the second thread or by the reader itself.
    const Bytes want = randomAndTextRuns(8000000, 11);
    auto pak = PakIndex::open(packOne(dir, want), test::testKey());
    const PakEntry& e = pak->entries()[0];
    REQUIRE(e.cipherSize() > 3000000);
    auto expect = [&](PlainEntryReader& r, std::size_t at, std::size_t n) {
        Bytes got(n);
        REQUIRE(r.read(got.data(), n) == n);
        CHECK(got ==
              Bytes(want.begin() + std::ptrdiff_t(at), want.begin() + std::ptrdiff_t(at + n)));
    };
    // The mount's first read: the index is empty (its pass has not run), so the reader
    // decodes from the start to far into the entry.
    auto index = std::make_shared<SeekIndex>(1u << 18, 64);
    PlainEntryReader r(pak, e, ReadRequest::points(index, PointUse::LookUp));
    r.seek(7000001);
    expect(r, 7000001, 4096);
    CHECK(r.streamsWithIsal());
    // Back: from the start again, dropping the pieces decrypted ahead (some maybe still
    // being decrypted).
    r.seek(3000000);
    expect(r, 3000000, 100003);
    // A few bytes ahead, then on to the end, where the Adler-32 is checked.
    r.seek(3105000);
    CHECK(readPieces(r) == Bytes(want.begin() + 3105000, want.end()));
    CHECK(r.streamsWithIsal());
    // Jumps one after another, each dropping what the last one started ahead.
    for (std::size_t at : {5000000u, 1000u, 7999000u, 250000u}) {
        INFO("at " << at);
        r.seek(at);
        expect(r, at, 1000);
    }
    CHECK(index->size() == 0);
}

TEST_CASE("isa-l: a damaged Adler-32 is zlib's error, not wrong bytes", "[pak][inflate][isal]") {
    test::TempDir dir;
    const Bytes content = test::compressibleText(2000000, 5);
    const fs::path path = packOne(dir, content);
    auto pak = PakIndex::open(path, test::testKey());
    const PakEntry& e = pak->entries()[0];
    // Re-encrypt the entry with one byte of the Adler-32 trailer changed.
    Bytes file = test::readFile(path);
    std::size_t at = std::size_t(pak->entryOffset(e));
    std::uint64_t iv = loadLE64(file.data() + at);
    Bytes plain(file.begin() + std::ptrdiff_t(at + 8),
                file.begin() + std::ptrdiff_t(at + 8 + e.cipherSize()));
    std::uint64_t ivDec = iv, ivEnc = iv;
    Blowfish bf(test::testKey());
    bf.cbcDecrypt(plain.data(), plain.size(), ivDec);
    plain[e.compressedSize - 2] ^= 0x10;
    bf.cbcEncrypt(plain.data(), plain.size(), ivEnc);
    std::copy(plain.begin(), plain.end(), file.begin() + std::ptrdiff_t(at + 8));
    test::writeFile(dir / "damaged.pak", file);
    auto damaged = PakIndex::open(dir / "damaged.pak", test::testKey());
    const PakEntry& d = damaged->entries()[0];
    const std::string message = (dir / "damaged.pak").string() +
                                ": big.bin: corrupt compressed data (zlib: incorrect data check)";
    // Every byte but the last comes out right; the last read meets the trailer.
    PlainEntryReader reader(damaged, d, lowLimit());
    Bytes got(d.uncompressedSize - 1);
    REQUIRE(reader.read(got.data(), got.size()) == got.size());
    CHECK(reader.streamsWithIsal());
    CHECK(got == Bytes(content.begin(), content.end() - 1));
    std::uint8_t last = 0;
    CHECK_THROWS_WITH(reader.read(&last, 1), message);
    PlainEntryReader fresh(damaged, d, lowLimit());
    CHECK(readError(fresh) == message);
    CHECK_THROWS_WITH(readEntry(damaged, d), message);
    PlainEntryReader byZlib(damaged, d,
                            ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8)));
    CHECK(readError(byZlib) == message);
    // The mount's reader, decrypting ahead on another thread.
    PlainEntryReader decryptingAhead(
        damaged, d,
        ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8), PointUse::LookUp));
    CHECK(readError(decryptingAhead) == message);
    // Sent into the entry before its first read (the mount's first read of a fresh mount), it
    // leaves the Adler-32 out, as a reader resumed at a seek point: the bytes, no trailer check.
    PlainEntryReader jumped(
        damaged, d,
        ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8), PointUse::LookUp));
    jumped.seek(1500000);
    CHECK(readPieces(jumped) == Bytes(content.begin() + 1500000, content.end()));
    CHECK(jumped.streamsWithIsal());
}

TEST_CASE("isa-l: truncated streams and wrong sizes are zlib's errors", "[pak][inflate][isal]") {
    test::TempDir dir;
    const Bytes content = test::compressibleText(2000000, 6);
    const fs::path path = packOne(dir, content);
    const auto size = std::uint32_t(content.size());
    const std::uint32_t packed = PakIndex::open(path, test::testKey())->entries()[0].compressedSize;
    auto errorOf = [&](const fs::path& p) {
        auto pak = PakIndex::open(p, test::testKey());
        const PakEntry& e = pak->entries()[0];
        PlainEntryReader reader(pak, e, lowLimit());
        std::string what = readError(reader);
        PlainEntryReader byZlib(pak, e,
                                ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8)));
        CHECK(readError(byZlib) == what);
        return what;
    };
    SECTION("the stream is cut short") {
        fs::path p = withSizes(path, "cut.pak", size, packed / 2);
        CHECK(errorOf(p) ==
              p.string() + ": big.bin: compressed data ends before the zlib stream does");
    }
    SECTION("the stream is cut in its trailer") {
        // Every byte is there, the Adler-32 is not: accepted, as from writers that stop
        // without a proper end.
        fs::path p = withSizes(path, "trailer.pak", size, packed - 2);
        auto pak = PakIndex::open(p, test::testKey());
        PlainEntryReader reader(pak, pak->entries()[0], lowLimit());
        CHECK(readPieces(reader) == content);
        CHECK(reader.streamsWithIsal());
    }
    SECTION("the declared size is larger than the stream gives") {
        fs::path p = withSizes(path, "larger.pak", size + 1000, packed);
        CHECK(errorOf(p) == p.string() + ": big.bin: compressed data ends at " +
                                std::to_string(size) + " of " + std::to_string(size + 1000) +
                                " bytes");
    }
    SECTION("the declared size is smaller than the stream gives") {
        // zlib hands out the declared bytes (and checks the Adler-32 when the stream ends
        // within 64 KiB after them); ISA-L leaves such a stream to it.
        for (std::uint32_t less : {1000u, 200000u}) {
            INFO("less " << less);
            fs::path p = withSizes(path, "smaller.pak", size - less, packed);
            auto pak = PakIndex::open(p, test::testKey());
            const PakEntry& e = pak->entries()[0];
            PlainEntryReader reader(pak, e, lowLimit());
            const Bytes want(content.begin(), content.end() - less);
            CHECK(readPieces(reader) == want);
            CHECK_FALSE(reader.streamsWithIsal());
            CHECK(readByZlib(pak, e) == want);
        }
    }
}

namespace {

// The size from which a first read far into an entry decodes on two cores lowered, two CPUs
// counted on, and the reader waiting for the other thread's guess.
const ReadTuning twoCores = [] {
    ReadTuning tuning;
    tuning.twoCoresMin = 1 << 20;
    tuning.twoCoresWait = true;
    tuning.usableCpus = 2;
    return tuning;
}();

// Sends `r` to `at` before its first read (the mount's first read of a fresh mount) and checks
// the 4096 bytes there against `want`.
void checkFirstRead(PlainEntryReader& r, const Bytes& want, std::uint64_t at) {
    r.seek(at);
    Bytes got(4096);
    REQUIRE(r.read(got.data(), got.size()) == got.size());
    CHECK(got ==
          Bytes(want.begin() + std::ptrdiff_t(at), want.begin() + std::ptrdiff_t(at) + 4096));
}

// The text entry the first-read tests send a reader into (4 MB: blocks to guess).
struct FirstReadText {
    test::TempDir dir;
    const Bytes want = test::compressibleText(4000000, 31);
    const std::shared_ptr<const PakIndex> pak = PakIndex::open(packOne(dir, want), test::testKey());
    const PakEntry& e = pak->entries()[0];
};

// Runs the calling thread (and the threads it starts) on its first allowed CPU alone.
class OneCpu {
public:
    OneCpu() {
        REQUIRE(sched_getaffinity(0, sizeof saved_, &saved_) == 0);
        cpu_set_t one;
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &saved_)) {
                CPU_SET(cpu, &one);
                break;
            }
        REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
    }
    ~OneCpu() { sched_setaffinity(0, sizeof saved_, &saved_); }
    OneCpu(const OneCpu&) = delete;
    OneCpu& operator=(const OneCpu&) = delete;

private:
    cpu_set_t saved_;
};

}  // namespace

TEST_CASE("isa-l: a first read far into an entry decodes on two cores with exact bytes",
          "[pak][inflate][isal][two-cores]") {
    test::TempDir dir;
    for (int kind = 0; kind < 2; ++kind) {
        // Text (dynamic blocks, copies reaching back all the way), then stored runs between text.
        const Bytes want =
            kind == 0 ? test::compressibleText(4000000, 31) : randomAndTextRuns(4000000, 32);
        INFO((kind == 0 ? "text" : "mixed"));
        test::TempDir sub;
        auto pak = PakIndex::open(packOne(sub, want), test::testKey());
        const PakEntry& e = pak->entries()[0];
        auto index = std::make_shared<SeekIndex>(1u << 18, 64);
        PlainEntryReader r(pak, e,
                           ReadRequest::points(index, PointUse::LookUp).withTuning(twoCores));
        checkFirstRead(r, want, 3500001);
        CHECK(readPieces(r) == Bytes(want.begin() + 3500001 + 4096, want.end()));
        if (kind == 0) {
            // The text has block starts to guess: the reader proved one and left a point there.
            CHECK(index->size() >= 1);
        }
        // Every point it left resumes with the entry's bytes.
        for (const auto& p : index->points()) {
            INFO("point at " << p->out);
            PlainEntryReader q(pak, e,
                               ReadRequest::points(index, PointUse::LookUp).withTuning(twoCores));
            q.seek(p->out + 1);
            Bytes at(1000);
            REQUIRE(q.read(at.data(), at.size()) == at.size());
            CHECK(at == Bytes(want.begin() + std::ptrdiff_t(p->out + 1),
                              want.begin() + std::ptrdiff_t(p->out + 1001)));
            CHECK(q.decodedBytes() < p->out);  // resumed there, not decoded from the start
        }
    }
}

TEST_CASE("isa-l: with one CPU to run on, a first read far in stays on the reading thread",
          "[pak][inflate][isal][two-cores]") {
    // Two threads taking turns on one CPU only add the other's work: the reader decodes alone,
    // with the same bytes. Told so, and from this thread's affinity (the default).
    const FirstReadText text;
    for (bool byAffinity : {false, true}) {
        INFO((byAffinity ? "affinity" : "told"));
        ReadTuning oneCpu = twoCores;
        oneCpu.usableCpus = byAffinity ? 0 : 1;
        {
            std::optional<OneCpu> pinned;
            if (byAffinity) pinned.emplace();
            CHECK(oneCpu.cpus() == 1);
            auto index = std::make_shared<SeekIndex>(1u << 18, 64);
            PlainEntryReader r(text.pak, text.e,
                               ReadRequest::points(index, PointUse::LookUp).withTuning(oneCpu));
            checkFirstRead(r, text.want, 3500001);
            CHECK(r.streamsWithIsal());
            // No guess proven: on two cores this text leaves a point (the test above).
            CHECK(index->size() == 0);
        }
    }
}

TEST_CASE("isa-l: a cgroup v2 CPU quota counts, the least on the way up",
          "[pak][isal][two-cores]") {
    test::TempDir root;
    auto quota = [&](const std::string& cgroup, const std::string& text) {
        fs::create_directories(root.path() / cgroup);
        test::writeFile(root.path() / cgroup / "cpu.max", Bytes(text.begin(), text.end()));
    };
    CHECK(cgroupQuotaCpus(root.path(), "/") == 0);  // no cpu.max: no quota
    quota("a", "max 100000\n");
    quota("a/b", "150000 100000\n");
    CHECK(cgroupQuotaCpus(root.path(), "/a") == 0);
    CHECK(cgroupQuotaCpus(root.path(), "/a/b") == 2);    // 1.5 CPUs: a second thread still pays
    CHECK(cgroupQuotaCpus(root.path(), "/a/b/c") == 2);  // no file of its own: the one above
    quota("a/b/c", "120000 100000\n");
    CHECK(cgroupQuotaCpus(root.path(), "/a/b/c") == 1);
    quota("a", "50000 100000\n");  // the least on the way up, at least one
    CHECK(cgroupQuotaCpus(root.path(), "/a/b") == 1);
    quota("x", "400000 100000\n");
    CHECK(cgroupQuotaCpus(root.path(), "/x") == 4);
    quota("y", "lots 100000\n");  // not a number: no quota
    CHECK(cgroupQuotaCpus(root.path(), "/y") == 0);
    CHECK(cgroupQuotaCpus(root.path(), "") == 0);
    CHECK(cgroupQuotaCpus(root.path(), "x") == 0);  // not a cgroup v2 path
}

TEST_CASE("isa-l: a damaged stream read far in on two cores gives what reading it through does",
          "[pak][inflate][isal][two-cores]") {
    test::TempDir dir;
    const Bytes content = test::compressibleText(4000000, 33);
    const fs::path path = packOne(dir, content);
    auto pak = PakIndex::open(path, test::testKey());
    const PakEntry& e = pak->entries()[0];
    const std::size_t at = std::size_t(pak->entryOffset(e));
    const Bytes file = test::readFile(path);
    Blowfish bf(test::testKey());
    // The outcome of reading 4 KiB at `offset`: the bytes, or the error's message.
    auto outcome = [](PlainEntryReader& r, std::uint64_t offset) -> std::string {
        try {
            r.seek(offset);
            Bytes got(4096);
            r.read(got.data(), got.size());
            return std::string(got.begin(), got.end());
        } catch (const Error& err) {
            return std::string("error: ") + err.what();
        }
    };
    // Damage at places before the guessed start, between it and the offset, and after it.
    for (double where : {0.5, 0.8, 0.84, 0.86, 0.95}) {
        INFO("damage at " << where);
        std::uint64_t iv = loadLE64(file.data() + at), ivDec = iv, ivEnc = iv;
        Bytes plain(file.begin() + std::ptrdiff_t(at + 8),
                    file.begin() + std::ptrdiff_t(at + 8 + e.cipherSize()));
        bf.cbcDecrypt(plain.data(), plain.size(), ivDec);
        const std::size_t spot = std::size_t(double(e.compressedSize) * where);
        for (std::size_t i = 0; i < 8; ++i) plain[spot + i] ^= 0xa5;
        bf.cbcEncrypt(plain.data(), plain.size(), ivEnc);
        Bytes damagedFile = file;
        std::copy(plain.begin(), plain.end(), damagedFile.begin() + std::ptrdiff_t(at + 8));
        const fs::path damagedPath = dir / ("damaged" + std::to_string(int(where * 100)) + ".pak");
        test::writeFile(damagedPath, damagedFile);
        auto damaged = PakIndex::open(damagedPath, test::testKey());
        const PakEntry& d = damaged->entries()[0];
        PlainEntryReader twoCoresReader(
            damaged, d,
            ReadRequest::points(std::make_shared<SeekIndex>(1u << 18, 64), PointUse::LookUp)
                .withTuning(twoCores));
        PlainEntryReader through(damaged, d,
                                 ReadRequest::points(std::make_shared<SeekIndex>(1u << 20, 8)));
        const std::string got = outcome(twoCoresReader, 3500001);
        CHECK(got == outcome(through, 3500001));
        // Deflate has no check of its own (the Adler-32 at the end is not reached): damage
        // before the offset gives other bytes, as reading through does; after it, none.
        const std::string original(content.begin() + 3500001, content.begin() + 3500001 + 4096);
        if (where <= 0.84) CHECK(got != original);
        if (where >= 0.95) CHECK(got == original);
    }
}

TEST_CASE("isa-l: without memory for its buffers, a first read far in decodes alone",
          "[pak][inflate][isal][two-cores]") {
    // The blocks such a read takes, in order: the pieces decrypted ahead, the reader's scratch,
    // the other thread's points, then its buffers (at its first step, on that thread). Whichever
    // cannot be had, the read gives the entry's bytes and proves no guess.
    const FirstReadText text;
    for (int nth = 1; nth <= 5; ++nth) {
        INFO("block " << nth << (nth <= 4 ? " refused" : ": none refused"));
        failPageBlockForTests(nth);
        auto index = std::make_shared<SeekIndex>(1u << 18, 64);
        PlainEntryReader r(text.pak, text.e,
                           ReadRequest::points(index, PointUse::LookUp).withTuning(twoCores));
        checkFirstRead(r, text.want, 3500001);
        if (nth <= 4) {
            CHECK(failPageBlockForTests(0) == 0);  // it was refused
            CHECK(index->size() == 0);
            CHECK(readPieces(r) == Bytes(text.want.begin() + 3500001 + 4096, text.want.end()));
        } else {
            // All four had: a point proven (the two-core test above).
            failPageBlockForTests(0);
            CHECK(index->size() >= 1);
        }
    }
}
