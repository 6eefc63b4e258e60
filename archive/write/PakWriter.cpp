// SPDX-License-Identifier: GPL-2.0-or-later
// Laying a pak out: the slots produced in plan order written after the header, the metadata
// section (version 3), the tables, the headers and their checksums; `pak pack` and commits.
#include "archive/write/PakWriter.hpp"

#include <crypto++/sha.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "archive/codec/Streams.hpp"
#include "archive/pak/Metadata.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/SlotProducer.hpp"
#include "common/File.hpp"
#include "common/FileLock.hpp"
#include "common/ShellWord.hpp"

namespace fs = std::filesystem;

namespace pakfs::archive {

namespace {

// Version 18: the header's maximum size (where the data starts) of the game's pack.
constexpr std::uint64_t kGameHeaderMaxSize = 1 << 20;

// The piece the contents checksum's pass reads, hashes (and copies) at a time.
constexpr std::uint64_t kHashPiece = 1 << 20;

void writeAuthor(ByteWriter& w, const PackHeaderFields& h) {
    w.u32(0);  // author info version
    w.string(h.authorLogin);
    w.string(h.authorNick);
    w.string(h.authorZone);
    w.string("");  // extra
}

// A file table row as the writer fills it (slot size and MD5: version 17+ and 14+).
struct TableRow {
    std::uint32_t uncompressedSize, compressedSize, offset, classId;
    std::uint64_t flags;
    std::uint32_t unknown;
    std::uint32_t slotSize = 0;
    Md5Digest slotMd5{};
};

// Bytes the folder and file tables take (they depend on names only).
std::uint64_t tablesSize(const std::vector<PlanFolder>& folders, const std::vector<PlanFile>& files,
                         std::uint32_t version) {
    std::uint64_t n = 4 + 4;
    for (const auto& f : folders) n += 4 + 4 + f.name.size();
    const std::size_t row = 4 * 5 + 8 + (version >= 17 ? 4 : 0) + (version >= 14 ? 16 : 0);
    for (const auto& f : files) n += 4 + 4 + f.name.size() + row;
    return n;
}

// Writes the folder and file tables as PakIndex::readTables reads them; returns where the
// folder list ends in `header` (where the reader mixes the folder ivXor).
std::uint64_t writeTables(Bytes& header, const std::vector<PlanFolder>& folders,
                          const std::vector<PlanFile>& files, const std::vector<TableRow>& rows,
                          std::uint32_t version, std::vector<std::string>& folderNames) {
    ByteWriter w(header);
    w.u32(std::uint32_t(folders.size()));
    for (const auto& f : folders) {
        w.u32(std::uint32_t(f.parent));
        w.string(f.name);
        folderNames.push_back(f.name);
    }
    const std::uint64_t folderListEnd = header.size();
    w.u32(std::uint32_t(files.size()));
    for (std::size_t i = 0; i < files.size(); ++i) {
        const TableRow& r = rows[i];
        w.u32(std::uint32_t(files[i].folder));
        w.string(files[i].name);
        w.u32(r.unknown);
        w.u32(r.uncompressedSize);
        w.u32(r.compressedSize);
        w.u32(r.offset);
        w.u32(r.classId);
        if (version >= 17) w.u32(r.slotSize);
        if (version >= 14) w.bytes(r.slotMd5);
        w.u64(r.flags);
    }
    return folderListEnd;
}

// Encrypts a header (padded to 8 bytes) from a new random IV, which it returns. The reader
// mixes the folder ivXor after the folder list; it takes effect at the first segment refill
// from there (a read that starts exactly on a boundary refills after it).
std::uint64_t encryptHeader(Bytes& header, const std::vector<std::string>& folderNames,
                            std::uint64_t folderListEnd, const Blowfish& cipher) {
    std::vector<std::uint64_t> ivXor;
    if (auto input = headerIvXorInput(folderNames)) {
        std::size_t segment = std::size_t((folderListEnd + kSegmentSize - 1) / kSegmentSize);
        ivXor.assign(segment + 1, 0);
        ivXor[segment] = calcIvXor(0, *input);
    }
    const std::uint64_t iv = ivFor("header", header);
    encryptSegments(header, iv, ivXor, cipher);
    return iv;
}

}  // namespace

Bytes packGbxPublicHeader(std::uint32_t version, const PackHeaderFields& h,
                          std::uint32_t headerMaxSize) {
    Bytes out = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k'};
    ByteWriter w(out);
    w.u32(version);
    for (int i = 0; i < 32; ++i) w.u8(0);
    w.u32(h.headerFlags);
    if (version >= 15) w.u32(headerMaxSize);
    if (version >= 7) writeAuthor(w, h);
    const std::uint8_t unused[16] = {};
    if (version >= 7 && version < 9) {
        w.string(h.comment);
        w.bytes(unused);
        if (version >= 8) {
            w.string("pakfs");  // creation build info
            w.string("");       // author url
        }
    } else if (version >= 9) {
        w.string("");                     // manialink url
        if (version >= 13) w.string("");  // download url
        w.u64(0);                         // creation date
        w.string(h.comment);
        if (version >= 12) {
            w.string("");  // xml
            w.string(h.titleId);
        }
        w.string(h.usageSubDir);
        w.string("pakfs");  // creation build info
        w.bytes(unused);
        if (version >= 10) w.u32(0);  // included packs
    }
    return out;
}

namespace {

// The planned bytes of every file, for progress (0 when no one asks).
std::uint64_t progressTotal(const std::vector<PlanFile>& files, const PackOptions& options) {
    std::uint64_t total = 0;
    if (options.progress) {
        std::error_code ec;
        for (const auto& f : files) total += plannedSize(f, ec);
    }
    return total;
}

// A run of consecutive slots copied from the base: `size` bytes from `from` in the base to `to`
// in the pak written.
struct CopyRun {
    std::uint64_t from = 0, to = 0, size = 0;
};

// The slots as written: a file table row each, where the data ends (from the data's start),
// (version 3) the metadata records by file index, and (version 6+) the runs copied from the
// base, in file order, left to the checksum's pass (writePackGbxChecksum).
struct WrittenSlots {
    std::vector<TableRow> rows;
    std::uint64_t dataEnd = 0;
    std::map<std::uint32_t, Bytes> metadata;
    std::vector<CopyRun> copies;
};

// A header in the clear, with what its encryption needs: the folder names (for the folder
// ivXor) and where the folder list ends.
struct PlainHeader {
    Bytes bytes;
    std::vector<std::string> folderNames;
    std::uint64_t folderListEnd = 0;
};

// Slots copied from the base pak as they are: adjoining ones (next in the base and next in the
// output) gathered into one run, handed to `emit` when a slot that does not adjoin comes or on
// flush() (version 3 copies it there; version 6+ leaves it to the checksum's pass).
class CopyRuns {
public:
    explicit CopyRuns(std::function<void(const CopyRun&)> emit) : emit_(std::move(emit)) {}

