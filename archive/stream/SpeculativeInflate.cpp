// SPDX-License-Identifier: GPL-2.0-or-later
// The second core's inflate in steps: a header search, a trial inflate from each guess, then
// both inflates over the made-up windows; finish() turns the points reached into seek points.
#include "archive/stream/SpeculativeInflate.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include <isa-l/igzip_lib.h>

#include "archive/codec/DeflateBlocks.hpp"

namespace pakfs::archive {

namespace {

constexpr std::size_t kPiece = 512 * 1024;  // stream bytes decrypted at a time
constexpr std::size_t kOut = 512 * 1024;    // output per ISA-L call: a step of a millisecond or two
// Room after a guessed header for the header itself (at most about 300 bytes) before the
// buffer is refilled.
constexpr std::size_t kHeaderRoom = 1024;
// Bits searched for a header per step (about 2 ms where none is found).
constexpr std::uint64_t kScanBits = 256 * 1024;
// A guessed start is kept once this much output inflated from it without an error (the reader
// still proves it).
constexpr std::uint64_t kTrialOut = 64 * 1024;
// Points kept (the latest: a reader resumes at the last one before its offset), each with two
// 32 KiB windows while the second inflate runs.
constexpr std::size_t kMaxPoints = 24;

const std::array<std::array<std::uint8_t, kInflateWindow>, 2> kMadeUp = [] {
    std::array<std::array<std::uint8_t, kInflateWindow>, 2> w{};
    for (std::size_t i = 0; i < kInflateWindow; ++i) {
        w[0][i] = std::uint8_t(i);
        w[1][i] = std::uint8_t(i + 1 + (i >> 8));
    }
    return w;
}();

// The Run's buffers and inflate states, in one PageBlock (one 2 MiB page where huge pages are
// given, instead of about 440 page faults).
constexpr std::size_t kBufBytes = (8 + kPiece + 8 + 63) & ~std::size_t(63);
constexpr std::size_t kStateBytes = (sizeof(inflate_state) + 63) & ~std::size_t(63);
constexpr std::size_t kRunBytes = kBufBytes + 2 * kOut + 2 * kInflateWindow + 2 * kStateBytes;
static_assert(kRunBytes <= PageBlock::kHugePage);
// The points' windows (two each), in slots of a PageBlock: one more slot than points, so the
// next point's is never one still listed.
constexpr std::size_t kPointSlots = kMaxPoints + 1;
static_assert(kPointSlots * 2 * kInflateWindow <= PageBlock::kHugePage);

// Index one past the last byte where a and b differ, 0 when they agree.
std::size_t lastDifference(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
    constexpr std::size_t kStep = 256;
    while (n > 0) {
        std::size_t k = std::min(n, kStep);
        if (std::memcmp(a + n - k, b + n - k, k) != 0) {
            for (std::size_t i = n; i > n - k; --i)
                if (a[i - 1] != b[i - 1]) return i;
        }
        n -= k;
    }
    return 0;
}

}  // namespace

const std::uint8_t* SpeculativeInflate::madeUpWindow(int which) {
    return kMadeUp[std::size_t(which == 2)].data();
}

// The inflating state, stepped by SpeculativeInflate::step.
class SpeculativeInflate::Run {
public:
    explicit Run(SpeculativeInflate& owner) : o_(owner), searchFrom_(owner.fromByte_ * 8) {}

