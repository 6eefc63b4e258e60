// SPDX-License-Identifier: GPL-2.0-or-later
// A pak's file table opened: its header, folders, entries and their flags, for every version.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "archive/cipher/Crypto.hpp"
#include "common/File.hpp"

namespace pakfs::archive {
class FieldReader;
class CryptedStream;
}  // namespace pakfs::archive

namespace pakfs::archive {

inline constexpr std::uint64_t kFlagsCompressionMask = 0x7C;  // the game tests these bits (v3)
inline constexpr std::uint64_t kFlagZlib = 0x04;              // what pakfs writes
// Version 6+ file flags (doc/FORMAT.md §3.4).
inline constexpr std::uint64_t kFlagHashedName = 1ull << 0;
// "Published" in GBX.NET; in the game's version 18 pack set on exactly the files stored under
// their real name (doc/FORMAT.md §3.4).
inline constexpr std::uint64_t kFlagPublished = 1ull << 1;
inline constexpr std::uint64_t kFlagsCompressionMaskV6 = 0x3C;       // bits 2..5
inline constexpr std::uint64_t kFlagSeekable = 1ull << 6;            // counter mode when encrypted
inline constexpr std::uint64_t kFlagDontUseDummyWrite = 1ull << 32;  // no per-node ivXor
inline constexpr std::uint64_t kFlagPublicFile = 1ull << 49;
inline constexpr std::uint64_t kFlagForceNoCrypt = 1ull << 50;
// Version 6+ header flags.
inline constexpr std::uint32_t kHeaderPrivate = 1;     // header encrypted with the pack key
inline constexpr std::uint32_t kHeaderDefaultKey = 2;  // ... xor the default header key
inline constexpr std::uint32_t kHeaderDataPrivate = 4;

// The key of a version 6+ private header: the pack key (bit 0 of the header flags, else 16 zero
// bytes) xored with the default header key when bit 1 is set.
PakKey headerKeyFor(std::uint32_t headerFlags, const PakKey& packKey);

// How an entry's bytes are compressed: zlib up to version 17, LZ4 in version 18.
enum class EntryCodec : std::uint8_t { Stored, Zlib, Lz4 };

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
    // The field after the name. Version 3: the offset of the file's record in the plaintext
    // metadata section, FFFFFFFF for none, in the game's pack (doc/FORMAT.md §2.3); 6+: unknown.
    std::uint32_t unknown = 0;
    std::uint32_t uncompressedSize = 0;
    std::uint32_t compressedSize = 0;
    std::uint32_t offset = 0;  // relative to dataOffset
    std::uint32_t classId = 0;
    std::uint64_t flags = 0;
    EntryCodec codec = EntryCodec::Stored;
    // Version 6+: public and "force no crypt" files are stored in the clear, without an IV.
    bool encrypted = true;
    // Version 6+: a gbx file whose node reads do not mix the cipher (DontUseDummyWrite).
    bool noNodeIvXor = false;
    // Version 6+: encrypted and flagged seekable: a counter mode instead of CBC, with no
    // chaining and no node reads mixed in (Blowfish::counterXor).
    bool counterMode = false;
    std::optional<std::uint32_t> slotSize;  // version 17+
    std::optional<Md5Digest> slotMd5;       // version 14+: MD5 of IV, bytes and padding

    bool compressed() const { return codec != EntryCodec::Stored; }
    // Bytes of data in the slot after the IV (the ciphertext: whole 8-byte blocks), or of the
    // data itself when not encrypted.
    std::uint64_t cipherSize() const {
        std::uint64_t n =
            compressed() ? compressedSize : std::max(compressedSize, uncompressedSize);
        return encrypted ? (n + 7) & ~std::uint64_t(7) : n;
    }
    // Bytes before the data: the IV of an encrypted entry.
    std::uint64_t ivSize() const { return encrypted ? 8 : 0; }
};

// The key a user gave for a pak: the Blowfish key itself, or (version 6+) a master server key
// that the pack's contents checksum turns into it. None: a version 6+ pack shows what it can.
struct PakKeyInput {
    std::optional<PakKey> key;
    bool masterServer = false;
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
    std::uint64_t size = 0;  // bytes of the public header (where the IV or private header starts)
};

