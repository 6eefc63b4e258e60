// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/entry/PlainEntryReader.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>

#include "archive/codec/Streams.hpp"
#include "archive/entry/SpeculativeInflate.hpp"
#include "common/Cpus.hpp"
#include "common/PageBlock.hpp"

namespace pakfs::archive {

namespace {

// Ciphertext decrypted per step: the first step after a (re)start is small so that a random
// read stays cheap; sequential reading doubles it up to the bulk size.
constexpr std::size_t kFirstChunk = 64 * 1024;
constexpr std::size_t kBulkChunk = 256 * 1024;
// A reader decrypting on another thread (PlainEntryReader::pipelined_) takes pieces of up to
// this, and that thread goes up to kAheadPieces of them ahead of it. A piece and the chaining
// block before it take a slot of 256 KiB: the slots fill one 2 MiB page (PageBlock).
constexpr std::size_t kPieceSlot = 256 * 1024;
constexpr std::size_t kPipelinePiece = kPieceSlot - 8;
constexpr std::size_t kAheadPieces = 8;
constexpr std::size_t kAheadBytes = kPipelinePiece * kAheadPieces;
constexpr std::size_t kSkipBuffer = 64 * 1024;
constexpr std::size_t kOutBuffer = 256 * 1024;  // readPlainEntry's first buffer
// zlib entries up to this size decode whole with libdeflate when read from their start; larger
// ones stream through ISA-L, and seeks through zlib, whose state can be saved at seek points.
constexpr std::uint64_t kWholeInflateLimit = 64ull << 20;
std::atomic<std::uint64_t> gWholeInflateLimit{kWholeInflateLimit};
// A reader sent from the start of a zlib entry at least this far into it decodes on two cores
// (PlainEntryReader::decodeOnTwoCores).
constexpr std::uint64_t kTwoCoresMin = 16ull << 20;
std::atomic<std::uint64_t> gTwoCoresMin{kTwoCoresMin};
std::atomic<bool> gTwoCoresWait{false};
// ... and when the other thread's part starts at least this far into the compressed stream.
constexpr std::uint64_t kTwoCoresMinFrom = 64 * 1024;
// The other thread starts at this share of the way to the offset's place in the compressed
// stream (estimated from the entry's ratio). It inflates only when it has nothing to decrypt for
// the reader, and twice per byte: on two CPUs alike it gets about an eighth of the way done
// while the reader does the rest. Starting it earlier than that costs little (the reader
// inflates what the other thread did not reach, at the pace it would have come anyway), later
// costs much (the reader inflates more while the other thread, done, has nothing to do), and a
// shared machine often runs one CPU slower, which moves the balance either way: so a little
// before it (measured in BENCHMARKS.md).
constexpr double kTwoCoresSplit = 0.83;
// Seek points the other thread keeps, about this far apart in output.
constexpr std::uint64_t kTwoCoresSpacing = 1ull << 20;
constexpr std::size_t kIsalStep = 1 << 20;  // output per ISA-L call of isalUpTo
// Version 12+ chaining values are kept every this many bytes of ciphertext (8 bytes each).
constexpr std::uint64_t kChainMarkSpan = 1 << 20;

struct InflateEnd {
    void operator()(z_stream* z) const {
        inflateEnd(z);
        delete z;
    }
};
using InflatePtr = std::unique_ptr<z_stream, InflateEnd>;

// What the last reader of this thread left behind: inflateInit allocates about 7 KiB of state
// and later the 32 KiB window, inflateReset2 keeps both; ISA-L's state is one block of 85 KiB.
// Taken and given back, so nested use just allocates anew.
struct Spares {
    InflatePtr inflate;
    std::unique_ptr<inflate_state> isal;
    SpareBuffer chunk;
};
thread_local Spares tSpares;

struct DecompressorFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
// libdeflate rather than ISA-L for whole entries: see BENCHMARKS.md (measured on the bench's
// data); its zlib decoder checks the header and the Adler-32 trailer itself.
thread_local std::unique_ptr<libdeflate_decompressor, DecompressorFree> tInflater;

// A z_stream set up for `windowBits` (15: zlib header and trailer; -15: raw deflate).
InflatePtr takeInflate(int windowBits) {
    if (InflatePtr z = std::move(tSpares.inflate))
        if (inflateReset2(z.get(), windowBits) == Z_OK) return z;
    auto* z = new z_stream{};
    if (inflateInit2(z, windowBits) != Z_OK) {
        delete z;
        return nullptr;
    }
    return InflatePtr(z);
}

void giveBack(InflatePtr z) {
    if (!tSpares.inflate) tSpares.inflate = std::move(z);
}

}  // namespace

bool counterModeProven(const PakEntry& entry) {
    return entry.codec == EntryCodec::Zlib;
}

const char* counterModeKind(const PakEntry& entry) {
    return counterModeProven(entry) ? "counter" : "counter:unverified";
}

std::string counterModeDetail(const PakEntry& entry) {
    if (counterModeProven(entry))
        return "decoded in counter mode (seekable flag); zlib's Adler-32 and the size prove it";
    return std::string("decoded in counter mode (seekable flag) without proof: ") +
           (entry.codec == EntryCodec::Lz4 ? "LZ4 keeps no checksum"
                                           : "stored, no checksum covers its bytes");
}

std::uint64_t setWholeInflateLimit(std::uint64_t bytes) {
    return gWholeInflateLimit.exchange(bytes);
}

std::uint64_t setTwoCoresMin(std::uint64_t bytes) {
    return gTwoCoresMin.exchange(bytes);
}

void setTwoCoresWait(bool wait) {
    gTwoCoresWait = wait;
}

namespace {

std::atomic<int> gUsableCpus{0};

}  // namespace

int setUsableCpus(int cpus) {
    return gUsableCpus.exchange(cpus);
}

int usableCpus() {
    const int set = gUsableCpus.load();
    return set > 0 ? set : availableCpus();
}

PlainEntryReader::PlainEntryReader(std::shared_ptr<const PakIndex> pak, const PakEntry& entry,
                                   std::shared_ptr<SeekIndex> index, bool recordPoints,
                                   bool unverified)
    : pak_(std::move(pak)), entry_(entry), index_(std::move(index)), recordPoints_(recordPoints) {
    cipherSize_ = entry_.cipherSize();
    cipher_ = pak_->entryCipher(entry_);
    if (entry_.counterMode) {
        if (!counterModeProven(entry_) && !unverified)
            throw Error(where() + ": encrypted in counter mode (seekable flag) and " +
                        (entry_.codec == EntryCodec::Lz4 ? "LZ4-compressed, which keeps no checksum"
                                                         : "stored without a checksum") +
                        ": its bytes cannot be verified; pass --unverified (pak) or -o "
                        "unverified (pakfs) to read it unverified");
        // Nothing else checks a stored entry's sizes: the v17+ slot size bounds them.
        if (entry_.slotSize && entry_.ivSize() + cipherSize_ > *entry_.slotSize)
            throw Error(where() + ": damaged file table (" +
                        std::to_string(entry_.ivSize() + cipherSize_) +
                        " bytes of IV and data do not fit its slot of " +
                        std::to_string(*entry_.slotSize) + " bytes)");
    }
    if (entry_.codec == EntryCodec::Lz4) {
        // LZ4 goes through the game's stages from the start (no seek points).
        lz4_ = std::make_unique<ReadPipeline>(entryPipelineSpec(*pak_, entry_));
        return;
    }
    chunk_ = takeBuffer(tSpares.chunk, 0);
    if (entry_.compressed())
        restartInflate(nullptr);
    else
        startCipherAt(0);
}

PlainEntryReader::~PlainEntryReader() {
    stopAhead();
    leaveIsal(false);
    if (z_) giveBack(InflatePtr(z_));
    giveBack(tSpares.chunk, std::move(chunk_));
}

std::string PlainEntryReader::where() const {
    return pak_->name() + ": " + entry_.path;
}

std::uint64_t PlainEntryReader::nextPlainOffset() const {
    return cipherOffset_ - chunkLeft() + pendingSkip_;
}

void PlainEntryReader::startCipherAt(std::uint64_t plainOffset) {
    dropAhead();
    std::uint64_t block = plainOffset & ~std::uint64_t(7);
    cipherOffset_ = block;
    chunkLen_ = 0;
    chunkPos_ = 0;
    pendingSkip_ = std::size_t(plainOffset - block);
    nextChunk_ = kFirstChunk;
}

// The ciphertext ahead of a pipelined reader, decrypted on a second thread in pieces that the
// reader takes in order. Pieces are claimed in order by whichever thread is free: the reader
// decrypts one itself rather than wait for a thread that has not started it (on a busy machine
// the second thread may not run at all), so it is never slower than decrypting alone, and when
// decryption is the slower stage both threads decrypt.
struct PlainEntryReader::AheadPiece {
    // Held: the reader is reading it (Ahead::held, chunkBase()), until it takes the next.
    enum class State { Free, Claimed, Ready, Held };
    std::uint8_t* buf = nullptr;  // its slot: the chaining block, then the piece
    std::uint64_t offset = 0;     // in the ciphertext
    std::size_t n = 0;
    State state = State::Free;
    std::exception_ptr error;  // decryptAt's, thrown when the reader takes the piece
};

struct PlainEntryReader::Ahead {
    using Piece = AheadPiece;
    Ahead() {
        for (std::size_t i = 0; i < kAheadPieces; ++i)
            pieces[i].buf = slots.data() + i * kPieceSlot;
    }
    std::mutex mutex;
    std::condition_variable changed;
    PageBlock slots{kAheadPieces * kPieceSlot};
    std::array<Piece, kAheadPieces> pieces;
    Piece* held = nullptr;
    std::uint64_t taken = ~std::uint64_t(0);  // where the reader's next piece starts
    std::uint64_t next = 0;                   // where the next piece to claim starts
    std::uint64_t end = 0;                    // the ciphertext's size
    std::size_t pieceSize = kFirstChunk;      // of the next claim; doubles up to kPipelinePiece
    std::size_t window = 0;  // how far past `taken` claims go; doubles up to kAheadBytes
    bool stop = false;
    std::thread worker;
    // What the thread does when it has nothing to decrypt, a step at a time until it returns
    // false (decodeOnTwoCores); `stepping` while a step runs.
    std::function<bool()> idleWork;
    bool stepping = false;

