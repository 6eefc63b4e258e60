// SPDX-License-Identifier: GPL-2.0-or-later
// gbx entries through the game's pipeline: pack -> read back byte-exactly, with node reads on,
// just before and just after 256-byte segment and 0x400-byte buffer boundaries.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/PackWarnings.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using gbx::BodyWriter;
namespace fs = std::filesystem;

namespace {

// One collector-list node and one parameters node, as chunk 03043011 holds them.
void nodePair(BodyWriter& w, std::uint32_t index, std::vector<std::size_t>& hooks) {
    w.chunk(0x03043011);
    hooks.push_back(w.newNode(index, 0x0301B000));
    w.chunk(0x0301B000);
    w.u32(0);  // no blocks in the collector list
    w.endNode();
    hooks.push_back(w.newNode(index + 1, 0x0305B000));
    w.chunk(0x0305B001);
    for (int i = 0; i < 4; ++i) w.string("tip");
    w.endNode();
    w.u32(8);  // kind
}

// Unknown skippable chunk: the reader skips it by size, so it moves later node reads.
void padding(BodyWriter& w, std::size_t n, std::uint32_t seed) {
    w.beginSkippable(0x03043099);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < n; ++i) w.u8(std::uint8_t(rng()));
    w.endSkippable();
}

// A map whose node reads land at `pad`-shifted places, `pairs` times, plus a back-reference,
// a null reference and an external slot.
Bytes makeMap(std::size_t pad, int pairs, std::uint32_t seed,
              std::vector<std::size_t>* hookPos = nullptr) {
    gbx::GbxBuilder b;
    b.classId = seed % 3 == 0 ? 0x24003000 : 0x03043000;  // old class IDs are generalized
    b.numNodes = std::uint32_t(2 * pairs + 2);
    gbx::ExternalRef ext;
    ext.flags = 1;
    ext.name = "Skin.zip";
    ext.nodeIndex = b.numNodes - 1;
    ext.folderIndex = 0;
    b.refs.ancestorLevel = 1;
    b.refs.externals.push_back(ext);
    BodyWriter w;
    std::vector<std::size_t> hooks;
    padding(w, pad, seed);
    for (int i = 0; i < pairs; ++i) {
        nodePair(w, std::uint32_t(1 + 2 * i), hooks);
        padding(w, (seed * 37 + std::size_t(i) * 101) % 700, seed + std::uint32_t(i));
    }
    w.chunk(0x03043026);
    w.ref(1);  // back-reference
    w.chunk(0x03043021);
    w.nullRef();
    w.ref(b.numNodes - 1);  // external slot
    w.nullRef();
    w.endNode();
    b.body = w.bytes();
    Bytes file = b.build();
    if (hookPos)
        for (auto h : hooks) hookPos->push_back(b.bodyOffset() + h);
    return file;
}

void checkPakMatchesTree(const fs::path& pakPath, const fs::path& tree) {
    auto pak = PakIndex::open(pakPath, test::testKey());
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        Bytes want = test::readFile(tree / e.path);
        REQUIRE(isGbxEntry(*pak, e));
        Bytes got = readEntry(pak, e);
        CHECK(got == want);
        REQUIRE(pak->metadata().count(e.index) == 1);
    }
}

// Every entry (gbx or not) reads back as the tree's file.
void checkPakMatchesTreeAny(const fs::path& pakPath, const fs::path& tree) {
    auto pak = PakIndex::open(pakPath, test::testKey());
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        CHECK(readEntry(pak, e) == test::readFile(tree / e.path));
    }
}

}  // namespace

TEST_CASE("gbx pipeline: node reads around every 256-byte segment offset (stored)",
          "[gbx-pipeline]") {
    test::TempDir tree, out;
    // Sweeping the padding over 260 values moves the first node read across a whole segment:
    // on a boundary, one byte before, one after, and everything in between.
    std::set<std::size_t> residues;
    for (std::size_t pad = 0; pad < 260; ++pad) {
        std::vector<std::size_t> hooks;
        Bytes f = makeMap(pad, 3, std::uint32_t(pad), &hooks);
        residues.insert(hooks[0] % 256);
        test::writeFile(tree / ("m" + std::to_string(pad) + ".Map.Gbx"), f);
    }
    CHECK(residues.size() == 256);
    PackOptions o;
    o.level = 0;
    writePak(tree.path(), out / "s.pak", test::testKey(), o);
    checkPakMatchesTree(out / "s.pak", tree.path());
}

TEST_CASE("gbx pipeline: node reads around 0x400 buffer boundaries (zlib levels and flushes)",
          "[gbx-pipeline]") {
    test::TempDir tree;
    std::set<std::size_t> residues;
    for (std::size_t pad = 0x300; pad < 0x300 + 0x120; pad += 3) {
        std::vector<std::size_t> hooks;
        Bytes f = makeMap(pad, 6, std::uint32_t(pad), &hooks);
        residues.insert(hooks[0] % 0x400);
        test::writeFile(tree / ("m" + std::to_string(pad) + ".Map.Gbx"), f);
    }
    CHECK(residues.count(0) + residues.count(1) + residues.count(0x3FF) >= 1);
    for (int level : {1, 6, 9}) {
        for (std::size_t flush : {std::size_t(0), std::size_t(1024), std::size_t(100)}) {
            INFO("level " << level << " sync flush every " << flush);
            test::TempDir out;
            PackOptions o;
            o.level = level;
            o.syncFlushEvery = flush;
            writePak(tree.path(), out / "z.pak", test::testKey(), o);
            checkPakMatchesTree(out / "z.pak", tree.path());
        }
    }
}

