// SPDX-License-Identifier: GPL-2.0-or-later
// The metadata section: {file index, dataless gbx} records ended by -1. The input is a u32
// declared uncompressed size, then the plaintext; the harness deflates it and reads it through
// the same zlib stage as the pak reader (crypted stream in plaintext mode).
#include <zlib.h>

#include "archive/codec/Streams.hpp"
#include "archive/pak/Metadata.hpp"
#include "fuzz/FuzzUtil.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4 || size > (1 << 20)) return 0;
    std::uint32_t declared = loadLE32(data);
    ByteSpan plain(data + 4, size - 4);
    Bytes z(compressBound(uLong(plain.size())));
    uLongf zLen = z.size();
    if (compress2(z.data(), &zLen, plain.data(), uLong(plain.size()), 1) != Z_OK) return 0;
    z.resize(zLen);
    std::uint64_t compressedSize = z.size();
    z.resize((z.size() + 255) / 256 * 256, 0);
    try {
        archive::CryptedStream crypted(pakfs::ByteRange(ByteSpan(z)), nullptr, 0, z.size());
        archive::ZlibStage zlib(crypted, compressedSize, declared, "metadata");
        archive::readMetadataRecords(zlib, 64, "metadata");
    } catch (const Error&) {
    }
    // And straight from memory, where the sizes are the real ones.
    try {
        pakfs::MemorySource mem(plain);
        archive::readMetadataRecords(mem, 64, "metadata");
    } catch (const Error&) {
    }
    return 0;
}
