// SPDX-License-Identifier: GPL-2.0-or-later
// The whole-entry strategy of the plain entry reader: libdeflate, one call for the entry.
#pragma once

#include <cstdint>
#include <memory>

#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// A zlib entry read from its start by a reader without an index (the CLI's): the whole stream
// decrypted and inflated in one call. libdeflate rather than ISA-L here: see BENCHMARKS.md
// (measured on the bench's data); its zlib decoder checks the header and the Adler-32 trailer
// itself. It holds the entry in memory, so only up to a limit (ReadTuning::wholeInflateLimit).
class WholeInflate {
public:
    // Decodes the entry; false (nothing held) for an entry over `limit` bytes, or one that
    // libdeflate does not decode to exactly its size: the zlib path says what is wrong.
    bool decode(const PakIndex& pak, const PakEntry& entry, std::uint64_t limit);
    bool done() const { return bytes_ != nullptr; }
    const std::uint8_t* bytes() const { return bytes_.get(); }

private:
    std::unique_ptr<std::uint8_t[]> bytes_;
};

}  // namespace pakfs::archive
