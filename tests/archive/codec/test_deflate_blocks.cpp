// SPDX-License-Identifier: GPL-2.0-or-later
// Guessing deflate block starts inside a stream, and inflating from a guessed start without the
// output before it (SpeculativeInflate): checked against the block boundaries zlib reports for
// the same stream, and against the bytes themselves.
#include <catch2/catch.hpp>

#include <zlib.h>

#include "archive/codec/DeflateBlocks.hpp"
#include "archive/stream/SpeculativeInflate.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

struct BlockStart {
    std::uint64_t bit;  // in the zlib stream, from its first byte
    std::uint64_t out;  // output before it
};

// A zlib stream of `data` (level 6) and the starts of its blocks after the first (zlib's
// Z_BLOCK stops), the last block's included.
struct ZlibStream {
    Bytes data, stream;
    std::vector<BlockStart> starts;

    explicit ZlibStream(Bytes content) : data(std::move(content)) {
        uLongf n = compressBound(uLong(data.size()));
        stream.resize(n);
        REQUIRE(compress2(stream.data(), &n, data.data(), uLong(data.size()), 6) == Z_OK);
        stream.resize(n);
        z_stream z{};
        REQUIRE(inflateInit(&z) == Z_OK);
        Bytes out(1 << 16);
        z.next_in = stream.data();
        z.avail_in = uInt(stream.size());
        std::uint64_t produced = 0;
        for (;;) {
            z.next_out = out.data();
            z.avail_out = uInt(out.size());
            const int rc = inflate(&z, Z_BLOCK);
            produced += out.size() - z.avail_out;
            if (rc == Z_STREAM_END) break;
            REQUIRE(rc == Z_OK);
            if ((z.data_type & 128) && !(z.data_type & 64) && produced > 0)
                starts.push_back(
                    {(stream.size() - z.avail_in) * 8 - std::uint64_t(z.data_type & 7), produced});
        }
        inflateEnd(&z);
        REQUIRE(produced == data.size());
    }

    // The first block start at or after `bit` whose header says: not the last, dynamic codes.
    const BlockStart* dynamicAfter(std::uint64_t bit) const {
        for (const BlockStart& s : starts) {
            if (s.bit < bit) continue;
            const std::uint64_t byte = s.bit / 8;
            unsigned v = stream[byte] | (byte + 1 < stream.size() ? stream[byte + 1] << 8 : 0);
            v >>= s.bit % 8;
            if ((v & 7) == 4) return &s;
        }
        return nullptr;
    }
};

}  // namespace

TEST_CASE("deflate blocks: a guessed header is the next block start zlib reports",
          "[pak][inflate][deflate-blocks]") {
    const ZlibStream z(test::compressibleText(3000000, 21));
    REQUIRE(z.starts.size() > 10);
    const ByteSpan stream(z.stream);
    // From just after the first block's start (bit 16, after the zlib header) on, while a
    // non-final block follows.
    const std::uint64_t step = z.stream.size() * 8 / 37;
    int tried = 0;
    for (std::uint64_t from = 17;; from += step, ++tried) {
        INFO("from bit " << from);
        const BlockStart* want = z.dynamicAfter(from);
        if (!want) break;
        CHECK(findDynamicBlockHeader(stream, from, stream.size() * 8) == want->bit);
        // The search stops where it is told to.
        CHECK(findDynamicBlockHeader(stream, from, want->bit) == std::nullopt);
        CHECK(findDynamicBlockHeader(stream, from, want->bit + 1) == want->bit);
    }
    CHECK(tried >= 30);
    // Nothing past the data, and nothing in a stream too short for a header.
    CHECK(findDynamicBlockHeader(stream, stream.size() * 8, stream.size() * 8 + 100) ==
          std::nullopt);
    CHECK(findDynamicBlockHeader(stream.subspan(0, 3), 0, 24) == std::nullopt);
}

