// SPDX-License-Identifier: GPL-2.0-or-later
// Version 6+ packs with files encrypted in counter mode (file flag bit 6 on an encrypted file),
// for the tests. `pak pack` never writes such files (one source says a writer should not), so
// this helper lays out the whole pack itself from doc/FORMAT.md (§3.1-§3.3, §5.4; what a writer
// must get right), with its own keystream loop over Blowfish blocks: the readers are tested
// against a construction of their own, not against Blowfish::counterXor.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "archive/cipher/Crypto.hpp"
#include "archive/codec/Lz4.hpp"
#include "archive/codec/Streams.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "common/Bytes.hpp"
#include "tests/support/TestUtil.hpp"  // with <crypto++/sha.h>

namespace pakfs::test {

struct CounterPackFile {
    std::string name;  // at the root of the pack
    Bytes content;
    archive::EntryCodec codec = archive::EntryCodec::Stored;  // Zlib (v6-17) or Lz4 (v18)
    bool counterMode = true;  // false: CBC, as pak pack writes a plain file
    // Lies in the file table (bad-input tests): added to the sizes written in its row.
    std::int64_t uncompressedSizeDelta = 0;
    std::int64_t compressedSizeDelta = 0;
};

inline constexpr std::uint32_t kCounterPackDataStart = 0x1000;

// Counter mode as doc/FORMAT.md §5.4 gives it: the block at body offset o is xored with the
// encryption of the little-endian u64 iv + 8 + 256 * (o / 256) + (o % 256) / 8.
inline void counterModeEncrypt(Bytes& data, std::uint64_t iv, const archive::Blowfish& cipher) {
    for (std::size_t o = 0; o + 8 <= data.size(); o += 8) {
        std::uint8_t block[8];
        storeLE64(block, iv + 8 + 256 * (o / 256) + (o % 256) / 8);
        cipher.encryptBlock(block);
        for (std::size_t k = 0; k < 8; ++k) data[o + k] ^= block[k];
    }
}

inline Bytes zlibCompress(ByteSpan content) {
    uLongf n = compressBound(uLong(content.size()));
    Bytes out(n);
    if (compress2(out.data(), &n, content.data(), uLong(content.size()), 6) != Z_OK)
        throw std::runtime_error("zlib compress2 failed");
    out.resize(n);
    return out;
}

// Writes a version `version` (6..18) pack of `files`, header encrypted per `headerFlags` (7 as
// retail packs: private, default header key, data private), every checksum right.
inline void writeCounterPack(const std::filesystem::path& out, std::uint32_t version,
                             const archive::PakKey& key, const std::vector<CounterPackFile>& files,
                             std::uint32_t headerFlags = 7) {
    using namespace archive;
    const CipherVariant variant = CipherVariant::forPakVersion(version);
    const Blowfish cipher(key, variant);
    struct Row {
        std::uint32_t uncompressed, compressed, offset, slotSize;
        Md5Digest slotMd5;
        std::uint64_t flags;
    };
    std::vector<Row> rows;
    Bytes data;
    std::uint64_t iv = 0x0123456789ABCDEFull;
    for (const CounterPackFile& f : files) {
        Bytes payload = f.codec == EntryCodec::Zlib  ? zlibCompress(f.content)
                        : f.codec == EntryCodec::Lz4 ? lz4PackCompress(f.content)
                                                     : f.content;
        const std::size_t payloadSize = payload.size();
        payload.resize(roundUp8(payload.size()), 0);
        iv = iv * 6364136223846793005ull + 1442695040888963407ull;  // a different IV per file
        if (f.counterMode) {
            counterModeEncrypt(payload, iv, cipher);
        } else {
            std::uint64_t chain = iv;
            cipher.cbcEncrypt(payload.data(), payload.size(), chain);
        }
        Bytes slot(8);
        storeLE64(slot.data(), iv);
        slot.insert(slot.end(), payload.begin(), payload.end());
        slot.resize((slot.size() + 63) & ~std::size_t(63), 0);
        Row r;
        r.uncompressed = std::uint32_t(std::int64_t(f.content.size()) + f.uncompressedSizeDelta);
        r.compressed = std::uint32_t(std::int64_t(payloadSize) + f.compressedSizeDelta);
        r.offset = std::uint32_t(data.size());
        r.slotSize = std::uint32_t(slot.size());
        r.slotMd5 = md5(slot);
        r.flags =
            (f.codec == EntryCodec::Stored ? 0 : kFlagZlib) | (f.counterMode ? kFlagSeekable : 0);
        rows.push_back(r);
        data.insert(data.end(), slot.begin(), slot.end());
    }
    const std::uint32_t fileSize = kCounterPackDataStart + std::uint32_t(data.size());

    PackHeaderFields fields;
    fields.headerFlags = headerFlags;
    const Bytes pub = packGbxPublicHeader(version, fields, kCounterPackDataStart);
    Bytes header;
    ByteWriter w(header);
    for (int i = 0; i < 16; ++i) w.u8(0);  // header MD5, filled in below
    w.u32(fileSize);                       // gbx headers section: none, at the end
    if (version < 15) w.u32(kCounterPackDataStart);
    w.u32(0);
    w.u32(0);
    if (version >= 14) {
        w.bytes(md5(ByteSpan()));
        if (version >= 16) w.u32(fileSize);
    }
    for (int i = 0; i < 16; ++i) w.u8(0);
    if (version == 6) {
        w.u32(0);
        for (int i = 0; i < 4; ++i) w.string("");
    }
    w.u32(0);  // flags
    w.u32(0);  // no folders: every file at the root
    w.u32(std::uint32_t(files.size()));
    for (std::size_t i = 0; i < files.size(); ++i) {
        const Row& r = rows[i];
        w.u32(0xFFFFFFFFu);  // folder -1
        w.string(files[i].name);
        w.u32(0);  // unknown
        w.u32(r.uncompressed);
        w.u32(r.compressed);
        w.u32(r.offset);
        w.u32(0x09041000);  // class ID of a text file
        if (version >= 17) w.u32(r.slotSize);
        if (version >= 14) w.bytes(r.slotMd5);
        w.u64(r.flags);
    }
    const std::size_t fixedEnd = version >= 15 ? 52 : 48;
    Bytes hashed(pub.begin() + std::ptrdiff_t(fixedEnd), pub.end());
    hashed.insert(hashed.end(), header.begin(), header.end());
    const Md5Digest headerMd5 = md5(hashed);
    std::copy(headerMd5.begin(), headerMd5.end(), header.begin());
    header.resize(roundUp8(header.size()), 0);

    Bytes pak = pub;
    if (headerFlags & (kHeaderPrivate | kHeaderDefaultKey)) {
        std::uint64_t headerIv = 0x1122334455667788ull;
        Bytes ivBytes(8);
        storeLE64(ivBytes.data(), headerIv);
        pak.insert(pak.end(), ivBytes.begin(), ivBytes.end());
        // No folders: no folder ivXor, plain CBC.
        Blowfish(headerKeyFor(headerFlags, key), variant)
            .cbcEncrypt(header.data(), header.size(), headerIv);
    }
    pak.insert(pak.end(), header.begin(), header.end());
    if (pak.size() > kCounterPackDataStart)
        throw std::runtime_error("counter pack: header larger than its room");
    pak.resize(kCounterPackDataStart, 0);
    pak.insert(pak.end(), data.begin(), data.end());
    CryptoPP::SHA256().CalculateDigest(pak.data() + 12, pak.data() + 44, pak.size() - 44);
    writeFile(out, pak);
}

}  // namespace pakfs::test
