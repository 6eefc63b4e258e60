// SPDX-License-Identifier: GPL-2.0-or-later
// The plain entry reader's first read far into a zlib entry, decoded on two cores.
#include "archive/stream/TwoCoreFirstRead.hpp"

#include <algorithm>
#include <new>
#include <optional>
#include <thread>

#include "archive/stream/DecryptAhead.hpp"
#include "archive/stream/IsalInflate.hpp"
#include "archive/stream/SpeculativeInflate.hpp"
#include "common/PageBlock.hpp"

namespace pakfs::archive {

namespace {

// The other thread's part starts at least this far into the compressed stream.
constexpr std::uint64_t kMinFrom = 64 * 1024;
// The other thread starts at this share of the way to the offset's place in the compressed
// stream (estimated from the entry's ratio). It inflates only when it has nothing to decrypt for
// the reader, and twice per byte: on two CPUs alike it gets about an eighth of the way done
// while the reader does the rest. Starting it earlier than that costs little (the reader
// inflates what the other thread did not reach, at the pace it would have come anyway), later
// costs much (the reader inflates more while the other thread, done, has nothing to do), and a
// shared machine often runs one CPU slower, which moves the balance either way: so a little
// before it (measured in BENCHMARKS.md).
constexpr double kSplit = 0.83;
// Seek points the other thread keeps, about this far apart in output.
constexpr std::uint64_t kSpacing = 1ull << 20;

}  // namespace

TwoCoreFirstRead::TwoCoreFirstRead(const EntryStream& s, std::uint64_t offset) : offset_(offset) {
    const PakEntry& e = s.entry;
    const std::uint64_t estimate = std::uint64_t(
        (long double)e.compressedSize * (long double)offset / (long double)e.uncompressedSize);
    from_ = std::uint64_t(double(estimate) * kSplit);
    to_ = std::min<std::uint64_t>(e.compressedSize, estimate + estimate / 32 + (1 << 20));
}

bool TwoCoreFirstRead::worthIt() const {
    return from_ >= kMinFrom;
}

std::shared_ptr<const SeekPoint> TwoCoreFirstRead::run(EntryStream& s, IsalInflate& isal,
                                                       DecryptAhead& ahead) {
    // The other thread's part, and the output ISA-L writes here with the window sliding over it;
    // without the memory for them this thread decodes alone.
    std::optional<SpeculativeInflate> other;
    PageBlock scratch;
    try {
        scratch = PageBlock(IsalInflate::kStep);
        const std::uint64_t cipherSize = s.stage.cipherSize();
        other.emplace(
            [&s, cipherSize](std::uint8_t* dst, std::uint64_t at, std::size_t n) {
                // Whole cipher blocks (the stream's last bytes are followed by padding).
                s.stage.decryptAt(dst - 8, at,
                                  std::size_t(std::min<std::uint64_t>((n + 7) & ~std::size_t(7),
                                                                      cipherSize - at)));
            },
            std::min<std::uint64_t>(s.entry.compressedSize, cipherSize), from_, to_, kSpacing);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
    ahead.giveIdleWork([&other] { return other->step(); });
    // The work is taken back on every way out, and a step that runs is waited for.
    struct TakeBack {
        DecryptAhead& ahead;
        bool armed = true;
        ~TakeBack() {
            if (armed) ahead.takeBackIdleWork();
        }
    } takeBack{ahead};

    std::uint8_t window[kInflateWindow];
    if (!isal.upTo(from_, offset_, window, scratch.data()) || s.produced == offset_) return nullptr;
    while (s.tuning.twoCoresWait && other->searching()) std::this_thread::yield();
    // No block start found by now: the other thread had no time for it.
    const std::optional<std::uint64_t> start = other->start();
    if (!start) return nullptr;
    if (!isal.upTo((*start + 7) / 8, offset_, window, scratch.data()) || s.produced == offset_)
        return nullptr;
    // Only a reader that stands right before a block at the guessed start proves it one.
    if (s.produced < kInflateWindow || !isal.stopsAt(*start)) return nullptr;
    ahead.takeBackIdleWork();
    auto proven = std::make_shared<SpeculativeInflate::Proven>(
        other->finish(s.produced, {window, kInflateWindow}));
    const std::uint64_t in = (*start + 7) / 8;
    const std::shared_ptr<const SeekPoint> startPoint =
        SeekPoint::plain(s.produced, in, int(in * 8 - *start), {window, kInflateWindow});
    std::size_t before = 0;  // the proven points at or before the offset (they are in order)
    while (before < proven->size() && proven->out(before) <= offset_) ++before;
    const std::shared_ptr<const SeekPoint> best =
        before > 0 ? proven->point(before - 1) : startPoint;
    // The points join the index with their windows deflated (a quarter of the memory for
    // text): the other thread resolves and deflates them while this one reads on.
    ahead.giveIdleWork([proven, startPoint, index = s.index, next = std::size_t(0)]() mutable {
        const std::shared_ptr<const SeekPoint> p = next == 0 ? startPoint : proven->point(next - 1);
        ++next;
        if (index->wants(p->out)) index->add(SeekPoint::make(p->out, p->in, p->bits, p->window));
        return next <= proven->size();
    });
    takeBack.armed = false;
    if (s.tuning.twoCoresWait) ahead.waitIdleWork();
    return best;
}

}  // namespace pakfs::archive
