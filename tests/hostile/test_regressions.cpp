// SPDX-License-Identifier: GPL-2.0-or-later
// Inputs the fuzz targets (fuzz/) found, kept as regression tests: each once crashed, hung or
// asked for a huge allocation. The allocation limit of Harness.hpp applies to each.
#include <catch2/catch.hpp>

#include <zlib.h>

#include <thread>

#include "archive/codec/Streams.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/Metadata.hpp"
#include "gbx/Header.hpp"
#include "tests/hostile/Harness.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using namespace pakfs::hostile;

namespace {

// Runs fn under the per-case allocation limit; it must end in an Error.
template <typename Fn>
void expectErrorWithinLimits(Fn fn) {
    std::string what;
    {
        AllocLimit limit;
        try {
            fn();
        } catch (const Error& e) {
            what = e.what();
        } catch (const std::exception& e) {
            FAIL("not an Error: " << e.what() << " (refused allocation of " << gRefusedAlloc
                                  << " bytes)");
        }
    }
    CHECK(gRefusedAlloc == 0);
    CHECK_FALSE(what.empty());
}

// The metadata section through the pak reader's zlib stage, declaring `declared` bytes.
void readMetadataThroughZlib(std::uint32_t declared, ByteSpan plain) {
    Bytes z(compressBound(uLong(plain.size())));
    uLongf zLen = z.size();
    REQUIRE(compress2(z.data(), &zLen, plain.data(), uLong(plain.size()), 1) == Z_OK);
    z.resize((zLen + 255) / 256 * 256, 0);
    CryptedStream crypted(ByteRange(ByteSpan(z)), nullptr, 0, z.size());
    ZlibStage zlib(crypted, zLen, declared, "metadata");
    readMetadataRecords(zlib, 64, "metadata");
}

// The last compressed row that is (gbx) or is not a gbx file; m.rows.size() if none.
std::size_t lastCompressedRow(const PakModel& m, bool gbx) {
    std::size_t index = m.rows.size();
    for (std::size_t i = 0; i < m.rows.size(); ++i)
        if (m.rows[i].name.ends_with(".Gbx") == gbx && (m.rows[i].flags & kFlagsCompressionMask))
            index = i;
    return index;
}

}  // namespace

TEST_CASE("fuzz regression: a metadata record's user data size trusted the declared section size",
          "[hostile][fuzz-regression]") {
    // fuzz_metadata, oom-2d55f5b5: the section declares 0x3B00005E bytes, a record's gbx
    // header claims 0xFFFFFF00 + ... of user data; the zlib stage reported the declared size as
    // what is left, so the reader allocated it.
    Bytes input = test::fromHex(
        "5e00003b000000004742580600ff5e00ffffff0403140000"
        "3b00000000474258060000ff5e00ffff");
    expectErrorWithinLimits(
        [&] { readMetadataThroughZlib(loadLE32(input.data()), ByteSpan(input).subspan(4)); });

    // The same in a pak: metaDataUncompressedSize 0xFFFFFFFF and a record claiming 1 GiB.
    ScratchDir gen, dir;
    PakModel m = PakModel::read(generatedPak(gen.path()), test::testKey());
    Bytes record;
    ByteWriter w(record);
    w.u32(0);
    w.bytes(std::string_view("GBX"));
    w.u16(6);
    w.bytes(std::string_view("BUUR"));
    w.u32(0x03043000);
    w.u32(0x40000000);  // user data size
    w.u32(0xFFFFFFFF);  // (a terminator the record swallows)
    m.setMetadataPlain(test::testKey(), record);
    m.metaDataUncompressedSize = 0xFFFFFFFF;
    Outcome o = runCase(dir / "case", "huge user data", m.build(test::testKey()), test::testKey());
    CHECK(o.opened);
    auto pak = PakIndex::open(dir / "case" / "case.pak", test::testKey());
    CHECK_THAT(pak->metadataError(), Catch::Contains("metadata"));
}

