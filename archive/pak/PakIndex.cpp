// SPDX-License-Identifier: GPL-2.0-or-later
// PakIndex::open: magic and version, the header (version 3, or 6+ with its header MD5), the
// folder and file tables read and checked, paths built, the contents checksum and metadata read.
#include "archive/pak/PakIndex.hpp"

#define CRYPTOPP_ENABLE_NAMESPACE_WEAK 1
#include <crypto++/md5.h>
#include <crypto++/sha.h>

#include <algorithm>
#include <span>
#include <unordered_set>

#include "archive/codec/Streams.hpp"
#include "archive/pak/FieldReader.hpp"
#include "archive/pak/Metadata.hpp"

namespace pakfs::archive {

namespace {

constexpr char kMagic[8] = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k'};
constexpr std::uint64_t kHeaderCryptStart = 0x14;  // after magic, version and header IV
// A version 3 header without folders or files: MD5, 4 offsets and sizes, 16 reserved bytes,
// flags and the two counts, padded to whole cipher blocks.
constexpr std::uint64_t kMinHeaderEndV3 = kHeaderCryptStart + 64;
constexpr std::uint32_t kMaxNameLength = 0x1000;
// All folder and file paths together; real packs need a few hundred KiB.
constexpr std::uint64_t kMaxPathBytes = 64u << 20;

std::string stripBackslash(const std::string& name) {
    if (!name.empty() && name.back() == '\\') return name.substr(0, name.size() - 1);
    return name;
}

bool isZero(std::span<const std::uint8_t> bytes) {
    return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
}

std::string toSlashes(std::string s) {
    for (char& c : s)
        if (c == '\\') c = '/';
    return s;
}

}  // namespace

std::uint32_t readPakMagic(const InputFile& file) {
    if (file.size() < 12) throw Error(file.name() + ": not a pak file (too short for a header)");
    Bytes head = file.readAt(0, 12);
    if (std::memcmp(head.data(), kMagic, 8) != 0)
        throw Error(file.name() + ": not a pak file (no \"NadeoPak\" magic)");
    return loadLE32(head.data() + 8);
}

std::uint32_t readPakVersion(const InputFile& file) {
    const std::uint32_t version = readPakMagic(file);
    const std::string tooShort =
        file.name() + ": not a pak file (too short: " + std::to_string(file.size()) + " bytes, ";
    if (version == 3 && file.size() < kMinHeaderEndV3)
        throw Error(tooShort + "and a version 3 header takes at least " +
                    std::to_string(kMinHeaderEndV3) + ")");
    if (version >= 6 && version <= 18) {
        const std::string inside =
            tooShort + "which end inside the version " + std::to_string(version) + " header)";
        PackGbxHeader pub;
        try {
            pub = readPackGbxHeader(file);
        } catch (const TruncatedError&) {
            throw Error(inside);
        }
        // The public header, the IV of a crypted private header, and its fixed fields (up to
        // its reserved bytes) in whole cipher blocks.
        const bool crypted = (pub.decryptFlags & (kHeaderPrivate | kHeaderDefaultKey)) != 0;
        std::uint64_t fixed = 16 + 4 + (version < 15 ? 4 : 0) + 4 + 4 +
                              (version >= 14 ? 16 + (version >= 16 ? 4 : 0) : 0) + 16;
        if (crypted) fixed = 8 + roundUp8(fixed);
        if (file.size() < pub.size + fixed) throw Error(inside);
    }
    return version;
}

void checkPakStart(const std::filesystem::path& path) {
    // The file first: a wrong path is "no such file", "is a folder" or "not a pak", not a
    // missing key.
    readPakVersion(*InputFile::open(path));
}

std::optional<std::array<std::uint8_t, 4>> headerIvXorInput(
    const std::vector<std::string>& folderNames) {
    if (folderNames.size() < 3) return std::nullopt;
    std::string third = stripBackslash(folderNames[2]);
    if (third.size() < 4) return std::nullopt;
    // UTF-16LE bytes 4..7: characters 2 and 3, each a byte followed by a zero high byte.
    return std::array<std::uint8_t, 4>{std::uint8_t(third[2]), 0, std::uint8_t(third[3]), 0};
}

PakKey headerKeyFor(std::uint32_t headerFlags, const PakKey& packKey) {
    static constexpr PakKey kDefaultHeaderKey = {0x56, 0xEE, 0xCB, 0xBB, 0xDE, 0xB6, 0xBC, 0x90,
                                                 0xA1, 0x7D, 0xFC, 0xEB, 0x76, 0x1D, 0x59, 0xCE};
    PakKey key{};
    if (headerFlags & kHeaderPrivate) key = packKey;
    if (headerFlags & kHeaderDefaultKey)
        for (std::size_t i = 0; i < 16; ++i) key[i] ^= kDefaultHeaderKey[i];
    return key;
}

std::shared_ptr<const PakIndex> PakIndex::open(const std::filesystem::path& path,
                                               const PakKeyInput& key, bool salvage,
                                               const EntryNamer& namer, ContentsCheck contents) {
    std::shared_ptr<PakIndex> index(new PakIndex());
    index->salvage_ = salvage;
    index->file_ = InputFile::open(path);
    std::uint32_t version = readPakVersion(*index->file_);
    index->version_ = version;
    if (version >= 6 && version <= 18) {
        index->readHeaderV6(key);
        index->buildPaths();
        index->checkContents(contents);
        if (namer) {
            // Decided before anyone else sees the index: immutable from then on.
            auto names = namer(index);
            for (auto& [i, path] : names) index->entries_.at(i).path = std::move(path);
            index->resolvedNames_ = names.size();
        }
        return index;
    }
    if (version != 3)
        throw Error(index->name() + ": unsupported pak version " + std::to_string(version) +
                    " (versions 3 and 6 to 18 are supported)");
    if (!key.key)
        throw Error(index->name() + ": no key given (a version 3 pak is always encrypted)");
    if (key.masterServer)
        throw Error(index->name() +
                    ": a master server key (--ms-key) needs a version 6+ pack's checksum");
    index->key_ = key.key;
    index->cipher_ = std::make_unique<Blowfish>(*key.key);
    index->readHeader();
    index->buildPaths();
    index->readMetadata();
    return index;
}

bool PakIndex::keyFits(const std::filesystem::path& path, const PakKey& key) {
    try {
        std::shared_ptr<PakIndex> probe(new PakIndex());
        probe->salvage_ = true;  // a pak cut short still shows whether the key fits
        probe->file_ = InputFile::open(path);
        probe->version_ = readPakVersion(*probe->file_);
        if (probe->version_ == 3) {
            probe->key_ = key;
            probe->cipher_ = std::make_unique<Blowfish>(key);
            probe->readHeader();  // throws on a header MD5 that does not fit
            return true;
        }
        if (probe->version_ < 6 || probe->version_ > 18) return false;
        if (!(readPackGbxHeader(*probe->file_).decryptFlags & kHeaderPrivate)) return false;
        probe->readHeaderV6(PakKeyInput{key});
        return probe->warnings_.empty();  // below version 18 a header MD5 mismatch only warns
    } catch (const Error&) {
        return false;
    }
}

std::shared_ptr<const PakIndex> PakIndex::withNames(
    const std::map<std::size_t, std::string>& names) const {
    // Every field as it is (the cipher shared: it is immutable), the paths then renamed.
    std::shared_ptr<PakIndex> copy(new PakIndex(*this));
    for (const auto& [i, path] : names) copy->entries_.at(i).path = path;
    copy->resolvedNames_ = resolvedNames_ + names.size();
    return copy;
}

std::string PakIndex::incompleteMessage(const PakEntry& e) const {
    auto it = incomplete_.find(e.index);
    return it == incomplete_.end() ? std::string() : name() + ": " + e.path + ": " + it->second;
}

const PakKey& PakIndex::key() const {
    if (!key_) throw Error(name() + ": no key was given for this pak");
    return *key_;
}

const Blowfish& PakIndex::cipher() const {
    if (!cipher_) throw Error(name() + ": no key was given for this pak");
    return *cipher_;
}

const Blowfish* PakIndex::entryCipher(const PakEntry& e) const {
    if (!e.encrypted) return nullptr;
    if (!cipher_)
        throw Error(name() + ": " + e.path +
                    ": encrypted with the pack key, which was not given (--key, --base-key or "
                    "--ms-key)");
    return cipher_.get();
}

void PakIndex::readTables(FieldReader& r, CryptedStream& stream) {
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
    const std::size_t rowSize =
        4 + 4 + 4 * 5 + 8 + (version_ >= 17 ? 4 : 0) + (version_ >= 14 ? 16 : 0);
    r.checkCount(numFiles, rowSize, "file");
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
        if (version_ >= 17) e.slotSize = r.u32();
        if (version_ >= 14) {
            Md5Digest d;
            r.bytes(d);
            e.slotMd5 = d;
        }
        e.flags = r.u64();
        if (version_ >= 6) {
            if (e.flags & kFlagsCompressionMaskV6)
                e.codec = version_ >= 18 ? EntryCodec::Lz4 : EntryCodec::Zlib;
            e.encrypted = (e.flags & (kFlagPublicFile | kFlagForceNoCrypt)) == 0;
            e.noNodeIvXor = (e.flags & kFlagDontUseDummyWrite) != 0;
            e.counterMode = e.encrypted && (e.flags & kFlagSeekable) != 0;
        } else if (e.flags & kFlagsCompressionMask) {
            e.codec = EntryCodec::Zlib;
        }
        if (e.folder < -1 || e.folder >= std::int32_t(numFolders))
            r.fail("file " + std::to_string(i) + " has folder index " + std::to_string(e.folder) +
                       " out of range",
                   r.position());
        entries_.push_back(std::move(e));
    }
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
    bool reservedRead = false;
    try {
        r.bytes(headerMd5_);
        metaDataOffset_ = r.u32();
        dataOffset_ = r.u32();
        metaDataUncompressedSize_ = r.u32();
        metaDataCompressedSize_ = r.u32();
        r.bytes(reserved_);
        reservedRead = true;
        flags_ = r.u32();
        readTables(r, stream);
    } catch (const Error& e) {
        // Reserved bytes that decrypt to zero (as in the game's packs) show the key is right.
        if (reservedRead && isZero(reserved_) && dataOffset_ > f.size())
            throw Error(cutInsideHeader(dataOffset_));
        throw Error(wrongKey + " (" + e.what() + ")");
    }