    void add(std::uint64_t from, std::uint64_t to, std::uint64_t size) {
        if (run_.size > 0 && run_.from + run_.size == from && run_.to + run_.size == to) {
            run_.size += size;
            return;
        }
        flush();
        run_ = {from, to, size};
    }

    void flush() {
        if (run_.size > 0) emit_(run_);
        run_.size = 0;
    }

private:
    std::function<void(const CopyRun&)> emit_;
    CopyRun run_;
};

// Version 6+: the private header's size (it depends only on names).
std::uint64_t packGbxPrivateSize(const PackPlan& plan, const PackOptions& options) {
    const std::uint32_t version = options.version;
    const PackHeaderFields& h = options.header;
    return 16 + 4 + (version < 15 ? 4 : 0) + 4 + 4 +
           (version >= 14 ? 16 + (version >= 16 ? 4 : 0) : 0) + 16 +
           (version == 6
                ? 4 + 4 * 4 + h.authorLogin.size() + h.authorNick.size() + h.authorZone.size()
                : 0) +
           4 + tablesSize(plan.folders, plan.files, version);
}

// Version 6+: every slot (the IV, the bytes, zero padding to a multiple of 64) laid out from
// `dataStart`, each with its row. An encoded slot's MD5 (version 14+) is computed from its
// bytes and the slot written. A slot copied from the base keeps the base's slot MD5 when that
// covers exactly these bytes (CopiedSlot::md5) and is left to the checksum's pass, which
// copies it with its padding (consecutive ones as one run) while it hashes it; only a copied
// slot whose MD5 cannot be reused passes through memory here.
WrittenSlots writePackGbxSlots(const PackPlan& plan, const Blowfish& cipher,
                               const PackOptions& options, AtomicOutputFile& out,
                               std::uint64_t dataStart, const fs::path& output,
                               PackResult& result) {
    WrittenSlots written;
    written.rows.reserve(plan.files.size());
    std::uint64_t bytesDone = 0;
    const std::uint64_t bytesTotal = progressTotal(plan.files, options);
    const bool slotMd5 = options.version >= 14;
    CopyRuns runs([&](const CopyRun& run) { written.copies.push_back(run); });
    auto copyRun = [&] { runs.flush(); };
    produceInOrder(
        plan, cipher, options, false, result,
        [&](std::size_t i, std::uint32_t size, EncodedEntry& encoded) {
            if (encoded.compressed) ++result.compressed;
            const std::uint64_t to = dataStart + written.dataEnd;
            Md5Digest digest{};
            std::uint64_t slotSize = 0;
            const CopiedSlot* copied = encoded.copied ? &*encoded.copied : nullptr;
            const InputFile* baseFile = copied ? plan.base->file().get() : nullptr;
            const std::uint64_t padded = copied ? (copied->size + 63) & ~std::uint64_t(63) : 0;
            // Without MD5s a copy may take the base's padding too when it is in the file.
            const bool wholeCopy =
                copied && (slotMd5 ? copied->md5.has_value()
                                   : copied->offset <= baseFile->size() &&
                                         padded <= baseFile->size() - copied->offset);
            Bytes slot;
            if (wholeCopy) {
                slotSize = padded;
                if (copied->md5) digest = *copied->md5;
            } else {
                slot = copied ? baseFile->readAt(copied->offset, std::size_t(copied->size))
                              : std::move(encoded.blob);
                slot.resize((slot.size() + 63) & ~std::size_t(63), 0);
                slotSize = slot.size();
                if (slotMd5) digest = md5(slot);
            }
            if (to + slotSize > 0xFFFFFFFFu)
                throw Error(output.string() + ": the pak would exceed 4 GiB, the format's limit");
            written.rows.push_back({size, encoded.compressedSize, std::uint32_t(written.dataEnd),
                                    encoded.classId, encoded.flags, encoded.unknown,
                                    std::uint32_t(slotSize), digest});
            if (wholeCopy) {
                runs.add(copied->offset, to, slotSize);
            } else {
                copyRun();
                out.writeAt(to, slot);
            }
            written.dataEnd += slotSize;
            bytesDone += size;
            if (options.progress) options.progress(i + 1, plan.files.size(), bytesDone, bytesTotal);
        });
    copyRun();
    return written;
}

// Version 6+: the private header in the clear, its MD5 filled in: over the public header after
// its fixed fields, then this header with the MD5 zeroed (the rule the game checks on version
// 18; assumed for the others). No gbx headers section is written (the reader does not need
// one): it starts and ends at the end of the file, so its v14+ MD5 is that of no bytes.
PlainHeader packGbxPrivateHeader(const PackPlan& plan, const PackOptions& options,
                                 const std::vector<TableRow>& rows, const Bytes& pub,
                                 std::uint64_t privSize, std::uint64_t dataStart,
                                 std::uint64_t fileSize) {
    const std::uint32_t version = options.version;
    PlainHeader header;
    header.bytes.reserve(std::size_t(roundUp8(privSize)));
    ByteWriter w(header.bytes);
    for (int i = 0; i < 16; ++i) w.u8(0);
    w.u32(std::uint32_t(fileSize));  // where the gbx headers start
    if (version < 15) w.u32(std::uint32_t(dataStart));
    w.u32(0);  // gbx headers size
    w.u32(0);  // compressed size
    if (version >= 14) {
        Md5Digest tail = md5(ByteSpan());
        w.bytes(tail);
        if (version >= 16) w.u32(std::uint32_t(fileSize));
    }
    for (int i = 0; i < 16; ++i) w.u8(0);
    if (version == 6) writeAuthor(w, options.header);
    w.u32(0);  // flags
    header.folderListEnd =
        writeTables(header.bytes, plan.folders, plan.files, rows, version, header.folderNames);
    if (header.bytes.size() != privSize) throw Error("internal error: header size mismatch");
    const std::size_t fixedEnd = version >= 15 ? 52 : 48;
    Bytes hashed(pub.begin() + std::ptrdiff_t(fixedEnd), pub.end());
    hashed.insert(hashed.end(), header.bytes.begin(), header.bytes.end());
    Md5Digest digest = md5(hashed);
    std::copy(digest.begin(), digest.end(), header.bytes.begin());
    header.bytes.resize(roundUp8(header.bytes.size()), 0);
    return header;
}

// SHA-256 over pieces handed to it in order, on a thread of its own: the hash runs beside the
// reads and writes that feed it, so that on two cores a commit's contents checksum costs the
// longer of the two, not their sum. Four buffers circulate between the two threads.
class PieceHasher {
public:
    explicit PieceHasher(std::size_t pieceSize) {
        for (std::size_t i = 0; i < kBuffers; ++i) {
            buffers_[i].resize(pieceSize);
            free_.push_back(i);
        }
        thread_ = std::thread([this] { run(); });
    }
    ~PieceHasher() { stop(); }
    PieceHasher(const PieceHasher&) = delete;
    PieceHasher& operator=(const PieceHasher&) = delete;

