// SPDX-License-Identifier: GPL-2.0-or-later
// The zlib strategy of the plain entry reader: seek points recorded, resumed, and the last word.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>

#include "archive/stream/EntryStream.hpp"

namespace pakfs::archive {

struct InflateEnd {
    void operator()(z_stream* z) const {
        inflateEnd(z);
        delete z;
    }
};
using InflatePtr = std::unique_ptr<z_stream, InflateEnd>;

// A z_stream set up for `windowBits` (15: zlib header and trailer; -15: raw deflate), reused
// from what the last reader of this thread gave back (inflateInit allocates about 7 KiB of state
// and later the 32 KiB window, inflateReset2 keeps both); null when zlib cannot start.
InflatePtr takeInflate(int windowBits);
void giveBack(InflatePtr z);

// zlib decodes what needs its state at block ends (a reader recording seek points: Z_BLOCK
// stops where a point can go, inflateGetDictionary gives its window), resumes at a point with
// inflatePrime and the window as its dictionary, and takes over from the faster inflaters on
// anything they reject, so that what is accepted and every message stay zlib's.
class ZlibInflate {
public:
    explicit ZlibInflate(EntryStream& stream) : s_(stream) {}
    ~ZlibInflate();
    ZlibInflate(const ZlibInflate&) = delete;
    ZlibInflate& operator=(const ZlibInflate&) = delete;

    // Starts at `point` (nullptr: the entry's start); a point whose window in an index file is
    // damaged is dropped and the one before it taken.
    void restart(const SeekPoint* point);
    // Fills dst with the next n bytes (the entry's size is not passed); records points.
    std::size_t read(std::uint8_t* dst, std::size_t n);
    // Runs the stream past the entry's last byte, so that zlib checks its Adler-32 trailer.
    void checkTrailer();
    // Whether the stream's end was reached (its Adler-32 checked).
    bool ended() const { return ended_; }

private:
    std::size_t feed(std::uint64_t& zlibLeft);
    void maybeRecordPoint();
    [[noreturn]] void corrupt(int rc) const;

    EntryStream& s_;
    z_stream* z_ = nullptr;
    bool ended_ = false;
};

}  // namespace pakfs::archive
