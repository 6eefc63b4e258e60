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

void writeEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e, int rootFd,
                const std::vector<std::string>& parts, ParentCache& cache,
                const ExtractOptions& options, std::mutex& lock) {
    const std::string where = pak->name() + ": " + e.path;
    const int dir = parentDir(rootFd, parts, where, cache);
    const char* name = parts.back().c_str();
    // A file is written unnamed (O_TMPFILE) and given its name once complete (linkat), so
    // neither an error nor a killed run (kill -9 included) ever leaves a partial file under a
    // name, and no temporary name is left behind either. Replacing a file (--overwrite), the
    // complete file is linked under a temporary name and renamed over it. Where the file system
    // has no O_TMPFILE: a whole entry is created under its own name (O_EXCL: never writing
    // through a link), removed on error or SIGINT/SIGTERM; a streamed one goes to a temporary
    // file renamed into place.
    // Without --overwrite a file already there is kept: known before decoding, and made sure
    // of by O_EXCL, linkat or a rename that does not replace.
    const std::string target = options.targetName + "/" + e.path;
    // What is in the way: a file is kept (unless --overwrite: then true); a folder or anything
    // else is this entry's error, as it always was.
    auto inTheWay = [&] {
        struct stat st;
        if (::fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
        if (!S_ISREG(st.st_mode))
            throw Error(where + ": cannot create file: " +
                        (S_ISDIR(st.st_mode) ? "a folder" : "something that is not a file") +
                        " of that name is in the way");
        if (!options.overwrite) throw KeptError(target);
        return true;
    };
    const bool replacing = inTheWay();
    static const std::string pid = std::to_string(::getpid());  // one system call in all
    const std::string tempName =
        "." + parts.back() + ".pak-tmp-" + pid + "-" + std::to_string(e.index);
    Fd out;
    std::string tmpName;   // the temporary name `out` has (none: final name or unnamed)
    bool unnamed = false;  // `out` is an O_TMPFILE file, linked once complete
    bool created = false;
    UnfinishedGuard unfinished;
    auto open = [&](bool whole) {
        static std::atomic<bool> tmpfileWorks{::access("/proc/self/fd", X_OK) == 0};
        if (tmpfileWorks) {
            out = Fd(::openat(dir, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, fileMode()));
            if (out.get() >= 0) {
                created = unnamed = true;
                return;
            }
            if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
                outputFailed(where + ": cannot create file");
            tmpfileWorks = false;  // this file system has none: names from now on
        }
        if (whole && !replacing) {
            out = Fd(::openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                              fileMode()));
            if (out.get() >= 0) {
                created = true;
                unfinished.set(dir, name, target + " removed (unfinished)");
                return;
            }
            if (errno != EEXIST) outputFailed(where + ": cannot create file");
            inTheWay();  // made meanwhile
        }
        tmpName = tempName;
        out = Fd(::openat(dir, tmpName.c_str(),
                          O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, fileMode()));
        if (out.get() < 0) {
            tmpName.clear();
            outputFailed(where + ": cannot create file");
        }
        created = true;
        unfinished.set(dir, tmpName,
                       target + " not written (its unfinished temporary file removed)");
    };
    // Gives the complete unnamed file `linkName`.
    auto link = [&](const char* linkName) {
        char self[64];
        std::snprintf(self, sizeof self, "/proc/self/fd/%d", out.get());
        return ::linkat(AT_FDCWD, self, dir, linkName, AT_SYMLINK_FOLLOW) == 0;
    };
    try {
        readEntry(
            pak, e,
            [&](ByteSpan b) {
                if (!created) open(b.size() == e.uncompressedSize);
                writeAll(out.get(), b.data(), b.size(), where);
            },
            options.gbx,
            [&](const std::string& w) {
                std::lock_guard<std::mutex> g(lock);
                if (options.warn) options.warn(w);
            });
        if (!created) open(true);  // an empty entry
        if (unnamed && !replacing) {
            if (!link(name)) {
                if (errno == EEXIST && inTheWay())  // made meanwhile
                    throw Error(where + ": a file of that name appeared while it was extracted");
                outputFailed(where + ": cannot give the file its name");
            }
        } else if (unnamed) {
            // Complete under a temporary name first, then over the old file in one step.
            ::unlinkat(dir, tempName.c_str(), 0);
            if (!link(tempName.c_str())) outputFailed(where + ": cannot give the file a name");
            tmpName = tempName;
            unfinished.set(dir, tmpName,
                           target + " left as it was (its new temporary file removed)");
        }
        if (!tmpName.empty() && ::renameat2(dir, tmpName.c_str(), dir, name,
                                            options.overwrite ? 0 : RENAME_NOREPLACE) != 0) {
            if (errno == EEXIST) inTheWay();
            outputFailed(where + ": cannot move the file into place");
        }
    } catch (...) {
        if (created && !tmpName.empty())
            ::unlinkat(dir, tmpName.c_str(), 0);
        else if (created && !unnamed)
            ::unlinkat(dir, name, 0);
        throw;
    }
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

ExtractResult extractEntries(const std::shared_ptr<const PakIndex>& pak,
                             const std::vector<const PakEntry*>& entries,
                             const std::filesystem::path& dir, const ExtractOptions& options,
                             const std::vector<const PakFolder*>& folders) {
    std::error_code made;
    std::filesystem::create_directories(dir, made);
    Fd root(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (root.get() < 0) {
        // When the folder could not be made, that error is the cause (a read-only file system,
        // no permission, a file in the way); the open would only say it is not there.
        if (made) throw Error(dir.string() + ": cannot create target folder: " + made.message());
        throw Error(dir.string() + ": cannot open target folder: " + errnoText());
    }

    ExtractResult result;
    std::mutex lock;
    std::atomic<bool> stop{false};
    auto report = [&](const std::string& msg) {
        std::lock_guard<std::mutex> g(lock);
        ++result.failed;
        if (options.error) options.error(msg);
    };
    auto kept = [&](const std::string& path) {
        std::lock_guard<std::mutex> g(lock);
        if (result.kept++ == 0) result.firstKept = path;
    };
    // The first failure of the target stops the run: one message, not one per file.
    auto stopAt = [&](const std::string& msg) {
        std::lock_guard<std::mutex> g(lock);
        if (!result.stoppedBy.empty()) return;
        result.stoppedBy = msg;
        stop = true;
    };

    for (const PakFolder* folder : folders) {
        std::string reason;
        auto parts = safeComponents(folder->path, &reason);
        if (!parts) {
            ++result.failedFolders;
            if (options.error)
                options.error(pak->name() + ": " + folder->path + "/: unsafe folder name (" +
                              reason + "), not created");
            continue;
        }
        parts->push_back("");  // openParentDir creates every component but the last
        try {
            openParentDir(root.get(), *parts, pak->name() + ": " + folder->path);
        } catch (const TargetError& err) {
            stopAt(err.what());
            break;
        } catch (const Error& err) {
            std::lock_guard<std::mutex> g(lock);
            ++result.failedFolders;  // not a file: counted apart from them
            if (options.error) options.error(err.what());
        }
    }

    // Unsafe and duplicate paths are refused up front, so threads never race on one file.
    struct Job {
        const PakEntry* entry;
        std::vector<std::string> parts;
    };
    std::vector<Job> jobs;
    std::set<std::string> seen;
    for (const PakEntry* e : entries) {
        std::string reason;
        auto parts = safeComponents(e->path, &reason);
        if (!parts) {
            report(pak->name() + ": " + e->path + ": unsafe path (" + reason + "), not extracted");
            continue;
        }
        if (!seen.insert(e->path).second) {
            report(pak->name() + ": " + e->path +
                   ": duplicate path in the pak, later copy not extracted");
            continue;
        }
        jobs.push_back({e, std::move(*parts)});
    }

    unsigned n = std::max(1u, std::min<unsigned>(options.jobs, unsigned(jobs.size())));
    // With several threads, large entries first, largest first: one picked up last would leave
    // the other threads idle at the end. The rest keep the pak's order, folder by folder
    // (sequential reads, and the parent folder cache hits). One thread keeps the order.
    constexpr std::uint64_t kLarge = 1 << 20;
    if (n > 1) {
        std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
            std::uint64_t sa = a.entry->uncompressedSize, sb = b.entry->uncompressedSize;
            return (sa >= kLarge ? sa : 0) > (sb >= kLarge ? sb : 0);
        });
    }
    // Threads take runs of small files of one folder: creating and renaming files locks the
    // folder, so two threads writing into the same one wait for each other.
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

    std::atomic<std::size_t> next{0}, done{0}, written{0};
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::uint64_t> read{0};
    std::optional<ProgressLine> progress;
    if (options.progress && !jobs.empty()) {
        std::uint64_t total = 0;
        for (const auto& j : jobs) total += j.entry->uncompressedSize;
        progress.emplace(jobs.size(), total);
    }
    auto work = [&] {
        ParentCache cache;
        while (true) {
            std::size_t r = next.fetch_add(1);
            if (r + 1 >= runStart.size()) return;
            for (std::size_t i = runStart[r]; i < runStart[r + 1]; ++i) {
                if (stop) return;
                try {
                    writeEntry(pak, *jobs[i].entry, root.get(), jobs[i].parts, cache, options,
                               lock);
                    bytes += jobs[i].entry->uncompressedSize;
                    ++written;
                } catch (const KeptError& err) {
                    kept(err.what());
                } catch (const TargetError& err) {
                    stopAt(err.what());
                    return;
                } catch (const Error& err) {
                    report(err.what());
                }
                std::size_t d = ++done;
                read += jobs[i].entry->uncompressedSize;
                if (progress) progress->update(d, read);
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < n; ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    if (progress) progress->finish(done, read);
    result.written = written;
    result.bytes = bytes;
    result.notDone = jobs.size() - std::min(jobs.size(), std::size_t(done));
    return result;
}

}  // namespace pakfs::archive