    bool claimable() const {
        if (next >= end || taken > next || next - taken >= window) return false;
        return std::any_of(pieces.begin(), pieces.end(),
                           [](const Piece& p) { return p.state == Piece::State::Free; });
    }
    bool wantsWorker() const { return claimable() && next - taken <= window / 2; }
    // The next piece, claimed for the calling thread (claimable() was true).
    Piece& claim() {
        Piece& p = *std::find_if(pieces.begin(), pieces.end(),
                                 [](const Piece& q) { return q.state == Piece::State::Free; });
        p.offset = next;
        p.n = std::size_t(std::min<std::uint64_t>(pieceSize, end - next));
        p.state = Piece::State::Claimed;
        next += p.n;
        pieceSize = std::min(pieceSize * 2, kPipelinePiece);
        return p;
    }
    Piece* find(std::uint64_t offset) {
        for (Piece& p : pieces)
            if ((p.state == Piece::State::Claimed || p.state == Piece::State::Ready) &&
                p.offset == offset)
                return &p;
        return nullptr;
    }
};

void PlainEntryReader::decryptPiece(AheadPiece& piece) const {
    try {
        decryptAt(piece.buf, piece.offset, piece.n);
    } catch (...) {
        piece.error = std::current_exception();
    }
}

void PlainEntryReader::decryptAt(std::uint8_t* buf, std::uint64_t offset, std::size_t n) const {
    const std::uint64_t slot = pak_->entryOffset(entry_);
    if (!cipher_) {
        pak_->file()->readAt(slot + offset, buf + 8, n);
    } else if (entry_.counterMode) {
        // No chaining: any block decrypts from its offset alone.
        pak_->file()->readAt(slot + 8 + offset, buf + 8, n);
        cipher_->counterXor(buf + 8, n, *counterIv_, offset);
    } else {
        // CBC: the chaining value of a block is the ciphertext block stored before it (the
        // entry's IV for the first), so one read brings it along with the chunk.
        pak_->file()->readAt(slot + offset, buf, n + 8);
        std::uint64_t iv = loadLE64(buf);
        cipher_->cbcDecrypt(buf + 8, n, iv);
    }
}

void PlainEntryReader::decryptNext(std::unique_lock<std::mutex>& lock) {
    Ahead& a = *ahead_;
    Ahead::Piece& piece = a.claim();
    lock.unlock();
    decryptPiece(piece);
    lock.lock();
    piece.state = Ahead::Piece::State::Ready;
    a.changed.notify_all();
}

void PlainEntryReader::giveIdleWork(std::function<bool()> work) {
    {
        std::lock_guard lock(ahead_->mutex);
        ahead_->idleWork = std::move(work);
    }
    ahead_->changed.notify_all();
}

void PlainEntryReader::takeBackIdleWork() {
    Ahead& a = *ahead_;
    std::unique_lock lock(a.mutex);
    a.idleWork = nullptr;
    a.changed.wait(lock, [&] { return !a.stepping; });
}

void PlainEntryReader::waitIdleWork() {
    Ahead& a = *ahead_;
    std::unique_lock lock(a.mutex);
    a.changed.wait(lock, [&] { return !a.idleWork && !a.stepping; });
}

void PlainEntryReader::aheadLoop() {
    Ahead& a = *ahead_;
    std::unique_lock lock(a.mutex);
    for (;;) {
        // Woken when half the window is free, then fills it: a few long turns rather than a
        // wake-up per piece.
        a.changed.wait(lock, [&] { return a.stop || a.wantsWorker() || a.idleWork; });
        while (!a.stop && a.claimable()) decryptNext(lock);
        if (a.stop) return;
        if (a.idleWork) {
            // Nothing to decrypt: a step of other work, then the pieces again.
            std::function<bool()> work = a.idleWork;
            a.stepping = true;
            lock.unlock();
            const bool more = work();
            lock.lock();
            a.stepping = false;
            if (!more) a.idleWork = nullptr;
            a.changed.notify_all();
        }
    }
}

void PlainEntryReader::dropAhead() {
    if (!ahead_) return;
    Ahead& a = *ahead_;
    std::unique_lock lock(a.mutex);
    // A piece being decrypted is written to: wait for it before its buffer is reused.
    a.changed.wait(lock, [&] {
        return std::none_of(a.pieces.begin(), a.pieces.end(), [](const Ahead::Piece& p) {
            return p.state == Ahead::Piece::State::Claimed;
        });
    });
    for (Ahead::Piece& p : a.pieces) {
        p.state = Ahead::Piece::State::Free;
        p.error = nullptr;
    }
    a.held = nullptr;  // its bytes are no longer wanted (a jump, or a new start)
    a.taken = ~std::uint64_t(0);
    a.next = a.end;  // nothing to claim until the reader takes a piece again
}

void PlainEntryReader::stopAhead() {
    if (!ahead_) return;
    {
        std::lock_guard lock(ahead_->mutex);
        ahead_->stop = true;
    }
    ahead_->changed.notify_all();
    if (ahead_->worker.joinable()) ahead_->worker.join();
}

bool PlainEntryReader::startAhead() {
    if (ahead_ || !pipelined_) return pipelined_;
    try {
        ahead_ = std::make_unique<Ahead>();
    } catch (const std::bad_alloc&) {
        // No memory for the pieces: this reader decrypts on its own thread.
        pipelined_ = false;
        return false;
    }
    ahead_->end = cipherSize_;
    ahead_->next = cipherSize_;
    try {
        ahead_->worker = std::thread([this] { aheadLoop(); });
    } catch (const std::system_error&) {
        // No thread to be had: the reader decrypts every piece itself.
    }
    return true;
}

std::uint8_t* PlainEntryReader::chunkBase() {
    return ahead_ && ahead_->held ? ahead_->held->buf : chunk_.data.get();
}

std::size_t PlainEntryReader::takeAhead() {
    Ahead& a = *ahead_;
    std::unique_lock lock(a.mutex);
    if (a.taken != cipherOffset_) {
        // A new start (the first read, or after a seek): claims go on from here, a little
        // ahead at first and further as the reader keeps taking pieces.
        lock.unlock();
        dropAhead();
        lock.lock();
        a.taken = a.next = cipherOffset_;
        a.pieceSize = kFirstChunk;
        a.window = 2 * kFirstChunk;
        a.changed.notify_all();
    }
    for (;;) {
        Ahead::Piece* piece = a.find(cipherOffset_);
        if (piece && piece->state == Ahead::Piece::State::Ready) {
            // Read where it was decrypted; the one read before is free again.
            if (a.held) a.held->state = Ahead::Piece::State::Free;
            const std::size_t n = piece->n;
            std::exception_ptr error = std::exchange(piece->error, nullptr);
            piece->state = error ? Ahead::Piece::State::Free : Ahead::Piece::State::Held;
            a.held = error ? nullptr : piece;
            a.taken = cipherOffset_ + n;
            a.window = std::min(a.window * 2, kAheadBytes);
            if (a.wantsWorker()) a.changed.notify_all();
            if (error) {
                a.taken = ~std::uint64_t(0);  // start again if this reader is used again
                std::rethrow_exception(error);
            }
            return n;
        }
        // Nobody has taken the wanted piece (then it is the next one), or the other thread is
        // decrypting it: decrypt the next one here instead of waiting idle.
        if (!piece || a.claimable()) {
            decryptNext(lock);
            continue;
        }
        a.changed.wait(lock);
    }
}

void PlainEntryReader::decryptMore() {
    std::size_t n = std::size_t(std::min<std::uint64_t>(nextChunk_, cipherSize_ - cipherOffset_));
    chunkLen_ = 0;
    chunkPos_ = 0;
    if (n == 0) return;
    const bool mixed = cipher_ && !entry_.counterMode && cipher_->variant().mixedChaining;
    if (cipher_ && entry_.counterMode && !counterIv_)
        counterIv_ = loadLE64(pak_->file()->readAt(pak_->entryOffset(entry_), 8).data());
    if (!mixed && startAhead()) {
        // Decrypted ahead on another thread while the last chunk was inflated. (The version
        // 12+ chain is walked in order: it stays on this thread.)
        n = takeAhead();
    } else {
        growBuffer(chunk_, n + 8);
        if (!mixed) {
            decryptAt(chunk_.data.get(), cipherOffset_, n);
        } else {
            advanceChainTo(cipherOffset_);
            pak_->file()->readAt(pak_->entryOffset(entry_) + 8 + cipherOffset_,
                                 chunk_.data.get() + 8, n);
            // Decrypted in pieces that end on the marks, so that the marks are kept on the way.
            for (std::size_t done = 0; done < n;) {
                std::uint64_t at = cipherOffset_ + done;
                std::size_t piece = std::size_t(
                    std::min<std::uint64_t>(n - done, kChainMarkSpan - at % kChainMarkSpan));
                cipher_->cbcDecrypt(chunk_.data.get() + 8 + done, piece, chainIv_);
                done += piece;
                chainAt_ = at + piece;
                if (chainAt_ % kChainMarkSpan == 0 &&
                    chainAt_ / kChainMarkSpan == chainMarks_.size())
                    chainMarks_.push_back(chainIv_);
            }
        }
    }
    cipherOffset_ += n;
    chunkLen_ = n;
    chunkPos_ = std::min(pendingSkip_, n);
    pendingSkip_ = 0;
    nextChunk_ = std::min(nextChunk_ * 2, kBulkChunk);
}

void PlainEntryReader::advanceChainTo(std::uint64_t offset) {
    const std::uint64_t slot = pak_->entryOffset(entry_);
    if (!chainKnown_) {
        chainMarks_.assign(1, loadLE64(pak_->file()->readAt(slot, 8).data()));
        chainIv_ = chainMarks_[0];
        chainAt_ = 0;
        chainKnown_ = true;
    }
    if (offset < chainAt_) {
        // Back to the last mark at or before the offset.
        std::size_t mark =
            std::min<std::size_t>(std::size_t(offset / kChainMarkSpan), chainMarks_.size() - 1);
        chainIv_ = chainMarks_[mark];
        chainAt_ = std::uint64_t(mark) * kChainMarkSpan;
    }
    std::uint8_t block[64 * 1024];
    static_assert(kChainMarkSpan % sizeof block == 0);
    while (chainAt_ < offset) {
        std::size_t n = std::size_t(std::min<std::uint64_t>(sizeof block, offset - chainAt_));
        pak_->file()->readAt(slot + 8 + chainAt_, block, n);
        for (std::size_t i = 0; i + 8 <= n; i += 8)
            chainIv_ = mixedNextIv(chainIv_, loadLE64(block + i));
        chainAt_ += n;
        if (chainAt_ % kChainMarkSpan == 0 && chainAt_ / kChainMarkSpan == chainMarks_.size())
            chainMarks_.push_back(chainIv_);
    }
}

void PlainEntryReader::restartInflate(const SeekPoint* point) {
    // The window first: a damaged one throws before anything here changes. One read from an
    // index file that is damaged now (windowOf dropped its point) gives way to the point before
    // it, or the start; each turn drops a point, so this ends.
    std::uint8_t window[kInflateWindow];
    std::shared_ptr<const SeekPoint> earlier;
    while (point) {
        try {
            windowOf(*point, window);
            break;
        } catch (const DamagedWindowError&) {
            earlier = index_->before(point->out);
            point = earlier.get();
        }
    }
    // Mid-stream there is no zlib header; the trailer's checksum is checked only by readers
    // that start at the beginning.
    const int windowBits = point ? -15 : 15;
    if (!z_) {
        z_ = takeInflate(windowBits).release();
        if (!z_) throw Error(where() + ": cannot initialise zlib");
    } else if (inflateReset2(z_, windowBits) != Z_OK) {
        throw Error(where() + ": cannot initialise zlib");
    }
    zlibEnded_ = false;
    rawInflate_ = point != nullptr;
    if (!point) {
        produced_ = 0;
        startCipherAt(0);
        return;
    }
    produced_ = point->out;
    if (point->bits) {
        startCipherAt(point->in - 1);
        decryptMore();
        if (chunkLeft() == 0) throw TruncatedError(where() + ": data ends early");
        int byte = *chunkAt();
        ++chunkPos_;
        inflatePrime(z_, point->bits, byte >> (8 - point->bits));
    } else {
        startCipherAt(point->in);
    }
    if (inflateSetDictionary(z_, window, point->windowSize) != Z_OK)
        throw Error(where() + ": cannot restore the inflate window");
}

void PlainEntryReader::windowOf(const SeekPoint& point, std::uint8_t* dst) const {
    if (point.windowSize > kInflateWindow)
        throw Error(where() + ": damaged seek point (window of " +
                    std::to_string(point.windowSize) + " bytes)");
    try {
        point.windowBytes(dst);
    } catch (const DamagedWindowError& e) {
        // A window read from an index file (damaged or changed on disk since it was loaded):
        // the point is dropped and the seek resumes at the one before (seek()). One in memory
        // has no such excuse: an error.
        if (point.windowFile && index_ && index_->drop(&point))
            throw DamagedWindowError(where() + ": " + e.what());
        throw Error(where() + ": " + e.what());
    } catch (const Error& e) {
        throw Error(where() + ": " + e.what());
    }
}

bool PlainEntryReader::resumeIsal(std::shared_ptr<const SeekPoint> point) {
    std::uint8_t window[kInflateWindow];
    windowOf(*point, window);
    std::unique_ptr<inflate_state> state = std::move(tSpares.isal);
    if (!state) state = std::make_unique<inflate_state>();
    isal_inflate_init(state.get());  // raw deflate: no header, no trailer
    if (isal_inflate_set_dict(state.get(), window, point->windowSize) != ISAL_DECOMP_OK) {
        tSpares.isal = std::move(state);
        return false;
    }
    rawInflate_ = true;
    zlibEnded_ = false;
    produced_ = point->out;
    if (point->bits) {
        startCipherAt(point->in - 1);
        decryptMore();
        if (chunkLeft() == 0) throw TruncatedError(where() + ": data ends early");
        // The bits not yet consumed are the high ones of that byte, fed first.
        state->read_in = std::uint64_t(*chunkAt() >> (8 - point->bits));
        state->read_in_length = point->bits;
        ++chunkPos_;
    } else {
        startCipherAt(point->in);
    }
    isal_ = state.release();
    resumedFrom_ = std::move(point);
    return true;
}

void PlainEntryReader::maybeRecordPoint() {
    // Bit 7 of data_type: inflate stopped at the end of a deflate block; bit 6: the last block.
    if (!index_ || !recordPoints_ || !(z_->data_type & 128) || (z_->data_type & 64) ||
        produced_ == 0)
        return;
    if (!index_->wants(produced_)) return;
    std::uint8_t window[kInflateWindow];
    unsigned len = sizeof window;
    if (inflateGetDictionary(z_, window, &len) != Z_OK) return;
    index_->add(SeekPoint::make(produced_, nextPlainOffset(), z_->data_type & 7, {window, len}));
}

std::size_t PlainEntryReader::inflateSome(std::uint8_t* dst, std::size_t n) {
    // Z_BLOCK stops at deflate block boundaries, the only places a seek point can go; without
    // an index there is nothing to record and inflate runs uninterrupted.
    const int flush = index_ && recordPoints_ ? Z_BLOCK : Z_NO_FLUSH;
    std::size_t done = 0;
    while (done < n) {
        if (zlibEnded_)
            throw TruncatedError(where() + ": compressed data ends at " +
                                 std::to_string(produced_) + " of " +
                                 std::to_string(entry_.uncompressedSize) + " bytes");
        std::uint64_t zlibLeft = 0;
        std::size_t avail = feedZlib(zlibLeft);
        z_->next_out = dst + done;
        z_->avail_out = unsigned(std::min<std::size_t>(n - done, 1u << 30));
        int rc = inflate(z_, flush);
        std::size_t used = avail - z_->avail_in;
        std::size_t out = std::size_t(z_->next_out - (dst + done));
        chunkPos_ += used;
        done += out;
        produced_ += out;
        if (rc == Z_STREAM_END) {
            zlibEnded_ = true;
            if (produced_ < entry_.uncompressedSize && done < n) continue;  // throws above
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && used == 0 && out == 0)) {
            if (zlibLeft == 0 || (avail == 0 && cipherOffset_ == cipherSize_))
                throw TruncatedError(where() +
                                     ": compressed data ends before the zlib stream "
                                     "does");
        } else if (rc != Z_OK) {
            throw Error(where() + ": corrupt compressed data (zlib: " +
                        (z_->msg ? std::string(z_->msg) : std::to_string(rc)) + ")");
        } else {
            maybeRecordPoint();
        }
    }
    return done;
}