TEST_CASE("fuzz regression: an external reference count on a source that cannot tell its size",
          "[hostile][fuzz-regression]") {
    // fuzz_gbx_header, crash-aaa73556: numNodes 0x10010000 allows as many external references;
    // the reference table reserved room for all of them before reading one.
    Bytes input =
        test::fromHex("4742580300425555000000000147425a030042555500000000000000000110000000000000");
    expectErrorWithinLimits([&] {
        BlindSource src(input);
        gbx::GbxHeader h = gbx::readHeader(src);
        gbx::readRefTable(src, h);
    });
}

TEST_CASE("regression: deep folder chains cannot make the paths take gigabytes",
          "[hostile][regression]") {
    // 8000 folders, each the child of the one before, with 100-byte names: under 1 MiB of
    // header, but the full paths of all folders would take 3 GiB (and as much time to build).
    ScratchDir dir;
    PakModel m;
    const std::string name = std::string(100, 'f') + "\\";
    m.folders.resize(8000);
    for (int i = 0; i < 8000; ++i) {
        m.folders[std::size_t(i)].parent = i - 1;
        m.folders[std::size_t(i)].name = name;
    }
    m.rows.push_back({7999, "leaf.txt", 0, 0, 0, 0, 0, 0});
    m.tail = Bytes(8, 0);
    Outcome o = runCase(dir / "case", "deep chain", m.build(test::testKey()), test::testKey());
    CHECK_FALSE(o.opened);
    CHECK_THAT(o.error, Catch::Contains("damaged header"));
}

TEST_CASE("regression: a gbx entry's declared size cannot make the decoder allocate it",
          "[hostile][regression]") {
    // decodeGbxEntry read what follows the gbx body into one buffer of the declared size; with
    // 0x7FFFFFFF declared for a compressed entry of a few hundred bytes it asked for 2 GiB.
    ScratchDir gen, dir;
    PakModel m = PakModel::read(generatedPak(gen.path()), test::testKey());
    std::size_t index = lastCompressedRow(m, true);
    REQUIRE(index < m.rows.size());
    for (std::uint32_t size : {0x7FFFFFFFu, 0xFFFFFFFFu}) {
        m.rows[index].uncompressedSize = size;
        Outcome o = runCase(dir / "case", "gbx size " + std::to_string(size),
                            m.build(test::testKey()), test::testKey(), Scope::OneEntry, index);
        CHECK(o.opened);
        CHECK(o.failed == 1);
    }
}

TEST_CASE("fuzz regression: a compressed entry with no stored bytes is an error, not UB",
          "[hostile][fuzz-regression]") {
    // fuzz_pak_header, crash-02bdc9e0 and crash-b0ef45c5: a compressed entry whose compressed
    // size is 0 has no ciphertext; the plain-entry reader handed zlib its empty chunk as a
    // pointer computed from a buffer never allocated (UBSan: offset applied to null). A reader
    // on a fresh thread has no spare buffer, so the test runs it on one.
    ScratchDir gen, dir;
    PakModel m = PakModel::read(generatedPak(gen.path()), test::testKey());
    std::size_t index = lastCompressedRow(m, false);
    REQUIRE(index < m.rows.size());
    REQUIRE(m.rows[index].uncompressedSize > 0);
    m.rows[index].compressedSize = 0;
    const auto path = dir / "empty-stream.pak";
    writeBytes(path, m.build(test::testKey()));
    auto pak = PakIndex::open(path, test::testKey());
    const PakEntry& entry = pak->entries()[index];
    REQUIRE(entry.cipherSize() == 0);
    std::string error;
    std::thread([&] {
        try {
            readEntry(pak, entry);
        } catch (const Error& e) {
            error = e.what();
        }
    }).join();
    CHECK(error ==
          path.string() + ": " + entry.path + ": compressed data ends before the zlib stream does");
}
