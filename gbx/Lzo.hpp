// SPDX-License-Identifier: GPL-2.0-or-later
// LZO1X, as gbx bodies use it.
#pragma once

#include "common/Bytes.hpp"

namespace pakfs::gbx {

// LZO1X as gbx bodies use it. decompress throws Error unless the data decodes to exactly
// uncompressedSize bytes.
Bytes lzoDecompress(ByteSpan compressed, std::size_t uncompressedSize);
Bytes lzoCompress(ByteSpan data);

}  // namespace pakfs::gbx
