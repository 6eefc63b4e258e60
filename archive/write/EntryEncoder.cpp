// SPDX-License-Identifier: GPL-2.0-or-later
// encodeEntry: content compressed when it shrinks (zlib, libdeflate, LZ4 for version 18), a gbx
// file's ivXor planned, the IV from path and content, the slot encrypted; class IDs by extension.
#include "archive/write/EntryEncoder.hpp"

#include <crypto++/sha.h>
#include <fnmatch.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <memory>

#include "archive/codec/Lz4.hpp"
#include "archive/codec/Streams.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/ops/HashedNames.hpp"
#include "archive/pak/Metadata.hpp"
#include "common/Error.hpp"
#include "gbx/ClassIds.hpp"
#include "gbx/Classes.hpp"

namespace pakfs::archive {

Bytes zlibCompress(ByteSpan data, int level, const std::string& name, std::size_t syncFlushEvery) {
    if (syncFlushEvery > 0) {
        z_stream z{};
        if (deflateInit(&z, level) != Z_OK) throw Error(name + ": zlib compression failed");
        Bytes out(compressBound(uLong(data.size())) + 16 * (data.size() / syncFlushEvery + 2));
        z.next_out = out.data();
        z.avail_out = unsigned(out.size());
        std::size_t at = 0;
        do {
            std::size_t n = std::min(syncFlushEvery, data.size() - at);
            z.next_in = const_cast<std::uint8_t*>(data.data() + at);
            z.avail_in = unsigned(n);
            at += n;
            int rc = deflate(&z, at == data.size() ? Z_FINISH : Z_SYNC_FLUSH);
            if (rc == Z_STREAM_ERROR || (at == data.size() && rc != Z_STREAM_END)) {
                deflateEnd(&z);
                throw Error(name + ": zlib compression failed");
            }
        } while (at < data.size());
        out.resize(z.total_out);
        deflateEnd(&z);
        return out;
    }
    uLongf bound = compressBound(uLong(data.size()));
    Bytes out(bound);
    if (compress2(out.data(), &bound, data.data(), uLong(data.size()), level) != Z_OK)
        throw Error(name + ": zlib compression failed");
    out.resize(bound);
    return out;
}

namespace {
struct CompressorFree {
    void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
}  // namespace

Bytes libdeflateCompress(ByteSpan data, int level, const std::string& name) {
    // One compressor per thread and level: allocating one costs more than a small file.
    thread_local std::unique_ptr<libdeflate_compressor, CompressorFree> compressor;
    thread_local int compressorLevel = -1;
    if (!compressor || compressorLevel != level) {
        compressor.reset(libdeflate_alloc_compressor(level));
        compressorLevel = level;
        if (!compressor) throw Error(name + ": cannot make a deflate compressor");
    }
    Bytes out(libdeflate_zlib_compress_bound(compressor.get(), data.size()));
    std::size_t n = libdeflate_zlib_compress(compressor.get(), data.data(), data.size(), out.data(),
                                             out.size());
    if (n == 0) throw Error(name + ": deflate compression failed");
    out.resize(n);
    return out;
}

std::uint64_t ivFor(std::string_view label, ByteSpan data) {
    CryptoPP::SHA256 sha;
    sha.Update(reinterpret_cast<const CryptoPP::byte*>(label.data()), label.size());
    const CryptoPP::byte separator = 0;
    sha.Update(&separator, 1);
    sha.Update(data.data(), data.size());
    CryptoPP::byte digest[32];
    sha.Final(digest);
    return loadLE64(digest);
}

bool matchesAnyGlob(const std::vector<std::string>& globs, const std::string& packPath) {
    std::string base =
        packPath.substr(packPath.rfind('/') == std::string::npos ? 0 : packPath.rfind('/') + 1);
    for (const auto& g : globs)
        if (fnmatch(g.c_str(), packPath.c_str(), 0) == 0 ||
            fnmatch(g.c_str(), base.c_str(), 0) == 0)
            return true;
    return false;
}

namespace {

// The class ID and metadata record of a gbx file encoded without planning, when its header
// parses.
void headerOnly(EncodedEntry& e, ByteSpan content, const std::string& packPath) {
    try {
        MemorySource source(content);
        e.metadata = readDatalessGbx(source, packPath);
        std::size_t formatLength = content[3] >= 4 ? 4 : 3;
        e.classId = loadLE32(e.metadata.data() + 5 + formatLength);
    } catch (const Error&) {
        e.metadata.clear();
    }
}

// The stream that goes through the cipher: the content compressed (LZ4 for version 18, else
// deflate) when that makes it smaller, else the content itself; sets e.compressed.
Bytes compressedPayload(EncodedEntry& e, ByteSpan content, bool gbx, const std::string& packPath,
                        const PackOptions& options) {
    const bool lz4 = options.version >= 18;
    auto compress = [&] {
        // Plain files through libdeflate (a faster deflater, the same zlib format); gbx files
        // through zlib, the stream their cipher schedule was proven on.
        if (lz4) return lz4PackCompress(content);
        if (!gbx && options.syncFlushEvery == 0)
            return libdeflateCompress(content, options.level, packPath);
        return zlibCompress(content, std::max(options.level, 0), packPath, options.syncFlushEvery);
    };
    // A large file none of whose samples (start, middle, end) shrinks at the fastest level
    // (random data, media) is stored without deflating it all at the level asked for.
    constexpr std::size_t kProbe = 64 * 1024;
    auto shrinks = [&](std::size_t at) {
        return libdeflateCompress(content.subspan(at, kProbe), 1, packPath).size() <
               kProbe - kProbe / 64;
    };
    const bool incompressible = !gbx && !lz4 && options.level > 0 && content.size() > 8 * kProbe &&
                                !shrinks(0) && !shrinks(content.size() / 2 - kProbe / 2) &&
                                !shrinks(content.size() - kProbe);
    // Version 18: the game's pack stores small files (doc/FORMAT.md §6.5).
    const bool storedAsGame = lz4 && content.size() <= kGameStoredUpTo;
    if (options.level > 0 && !incompressible && !storedAsGame) {
        Bytes z = compress();
        if (roundUp8(z.size()) < roundUp8(content.size())) {
            e.compressed = true;
            return z;
        }
    }
    return Bytes(content.begin(), content.end());
}

// A gbx file's cipher plan (planGbxEntry), or nothing with the reason: version 3 cannot hold
// a file it cannot plan (UnplannableGbx). A planned file that needs a checksum and was stored
// is compressed after all: stored, the reader could not prove these bytes; zlib's Adler-32 will
// (at level 0 too, as stored deflate blocks). LZ4 keeps no checksum.
std::optional<GbxEncoding> planGbx(EncodedEntry& e, ByteSpan content, Bytes& payload,
                                   const std::string& packPath, const PackOptions& options,
                                   std::string& planError) {
    const bool lz4 = options.version >= 18;
    try {
        auto g = planGbxEntry(content, payload, e.compressed, packPath, options.gbxRules, lz4);
        if (!e.compressed && !lz4 && g.needsChecksum && content.size() > kSegmentSize) {
            payload = zlibCompress(content, options.level, packPath, options.syncFlushEvery);
            e.compressed = true;
            e.compressedSize = std::uint32_t(payload.size());
            e.flags |= kFlagZlib;
            g = planGbxEntry(content, payload, true, packPath, options.gbxRules);
        }
        return g;
    } catch (const Error& err) {
        planError = err.what();
        if (planError.rfind(packPath + ": ", 0) == 0) planError.erase(0, packPath.size() + 2);
        if (options.version < 6) throw UnplannableGbx(packPath, planError);
        return std::nullopt;
    }
}

// The ivXor a gbx file's node reads mix into its cipher, with its class ID and metadata record
// into `e`: none for a file stored with --raw, or a version 6+ file flagged DontUseDummyWrite
// because it cannot be planned (or proven, under LZ4).
std::vector<std::uint64_t> gbxIvXor(EncodedEntry& e, ByteSpan content, Bytes& payload,
                                    const std::string& packPath, const PackOptions& options) {
    const bool v6 = options.version >= 6;
    if (matchesAnyGlob(options.rawGlobs, packPath)) {
        if (v6)
            e.flags |= kFlagDontUseDummyWrite;
        else if (options.warn)
            options.warn(packPath +
                         ": stored with --raw: the game will not read this gbx "
                         "file right");
        // Its header still gives the class ID and the metadata record, when it parses.
        headerOnly(e, content, packPath);
        return {};
    }
    std::string planError;
    std::optional<GbxEncoding> g = planGbx(e, content, payload, packPath, options, planError);
    if (v6 && (!g || (options.version >= 18 && g->needsChecksum))) {
        // Version 6+ can say that node reads do not mix the cipher, which the game
        // then reads right whatever the chunks: better than bytes no reader can prove.
        if (options.warn)
            options.warn(
                packPath +
                ": written with DontUseDummyWrite (node reads do not "
                "mix the cipher): " +
                (g ? std::string("LZ4 keeps no checksum to prove a scanned file") : planError));
        e.flags |= kFlagDontUseDummyWrite;
        headerOnly(e, content, packPath);
        return {};
    }
    if (g->scanned && options.warn)
        options.warn(packPath + ": chunks no reader knows: the cipher is planned from " +
                     std::to_string(g->scannedNodeReads) + " node reads found by the node scan");
    e.classId = g->classId;
    e.metadata = std::move(g->metadata);
    return std::move(g->ivXorPerSegment);
}

}  // namespace

EncodedEntry encodeEntry(ByteSpan content, const std::string& packPath, const std::string& name,
                         const Blowfish& cipher, const PackOptions& options) {
    EncodedEntry e;
    const bool gbx = content.size() >= 3 && std::memcmp(content.data(), "GBX", 3) == 0;
    const bool v6 = options.version >= 6;
    const bool inClear = v6 && matchesAnyGlob(options.publicGlobs, packPath);
    e.classId = classIdForExtension(name);
    // Version 18: a file of a class the game's pack leaves in the clear is left so.
    bool gameClear = false;
    if (options.version >= 18 && !inClear) {
        std::uint32_t classId = e.classId;
        if (gbx) {
            EncodedEntry header;
            headerOnly(header, content, packPath);
            classId = header.classId;
        }
        gameClear = leftInClearByGame(classId);
    }

    Bytes payload = compressedPayload(e, content, gbx, packPath, options);
    e.compressedSize = std::uint32_t(e.compressed           ? payload.size()
                                     : inClear || gameClear ? content.size()
                                                            : roundUp8(content.size()));
    e.flags = e.compressed ? kFlagZlib : 0;

    // Bit 0 or 1 as the game's pack sets them: a name that looks hashed (34 hex digits, as a
    // pack extracted without its real names gives) is taken for one, any other is published.
    if (v6) e.flags |= looksHashed(name) ? kFlagHashedName : kFlagPublished;
    // The record field: the writer makes no gbx headers section, so no file has a record
    // there; the game's pack says so with FFFFFFFF, as version 3 does.
    if (v6) e.unknown = kNoMetadataRecord;
    if (inClear || gameClear) {
        // In the clear (public, or "force no crypt" as the game flags its own): no cipher, so
        // nothing for node reads to mix. A stored file in the clear is flagged seekable, as in
        // the game's pack (no counter mode without a cipher).
        if (gbx) headerOnly(e, content, packPath);
        e.flags |=
            (inClear ? kFlagPublicFile : kFlagForceNoCrypt) | (e.compressed ? 0 : kFlagSeekable);
        e.blob = std::move(payload);
        return e;
    }
    const std::vector<std::uint64_t> ivXor =
        gbx ? gbxIvXor(e, content, payload, packPath, options) : std::vector<std::uint64_t>();

    // The IV comes from the path and content: the same files make the same pak (any -j).
    std::uint8_t ivBytes[8];
    storeLE64(ivBytes, ivFor(packPath, content));
    // The slot built in place (IV, then the payload encrypted where it lies): one buffer, not
    // a copy of a large file's bytes.
    e.blob.reserve(8 + roundUp8(payload.size()));
    e.blob.assign(ivBytes, ivBytes + 8);
    e.blob.insert(e.blob.end(), payload.begin(), payload.end());
    payload = Bytes();
    e.blob.resize(8 + roundUp8(e.blob.size() - 8), 0);
    encryptSegments(e.blob, 8, loadLE64(ivBytes), ivXor, cipher);
    if (!v6) e.flags |= kFlagV3Game;
    return e;
}

bool leftInClearByGame(std::uint32_t classId) {
    return std::find(std::begin(gbx::kClassesLeftInClearV18), std::end(gbx::kClassesLeftInClearV18),
                     classId) != std::end(gbx::kClassesLeftInClearV18);
}

std::uint64_t encodingFlagBits(std::uint32_t version) {
    if (version < 6) return kFlagsCompressionMask;
    return kFlagsCompressionMaskV6 | kFlagSeekable | kFlagDontUseDummyWrite | kFlagPublicFile |
           kFlagForceNoCrypt;
}

namespace {

// doc/FORMAT.md §2.5 gives each row's evidence (the game's pack, a public source, or only the
// class's name); the IDs are the game's class tree's (gbx/data/classes.tsv), found by name.
struct FileClassName {
    std::string_view suffix;
    std::string_view className;
};
constexpr FileClassName kFileClassNames[] = {
    {".tga", "CPlugFileTga"},         {".dds", "CPlugFileDds"},
    {".jpg", "CPlugFileJpg"},         {".png", "CPlugFilePng"},
    {".vsh.txt", "CPlugFileVsh"},     {".vsh", "CPlugFileVsh"},
    {".psh.txt", "CPlugFilePsh"},     {".psh", "CPlugFilePsh"},
    {".vhlsl.txt", "CPlugFileVHlsl"}, {".vhlsl.cry", "CPlugFileVHlsl"},
    {".phlsl.txt", "CPlugFilePHlsl"}, {".phlsl.cry", "CPlugFilePHlsl"},
    {".vso", "CPlugFileVso"},         {".pso", "CPlugFilePso"},
    {".fx", "CPlugFileGpuFx"},        {".txt", "CPlugFileText"},
    {".xml", "CPlugFileText"},        {".ini", "CPlugFileText"},
    {".wav", "CPlugFileWav"},         {".ogg", "CPlugFileOggVorbis"},
    {".bik", "CPlugFileBink"},        {".avi", "CPlugFileAvi"},
    {".ttf", "CPlugFileFont"},        {".zip", "CPlugFileZip"},
    {".obj", "CPlugFileModelObj"},    {".3ds", "CPlugFileModel3ds"},
};

const std::vector<FileClass>& fileClassTable() {
    static const std::vector<FileClass> table = [] {
        const auto& classes = gbx::ClassRegistry::builtin();
        std::vector<FileClass> out;
        for (const auto& row : kFileClassNames) {
            // TMF's CPlugFileGpuFx keeps its ID, where the class table holds a later class.
            std::optional<std::uint32_t> id = row.className == "CPlugFileGpuFx"
                                                  ? gbx::kClassPlugFileGpuFxForever
                                                  : classes.idOf(row.className);
            if (!id) throw Error("file classes: no class " + std::string(row.className));
            out.push_back({row.suffix, *id, row.className});
        }
        return out;
    }();
    return table;
}

}  // namespace

std::span<const FileClass> fileClasses() {
    return fileClassTable();
}

std::uint32_t classIdForExtension(const std::string& fileName) {
    const std::string name = foldCase(fileName);
    const FileClass* best = nullptr;
    for (const auto& row : fileClassTable())
        if (name.ends_with(row.suffix) && (!best || row.suffix.size() > best->suffix.size()))
            best = &row;
    return best ? best->classId : kClassPlugFile;
}

void encryptSegments(Bytes& data, std::uint64_t iv,
                     const std::vector<std::uint64_t>& ivXorPerSegment, const Blowfish& cipher) {
    encryptSegments(data, 0, iv, ivXorPerSegment, cipher);
}

void encryptSegments(Bytes& data, std::size_t from, std::uint64_t iv,
                     const std::vector<std::uint64_t>& ivXorPerSegment, const Blowfish& cipher) {
    for (std::size_t k = 0, at = from; at < data.size(); ++k, at += kSegmentSize) {
        if (k < ivXorPerSegment.size()) iv ^= ivXorPerSegment[k];
        std::size_t n = std::min(kSegmentSize, data.size() - at);
        cipher.cbcEncrypt(data.data() + at, n, iv);
    }
}

}  // namespace pakfs::archive
