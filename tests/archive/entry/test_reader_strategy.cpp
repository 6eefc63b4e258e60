// SPDX-License-Identifier: GPL-2.0-or-later
// The plain entry reader's parts: the one decrypt stage (every cipher mode, chunked from any
// offset and by range) and the coordinator's choice of strategy for each kind of entry and
// request.
#include <catch2/catch.hpp>

#include <zlib.h>

#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/stream/DecryptStage.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/CounterPack.hpp"
#include "tests/support/PakEntries.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

// Named, not anonymous, and holding the tests too: the suite is built in unity batches.
namespace reader_strategy {

const PakKey kStrategyPackKey = {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F,
                                 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0};

// The entry's plaintext as the stage hands it on from `offset`, chunk by chunk to the end.
Bytes chunksFrom(DecryptStage& stage, std::uint64_t offset) {
    Bytes out;
    stage.startAt(offset);
    for (;;) {
        stage.decryptMore();
        if (stage.left() == 0) return out;
        out.insert(out.end(), stage.at(), stage.at() + stage.left());
        stage.consume(stage.left());
    }
}

// What the plaintext holds: the content itself (stored) or its zlib stream.
Bytes contentOf(const PakEntry& e, const Bytes& plain) {
    if (!e.compressed()) return Bytes(plain.begin(), plain.begin() + e.uncompressedSize);
    Bytes out(e.uncompressedSize);
    uLongf n = uLongf(out.size());
    REQUIRE(uncompress(out.data(), &n, plain.data(), uLong(e.compressedSize)) == Z_OK);
    out.resize(n);
    return out;
}

// Packs a folder of `files` with pak pack's writer (version 3: CBC; level 0 stores them).
std::shared_ptr<const PakIndex> packFolder(const test::TempDir& dir,
                                           const std::vector<std::pair<std::string, Bytes>>& files,
                                           int level = 6) {
    test::TempDir tree;
    for (const auto& [name, content] : files) test::writeFile(tree / name, content);
    PackOptions options;
    options.level = level;
    writePak(tree.path(), dir / "w.pak", kStrategyPackKey, options);
    return PakIndex::open(dir / "w.pak", kStrategyPackKey);
}

TEST_CASE("decrypt stage: every cipher mode gives the plaintext from any offset",
          "[pak][entry][decrypt-stage]") {
    test::TempDir dir;
    // Over several chunks (64 KiB first, then doubling), and not a multiple of 8 bytes.
    const Bytes big = test::randomBytes(700001, 41);
    const Bytes text = test::compressibleText(90000, 42);
    auto cbc = packFolder(dir, {{"big.bin", big}, {"text.txt", text}});
    test::TempDir stored;
    auto clear = packFolder(stored, {{"big.bin", big}}, 0);
    // Version 17: counter mode for the flagged files, CBC with mixed chaining for the other.
    test::writeCounterPack(dir / "v17.pak", 17, kStrategyPackKey,
                           {{"counter.bin", big, EntryCodec::Zlib},
                            {"stored.bin", big},
                            {"mixed.bin", big, EntryCodec::Zlib, false}});
    auto v17 = PakIndex::open(dir / "v17.pak", kStrategyPackKey);
    struct Case {
        std::shared_ptr<const PakIndex> pak;
        std::string path;
        CipherMode mode;
        const Bytes& content;
    };
    for (const Case& c :
         {Case{cbc, "big.bin", CipherMode::Cbc, big}, Case{cbc, "text.txt", CipherMode::Cbc, text},
          Case{clear, "big.bin", CipherMode::Cbc, big},
          Case{v17, "counter.bin", CipherMode::Counter, big},
          Case{v17, "stored.bin", CipherMode::Counter, big},
          Case{v17, "mixed.bin", CipherMode::MixedCbc, big}}) {
        INFO(c.pak->name() << ": " << c.path);
        const PakEntry& e = test::entryAt(*c.pak, c.path);
        DecryptStage stage(*c.pak, e);
        CHECK(stage.mode() == (e.encrypted ? c.mode : CipherMode::Clear));
        // The whole ciphertext in one read from the IV: the reference, checked against the
        // content it must hold.
        const std::size_t size = std::size_t(stage.cipherSize());
        Bytes whole(size + 8);
        DecryptStage::decryptStart(*c.pak, e, whole.data(), size);
        const Bytes plain(whole.begin() + 8, whole.end());
        REQUIRE(contentOf(e, plain) == c.content);
        for (std::uint64_t offset : {std::uint64_t(0), std::uint64_t(5), std::uint64_t(65536 + 3),
                                     std::uint64_t(size - 1), std::uint64_t(400000)}) {
            INFO("from " << offset);
            if (offset >= size) continue;
            CHECK(chunksFrom(stage, offset) ==
                  Bytes(plain.begin() + std::ptrdiff_t(offset), plain.end()));
            CHECK(stage.ended());
        }
        // Back to an earlier offset after the end (MixedCbc walks its chain from a mark).
        CHECK(chunksFrom(stage, 8) == Bytes(plain.begin() + 8, plain.end()));
        // walked in order only
        if (stage.mode() == CipherMode::MixedCbc || size < 65536 + 4096) continue;
        // Any block-aligned range at once, as the thread decrypting ahead asks for it.
        Bytes range(8 + 4096);
        stage.startAt(0);
        stage.decryptMore();  // a counter-mode stage reads its IV with its first chunk
        stage.decryptAt(range.data(), 65536, 4096);
        CHECK(Bytes(range.begin() + 8, range.end()) ==
              Bytes(plain.begin() + 65536, plain.begin() + 65536 + 4096));
    }
}

TEST_CASE("plain entry reader: the strategy for each kind of entry and request",
          "[pak][entry][strategy]") {
    test::TempDir dir;
    const Bytes text = test::compressibleText(600000, 51);
    auto pak = packFolder(dir, {{"text.txt", text}});
    const PakEntry& e = pak->entries()[0];
    REQUIRE(e.compressed());
    // What the reader decodes with after reading 1000 bytes at `offset` (the entry's).
    auto strategyAt = [&](const ReadRequest& request, std::uint64_t offset) {
        PlainEntryReader reader(pak, e, request);
        if (offset) reader.seek(offset);
        Bytes got(1000);
        REQUIRE(reader.read(got.data(), got.size()) == got.size());
        CHECK(got == Bytes(text.begin() + std::ptrdiff_t(offset),
                           text.begin() + std::ptrdiff_t(offset + 1000)));
        return std::string(readStrategyName(reader.strategy()));
    };
    ReadTuning low;
    low.wholeInflateLimit = 64 * 1024;
    SECTION("zlib, no index: whole up to the limit, streamed above it") {
        CHECK(strategyAt(ReadRequest(), 0) == "whole");
        CHECK(strategyAt(ReadRequest().withTuning(low), 0) == "streamed");
        // Sent in before its first read: still whole, the entry decoded from its start.
        CHECK(strategyAt(ReadRequest(), 300000) == "whole");
        // Above the limit and seeked first: zlib (ISA-L starts only at a first read from 0).
        CHECK(strategyAt(ReadRequest().withTuning(low), 300000) == "zlib");
    }
    SECTION("zlib with an index: recorded by zlib, looked up by ISA-L") {
        auto index = std::make_shared<SeekIndex>(1u << 16, 64);
        CHECK(strategyAt(ReadRequest::points(index), 0) == "zlib");
        CHECK(strategyAt(ReadRequest::points(index), 300000) == "zlib");
        REQUIRE(index->size() > 0);
        CHECK(strategyAt(ReadRequest::points(index, PointUse::LookUp), 0) == "streamed");
        // Resumed at a point: ISA-L again; a recording reader resumes through zlib.
        CHECK(strategyAt(ReadRequest::points(index, PointUse::LookUp), 500000) == "streamed");
        CHECK(strategyAt(ReadRequest::points(index), 500000) == "zlib");
    }
    SECTION("stored, LZ4 and counter-mode entries") {
        test::TempDir other;
        auto stored = packFolder(other, {{"text.txt", text}}, 0);
        PlainEntryReader plain(stored, stored->entries()[0]);
        CHECK(plain.strategy() == ReadStrategy::Stored);
        CHECK(plain.cipherMode() == CipherMode::Cbc);
        test::writeCounterPack(dir / "v18.pak", 18, kStrategyPackKey,
                               {{"lz4.txt", text, EntryCodec::Lz4, false}});
        auto v18 = PakIndex::open(dir / "v18.pak", kStrategyPackKey);
        PlainEntryReader lz4(v18, test::entryAt(*v18, "lz4.txt"));
        CHECK(lz4.strategy() == ReadStrategy::Lz4);
        test::writeCounterPack(dir / "v17.pak", 17, kStrategyPackKey,
                               {{"counter.txt", text}, {"zlib.txt", text, EntryCodec::Zlib}});
        auto v17 = PakIndex::open(dir / "v17.pak", kStrategyPackKey);
        PlainEntryReader counter(v17, test::entryAt(*v17, "counter.txt"),
                                 ReadRequest().allowUnverified(true));
        CHECK(counter.strategy() == ReadStrategy::Stored);
        CHECK(counter.cipherMode() == CipherMode::Counter);
        CHECK(counter.unproven());
        PlainEntryReader zlib(v17, test::entryAt(*v17, "zlib.txt"));
        Bytes got(text.size());
        REQUIRE(zlib.read(got.data(), got.size()) == got.size());
        CHECK(got == text);
        CHECK(zlib.strategy() == ReadStrategy::Whole);
        CHECK(zlib.cipherMode() == CipherMode::Counter);
        CHECK_FALSE(zlib.unproven());
    }
}

TEST_CASE("plain entry reader: a first read far in decodes on two cores only when asked",
          "[pak][entry][strategy][two-cores]") {
    test::TempDir dir;
    const Bytes text = test::compressibleText(4000000, 31);
    auto pak = packFolder(dir, {{"text.txt", text}});
    const PakEntry& e = pak->entries()[0];
    ReadTuning twoCores;
    twoCores.twoCoresMin = 1 << 20;
    twoCores.twoCoresWait = true;
    twoCores.usableCpus = 2;
    ReadTuning oneCpu = twoCores;
    oneCpu.usableCpus = 1;
    struct Case {
        const char* what;
        ReadRequest request;
        bool onTwoCores;
    };
    for (const Case& c :
         {Case{"looked-up index, two CPUs",
               ReadRequest::points(std::make_shared<SeekIndex>(1u << 18, 64), PointUse::LookUp)
                   .withTuning(twoCores),
               true},
          Case{"one CPU",
               ReadRequest::points(std::make_shared<SeekIndex>(1u << 18, 64), PointUse::LookUp)
                   .withTuning(oneCpu),
               false},
          Case{"recording index",
               ReadRequest::points(std::make_shared<SeekIndex>(1u << 18, 64)).withTuning(twoCores),
               false},
          Case{"no index", ReadRequest().withTuning(twoCores), false}}) {
        INFO(c.what);
        PlainEntryReader reader(pak, e, c.request);
        reader.seek(3500001);
        Bytes got(4096);
        REQUIRE(reader.read(got.data(), got.size()) == got.size());
        CHECK(got == Bytes(text.begin() + 3500001, text.begin() + 3500001 + 4096));
        CHECK(reader.decodedOnTwoCores() == c.onTwoCores);
        if (c.onTwoCores) CHECK(reader.strategy() == ReadStrategy::Streamed);
    }
}

}  // namespace reader_strategy