    // A buffer to fill, waiting while the hasher holds every one.
    Bytes& take() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !free_.empty(); });
        taken_ = free_.front();
        free_.pop_front();
        return buffers_[taken_];
    }
    // The buffer last taken: its first `n` bytes are the next piece to hash.
    void give(std::size_t n) {
        {
            std::lock_guard lock(mutex_);
            full_.push_back({taken_, n});
        }
        changed_.notify_all();
    }
    // Every piece given hashed, the digest.
    void final(std::uint8_t* digest) {
        stop();
        sha_.Final(digest);
    }

private:
    static constexpr std::size_t kBuffers = 4;

    void run() {
        for (;;) {
            std::pair<std::size_t, std::size_t> piece;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return !full_.empty() || done_; });
                if (full_.empty()) return;
                piece = full_.front();
                full_.pop_front();
            }
            sha_.Update(buffers_[piece.first].data(), piece.second);
            {
                std::lock_guard lock(mutex_);
                free_.push_back(piece.first);
            }
            changed_.notify_all();
        }
    }
    // The pieces given are hashed before the thread ends.
    void stop() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        changed_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    CryptoPP::SHA256 sha_;
    std::array<Bytes, kBuffers> buffers_;
    std::deque<std::size_t> free_;
    std::deque<std::pair<std::size_t, std::size_t>> full_;
    std::size_t taken_ = 0;
    bool done_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::thread thread_;
};