std::size_t PlainEntryReader::compressedAvail(std::uint64_t& zlibLeft) {
    if (chunkLeft() == 0) decryptMore();
    // Only the compressed bytes feed the inflater: the padding after them is not part of the
    // stream.
    std::uint64_t consumedBefore = nextPlainOffset();
    zlibLeft = entry_.compressedSize > consumedBefore ? entry_.compressedSize - consumedBefore : 0;
    return std::size_t(std::min<std::uint64_t>(chunkLeft(), zlibLeft));
}

std::size_t PlainEntryReader::feedZlib(std::uint64_t& zlibLeft) {
    std::size_t avail = compressedAvail(zlibLeft);
    z_->next_in = chunkAt();
    z_->avail_in = unsigned(avail);
    return avail;
}

void PlainEntryReader::checkTrailer() {
    // Runs the stream past the last byte the file table asks for, so that zlib checks its
    // Adler-32 trailer: a damaged entry then fails instead of handing out wrong bytes. Streams
    // that stop without a proper end (sync-flushed writers) are accepted, as the game does.
    std::uint8_t scratch[4096];
    std::uint64_t extra = 0;
    while (!zlibEnded_ && extra < 64 * 1024) {
        std::uint64_t zlibLeft = 0;
        std::size_t avail = feedZlib(zlibLeft);
        z_->next_out = scratch;
        z_->avail_out = sizeof scratch;
        int rc = inflate(z_, Z_NO_FLUSH);
        std::size_t used = avail - z_->avail_in;
        chunkPos_ += used;
        extra += sizeof scratch - z_->avail_out;
        if (rc == Z_STREAM_END) {
            zlibEnded_ = true;
        } else if (rc == Z_BUF_ERROR ||
                   (rc == Z_OK && used == 0 && z_->avail_out == sizeof scratch)) {
            if (avail == 0 && (zlibLeft == 0 || cipherOffset_ == cipherSize_)) return;
        } else if (rc != Z_OK) {
            throw Error(where() + ": corrupt compressed data (zlib: " +
                        (z_->msg ? std::string(z_->msg) : std::to_string(rc)) + ")");
        }
    }
}

