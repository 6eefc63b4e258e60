// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/write/PakWriter.hpp"

#include <crypto++/sha.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "archive/codec/Streams.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/Metadata.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PackPlanner.hpp"
#include "common/Cpus.hpp"
#include "common/File.hpp"
#include "common/FileLock.hpp"

namespace fs = std::filesystem;

namespace pakfs::archive {

namespace {

Bytes readWholeFile(const fs::path& path) {
    // A FIFO or device put where the plan saw a file is refused, not waited on.
    struct stat st {};
    const int fd = openRegularForReading(path, st);
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    // The size is checked before anything is allocated; a file that grows while it is read
    // is read as far as it goes, still within the limit.
    constexpr std::uint64_t kLimit = 0xFFFFFFFFu;
    if (std::uint64_t(st.st_size) > kLimit)
        throw Error(path.string() + ": too large for a pak (4 GiB)");
    Bytes data(std::size_t(st.st_size) + 1);  // one more byte: a file that grew shows it
    std::size_t got = 0;
    for (;;) {
        if (got == data.size()) {
            if (data.size() > kLimit) throw Error(path.string() + ": too large for a pak (4 GiB)");
            data.resize(std::min<std::uint64_t>(kLimit + 1, data.size() * 2));
        }
        const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(path.string() + ": read error");
        if (n == 0) break;
        got += std::size_t(n);
    }
    data.resize(got);
    return data;
}

// The bytes a planned file will hold (for progress).
std::uint64_t plannedSize(const PlanFile& f, std::error_code& ec) {
    return f.copy ? f.copy->uncompressedSize : fs::file_size(f.disk, ec);
}

// The encrypted slot of a base entry as it is: its IV and data (never decoded), with its file
// table fields and (version 3) its metadata record. With `bytes`, the slot's bytes are read into
// the entry's blob; else the entry says where they are, for a copy file to file.
EncodedEntry copiedEntry(const PakIndex& base, const PakEntry& b, bool bytes) {
    EncodedEntry encoded;
    const std::uint64_t size = b.ivSize() + b.cipherSize();
    if (bytes)
        encoded.blob = base.file()->readAt(base.entryOffset(b), std::size_t(size));
    else
        encoded.copied = CopiedSlot{base.entryOffset(b), size};
    encoded.compressedSize = b.compressedSize;
    encoded.flags = b.flags;
    encoded.classId = b.classId;
    encoded.unknown = b.unknown;
    encoded.compressed = b.compressed();
    if (auto m = base.metadata().find(b.index); m != base.metadata().end())
        encoded.metadata = m->second;
    return encoded;
}

// One planned file's slot and table fields, copied or encoded; `size` gets its decoded size.
// `slotBytes`: a copied slot comes with its bytes (else with where they are in the base).
// `checkOnly` (a gbx file was refused, so nothing more is written): files that cannot be
// refused are not encoded.
EncodedEntry produceEntry(const PackPlan& plan, const PlanFile& f, const Blowfish& cipher,
                          const PackOptions& options, bool slotBytes, std::uint32_t& size,
                          PackResult& result, const std::atomic<bool>& checkOnly) {
    if (f.copy) {
        size = f.copy->uncompressedSize;
        result.bytesIn += size;
        ++result.copiedFromBase;
        EncodedEntry e = copiedEntry(*plan.base, *f.copy, slotBytes);
        // Under a new name (a renamed file), the name is stored as given, not as a hash.
        if (plan.base->version() >= 6 && f.name != f.copy->name) e.flags &= ~kFlagHashedName;
        return e;
    }
    Bytes content = readWholeFile(f.disk);
    size = std::uint32_t(content.size());
    result.bytesIn += content.size();
    if (checkOnly && !(content.size() >= 3 && std::memcmp(content.data(), "GBX", 3) == 0))
        return {};
    if (f.baseCandidate && f.baseCandidate->uncompressedSize == content.size() &&
        entryDecodesTo(plan.base, *f.baseCandidate, content)) {
        ++result.copiedFromBase;
        return copiedEntry(*plan.base, *f.baseCandidate, slotBytes);
    }
    EncodedEntry e = encodeEntry(content, f.packPath, f.name, cipher, options);
    const PakEntry* replaces = f.was ? f.was : f.baseCandidate;
    if (replaces) {
        const PakEntry& was = *replaces;
        const std::uint32_t wasVersion = f.was ? f.wasVersion : plan.base->version();
        const bool gbx = content.size() >= 3 && std::memcmp(content.data(), "GBX", 3) == 0;
        // A gbx file's header names its class; any other file's class is the table's alone
        // (an edited shader keeps CPlugFileVsh, not the class its extension would give).
        if (!gbx || e.classId == 0) {
            e.classId = was.classId;
        } else if (e.classId != was.classId && options.warn) {
            char ids[40];
            std::snprintf(ids, sizeof ids, "%08X to %08X", was.classId, e.classId);
            options.warn(f.packPath + ": class ID changes from " + ids +
                         " (the new content is a gbx file of that class)");
        }
        if ((wasVersion >= 6) == (options.version >= 6)) {
            const std::uint64_t encoding = encodingFlagBits(options.version);
            e.flags = (was.flags & ~encoding) | (e.flags & encoding);
            e.unknown = was.unknown;  // version 3 writes it anew (writePlan)
        }
        // Whatever the entry it replaces had, a file encoded for version 3 has the bit the
        // game sets on every file.
        if (options.version < 6) e.flags |= kFlagV3Game;
    }
    return e;
}

// Every gbx file a version 3 pak cannot plan, each with its reason, and how to go on.
Error unplannableError(const std::vector<UnplannableGbx>& refused, const PackOptions& options) {
    std::string m = std::to_string(refused.size()) + " gbx file" +
                    (refused.size() == 1 ? "" : "s") +
                    " cannot be planned for a version 3 pak, so nothing was written:";
    for (const auto& u : refused) m += "\n  " + u.packPath() + ": " + u.reason();
    m += "\n" + (options.unplannableAdvice.empty() ? std::string(kUnplannableAdvice)
                                                   : options.unplannableAdvice);
    return Error(m);
}

// Produces every planned file's slot on options.jobs threads and hands them to `consume` in
// plan order, on this thread: the output is the same for any number of threads. Entries in
// flight are bounded in number and bytes, so memory does not grow with the tree; the window is
// wide so that a large file being encoded does not leave the other threads idle. Slots copied
// from the base are produced on this thread (they cost a table lookup, or one read), so a
// commit that changes a few files does not pass every other entry through the workers.
// Warnings are given in plan order too.
// A gbx file whose cipher cannot be planned does not stop it: from the first one on nothing is
// handed to `consume`, every other file is still planned, and the error at the end lists them
// all (so one run names every file to deal with, and each file is planned once).
void produceInOrder(const PackPlan& plan, const Blowfish& cipher, const PackOptions& options,
                    bool slotBytes, PackResult& result,
                    const std::function<void(std::size_t, std::uint32_t, EncodedEntry&)>& consume) {
    const std::size_t n = plan.files.size();
    unsigned jobs = options.jobs > 0 ? unsigned(options.jobs) : unsigned(availableCpus());
    std::vector<UnplannableGbx> refused;
    std::atomic<bool> checkOnly = false;
    auto refuse = [&](const UnplannableGbx& u) {
        refused.push_back(u);
        checkOnly = true;
    };
    auto produceHere = [&](std::size_t i) {
        std::uint32_t size = 0;
        EncodedEntry e;
        try {
            e = produceEntry(plan, plan.files[i], cipher, options, slotBytes, size, result,
                             checkOnly);
        } catch (const UnplannableGbx& u) {
            refuse(u);
        }
        if (!checkOnly) consume(i, size, e);
    };
    if (jobs == 1 || n < 2) {
        for (std::size_t i = 0; i < n; ++i) produceHere(i);
        if (!refused.empty()) throw unplannableError(refused, options);
        return;
    }
    struct Done {
        bool ready = false;
        std::uint32_t size = 0;
        EncodedEntry entry;
        PackResult counts;
        std::vector<std::string> warnings;
        std::exception_ptr error;
        std::uint64_t bytes = 0;
    };
    const std::size_t window = 64 * std::size_t(jobs);
    constexpr std::uint64_t kBytesInFlight = 128ull << 20;
    std::vector<Done> ring(window);
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t nextTask = 0, nextOut = 0;
    std::uint64_t inFlight = 0;
    bool stop = false;
    auto sizeOf = [&](std::size_t i) {
        std::error_code ec;
        return plannedSize(plan.files[i], ec);
    };
    auto work = [&] {
        for (;;) {
            std::size_t i;
            std::uint64_t bytes;
            {
                std::unique_lock lock(mutex);
                std::optional<std::uint64_t> nextBytes;  // the next task's size, asked once
                changed.wait(lock, [&] {
                    while (nextTask < n && plan.files[nextTask].copy) ++nextTask;
                    if (stop || nextTask >= n) return true;
                    if (nextTask >= nextOut + window) return false;
                    if (!nextBytes) nextBytes = sizeOf(nextTask);
                    return inFlight == 0 || inFlight + *nextBytes <= kBytesInFlight;
                });
                if (stop || nextTask >= n) return;
                i = nextTask++;
                bytes = nextBytes ? *nextBytes : sizeOf(i);
                inFlight += bytes;
            }
            Done d;
            d.bytes = bytes;
            PackOptions taskOptions = options;
            taskOptions.warn = [&d](const std::string& m) { d.warnings.push_back(m); };
            try {
                d.entry = produceEntry(plan, plan.files[i], cipher, taskOptions, slotBytes, d.size,
                                       d.counts, checkOnly);
            } catch (...) {
                d.error = std::current_exception();
            }
            d.ready = true;
            std::lock_guard lock(mutex);
            ring[i % window] = std::move(d);
            changed.notify_all();
        }
    };
    std::vector<std::jthread> workers;
    struct Stop {
        std::mutex& mutex;
        std::condition_variable& changed;
        bool& stop;
        ~Stop() {
            std::lock_guard lock(mutex);
            stop = true;
            changed.notify_all();
        }
    };
    for (unsigned t = 0; t < jobs; ++t) workers.emplace_back(work);
    Stop stopper{mutex, changed, stop};  // destroyed before the workers: they see stop, then join
    std::size_t copiedRun = 0;           // copies made here since the window last moved
    for (std::size_t i = 0; i < n; ++i) {
        if (plan.files[i].copy) {
            produceHere(i);
            // The window moves on every 64 copies and at the end of a run of them: the
            // workers wake a few times in a long run, not once a copy.
            if (++copiedRun == 64 || i + 1 == n || !plan.files[i + 1].copy) {
                std::lock_guard lock(mutex);
                nextOut += copiedRun;
                copiedRun = 0;
                changed.notify_all();
            }
            continue;
        }
        Done d;
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return ring[i % window].ready; });
            d = std::move(ring[i % window]);
            ring[i % window] = Done();
            ++nextOut;
            inFlight -= d.bytes;
            changed.notify_all();
        }
        if (options.warn)
            for (const auto& w : d.warnings) options.warn(w);
        if (d.error) {
            try {
                std::rethrow_exception(d.error);
            } catch (const UnplannableGbx& u) {
                refuse(u);
            }
        }
        if (checkOnly) continue;
        result.bytesIn += d.counts.bytesIn;
        result.copiedFromBase += d.counts.copiedFromBase;
        consume(i, d.size, d.entry);
    }
    if (!refused.empty()) throw unplannableError(refused, options);
}

}  // namespace