TEST_CASE("gbx pipeline: the per-node ivXor is exercised", "[gbx-pipeline]") {
    test::TempDir tree, out;
    for (int i = 0; i < 40; ++i)
        test::writeFile(tree / ("m" + std::to_string(i) + ".Map.Gbx"),
                        makeMap(std::size_t(i * 53 % 900), 8, std::uint32_t(i)));
    for (int level : {0, 9}) {
        PackOptions o;
        o.level = level;
        writePak(tree.path(), out / "t.pak", test::testKey(), o);
        auto pak = PakIndex::open(out / "t.pak", test::testKey());
        int differ = 0;
        GbxDecodeOptions without;
        without.perNodeIvXor = false;
        for (const auto& e : pak->entries()) {
            Bytes want = test::readFile(tree / e.path);
            CHECK(decodeGbxEntry(pak, e) == want);
            try {
                if (decodeGbxEntry(pak, e, without) != want) ++differ;
            } catch (const Error&) {
                ++differ;  // the wrong cipher state made the file unparseable
            }
        }
        INFO("level " << level);
        CHECK(differ >= 36);
    }
}

TEST_CASE("gbx pipeline: deep and wide node trees", "[gbx-pipeline]") {
    test::TempDir tree, out;
    for (int pairs : {1, 50, 400})
        test::writeFile(tree / ("w" + std::to_string(pairs) + ".Map.Gbx"), makeMap(5, pairs, 9));
    for (int level : {0, 6}) {
        PackOptions o;
        o.level = level;
        writePak(tree.path(), out / "w.pak", test::testKey(), o);
        checkPakMatchesTree(out / "w.pak", tree.path());
    }
}

TEST_CASE("gbx pipeline: a gbx with a chunk no reader knows is planned by the node scan",
          "[gbx-pipeline][errors]") {
    test::TempDir tree, out;
    Bytes f = makeMap(10, 2, 1);
    Bytes broken = f;
    // Replace the first known chunk ID after the padding with an unknown non-skippable one.
    std::size_t at =
        std::string(broken.begin(), broken.end()).find(std::string("\x11\x30\x04\x03", 4));
    REQUIRE(at != std::string::npos);
    storeLE32(broken.data() + at, 0x03043777);
    test::writeFile(tree / "bad.Map.Gbx", broken);
    for (int level : {0, 9}) {
        INFO("level " << level);
        PackOptions o;
        o.level = level;
        const auto warnings = test::packWarnings(tree.path(), out / "b.pak", test::testKey(), o);
        // The scan finds the 4 node reads of the two pairs after the unknown chunk.
        REQUIRE(warnings.size() == 1);
        CHECK(warnings[0] ==
              "bad.Map.Gbx: chunks no reader knows: the cipher is planned from 4 "
              "node reads found by the node scan");
        auto pak = PakIndex::open(out / "b.pak", test::testKey());
        const PakEntry& e = pak->entries()[0];
        CHECK(e.compressed());  // also at level 0: the Adler-32 is what proves it
        GbxDecode d = decodeGbxEntryProven(pak, e);
        CHECK(d.kind == GbxDecodeKind::Verified);
        CHECK(d.scannedNodeReads == 4);
        CHECK(d.bytes == broken);
    }
    std::vector<std::string> warnings;
    PackOptions raw;
    raw.rawGlobs = {"*.Map.Gbx"};
    raw.level = 0;
    raw.warn = [&](const std::string& w) { warnings.push_back(w); };
    writePak(tree.path(), out / "b.pak", test::testKey(), raw);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] ==
          "bad.Map.Gbx: stored with --raw: the game will not read this gbx file right");
    auto pak = PakIndex::open(out / "b.pak", test::testKey());
    CHECK_THROWS_WITH(readEntry(pak, pak->entries()[0]),
                      (out / "b.pak").string() +
                          ": bad.Map.Gbx: stored gbx entry with chunks no reader knows: cannot be "
                          "verified (unknown chunk 03043777 of CGameCtnChallenge (03043000) at "
                          "offset " +
                          std::to_string(at) +
                          " is not skippable (00000001 follows, not \"PIKS\"): cannot read "
                          "further)");
}