// ISA-L for the zlib entries too large to decode whole (libdeflate cannot stream): about 2.5
// times zlib's speed on the bench's data, in bounded memory, and with crc_flag ISAL_ZLIB it
// checks the zlib header and the Adler-32 trailer itself. It is only a fast path: on a seek,
// an error, a stream that ends before the entry's size or one that gives more, zlib decodes
// the entry again (leaveIsal), so what is accepted and every message stay zlib's.
void PlainEntryReader::startIsal() {
    // Only the usual header (deflate, 32 KiB window): zlib refuses distances beyond a smaller
    // window that the header declares, ISA-L would not.
    std::uint64_t zlibLeft = 0;
    if (compressedAvail(zlibLeft) < 2 || chunkAt()[0] != 0x78) return;
    // A reader sent into the entry before its first read (the mount's first read of a fresh
    // mount, decoding from the start to far in) leaves the Adler-32 out, about a tenth of
    // ISA-L's time: as a reader resumed at a seek point, it checks no trailer (the pass that
    // builds the points does). It reads the header itself; anything unusual is zlib's.
    const bool checksum = !seeked_;
    if (!checksum && ((chunkAt()[0] << 8 | chunkAt()[1]) % 31 != 0 || (chunkAt()[1] & 0x20)))
        return;
    std::unique_ptr<inflate_state> state = std::move(tSpares.isal);
    if (!state) state = std::make_unique<inflate_state>();
    isal_inflate_init(state.get());
    if (checksum) {
        state->crc_flag = ISAL_ZLIB;
    } else {
        chunkPos_ += 2;  // raw deflate after the header
        rawInflate_ = true;
    }
    isal_ = state.release();
    // The mount's readers (with an index) decrypt ahead on another thread (Ahead) while ISA-L
    // inflates: a first read far into a large entry then takes the longer of the two instead
    // of their sum. The CLI's stay on one thread (extract runs -j of them).
    pipelined_ = index_ != nullptr && usableCpus() >= 2;
}

