// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/entry/Extract.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "common/Interrupt.hpp"
#include "common/Progress.hpp"

namespace pakfs::archive {

namespace {

class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Fd& operator=(Fd&& o) noexcept {
        std::swap(fd_, o.fd_);
        return *this;
    }
    int get() const { return fd_; }

private:
    int fd_;
};

std::string errnoText() {
    return std::strerror(errno);
}

// A failure of the target itself (full disk, quota, read-only, I/O error): every further file
// would fail the same way, so the run stops at the first.
class TargetError : public Error {
public:
    using Error::Error;
};

// A file that is already there and is kept (ExtractOptions::overwrite is off).
class KeptError : public Error {
public:
    using Error::Error;
};

bool targetFailed(int err) {
    return err == ENOSPC || err == EDQUOT || err == EROFS || err == EIO || err == EMFILE ||
           err == ENFILE;
}

// An output error: TargetError when the target itself failed, else Error for this file.
[[noreturn]] void outputFailed(const std::string& what) {
    const int err = errno;
    const std::string message = what + ": " + std::strerror(err);
    if (targetFailed(err)) throw TargetError(message);
    throw Error(message);
}

// Removes an unfinished file if SIGINT/SIGTERM comes while it is written.
class UnfinishedGuard {
public:
    UnfinishedGuard() = default;
    void set(int dirFd, const std::string& name, const std::string& what) {
        unregisterUnfinished(ticket_);
        ticket_ = registerUnfinished(dirFd, name, what);
    }
    ~UnfinishedGuard() { unregisterUnfinished(ticket_); }
    UnfinishedGuard(const UnfinishedGuard&) = delete;
    UnfinishedGuard& operator=(const UnfinishedGuard&) = delete;

private:
    int ticket_ = -1;
};

// Opens (creating as needed) the folder for `parts[0..n-1]` under root, never following links.
Fd openParentDir(int rootFd, const std::vector<std::string>& parts, const std::string& where) {
    Fd dir(::dup(rootFd));
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (::mkdirat(dir.get(), parts[i].c_str(), 0755) != 0 && errno != EEXIST)
            outputFailed(where + ": cannot create folder \"" + parts[i] + "\"");
        int next =
            ::openat(dir.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            throw Error(where + ": cannot open folder \"" + parts[i] +
                        "\" (a file or link is in the way): " + errnoText());
        dir = Fd(next);
    }
    return dir;
}

mode_t fileMode() {
    static const mode_t mode = [] {
        mode_t mask = ::umask(022);
        ::umask(mask);
        return mode_t(0666 & ~mask);
    }();
    return mode;
}

// The parent folder of the last file a thread wrote: files come folder by folder, so this
// saves the mkdirat/openat walk (about eight system calls) for most files.
struct ParentCache {
    std::vector<std::string> parts;  // folder components, without the file name
    Fd dir;
};

int parentDir(int rootFd, const std::vector<std::string>& parts, const std::string& where,
              ParentCache& cache) {
    if (cache.dir.get() >= 0 && cache.parts.size() + 1 == parts.size() &&
        std::equal(cache.parts.begin(), cache.parts.end(), parts.begin()))
        return cache.dir.get();
    cache.dir = Fd();
    cache.dir = openParentDir(rootFd, parts, where);
    cache.parts.assign(parts.begin(), parts.end() - 1);
    return cache.dir.get();
}

// Writes all of `n` bytes to `fd`.
void writeAll(int fd, const std::uint8_t* p, std::size_t n, const std::string& where) {
    while (n > 0) {
        ssize_t put = ::write(fd, p, n);
        if (put < 0) {
            if (errno == EINTR) continue;
            outputFailed(where + ": write error");
        }
        p += put;
        n -= std::size_t(put);
    }
}

// Writes one entry's file into its folder. A file is written unnamed (O_TMPFILE) and given its
// name once complete (linkat), so neither an error nor a killed run (kill -9 included) ever
// leaves a partial file under a name, and no temporary name is left behind either. Replacing a
// file (--overwrite), the complete file is linked under a temporary name and renamed over it.
// Where the file system has no O_TMPFILE: a whole entry is created under its own name (O_EXCL:
// never writing through a link), removed on error or SIGINT/SIGTERM; a streamed one goes to a
// temporary file renamed into place.
// Without --overwrite a file already there is kept: known before decoding, and made sure of by
// O_EXCL, linkat or a rename that does not replace.
class EntryWriter {
public:
    EntryWriter(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e, int dir,
                const std::string& name, const std::string& where, const ExtractOptions& options)
        : pak_(pak),
          e_(e),
          dir_(dir),
          name_(name.c_str()),
          where_(where),
          options_(options),
          target_(options.targetName + "/" + e.path) {
        replacing_ = inTheWay();
        static const std::string pid = std::to_string(::getpid());  // one system call in all
        tempName_ = "." + name + ".pak-tmp-" + pid + "-" + std::to_string(e.index);
    }

