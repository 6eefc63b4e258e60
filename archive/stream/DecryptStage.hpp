// SPDX-License-Identifier: GPL-2.0-or-later
// The plain entry reader's one decrypt stage: an entry's slot turned into its plain bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "archive/pak/PakIndex.hpp"
#include "archive/stream/SpareBuffer.hpp"

namespace pakfs::archive {

class DecryptAhead;

// How an entry's bytes are enciphered: in the clear; CBC, where a block's chaining value is the
// ciphertext block before it (the IV for the first); CBC with version 12+ mixed chaining, whose
// values are walked in order from the IV; counter mode (version 6+ seekable flag), where any
// block decrypts from its offset alone.
enum class CipherMode { Clear, Cbc, MixedCbc, Counter };

// The entry's plaintext (its compressed stream, or its stored bytes) from any offset, a chunk at
// a time: the first chunk after a (re)start is small so that a random read stays cheap, and
// sequential reading doubles it up to the bulk size. A pipelined stage (the mount's streaming
// readers) takes its chunks from DecryptAhead, decrypted on another thread while the caller
// inflates the last one. Every strategy of PlainEntryReader reads through one of these.
class DecryptStage {
public:
    static constexpr std::size_t kFirstChunk = 64 * 1024;
    static constexpr std::size_t kBulkChunk = 256 * 1024;

    // Throws Error naming the entry when it needs the key that was not given.
    DecryptStage(const PakIndex& pak, const PakEntry& entry);
    ~DecryptStage();
    DecryptStage(const DecryptStage&) = delete;
    DecryptStage& operator=(const DecryptStage&) = delete;

    CipherMode mode() const { return mode_; }
    std::uint64_t cipherSize() const { return cipherSize_; }

    // The entry's first `n` bytes of ciphertext decrypted into buf + 8 in one read, whatever
    // the mode (buf's first 8 bytes take the IV).
    static void decryptStart(const PakIndex& pak, const PakEntry& entry, std::uint8_t* buf,
                             std::size_t n);
    // `n` bytes of ciphertext at `offset` decrypted into buf + 8 (buf's first 8 bytes take the
    // chaining block); not for MixedCbc. Safe on another thread once a chunk was decrypted.
    void decryptAt(std::uint8_t* buf, std::uint64_t offset, std::size_t n) const;

    // Goes to `plainOffset`: the next chunk starts there.
    void startAt(std::uint64_t plainOffset);
    // Decrypts the next chunk (none at the end of the ciphertext).
    void decryptMore();
    // The current chunk's bytes not yet handed on, at at() (null before any chunk).
    std::size_t left() const { return len_ - pos_; }
    std::uint8_t* at() {
        std::uint8_t* base = chunkBase();
        return base ? base + 8 + pos_ : nullptr;
    }
    void consume(std::size_t n) { pos_ += n; }
    // Offset in the plaintext of the next byte to hand on.
    std::uint64_t nextOffset() const { return cipherOffset_ - left() + pendingSkip_; }
    // Whether the whole ciphertext was decrypted.
    bool ended() const { return cipherOffset_ == cipherSize_; }

    // Whether chunks are to come from another thread (set before the first decryptMore).
    void setPipelined(bool on) { pipelined_ = on; }
    bool pipelined() const { return pipelined_; }
    // Starts decrypting ahead once; null when this stage decrypts on its caller's thread (not
    // pipelined, or no memory for the pieces). Never for MixedCbc.
    DecryptAhead* startAhead();

private:
    std::uint8_t* chunkBase();
    // MixedCbc: brings chainIv_ to the chaining value of the ciphertext block at `offset`.
    void advanceChainTo(std::uint64_t offset);
    void decryptMixed(std::size_t n);

    const PakIndex& pak_;
    const PakEntry& entry_;
    const Blowfish* cipher_ = nullptr;  // null: the entry is stored in the clear
    CipherMode mode_ = CipherMode::Clear;
    std::uint64_t slot_ = 0;  // the entry's offset in the pak
    std::uint64_t cipherSize_ = 0;
    std::optional<std::uint64_t> counterIv_;  // Counter: the slot's IV, once read
    std::uint64_t chainIv_ = 0;               // MixedCbc: chaining value at chainAt_
    std::uint64_t chainAt_ = 0;
    bool chainKnown_ = false;
    // MixedCbc: chaining values every kChainMarkSpan bytes of ciphertext walked so far, so a
    // seek back does not walk from the IV again.
    std::vector<std::uint64_t> chainMarks_;
    std::uint64_t cipherOffset_ = 0;  // ciphertext bytes decrypted so far (block aligned)
    SpareBuffer chunk_;               // the chaining block, then the decrypted chunk
    std::size_t len_ = 0;             // decrypted bytes in chunk_ after the chaining block
    std::size_t pos_ = 0;             // of them, handed on
    std::size_t nextChunk_ = 0;       // ciphertext to decrypt in the next step
    std::size_t pendingSkip_ = 0;     // bytes of the next decrypted chunk before the start point
    bool pipelined_ = false;
    std::unique_ptr<DecryptAhead> ahead_;  // the chunks ahead, decrypted on another thread
};

// The thread's spare buffer for decrypted bytes: what the last reader of this thread left
// behind (extraction opens one reader per entry). Taken and given back (SpareBuffer.hpp).
SpareBuffer& spareDecryptBuffer();

}  // namespace pakfs::archive
