// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/entry/SpeculativeInflate.hpp"

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

struct IsalState {
    inflate_state s;
};

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
        const inflate_state& s = a_->s;
        return fed_ * 8 - std::uint64_t(s.read_in_length) -
               (s.block_state == ISAL_BLOCK_HDR ? std::uint64_t(s.tmp_in_size) * 8 : 0);
    }
    // Whether ISA-L stands between two blocks, the next one starting at `bit`.
    bool between(std::uint64_t bit) const {
        const auto st = a_->s.block_state;
        return (st == ISAL_BLOCK_HDR || st == ISAL_BLOCK_NEW_HDR) && bitPosition() == bit;
    }
    ByteSpan buffered() const { return {buf_.get() + 8, std::size_t(bufEnd_ - bufStart_)}; }

    SpeculativeInflate& o_;
    Phase phase_ = Phase::Search;
    std::uint64_t searchFrom_;  // the next bit to look for a header at
    std::uint64_t trial_ = 0;   // the guessed start being tried
    std::uint64_t nextPoint_ = 0, scanFrom_ = 0;
    std::unique_ptr<std::uint8_t[]> buf_ = std::make_unique<std::uint8_t[]>(8 + kPiece + 8);
    std::uint64_t bufStart_ = 0, bufEnd_ = 0;
    std::uint64_t fed_ = 0;
    std::unique_ptr<IsalState> a_ = std::make_unique<IsalState>();
    std::unique_ptr<IsalState> b_ = std::make_unique<IsalState>();
    bool doubled_ = true;
    std::unique_ptr<std::uint8_t[]> out1_ = std::make_unique_for_overwrite<std::uint8_t[]>(kOut);
    std::unique_ptr<std::uint8_t[]> out2_ = std::make_unique_for_overwrite<std::uint8_t[]>(kOut);
    std::array<std::uint8_t, kInflateWindow> tail1_{}, tail2_{};
    std::uint64_t out_ = 0;       // since the start
    std::uint64_t lastDiff_ = 0;  // output offset one past the last byte the windows decided
};

void SpeculativeInflate::Run::load(std::uint64_t at) {
    bufStart_ = at & ~std::uint64_t(7);
    bufEnd_ = std::min<std::uint64_t>(bufStart_ + kPiece, o_.toByte_);
    if (bufEnd_ > bufStart_)
        o_.source_(buf_.get() + 8, bufStart_, std::size_t(bufEnd_ - bufStart_));
}

void SpeculativeInflate::Run::begin(std::uint64_t bit) {
    trial_ = bit;
    for (IsalState* st : {a_.get(), b_.get()}) {
        isal_inflate_init(&st->s);  // raw deflate
        isal_inflate_set_dict(&st->s,
                              const_cast<std::uint8_t*>(madeUpWindow(st == a_.get() ? 1 : 2)),
                              std::uint32_t(kInflateWindow));
    }
    fed_ = bit / 8;
    if (fed_ < bufStart_ || fed_ >= bufEnd_) load(fed_);
    if (const int r = int(bit % 8)) {
        // The bits of the first byte from the start on, as the reader's resumeIsal feeds them.
        for (IsalState* st : {a_.get(), b_.get()}) {
            st->s.read_in = std::uint64_t(buf_[8 + (fed_ - bufStart_)] >> r);
            st->s.read_in_length = 8 - r;
        }
        ++fed_;
    }
    doubled_ = true;
    std::memcpy(tail1_.data(), madeUpWindow(1), kInflateWindow);
    std::memcpy(tail2_.data(), madeUpWindow(2), kInflateWindow);
    out_ = 0;
    lastDiff_ = 0;
}

SpeculativeInflate::Run::Step SpeculativeInflate::Run::feed(std::uint64_t limit,
                                                            std::size_t maxOut) {
    maxOut = std::min(maxOut, kOut);
    limit = std::min(limit, bufEnd_);
    if (fed_ < bufStart_) return Step::Failed;  // loads keep what ISA-L has not taken: never
    const std::uint32_t n = std::uint32_t(limit > fed_ ? limit - fed_ : 0);
    std::uint8_t* in = buf_.get() + 8 + (fed_ - bufStart_);
    std::uint32_t used = 0, got = 0;
    int rc = 0;
    for (IsalState* st : {a_.get(), b_.get()}) {
        if (st == b_.get() && !doubled_) break;
        st->s.next_in = in;
        st->s.avail_in = n;
        st->s.next_out = st == a_.get() ? out1_.get() : out2_.get();
        st->s.avail_out = std::uint32_t(maxOut);
        const int r = isal_inflate(&st->s);
        const std::uint32_t u = n - st->s.avail_in, g = std::uint32_t(maxOut) - st->s.avail_out;
        if (st == a_.get()) {
            rc = r;
            used = u;
            got = g;
        } else if (r != rc || u != used || g != got) {
            return Step::Failed;  // the two inflates read the same bits: never
        }
    }
    if (rc != ISAL_DECOMP_OK) return Step::Failed;
    fed_ += used;
    slideWindow(tail1_.data(), out1_.get(), got);
    if (doubled_) {
        slideWindow(tail2_.data(), out2_.get(), got);
        if (std::size_t d = lastDifference(out1_.get(), out2_.get(), got)) lastDiff_ = out_ + d;
    }
    out_ += got;
    o_.inflated_.fetch_add(got, std::memory_order_relaxed);
    // Once 32 KiB of output owe nothing to the made-up windows, neither does anything after.
    if (doubled_ && out_ - lastDiff_ >= kInflateWindow) doubled_ = false;
    const auto st = a_->s.block_state;
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
            p.window1.assign(tail1_.begin(), tail1_.end());
            if (doubled_) p.window2.assign(tail2_.begin(), tail2_.end());
            std::lock_guard lock(o_.mutex_);
            if (o_.points_.size() == kMaxPoints) o_.points_.erase(o_.points_.begin());
            o_.points_.push_back(std::move(p));
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
      spacing_(spacing) {
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

std::vector<std::shared_ptr<SeekPoint>> SpeculativeInflate::finish(std::uint64_t startOut,
                                                                   ByteSpan window) {
    std::vector<std::shared_ptr<SeekPoint>> points;
    std::lock_guard lock(mutex_);
    if (!start_ || window.size() != kInflateWindow) return points;
    std::array<std::uint8_t, kInflateWindow> bytes;
    for (const Point& p : points_) {
        if (p.window2.empty()) {
            std::memcpy(bytes.data(), p.window1.data(), kInflateWindow);
        } else {
            // Without a branch per byte (which of the two is data-dependent): the looked-up
            // byte of an equal pair (an index past the window, masked) is not used.
            for (std::size_t i = 0; i < kInflateWindow; ++i) {
                const std::uint8_t first = p.window1[i], second = p.window2[i];
                const std::uint8_t copied =
                    window[windowIndex(first, second) & (kInflateWindow - 1)];
                bytes[i] = first == second ? first : copied;
            }
        }
        const std::uint64_t in = (p.bit + 7) / 8;
        points.push_back(SeekPoint::plain(startOut + p.out, in, int(in * 8 - p.bit), bytes));
    }
    return points;
}

}  // namespace pakfs::archive