    bool step() {
        switch (phase_) {
            case Phase::Search:
                return searchStep();
            case Phase::Trial:
                return trialStep();
            case Phase::Inflate:
                return inflateStep();
        }
        return false;
    }

private:
    enum class Phase { Search, Trial, Inflate };
    enum class Step { Progress, Stuck, Failed, Ended };
    bool searchStep();
    bool trialStep();
    bool inflateStep();
    // Buffers the stream from byte `at` (rounded down to 8) on.
    void load(std::uint64_t at);
    void begin(std::uint64_t bit);
    // ISA-L on (both inflates) with the input up to byte `limit`, at most `maxOut` of output.
    Step feed(std::uint64_t limit, std::size_t maxOut = kOut);
    bool last() const { return bufEnd_ >= o_.toByte_; }
    // The bits that can be fed or searched: a guessed header needs room after it.
    std::uint64_t usableEnd() const { return last() ? bufEnd_ * 8 : (bufEnd_ - kHeaderRoom) * 8; }
    std::optional<std::uint64_t> findHeader(std::uint64_t from, std::uint64_t to) const {
        // Bits ISA-L holds from before the buffer's start are not searched again.
        from = std::max(from, bufStart_ * 8);
        if (from >= to) return std::nullopt;
        auto bit = findDynamicBlockHeader(buffered(), from - bufStart_ * 8, to - bufStart_ * 8);
        return bit ? std::optional(bufStart_ * 8 + *bit) : std::nullopt;
    }
    std::uint64_t bitPosition() const {
        const inflate_state& s = *a_;
        return fed_ * 8 - std::uint64_t(s.read_in_length) -
               (s.block_state == ISAL_BLOCK_HDR ? std::uint64_t(s.tmp_in_size) * 8 : 0);
    }
    // Whether ISA-L stands between two blocks, the next one starting at `bit`.
    bool between(std::uint64_t bit) const {
        const auto st = a_->block_state;
        return (st == ISAL_BLOCK_HDR || st == ISAL_BLOCK_NEW_HDR) && bitPosition() == bit;
    }
    ByteSpan buffered() const { return {buf_ + 8, std::size_t(bufEnd_ - bufStart_)}; }

