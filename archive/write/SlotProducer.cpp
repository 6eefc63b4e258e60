// SPDX-License-Identifier: GPL-2.0-or-later
// Every planned file's slot, copied from the base or encoded, produced on worker threads and
// handed over in plan order.
#include "archive/write/SlotProducer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "common/Cpus.hpp"
#include "common/File.hpp"

namespace fs = std::filesystem;

namespace pakfs::archive {

// The bytes a planned file will hold (for progress).
std::uint64_t plannedSize(const PlanFile& f, std::error_code& ec) {
    return f.copy ? f.copy->uncompressedSize : fs::file_size(f.disk, ec);
}

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

// The encrypted slot of a base entry as it is: its IV and data (never decoded), with its file
// table fields and (version 3) its metadata record. With `bytes`, the slot's bytes are read into
// the entry's blob; else the entry says where they are, for a copy file to file.
EncodedEntry copiedEntry(const PakIndex& base, const PakEntry& b, bool bytes) {
    EncodedEntry encoded;
    const std::uint64_t size = b.ivSize() + b.cipherSize();
    if (bytes) {
        encoded.blob = base.file()->readAt(base.entryOffset(b), std::size_t(size));
    } else {
        encoded.copied = CopiedSlot{base.entryOffset(b), size, std::nullopt};
        // The base's slot MD5 covers its IV, data and padding to a multiple of 64 (its slot
        // size from version 17): when that is the slot the writer lays out, and the MD5 is the
        // one its writer sealed (the contents checksum, or the header MD5, showed it), the copy
        // keeps it: the same bytes, so damage in them fails it in the copy as in the base.
        const std::uint64_t padded = (size + 63) & ~std::uint64_t(63);
        const std::uint64_t fileSize = base.file()->size();
        if (b.slotMd5 && base.slotMd5sSealed() && (!b.slotSize || *b.slotSize == padded) &&
            base.entryOffset(b) <= fileSize && padded <= fileSize - base.entryOffset(b))
            encoded.copied->md5 = *b.slotMd5;
    }
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
        if (plan.base->version() >= 6 && f.name != f.copy->name)
            e.flags = (e.flags & ~kFlagHashedName) | kFlagPublished;
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

// One planned file produced on a worker thread, waiting for its turn in plan order: its slot,
// the counts and warnings it made, or the error it threw.
struct Produced {
    bool ready = false;
    std::uint32_t size = 0;
    EncodedEntry entry;
    PackResult counts;
    std::vector<std::string> warnings;
    std::exception_ptr error;
    std::uint64_t bytes = 0;  // its planned size, counted in flight until it is taken
};

// The files produceInOrder encodes on worker threads: a window of them in flight, bounded in
// number and bytes, taken back in plan order. Files copied from the base are skipped here (the
// caller produces them) and only move the window on. Destroying it stops the workers.
class EncodeWindow {
public:
    EncodeWindow(const PackPlan& plan, const Blowfish& cipher, const PackOptions& options,
                 bool slotBytes, const std::atomic<bool>& checkOnly, unsigned jobs);
    ~EncodeWindow();
    EncodeWindow(const EncodeWindow&) = delete;
    EncodeWindow& operator=(const EncodeWindow&) = delete;

    // Waits for file `i` (the next one not copied) and takes it out of the window.
    Produced take(std::size_t i);
    // `count` files copied by the caller: the window moves past them.
    void passCopies(std::size_t count);

private:
    void work();
    // Under mutex_: whether a worker may start the next file (or must stop); asks its size once.
    bool mayStart(std::optional<std::uint64_t>& nextBytes);
    std::uint64_t sizeOf(std::size_t i) const;

    static constexpr std::uint64_t kBytesInFlight = 128ull << 20;
    const PackPlan& plan_;
    const Blowfish& cipher_;
    const PackOptions& options_;
    const bool slotBytes_;
    const std::atomic<bool>& checkOnly_;
    const std::size_t n_;
    const std::size_t window_;
    std::vector<Produced> ring_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t nextTask_ = 0, nextOut_ = 0;
    std::uint64_t inFlight_ = 0;
    bool stop_ = false;
    std::vector<std::jthread> workers_;  // last: joined before the members they use go
};

EncodeWindow::EncodeWindow(const PackPlan& plan, const Blowfish& cipher, const PackOptions& options,
                           bool slotBytes, const std::atomic<bool>& checkOnly, unsigned jobs)
    : plan_(plan),
      cipher_(cipher),
      options_(options),
      slotBytes_(slotBytes),
      checkOnly_(checkOnly),
      n_(plan.files.size()),
      window_(64 * std::size_t(jobs)),
      ring_(window_) {
    for (unsigned t = 0; t < jobs; ++t) workers_.emplace_back([this] { work(); });
}

EncodeWindow::~EncodeWindow() {
    // The workers see stop_, then join (workers_ goes first).
    std::lock_guard lock(mutex_);
    stop_ = true;
    changed_.notify_all();
}

std::uint64_t EncodeWindow::sizeOf(std::size_t i) const {
    std::error_code ec;
    return plannedSize(plan_.files[i], ec);
}

bool EncodeWindow::mayStart(std::optional<std::uint64_t>& nextBytes) {
    while (nextTask_ < n_ && plan_.files[nextTask_].copy) ++nextTask_;
    if (stop_ || nextTask_ >= n_) return true;
    if (nextTask_ >= nextOut_ + window_) return false;
    if (!nextBytes) nextBytes = sizeOf(nextTask_);
    return inFlight_ == 0 || inFlight_ + *nextBytes <= kBytesInFlight;
}

void EncodeWindow::work() {
    for (;;) {
        std::size_t i;
        std::uint64_t bytes;
        {
            std::unique_lock lock(mutex_);
            std::optional<std::uint64_t> nextBytes;  // the next task's size, asked once
            changed_.wait(lock, [&] { return mayStart(nextBytes); });
            if (stop_ || nextTask_ >= n_) return;
            i = nextTask_++;
            bytes = nextBytes ? *nextBytes : sizeOf(i);
            inFlight_ += bytes;
        }
        Produced d;
        d.bytes = bytes;
        PackOptions taskOptions = options_;
        taskOptions.warn = [&d](const std::string& m) { d.warnings.push_back(m); };
        try {
            d.entry = produceEntry(plan_, plan_.files[i], cipher_, taskOptions, slotBytes_, d.size,
                                   d.counts, checkOnly_);
        } catch (...) {
            d.error = std::current_exception();
        }
        d.ready = true;
        std::lock_guard lock(mutex_);
        ring_[i % window_] = std::move(d);
        changed_.notify_all();
    }
}

Produced EncodeWindow::take(std::size_t i) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return ring_[i % window_].ready; });
    Produced d = std::move(ring_[i % window_]);
    ring_[i % window_] = Produced();
    ++nextOut_;
    inFlight_ -= d.bytes;
    changed_.notify_all();
    return d;
}

