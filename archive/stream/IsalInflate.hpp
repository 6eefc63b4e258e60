// SPDX-License-Identifier: GPL-2.0-or-later
// The streamed strategy of the plain entry reader: ISA-L from the start or from a seek point.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "archive/stream/EntryStream.hpp"

struct inflate_state;  // ISA-L (isa-l/igzip_lib.h)

namespace pakfs::archive {

// ISA-L for the zlib entries too large to decode whole (libdeflate cannot stream): about 2.5
// times zlib's speed on the bench's data, in bounded memory, and with crc_flag ISAL_ZLIB it
// checks the zlib header and the Adler-32 trailer itself; resumed at a seek point, about twice
// zlib's speed. It is only a fast path: on anything it rejects (an error, a stream that ends
// before the entry's size or one that gives more) it calls `refused`, which must leave() it and
// decode again with zlib up to where it got, so what is accepted and every message stay zlib's.
class IsalInflate {
public:
    // Output per call of upTo.
    static constexpr std::size_t kStep = 1 << 20;

    IsalInflate(EntryStream& stream, std::function<void()> refused)
        : s_(stream), refused_(std::move(refused)) {}
    ~IsalInflate() { leave(); }
    IsalInflate(const IsalInflate&) = delete;
    IsalInflate& operator=(const IsalInflate&) = delete;

    bool active() const { return state_ != nullptr; }
    // Whether it resumed at a seek point (rather than starting at the entry's start).
    bool resumed() const { return resumedFrom_ != nullptr; }
    // Starts at the entry's start (the stage there); false leaves zlib in charge (a header
    // other than the usual one). `checksum` false: the Adler-32 is left out (a reader sent into
    // the entry before its first read) and the header is read here.
    bool start(bool checksum);
    // Starts at `point` (raw deflate, its window as the dictionary); false leaves zlib in charge.
    bool resume(std::shared_ptr<const SeekPoint> point);
    // Gives the state back; returns the point it resumed at (null: it started at the beginning).
    std::shared_ptr<const SeekPoint> leave();
    // Fills dst with the next bytes; fewer when it was refused (zlib goes on).
    std::size_t read(std::uint8_t* dst, std::size_t n);
    // As ZlibInflate::checkTrailer: runs the stream to its end, where ISA-L checks the Adler-32.
    void checkTrailer();
    // Whether the stream's end was reached with its Adler-32 checked.
    bool finished() const;
    // On until the compressed stream is taken up to byte `limit` or the output reaches `until`,
    // in steps of up to kStep bytes written to `out`, the output sliding through `window`;
    // false when it was refused.
    bool upTo(std::uint64_t limit, std::uint64_t until, std::uint8_t* window, std::uint8_t* out);
    // Whether it stands between two deflate blocks, the next starting at stream bit `bit`.
    bool stopsAt(std::uint64_t bit) const;

private:
    EntryStream& s_;
    std::function<void()> refused_;
    inflate_state* state_ = nullptr;
    std::shared_ptr<const SeekPoint> resumedFrom_;
};

}  // namespace pakfs::archive