    SpeculativeInflate& o_;
    Phase phase_ = Phase::Search;
    std::uint64_t searchFrom_;  // the next bit to look for a header at
    std::uint64_t trial_ = 0;   // the guessed start being tried
    std::uint64_t nextPoint_ = 0, scanFrom_ = 0;
    PageBlock mem_{kRunBytes};
    std::uint8_t* buf_ = mem_.data();
    std::uint8_t* out1_ = buf_ + kBufBytes;
    std::uint8_t* out2_ = out1_ + kOut;
    std::uint8_t* tail1_ = out2_ + kOut;  // the last 32 KiB of each output
    std::uint8_t* tail2_ = tail1_ + kInflateWindow;
    // Set up by isal_inflate_init in begin().
    inflate_state* a_ = new (tail2_ + kInflateWindow) inflate_state;
    inflate_state* b_ = new (tail2_ + kInflateWindow + kStateBytes) inflate_state;
    std::uint64_t bufStart_ = 0, bufEnd_ = 0;
    std::uint64_t fed_ = 0;
    bool doubled_ = true;
    std::uint64_t out_ = 0;       // since the start
    std::uint64_t lastDiff_ = 0;  // output offset one past the last byte the windows decided
};

void SpeculativeInflate::Run::load(std::uint64_t at) {
    bufStart_ = at & ~std::uint64_t(7);
    bufEnd_ = std::min<std::uint64_t>(bufStart_ + kPiece, o_.toByte_);
    if (bufEnd_ > bufStart_) o_.source_(buf_ + 8, bufStart_, std::size_t(bufEnd_ - bufStart_));
}

void SpeculativeInflate::Run::begin(std::uint64_t bit) {
    trial_ = bit;
    for (inflate_state* st : {a_, b_}) {
        isal_inflate_init(st);  // raw deflate
        isal_inflate_set_dict(st, const_cast<std::uint8_t*>(madeUpWindow(st == a_ ? 1 : 2)),
                              std::uint32_t(kInflateWindow));
    }
    fed_ = bit / 8;
    if (fed_ < bufStart_ || fed_ >= bufEnd_) load(fed_);
    if (const int r = int(bit % 8)) {
        // The bits of the first byte from the start on, as the reader's resumeIsal feeds them.
        for (inflate_state* st : {a_, b_}) {
            st->read_in = std::uint64_t(buf_[8 + (fed_ - bufStart_)] >> r);
            st->read_in_length = 8 - r;
        }
        ++fed_;
    }
    doubled_ = true;
    std::memcpy(tail1_, madeUpWindow(1), kInflateWindow);
    std::memcpy(tail2_, madeUpWindow(2), kInflateWindow);
    out_ = 0;
    lastDiff_ = 0;
}

SpeculativeInflate::Run::Step SpeculativeInflate::Run::feed(std::uint64_t limit,
                                                            std::size_t maxOut) {
    maxOut = std::min(maxOut, kOut);
    limit = std::min(limit, bufEnd_);
    if (fed_ < bufStart_) return Step::Failed;  // loads keep what ISA-L has not taken: never
    const std::uint32_t n = std::uint32_t(limit > fed_ ? limit - fed_ : 0);
    std::uint8_t* in = buf_ + 8 + (fed_ - bufStart_);
    std::uint32_t used = 0, got = 0;
    int rc = 0;
    for (inflate_state* st : {a_, b_}) {
        if (st == b_ && !doubled_) break;
        st->next_in = in;
        st->avail_in = n;
        st->next_out = st == a_ ? out1_ : out2_;
        st->avail_out = std::uint32_t(maxOut);
        const int r = isal_inflate(st);
        const std::uint32_t u = n - st->avail_in, g = std::uint32_t(maxOut) - st->avail_out;
        if (st == a_) {
            rc = r;
            used = u;
            got = g;
        } else if (r != rc || u != used || g != got) {
            return Step::Failed;  // the two inflates read the same bits: never
        }
    }
    if (rc != ISAL_DECOMP_OK) return Step::Failed;
    fed_ += used;
    slideWindow(tail1_, out1_, got);
    if (doubled_) {
        slideWindow(tail2_, out2_, got);
        if (std::size_t d = lastDifference(out1_, out2_, got)) lastDiff_ = out_ + d;
    }
    out_ += got;
    o_.inflated_.fetch_add(got, std::memory_order_relaxed);
    // Once 32 KiB of output owe nothing to the made-up windows, neither does anything after.
    if (doubled_ && out_ - lastDiff_ >= kInflateWindow) doubled_ = false;
    const auto st = a_->block_state;
    if (st == ISAL_BLOCK_INPUT_DONE || st == ISAL_BLOCK_FINISH) return Step::Ended;
    return used == 0 && got == 0 ? Step::Stuck : Step::Progress;
}

bool SpeculativeInflate::Run::searchStep() {
    if (searchFrom_ / 8 >= o_.toByte_) return false;
    if (searchFrom_ / 8 < bufStart_ || (searchFrom_ / 8 + kHeaderRoom >= bufEnd_ && !last()))
        load(searchFrom_ / 8);
    const std::uint64_t end = usableEnd();
    const std::uint64_t to = std::min(end, searchFrom_ + kScanBits);
    if (std::optional<std::uint64_t> bit = findHeader(searchFrom_, to)) {
        begin(*bit);
        phase_ = Phase::Trial;
        return true;
    }
    if (last() && to >= end) return false;
    searchFrom_ = to;
    return true;
}

bool SpeculativeInflate::Run::trialStep() {
    if (fed_ + kHeaderRoom >= bufEnd_ && !last()) load(fed_);
    const Step step = feed(bufEnd_);
    if (out_ >= kTrialOut || step == Step::Ended) {
        std::lock_guard lock(o_.mutex_);
        o_.start_ = trial_;
        o_.searching_ = false;
        phase_ = Phase::Inflate;
        nextPoint_ = o_.spacing_;
        return step != Step::Ended;
    }
    // Stuck with input left (ISA-L takes input or fails: never) is a failure too.
    if (step == Step::Failed || (step == Step::Stuck && (last() || fed_ + kHeaderRoom < bufEnd_))) {
        searchFrom_ = trial_ + 1;
        phase_ = Phase::Search;
    }
    return true;
}

bool SpeculativeInflate::Run::inflateStep() {
    const std::uint64_t end = usableEnd();
    const bool due = out_ >= nextPoint_;
    const std::uint64_t from = std::max(bitPosition(), scanFrom_);
    if (!last() && (fed_ * 8 >= end || (due && from >= end))) {
        // What ISA-L has not taken, and what is still to be searched, stays buffered.
        load(std::min(fed_, from / 8));
        return true;
    }
    Step step;
    if (!due) {
        // Up to where the next point is due, so that points keep their spacing.
        step = feed(end / 8, std::size_t(std::min<std::uint64_t>(nextPoint_ - out_, kOut)));
        if (step == Step::Stuck) return !last() && fed_ * 8 >= end;  // the buffer moves on
    } else {
        // A seek point is due: guess the next block start, let ISA-L take the input up to it,
        // and keep the point if ISA-L then stands right before that block.
        const std::uint64_t to = std::min(end, from + kScanBits);
        const std::optional<std::uint64_t> bit = findHeader(from, to);
        const std::uint64_t limit = bit ? (*bit + 7) / 8 : to / 8;
        do {
            step = feed(limit);
        } while (step == Step::Progress);
        if (bit && step == Step::Stuck && between(*bit)) {
            Point p;
            p.bit = *bit;
            p.out = out_;
            p.slot = o_.pointsMade_++ % kPointSlots;
            p.doubled = doubled_;
            std::uint8_t* windows = o_.slots_.data() + p.slot * 2 * kInflateWindow;
            std::memcpy(windows, tail1_, kInflateWindow);
            if (doubled_) std::memcpy(windows + kInflateWindow, tail2_, kInflateWindow);
            std::lock_guard lock(o_.mutex_);
            if (o_.points_.size() == kMaxPoints) o_.points_.erase(o_.points_.begin());
            o_.points_.push_back(p);
            nextPoint_ = out_ + o_.spacing_;
        }
        scanFrom_ = bit ? *bit + 1 : to;
        if (step == Step::Stuck && (bit || !last() || to < end)) return true;
    }
    return step == Step::Progress;  // else it failed, ended, or the input is used up
}

SpeculativeInflate::SpeculativeInflate(Source source, std::uint64_t streamBytes,
                                       std::uint64_t fromByte, std::uint64_t toByte,
                                       std::uint64_t spacing)
    : source_(std::move(source)),
      streamBytes_(streamBytes),
      fromByte_(fromByte),
      toByte_(std::min(toByte, streamBytes)),
      spacing_(spacing),
      slots_(kPointSlots * 2 * kInflateWindow) {
    if (toByte_ < streamBytes_) toByte_ &= ~std::uint64_t(7);
}

SpeculativeInflate::~SpeculativeInflate() = default;

bool SpeculativeInflate::step() {
    if (done_) return false;
    try {
        if (!run_) run_ = std::make_unique<Run>(*this);
        if (!run_->step()) done_ = true;
    } catch (...) {
        // A source that fails (an I/O error) ends the guess; the reader meets the error itself.
        done_ = true;
    }
    if (done_) {
        run_.reset();
        searching_ = false;
    }
    return !done_;
}

std::optional<std::uint64_t> SpeculativeInflate::start() const {
    std::lock_guard lock(mutex_);
    return start_;
}

SpeculativeInflate::Proven SpeculativeInflate::finish(std::uint64_t startOut, ByteSpan window) {
    Proven proven;
    std::lock_guard lock(mutex_);
    if (!start_ || window.size() != kInflateWindow) return proven;
    proven.startOut_ = startOut;
    proven.points_ = std::move(points_);
    proven.slots_ = std::move(slots_);
    proven.window_.assign(window.begin(), window.end());
    points_.clear();
    // The points' slots went with them.
    done_ = true;
    run_.reset();
    return proven;
}

std::shared_ptr<SeekPoint> SpeculativeInflate::Proven::point(std::size_t i) const {
    const Point& p = points_[i];
    const std::uint8_t* window1 = slots_.data() + p.slot * 2 * kInflateWindow;
    const std::uint8_t* window2 = window1 + kInflateWindow;
    std::array<std::uint8_t, kInflateWindow> bytes;
    if (!p.doubled) {
        std::memcpy(bytes.data(), window1, kInflateWindow);
    } else {
        // Without a branch per byte (which of the two is data-dependent): the looked-up byte of
        // an equal pair (an index past the window, masked) is not used.
        for (std::size_t k = 0; k < kInflateWindow; ++k) {
            const std::uint8_t first = window1[k], second = window2[k];
            const std::uint8_t copied = window_[windowIndex(first, second) & (kInflateWindow - 1)];
            bytes[k] = first == second ? first : copied;
        }
    }
    const std::uint64_t in = (p.bit + 7) / 8;
    return SeekPoint::plain(startOut_ + p.out, in, int(in * 8 - p.bit), bytes);
}

}  // namespace pakfs::archive