void PlainEntryReader::leaveIsal(bool resume) {
    if (!isal_) return;
    std::unique_ptr<inflate_state> state(isal_);
    isal_ = nullptr;
    if (!tSpares.isal) tSpares.isal = std::move(state);
    std::shared_ptr<const SeekPoint> from = std::move(resumedFrom_);
    if (!resume) return;
    isalRefused_ = true;  // zlib from now on: it reports what ISA-L did not take
    const std::uint64_t at = produced_;
    restartInflate(from.get());  // its window read again: if damaged since, from one before
    skip(at - produced_);
}

std::size_t PlainEntryReader::isalSome(std::uint8_t* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        std::uint64_t zlibLeft = 0;
        std::size_t avail = compressedAvail(zlibLeft);
        isal_->next_in = chunkAt();
        isal_->avail_in = std::uint32_t(avail);
        isal_->next_out = dst + done;
        isal_->avail_out = std::uint32_t(std::min<std::size_t>(n - done, 1u << 30));
        int rc = isal_inflate(isal_);
        std::size_t used = avail - isal_->avail_in;
        std::size_t out = std::size_t(isal_->next_out - (dst + done));
        chunkPos_ += used;
        done += out;
        produced_ += out;
        // An error, or no progress: the stream ended before the entry's size, or the input did
        // before the stream. zlib takes over and says which (read() goes on with it).
        if (rc != ISAL_DECOMP_OK || (used == 0 && out == 0)) {
            leaveIsal(true);
            break;
        }
    }
    return done;
}