// Version 6+, last: SHA-256 of everything after the checksum field, into it, in one pass in
// file order: what is written already (the headers, encoded slots) read back, and the runs
// copied from the base (`copies`, in file order) written as they are hashed, so that their
// bytes pass through memory once.
void writePackGbxChecksum(AtomicOutputFile& out, const std::vector<CopyRun>& copies,
                          const InputFile* base) {
    PieceHasher hasher(std::size_t(std::min<std::uint64_t>(kHashPiece, out.size())));
    std::uint64_t at = 44;
    auto hashWritten = [&](std::uint64_t end) {
        while (at < end) {
            Bytes& buf = hasher.take();
            const std::size_t n = std::size_t(std::min<std::uint64_t>(buf.size(), end - at));
            out.readAt(at, buf.data(), n);
            hasher.give(n);
            at += n;
        }
    };
    for (const CopyRun& run : copies) {
        hashWritten(run.to);
        for (std::uint64_t done = 0; done < run.size;) {
            Bytes& buf = hasher.take();
            const std::size_t n = std::size_t(std::min<std::uint64_t>(buf.size(), run.size - done));
            base->readAt(run.from + done, buf.data(), n);
            out.writeAt(run.to + done, ByteSpan(buf.data(), n));
            hasher.give(n);
            done += n;
        }
        at = run.to + run.size;
    }
    hashWritten(out.size());
    std::uint8_t checksum[32];
    hasher.final(checksum);
    out.writeAt(12, ByteSpan(checksum, 32));
}