    // The MD5 is what tells a wrong key from a damaged file; it covers the header with its
    // own field zeroed.
    std::fill(plain.begin(), plain.begin() + 16, 0);
    if (md5(plain) != headerMd5_) throw Error(wrongKey + " (header MD5 mismatch)");

    checkDataStart(dataOffset_, kHeaderCryptStart + plain.size());
}

std::string PakIndex::cutInsideHeader(std::uint64_t dataStart) const {
    return name() + ": not a pak file (too short: " + std::to_string(file_->size()) +
           " bytes, which end inside its header and file table; its file data starts at byte " +
           std::to_string(dataStart) + "): nothing can be salvaged without the whole file table";
}

void PakIndex::checkDataStart(std::uint64_t dataStart, std::uint64_t headerEnd) const {
    const InputFile& f = *file_;
    if (dataStart < headerEnd)
        throw Error(f.name() + ": damaged header (data offset " + std::to_string(dataStart) +
                    " is inside the header)");
    // Cut before its data: with salvage every entry is then named as not whole.
    if (dataStart > f.size() && !salvage_)
        throw Error(f.name() + ": cut short: its file data starts at byte " +
                    std::to_string(dataStart) + " and the file is " + std::to_string(f.size()) +
                    " bytes (--salvage lists what its file table holds)");
}