TEST_CASE("deflate blocks: a search finds the first position that passes on its own",
          "[pak][inflate][deflate-blocks]") {
    // The search looks at many positions at a time; asked about one bit at a time it must find
    // the same headers (the stream's block starts among them), from any start and to any end.
    const ZlibStream z(test::compressibleText(1500000, 31));
    const ByteSpan data(z.stream);
    const std::uint64_t end = data.size() * 8;
    std::vector<std::uint64_t> alone;
    for (std::uint64_t bit = 0; bit < end; ++bit)
        if (findDynamicBlockHeader(data, bit, bit + 1)) alone.push_back(bit);
    REQUIRE(alone.size() >= 3);
    for (const BlockStart& s : z.starts)
        if (z.dynamicAfter(s.bit) == &s)
            CHECK(std::binary_search(alone.begin(), alone.end(), s.bit));
    std::vector<std::uint64_t> chained;
    for (std::uint64_t from = 0;;) {
        const std::optional<std::uint64_t> bit = findDynamicBlockHeader(data, from, end);
        if (!bit) break;
        chained.push_back(*bit);
        from = *bit + 1;
    }
    CHECK(chained == alone);
    for (std::uint64_t from : {std::uint64_t(0), alone[1] - 44, alone[1] - 45, alone[1] - 46}) {
        for (std::uint64_t to : {alone[1], alone[1] + 1, alone[1] + 45}) {
            INFO("from " << from << " to " << to);
            const std::optional<std::uint64_t> bit = findDynamicBlockHeader(data, from, to);
            const auto want = std::lower_bound(alone.begin(), alone.end(), from);
            CHECK(bit == (want != alone.end() && *want < to ? std::optional(*want) : std::nullopt));
        }
    }
}

TEST_CASE("deflate blocks: the made-up windows name every window byte",
          "[pak][inflate][deflate-blocks]") {
    const std::uint8_t* one = SpeculativeInflate::madeUpWindow(1);
    const std::uint8_t* two = SpeculativeInflate::madeUpWindow(2);
    for (std::size_t i = 0; i < kInflateWindow; ++i) {
        REQUIRE(one[i] != two[i]);
        REQUIRE(SpeculativeInflate::windowIndex(one[i], two[i]) == i);
    }
}

namespace {

// Every point of a proven guess, resolved: each says where it is before it is resolved, and
// its window is the 32 KiB of `data` before it.
std::vector<std::shared_ptr<SeekPoint>> resolved(const SpeculativeInflate::Proven& proven,
                                                 const Bytes& data) {
    std::vector<std::shared_ptr<SeekPoint>> points;
    Bytes bytes(kInflateWindow);
    for (std::size_t i = 0; i < proven.size(); ++i) {
        const std::shared_ptr<SeekPoint> p = proven.point(i);
        INFO("point at " << p->out);
        CHECK(p->out == proven.out(i));
        REQUIRE(p->windowSize == kInflateWindow);
        p->windowBytes(bytes.data());
        CHECK(bytes == Bytes(data.begin() + std::ptrdiff_t(p->out - kInflateWindow),
                             data.begin() + std::ptrdiff_t(p->out)));
        points.push_back(p);
    }
    return points;
}

}  // namespace

TEST_CASE("deflate blocks: inflating from a guessed start gives exact seek points",
          "[pak][inflate][deflate-blocks]") {
    // Text whose copies reach back into the window before the start all the way on.
    const ZlibStream z(test::compressibleText(4000000, 22));
    const std::uint64_t fromByte = z.stream.size() / 3;
    int sourced = 0;
    SpeculativeInflate s(
        [&](std::uint8_t* dst, std::uint64_t at, std::size_t n) {
            REQUIRE(at % 8 == 0);
            REQUIRE(at + n <= z.stream.size());
            std::memcpy(dst, z.stream.data() + at, n);
            ++sourced;
        },
        z.stream.size(), fromByte, z.stream.size(), 256 * 1024);
    CHECK(s.searching());
    CHECK(sourced == 0);  // nothing before the first step
    int steps = 0;
    while (s.step()) REQUIRE(++steps < 100000);
    CHECK_FALSE(s.searching());
    const BlockStart* start = z.dynamicAfter(fromByte * 8);
    REQUIRE(start);
    REQUIRE(s.start() == start->bit);
    CHECK(s.inflated() == z.data.size() - start->out);  // on to the stream's end

    const ByteSpan window(z.data.data() + start->out - kInflateWindow, kInflateWindow);
    // A wrong window gives no points at all (and leaves them).
    CHECK(s.finish(start->out, window.subspan(1)).size() == 0);
    const std::vector<std::shared_ptr<SeekPoint>> points =
        resolved(s.finish(start->out, window), z.data);
    REQUIRE(points.size() >= 4);
    std::uint64_t last = start->out;
    for (const auto& p : points) {
        INFO("point at " << p->out);
        CHECK(p->out >= last + 256 * 1024);
        last = p->out;
        // At a block start zlib reports, with the 32 KiB before it.
        const std::uint64_t bit = p->in * 8 - std::uint64_t(p->bits);
        auto it = std::find_if(z.starts.begin(), z.starts.end(),
                               [&](const BlockStart& b) { return b.bit == bit; });
        REQUIRE(it != z.starts.end());
        CHECK(it->out == p->out);
    }
    // They were handed over.
    CHECK(s.finish(start->out, window).size() == 0);
}

