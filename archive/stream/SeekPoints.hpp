// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points for random access into plain (non-gbx) entries (PlainEntryReader.hpp). A stored entry
// is plain CBC, so any 8-byte block decodes from the ciphertext block before it. A compressed entry
// is one zlib stream: like zlib's zran example, a seek point saves the deflate state at a block
// boundary (input offset, pending bits, the last 32 KiB of output) so decoding can resume there
// instead of at the start. The cipher needs nothing saved: the chaining value is the previous
// ciphertext block in the file. The 32 KiB of output are kept deflated (libdeflate level 1; about a
// quarter of it for text), so that points can sit at every block boundary within a bounded memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "archive/pak/PakIndex.hpp"
#include "common/File.hpp"

namespace pakfs::archive {

inline constexpr std::size_t kInflateWindow = 32768;

// Slides the `n` bytes of output at `out` into `window`, the last kInflateWindow bytes of output.
inline void slideWindow(std::uint8_t* window, const std::uint8_t* out, std::size_t n) {
    if (n >= kInflateWindow) {
        std::memcpy(window, out + n - kInflateWindow, kInflateWindow);
    } else {
        std::memmove(window, window + n, kInflateWindow - n);
        std::memcpy(window + kInflateWindow - n, out, n);
    }
}

// The CRC-32 (zlib's crc32) a point's window is kept with in an index file; ISA-L's, about five
// times as fast as zlib's (loading an index file checks every window).
std::uint32_t windowCrc(ByteSpan bytes);

// A seek point's window that does not read back as it was kept: its index file was damaged (or
// changed) after it was loaded. Not a reason to fail a read: the reader drops the point and
// resumes at the one before (SeekIndex::drop).
class DamagedWindowError : public Error {
public:
    using Error::Error;
};

struct SeekPoint {
    std::uint64_t out = 0;         // uncompressed offset of the point
    std::uint64_t in = 0;          // compressed offset of the first byte not yet fully consumed
    int bits = 0;                  // bits of the byte before `in` still to be fed (0..7)
    std::uint32_t windowSize = 0;  // bytes of output before `out` kept (up to 32 KiB)
    bool windowDeflated = false;   // `window` is raw deflate of them, else the bytes themselves
    Bytes window;
    // A point loaded from an index file keeps its window there (`window` empty): `windowLength`
    // bytes at `windowAt` in `windowFile`, whose CRC-32 is `windowCrc`, read when used.
    std::shared_ptr<const InputFile> windowFile;
    std::uint64_t windowAt = 0;
    std::uint32_t windowLength = 0;
    std::uint32_t windowCrc = 0;

    // A point whose window is `dictionary` (deflated when that makes it smaller).
    static std::shared_ptr<SeekPoint> make(std::uint64_t out, std::uint64_t in, int bits,
                                           ByteSpan dictionary);
    // The same with the window kept as it is (to resume at once; make() it for an index).
    static std::shared_ptr<SeekPoint> plain(std::uint64_t out, std::uint64_t in, int bits,
                                            ByteSpan dictionary);
    // Writes the windowSize bytes of the window to `dst`; throws DamagedWindowError when they do
    // not inflate to exactly that size or their file no longer holds them (a damaged index file).
    void windowBytes(std::uint8_t* dst) const;
    // The window as kept (deflated or raw), read from its file (and its CRC-32 checked) when it
    // is there; DamagedWindowError when that fails.
    Bytes storedWindow() const;
    std::size_t memoryBytes() const { return sizeof(SeekPoint) + window.capacity(); }
};

// The seek points of one compressed entry, filled in by readers as they decode. Shared by all
// readers of the entry; thread-safe. Points are at least `span` bytes of output apart, at most
// `maxPoints` are kept, and their memory stays within `maxBytes`: a point that would go beyond
// it thins the points out instead (every other one dropped, the span doubled), so the points
// stay spread over the whole entry.
class SeekIndex {
public:
    SeekIndex(std::uint64_t span, std::size_t maxPoints, std::size_t maxBytes = SIZE_MAX);

    // Span that keeps an entry of `size` bytes within `maxPoints` points, at least `minSpan`.
    static std::uint64_t spanFor(std::uint64_t size, std::uint64_t minSpan, std::size_t maxPoints);

    // The span asked for at construction (what an index file is valid for).
    std::uint64_t span() const { return baseSpan_; }
    // The span now (larger once thinned).
    std::uint64_t currentSpan() const;
    std::size_t maxPoints() const { return maxPoints_; }
    // The last point at or before `offset`, or nullptr (start from the beginning).
    std::shared_ptr<const SeekPoint> before(std::uint64_t offset) const;
    // Whether a point at `out` would be kept (far enough from its neighbours, room left).
    bool wants(std::uint64_t out) const;
    void add(std::shared_ptr<const SeekPoint> point);
    // Removes `point`, whose window turned out damaged, and calls the onDamaged handler the
    // first time; false when the point is not (or no longer) in the index.
    bool drop(const SeekPoint* point);
    // What to do once when a point is dropped (the index file it came from is removed, so that
    // the next mount builds it again). Called on the reading thread, without the index's lock.
    void onDamaged(std::function<void()> handler);
    std::size_t size() const;
    // A snapshot of the points, in order (to save them).
    std::vector<std::shared_ptr<const SeekPoint>> points() const;
    std::size_t memoryBytes() const;

private:
    bool wantsLocked(std::uint64_t out) const;
    void thinLocked();

    const std::uint64_t baseSpan_;
    std::uint64_t span_;
    std::size_t maxPoints_;
    std::size_t maxBytes_;
    std::size_t bytes_ = 0;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<const SeekPoint>> points_;  // sorted by `out`
    std::function<void()> onDamaged_;                       // until first called
};

}  // namespace pakfs::archive