    // Decodes the entry into the file and gives it its name; on error nothing is left behind.
    void write(std::mutex& lock) {
        try {
            readEntry(
                pak_, e_,
                [&](ByteSpan b) {
                    if (!created_) open(b.size() == e_.uncompressedSize);
                    writeAll(out_.get(), b.data(), b.size(), where_);
                },
                options_.gbx,
                [&](const std::string& w) {
                    std::lock_guard<std::mutex> g(lock);
                    if (options_.warn) options_.warn(w);
                });
            if (!created_) open(true);  // an empty entry
            nameUnnamed();
            moveIntoPlace();
        } catch (...) {
            removeUnfinished();
            throw;
        }
    }

private:
    // What is in the way: a file is kept (unless --overwrite: then true); a folder or anything
    // else is this entry's error, as it always was.
    bool inTheWay() const {
        struct stat st;
        if (::fstatat(dir_, name_, &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
        if (!S_ISREG(st.st_mode))
            throw Error(where_ + ": cannot create file: " +
                        (S_ISDIR(st.st_mode) ? "a folder" : "something that is not a file") +
                        " of that name is in the way");
        if (!options_.overwrite) throw KeptError(target_);
        return true;
    }

    // Opens the output at the first bytes; `whole` when they are the entire entry.
    void open(bool whole) {
        if (openUnnamed()) return;
        if (whole && !replacing_ && openUnderName()) return;
        openTemporary();
    }

    // An O_TMPFILE file; false where the file system has none.
    bool openUnnamed() {
        static std::atomic<bool> tmpfileWorks{::access("/proc/self/fd", X_OK) == 0};
        if (!tmpfileWorks) return false;
        out_ = Fd(::openat(dir_, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, fileMode()));
        if (out_.get() >= 0) {
            created_ = unnamed_ = true;
            return true;
        }
        if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
            outputFailed(where_ + ": cannot create file");
        tmpfileWorks = false;  // this file system has none: names from now on
        return false;
    }

    // The file under its own name, removed if the run is stopped; false when a file of that
    // name was made meanwhile and is to be replaced.
    bool openUnderName() {
        out_ = Fd(::openat(dir_, name_, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                           fileMode()));
        if (out_.get() >= 0) {
            created_ = true;
            unfinished_.set(dir_, name_, target_ + " removed (unfinished)");
            return true;
        }
        if (errno != EEXIST) outputFailed(where_ + ": cannot create file");
        inTheWay();  // made meanwhile
        return false;
    }

    // The file under a temporary name, renamed into place once complete.
    void openTemporary() {
        tmpName_ = tempName_;
        out_ = Fd(::openat(dir_, tmpName_.c_str(),
                           O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, fileMode()));
        if (out_.get() < 0) {
            tmpName_.clear();
            outputFailed(where_ + ": cannot create file");
        }
        created_ = true;
        unfinished_.set(dir_, tmpName_,
                        target_ + " not written (its unfinished temporary file removed)");
    }

    // Gives the complete unnamed file `linkName`.
    bool link(const char* linkName) const {
        char self[64];
        std::snprintf(self, sizeof self, "/proc/self/fd/%d", out_.get());
        return ::linkat(AT_FDCWD, self, dir_, linkName, AT_SYMLINK_FOLLOW) == 0;
    }

    // Links a complete unnamed file: under its own name, or, replacing a file, under the
    // temporary name first, to go over the old file in one step.
    void nameUnnamed() {
        if (!unnamed_) return;
        if (!replacing_) {
            if (!link(name_)) {
                if (errno == EEXIST && inTheWay())  // made meanwhile
                    throw Error(where_ + ": a file of that name appeared while it was extracted");
                outputFailed(where_ + ": cannot give the file its name");
            }
            return;
        }
        ::unlinkat(dir_, tempName_.c_str(), 0);
        if (!link(tempName_.c_str())) outputFailed(where_ + ": cannot give the file a name");
        tmpName_ = tempName_;
        unfinished_.set(dir_, tmpName_,
                        target_ + " left as it was (its new temporary file removed)");
    }

    // Renames a file complete under its temporary name to its own name.
    void moveIntoPlace() {
        if (tmpName_.empty()) return;
        if (::renameat2(dir_, tmpName_.c_str(), dir_, name_,
                        options_.overwrite ? 0 : RENAME_NOREPLACE) == 0)
            return;
        if (errno == EEXIST) inTheWay();
        outputFailed(where_ + ": cannot move the file into place");
    }

    void removeUnfinished() const {
        if (created_ && !tmpName_.empty())
            ::unlinkat(dir_, tmpName_.c_str(), 0);
        else if (created_ && !unnamed_)
            ::unlinkat(dir_, name_, 0);
    }

    const std::shared_ptr<const PakIndex>& pak_;
    const PakEntry& e_;
    const int dir_;
    const char* const name_;
    const std::string& where_;
    const ExtractOptions& options_;
    const std::string target_;
    bool replacing_ = false;
    std::string tempName_;
    Fd out_;
    std::string tmpName_;   // the temporary name `out_` has (none: final name or unnamed)
    bool unnamed_ = false;  // `out_` is an O_TMPFILE file, linked once complete
    bool created_ = false;
    UnfinishedGuard unfinished_;
};

void writeEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e, int rootFd,
                const std::vector<std::string>& parts, ParentCache& cache,
                const ExtractOptions& options, std::mutex& lock) {
    const std::string where = pak->name() + ": " + e.path;
    const int dir = parentDir(rootFd, parts, where, cache);
    EntryWriter(pak, e, dir, parts.back(), where, options).write(lock);
}

}  // namespace

std::optional<std::vector<std::string>> safeComponents(const std::string& path,
                                                       std::string* reason) {
    auto bad = [&](const char* why) -> std::optional<std::vector<std::string>> {
        if (reason) *reason = why;
        return std::nullopt;
    };
    if (path.empty()) return bad("empty path");
    if (path.find('\0') != std::string::npos) return bad("path contains a NUL byte");
    if (path.front() == '/') return bad("absolute path");
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        std::size_t slash = path.find('/', start);
        std::string part =
            path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (part.empty()) return bad("empty path component");
        if (part == "." || part == "..") return bad("path component \".\" or \"..\"");
        if (part.size() > 255) return bad("path component longer than 255 bytes");
        parts.push_back(part);
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return parts;
}

namespace {

// Creates (as needed) and opens the target folder.
Fd openTarget(const std::filesystem::path& dir) {
    std::error_code made;
    std::filesystem::create_directories(dir, made);
    Fd root(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (root.get() < 0) {
        // When the folder could not be made, that error is the cause (a read-only file system,
        // no permission, a file in the way); the open would only say it is not there.
        if (made) throw Error(dir.string() + ": cannot create target folder: " + made.message());
        throw Error(dir.string() + ": cannot open target folder: " + errnoText());
    }
    return root;
}

struct Job {
    const PakEntry* entry;
    std::vector<std::string> parts;
};

// Entries at least this large are written one by one, before the rest when threads share out.
constexpr std::uint64_t kLarge = 1 << 20;

// With several threads, large entries first, largest first: one picked up last would leave the
// other threads idle at the end. The rest keep the pak's order, folder by folder (sequential
// reads, and the parent folder cache hits).
void largeFirst(std::vector<Job>& jobs) {
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
        std::uint64_t sa = a.entry->uncompressedSize, sb = b.entry->uncompressedSize;
        return (sa >= kLarge ? sa : 0) > (sb >= kLarge ? sb : 0);
    });
}

// Where each run of jobs starts, and jobs.size() last. Threads take runs of small files of one
// folder: creating and renaming files locks the folder, so two threads writing into the same
// one wait for each other.
std::vector<std::size_t> runStarts(const std::vector<Job>& jobs) {
    constexpr std::size_t kRunMax = 64;
    std::vector<std::size_t> runStart;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        bool sameRun =
            i > 0 && i - runStart.back() < kRunMax && jobs[i].entry->uncompressedSize < kLarge &&
            jobs[i - 1].entry->uncompressedSize < kLarge &&
            jobs[i].parts.size() == jobs[i - 1].parts.size() &&
            std::equal(jobs[i].parts.begin(), jobs[i].parts.end() - 1, jobs[i - 1].parts.begin());
        if (!sameRun) runStart.push_back(i);
    }
    runStart.push_back(jobs.size());
    return runStart;
}