PackResult writePackGbx(const PackPlan& plan, const fs::path& output, const PakKey& key,
                        const PackOptions& options) {
    const std::uint32_t version = options.version;
    const CipherVariant variant = CipherVariant::forPakVersion(version);
    Blowfish cipher(key, variant);
    PackResult result;
    result.folders = plan.folders.size();
    const std::uint32_t hf = options.header.headerFlags;
    const bool crypted = (hf & (kHeaderPrivate | kHeaderDefaultKey)) != 0;

    // Sizes first: the public header, then the private one (its size depends only on names).
    Bytes pub = packGbxPublicHeader(version, options.header, 0);
    const std::uint64_t privSize = packGbxPrivateSize(plan, options);
    const std::uint64_t headerEnd = pub.size() + (crypted ? 8 : 0) + roundUp8(privSize);
    // Where file data starts (v15+: the header's max size): the header rounded up to 4 KiB;
    // version 18 rounds up to 1 MiB, as the game's pack (doc/FORMAT.md §3.2).
    const std::uint64_t align = version >= 18 ? kGameHeaderMaxSize : 0x1000;
    std::uint64_t dataStart = (headerEnd + align - 1) / align * align;
    // A commit keeps its base's data start when the header still fits below it.
    if (version >= 15 && options.header.headerMaxSize >= headerEnd)
        dataStart = options.header.headerMaxSize;
    if (dataStart > 0xFFFFFFFFu) throw Error(output.string() + ": header too large");
    pub = packGbxPublicHeader(version, options.header, std::uint32_t(dataStart));

    AtomicOutputFile out(output);
    const WrittenSlots slots =
        writePackGbxSlots(plan, cipher, options, out, dataStart, output, result);
    const std::uint64_t fileSize = dataStart + slots.dataEnd;
    PlainHeader header =
        packGbxPrivateHeader(plan, options, slots.rows, pub, privSize, dataStart, fileSize);
    Bytes head = pub;
    if (crypted) {
        std::uint64_t headerIv =
            encryptHeader(header.bytes, header.folderNames, header.folderListEnd,
                          Blowfish(headerKeyFor(hf, key), variant));
        ByteWriter hw(head);
        hw.u64(headerIv);
    }
    head.insert(head.end(), header.bytes.begin(), header.bytes.end());
    out.writeAt(0, head);
    // The file at its full size before the checksum's pass reads it back (the copies are
    // written in that pass; the byte is an empty pack's padding, or under a copy).
    if (out.size() < fileSize) out.writeAt(fileSize - 1, Bytes{0});
    writePackGbxChecksum(out, slots.copies, plan.base ? plan.base->file().get() : nullptr);
    result.bytesOut = out.size();
    result.files = plan.files.size();
    out.commit();
    return result;
}

