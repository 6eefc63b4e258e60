// SPDX-License-Identifier: GPL-2.0-or-later
// LZO1X by liblzo2: a body decompressed to exactly its declared size, its input wholly used;
// and compressed with LZO1X-1.
#include "gbx/Lzo.hpp"

#include <lzo/lzo1x.h>

#include <mutex>

namespace pakfs::gbx {
namespace {

void initLzo() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (lzo_init() != LZO_E_OK) throw Error("LZO library failed to initialise");
    });
}

}  // namespace

Bytes lzoDecompress(ByteSpan compressed, std::size_t uncompressedSize) {
    initLzo();
    Bytes out(uncompressedSize);
    lzo_uint outLen = uncompressedSize;
    int rc =
        lzo1x_decompress_safe(compressed.data(), compressed.size(), out.data(), &outLen, nullptr);
    if (rc != LZO_E_OK && rc != LZO_E_INPUT_NOT_CONSUMED)
        throw Error("LZO body does not decompress (lzo error " + std::to_string(rc) + ")");
    if (rc == LZO_E_INPUT_NOT_CONSUMED)
        throw Error("LZO body ends before its " + std::to_string(compressed.size()) +
                    " compressed bytes do");
    if (outLen != uncompressedSize)
        throw Error("LZO body decompresses to " + std::to_string(outLen) + " bytes, not " +
                    std::to_string(uncompressedSize));
    return out;
}

Bytes lzoCompress(ByteSpan data) {
    initLzo();
    Bytes out(data.size() + data.size() / 16 + 64 + 3);
    Bytes work(LZO1X_1_MEM_COMPRESS);
    lzo_uint outLen = out.size();
    if (lzo1x_1_compress(data.data(), data.size(), out.data(), &outLen, work.data()) != LZO_E_OK)
        throw Error("LZO compression failed");
    out.resize(outLen);
    return out;
}

}  // namespace pakfs::gbx
