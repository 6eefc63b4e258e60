// SPDX-License-Identifier: GPL-2.0-or-later
// Generated gbx files and packs for the hostile-input tests and the fuzz seed corpora, and a
// pak "model" that rebuilds a pack from its parts: modified header fields are encrypted again
// with the right key, folder ivXor and a recomputed MD5, so the parser really meets them.
#pragma once

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "archive/cipher/Crypto.hpp"
#include "archive/codec/Streams.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PakWriter.hpp"
#include "common/ByteSource.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

namespace pakfs::hostile {

// A source that cannot tell how much is left, as a pipe: readers must not rely on remaining().
class BlindSource final : public pakfs::ByteSource {
public:
    explicit BlindSource(ByteSpan data) : mem_(data) {}
    void read(std::span<std::uint8_t> dst) override { mem_.read(dst); }
    std::uint64_t position() const override { return mem_.position(); }
    std::optional<std::uint64_t> remaining() const override { return std::nullopt; }

private:
    pakfs::MemorySource mem_;
};

inline constexpr std::uint32_t kHeaderCryptStart = 0x14;

inline void writeBytes(const std::filesystem::path& p, ByteSpan data) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
}

inline Bytes readBytes(const std::filesystem::path& p) {
    return test::readFile(p);
}

// A small map with known classes: a collector list and a parameters node (chunk 03043011),
// `pad` bytes of an unknown skippable chunk, a back-reference and an external slot.
inline Bytes sampleMap(std::uint32_t seed, std::size_t pad = 40, bool lzo = false) {
    using gbx::BodyWriter;
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    b.numNodes = 4;
    if (lzo) b.format = "BUCR";
    b.headerChunks.push_back({0x03043002, Bytes(8, std::uint8_t(seed)), false});
    gbx::ExternalRef ext;
    ext.flags = 1;
    ext.name = "Skin.zip";
    ext.nodeIndex = 3;
    ext.folderIndex = 1;
    b.refs.ancestorLevel = 1;
    b.refs.folders.push_back({"Skins\\", {}});
    b.refs.externals.push_back(ext);
    BodyWriter w;
    w.beginSkippable(0x03043099);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < pad; ++i) w.u8(std::uint8_t(rng()));
    w.endSkippable();
    w.chunk(0x03043011);
    w.newNode(1, 0x0301B000);
    w.chunk(0x0301B000);
    w.u32(0);
    w.endNode();
    w.newNode(2, 0x0305B000);
    w.chunk(0x0305B001);
    for (int i = 0; i < 4; ++i) w.string("tip");
    w.endNode();
    w.u32(8);
    w.chunk(0x03043026);
    w.ref(1);
    w.chunk(0x03043021);
    w.nullRef();
    w.ref(3);
    w.nullRef();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

// A generated pack with nested folders (the third one long enough for the header ivXor), a
// root file, stored and compressed files, an empty file and gbx entries (stored and zlib).
inline std::filesystem::path generatedPak(const std::filesystem::path& dir, int variant = 0) {
    std::filesystem::path tree = dir / ("tree" + std::to_string(variant));
    std::mt19937 rng(std::uint32_t(variant) + 7);
    std::string text;
    for (int i = 0; i < 400; ++i) text += "line " + std::to_string(i) + " of the hostile pack\n";
    writeBytes(tree / "root.txt", Bytes(text.begin(), text.end()));
    Bytes rnd(1500);
    for (auto& b : rnd) b = std::uint8_t(rng());
    writeBytes(tree / "Media/Sounds/noise.raw", rnd);
    writeBytes(tree / "Media/Sounds/Deeper/empty.txt", {});
    writeBytes(tree / "Tracks/Stadium/A01.Challenge.Gbx", sampleMap(std::uint32_t(variant), 300));
    writeBytes(tree / "Tracks/Stadium/A02.Challenge.Gbx", sampleMap(std::uint32_t(variant) + 1));
    writeBytes(tree / "Tracks/readme.txt", Bytes(700, 'r'));
    archive::PackOptions o;
    o.level = variant % 2 == 0 ? 9 : 0;
    std::filesystem::path out = dir / ("generated" + std::to_string(variant) + ".pak");
    archive::writePak(tree, out, test::testKey(), o);
    std::filesystem::remove_all(tree);
    return out;
}

