// SPDX-License-Identifier: GPL-2.0-or-later
// `pak extract`: safe paths, the target's folders, the files planned and written on threads.
#include "archive/ops/Extract.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/ops/EntryOutputFile.hpp"
#include "common/Progress.hpp"

namespace pakfs::archive {

namespace {

using extraction::EntryOutputFile;
using extraction::Fd;
using extraction::KeptError;
using extraction::outputFailed;
using extraction::TargetError;

std::string errnoText() {
    return std::strerror(errno);
}

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

// Decodes one entry into its output file and gives the file its name; on error nothing is left
// behind.
class EntryWriter {
public:
    EntryWriter(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e, int dir,
                const std::string& name, const std::string& where, const ExtractOptions& options)
        : pak_(pak),
          e_(e),
          options_(options),
          out_(dir, name, e.index, where, options.targetName + "/" + e.path, options.overwrite) {}

    void write(std::mutex& lock) {
        readEntry(
            pak_, e_,
            [&](ByteSpan b) {
                if (!out_.isOpen()) out_.open(b.size() == e_.uncompressedSize);
                out_.write(b);
            },
            options_.gbx,
            [&](const std::string& w) {
                std::lock_guard<std::mutex> g(lock);
                if (options_.warn) options_.warn(w);
            });
        if (!out_.isOpen()) out_.open(true);  // an empty entry
        out_.place();
    }

private:
    const std::shared_ptr<const PakIndex>& pak_;
    const PakEntry& e_;
    const ExtractOptions& options_;
    EntryOutputFile out_;
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

// What a run comes to so far, shared by its threads: failures reported as they come, files
// kept, and the failure of the target that stops the run.
class RunReport {
public:
    explicit RunReport(const ExtractOptions& options) : options_(options) {}

    void failed(const std::string& msg) {
        std::lock_guard<std::mutex> g(lock_);
        ++result_.failed;
        if (options_.error) options_.error(msg);
    }
    // A folder is not a file: counted apart from them.
    void failedFolder(const std::string& msg) {
        std::lock_guard<std::mutex> g(lock_);
        ++result_.failedFolders;
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
    bool stopped() const { return stop_; }
    // Held while a warning is printed, so lines of threads do not mix.
    std::mutex& lock() { return lock_; }
    ExtractResult take() { return std::move(result_); }

private:
    const ExtractOptions& options_;
    ExtractResult result_;
    std::mutex lock_;
    std::atomic<bool> stop_{false};
};

// Creates the pak's folders under the target, so empty ones appear too.
void makeFolders(const std::shared_ptr<const PakIndex>& pak, int root,
                 const std::vector<const PakFolder*>& folders, RunReport& report) {
    for (const PakFolder* folder : folders) {
        std::string reason;
        auto parts = safeComponents(folder->path, &reason);
        if (!parts) {
            report.failedFolder(pak->name() + ": " + folder->path + "/: unsafe folder name (" +
                                reason + "), not created");
            continue;
        }
        parts->push_back("");  // openParentDir creates every component but the last
        try {
            openParentDir(root, *parts, pak->name() + ": " + folder->path);
        } catch (const TargetError& err) {
            report.stopAt(err.what());
            break;
        } catch (const Error& err) {
            report.failedFolder(err.what());
        }
    }
}

// The files to write. Unsafe and duplicate paths are refused up front, so threads never race on
// one file.
std::vector<Job> planFiles(const std::shared_ptr<const PakIndex>& pak,
                           const std::vector<const PakEntry*>& entries, RunReport& report) {
    std::vector<Job> jobs;
    std::set<std::string> seen;
    for (const PakEntry* e : entries) {
        std::string reason;
        auto parts = safeComponents(e->path, &reason);
        if (!parts) {
            report.failed(pak->name() + ": " + e->path + ": unsafe path (" + reason +
                          "), not extracted");
            continue;
        }
        if (!seen.insert(e->path).second) {
            report.failed(pak->name() + ": " + e->path +
                          ": duplicate path in the pak, later copy not extracted");
            continue;
        }
        jobs.push_back({e, std::move(*parts)});
    }
    return jobs;
}

// The planned files written into an open target folder on `options.jobs` threads, each taking
// runs of jobs until none is left or the target failed.
class FileWriting {
public:
    FileWriting(const std::shared_ptr<const PakIndex>& pak, int root, const ExtractOptions& options,
                RunReport& report, std::vector<Job> jobs)
        : pak_(pak), root_(root), options_(options), report_(report), jobs_(std::move(jobs)) {}

    void run() {
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
        ExtractResult result = report_.take();
        result.written = written_;
        result.bytes = bytes_;
        result.notDone = jobs_.size() - std::min(jobs_.size(), std::size_t(done_));
        return result;
    }

private:
    // One thread: takes runs until none is left or the target failed.
    void work() {
        ParentCache cache;
        while (true) {
            std::size_t r = next_.fetch_add(1);
            if (r + 1 >= runStart_.size()) return;
            for (std::size_t i = runStart_[r]; i < runStart_[r + 1]; ++i) {
                if (report_.stopped() || !writeFile(jobs_[i], cache)) return;
                std::size_t d = ++done_;
                read_ += jobs_[i].entry->uncompressedSize;
                if (progress_) progress_->update(d, read_);
            }
        }
    }

    // Writes one file, its failure reported; false when the target failed.
    bool writeFile(const Job& job, ParentCache& cache) {
        try {
            writeEntry(pak_, *job.entry, root_, job.parts, cache, options_, report_.lock());
            bytes_ += job.entry->uncompressedSize;
            ++written_;
        } catch (const KeptError& err) {
            report_.kept(err.what());
        } catch (const TargetError& err) {
            report_.stopAt(err.what());
            return false;
        } catch (const Error& err) {
            report_.failed(err.what());
        }
        return true;
    }

    const std::shared_ptr<const PakIndex>& pak_;
    const int root_;
    const ExtractOptions& options_;
    RunReport& report_;
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
    RunReport report(options);
    makeFolders(pak, root.get(), folders, report);
    FileWriting writing(pak, root.get(), options, report, planFiles(pak, entries, report));
    writing.run();
    return writing.finish();
}

}  // namespace pakfs::archive
