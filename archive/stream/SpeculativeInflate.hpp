// SPDX-License-Identifier: GPL-2.0-or-later
// One deflate stream inflated on two cores. A reader that must decode far into a zlib entry
// (the first read of a fresh mount) decodes the first part itself while the thread that decrypts
// ahead for it, whenever it has nothing to decrypt, inflates a later part in steps: from a block
// start guessed with findDynamicBlockHeader, without the output before it. It inflates twice,
// with two made-up 32 KiB windows: where the two outputs agree a byte came from the stream, where
// they differ the pair names the window byte it copies (in text some bytes copy the window all
// the way on, so the second inflate is rarely dropped). What it keeps are seek points at block
// starts it reached, with both windows; once the reader has decoded up to the guessed start,
// finish() makes them real seek points (each resolved when asked for).
// Nothing is taken on trust: the reader proves the guess by stopping exactly there with ISA-L
// between two blocks (IsalInflate::stopsAt), and only then are the points resolved; any
// other outcome drops them and the reader decodes on alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "archive/stream/SeekPoints.hpp"
#include "common/Bytes.hpp"
#include "common/PageBlock.hpp"

namespace pakfs::archive {

class SpeculativeInflate {
public:
    // Writes the stream's bytes [offset, offset + n) to dst (offset and n multiples of 8 but at
    // the stream's end); dst[-8..-1] may be overwritten. Called from step().
    using Source = std::function<void(std::uint8_t* dst, std::uint64_t offset, std::size_t n)>;

    // Looks for a block start from byte `fromByte` on and inflates from there up to byte
    // `toByte` (at most the stream's `streamBytes`), keeping a seek point about every `spacing`
    // bytes of output (the latest 24). Nothing runs before step(). Memory while it runs: 2 MiB of
    // buffers and inflate states, and 2 MiB for the points' windows (PageBlocks).
    SpeculativeInflate(Source source, std::uint64_t streamBytes, std::uint64_t fromByte,
                       std::uint64_t toByte, std::uint64_t spacing);
    ~SpeculativeInflate();
    SpeculativeInflate(const SpeculativeInflate&) = delete;
    SpeculativeInflate& operator=(const SpeculativeInflate&) = delete;

    // Does a little of the work (at most a few milliseconds); false when there is nothing left
    // to do. One thread at a time.
    bool step();
    // The bit where inflating started, once a guessed block start inflated a while without an
    // error; nullopt before that or when none did. Any thread.
    std::optional<std::uint64_t> start() const;
    class Proven;
    // The seek points, made exact with `window`, the 32 KiB of output before start(), which the
    // reader proved a block start at output offset `startOut` (none without a start() or with a
    // window of another size). Not while step() runs; once the points are handed over, nothing
    // is left to step.
    Proven finish(std::uint64_t startOut, ByteSpan window);

    // Whether it is still looking for a block start to inflate from. Any thread.
    bool searching() const { return searching_.load(); }
    // Bytes of output inflated so far (twice-inflated bytes count once).
    std::uint64_t inflated() const { return inflated_.load(); }

    // The two made-up windows and how a pair of bytes from them names a window byte (exposed
    // for tests): byte i of window 1 is i & 0xff; of window 2, (i & 0xff) + 1 + (i >> 8), never
    // the same, so equal bytes in both outputs came from the stream.
    static const std::uint8_t* madeUpWindow(int which);
    static std::size_t windowIndex(std::uint8_t first, std::uint8_t second) {
        return std::size_t(first) | std::size_t(std::uint8_t(second - first - 1)) << 8;
    }

private:
    struct Point {
        std::uint64_t bit = 0;
        std::uint64_t out = 0;  // output bytes since start()
        std::size_t slot = 0;   // where its two windows are kept
        bool doubled = true;    // false: the first window is the bytes themselves
    };
    class Run;

    Source source_;
    std::uint64_t streamBytes_, fromByte_, toByte_, spacing_;
    std::unique_ptr<Run> run_;  // the inflating state, made by the first step
    bool done_ = false;
    mutable std::mutex mutex_;
    std::optional<std::uint64_t> start_;
    std::vector<Point> points_;
    PageBlock slots_;  // the points' windows, a slot of two for each and one spare
    std::size_t pointsMade_ = 0;
    std::atomic<std::uint64_t> inflated_{0};
    std::atomic<bool> searching_{true};
};

// The points of a proven guess. Each is resolved against the reader's window when asked for
// (32 KiB of lookups and a copy): the reader takes the one it resumes at, and the other thread
// the rest for the index, off the read's path.
class SpeculativeInflate::Proven {
public:
    Proven() = default;
    std::size_t size() const { return points_.size(); }
    // Where point i is in the entry's output.
    std::uint64_t out(std::size_t i) const { return startOut_ + points_[i].out; }
    // Point i with its window as bytes (SeekPoint::plain).
    std::shared_ptr<SeekPoint> point(std::size_t i) const;

private:
    friend class SpeculativeInflate;
    std::uint64_t startOut_ = 0;
    std::vector<Point> points_;
    PageBlock slots_;
    Bytes window_;  // the 32 KiB before the guessed start
};

}  // namespace pakfs::archive