TEST_CASE("gbx pipeline: real gbx fixtures pack and extract byte-exactly",
          "[gbx-pipeline][fixtures]") {
    auto dir = test::sharedDir("fixtures/gbx");
    test::TempDir out;
    std::vector<std::string> raw;
    PackOptions o;
    o.warn = [&](const std::string& w) { raw.push_back(w); };
    // Files the gbx reader cannot parse yet are stored with --raw (reported below).
    std::vector<std::string> unparsed;
    for (const auto& item : fs::directory_iterator(dir)) {
        if (item.path().extension() == ".tsv" || item.path().extension() == ".md") continue;
        test::TempDir one;
        fs::copy_file(item.path(), one / item.path().filename().string());
        try {
            writePak(one.path(), out / "probe.pak", test::testKey(), {});
        } catch (const Error& e) {
            unparsed.push_back(item.path().filename().string());
            WARN("falls back to --raw: " << e.what());
        }
    }
    o.rawGlobs = unparsed;
    writePak(dir, out / "fixtures.pak", test::testKey(), o);
    auto pak = PakIndex::open(out / "fixtures.pak", test::testKey());
    std::size_t exact = 0, gbxCount = 0;
    for (const auto& e : pak->entries()) {
        bool isRaw = std::find(unparsed.begin(), unparsed.end(), e.path) != unparsed.end();
        if (isRaw) continue;
        Bytes got = readEntry(pak, e);
        CHECK(got == test::readFile(dir / e.path));
        ++exact;
        if (isGbxEntry(*pak, e)) ++gbxCount;
    }
    WARN(gbxCount << " gbx fixtures round-trip exactly; " << unparsed.size()
                  << " stored with --raw");
    std::size_t gbxFiles = 0;
    for (const auto& item : fs::directory_iterator(dir)) {
        Bytes head = test::readFile(item.path());
        if (head.size() >= 3 && std::memcmp(head.data(), "GBX", 3) == 0) ++gbxFiles;
    }
    // Every fixture parses far enough for the pipeline (BaseValley, the one uncompressed body,
    // through all its nodes), so none needs --raw.
    CHECK(unparsed.empty());
    CHECK(gbxCount == gbxFiles);
    CHECK(gbxFiles == 50);
}

TEST_CASE("repack with --base: unchanged entries keep their encrypted bytes",
          "[gbx-pipeline][repack]") {
    test::TempDir tree, out;
    test::writeFile(tree / "Maps/a.Map.Gbx", makeMap(100, 4, 1));
    test::writeFile(tree / "Maps/b.Map.Gbx", makeMap(200, 4, 2));
    test::writeFile(tree / "Text/c.txt", Bytes(5000, 'c'));
    test::writeFile(tree / "Text/d.txt", Bytes(300, 'd'));
    writePak(tree.path(), out / "orig.pak", test::testKey(), {});
    // Change one gbx and one text file, add one file.
    test::writeFile(tree / "Maps/b.Map.Gbx", makeMap(201, 4, 3));
    test::writeFile(tree / "Text/d.txt", Bytes(301, 'e'));
    test::writeFile(tree / "Text/new.txt", Bytes(10, 'n'));
    PackOptions o;
    o.base = out / "orig.pak";
    PackResult r = writePak(tree.path(), out / "new.pak", test::testKey(), o);
    CHECK(r.copiedFromBase == 2);
    auto before = PakIndex::open(out / "orig.pak", test::testKey());
    auto after = PakIndex::open(out / "new.pak", test::testKey());
    auto blob = [](const std::shared_ptr<const PakIndex>& p, const std::string& path) {
        for (const auto& e : p->entries())
            if (e.path == path)
                return p->file()->readAt(p->entryOffset(e), std::size_t(8 + e.cipherSize()));
        return Bytes();
    };
    CHECK(blob(before, "Maps/a.Map.Gbx") == blob(after, "Maps/a.Map.Gbx"));
    CHECK(blob(before, "Text/c.txt") == blob(after, "Text/c.txt"));
    CHECK(blob(before, "Maps/b.Map.Gbx") != blob(after, "Maps/b.Map.Gbx"));
    checkPakMatchesTreeAny(out / "new.pak", tree.path());
    PakKey other = test::testKey();
    other[0] ^= 1;
    CHECK_THROWS_WITH(writePak(tree.path(), out / "x.pak", other, o),
                      Catch::Contains("--base is copied as encrypted bytes"));
}

TEST_CASE("gbx pipeline: a real uncompressed-body map drives the cipher node by node",
          "[gbx-pipeline][fixtures]") {
    auto file = test::sharedDir("fixtures/gbx") / "BaseValley.Map.Gbx";
    test::TempDir tree, out;
    Bytes content = test::readFile(file);
    test::writeFile(tree / "BaseValley.Map.Gbx", content);
    for (int level : {0, 6}) {
        INFO("level " << level);
        PackOptions o;
        o.level = level;
        writePak(tree.path(), out / "b.pak", test::testKey(), o);
        auto pak = PakIndex::open(out / "b.pak", test::testKey());
        const PakEntry& e = pak->entries()[0];
        CHECK(e.compressed() == (level > 0));
        CHECK(readEntry(pak, e) == content);
        GbxDecodeOptions without;
        without.perNodeIvXor = false;
        bool differs = true;
        try {
            differs = decodeGbxEntry(pak, e, without) != content;
        } catch (const Error&) {
        }
        CHECK(differs);
    }
}