void PakIndex::readHeaderV6(const PakKeyInput& input) {
    const InputFile& f = *file_;
    packHeader_ = readPackGbxHeader(f);
    const PackGbxHeader& pub = *packHeader_;
    if (input.key) {
        PakKey key = *input.key;
        if (input.masterServer)
            for (std::size_t i = 0; i < 8; ++i) {
                key[i] = std::uint8_t(input.key->at(15 - i) ^ pub.contentsChecksum[i]);
                key[i + 8] = std::uint8_t(input.key->at(7 - i) ^ pub.contentsChecksum[i + 16]);
            }
        key_ = key;
        cipher_ = std::make_unique<Blowfish>(key, CipherVariant::forPakVersion(version_));
    }
    flags_ = 0;
    const std::uint32_t hf = pub.decryptFlags;
    const bool crypted = (hf & (kHeaderPrivate | kHeaderDefaultKey)) != 0;
    std::unique_ptr<Blowfish> headerCipher;
    if (crypted) {
        if ((hf & kHeaderPrivate) && !key_)
            throw Error(f.name() +
                        ": the header is private: give the pack key (--key, --base-key or "
                        "--ms-key) to list it");
        headerCipher = std::make_unique<Blowfish>(headerKeyFor(hf, key_.value_or(PakKey{})),
                                                  CipherVariant::forPakVersion(version_));
    }
    const std::uint64_t start = pub.size + (crypted ? 8 : 0);
    if (f.size() < start) throw TruncatedError(f.name() + ": file is truncated inside the header");
    if (crypted) headerIv_ = loadLE64(f.readAt(pub.size, 8).data());
    std::uint64_t cryptSize = f.size() - start;
    if (crypted) cryptSize &= ~std::uint64_t(7);
    CryptedStream stream(ByteRange(file_, start, cryptSize), headerCipher.get(), headerIv_,
                         cryptSize);
    Bytes plain;
    FieldReader r(stream, f.name() + ": private header", &plain);
    const std::string wrongKey =
        f.name() + (hf & kHeaderPrivate ? ": wrong key or damaged header" : ": damaged header");
    std::uint32_t dataStart = 0;
    bool dataStartRead = false, reservedRead = false;
    try {
        r.bytes(headerMd5_);
        metaDataOffset_ = r.u32();
        if (version_ < 15) dataStart = r.u32();
        dataStartRead = true;
        metaDataUncompressedSize_ = r.u32();
        metaDataCompressedSize_ = r.u32();
        if (version_ >= 14) {
            Md5Digest d;
            r.bytes(d);
            gbxHeadersMd5_ = d;
            if (version_ >= 16) r.u32();  // size
        }
        r.bytes(reserved_);
        reservedRead = true;
        if (version_ == 6) {
            r.u32();  // author info: version, login, nick, zone, extra
            for (int i = 0; i < 4; ++i) r.string();
        }
        flags_ = r.u32();
        readTables(r, stream);
    } catch (const Error& e) {
        // A file that ends before its data start and inside the private header was cut there.
        // From version 15 the data start is public; before, it is read from the private header,
        // whose key is shown to be right when it needs none or its reserved bytes are zero.
        const std::uint64_t start = version_ >= 15  ? pub.headerMaxSize.value_or(0)
                                    : dataStartRead ? dataStart
                                                    : 0;
        const bool keyShown =
            version_ >= 15 || !(hf & kHeaderPrivate) || (reservedRead && isZero(reserved_));
        if (keyShown && start > f.size()) throw Error(cutInsideHeader(start));
        throw Error(wrongKey + " (" + e.what() + ")");
    }
    // Header MD5: the public header after its fixed fields, then the private header with the
    // MD5 zeroed. Checked by the game for version 18 (fixed fields end at 52); for other
    // versions the start after the last fixed field is assumed, so a mismatch only warns.
    const std::uint64_t fixedEnd = version_ >= 15 ? 52 : 48;
    Bytes hashed = f.readAt(fixedEnd, std::size_t(pub.size - fixedEnd));
    std::fill(plain.begin(), plain.begin() + 16, 0);
    hashed.insert(hashed.end(), plain.begin(), plain.end());
    headerMd5Matches_ = md5(hashed) == headerMd5_;
    if (!headerMd5Matches_) {
        if (version_ >= 18) throw Error(wrongKey + " (header MD5 mismatch)");
        warnings_.push_back(f.name() + ": header MD5 does not match (the rule is checked on " +
                            "version 18 packs only; version " + std::to_string(version_) +
                            " is read anyway)");
    }
    std::uint64_t dataOffset = version_ >= 15 ? pub.headerMaxSize.value_or(0) : dataStart;
    checkDataStart(dataOffset, start + plain.size());
    dataOffset_ = std::uint32_t(dataOffset);
}

