// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/PakIndex.hpp"

#include <unordered_set>

#include "archive/FieldReader.hpp"
#include "archive/Metadata.hpp"
#include "archive/Streams.hpp"

namespace pakfs::archive {

namespace {

constexpr char kMagic[8] = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k'};
constexpr std::uint64_t kHeaderCryptStart = 0x14;  // after magic, version and header IV
constexpr std::uint32_t kMaxNameLength = 0x1000;
// All folder and file paths together; real packs need a few hundred KiB.
constexpr std::uint64_t kMaxPathBytes = 64u << 20;

std::string stripBackslash(const std::string& name) {
    if (!name.empty() && name.back() == '\\') return name.substr(0, name.size() - 1);
    return name;
}

std::string toSlashes(std::string s) {
    for (char& c : s)
        if (c == '\\') c = '/';
    return s;
}

}  // namespace

std::uint32_t readPakVersion(const InputFile& file) {
    if (file.size() < 12) throw Error(file.name() + ": not a pak file (too short for a header)");
    Bytes head = file.readAt(0, 12);
    if (std::memcmp(head.data(), kMagic, 8) != 0)
        throw Error(file.name() + ": not a pak file (no \"NadeoPak\" magic)");
    return loadLE32(head.data() + 8);
}

std::optional<std::array<std::uint8_t, 4>> headerIvXorInput(
    const std::vector<std::string>& folderNames) {
    if (folderNames.size() < 3) return std::nullopt;
    std::string third = stripBackslash(folderNames[2]);
    if (third.size() < 4) return std::nullopt;
    // UTF-16LE bytes 4..7: characters 2 and 3, each a byte followed by a zero high byte.
    return std::array<std::uint8_t, 4>{std::uint8_t(third[2]), 0, std::uint8_t(third[3]), 0};
}

std::shared_ptr<const PakIndex> PakIndex::open(const std::filesystem::path& path,
                                               const PakKey& key) {
    std::shared_ptr<PakIndex> index(new PakIndex());
    index->file_ = InputFile::open(path);
    index->key_ = key;
    index->cipher_ = std::make_unique<Blowfish>(key);
    std::uint32_t version = readPakVersion(*index->file_);
    if (version >= 6)
        throw Error(index->name() + ": pak version " + std::to_string(version) +
                    " (ManiaPlanet .Pack.Gbx) is not supported yet: only its public header can "
                    "be shown (pak info)");
    if (version != 3)
        throw Error(index->name() + ": unsupported pak version " + std::to_string(version) +
                    " (only version 3 is supported)");
    index->readHeader();
    index->readMetadata();
    return index;
}

void PakIndex::readHeader() {
    const InputFile& f = *file_;
    if (f.size() < kHeaderCryptStart + 8)
        throw TruncatedError(f.name() + ": file is truncated inside the header");
    headerIv_ = loadLE64(f.readAt(12, 8).data());
    std::uint64_t cryptSize = (f.size() - kHeaderCryptStart) & ~std::uint64_t(7);
    CryptedStream stream(ByteRange(file_, kHeaderCryptStart, cryptSize), cipher_.get(), headerIv_,
                         cryptSize);
    Bytes plain;
    FieldReader r(stream, f.name() + ": header", &plain);
    const std::string wrongKey = f.name() + ": wrong key or damaged header";
    try {
        r.bytes(headerMd5_);
        metaDataOffset_ = r.u32();
        dataOffset_ = r.u32();
        metaDataUncompressedSize_ = r.u32();
        metaDataCompressedSize_ = r.u32();
        r.bytes(reserved_);
        flags_ = r.u32();
        std::uint32_t numFolders = r.u32();
        r.checkCount(numFolders, 8, "folder");
        folders_.reserve(numFolders);
        std::vector<std::string> names;
        for (std::uint32_t i = 0; i < numFolders; ++i) {
            PakFolder folder;
            folder.parent = r.i32();
            folder.name = r.string(kMaxNameLength);
            if (folder.parent < -1 || folder.parent >= std::int32_t(numFolders))
                r.fail("folder " + std::to_string(i) + " has parent index " +
                           std::to_string(folder.parent) + " out of range",
                       r.position());
            names.push_back(folder.name);
            folders_.push_back(std::move(folder));
        }
        if (auto input = headerIvXorInput(names)) {
            stream.mixIvXor(*input);
            headerIvXor_ = stream.pendingIvXor();
        }
        std::uint32_t numFiles = r.u32();
        r.checkCount(numFiles, 4 + 4 + 4 * 5 + 8, "file");
        entries_.reserve(numFiles);
        for (std::uint32_t i = 0; i < numFiles; ++i) {
            PakEntry e;
            e.index = i;
            e.folder = r.i32();
            e.name = r.string(kMaxNameLength);
            e.unknown = r.u32();
            e.uncompressedSize = r.u32();
            e.compressedSize = r.u32();
            e.offset = r.u32();
            e.classId = r.u32();
            e.flags = r.u64();
            if (e.folder < -1 || e.folder >= std::int32_t(numFolders))
                r.fail("file " + std::to_string(i) + " has folder index " +
                           std::to_string(e.folder) + " out of range",
                       r.position());
            entries_.push_back(std::move(e));
        }
    } catch (const TruncatedError& e) {
        throw Error(wrongKey + " (" + e.what() + ")");
    } catch (const Error& e) {
        throw Error(wrongKey + " (" + e.what() + ")");
    }

    // The MD5 is what tells a wrong key from a damaged file; it covers the header with its
    // own field zeroed.
    std::fill(plain.begin(), plain.begin() + 16, 0);
    if (md5(plain) != headerMd5_) throw Error(wrongKey + " (header MD5 mismatch)");

    std::uint64_t headerEnd = kHeaderCryptStart + plain.size();
    if (dataOffset_ < headerEnd || dataOffset_ > f.size())
        throw Error(f.name() + ": damaged header (data offset " + std::to_string(dataOffset_) +
                    " is outside the file)");

    // Folder paths, with a guard against parent loops, and against deep chains whose full
    // paths would take far more memory and time than the header's size suggests.
    std::uint64_t pathBytes = 0;
    auto addPathBytes = [&](std::uint64_t n) {
        pathBytes += n;
        if (pathBytes > kMaxPathBytes)
            throw Error(f.name() + ": damaged header (folder and file paths take more than " +
                        std::to_string(kMaxPathBytes >> 20) + " MiB)");
    };
    // Each path is its parent's path plus its name: resolve parents first (walking up to a
    // folder already done), so the work is linear in the paths' total size, and check that
    // size before building each string.
    enum : std::uint8_t { kTodo, kWalking, kDone };
    std::vector<std::uint8_t> state(folders_.size(), kTodo);
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < folders_.size(); ++i) {
        chain.clear();
        for (std::int32_t at = std::int32_t(i); at >= 0 && state[std::size_t(at)] != kDone;
             at = folders_[std::size_t(at)].parent) {
            if (state[std::size_t(at)] == kWalking)
                throw Error(f.name() + ": damaged header (folder " + std::to_string(at) +
                            " is its own ancestor)");
            state[std::size_t(at)] = kWalking;
            chain.push_back(std::size_t(at));
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            PakFolder& folder = folders_[*it];
            std::string name = toSlashes(stripBackslash(folder.name));
            const std::string* parent =
                folder.parent >= 0 ? &folders_[std::size_t(folder.parent)].path : nullptr;
            addPathBytes((parent ? parent->size() + 1 : 0) + name.size() + 1);
            folder.path = parent ? *parent + "/" + name : std::move(name);
            state[*it] = kDone;
        }
    }
    for (auto& e : entries_) {
        std::string name = toSlashes(e.name);
        if (e.folder >= 0) addPathBytes(folders_[std::size_t(e.folder)].path.size() + 1);
        e.path = e.folder < 0 ? name : folders_[std::size_t(e.folder)].path + "/" + name;
        std::uint64_t start = std::uint64_t(dataOffset_) + e.offset;
        if (start + 8 + e.cipherSize() > f.size())
            throw Error(f.name() + ": damaged file table (data of \"" + e.path +
                        "\" runs past the end of the file)");
    }
}

