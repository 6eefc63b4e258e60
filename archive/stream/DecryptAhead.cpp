// SPDX-License-Identifier: GPL-2.0-or-later
// The ciphertext ahead of a reader, decrypted on a second thread.
#include "archive/stream/DecryptAhead.hpp"

#include <algorithm>
#include <utility>

#include "archive/stream/DecryptStage.hpp"

namespace pakfs::archive {

namespace {

constexpr std::size_t kAheadBytes = DecryptAhead::kPiece * DecryptAhead::kPieces;

}  // namespace

DecryptAhead::DecryptAhead(const DecryptStage& stage, std::uint64_t cipherSize)
    : stage_(stage),
      slots_(kPieces * kSlot),
      next_(cipherSize),
      end_(cipherSize),
      pieceSize_(DecryptStage::kFirstChunk) {
    for (std::size_t i = 0; i < kPieces; ++i) pieces_[i].buf = slots_.data() + i * kSlot;
}

DecryptAhead::~DecryptAhead() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void DecryptAhead::startThread() {
    try {
        worker_ = std::thread([this] { loop(); });
    } catch (const std::system_error&) {
        // No thread to be had: the reader decrypts every piece itself.
    }
}

bool DecryptAhead::claimable() const {
    if (next_ >= end_ || taken_ > next_ || next_ - taken_ >= window_) return false;
    return std::any_of(pieces_.begin(), pieces_.end(),
                       [](const Piece& p) { return p.state == Piece::State::Free; });
}

DecryptAhead::Piece& DecryptAhead::claim() {
    Piece& p = *std::find_if(pieces_.begin(), pieces_.end(),
                             [](const Piece& q) { return q.state == Piece::State::Free; });
    p.offset = next_;
    p.n = std::size_t(std::min<std::uint64_t>(pieceSize_, end_ - next_));
    p.state = Piece::State::Claimed;
    next_ += p.n;
    pieceSize_ = std::min(pieceSize_ * 2, kPiece);
    return p;
}

DecryptAhead::Piece* DecryptAhead::find(std::uint64_t offset) {
    for (Piece& p : pieces_)
        if ((p.state == Piece::State::Claimed || p.state == Piece::State::Ready) &&
            p.offset == offset)
            return &p;
    return nullptr;
}

void DecryptAhead::decryptNext(std::unique_lock<std::mutex>& lock) {
    Piece& piece = claim();
    lock.unlock();
    try {
        stage_.decryptAt(piece.buf, piece.offset, piece.n);
    } catch (...) {
        piece.error = std::current_exception();
    }
    lock.lock();
    piece.state = Piece::State::Ready;
    changed_.notify_all();
}

void DecryptAhead::giveIdleWork(std::function<bool()> work) {
    {
        std::lock_guard lock(mutex_);
        idleWork_ = std::move(work);
    }
    changed_.notify_all();
}

void DecryptAhead::takeBackIdleWork() {
    std::unique_lock lock(mutex_);
    idleWork_ = nullptr;
    changed_.wait(lock, [&] { return !stepping_; });
}

void DecryptAhead::waitIdleWork() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !idleWork_ && !stepping_; });
}

void DecryptAhead::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        // Woken when half the window is free, then fills it: a few long turns rather than a
        // wake-up per piece.
        changed_.wait(lock, [&] { return stop_ || wantsWorker() || idleWork_; });
        while (!stop_ && claimable()) decryptNext(lock);
        if (stop_) return;
        if (idleWork_) {
            // Nothing to decrypt: a step of other work, then the pieces again.
            std::function<bool()> work = idleWork_;
            stepping_ = true;
            lock.unlock();
            const bool more = work();
            lock.lock();
            stepping_ = false;
            if (!more) idleWork_ = nullptr;
            changed_.notify_all();
        }
    }
}

void DecryptAhead::drop() {
    std::unique_lock lock(mutex_);
    // A piece being decrypted is written to: wait for it before its buffer is reused.
    changed_.wait(lock, [&] {
        return std::none_of(pieces_.begin(), pieces_.end(),
                            [](const Piece& p) { return p.state == Piece::State::Claimed; });
    });
    for (Piece& p : pieces_) {
        p.state = Piece::State::Free;
        p.error = nullptr;
    }
    held_ = nullptr;  // its bytes are no longer wanted (a jump, or a new start)
    taken_ = ~std::uint64_t(0);
    next_ = end_;  // nothing to claim until the reader takes a piece again
}

std::size_t DecryptAhead::take(std::uint64_t offset) {
    std::unique_lock lock(mutex_);
    if (taken_ != offset) {
        // A new start (the first read, or after a seek): claims go on from here, a little
        // ahead at first and further as the reader keeps taking pieces.
        lock.unlock();
        drop();
        lock.lock();
        taken_ = next_ = offset;
        pieceSize_ = DecryptStage::kFirstChunk;
        window_ = 2 * DecryptStage::kFirstChunk;
        changed_.notify_all();
    }
    for (;;) {
        Piece* piece = find(offset);
        if (piece && piece->state == Piece::State::Ready) {
            // Read where it was decrypted; the one read before is free again.
            if (held_) held_->state = Piece::State::Free;
            const std::size_t n = piece->n;
            std::exception_ptr error = std::exchange(piece->error, nullptr);
            piece->state = error ? Piece::State::Free : Piece::State::Held;
            held_ = error ? nullptr : piece;
            taken_ = offset + n;
            window_ = std::min(window_ * 2, kAheadBytes);
            if (wantsWorker()) changed_.notify_all();
            if (error) {
                taken_ = ~std::uint64_t(0);  // start again if this reader is used again
                std::rethrow_exception(error);
            }
            return n;
        }
        // Nobody has taken the wanted piece (then it is the next one), or the other thread is
        // decrypting it: decrypt the next one here instead of waiting idle.
        if (!piece || claimable()) {
            decryptNext(lock);
            continue;
        }
        changed_.wait(lock);
    }
}

}  // namespace pakfs::archive