// One extraction into an open target folder: its folders, then its files on `jobs` threads,
// counted into `result`.
class Extraction {
public:
    Extraction(const std::shared_ptr<const PakIndex>& pak, int root, const ExtractOptions& options)
        : pak_(pak), root_(root), options_(options) {}

    void makeFolders(const std::vector<const PakFolder*>& folders) {
        for (const PakFolder* folder : folders) {
            std::string reason;
            auto parts = safeComponents(folder->path, &reason);
            if (!parts) {
                ++result_.failedFolders;
                if (options_.error)
                    options_.error(pak_->name() + ": " + folder->path + "/: unsafe folder name (" +
                                   reason + "), not created");
                continue;
            }
            parts->push_back("");  // openParentDir creates every component but the last
            try {
                openParentDir(root_, *parts, pak_->name() + ": " + folder->path);
            } catch (const TargetError& err) {
                stopAt(err.what());
                break;
            } catch (const Error& err) {
                std::lock_guard<std::mutex> g(lock_);
                ++result_.failedFolders;  // not a file: counted apart from them
                if (options_.error) options_.error(err.what());
            }
        }
    }

    // Unsafe and duplicate paths are refused up front, so threads never race on one file.
    void planFiles(const std::vector<const PakEntry*>& entries) {
        std::set<std::string> seen;
        for (const PakEntry* e : entries) {
            std::string reason;
            auto parts = safeComponents(e->path, &reason);
            if (!parts) {
                report(pak_->name() + ": " + e->path + ": unsafe path (" + reason +
                       "), not extracted");
                continue;
            }
            if (!seen.insert(e->path).second) {
                report(pak_->name() + ": " + e->path +
                       ": duplicate path in the pak, later copy not extracted");
                continue;
            }
            jobs_.push_back({e, std::move(*parts)});
        }
    }

