// SPDX-License-Identifier: GPL-2.0-or-later
// The whole-entry strategy of the plain entry reader: libdeflate.
#include "archive/stream/WholeInflate.hpp"

#include <libdeflate.h>

#include <algorithm>

#include "archive/stream/DecryptStage.hpp"

namespace pakfs::archive {

namespace {

struct DecompressorFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
thread_local std::unique_ptr<libdeflate_decompressor, DecompressorFree> tInflater;

}  // namespace

bool WholeInflate::decode(const PakIndex& pak, const PakEntry& entry, std::uint64_t limit) {
    const std::uint64_t size = entry.uncompressedSize;
    // The declared size is untrusted: deflate gives at most 1032 bytes per input byte.
    if (size == 0 || size > limit || size > std::uint64_t(entry.compressedSize) * 1032 + 64)
        return false;
    if (!tInflater) tInflater.reset(libdeflate_alloc_decompressor());
    if (!tInflater) return false;
    const std::size_t total = std::size_t(entry.cipherSize());
    SpareBuffer in = takeBuffer(spareDecryptBuffer(), total + 8);
    DecryptStage::decryptStart(pak, entry, in.data.get(), total);
    auto out = std::make_unique_for_overwrite<std::uint8_t[]>(std::size_t(size));
    std::size_t inUsed = 0, outMade = 0;
    const libdeflate_result rc = libdeflate_zlib_decompress_ex(
        tInflater.get(), in.data.get() + 8, std::min<std::size_t>(total, entry.compressedSize),
        out.get(), std::size_t(size), &inUsed, &outMade);
    giveBack(spareDecryptBuffer(), std::move(in));
    // Anything else (damage, a stream without a proper end, a size that differs) goes the zlib
    // way, which accepts exactly what it always did and says what is wrong.
    if (rc != LIBDEFLATE_SUCCESS || outMade != size) return false;
    bytes_ = std::move(out);
    return true;
}

}  // namespace pakfs::archive
