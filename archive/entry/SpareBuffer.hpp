// SPDX-License-Identifier: GPL-2.0-or-later
// A byte buffer kept between uses by one thread (the readers' chunk and output buffers): taken,
// grown when too small, given back; a nested use while it is out just allocates anew.
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

// `spare`'s buffer (left empty) if it holds `size` bytes, else a new one; uninitialised.
inline SpareBuffer takeBuffer(SpareBuffer& spare, std::size_t size) {
    SpareBuffer b = std::move(spare);
    spare.size = 0;
    if (b.size < size) {
        b.data = std::make_unique_for_overwrite<std::uint8_t[]>(size);
        b.size = size;
    }
    return b;
}

// Keeps the larger of the two for the next take.
inline void giveBack(SpareBuffer& spare, SpareBuffer b) {
    if (b.size > spare.size) spare = std::move(b);
}

}  // namespace pakfs::archive
