// SPDX-License-Identifier: GPL-2.0-or-later
// The writer on several threads: the same pak as on one, zlib streams the game's inflater
// reads, incompressible files stored.
#include <zlib.h>

#include <catch2/catch.hpp>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

// Text, random and mixed files of many sizes in a few folders.
void writeManySizesTree(const fs::path& root) {
    for (int i = 0; i < 60; ++i) {
        const std::string folder = "F" + std::to_string(i % 5);
        const std::size_t size = std::size_t(i) * 9973 % 400000 + std::size_t(i);
        Bytes data = i % 3 == 0 ? test::randomBytes(size, std::uint32_t(i))
                                : test::compressibleText(size, std::uint32_t(i));
        test::writeFile(root / folder / ("file" + std::to_string(i) + ".bin"), data);
    }
    // Large: random (stored), text (compressed), and text after a random start.
    test::writeFile(root / "big" / "random.bin", test::randomBytes(3 << 20, 101));
    test::writeFile(root / "big" / "text.txt", test::compressibleText(3 << 20, 102));
    Bytes mixed = test::randomBytes(200 << 10, 103);
    Bytes text = test::compressibleText(2 << 20, 104);
    mixed.insert(mixed.end(), text.begin(), text.end());
    test::writeFile(root / "big" / "mixed.bin", mixed);
}

// The compressed bytes of an entry, decrypted, inflated by zlib itself.
Bytes inflateWithZlib(const PakIndex& pak, const PakEntry& e) {
    Bytes slot = pak.file()->readAt(pak.entryOffset(e), std::size_t(e.ivSize() + e.cipherSize()));
    std::uint64_t iv = loadLE64(slot.data());
    Bytes data(slot.begin() + 8, slot.end());
    pak.cipher().cbcDecrypt(data.data(), data.size(), iv);
    data.resize(e.compressedSize);
    Bytes out(e.uncompressedSize);
    uLongf outSize = uLongf(out.size());
    int rc = uncompress(out.data(), &outSize, data.data(), uLong(data.size()));
    REQUIRE(rc == Z_OK);
    REQUIRE(outSize == out.size());
    return out;
}

}  // namespace

TEST_CASE("pack: -j 1 and -j 4 write the same pak, byte for byte, versions 3 and 17",
          "[pak][pack][parallel]") {
    test::TempDir dir;
    writeManySizesTree(dir / "tree");
    for (std::uint32_t version : {3u, 17u}) {
        INFO("version " << version);
        PackOptions one, four;
        one.version = four.version = version;
        one.level = four.level = 6;
        one.jobs = 1;
        four.jobs = 4;
        std::vector<std::string> warnOne, warnFour;
        one.warn = [&](const std::string& w) { warnOne.push_back(w); };
        four.warn = [&](const std::string& w) { warnFour.push_back(w); };
        writePak(dir / "tree", dir / "one.pak", test::testKey(), one);
        writePak(dir / "tree", dir / "four.pak", test::testKey(), four);
        const Bytes a = test::readFile(dir / "one.pak"), b = test::readFile(dir / "four.pak");
        CHECK(a.size() == b.size());
        CHECK(test::sha256Hex(a) == test::sha256Hex(b));
        CHECK(warnOne == warnFour);
        // Written again: the same (the IVs come from the content).
        writePak(dir / "tree", dir / "again.pak", test::testKey(), four);
        CHECK(test::sha256Hex(test::readFile(dir / "again.pak")) == test::sha256Hex(a));
    }
}

TEST_CASE("pack: compressed plain entries are zlib streams zlib inflates, random ones stored",
          "[pak][pack][parallel]") {
    test::TempDir dir;
    writeManySizesTree(dir / "tree");
    PackOptions options;
    options.level = 9;
    writePak(dir / "tree", dir / "t.pak", test::testKey(), options);
    auto pak = PakIndex::open(dir / "t.pak", test::testKey());
    std::size_t compressed = 0;
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        const Bytes want = test::readFile(dir / "tree" / e.path);
        CHECK(test::sha256Hex(readEntry(pak, e)) == test::sha256Hex(want));
        if (e.compressed()) {
            ++compressed;
            CHECK(test::sha256Hex(inflateWithZlib(*pak, e)) == test::sha256Hex(want));
        }
        // Random content does not shrink: stored, whatever its size.
        if (e.path == "big/random.bin") CHECK_FALSE(e.compressed());
        // A random start, then text: compressed.
        if (e.path == "big/mixed.bin") CHECK(e.compressed());
        if (e.path == "big/text.txt") CHECK(e.compressed());
    }
    CHECK(compressed >= 40);
}
