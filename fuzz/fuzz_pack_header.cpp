// SPDX-License-Identifier: GPL-2.0-or-later
// The private header and file table of version 6+ packs. Input: one byte picking the version
// (6 to 18), one picking the header key mode (private, default key, both, none), a u32 for the
// header max size (data start of v15+), then the private header's plaintext from its MD5 on.
// The harness puts the writer's public header in front and encrypts the plaintext with the
// header key the mode asks for, so the fuzzer reaches the parser; every entry the index
// accepts is then decoded (plain and gbx paths, LZ4 for version 18).
#include "archive/codec/Streams.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PakWriter.hpp"
#include "fuzz/FuzzUtil.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 6 || size > (1 << 20)) return 0;
    const std::uint32_t version = 6 + data[0] % 13;
    const std::uint32_t mode = data[1] % 4;  // bit 0 private, bit 1 default header key
    const std::uint32_t maxSize = loadLE32(data + 2);
    archive::PackHeaderFields fields;
    fields.headerFlags = mode;
    Bytes file = archive::packGbxPublicHeader(version, fields, maxSize);
    Bytes plain(data + 6, data + size);
    const archive::PakKey key = fuzz::fuzzKey();
    if (mode != 0) {
        const archive::PakKey headerKey = archive::headerKeyFor(mode, key);
        plain.resize(archive::roundUp8(plain.size()), 0);
        const std::uint64_t iv = 0x1122334455667788ull;
        archive::encryptSegments(
            plain, iv, {},
            archive::Blowfish(headerKey, archive::CipherVariant::forPakVersion(version)));
        ByteWriter w(file);
        w.u64(iv);
    }
    file.insert(file.end(), plain.begin(), plain.end());
    fuzz::writeScratch(file);
    fuzz::openAndDecodeScratch(key);
    return 0;
}