// The header, folder tree, file table and metadata of a pak (version 3, or 6 to 18), read once
// and immutable afterwards, so any number of threads can share it.
class PakIndex {
public:
    // Opens and decodes a pak; throws Error naming the file on a wrong key, damage or an
    // unsupported version. A version 6+ pack opens without a key when its header allows;
    // entries that need the missing key are refused when read (entryCipher).
    // salvage: a pak cut short (or whose data start lies past its end) still opens when its
    // header and file table are whole and check out as usual; the entries whose bytes run past
    // the end of the file are kept in entries() and named in incomplete() with the reason.
    // Without it such a pak is refused.
    // namer (version 6+): real paths for entries stored under a hashed name, by entry index,
    // decided before anyone else sees the index (it is immutable from then on). The entry
    // layer's opener (archive/ops/PakOpener.hpp) supplies it; the pak format knows no names.
    // contents (version 6+): what open reads of the file's bytes past its header.
    // Whole: the contents checksum, one pass over the file. UnlessSlotsSealed (a commit's
    // base): that pass is left out when every byte a commit copies is sealed without it: version
    // 14+, the header MD5 (which covers the file table with every slot MD5) matches, and every
    // slot MD5 covers the slot as the writer lays it out (IV, data, padding to 64) inside the
    // file; a copied slot keeps its MD5, so damage in it stays as detectable as in the base
    // (doc/FORMAT.md §3.3). Otherwise the checksum is checked as with Whole.
    enum class ContentsCheck { Whole, UnlessSlotsSealed };
    using EntryNamer =
        std::function<std::map<std::size_t, std::string>(const std::shared_ptr<const PakIndex>&)>;
    static std::shared_ptr<const PakIndex> open(const std::filesystem::path& path,
                                                const PakKeyInput& key, bool salvage = false,
                                                const EntryNamer& namer = {},
                                                ContentsCheck contents = ContentsCheck::Whole);
    static std::shared_ptr<const PakIndex> open(const std::filesystem::path& path,
                                                const PakKey& key) {
        return open(path, PakKeyInput{key});
    }

    // Whether `key` decrypts the header of the pak at `path` so that its header MD5 fits: for a
    // version 3 pak, and a version 6+ pack whose header is private (another one's header does
    // not depend on the key: false). Any error reading it is false.
    static bool keyFits(const std::filesystem::path& path, const PakKey& key);

    // A copy of this index whose entries of `names` (by index, as an EntryNamer gives them)
    // show under those paths: names that depend on other packs, decided once all are open.
    std::shared_ptr<const PakIndex> withNames(
        const std::map<std::size_t, std::string>& names) const;

    std::shared_ptr<const InputFile> file() const { return file_; }
    const std::string& name() const { return file_->name(); }
    bool hasKey() const { return cipher_ != nullptr; }
    // The pack key (throws Error when none was given).
    const PakKey& key() const;
    // The cipher of the pack key (throws Error when none was given).
    const Blowfish& cipher() const;
    // The cipher that decrypts an entry: null when it is stored in the clear. Throws Error
    // naming the pak, the entry and the missing key when one is needed.
    const Blowfish* entryCipher(const PakEntry& e) const;
    // Whether the game's reader mixes node reads into an entry's cipher (encrypted in CBC, no
    // DontUseDummyWrite).
    bool nodeReadsMixCipher(const PakEntry& e) const {
        return e.encrypted && !e.noNodeIvXor && !e.counterMode;
    }