void PlainEntryReader::isalTrailer() {
    // As checkTrailer: runs the stream to its end, where ISA-L checks the Adler-32, and accepts
    // a stream whose input stops without a proper end. Bytes beyond the entry's size or an
    // error go to zlib, which decides as it always did.
    std::uint8_t scratch[4096];
    while (isal_->block_state != ISAL_BLOCK_FINISH) {
        std::uint64_t zlibLeft = 0;
        std::size_t avail = compressedAvail(zlibLeft);
        isal_->next_in = chunkAt();
        isal_->avail_in = std::uint32_t(avail);
        isal_->next_out = scratch;
        isal_->avail_out = sizeof scratch;
        int rc = isal_inflate(isal_);
        std::size_t used = avail - isal_->avail_in;
        chunkPos_ += used;
        const bool ended = avail == 0 && (zlibLeft == 0 || cipherOffset_ == cipherSize_);
        // Done when the Adler-32 matched (FINISH) or the input ended without one.
        if (rc == ISAL_DECOMP_OK && isal_->avail_out == sizeof scratch &&
            (isal_->block_state == ISAL_BLOCK_FINISH || (used == 0 && ended)))
            return;
        if (rc != ISAL_DECOMP_OK || isal_->avail_out != sizeof scratch || used == 0) {
            leaveIsal(true);
            return;
        }
    }
}

bool PlainEntryReader::decodeWhole() {
    wholeTried_ = true;
    const std::uint64_t size = entry_.uncompressedSize;
    // The declared size is untrusted: deflate gives at most 1032 bytes per input byte.
    if (size == 0 || size > gWholeInflateLimit.load(std::memory_order_relaxed) ||
        size > std::uint64_t(entry_.compressedSize) * 1032 + 64)
        return false;
    if (!tInflater) tInflater.reset(libdeflate_alloc_decompressor());
    if (!tInflater) return false;
    const std::size_t total = std::size_t(cipherSize_);
    SpareBuffer in = takeBuffer(tSpares.chunk, total + 8);
    const std::uint64_t slot = pak_->entryOffset(entry_);
    if (cipher_) {
        pak_->file()->readAt(slot, in.data.get(), total + 8);
        std::uint64_t iv = loadLE64(in.data.get());
        if (entry_.counterMode)
            cipher_->counterXor(in.data.get() + 8, total, iv, 0);
        else
            cipher_->cbcDecrypt(in.data.get() + 8, total, iv);
    } else {
        pak_->file()->readAt(slot, in.data.get() + 8, total);
    }
    auto out = std::make_unique_for_overwrite<std::uint8_t[]>(std::size_t(size));
    std::size_t inUsed = 0, outMade = 0;
    libdeflate_result rc = libdeflate_zlib_decompress_ex(
        tInflater.get(), in.data.get() + 8, std::min<std::size_t>(total, entry_.compressedSize),
        out.get(), std::size_t(size), &inUsed, &outMade);
    giveBack(tSpares.chunk, std::move(in));
    // Anything else (damage, a stream without a proper end, a size that differs) goes the zlib
    // way, which accepts exactly what it always did and says what is wrong.
    if (rc != LIBDEFLATE_SUCCESS || outMade != size) return false;
    whole_ = std::move(out);
    adlerChecked_ = true;  // libdeflate checks it
    return true;
}

std::size_t PlainEntryReader::read(std::uint8_t* dst, std::size_t n) {
    n = std::size_t(std::min<std::uint64_t>(n, entry_.uncompressedSize - produced_));
    if (n == 0) return 0;
    std::size_t done = 0;
    if (!whole_ && !wholeTried_ && produced_ == 0 && !rawInflate_ && !isal_ && !isalRefused_ &&
        entry_.codec == EntryCodec::Zlib) {
        // A whole decode holds the entry in memory: only for readers without an index (the
        // CLI's), never the mount's.
        if (!index_ && !decodeWhole() && !seeked_ &&
            entry_.uncompressedSize > gWholeInflateLimit.load(std::memory_order_relaxed))
            startIsal();
        else if (index_ && !recordPoints_)
            startIsal();
    }
    if (whole_) {
        std::memcpy(dst, whole_.get() + produced_, n);
        produced_ += n;
        decoded_ += n;
        return n;
    }
    if (lz4_) {
        lz4_->top().read({dst, n});
        produced_ += n;
        done = n;
        if (produced_ == entry_.uncompressedSize) lz4_->lz4()->finish();
    } else if (entry_.compressed()) {
        if (isal_) done = isalSome(dst, n);  // less when it left the rest to zlib
        if (done < n) done += inflateSome(dst + done, n - done);
        if (produced_ == entry_.uncompressedSize && !rawInflate_) {
            if (isal_)
                isalTrailer();
            else
                checkTrailer();
            // ISA-L (ISAL_ZLIB) and zlib check the Adler-32 as they reach the stream's end.
            adlerChecked_ =
                !rawInflate_ && (isal_ ? isal_->block_state == ISAL_BLOCK_FINISH : zlibEnded_);
        }
    } else {
        while (done < n) {
            if (chunkLeft() == 0) {
                decryptMore();
                if (chunkLeft() == 0) throw TruncatedError(where() + ": data ends early");
            }
            std::size_t k = std::min(n - done, chunkLeft());
            std::memcpy(dst + done, chunkAt(), k);
            chunkPos_ += k;
            done += k;
        }
        produced_ += done;
    }
    decoded_ += done;
    return done;
}