void EncodeWindow::passCopies(std::size_t count) {
    std::lock_guard lock(mutex_);
    nextOut_ += count;
    changed_.notify_all();
}

}  // namespace

// Produces every planned file's slot on options.jobs threads and hands them to `consume` in
// plan order, on this thread: the output is the same for any number of threads. Entries in
// flight are bounded in number and bytes (EncodeWindow), so memory does not grow with the tree;
// the window is wide so that a large file being encoded does not leave the other threads idle.
// Slots copied from the base are produced on this thread (they cost a table lookup, or one
// read), so a commit that changes a few files does not pass every other entry through the
// workers. Warnings are given in plan order too.
// A gbx file whose cipher cannot be planned does not stop it: from the first one on nothing is
// handed to `consume`, every other file is still planned, and the error at the end lists them
// all (so one run names every file to deal with, and each file is planned once).
void produceInOrder(const PackPlan& plan, const Blowfish& cipher, const PackOptions& options,
                    bool slotBytes, PackResult& result,
                    const std::function<void(std::size_t, std::uint32_t, EncodedEntry&)>& consume,
                    const std::function<void()>& beforeWait) {
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
    EncodeWindow window(plan, cipher, options, slotBytes, checkOnly, jobs);
    std::size_t copiedRun = 0;  // copies made here since the window last moved
    for (std::size_t i = 0; i < n; ++i) {
        if (plan.files[i].copy) {
            produceHere(i);
            // The window moves on every 64 copies and at the end of a run of them: the
            // workers wake a few times in a long run, not once a copy.
            if (++copiedRun == 64 || i + 1 == n || !plan.files[i + 1].copy) {
                window.passCopies(copiedRun);
                copiedRun = 0;
            }
            continue;
        }
        if (beforeWait && !checkOnly) beforeWait();
        Produced d = window.take(i);
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

}  // namespace pakfs::archive