// The parts of a version 3 pak. build() lays the header out again, moves data and metadata
// behind it and fixes the offsets, unless they are forced.
struct PakModel {
    struct Folder {
        std::int32_t parent = -1;
        std::string name;
    };
    struct Row {
        std::int32_t folder = -1;
        std::string name;
        std::uint32_t unknown = 0, uncompressedSize = 0, compressedSize = 0, offset = 0,
                      classId = 0;
        std::uint64_t flags = 0;
    };
    std::uint64_t headerIv = 0;
    std::uint32_t metaDataUncompressedSize = 0, metaDataCompressedSize = 0, flags = 0;
    std::array<std::uint8_t, 16> reserved{};
    std::vector<Folder> folders;
    std::vector<Row> rows;
    Bytes tail;                        // data and metadata section, as they followed the header
    std::uint32_t tailMetaOffset = 0;  // offset of the metadata section in tail (0: none)
    bool hasMetadata = false;
    // Forced header values (else computed from the layout).
    std::optional<std::uint32_t> metaDataOffset, dataOffset, numFolders, numFiles;
    bool breakMd5 = false;

    static PakModel read(const std::filesystem::path& path, const archive::PakKey& key) {
        auto pak = archive::PakIndex::open(path, key);
        PakModel m;
        m.headerIv = pak->headerIv();
        m.metaDataUncompressedSize = pak->metaDataUncompressedSize();
        m.metaDataCompressedSize = pak->metaDataCompressedSize();
        m.flags = pak->flags();
        m.reserved = pak->reserved();
        for (const auto& f : pak->folders()) m.folders.push_back({f.parent, f.name});
        for (const auto& e : pak->entries())
            m.rows.push_back({e.folder, e.name, e.unknown, e.uncompressedSize, e.compressedSize,
                              e.offset, e.classId, e.flags});
        Bytes whole = readBytes(path);
        m.tail.assign(whole.begin() + pak->dataOffset(), whole.end());
        m.hasMetadata = pak->metaDataOffset() != 0;
        if (m.hasMetadata) m.tailMetaOffset = pak->metaDataOffset() - pak->dataOffset();
        return m;
    }

    // Header plaintext with the MD5 in place, and where the folder list ends.
    Bytes headerPlain(std::uint64_t* folderListEnd = nullptr) const {
        Bytes h;
        ByteWriter w(h);
        for (int i = 0; i < 16; ++i) w.u8(0);
        for (int i = 0; i < 4; ++i) w.u32(0);  // offsets and sizes, filled in below
        w.bytes(reserved);
        w.u32(flags);
        w.u32(numFolders ? *numFolders : std::uint32_t(folders.size()));
        for (const auto& f : folders) {
            w.u32(std::uint32_t(f.parent));
            w.string(f.name);
        }
        if (folderListEnd) *folderListEnd = h.size();
        w.u32(numFiles ? *numFiles : std::uint32_t(rows.size()));
        for (const auto& r : rows) {
            w.u32(std::uint32_t(r.folder));
            w.string(r.name);
            w.u32(r.unknown);
            w.u32(r.uncompressedSize);
            w.u32(r.compressedSize);
            w.u32(r.offset);
            w.u32(r.classId);
            w.u64(r.flags);
        }
        std::uint32_t natural = std::uint32_t(kHeaderCryptStart + archive::roundUp8(h.size()));
        storeLE32(h.data() + 16, metaDataOffset ? *metaDataOffset
                                 : hasMetadata  ? natural + tailMetaOffset
                                                : 0);
        storeLE32(h.data() + 20, dataOffset ? *dataOffset : natural);
        storeLE32(h.data() + 24, metaDataUncompressedSize);
        storeLE32(h.data() + 28, metaDataCompressedSize);
        archive::Md5Digest d = archive::md5(h);
        if (breakMd5) d[0] ^= 1;
        std::copy(d.begin(), d.end(), h.begin());
        return h;
    }