void PakIndex::readMetadata() {
    const InputFile& f = *file_;
    try {
        if (metaDataOffset_ == 0 && metaDataCompressedSize_ == 0) return;
        if (metaDataOffset_ < dataOffset_ || std::uint64_t(metaDataOffset_) + 8 > f.size())
            throw Error("offset " + std::to_string(metaDataOffset_) + " is outside the file");
        std::uint64_t iv = loadLE64(f.readAt(metaDataOffset_, 8).data());
        // The game reads the section in whole 256-byte segments.
        std::uint64_t cryptSize = (std::uint64_t(metaDataCompressedSize_) + kSegmentSize - 1) /
                                  kSegmentSize * kSegmentSize;
        if (std::uint64_t(metaDataOffset_) + 8 + cryptSize > f.size())
            throw TruncatedError("section of " + std::to_string(cryptSize) +
                                 " bytes runs past the end of the file (truncated)");
        CryptedStream crypted(ByteRange(file_, metaDataOffset_ + 8, cryptSize), cipher_.get(), iv,
                              cryptSize);
        ZlibStage zlib(crypted, metaDataCompressedSize_, metaDataUncompressedSize_,
                       f.name() + ": metadata");
        metadata_ = readMetadataRecords(zlib, entries_.size(), f.name() + ": metadata");
    } catch (const Error& e) {
        std::string msg = e.what();
        metadataError_ = msg.rfind(f.name(), 0) == 0 ? msg : f.name() + ": metadata: " + msg;
    }
}

}  // namespace pakfs::archive
