// SPDX-License-Identifier: GPL-2.0-or-later
// The plain entry reader's first read far into a zlib entry, decoded on two cores.
#pragma once

#include <cstdint>
#include <memory>

#include "archive/stream/EntryStream.hpp"

namespace pakfs::archive {

class DecryptAhead;
class IsalInflate;

// A reader at the start of a zlib entry sent far into it (the mount's first read of a fresh
// mount): ISA-L decodes from the start on this thread while the thread decrypting ahead, when
// it has nothing to decrypt, guesses a block start near the offset and inflates from there
// (SpeculativeInflate.hpp). When this thread reaches the guessed start and stands right before a
// block there, the guess is proven: the other thread's points resolve, and the reader resumes at
// the last one before the offset instead of inflating the rest of the way.
class TwoCoreFirstRead {
public:
    // Where the other thread's part lies, by the entry's ratio.
    TwoCoreFirstRead(const EntryStream& stream, std::uint64_t offset);
    // Whether the other thread's part starts far enough in to be worth a thread.
    bool worthIt() const;
    // Runs it with `isal` started at the entry's start and `ahead` threaded. Leaves the stream
    // before `offset` (or at it) in a valid state, and returns the last proven point at or
    // before `offset` (the reader resumes there when it is past the position), or null when no
    // guess was proven: the reader decodes on from where it is. The proven points join the
    // index on the other thread as it goes on decrypting.
    std::shared_ptr<const SeekPoint> run(EntryStream& stream, IsalInflate& isal,
                                         DecryptAhead& ahead);

private:
    std::uint64_t offset_ = 0;
    std::uint64_t from_ = 0;  // where the other thread starts, in the compressed stream
    std::uint64_t to_ = 0;    // and ends
};

}  // namespace pakfs::archive
