// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points for random access into plain (non-gbx) entries (PlainEntryReader.hpp). A stored
// entry is plain CBC, so any 8-byte block decodes from the ciphertext block before it. A compressed
// entry is one zlib stream: like zlib's zran example, a seek point saves the deflate state at a
// block boundary (input offset, pending bits, the last 32 KiB of output) so decoding can resume
// there instead of at the start. The cipher needs nothing saved: the chaining value is the previous
// ciphertext block in the file.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "archive/pak/PakIndex.hpp"

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
    // A snapshot of the points, in order (to save them).
    std::vector<std::shared_ptr<const SeekPoint>> points() const;
    std::size_t memoryBytes() const;

private:
    bool wantsLocked(std::uint64_t out) const;

    std::uint64_t span_;
    std::size_t maxPoints_;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<const SeekPoint>> points_;  // sorted by `out`
};

}  // namespace pakfs::archive