    std::uint32_t version() const { return version_; }
    // Version 6+: the public header.
    const std::optional<PackGbxHeader>& packHeader() const { return packHeader_; }
    // Problems that do not stop the pak from being read (checksums that differ).
    const std::vector<std::string>& warnings() const { return warnings_; }
    // Version 6+: whether the contents checksum (SHA-256 of the file after it) matched on open,
    // so that every byte of the file is as its writer sealed it. Version 3 has none: false.
    bool contentsChecksumMatches() const { return contentsChecksumMatches_; }
    // Version 6+: whether open checked the contents checksum (see ContentsCheck).
    bool contentsChecked() const { return contentsChecked_; }
    // Version 14+: whether each slot MD5 is the one its writer sealed over the slot's bytes as
    // the writer lays the slot out, so a copy of the slot may keep it: the contents checksum
    // matched, or it was left out because the header MD5 and every slot's layout showed
    // this (ContentsCheck::UnlessSlotsSealed). It says nothing of the slots' bytes: a damaged
    // slot fails its MD5 wherever it is copied.
    bool slotMd5sSealed() const { return contentsChecksumMatches_ || slotsSealed_; }
    // Hashed names replaced by real ones (by the namer given to open).
    std::size_t resolvedNames() const { return resolvedNames_; }
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
    // Opened with salvage: the entries whose bytes are not all in the file, by index, with the
    // reason (where the data ends and where the file does). Empty otherwise.
    const std::map<std::uint32_t, std::string>& incomplete() const { return incomplete_; }
    // Whether all of the entry's bytes are in the file (always, unless opened with salvage).
    bool whole(const PakEntry& e) const { return !incomplete_.contains(e.index); }
    // For an entry that is not whole: "PAK: PATH: reason"; empty for a whole one.
    std::string incompleteMessage(const PakEntry& e) const;
    // Dataless gbx records of the metadata section by file index.
    const std::map<std::uint32_t, Bytes>& metadata() const { return metadata_; }
    // Problems found in the metadata section (it does not stop the pak from being read).
    const std::string& metadataError() const { return metadataError_; }

    // Absolute offset of the entry's slot: its 8-byte IV, or its data when not encrypted.
    std::uint64_t entryOffset(const PakEntry& e) const {
        return std::uint64_t(dataOffset_) + e.offset;
    }

private:
    PakIndex() = default;
    PakIndex(const PakIndex&) = default;  // for withNames
    void readHeader();
    void readHeaderV6(const PakKeyInput& key);
    void readTables(FieldReader& r, CryptedStream& stream);
    // The error for a file that ends inside its header, before the data starting at dataStart.
    std::string cutInsideHeader(std::uint64_t dataStart) const;
    // Refuses a data start inside the header, or (without salvage) past the end of the file.
    void checkDataStart(std::uint64_t dataStart, std::uint64_t headerEnd) const;
    void buildPaths();
    void checkContents(ContentsCheck contents);
    // Version 14+: the header MD5 matched and every slot MD5 covers its slot as the writer
    // lays it out, inside the file.
    bool everySlotSealed() const;
    void readMetadata();

    std::shared_ptr<const InputFile> file_;
    std::uint32_t version_ = 3;
    std::optional<PakKey> key_;
    std::shared_ptr<const Blowfish> cipher_;  // shared by the copies withNames makes
    std::optional<PackGbxHeader> packHeader_;
    std::vector<std::string> warnings_;
    std::optional<Md5Digest> gbxHeadersMd5_;  // version 14+
    bool contentsChecksumMatches_ = false;
    bool contentsChecked_ = false;
    bool headerMd5Matches_ = false;
    bool slotsSealed_ = false;  // the contents checksum left out (ContentsCheck)
    std::size_t resolvedNames_ = 0;
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
    bool salvage_ = false;
    std::map<std::uint32_t, std::string> incomplete_;
};

// The magic and version of a file, without a key. Throws Error naming the file if it is not a
// NadeoPak, or (versions 3 and 6 to 18) is too short for the smallest header of its version:
// a stub is named as such before any key is looked up.
std::uint32_t readPakVersion(const InputFile& file);
// The magic and version alone, without that length check.
std::uint32_t readPakMagic(const InputFile& file);
// readPakVersion of the file at `path`, called before its key is looked up, so that a file that
// is no pak or too short is named as such rather than as one without a key. Does nothing when
// the file cannot be opened (opening it for reading says why).
void checkPakStart(const std::filesystem::path& path);
// Reads the public header of a version 6+ pack.
PackGbxHeader readPackGbxHeader(const InputFile& file);

// Header ivXor input: the third folder's name (without trailing backslash) as UTF-16LE,
// characters 2 and 3, when there are 3+ folders and that name has 4+ characters.
std::optional<std::array<std::uint8_t, 4>> headerIvXorInput(
    const std::vector<std::string>& folderNames);

}  // namespace pakfs::archive