bool PlainEntryReader::isalUpTo(std::uint64_t limit, std::uint64_t until, std::uint8_t* window,
                                std::uint8_t* out) {
    while (produced_ < until) {
        std::uint64_t zlibLeft = 0;
        std::size_t avail = compressedAvail(zlibLeft);
        const std::uint64_t at = nextPlainOffset();
        avail = std::size_t(std::min<std::uint64_t>(avail, limit > at ? limit - at : 0));
        isal_->next_in = chunkAt();
        isal_->avail_in = std::uint32_t(avail);
        isal_->next_out = out;
        isal_->avail_out = std::uint32_t(std::min<std::uint64_t>(kIsalStep, until - produced_));
        const int rc = isal_inflate(isal_);
        const std::size_t used = avail - isal_->avail_in;
        const std::size_t got = std::size_t(isal_->next_out - out);
        chunkPos_ += used;
        produced_ += got;
        decoded_ += got;
        slideWindow(window, out, got);
        if (rc != ISAL_DECOMP_OK) {
            leaveIsal(true);
            return false;
        }
        if ((used == 0 && got == 0) || isal_->block_state == ISAL_BLOCK_INPUT_DONE ||
            isal_->block_state == ISAL_BLOCK_FINISH)
            break;
    }
    return true;
}

bool PlainEntryReader::isalStopsAt(std::uint64_t bit) const {
    const auto state = isal_->block_state;
    if (state != ISAL_BLOCK_HDR && state != ISAL_BLOCK_NEW_HDR) return false;
    // Bits taken but not used wait in read_in, and the bytes of a header begun in tmp_in.
    const std::uint64_t taken = nextPlainOffset() * 8;
    const std::uint64_t waiting =
        std::uint64_t(isal_->read_in_length) +
        (state == ISAL_BLOCK_HDR ? std::uint64_t(isal_->tmp_in_size) * 8 : 0);
    return taken >= waiting && taken - waiting == bit;
}

bool PlainEntryReader::decodeOnTwoCores(std::uint64_t offset) {
    if (entry_.codec != EntryCodec::Zlib || !index_ || recordPoints_ || produced_ != 0 ||
        isalRefused_ || whole_ || rawInflate_ || isal_ || offset < gTwoCoresMin.load() ||
        entry_.uncompressedSize == 0)
        return false;
    // Version 12+ chaining is walked in order from the entry's start.
    if (cipher_ && !entry_.counterMode && cipher_->variant().mixedChaining) return false;
    // Where the offset lies in the compressed stream, by the entry's ratio.
    const std::uint64_t estimate =
        std::uint64_t((long double)entry_.compressedSize * (long double)offset /
                      (long double)entry_.uncompressedSize);
    const std::uint64_t from = std::uint64_t(double(estimate) * kTwoCoresSplit);
    const std::uint64_t to =
        std::min<std::uint64_t>(entry_.compressedSize, estimate + estimate / 32 + (1 << 20));
    if (from < kTwoCoresMinFrom) return false;
    startIsal();
    if (!isal_ || !pipelined_) return false;
    if (!startAhead() || !ahead_->worker.joinable()) return false;
    // The other thread's part, and the output ISA-L writes here with the window sliding over it;
    // without the memory for them this thread decodes alone.
    std::optional<SpeculativeInflate> other;
    PageBlock scratch;
    try {
        scratch = PageBlock(kIsalStep);
        other.emplace(
            [this](std::uint8_t* dst, std::uint64_t at, std::size_t n) {
                // Whole cipher blocks (the stream's last bytes are followed by padding).
                decryptAt(dst - 8, at,
                          std::size_t(std::min<std::uint64_t>((n + 7) & ~std::size_t(7),
                                                              cipherSize_ - at)));
            },
            std::min<std::uint64_t>(entry_.compressedSize, cipherSize_), from, to,
            kTwoCoresSpacing);
    } catch (const std::bad_alloc&) {
        return false;
    }
    giveIdleWork([&other] { return other->step(); });
    // The work is taken back on every way out, and a step that runs is waited for.
    struct TakeBack {
        PlainEntryReader& reader;
        bool armed = true;
        ~TakeBack() {
            if (armed) reader.takeBackIdleWork();
        }
    } takeBack{*this};

    std::uint8_t window[kInflateWindow];
    if (!isalUpTo(from, offset, window, scratch.data()) || produced_ == offset)
        return produced_ == offset;
    while (gTwoCoresWait.load() && other->searching()) std::this_thread::yield();
    // No block start found by now: the other thread had no time for it.
    const std::optional<std::uint64_t> start = other->start();
    if (!start) return false;
    if (!isalUpTo((*start + 7) / 8, offset, window, scratch.data()) || produced_ == offset)
        return produced_ == offset;
    // Only a reader that stands right before a block at the guessed start proves it one.
    if (produced_ < kInflateWindow || !isalStopsAt(*start)) return false;
    takeBackIdleWork();
    auto proven = std::make_shared<SpeculativeInflate::Proven>(
        other->finish(produced_, {window, kInflateWindow}));
    const std::uint64_t in = (*start + 7) / 8;
    const std::shared_ptr<const SeekPoint> startPoint =
        SeekPoint::plain(produced_, in, int(in * 8 - *start), {window, kInflateWindow});
    std::size_t before = 0;  // the proven points at or before the offset (they are in order)
    while (before < proven->size() && proven->out(before) <= offset) ++before;
    const std::shared_ptr<const SeekPoint> best =
        before > 0 ? proven->point(before - 1) : startPoint;
    // The points join the index with their windows deflated (a quarter of the memory for
    // text): the other thread resolves and deflates them while this one reads on.
    giveIdleWork([proven, startPoint, index = index_, next = std::size_t(0)]() mutable {
        const std::shared_ptr<const SeekPoint> p = next == 0 ? startPoint : proven->point(next - 1);
        ++next;
        if (index->wants(p->out)) index->add(SeekPoint::make(p->out, p->in, p->bits, p->window));
        return next <= proven->size();
    });
    takeBack.armed = false;
    if (gTwoCoresWait.load()) waitIdleWork();
    if (best->out > produced_) {
        leaveIsal(false);
        if (!resumeIsal(best)) restartInflate(best.get());
    }
    return true;
}

