// SPDX-License-Identifier: GPL-2.0-or-later
// A byte buffer with its size, grown only when too small (the readers' chunk, output and
// decrypted-ahead buffers); one kept between uses by a thread is taken, grown and given back,
// and a nested use while it is out just allocates anew.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace pakfs::archive {

struct SpareBuffer {
    std::unique_ptr<std::uint8_t[]> data;
    std::size_t size = 0;
};

// Makes `b` hold at least `size` bytes (a new, uninitialised buffer when it is too small).
inline void growBuffer(SpareBuffer& b, std::size_t size) {
    if (b.size < size) {
        b.data = std::make_unique_for_overwrite<std::uint8_t[]>(size);
        b.size = size;
    }
}

// `spare`'s buffer (left empty) if it holds `size` bytes, else a new one; uninitialised.
inline SpareBuffer takeBuffer(SpareBuffer& spare, std::size_t size) {
    SpareBuffer b = std::move(spare);
    spare.size = 0;
    growBuffer(b, size);
    return b;
}

// Keeps the larger of the two for the next take.
inline void giveBack(SpareBuffer& spare, SpareBuffer b) {
    if (b.size > spare.size) spare = std::move(b);
}

}  // namespace pakfs::archive