// Version 3: every slot written from `dataOffset`, each with its row and metadata record.
// Slots copied from the base go file to file; consecutive ones (a commit that changes a few
// files of a large pak copies long runs) in one copy.
WrittenSlots writeV3Slots(const PackPlan& plan, const Blowfish& cipher, const PackOptions& options,
                          AtomicOutputFile& out, std::uint64_t dataOffset, const fs::path& output,
                          PackResult& result) {
    WrittenSlots written;
    written.rows.reserve(plan.files.size());
    std::uint64_t bytesDone = 0;
    const std::uint64_t bytesTotal = progressTotal(plan.files, options);
    CopyRuns runs(
        [&](const CopyRun& run) { out.copyFrom(*plan.base->file(), run.from, run.to, run.size); });
    auto copyRun = [&] { runs.flush(); };
    produceInOrder(
        plan, cipher, options, false, result,
        [&](std::size_t i, std::uint32_t size, EncodedEntry& encoded) {
            TableRow row{size,
                         encoded.compressedSize,
                         std::uint32_t(written.dataEnd),
                         encoded.classId,
                         encoded.flags,
                         encoded.unknown};
            if (encoded.compressed) ++result.compressed;
            if (!encoded.metadata.empty())
                written.metadata[std::uint32_t(i)] = std::move(encoded.metadata);
            const std::uint64_t slotSize =
                encoded.copied ? encoded.copied->size : encoded.blob.size();
            const std::uint64_t to = dataOffset + written.dataEnd;
            if (to + slotSize > 0xFFFFFFFFu)
                throw Error(output.string() + ": the pak would exceed 4 GiB, the format's limit");
            if (encoded.copied) {
                runs.add(encoded.copied->offset, to, slotSize);
            } else {
                out.writeAt(to, encoded.blob);
            }
            written.dataEnd += slotSize;
            written.rows.push_back(row);
            bytesDone += size;
            if (options.progress) options.progress(i + 1, plan.files.size(), bytesDone, bytesTotal);
        },
        copyRun);
    copyRun();
    return written;
}

// Where version 3's metadata section lies and its sizes, for the header.
struct MetadataSection {
    std::uint64_t offset = 0;
    std::uint32_t plainSize = 0, compressedSize = 0;
};

// Version 3: the metadata section (a zlib stream padded to whole segments, then encrypted)
// written at `offset`, and each row's record field as the game fills it: where the file's
// record lies in this section, or kNoMetadataRecord. Every entry's, copied ones too: the
// section is new.
MetadataSection writeMetadataSection(AtomicOutputFile& out, std::uint64_t offset,
                                     WrittenSlots& slots, const Blowfish& cipher,
                                     const fs::path& output) {
    Bytes metaPlain = writeMetadataRecords(slots.metadata);
    if (metaPlain.size() > 0xFFFFFFFFu)
        throw Error(output.string() + ": the metadata section would exceed 4 GiB");
    const auto recordAt = metadataRecordOffsets(slots.metadata);
    for (std::size_t i = 0; i < slots.rows.size(); ++i) {
        auto found = recordAt.find(std::uint32_t(i));
        slots.rows[i].unknown = found == recordAt.end() ? kNoMetadataRecord : found->second;
    }
    Bytes metaZ = zlibCompress(metaPlain, 9, output.string() + ": metadata");
    const std::uint32_t metaCompressedSize = std::uint32_t(metaZ.size());
    metaZ.resize((metaZ.size() + kSegmentSize - 1) / kSegmentSize * kSegmentSize, 0);
    const std::uint64_t metaIv = ivFor("metadata", metaPlain);
    encryptSegments(metaZ, metaIv, {}, cipher);
    if (offset + 8 + metaZ.size() > 0xFFFFFFFFu)
        throw Error(output.string() + ": the pak would exceed 4 GiB, the format's limit");
    Bytes metaBlob(8);
    storeLE64(metaBlob.data(), metaIv);
    metaBlob.insert(metaBlob.end(), metaZ.begin(), metaZ.end());
    out.writeAt(offset, metaBlob);
    return {offset, std::uint32_t(metaPlain.size()), metaCompressedSize};
}

// Version 3: the header in the clear, MD5 over it with the MD5 field zeroed.
PlainHeader v3Header(const PackPlan& plan, const std::vector<TableRow>& rows,
                     std::uint64_t headerSize, std::uint64_t dataOffset,
                     const MetadataSection& meta) {
    PlainHeader header;
    header.bytes.reserve(std::size_t(roundUp8(headerSize)));
    ByteWriter w(header.bytes);
    for (int i = 0; i < 16; ++i) w.u8(0);
    w.u32(std::uint32_t(meta.offset));
    w.u32(std::uint32_t(dataOffset));
    w.u32(meta.plainSize);
    w.u32(meta.compressedSize);
    for (int i = 0; i < 16; ++i) w.u8(0);
    w.u32(0);  // flags
    header.folderListEnd =
        writeTables(header.bytes, plan.folders, plan.files, rows, 3, header.folderNames);
    if (header.bytes.size() != headerSize) throw Error("internal error: header size mismatch");
    Md5Digest digest = md5(header.bytes);
    std::copy(digest.begin(), digest.end(), header.bytes.begin());
    header.bytes.resize(roundUp8(header.bytes.size()), 0);
    return header;
}

}  // namespace

