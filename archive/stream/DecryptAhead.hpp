// SPDX-License-Identifier: GPL-2.0-or-later
// The ciphertext ahead of a reader, decrypted on a second thread (DecryptStage's pipelining).
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "common/PageBlock.hpp"

namespace pakfs::archive {

class DecryptStage;

// Pieces of the ciphertext after the reader's position, decrypted in order by whichever thread
// is free: the reader decrypts one itself rather than wait for a thread that has not started it
// (on a busy machine the second thread may not run at all), so it is never slower than
// decrypting alone, and when decryption is the slower stage both threads decrypt. The thread
// also takes idle work (the two-core first read's other half) when it has nothing to decrypt.
class DecryptAhead {
public:
    // Pieces of up to kPiece bytes, up to kPieces of them ahead: a piece and the chaining block
    // before it take a slot of 256 KiB, and the slots fill one 2 MiB page (PageBlock).
    static constexpr std::size_t kSlot = 256 * 1024;
    static constexpr std::size_t kPiece = kSlot - 8;
    static constexpr std::size_t kPieces = 8;

    // Throws std::bad_alloc without memory for the pieces. `stage` decrypts them (decryptAt)
    // and outlives this.
    DecryptAhead(const DecryptStage& stage, std::uint64_t cipherSize);
    ~DecryptAhead();
    DecryptAhead(const DecryptAhead&) = delete;
    DecryptAhead& operator=(const DecryptAhead&) = delete;

    // Starts the second thread; without one to be had the reader decrypts every piece itself.
    void startThread();
    bool threaded() const { return worker_.joinable(); }
    // The piece at `offset` (the reader's next), decrypted: held for reading until the next
    // take; returns its size. A new start (the first, or after a jump) begins claiming there.
    // Throws what decrypting it threw.
    std::size_t take(std::uint64_t offset);
    // The held piece's slot (the chaining block, then the piece), or null.
    std::uint8_t* held() const { return held_ ? held_->buf : nullptr; }
    // Forgets the pieces (after a jump), waiting for one being decrypted.
    void drop();
    // Gives the thread work for when it has nothing to decrypt, a step per call until it
    // returns false (replacing any it had).
    void giveIdleWork(std::function<bool()> work);
    // Ends that work, waiting for a step that runs.
    void takeBackIdleWork();
    // Waits until the thread has done its idle work (tests: ReadTuning::twoCoresWait).
    void waitIdleWork();

private:
    struct Piece {
        // Held: the reader is reading it (held_), until it takes the next.
        enum class State { Free, Claimed, Ready, Held };
        std::uint8_t* buf = nullptr;  // its slot: the chaining block, then the piece
        std::uint64_t offset = 0;     // in the ciphertext
        std::size_t n = 0;
        State state = State::Free;
        std::exception_ptr error;  // decryptAt's, thrown when the reader takes the piece
    };
    bool claimable() const;
    bool wantsWorker() const { return claimable() && next_ - taken_ <= window_ / 2; }
    Piece& claim();
    Piece* find(std::uint64_t offset);
    // Claims the next piece and decrypts it (the lock is let go meanwhile).
    void decryptNext(std::unique_lock<std::mutex>& lock);
    void loop();

    const DecryptStage& stage_;
    std::mutex mutex_;
    std::condition_variable changed_;
    PageBlock slots_;
    std::array<Piece, kPieces> pieces_;
    Piece* held_ = nullptr;
    std::uint64_t taken_ = ~std::uint64_t(0);  // where the reader's next piece starts
    std::uint64_t next_ = 0;                   // where the next piece to claim starts
    std::uint64_t end_ = 0;                    // the ciphertext's size
    std::size_t pieceSize_ = 0;                // of the next claim; doubles up to kPiece
    std::size_t window_ = 0;  // how far past taken_ claims go; doubles up to kPieces pieces
    bool stop_ = false;
    // What the thread does when it has nothing to decrypt; `stepping_` while a step runs.
    std::function<bool()> idleWork_;
    bool stepping_ = false;
    std::thread worker_;
};

}  // namespace pakfs::archive
