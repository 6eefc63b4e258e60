// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "archive/Crypto.hpp"
#include "archive/File.hpp"

namespace pakfs::archive {

inline constexpr std::uint64_t kFlagsCompressionMask = 0x7C;  // the game tests these bits
inline constexpr std::uint64_t kFlagZlib = 0x04;              // what pakfs writes

struct PakFolder {
    std::int32_t parent = -1;  // index into folders, -1 = root
    std::string name;          // as stored, normally with a trailing backslash
    std::string path;          // "/"-joined path from the root, without trailing slash
};

struct PakEntry {
    std::uint32_t index = 0;
    std::int32_t folder = -1;  // -1 = root
    std::string name;          // as stored
    std::string path;          // folder path + "/" + name
    std::uint32_t unknown = 0;
    std::uint32_t uncompressedSize = 0;
    std::uint32_t compressedSize = 0;
    std::uint32_t offset = 0;  // relative to dataOffset
    std::uint32_t classId = 0;
    std::uint64_t flags = 0;

    bool compressed() const { return (flags & kFlagsCompressionMask) != 0; }
    // Bytes of ciphertext after the entry's IV.
    std::uint64_t cipherSize() const {
        return (std::uint64_t(compressed() ? compressedSize
                                           : std::max(compressedSize, uncompressedSize)) +
                7) &
               ~std::uint64_t(7);
    }
};

// Public header of version 6+ packs (.Pack.Gbx): shown, not decoded.
struct PackGbxHeader {
    std::uint32_t version = 0;
    std::array<std::uint8_t, 32> contentsChecksum{};
    std::uint32_t decryptFlags = 0;
    std::optional<std::uint32_t> headerMaxSize;
    std::string authorLogin, authorNick, authorZone, authorExtra;
    std::string comment, manialinkUrl, downloadUrl, xml, titleId, usageSubDir, creationBuildInfo,
        authorUrl;
    std::optional<std::uint64_t> creationDate;
    std::vector<std::string> includedPacks;
};

// The header, folder tree, file table and metadata of a version 3 pak, read once and
// immutable afterwards, so any number of threads can share it.
class PakIndex {
public:
    // Opens and decodes a pak; throws Error naming the file on a wrong key, damage or an
    // unsupported version (6+ packs: see readPackGbxHeader).
    static std::shared_ptr<const PakIndex> open(const std::filesystem::path& path,
                                                const PakKey& key);

    std::shared_ptr<const InputFile> file() const { return file_; }
    const std::string& name() const { return file_->name(); }
    const PakKey& key() const { return key_; }
    const Blowfish& cipher() const { return *cipher_; }

    std::uint32_t version() const { return 3; }
    std::uint64_t headerIv() const { return headerIv_; }
    const Md5Digest& headerMd5() const { return headerMd5_; }
    std::uint32_t metaDataOffset() const { return metaDataOffset_; }
    std::uint32_t dataOffset() const { return dataOffset_; }
    std::uint32_t metaDataUncompressedSize() const { return metaDataUncompressedSize_; }
    std::uint32_t metaDataCompressedSize() const { return metaDataCompressedSize_; }
    std::uint32_t flags() const { return flags_; }
    const std::array<std::uint8_t, 16>& reserved() const { return reserved_; }
    std::uint64_t headerIvXor() const { return headerIvXor_; }

    const std::vector<PakFolder>& folders() const { return folders_; }
    const std::vector<PakEntry>& entries() const { return entries_; }
    // Dataless gbx records of the metadata section by file index.
    const std::map<std::uint32_t, Bytes>& metadata() const { return metadata_; }
    // Problems found in the metadata section (it does not stop the pak from being read).
    const std::string& metadataError() const { return metadataError_; }

    // Absolute offset of the entry's 8-byte IV.
    std::uint64_t entryOffset(const PakEntry& e) const {
        return std::uint64_t(dataOffset_) + e.offset;
    }

private:
    PakIndex() = default;
    void readHeader();
    void readMetadata();

    std::shared_ptr<const InputFile> file_;
    PakKey key_{};
    std::unique_ptr<Blowfish> cipher_;
    std::uint64_t headerIv_ = 0;
    Md5Digest headerMd5_{};
    std::uint32_t metaDataOffset_ = 0, dataOffset_ = 0, metaDataUncompressedSize_ = 0,
                  metaDataCompressedSize_ = 0, flags_ = 0;
    std::array<std::uint8_t, 16> reserved_{};
    std::uint64_t headerIvXor_ = 0;
    std::vector<PakFolder> folders_;
    std::vector<PakEntry> entries_;
    std::map<std::uint32_t, Bytes> metadata_;
    std::string metadataError_;
};

// The magic and version of a file, without a key. Throws Error if it is not a NadeoPak.
std::uint32_t readPakVersion(const InputFile& file);
// Reads the public header of a version 6+ pack.
PackGbxHeader readPackGbxHeader(const InputFile& file);

// Header ivXor input: the third folder's name (without trailing backslash) as UTF-16LE,
// characters 2 and 3, when there are 3+ folders and that name has 4+ characters.
std::optional<std::array<std::uint8_t, 4>> headerIvXorInput(
    const std::vector<std::string>& folderNames);

}  // namespace pakfs::archive