    Bytes build(const archive::PakKey& key) const {
        std::uint64_t folderListEnd = 0;
        Bytes header = headerPlain(&folderListEnd);
        std::vector<std::string> names;
        for (const auto& f : folders) names.push_back(f.name);
        return wrapHeader(std::move(header), folderListEnd, names, key, headerIv, tail);
    }

    // Encrypts a header plaintext as the reader decrypts it (folder ivXor included) and puts
    // magic, version, IV and `tail` around it.
    static Bytes wrapHeader(Bytes header, std::uint64_t folderListEnd,
                            const std::vector<std::string>& folderNames, const archive::PakKey& key,
                            std::uint64_t iv, ByteSpan tail) {
        header.resize(archive::roundUp8(header.size()), 0);
        std::vector<std::uint64_t> ivXor;
        if (auto input = archive::headerIvXorInput(folderNames)) {
            std::size_t segment = std::size_t((folderListEnd + 255) / 256);
            ivXor.assign(segment + 1, 0);
            ivXor[segment] = archive::calcIvXor(0, *input);
        }
        archive::Blowfish cipher(key);
        archive::encryptSegments(header, iv, ivXor, cipher);
        Bytes out;
        ByteWriter w(out);
        w.bytes(std::string_view("NadeoPak"));
        w.u32(3);
        w.u64(iv);
        w.bytes(header);
        w.bytes(tail);
        return out;
    }

    // Folder names and the end of the folder list as a reader would see them in a (possibly
    // damaged) header plaintext; stops where the data stops making sense.
    static std::vector<std::string> folderNamesOf(ByteSpan plain, std::uint64_t* listEnd) {
        std::vector<std::string> names;
        *listEnd = 0;
        std::size_t at = 52;
        if (plain.size() < at + 4) return names;
        std::uint32_t n = loadLE32(plain.data() + at);
        at += 4;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (at + 8 > plain.size()) return {};
            std::uint32_t len = loadLE32(plain.data() + at + 4);
            if (len > plain.size() - at - 8) return {};
            names.emplace_back(reinterpret_cast<const char*>(plain.data() + at + 8), len);
            at += 8 + len;
        }
        *listEnd = at;
        return names;
    }

    // The metadata section's plaintext (records and terminator).
    Bytes metadataPlain(const archive::PakKey& key) const {
        if (!hasMetadata) return {};
        std::uint64_t iv = loadLE64(tail.data() + tailMetaOffset);
        Bytes crypt(tail.begin() + tailMetaOffset + 8, tail.end());
        crypt.resize(crypt.size() & ~std::size_t(7));
        archive::Blowfish(key).cbcDecrypt(crypt.data(), crypt.size(), iv);
        Bytes out(metaDataUncompressedSize);
        uLongf outLen = out.size();
        uncompress(out.data(), &outLen, crypt.data(),
                   std::min<uLong>(crypt.size(), metaDataCompressedSize));
        out.resize(outLen);
        return out;
    }

    // Replaces the metadata section with `plain`, compressed and encrypted like the writer does.
    void setMetadataPlain(const archive::PakKey& key, ByteSpan plain) {
        Bytes z = archive::zlibCompress(plain, 9, "metadata");
        metaDataCompressedSize = std::uint32_t(z.size());
        metaDataUncompressedSize = std::uint32_t(plain.size());
        z.resize((z.size() + 255) / 256 * 256, 0);
        archive::encryptSegments(z, 0x1234, {}, archive::Blowfish(key));
        if (!hasMetadata) {
            tailMetaOffset = std::uint32_t(tail.size());
            hasMetadata = true;
        }
        tail.resize(tailMetaOffset);
        ByteWriter w(tail);
        w.u64(0x1234);
        w.bytes(z);
    }
};

}  // namespace pakfs::hostile