void PlainEntryReader::skip(std::uint64_t n) {
    std::uint8_t scratch[kSkipBuffer];
    while (n > 0) {
        std::size_t got = read(scratch, std::size_t(std::min<std::uint64_t>(n, sizeof scratch)));
        if (got == 0) throw TruncatedError(where() + ": data ends early");
        n -= got;
    }
}

bool PlainEntryReader::seekResumesNearer(std::uint64_t offset) const {
    if (!index_ || offset <= produced_ || whole_ || lz4_ || !entry_.compressed()) return false;
    std::shared_ptr<const SeekPoint> point = index_->before(offset);
    return point && point->out > produced_;
}

void PlainEntryReader::seek(std::uint64_t offset) {
    offset = std::min<std::uint64_t>(offset, entry_.uncompressedSize);
    if (offset == produced_) return;
    if (whole_) {
        produced_ = offset;
        return;
    }
    if (lz4_) {
        if (offset < produced_) {
            lz4_ = std::make_unique<ReadPipeline>(entryPipelineSpec(*pak_, entry_));
            produced_ = 0;
        }
        skip(offset - produced_);
        return;
    }
    if (!entry_.compressed()) {
        produced_ = offset;
        startCipherAt(offset);
        return;
    }
    seeked_ = true;
    for (;;) {
        std::shared_ptr<const SeekPoint> point = index_ ? index_->before(offset) : nullptr;
        // A reader that records points decodes with zlib from the start of an ISA-L stream
        // (whose state cannot be saved); one that only looks points up goes on with ISA-L.
        bool keepGoing = offset > produced_ && (!point || point->out <= produced_) &&
                         !(isal_ && recordPoints_ && !resumedFrom_);
        try {
            if (!keepGoing) {
                leaveIsal(false);
                // Readers that record points need zlib's state at block ends; the others
                // resume through ISA-L, about twice zlib's speed (zlib takes over on anything
                // it rejects).
                if (!point || recordPoints_ || isalRefused_ || !resumeIsal(point))
                    restartInflate(point.get());
            } else {
                decodeOnTwoCores(offset);
            }
            break;
        } catch (const DamagedWindowError&) {
            // ISA-L's point had a damaged window and is gone from the index (windowOf; zlib's
            // restartInflate passes over such points itself): from the start, and again from
            // the point before it. Each turn drops a point, so this ends.
            leaveIsal(false);
            restartInflate(nullptr);
        }
    }
    skip(offset - produced_);
}

PipelineSpec entryPipelineSpec(const PakIndex& pak, const PakEntry& entry) {
    PipelineSpec spec(
        ByteRange(pak.file(), pak.entryOffset(entry) + entry.ivSize(), entry.cipherSize()));
    spec.cipher = pak.entryCipher(entry);
    if (spec.cipher) spec.iv = loadLE64(pak.file()->readAt(pak.entryOffset(entry), 8).data());
    spec.counterMode = entry.counterMode;
    spec.compressed = entry.codec == EntryCodec::Zlib;
    spec.lz4 = entry.codec == EntryCodec::Lz4;
    spec.compressedSize = entry.compressedSize;
    spec.size = entry.uncompressedSize;
    spec.name = pak.name() + ": " + entry.path;
    return spec;
}

bool isGbxEntry(const PakIndex& pak, const PakEntry& entry) {
    if (entry.uncompressedSize < 3) return false;
    if (entry.codec == EntryCodec::Lz4) {
        ReadPipeline pipe(entryPipelineSpec(pak, entry));
        std::uint8_t head[3];
        try {
            pipe.top().read(head);
        } catch (const Error&) {
            return false;  // reading it says why
        }
        return std::memcmp(head, "GBX", 3) == 0;
    }
    // The IV and the first segment in one read.
    std::uint8_t seg[8 + kSegmentSize];
    std::size_t n = std::size_t(std::min<std::uint64_t>(kSegmentSize, entry.cipherSize()));
    const Blowfish* cipher = pak.entryCipher(entry);
    std::uint8_t* plain = seg + 8;
    if (cipher) {
        pak.file()->readAt(pak.entryOffset(entry), seg, 8 + n);
        std::uint64_t iv = loadLE64(seg);
        if (entry.counterMode)
            cipher->counterXor(plain, n, iv, 0);
        else
            cipher->cbcDecrypt(plain, n, iv);
    } else {
        pak.file()->readAt(pak.entryOffset(entry), plain, n);
    }
    std::uint8_t head[3];
    if (!entry.compressed()) {
        std::memcpy(head, plain, 3);
    } else {
        InflatePtr z = takeInflate(15);
        if (!z) return false;
        z->next_in = plain;
        z->avail_in = unsigned(std::min<std::uint64_t>(n, entry.compressedSize));
        z->next_out = head;
        z->avail_out = 3;
        inflate(z.get(), Z_SYNC_FLUSH);
        bool got = z->avail_out == 0;
        giveBack(std::move(z));
        if (!got) return false;
    }
    return std::memcmp(head, "GBX", 3) == 0;
}

bool isGbxEntryHead(const PakIndex& pak, const PakEntry& entry, ByteSpan head) {
    return head.size() >= 3 && std::memcmp(head.data(), "GBX", 3) == 0 && isGbxEntry(pak, entry);
}

Bytes readPlainEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     bool unverified) {
    PlainEntryReader reader(pak, entry, nullptr, true, unverified);
    // The size is untrusted: grow with what the data gives.
    Bytes out(std::size_t(std::min<std::uint64_t>(entry.uncompressedSize, kOutBuffer)));
    std::size_t have = 0;
    while (reader.position() < reader.size()) {
        if (have == out.size())
            out.resize(std::size_t(
                std::min<std::uint64_t>(entry.uncompressedSize, std::uint64_t(out.size()) * 2)));
        have += reader.read(out.data() + have, out.size() - have);
    }
    out.resize(have);
    return out;
}

}  // namespace pakfs::archive