TEST_CASE("deflate blocks: no block start before the end guesses nothing",
          "[pak][inflate][deflate-blocks]") {
    const ZlibStream z(test::compressibleText(400000, 23));
    // From after the last block start: no header left to find.
    const std::uint64_t fromByte = z.starts.back().bit / 8 + 1;
    SpeculativeInflate s([&](std::uint8_t* dst, std::uint64_t at,
                             std::size_t n) { std::memcpy(dst, z.stream.data() + at, n); },
                         z.stream.size(), fromByte, z.stream.size(), 1 << 20);
    int steps = 0;
    while (s.step()) REQUIRE(++steps < 1000);
    CHECK_FALSE(s.searching());
    CHECK(s.start() == std::nullopt);
    CHECK(s.inflated() == 0);
    CHECK(s.finish(0, ByteSpan(z.data.data(), kInflateWindow)).size() == 0);
}

TEST_CASE("deflate blocks: random bytes end the guessing, with no point from them",
          "[pak][inflate][deflate-blocks]") {
    // Headers zlib would accept do turn up in random bytes; what follows them fails to inflate
    // soon, and the search goes on to the end.
    const Bytes noise = test::randomBytes(1500000, 24);
    SpeculativeInflate s([&](std::uint8_t* dst, std::uint64_t at,
                             std::size_t n) { std::memcpy(dst, noise.data() + at, n); },
                         noise.size(), 0, noise.size(), 64 * 1024);
    int steps = 0;
    while (s.step()) REQUIRE(++steps < 100000);
    CHECK_FALSE(s.searching());
    // None of them inflates the 64 KiB a guess must give before it counts.
    CHECK(s.start() == std::nullopt);
    CHECK(s.finish(1 << 20, Bytes(kInflateWindow, 0)).size() == 0);
}

TEST_CASE("deflate blocks: only the latest points are kept", "[pak][inflate][deflate-blocks]") {
    // Random letters: blocks every few dozen KiB of output, so a point at nearly every one.
    Bytes letters(3000000);
    std::uint64_t x = 25;
    for (auto& b : letters) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b = (x >> 60) < 3 ? ' ' : std::uint8_t('a' + (x >> 33) % 26);
    }
    const ZlibStream z(letters);
    const std::uint64_t fromByte = z.stream.size() / 4;
    SpeculativeInflate s([&](std::uint8_t* dst, std::uint64_t at,
                             std::size_t n) { std::memcpy(dst, z.stream.data() + at, n); },
                         z.stream.size(), fromByte, z.stream.size(), 16 * 1024);
    int steps = 0;
    while (s.step()) REQUIRE(++steps < 100000);
    const BlockStart* start = z.dynamicAfter(fromByte * 8);
    REQUIRE(start);
    REQUIRE(s.start() == start->bit);
    // Far more block starts than that after the guessed one.
    const auto after = std::count_if(z.starts.begin(), z.starts.end(),
                                     [&](const BlockStart& b) { return b.bit > start->bit; });
    REQUIRE(after > 40);
    // (Their windows share slots: a 25th slot for the next point.)
    const std::vector<std::shared_ptr<SeekPoint>> points = resolved(
        s.finish(start->out, ByteSpan(z.data.data() + start->out - kInflateWindow, kInflateWindow)),
        z.data);
    REQUIRE(points.size() == 24);
    // The last 24 block starts that were due: the final one is among the stream's last starts.
    CHECK(points.back()->out >= z.starts[z.starts.size() - 3].out);
}

TEST_CASE("deflate blocks: points handed over midway end the inflating",
          "[pak][inflate][deflate-blocks]") {
    const ZlibStream z(test::compressibleText(4000000, 26));
    const std::uint64_t fromByte = z.stream.size() / 4;
    SpeculativeInflate s([&](std::uint8_t* dst, std::uint64_t at,
                             std::size_t n) { std::memcpy(dst, z.stream.data() + at, n); },
                         z.stream.size(), fromByte, z.stream.size(), 128 * 1024);
    // Stepped until a few points are kept, far from the stream's end.
    while (s.inflated() < 1000000) REQUIRE(s.step());
    const BlockStart* start = z.dynamicAfter(fromByte * 8);
    REQUIRE(start);
    REQUIRE(s.start() == start->bit);
    const std::vector<std::shared_ptr<SeekPoint>> points = resolved(
        s.finish(start->out, ByteSpan(z.data.data() + start->out - kInflateWindow, kInflateWindow)),
        z.data);
    REQUIRE(points.size() >= 2);
    CHECK(points.back()->out < start->out + 1100000);
    CHECK_FALSE(s.step());  // nothing left to step: its slots went with the points
}
