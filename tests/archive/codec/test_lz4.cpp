// SPDX-License-Identifier: GPL-2.0-or-later
// Version 18's LZ4 block stream: round trips, the dictionary, the lazy block reads the cipher
// depends on, and hostile streams.
#include <lz4.h>

#include <catch2/catch.hpp>
#include <random>

#include "archive/codec/Lz4.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

// 512-byte blocks, by turns a run of seven letters repeated and random bytes.
Bytes patternAndRandomBlocks(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = (i / 512) % 2 ? std::uint8_t(rng()) : 'a' + i % 7;
    return b;
}

// Counts what the stage takes from its input.
class CountingSource final : public pakfs::ByteSource {
public:
    explicit CountingSource(ByteSpan data) : inner_(data) {}
    void read(std::span<std::uint8_t> dst) override { inner_.read(dst); }
    std::uint64_t position() const override { return inner_.position(); }
    std::optional<std::uint64_t> remaining() const override { return inner_.remaining(); }

private:
    pakfs::MemorySource inner_;
};

Bytes throughStage(ByteSpan stream, std::size_t size, std::size_t piece) {
    pakfs::MemorySource in(stream);
    Lz4Stage stage(in, stream.size(), size, "t");
    Bytes out(size);
    for (std::size_t at = 0; at < size; at += piece)
        stage.read({out.data() + at, std::min(piece, size - at)});
    stage.finish();
    return out;
}

std::string decodeError(const Bytes& stream, std::uint64_t size) {
    try {
        lz4PackDecompress(stream, size, "x.Pack.Gbx: a.txt");
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("lz4: the embedded dictionary is the format's", "[lz4]") {
    ByteSpan d = pak18Lz4Dictionary();
    CHECK(d.size() == 1006);
    CHECK(test::sha256Hex(d) == "49091f002a04ac1f1962cfa5106a0a1480223be734937d45675f11f8d71f18d2");
}

TEST_CASE("lz4: round trips through the whole-buffer decoder and the stage", "[lz4]") {
    for (std::size_t n : {0, 1, 4095, 4096, 4097, 3 * 4096, 200000}) {
        INFO(n);
        Bytes data = patternAndRandomBlocks(n, std::uint32_t(n));
        Bytes stream = lz4PackCompress(data);
        CHECK(lz4PackDecompress(stream, n, "t") == data);
        for (std::size_t piece : {std::size_t(1), std::size_t(77), std::size_t(4096)})
            CHECK(throughStage(stream, n, piece) == data);
    }
}

TEST_CASE("lz4: the first block refers to the dictionary", "[lz4]") {
    // Content that repeats the dictionary's start: its first block matches into the dictionary,
    // so a decoder without it cannot decode the block.
    ByteSpan d = pak18Lz4Dictionary();
    Bytes data(d.begin(), d.begin() + 400);
    Bytes stream = lz4PackCompress(data);
    REQUIRE(stream.size() < 100);
    CHECK(lz4PackDecompress(stream, data.size(), "t") == data);
    Bytes plain(data.size());
    int got = LZ4_decompress_safe(reinterpret_cast<const char*>(stream.data() + 2),
                                  reinterpret_cast<char*>(plain.data()), int(stream.size() - 2),
                                  int(plain.size()));
    CHECK((got < 0 || plain != data));
}

TEST_CASE("lz4: the stage reads a block only when a byte of it is asked for", "[lz4]") {
    Bytes data = patternAndRandomBlocks(3 * 4096 + 10, 5);
    Bytes stream = lz4PackCompress(data);
    const std::size_t block0 = 2 + loadLE16(stream.data());
    const std::size_t block1 = 2 + loadLE16(stream.data() + block0);
    CountingSource in(stream);
    Lz4Stage stage(in, stream.size(), data.size(), "t");
    CHECK(in.position() == 0);
    std::uint8_t b[4096];
    stage.read({b, 1});
    CHECK(in.position() == block0);
    stage.read({b, 4095});  // 4096 handed out: still block 0
    CHECK(in.position() == block0);
    stage.read({b, 1});
    CHECK(in.position() == block0 + block1);
}

TEST_CASE("lz4: hostile streams are errors naming the file and the block", "[lz4]") {
    Bytes data = patternAndRandomBlocks(9000, 9);
    Bytes stream = lz4PackCompress(data);
    const std::string name = "x.Pack.Gbx: a.txt";
    CHECK(decodeError(Bytes{0, 0, 1}, 1) == name + ": LZ4 block 0: size 0 is not 1 to 4128");
    CHECK(decodeError(Bytes{0x88, 0x13, 1}, 1) ==
          name + ": LZ4 block 0: size 5000 is not 1 to 4128");
    Bytes cut(stream.begin(), stream.end() - 5);
    CHECK(decodeError(cut, data.size()) == name + ": LZ4 block 2: runs past the end of the data");
    Bytes more = stream;
    more.push_back(0);
    CHECK(decodeError(more, data.size()) ==
          name + ": 1 bytes of LZ4 data left after the declared size");
    // One byte less declared: the last block does not fit the space left.
    CHECK(decodeError(stream, data.size() - 1) == name + ": LZ4 block 2: corrupt LZ4 data");
    CHECK(decodeError(stream, 1u << 30) == name + ": LZ4 data of " + std::to_string(stream.size()) +
                                               " bytes cannot give the declared 1073741824 bytes");
    // Many tiny blocks declaring much more than they can give: refused before the output is
    // allocated.
    Bytes tiny;
    for (int i = 0; i < 100; ++i) tiny.insert(tiny.end(), {3, 0, 0x30, 'a', 'b'});
    CHECK(decodeError(tiny, 100 * 4096) == name + ": LZ4 block 0: size 3 cannot give 4096 bytes");
    // A block that ends short of 4096 before the last one.
    Bytes shortBlock = lz4PackCompress(Bytes(100, 'q'));
    Bytes twoBlocks = shortBlock;
    twoBlocks.insert(twoBlocks.end(), shortBlock.begin(), shortBlock.end());
    CHECK(decodeError(twoBlocks, 200) == name + ": LZ4 block 0: gives 100 bytes instead of 200");
    Bytes corrupt = stream;
    corrupt[2] = 0xFF;  // the first token: a literal run longer than the block
    CHECK(decodeError(corrupt, data.size()) == name + ": LZ4 block 0: corrupt LZ4 data");
    // The stage gives the same errors, and never more than the data can give.
    pakfs::MemorySource in(cut);
    Lz4Stage stage(in, cut.size(), data.size(), name);
    CHECK(*stage.remaining() <= cut.size() / 3 * 4096);
    Bytes out(data.size());
    CHECK_THROWS_WITH(stage.read(out), name + ": LZ4 block 2: runs past the end of the data");
}