void checkPackOutput(const fs::path& output) {
    std::error_code ec;
    if (fs::is_directory(output, ec))
        throw Error(output.string() + ": is a folder; give the pak file to write (e.g. " +
                    (output / "NAME.pak").string() + ")");
}

PackResult writePak(const fs::path& sourceDir, const fs::path& output, const PakKey& key,
                    const PackOptions& options) {
    if (options.version != 3 && (options.version < 6 || options.version > 18))
        throw Error("pack --version " + std::to_string(options.version) +
                    ": pakfs writes versions 3 and 6 to 18");
    checkPackOutput(output);
    // Held until the pak is in place: a second writer of `output` is refused meanwhile.
    const WriterLock lock = WriterLock::acquire(output, false);
    // A writable mount's changes are made over the pak it serves: replacing it under them
    // would have them refused (or lost) at their commit.
    for (const auto& mount : lock.servingMounts())
        throw Error(lock.target().string() + " is served by the writable mount at " + mount +
                    ", whose changes are made over it: unmount " + mount +
                    " first (fusermount3 -u " + shellWord(mount) + ")");
    PackOptions opts = options;
    // An earlier output in the tree is not packed again, nor its lock file.
    opts.leaveOut.push_back(output);
    opts.leaveOut.push_back(lockFileOf(lock.target()));
    const PackPlan plan = planFolder(sourceDir, key, opts);
    if (!opts.unplannableAdvice.empty()) return writePlan(plan, output, key, opts);
    opts.unplannableAdvice =
        "To go on: store them with --raw GLOB (the game will not read them right), write a "
        "version 6+ pack with --version N (6 to 18), where they are flagged DontUseDummyWrite "
        "(node reads do not mix the cipher), which the game reads right, or remove them from " +
        sourceDir.string() + ".";
    return writePlan(plan, output, key, opts);
}

PackResult writePlan(const PackPlan& plan, const fs::path& output, const PakKey& key,
                     const PackOptions& options) {
    if (options.version != 3 && (options.version < 6 || options.version > 18))
        throw Error("pack --version " + std::to_string(options.version) +
                    ": pakfs writes versions 3 and 6 to 18");
    if (plan.folders.size() > 0x7FFFFFFF || plan.files.size() > 0x7FFFFFFF)
        throw Error(output.string() + ": too many files for a pak");
    if (options.version >= 6) return writePackGbx(plan, output, key, options);

    Blowfish cipher(key);
    PackResult result;
    result.folders = plan.folders.size();
    // The header's size depends only on names, so data can be written right after it.
    const std::uint64_t headerSize = 16 + 4 * 4 + 16 + 4 + tablesSize(plan.folders, plan.files, 3);
    const std::uint64_t dataOffset = 0x14 + roundUp8(headerSize);
    if (dataOffset > 0xFFFFFFFFu) throw Error(output.string() + ": header too large");

    AtomicOutputFile out(output);
    WrittenSlots slots = writeV3Slots(plan, cipher, options, out, dataOffset, output, result);
    const MetadataSection meta =
        writeMetadataSection(out, dataOffset + slots.dataEnd, slots, cipher, output);
    PlainHeader header = v3Header(plan, slots.rows, headerSize, dataOffset, meta);
    std::uint64_t headerIv =
        encryptHeader(header.bytes, header.folderNames, header.folderListEnd, cipher);
    Bytes start = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k'};
    ByteWriter sw(start);
    sw.u32(3);
    sw.u64(headerIv);
    out.writeAt(0, start);
    out.writeAt(start.size(), header.bytes);  // not copied behind `start`: it can be megabytes
    result.bytesOut = out.size();
    result.files = plan.files.size();
    out.commit();
    return result;
}

}  // namespace pakfs::archive
