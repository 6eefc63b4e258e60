// SPDX-License-Identifier: GPL-2.0-or-later
// Where deflate blocks may start inside a stream, found without decoding what comes before:
// a decoder that starts at such a place decodes the rest of the stream (given the 32 KiB of
// output before it). Finding one is only a guess: the header rules below rule out nearly every
// bit position, but a position that passes is proven a block start only by a decoder from the
// stream's start arriving there (see archive/stream/SpeculativeInflate.hpp).
#pragma once

#include <cstdint>
#include <optional>

#include "common/Bytes.hpp"

namespace pakfs::archive {

// The first bit position in [fromBit, toBit) of `data` (bits counted from data[0], least
// significant bit first, as deflate reads them) where a complete header of a non-final block
// with dynamic Huffman codes lies that zlib would accept: lengths within their ranges, a code
// length code that is complete, literal/length and distance codes neither over-subscribed nor
// incomplete (but for zlib's one-code exception), and an end-of-block code. nullopt when no
// position passes (stored and fixed-code blocks are not looked for).
std::optional<std::uint64_t> findDynamicBlockHeader(ByteSpan data, std::uint64_t fromBit,
                                                    std::uint64_t toBit);

}  // namespace pakfs::archive