    void writeFiles() {
        unsigned n = std::max(1u, std::min<unsigned>(options_.jobs, unsigned(jobs_.size())));
        if (n > 1) largeFirst(jobs_);  // one thread keeps the order
        runStart_ = runStarts(jobs_);
        if (options_.progress && !jobs_.empty()) {
            std::uint64_t total = 0;
            for (const auto& j : jobs_) total += j.entry->uncompressedSize;
            progress_.emplace(jobs_.size(), total);
        }
        std::vector<std::thread> threads;
        for (unsigned t = 1; t < n; ++t) threads.emplace_back([this] { work(); });
        work();
        for (auto& t : threads) t.join();
        if (progress_) progress_->finish(done_, read_);
    }

    ExtractResult finish() {
        result_.written = written_;
        result_.bytes = bytes_;
        result_.notDone = jobs_.size() - std::min(jobs_.size(), std::size_t(done_));
        return std::move(result_);
    }

private:
    // One thread: takes runs until none is left or the target failed.
    void work() {
        ParentCache cache;
        while (true) {
            std::size_t r = next_.fetch_add(1);
            if (r + 1 >= runStart_.size()) return;
            for (std::size_t i = runStart_[r]; i < runStart_[r + 1]; ++i) {
                if (stop_ || !writeFile(jobs_[i], cache)) return;
                std::size_t d = ++done_;
                read_ += jobs_[i].entry->uncompressedSize;
                if (progress_) progress_->update(d, read_);
            }
        }
    }

    // Writes one file, its failure reported; false when the target failed.
    bool writeFile(const Job& job, ParentCache& cache) {
        try {
            writeEntry(pak_, *job.entry, root_, job.parts, cache, options_, lock_);
            bytes_ += job.entry->uncompressedSize;
            ++written_;
        } catch (const KeptError& err) {
            kept(err.what());
        } catch (const TargetError& err) {
            stopAt(err.what());
            return false;
        } catch (const Error& err) {
            report(err.what());
        }
        return true;
    }

    void report(const std::string& msg) {
        std::lock_guard<std::mutex> g(lock_);
        ++result_.failed;
        if (options_.error) options_.error(msg);
    }
    void kept(const std::string& path) {
        std::lock_guard<std::mutex> g(lock_);
        if (result_.kept++ == 0) result_.firstKept = path;
    }
    // The first failure of the target stops the run: one message, not one per file.
    void stopAt(const std::string& msg) {
        std::lock_guard<std::mutex> g(lock_);
        if (!result_.stoppedBy.empty()) return;
        result_.stoppedBy = msg;
        stop_ = true;
    }

    const std::shared_ptr<const PakIndex>& pak_;
    const int root_;
    const ExtractOptions& options_;
    ExtractResult result_;
    std::mutex lock_;
    std::atomic<bool> stop_{false};
    std::vector<Job> jobs_;
    std::vector<std::size_t> runStart_;
    std::atomic<std::size_t> next_{0}, done_{0}, written_{0};
    std::atomic<std::uint64_t> bytes_{0};
    std::atomic<std::uint64_t> read_{0};
    std::optional<ProgressLine> progress_;
};

}  // namespace

ExtractResult extractEntries(const std::shared_ptr<const PakIndex>& pak,
                             const std::vector<const PakEntry*>& entries,
                             const std::filesystem::path& dir, const ExtractOptions& options,
                             const std::vector<const PakFolder*>& folders) {
    Fd root = openTarget(dir);
    Extraction run(pak, root.get(), options);
    run.makeFolders(folders);
    run.planFiles(entries);
    run.writeFiles();
    return run.finish();
}

}  // namespace pakfs::archive
