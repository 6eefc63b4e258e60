// SPDX-License-Identifier: GPL-2.0-or-later
// The plain entry reader's one decrypt stage.
#include "archive/stream/DecryptStage.hpp"

#include <algorithm>
#include <new>

#include "archive/stream/DecryptAhead.hpp"

namespace pakfs::archive {

namespace {

// MixedCbc chaining values are kept every this many bytes of ciphertext (8 bytes each).
constexpr std::uint64_t kChainMarkSpan = 1 << 20;

CipherMode modeOf(const Blowfish* cipher, const PakEntry& entry) {
    if (!cipher) return CipherMode::Clear;
    if (entry.counterMode) return CipherMode::Counter;
    return cipher->variant().mixedChaining ? CipherMode::MixedCbc : CipherMode::Cbc;
}

}  // namespace

SpareBuffer& spareDecryptBuffer() {
    thread_local SpareBuffer spare;
    return spare;
}

DecryptStage::DecryptStage(const PakIndex& pak, const PakEntry& entry)
    : pak_(pak),
      entry_(entry),
      cipher_(pak.entryCipher(entry)),
      mode_(modeOf(cipher_, entry)),
      slot_(pak.entryOffset(entry)),
      cipherSize_(entry.cipherSize()),
      chunk_(takeBuffer(spareDecryptBuffer(), 0)),
      nextChunk_(kFirstChunk) {}

DecryptStage::~DecryptStage() {
    ahead_.reset();  // its thread decrypts through this
    giveBack(spareDecryptBuffer(), std::move(chunk_));
}

void DecryptStage::decryptStart(const PakIndex& pak, const PakEntry& entry, std::uint8_t* buf,
                                std::size_t n) {
    const Blowfish* cipher = pak.entryCipher(entry);
    const std::uint64_t slot = pak.entryOffset(entry);
    if (!cipher) {
        pak.file()->readAt(slot, buf + 8, n);
        return;
    }
    // The IV and the ciphertext in one read; from the IV every mode decrypts in order.
    pak.file()->readAt(slot, buf, n + 8);
    std::uint64_t iv = loadLE64(buf);
    if (entry.counterMode)
        cipher->counterXor(buf + 8, n, iv, 0);
    else
        cipher->cbcDecrypt(buf + 8, n, iv);
}

void DecryptStage::decryptAt(std::uint8_t* buf, std::uint64_t offset, std::size_t n) const {
    if (mode_ == CipherMode::Clear) {
        pak_.file()->readAt(slot_ + offset, buf + 8, n);
    } else if (mode_ == CipherMode::Counter) {
        // No chaining: any block decrypts from its offset alone.
        pak_.file()->readAt(slot_ + 8 + offset, buf + 8, n);
        cipher_->counterXor(buf + 8, n, *counterIv_, offset);
    } else {
        // CBC: the chaining value of a block is the ciphertext block stored before it (the
        // entry's IV for the first), so one read brings it along with the chunk.
        pak_.file()->readAt(slot_ + offset, buf, n + 8);
        std::uint64_t iv = loadLE64(buf);
        cipher_->cbcDecrypt(buf + 8, n, iv);
    }
}

void DecryptStage::startAt(std::uint64_t plainOffset) {
    if (ahead_) ahead_->drop();
    const std::uint64_t block = plainOffset & ~std::uint64_t(7);
    cipherOffset_ = block;
    len_ = 0;
    pos_ = 0;
    pendingSkip_ = std::size_t(plainOffset - block);
    nextChunk_ = kFirstChunk;
}

DecryptAhead* DecryptStage::startAhead() {
    if (!pipelined_) return nullptr;
    if (ahead_) return ahead_.get();
    try {
        ahead_ = std::make_unique<DecryptAhead>(*this, cipherSize_);
    } catch (const std::bad_alloc&) {
        // No memory for the pieces: this stage decrypts on its caller's thread.
        pipelined_ = false;
        return nullptr;
    }
    ahead_->startThread();
    return ahead_.get();
}

std::uint8_t* DecryptStage::chunkBase() {
    std::uint8_t* held = ahead_ ? ahead_->held() : nullptr;
    return held ? held : chunk_.data.get();
}

void DecryptStage::decryptMore() {
    std::size_t n = std::size_t(std::min<std::uint64_t>(nextChunk_, cipherSize_ - cipherOffset_));
    len_ = 0;
    pos_ = 0;
    if (n == 0) return;
    if (mode_ == CipherMode::Counter && !counterIv_)
        counterIv_ = loadLE64(pak_.file()->readAt(slot_, 8).data());
    if (mode_ != CipherMode::MixedCbc && startAhead()) {
        // Decrypted ahead on another thread while the last chunk was inflated. (The version
        // 12+ chain is walked in order: it stays on this thread.)
        n = ahead_->take(cipherOffset_);
    } else {
        growBuffer(chunk_, n + 8);
        if (mode_ != CipherMode::MixedCbc)
            decryptAt(chunk_.data.get(), cipherOffset_, n);
        else
            decryptMixed(n);
    }
    cipherOffset_ += n;
    len_ = n;
    pos_ = std::min(pendingSkip_, n);
    pendingSkip_ = 0;
    nextChunk_ = std::min(nextChunk_ * 2, kBulkChunk);
}

void DecryptStage::decryptMixed(std::size_t n) {
    advanceChainTo(cipherOffset_);
    pak_.file()->readAt(slot_ + 8 + cipherOffset_, chunk_.data.get() + 8, n);
    // Decrypted in pieces that end on the marks, so that the marks are kept on the way.
    for (std::size_t done = 0; done < n;) {
        const std::uint64_t at = cipherOffset_ + done;
        const std::size_t piece =
            std::size_t(std::min<std::uint64_t>(n - done, kChainMarkSpan - at % kChainMarkSpan));
        cipher_->cbcDecrypt(chunk_.data.get() + 8 + done, piece, chainIv_);
        done += piece;
        chainAt_ = at + piece;
        if (chainAt_ % kChainMarkSpan == 0 && chainAt_ / kChainMarkSpan == chainMarks_.size())
            chainMarks_.push_back(chainIv_);
    }
}

void DecryptStage::advanceChainTo(std::uint64_t offset) {
    if (!chainKnown_) {
        chainMarks_.assign(1, loadLE64(pak_.file()->readAt(slot_, 8).data()));
        chainIv_ = chainMarks_[0];
        chainAt_ = 0;
        chainKnown_ = true;
    }
    if (offset < chainAt_) {
        // Back to the last mark at or before the offset.
        const std::size_t mark =
            std::min<std::size_t>(std::size_t(offset / kChainMarkSpan), chainMarks_.size() - 1);
        chainIv_ = chainMarks_[mark];
        chainAt_ = std::uint64_t(mark) * kChainMarkSpan;
    }
    std::uint8_t block[64 * 1024];
    static_assert(kChainMarkSpan % sizeof block == 0);
    while (chainAt_ < offset) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(sizeof block, offset - chainAt_));
        pak_.file()->readAt(slot_ + 8 + chainAt_, block, n);
        for (std::size_t i = 0; i + 8 <= n; i += 8)
            chainIv_ = mixedNextIv(chainIv_, loadLE64(block + i));
        chainAt_ += n;
        if (chainAt_ % kChainMarkSpan == 0 && chainAt_ / kChainMarkSpan == chainMarks_.size())
            chainMarks_.push_back(chainIv_);
    }
}

}  // namespace pakfs::archive