namespace {

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
        w.string("");       // usage subdir
        w.string("pakfs");  // creation build info
        w.bytes(unused);
        if (version >= 10) w.u32(0);  // included packs
    }
    return out;
}

namespace {

PackResult writePackGbx(const PackPlan& plan, const fs::path& output, const PakKey& key,
                        const PackOptions& options) {
    const auto& folders = plan.folders;
    const auto& files = plan.files;
    const std::uint32_t version = options.version;
    const CipherVariant variant = CipherVariant::forPakVersion(version);
    Blowfish cipher(key, variant);
    PackResult result;
    result.folders = folders.size();
    const std::uint32_t hf = options.header.headerFlags;
    const bool crypted = (hf & (kHeaderPrivate | kHeaderDefaultKey)) != 0;

    // Sizes first: the public header, then the private one (its size depends only on names).
    Bytes pub = packGbxPublicHeader(version, options.header, 0);
    std::uint64_t privSize =
        16 + 4 + (version < 15 ? 4 : 0) + 4 + 4 +
        (version >= 14 ? 16 + (version >= 16 ? 4 : 0) : 0) + 16 +
        (version == 6 ? 4 + 4 * 4 + options.header.authorLogin.size() +
                            options.header.authorNick.size() + options.header.authorZone.size()
                      : 0) +
        4 + tablesSize(folders, files, version);
    const std::uint64_t headerEnd = pub.size() + (crypted ? 8 : 0) + roundUp8(privSize);
    // Where file data starts (v15+: the header's max size): the header rounded up to 4 KiB.
    const std::uint64_t dataStart = (headerEnd + 0xFFF) & ~std::uint64_t(0xFFF);
    if (dataStart > 0xFFFFFFFFu) throw Error(output.string() + ": header too large");
    pub = packGbxPublicHeader(version, options.header, std::uint32_t(dataStart));

    AtomicOutputFile out(output);
    std::vector<TableRow> rows;
    rows.reserve(files.size());
    std::uint64_t dataPos = 0, bytesDone = 0, bytesTotal = 0;
    if (options.progress) {
        std::error_code ec;
        for (const auto& f : files) bytesTotal += plannedSize(f, ec);
    }
    // Slots need their bytes here: each one's MD5 goes into the file table.
    produceInOrder(
        plan, cipher, options, true, result,
        [&](std::size_t i, std::uint32_t size, EncodedEntry& encoded) {
            if (encoded.compressed) ++result.compressed;
            // A slot: the IV, the bytes, zero padding to a multiple of 64.
            Bytes slot = std::move(encoded.blob);
            slot.resize((slot.size() + 63) & ~std::size_t(63), 0);
            if (dataStart + dataPos + slot.size() > 0xFFFFFFFFu)
                throw Error(output.string() + ": the pak would exceed 4 GiB, the format's limit");
            rows.push_back({size, encoded.compressedSize, std::uint32_t(dataPos), encoded.classId,
                            encoded.flags, encoded.unknown, std::uint32_t(slot.size()), md5(slot)});
            out.writeAt(dataStart + dataPos, slot);
            dataPos += slot.size();
            bytesDone += size;
            if (options.progress) options.progress(i + 1, files.size(), bytesDone, bytesTotal);
        });
    // No gbx headers section is written (the reader does not need one): it starts and ends at
    // the end of the file, so its v14+ MD5 is that of no bytes.
    const std::uint64_t gbxHeadersStart = dataStart + dataPos;
    const std::uint64_t fileSize = gbxHeadersStart;

    Bytes header;
    header.reserve(std::size_t(roundUp8(privSize)));
    ByteWriter w(header);
    for (int i = 0; i < 16; ++i) w.u8(0);
    w.u32(std::uint32_t(gbxHeadersStart));
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
    std::vector<std::string> folderNames;
    const std::uint64_t folderListEnd =
        writeTables(header, folders, files, rows, version, folderNames);
    if (header.size() != privSize) throw Error("internal error: header size mismatch");
    // Header MD5: the public header after its fixed fields, then this header with the MD5
    // zeroed (the rule the game checks on version 18; assumed for the others).
    const std::size_t fixedEnd = version >= 15 ? 52 : 48;
    Bytes hashed(pub.begin() + std::ptrdiff_t(fixedEnd), pub.end());
    hashed.insert(hashed.end(), header.begin(), header.end());
    Md5Digest digest = md5(hashed);
    std::copy(digest.begin(), digest.end(), header.begin());
    header.resize(roundUp8(header.size()), 0);
    Bytes head = pub;
    if (crypted) {
        std::uint64_t headerIv = encryptHeader(header, folderNames, folderListEnd,
                                               Blowfish(headerKeyFor(hf, key), variant));
        ByteWriter hw(head);
        hw.u64(headerIv);
    }
    head.insert(head.end(), header.begin(), header.end());
    out.writeAt(0, head);
    if (out.size() < fileSize) out.writeAt(fileSize - 1, Bytes{0});  // an empty pack's padding
    // Last: SHA-256 of everything after the checksum field.
    CryptoPP::SHA256 sha;
    Bytes buf(1 << 20);
    for (std::uint64_t at = 44; at < out.size();) {
        std::size_t n = std::size_t(std::min<std::uint64_t>(buf.size(), out.size() - at));
        out.readAt(at, buf.data(), n);
        sha.Update(buf.data(), n);
        at += n;
    }
    std::uint8_t checksum[32];
    sha.Final(checksum);
    out.writeAt(12, ByteSpan(checksum, 32));
    result.bytesOut = out.size();
    result.files = files.size();
    out.commit();
    return result;
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
    if (options.warn)
        for (const auto& mount : lock.servingMounts())
            options.warn(lock.target().string() + " is served by the writable mount at " + mount +
                         ": it keeps showing the old pak until it is mounted again");
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
    const auto& folders = plan.folders;
    const auto& files = plan.files;
    if (folders.size() > 0x7FFFFFFF || files.size() > 0x7FFFFFFF)
        throw Error(output.string() + ": too many files for a pak");
    if (options.version >= 6) return writePackGbx(plan, output, key, options);

    Blowfish cipher(key);
    PackResult result;
    result.folders = folders.size();

    // The header's size depends only on names, so data can be written right after it.
    const std::uint64_t headerSize = 16 + 4 * 4 + 16 + 4 + tablesSize(folders, files, 3);
    const std::uint64_t dataOffset = 0x14 + roundUp8(headerSize);
    if (dataOffset > 0xFFFFFFFFu) throw Error(output.string() + ": header too large");

    AtomicOutputFile out(output);
    std::vector<TableRow> rows;
    rows.reserve(files.size());
    std::map<std::uint32_t, Bytes> metadata;
    std::uint64_t dataPos = 0;
    std::uint64_t bytesDone = 0, bytesTotal = 0;
    if (options.progress) {
        std::error_code ec;
        for (const auto& f : files) bytesTotal += plannedSize(f, ec);
    }
    // Slots copied from the base go file to file; consecutive ones (a commit that changes a
    // few files of a large pack copies long runs) in one copy.
    struct {
        std::uint64_t from = 0, to = 0, size = 0;
    } run;
    auto copyRun = [&] {
        if (run.size > 0) out.copyFrom(*plan.base->file(), run.from, run.to, run.size);
        run.size = 0;
    };
    produceInOrder(
        plan, cipher, options, false, result,
        [&](std::size_t i, std::uint32_t size, EncodedEntry& encoded) {
            TableRow row{
                size,          encoded.compressedSize, std::uint32_t(dataPos), encoded.classId,
                encoded.flags, encoded.unknown};
            if (encoded.compressed) ++result.compressed;
            if (!encoded.metadata.empty()) metadata[std::uint32_t(i)] = std::move(encoded.metadata);
            const std::uint64_t slotSize =
                encoded.copied ? encoded.copied->size : encoded.blob.size();
            if (dataOffset + dataPos + slotSize > 0xFFFFFFFFu)
                throw Error(output.string() + ": the pak would exceed 4 GiB, the format's limit");
            if (encoded.copied) {
                const std::uint64_t to = dataOffset + dataPos;
                if (run.size > 0 && run.from + run.size == encoded.copied->offset &&
                    run.to + run.size == to) {
                    run.size += slotSize;
                } else {
                    copyRun();
                    run = {encoded.copied->offset, to, slotSize};
                }
            } else {
                out.writeAt(dataOffset + dataPos, encoded.blob);
            }
            dataPos += slotSize;
            rows.push_back(row);
            bytesDone += size;
            if (options.progress) options.progress(i + 1, files.size(), bytesDone, bytesTotal);
        });

    copyRun();

    // Metadata section: zlib stream padded to whole segments, then encrypted.
    Bytes metaPlain = writeMetadataRecords(metadata);
    if (metaPlain.size() > 0xFFFFFFFFu)
        throw Error(output.string() + ": the metadata section would exceed 4 GiB");
    // The field after each file's name, as the game fills it: where the file's record lies in
    // this section, or kNoMetadataRecord. Every entry's, copied ones too: the section is new.
    const auto recordAt = metadataRecordOffsets(metadata);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto found = recordAt.find(std::uint32_t(i));
        rows[i].unknown = found == recordAt.end() ? kNoMetadataRecord : found->second;
    }
    Bytes metaZ = zlibCompress(metaPlain, 9, output.string() + ": metadata");
    std::uint32_t metaCompressedSize = std::uint32_t(metaZ.size());
    metaZ.resize((metaZ.size() + kSegmentSize - 1) / kSegmentSize * kSegmentSize, 0);
    const std::uint64_t metaIv = ivFor("metadata", metaPlain);
    encryptSegments(metaZ, metaIv, {}, cipher);
    const std::uint64_t metaOffset = dataOffset + dataPos;
    if (metaOffset + 8 + metaZ.size() > 0xFFFFFFFFu)
        throw Error(output.string() + ": the pak would exceed 4 GiB, the format's limit");
    Bytes metaBlob(8);
    storeLE64(metaBlob.data(), metaIv);
    metaBlob.insert(metaBlob.end(), metaZ.begin(), metaZ.end());
    out.writeAt(metaOffset, metaBlob);

