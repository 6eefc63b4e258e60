// SPDX-License-Identifier: GPL-2.0-or-later
// Random access into plain (non-gbx) entries. A stored entry is plain CBC, so any 8-byte block
// decodes from the ciphertext block before it. A compressed entry is one zlib stream: like
// zlib's zran example, a seek point saves the deflate state at a block boundary (input offset,
// pending bits, the last 32 KiB of output) so decoding can resume there instead of at the start.
// The cipher needs nothing saved: the chaining value is the previous ciphertext block in the file.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "archive/PakIndex.hpp"

namespace pakfs::archive {

inline constexpr std::size_t kInflateWindow = 32768;

struct SeekPoint {
    std::uint64_t out = 0;  // uncompressed offset of the point
    std::uint64_t in = 0;   // compressed offset of the first byte not yet fully consumed
    int bits = 0;           // bits of the byte before `in` still to be fed (0..7)
    Bytes window;           // the output before `out`, up to 32 KiB (the inflate dictionary)
};

// The seek points of one compressed entry, filled in by readers as they decode. Shared by all
// readers of the entry; thread-safe. Points are at least `span` bytes of output apart and at
// most `maxPoints` are kept, which bounds the memory at maxPoints * 32 KiB.
class SeekIndex {
public:
    SeekIndex(std::uint64_t span, std::size_t maxPoints);

    // Span that keeps an entry of `size` bytes within `maxPoints` points, at least `minSpan`.
    static std::uint64_t spanFor(std::uint64_t size, std::uint64_t minSpan, std::size_t maxPoints);

    std::uint64_t span() const { return span_; }
    // The last point at or before `offset`, or nullptr (start from the beginning).
    std::shared_ptr<const SeekPoint> before(std::uint64_t offset) const;
    // Whether a point at `out` would be kept (far enough from its neighbours, room left).
    bool wants(std::uint64_t out) const;
    void add(std::shared_ptr<const SeekPoint> point);
    std::size_t size() const;
    std::size_t memoryBytes() const;

private:
    bool wantsLocked(std::uint64_t out) const;

    std::uint64_t span_;
    std::size_t maxPoints_;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<const SeekPoint>> points_;  // sorted by `out`
};

// Reads a plain entry from any offset. Sequential reads stream; seek() jumps, using `index`
// for compressed entries (and adding points to it as it decodes). One per open file.
class PlainEntryReader {
public:
    PlainEntryReader(std::shared_ptr<const PakIndex> pak, const PakEntry& entry,
                     std::shared_ptr<SeekIndex> index = nullptr);
    ~PlainEntryReader();
    PlainEntryReader(const PlainEntryReader&) = delete;
    PlainEntryReader& operator=(const PlainEntryReader&) = delete;

    // Positions the reader at `offset` (<= size). Cheap for stored entries; for compressed
    // ones it resumes at the nearest seek point at or before `offset`, or keeps decoding from
    // the current position when that is nearer, and decodes forward to `offset`.
    void seek(std::uint64_t offset);
    // Fills dst with the next bytes; returns fewer only at the end of the entry. A read that
    // reaches the end of a stream decoded from its start also checks zlib's checksum.
    std::size_t read(std::uint8_t* dst, std::size_t n);
    std::uint64_t position() const { return produced_; }
    std::uint64_t size() const { return entry_.uncompressedSize; }
    // Bytes decoded so far, including skipped ones (for tests and statistics).
    std::uint64_t decodedBytes() const { return decoded_; }

private:
    void startCipherAt(std::uint64_t plainOffset);
    void decryptMore();
    void restartInflate(const SeekPoint* point);
    void skip(std::uint64_t n);
    std::size_t inflateSome(std::uint8_t* dst, std::size_t n);
    void maybeRecordPoint();
    void checkTrailer();
    // Offset in the entry's plaintext (the compressed stream) of the next byte to hand on.
    std::uint64_t nextPlainOffset() const;
    std::string where() const;

    std::shared_ptr<const PakIndex> pak_;
    const PakEntry& entry_;
    std::shared_ptr<SeekIndex> index_;
    std::uint64_t entryIv_ = 0;
    std::uint64_t iv_ = 0;
    std::uint64_t cipherOffset_ = 0;  // ciphertext bytes decrypted so far (block aligned)
    std::uint64_t cipherSize_ = 0;
    Bytes chunk_;  // decrypted, not yet used
    std::size_t chunkPos_ = 0;
    std::size_t pendingSkip_ = 0;  // bytes of the next decrypted chunk before the start point
    std::uint64_t produced_ = 0;
    std::uint64_t decoded_ = 0;
    z_stream z_{};
    bool zlibOpen_ = false;
    bool zlibEnded_ = false;
    bool rawInflate_ = false;  // resumed from a seek point: no zlib header or trailer
};

}  // namespace pakfs::archive