bool PakIndex::everySlotSealed() const {
    if (version_ < 14 || !headerMd5Matches_) return false;
    const std::uint64_t fileSize = file_->size();
    for (const auto& e : entries_) {
        const std::uint64_t padded = (e.ivSize() + e.cipherSize() + 63) & ~std::uint64_t(63);
        const std::uint64_t at = entryOffset(e);
        if (!e.slotMd5 || (e.slotSize && *e.slotSize != padded) || at > fileSize ||
            padded > fileSize - at)
            return false;
    }
    return true;
}

void PakIndex::checkContents(ContentsCheck contents) {
    const InputFile& f = *file_;
    // SHA-256 of everything after the checksum field, and (v14+) MD5 of the gbx headers
    // section to the end: both in one pass over the file; the MD5's part alone when the
    // checksum is left out.
    contentsChecked_ = contents == ContentsCheck::Whole || salvage_ || !everySlotSealed();
    slotsSealed_ = !contentsChecked_;
    CryptoPP::SHA256 sha;
    CryptoPP::Weak::MD5 tailMd5;
    const bool tail = gbxHeadersMd5_ && metaDataOffset_ <= f.size();
    Bytes buf(std::size_t(std::min<std::uint64_t>(1 << 20, f.size())));
    std::uint64_t at = contentsChecked_ ? 44 : std::max<std::uint64_t>(44, metaDataOffset_);
    if (!contentsChecked_ && !tail) at = f.size();
    while (at < f.size()) {
        std::size_t n = std::size_t(std::min<std::uint64_t>(1 << 20, f.size() - at));
        f.readAt(at, buf.data(), n);
        if (contentsChecked_) sha.Update(buf.data(), n);
        if (tail && at + n > metaDataOffset_) {
            std::uint64_t from = std::max<std::uint64_t>(at, metaDataOffset_);
            tailMd5.Update(buf.data() + (from - at), std::size_t(at + n - from));
        }
        at += n;
    }
    if (contentsChecked_) {
        std::array<std::uint8_t, 32> digest;
        sha.Final(digest.data());
        contentsChecksumMatches_ = digest == packHeader_->contentsChecksum;
        if (!contentsChecksumMatches_)
            warnings_.push_back(f.name() +
                                ": contents checksum (SHA-256) does not match: the file was "
                                "changed or damaged after it was written");
    }
    if (gbxHeadersMd5_) {
        Md5Digest d;
        tailMd5.Final(d.data());
        if (!tail || d != *gbxHeadersMd5_)
            warnings_.push_back(f.name() +
                                ": MD5 of the gbx headers section to the end of the file does "
                                "not match (the game refuses such a pack)");
    }
}

void PakIndex::buildPaths() {
    const InputFile& f = *file_;
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
        const std::uint64_t end =
            std::uint64_t(dataOffset_) + e.offset + e.ivSize() + e.cipherSize();
        if (end > f.size()) {
            std::string why = "data runs past the end of the file (ends at " + std::to_string(end) +
                              ", file is " + std::to_string(f.size()) + " bytes)";
            if (!salvage_)
                throw Error(f.name() + ": cut short or damaged file table: " + e.path + ": " + why +
                            "; --salvage reads the files that are whole");
            incomplete_.emplace(e.index, std::move(why));
        }
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