    // Header plaintext, MD5 over it with the MD5 field zeroed, then encryption.
    Bytes header;
    header.reserve(std::size_t(roundUp8(headerSize)));
    ByteWriter w(header);
    for (int i = 0; i < 16; ++i) w.u8(0);
    w.u32(std::uint32_t(metaOffset));
    w.u32(std::uint32_t(dataOffset));
    w.u32(std::uint32_t(metaPlain.size()));
    w.u32(metaCompressedSize);
    for (int i = 0; i < 16; ++i) w.u8(0);
    w.u32(0);  // flags
    std::vector<std::string> folderNames;
    const std::uint64_t folderListEnd = writeTables(header, folders, files, rows, 3, folderNames);
    if (header.size() != headerSize) throw Error("internal error: header size mismatch");
    Md5Digest digest = md5(header);
    std::copy(digest.begin(), digest.end(), header.begin());
    header.resize(roundUp8(header.size()), 0);

    std::uint64_t headerIv = encryptHeader(header, folderNames, folderListEnd, cipher);
    Bytes start = {'N', 'a', 'd', 'e', 'o', 'P', 'a', 'k'};
    ByteWriter sw(start);
    sw.u32(3);
    sw.u64(headerIv);
    out.writeAt(0, start);
    out.writeAt(start.size(), header);  // not copied behind `start`: it can be megabytes
    result.bytesOut = out.size();
    result.files = files.size();
    out.commit();
    return result;
}

}  // namespace pakfs::archive
