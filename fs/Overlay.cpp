// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/Overlay.hpp"

#include "fs/OverlayRecord.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/Error.hpp"
#include "common/File.hpp"
#include "fs/OverlayLayout.hpp"

namespace pakfs::fs {

namespace {

constexpr std::size_t kCopyChunk = 1 << 20;
constexpr unsigned kRenameNoReplace = 1;  // RENAME_NOREPLACE
constexpr unsigned kRenameExchange = 2;   // RENAME_EXCHANGE
constexpr unsigned kRenameWhiteout = 4;   // RENAME_WHITEOUT

int errnoResult() {
    return -errno;
}

// Removes what an overlay folder being deleted may still hold: whiteouts and its opaque marker
// (a folder empty in the merged view holds nothing else).
int clearLayoutFiles(const std::filesystem::path& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return errnoResult();
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d))
        if (isLayoutName(e->d_name)) names.emplace_back(e->d_name);
    ::closedir(d);
    for (const auto& n : names)
        if (::unlink((dir / n).c_str()) != 0) return errnoResult();
    return 0;
}

int makeMarker(const std::filesystem::path& path) {
    int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return errnoResult();
    ::close(fd);
    return 0;
}

bool existsNoFollow(const std::filesystem::path& path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
}

void syncFolder(const std::filesystem::path& dir) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

Overlay::Overlay(View& below, OverlayOptions options)
    : below_(below),
      options_(std::move(options)),
      nextBelowIno_(below.inoLimit() + 1),
      nextIno_(nextBelowIno_) {
    struct stat st;
    if (::stat(options_.dir.c_str(), &st) != 0)
        throw Error(options_.dir.string() + ": overlay folder: " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) throw Error(options_.dir.string() + ": overlay folder: not a folder");
    if (::access(options_.dir.c_str(), W_OK | X_OK) != 0)
        throw Error(options_.dir.string() + ": overlay folder: " + std::strerror(errno));
    // Temp files of copy-ups a crash left behind are half copies: gone, as if never begun.
    work_ = options_.dir / kOverlayWorkFolder;
    std::error_code ec;
    std::filesystem::remove_all(work_, ec);
    if (ec || ::mkdir(work_.c_str(), 0700) != 0)
        throw Error(work_.string() + ": cannot make the overlay's work folder: " +
                    (ec ? ec.message() : std::string(std::strerror(errno))));
    Entry root;
    root.parent = kRootIno;
    root.dir = root.below = root.upper = true;
    entries_.emplace(kRootIno, root);
}

Overlay::~Overlay() {
    for (auto& [fh, h] : handles_)
        if (h.fd >= 0) ::close(h.fd);
    for (auto& [ino, e] : entries_)
        if (e.kept) ::unlink(keptPath(ino).c_str());
}

void Overlay::log(const std::string& line) const {
    if (options_.log) options_.log(line);
}

Overlay::Entry* Overlay::entryOf(Ino ino) {
    auto it = entries_.find(ino);
    return it == entries_.end() ? nullptr : &it->second;
}

bool Overlay::shows(Ino ino) {
    if (const Entry* e = entryOf(ino)) return !e->gone;
    struct stat st;
    return below_.getattr(ino, &st) == 0;
}

bool Overlay::hasUpperDir(Ino ino) {
    const Entry* e = entryOf(ino);
    return e && e->dir && e->upper && !e->gone;
}

std::string Overlay::pathOf(Ino ino) {
    std::vector<std::string> parts;
    for (int depth = 0; ino != kRootIno && depth < 4096; ++depth) {
        Ino parent = 0;
        std::string name;
        if (const Entry* e = entryOf(ino)) {
            parent = e->parent;
            name = e->name;
        } else if (below_.locate(ino, &parent, &name) != 0) {
            break;
        }
        parts.push_back(std::move(name));
        ino = parent;
    }
    std::string path;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!path.empty()) path += '/';
        path += *it;
    }
    return path;
}

void Overlay::fixBelowStat(struct stat* st) const {
    // Files of the view below can be changed here (the change goes to the overlay).
    st->st_mode |= S_IWUSR & ~options_.umask;
}

std::filesystem::path Overlay::keptPath(Ino ino) const {
    return work_ / ("kept." + std::to_string(ino));
}

std::filesystem::path Overlay::diskOf(Ino ino) {
    if (const Entry* e = entryOf(ino); e && e->kept) return keptPath(ino);
    return options_.dir / pathOf(ino);
}

bool Overlay::keep(Ino ino, bool replacing) {
    const std::filesystem::path from = diskOf(ino), to = keptPath(ino);
    return replacing ? ::link(from.c_str(), to.c_str()) == 0
                     : ::rename(from.c_str(), to.c_str()) == 0;
}

void Overlay::forget(Ino ino) {
    std::lock_guard lock(mutex_);
    Entry* e = entryOf(ino);
    if (!e || !e->gone) return;
    if (e->kept) ::unlink(keptPath(ino).c_str());
    e->kept = e->goneUnchanged = false;
}

int Overlay::statUpper(Ino ino, struct stat* st) {
    if (::lstat(diskOf(ino).c_str(), st) != 0) return errnoResult();
    st->st_ino = ino;
    st->st_uid = options_.uid;
    st->st_gid = options_.gid;
    st->st_mode &= ~(options_.umask & 0777);
    return 0;
}

bool Overlay::belowChild(Ino parent, std::string_view name, struct stat* st) {
    const Entry* p = entryOf(parent);
    if (p && (!p->below || p->opaque || p->gone)) return false;
    if (hasUpperDir(parent) && existsNoFollow(diskOf(parent) / whiteoutName(name))) return false;
    if (below_.lookup(parent, name, st) != 0) return false;
    if (const Entry* c = entryOf(st->st_ino); c && (c->gone || c->parent != parent)) return false;
    fixBelowStat(st);
    return true;
}

int Overlay::resolve(Ino parent, std::string_view name, Ino* ino, struct stat* st) {
    const Entry* p = entryOf(parent);
    if (p && p->gone) return -ENOENT;
    if (!hasUpperDir(parent)) {
        // A folder of the view below with nothing changed in it.
        if (int rc = below_.lookup(parent, name, st); rc != 0) return rc;
        *ino = st->st_ino;
        fixBelowStat(st);
        return 0;
    }
    if (isLayoutName(name) || (parent == kRootIno && isOverlayOwnName(name))) return -ENOENT;
    if (name == "." || name == "..") return -ENOENT;
    if (auto it = names_.find({parent, std::string(name)}); it != names_.end()) {
        *ino = it->second;
        return statUpper(*ino, st);
    }
    const std::filesystem::path disk = diskOf(parent) / std::string(name);
    struct stat ust;
    if (::lstat(disk.c_str(), &ust) == 0) {
        if (!S_ISREG(ust.st_mode) && !S_ISDIR(ust.st_mode)) {
            log(disk.string() + ": neither a file nor a folder, which a pak cannot hold: left out");
            return -ENOENT;
        }
        Entry e;
        e.parent = parent;
        e.name = std::string(name);
        e.dir = S_ISDIR(ust.st_mode);
        e.upper = true;
        struct stat bst;
        const bool shadows =
            belowChild(parent, name, &bst) && S_ISDIR(bst.st_mode) == S_ISDIR(ust.st_mode);
        e.below = shadows;
        e.opaque = e.dir && existsNoFollow(disk / std::string(kOpaqueMarker));
        *ino = shadows ? Ino(bst.st_ino) : newIno();
        entries_[*ino] = e;
        names_[{parent, e.name}] = *ino;
        if (shadows) markChanged(*ino);
        return statUpper(*ino, st);
    }
    if (!belowChild(parent, name, st)) return -ENOENT;
    *ino = st->st_ino;
    return 0;
}

int Overlay::lookup(Ino parent, std::string_view name, struct stat* st) {
    std::lock_guard lock(mutex_);
    Ino ino = 0;
    return resolve(parent, name, &ino, st);
}

int Overlay::getattr(Ino ino, struct stat* st) {
    std::lock_guard lock(mutex_);
    const Entry* e = entryOf(ino);
    if (e && e->gone && !e->kept && !e->goneUnchanged) return -ENOENT;
    if (e && (e->upper || e->kept)) {
        if (int rc = statUpper(ino, st); rc != 0) return rc;
    } else {
        if (int rc = below_.getattr(ino, st); rc != 0) return rc;
        fixBelowStat(st);
    }
    // Deleted, still open somewhere: as on any file system, no links.
    if (e && e->gone) st->st_nlink = 0;
    return 0;
}

int Overlay::locate(Ino ino, Ino* parent, std::string* name) {
    std::lock_guard lock(mutex_);
    if (const Entry* e = entryOf(ino)) {
        *parent = e->parent;
        *name = e->name;
        return 0;
    }
    return below_.locate(ino, parent, name);
}

bool Overlay::isEmptyDir(Ino ino) {
    bool empty = true;
    auto any = [&](const char*, const struct stat&, std::int64_t) {
        empty = false;
        return false;
    };
    // Entries from 2 on: not "." and "..".
    int rc = hasUpperDir(ino) ? readdirLocked(ino, 2, any) : below_.readdir(ino, 2, any);
    return rc == 0 && empty;
}

int Overlay::readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) {
    std::unique_lock lock(mutex_);
    if (const Entry* e = entryOf(ino); e && e->gone) return -ENOENT;
    if (!hasUpperDir(ino)) {
        lock.unlock();
        return below_.readdir(ino, offset,
                              [&](const char* n, const struct stat& st, std::int64_t at) {
                                  struct stat fixed = st;
                                  fixBelowStat(&fixed);
                                  return fill(n, fixed, at);
                              });
    }
    return readdirLocked(ino, offset, fill);
}

int Overlay::readdirLocked(Ino ino, std::int64_t offset, const FillDirAt& fill) {
    if (offset < 0) return -EINVAL;
    // The merged listing: the overlay's names, then the view below's that are neither in it
    // nor whited out, in name order.
    std::vector<std::pair<std::string, struct stat>> items;
    const std::filesystem::path disk = diskOf(ino);
    DIR* d = ::opendir(disk.c_str());
    if (!d) return errnoResult();
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) names.emplace_back(e->d_name);
    ::closedir(d);
    std::unordered_set<std::string> seen;
    for (const auto& n : names) {
        if (n == "." || n == ".." || isLayoutName(n)) {
            if (auto target = whiteoutTarget(n)) seen.insert(*target);
            continue;
        }
        if (ino == kRootIno && isOverlayOwnName(n)) continue;
        Ino child = 0;
        struct stat st;
        if (resolve(ino, n, &child, &st) != 0) continue;
        seen.insert(n);
        items.emplace_back(n, st);
    }
    const Entry* self = entryOf(ino);
    if (self && self->below && !self->opaque) {
        below_.readdir(ino, 2, [&](const char* n, const struct stat& st, std::int64_t) {
            if (seen.count(n)) return true;
            if (const Entry* c = entryOf(st.st_ino); c && (c->gone || c->parent != ino))
                return true;
            struct stat fixed = st;
            fixBelowStat(&fixed);
            items.emplace_back(n, fixed);
            return true;
        });
    }
    std::sort(items.begin(), items.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    struct stat st;
    if (offset == 0) {
        if (statUpper(ino, &st) != 0) std::memset(&st, 0, sizeof st);
        if (!fill(".", st, 1)) return 0;
    }
    if (offset <= 1) {
        // A real inode number: readdir(3) drops entries whose d_ino is 0, so `ls -a` would not
        // show ".." at all.
        std::memset(&st, 0, sizeof st);
        st.st_mode = S_IFDIR;
        st.st_ino = self && ino != kRootIno ? self->parent : kRootIno;
        if (!fill("..", st, 2)) return 0;
    }
    for (std::size_t i = std::size_t(std::max<std::int64_t>(offset, 2) - 2); i < items.size(); ++i)
        if (!fill(items[i].first.c_str(), items[i].second, std::int64_t(i) + 3)) break;
    return 0;
}

void Overlay::markChanged(Ino ino) {
    std::lock_guard lock(storeMutex(ino));
    std::lock_guard changedLock(changedMutex_);
    changed_.insert(ino);
}

bool Overlay::changed(Ino ino) {
    std::lock_guard lock(changedMutex_);
    return changed_.count(ino) != 0;
}

bool Overlay::storeIfBelow(Ino ino, const std::function<bool()>& store) {
    std::lock_guard lock(storeMutex(ino));
    return !changed(ino) && store();
}

int Overlay::ensureUpperDir(Ino ino) {
    if (hasUpperDir(ino)) return 0;
    if (const Entry* e = entryOf(ino); e && e->gone) return -ENOENT;
    Ino parent = 0;
    std::string name;
    if (int rc = below_.locate(ino, &parent, &name); rc != 0) return rc;
    if (int rc = ensureUpperDir(parent); rc != 0) return rc;
    const std::filesystem::path disk = diskOf(parent) / name;
    if (::mkdir(disk.c_str(), 0755) != 0 && errno != EEXIST) return errnoResult();
    Entry e;
    e.parent = parent;
    e.name = name;
    e.dir = e.below = e.upper = true;
    entries_[ino] = e;
    names_[{parent, name}] = ino;
    return 0;
}

int Overlay::copyUp(Ino ino, std::uint64_t limit) {
    bool gone = false;
    if (const Entry* e = entryOf(ino)) {
        if (e->upper || e->kept) return 0;
        if (e->gone && !e->goneUnchanged) return -ENOENT;
        gone = e->gone;
    }
    Ino parent = 0;
    std::string name;
    if (int rc = below_.locate(ino, &parent, &name); rc != 0) return rc;
    struct stat bst;
    if (int rc = below_.getattr(ino, &bst); rc != 0) return rc;
    if (S_ISDIR(bst.st_mode)) return gone ? -ENOENT : ensureUpperDir(ino);
    if (!gone)
        if (int rc = ensureUpperDir(parent); rc != 0) return rc;
    markChanged(ino);
    const std::filesystem::path temp =
        work_ / ("copy-up." + std::to_string(ino) + "." + std::to_string(++copyUps_));
    int fd = ::open(temp.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return errnoResult();
    std::uint64_t fh = 0;
    int rc = below_.open(ino, O_RDONLY, &fh);
    std::vector<char> buf(kCopyChunk);
    for (std::int64_t at = 0; rc == 0 && std::uint64_t(at) < limit;) {
        const std::size_t want = std::size_t(std::min<std::uint64_t>(buf.size(), limit - at));
        long n = below_.read(ino, fh, buf.data(), want, at);
        if (n < 0) {
            rc = int(n);
            log("copy-up of " + pathOf(ino) + ": the pack's file cannot be read");
            break;
        }
        if (n == 0) break;
        for (long done = 0; done < n;) {
            ssize_t w = ::pwrite(fd, buf.data() + done, std::size_t(n - done), at + done);
            if (w < 0) {
                rc = errnoResult();
                break;
            }
            done += w;
        }
        at += n;
    }
    if (fh) below_.release(ino, fh);
    if (rc == 0) {
        const struct timespec times[2] = {bst.st_atim, bst.st_mtim};
        ::futimens(fd, times);
        if (::fsync(fd) != 0) rc = errnoResult();
    }
    ::close(fd);
    const std::filesystem::path dest = gone ? keptPath(ino) : diskOf(parent) / name;
    if (rc == 0 && ::rename(temp.c_str(), dest.c_str()) != 0) rc = errnoResult();
    if (rc != 0) {
        ::unlink(temp.c_str());
        if (rc == -ENOSPC) log("copy-up of " + pathOf(ino) + ": no space left in the overlay");
        return rc;
    }
    if (gone) {
        // Deleted while open: written to by whoever has it open, gone once they close it.
        entries_[ino].kept = true;
        return 0;
    }
    syncFolder(dest.parent_path());
    Entry e;
    e.parent = parent;
    e.name = name;
    e.below = e.upper = true;
    entries_[ino] = e;
    names_[{parent, name}] = ino;
    return 0;
}

int Overlay::openFd(Ino ino, int flags) {
    return openUpper(diskOf(ino), O_RDWR | (flags & O_TRUNC));
}

int Overlay::openUpper(const std::filesystem::path& disk, int flags) const {
    // A FIFO or device put in the overlay folder where a file was is refused, never waited on
    // by a thread that serves the mount.
    const RegularFileOpen r = openRegularFile(disk, flags);
    if (r.fd >= 0) return r.fd;
    if (r.error != 0) return -r.error;
    if (S_ISDIR(r.st.st_mode)) return -EISDIR;
    log(disk.string() + ": not a regular file, which a pak cannot hold: not opened");
    return -EIO;
}

int Overlay::open(Ino ino, int flags, std::uint64_t* fh) {
    const bool writing = (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
    // Reading a file of the view below that nothing changed: no handle, no lock, no call to
    // the overlay folder. Its reads go by inode, as on a read-only mount, and find the
    // overlay's copy once there is one (read checks at every request).
    if (!writing && ino < nextBelowIno_ && !changed(ino)) {
        struct stat st;
        if (int rc = below_.getattr(ino, &st); rc != 0) return rc;
        if (S_ISDIR(st.st_mode)) return -EISDIR;
        *fh = 0;
        return 0;
    }
    std::lock_guard lock(mutex_);
    const Entry* e = entryOf(ino);
    if (e && e->gone) return -ENOENT;
    Handle h;
    h.ino = ino;
    if ((!e || !e->upper) && !writing) {
        if (int rc = below_.open(ino, flags, &h.belowFh); rc != 0) return rc;
        if (h.belowFh == 0) {
            *fh = 0;  // reads go by inode
            return 0;
        }
    } else {
        if (int rc = copyUp(ino); rc != 0) return rc;
        int fd = openFd(ino, flags);
        if (fd < 0) return fd;
        h.fd = fd;
    }
    std::lock_guard hlock(handlesMutex_);
    *fh = nextHandle_++;
    handles_.emplace(*fh, h);
    return 0;
}

long Overlay::read(Ino ino, std::uint64_t fh, char* buf, std::size_t size, std::int64_t offset) {
    if (fh) {
        Handle h;
        {
            std::lock_guard hlock(handlesMutex_);
            auto it = handles_.find(fh);
            if (it == handles_.end()) return -EBADF;
            h = it->second;
        }
        if (h.fd < 0) return below_.read(ino, h.belowFh, buf, size, offset);
        ssize_t n = ::pread(h.fd, buf, size, offset);
        return n < 0 ? errnoResult() : long(n);
    }
    // Unchanged: the read-only mount's path (whole small files decoded into the reply, the
    // read-ahead), without the overlay's lock.
    if (ino < nextBelowIno_ && !changed(ino)) return below_.read(ino, 0, buf, size, offset);
    std::unique_lock lock(mutex_);
    const Entry* e = entryOf(ino);
    // A file opened while unchanged and deleted since keeps its bytes, as on any file system,
    // when they were still the view below's.
    if (e && e->gone && !e->goneUnchanged && !e->kept) return -ENOENT;
    if (!e || (!e->upper && !e->kept)) {
        lock.unlock();
        return below_.read(ino, 0, buf, size, offset);
    }
    int fd = openUpper(diskOf(ino), O_RDONLY);
    if (fd < 0) return fd;
    ssize_t n = ::pread(fd, buf, size, offset);
    long rc = n < 0 ? errnoResult() : long(n);
    ::close(fd);
    return rc;
}

int Overlay::release(Ino ino, std::uint64_t fh) {
    if (!fh) return below_.release(ino, 0);  // opened by the view below, by inode
    Handle h;
    {
        std::lock_guard hlock(handlesMutex_);
        auto it = handles_.find(fh);
        if (it == handles_.end()) return -EBADF;
        h = it->second;
        handles_.erase(it);
    }
    if (h.fd >= 0) return ::close(h.fd) == 0 ? 0 : errnoResult();
    return below_.release(ino, h.belowFh);
}

long Overlay::write(Ino ino, std::uint64_t fh, const char* buf, std::size_t size,
                    std::int64_t offset) {
    int fd = -1;
    bool own = false;
    {
        std::lock_guard hlock(handlesMutex_);
        if (auto it = handles_.find(fh); fh && it != handles_.end()) fd = it->second.fd;
    }
    if (fd < 0) {
        // A write without a handle of ours (the kernel writing back through another open).
        std::lock_guard lock(mutex_);
        if (int rc = copyUp(ino); rc != 0) return rc;
        fd = openFd(ino, 0);
        if (fd < 0) return fd;
        own = true;
    }
    std::size_t done = 0;
    long rc = 0;
    while (done < size) {
        ssize_t n = ::pwrite(fd, buf + done, size - done, offset + std::int64_t(done));
        if (n < 0) {
            rc = errnoResult();
            break;
        }
        done += std::size_t(n);
    }
    if (own) ::close(fd);
    if (rc == -ENOSPC) log(pathOf(ino) + ": no space left in the overlay");
    return done > 0 ? long(done) : rc;
}

int Overlay::fsync(Ino ino, std::uint64_t fh, bool dataOnly) {
    if (!fh) {
        std::filesystem::path disk;
        {
            std::lock_guard lock(mutex_);
            const Entry* e = entryOf(ino);
            if (!e || (!e->upper && !e->kept))
                return shows(ino) || (e && e->goneUnchanged) ? 0 : -ENOENT;
            disk = diskOf(ino);
        }
        // Without a handle (no OPEN is sent): the overlay file's data, by a descriptor of
        // its own (fsync flushes the file, whichever descriptor asks).
        int fd = openUpper(disk, O_RDONLY);
        if (fd < 0) return fd;
        int rc = dataOnly ? ::fdatasync(fd) : ::fsync(fd);
        rc = rc == 0 ? 0 : errnoResult();
        ::close(fd);
        return rc;
    }
    std::lock_guard hlock(handlesMutex_);
    auto it = handles_.find(fh);
    if (it == handles_.end() || it->second.fd < 0) return 0;
    int rc = dataOnly ? ::fdatasync(it->second.fd) : ::fsync(it->second.fd);
    return rc == 0 ? 0 : errnoResult();
}

int Overlay::checkNewName(Ino parent, std::string_view name, const char* op) {
    if (parent == kRootIno) {
        log(std::string(op) + " " + std::string(name) +
            ": the top level holds the packs; new files and folders go inside a pack's folder");
        return -EPERM;
    }
    if (auto why = unusableName(name)) {
        log(std::string(op) + " " + pathOf(parent) + "/" + std::string(name) + ": " + *why);
        return -EINVAL;
    }
    if (const Entry* p = entryOf(parent); p ? p->gone || !p->dir : !shows(parent)) return -ENOENT;
    return 0;
}

// Whether the view below holds `name` in `parent` whether or not the overlay hides it: then
// deleting the overlay's name needs a whiteout.
static bool belowHolds(View& below, bool parentOnlyUpper, bool parentOpaque, View::Ino parent,
                       std::string_view name) {
    if (parentOnlyUpper || parentOpaque) return false;
    struct stat st;
    return below.lookup(parent, name, &st) == 0;
}

int Overlay::create(Ino parent, std::string_view name, mode_t mode, int flags, struct stat* st,
                    std::uint64_t* fh) {
    std::lock_guard lock(mutex_);
    if (int rc = checkNewName(parent, name, "create"); rc != 0) return rc;
    Ino existing = 0;
    struct stat est;
    if (resolve(parent, name, &existing, &est) == 0) return -EEXIST;
    if (int rc = ensureUpperDir(parent); rc != 0) return rc;
    const std::filesystem::path dir = diskOf(parent);
    const std::filesystem::path whiteout = dir / whiteoutName(name);
    if (existsNoFollow(whiteout) && ::unlink(whiteout.c_str()) != 0) return errnoResult();
    const std::filesystem::path path = dir / std::string(name);
    int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC,
                    (mode & 0777) | S_IRUSR | S_IWUSR);
    if (fd < 0) return errnoResult();
    (void)flags;
    Ino ino = newIno();
    Entry e;
    e.parent = parent;
    e.name = std::string(name);
    e.upper = true;
    entries_[ino] = e;
    names_[{parent, e.name}] = ino;
    {
        std::lock_guard hlock(handlesMutex_);
        *fh = nextHandle_++;
        handles_.emplace(*fh, Handle{ino, fd, 0});
    }
    return statUpper(ino, st);
}

int Overlay::mkdir(Ino parent, std::string_view name, mode_t mode, struct stat* st) {
    std::lock_guard lock(mutex_);
    if (int rc = checkNewName(parent, name, "mkdir"); rc != 0) return rc;
    Ino existing = 0;
    struct stat est;
    if (resolve(parent, name, &existing, &est) == 0) return -EEXIST;
    if (int rc = ensureUpperDir(parent); rc != 0) return rc;
    const Entry* p = entryOf(parent);
    const bool hidesBelow = belowHolds(below_, !p->below, p->opaque, parent, name);
    const std::filesystem::path dir = diskOf(parent);
    const std::filesystem::path path = dir / std::string(name);
    if (::mkdir(path.c_str(), (mode & 0777) | S_IRWXU) != 0) return errnoResult();
    // The view below's folder of this name was deleted: the new one starts empty.
    if (hidesBelow) {
        if (int rc = makeMarker(path / std::string(kOpaqueMarker)); rc != 0) {
            ::rmdir(path.c_str());
            return rc;
        }
    }
    const std::filesystem::path whiteout = dir / whiteoutName(name);
    if (existsNoFollow(whiteout)) ::unlink(whiteout.c_str());
    Ino ino = newIno();
    Entry e;
    e.parent = parent;
    e.name = std::string(name);
    e.dir = e.upper = true;
    e.opaque = hidesBelow;
    entries_[ino] = e;
    names_[{parent, e.name}] = ino;
    return statUpper(ino, st);
}

void Overlay::markGone(Ino ino, Ino parent, std::string_view name, bool dir) {
    Entry& gone = entries_[ino];
    gone.goneUnchanged = !dir && !gone.upper && ino < nextBelowIno_;
    gone.parent = parent;
    gone.name = std::string(name);
    gone.dir = dir;
    gone.upper = false;
    gone.gone = true;
    names_.erase({parent, gone.name});
}

int Overlay::refuseDeletion(const char* op, Ino parent, std::string_view name) {
    const Entry* p = entryOf(parent);
    if (p && (!p->below || p->opaque)) return 0;  // nothing below shows in this folder
    struct stat st;
    if (below_.lookup(parent, name, &st) != 0) return 0;
    const std::string why = below_.whyNotDeletable(st.st_ino);
    if (why.empty()) return 0;
    log(std::string(op) + " " + pathOf(parent) + "/" + std::string(name) + ": " + why);
    return -EPERM;
}

int Overlay::unlink(Ino parent, std::string_view name) {
    std::lock_guard lock(mutex_);
    Ino ino = 0;
    struct stat st;
    if (int rc = resolve(parent, name, &ino, &st); rc != 0) return rc;
    if (S_ISDIR(st.st_mode)) return -EISDIR;
    if (parent == kRootIno) return -EPERM;
    if (int rc = refuseDeletion("unlink", parent, name); rc != 0) return rc;
    Entry* e = entryOf(ino);
    bool kept = false;
    if (e && e->upper) {
        kept = keep(ino, false);
        if (!kept && ::unlink(diskOf(ino).c_str()) != 0) return errnoResult();
    }
    const Entry* p = entryOf(parent);
    if (belowHolds(below_, p && !p->below, p && p->opaque, parent, name)) {
        if (int rc = ensureUpperDir(parent); rc != 0) return rc;
        if (int rc = makeMarker(diskOf(parent) / whiteoutName(name)); rc != 0) return rc;
    }
    markChanged(ino);
    markGone(ino, parent, name, false);
    entries_[ino].kept = kept;
    return 0;
}

int Overlay::rmdir(Ino parent, std::string_view name) {
    std::lock_guard lock(mutex_);
    Ino ino = 0;
    struct stat st;
    if (int rc = resolve(parent, name, &ino, &st); rc != 0) return rc;
    if (!S_ISDIR(st.st_mode)) return -ENOTDIR;
    if (parent == kRootIno) {
        log("rmdir " + std::string(name) + ": a pack's folder cannot be removed");
        return -EPERM;
    }
    if (!isEmptyDir(ino)) return -ENOTEMPTY;
    if (int rc = refuseDeletion("rmdir", parent, name); rc != 0) return rc;
    if (hasUpperDir(ino)) {
        const std::filesystem::path disk = diskOf(ino);
        if (int rc = clearLayoutFiles(disk); rc != 0) return rc;
        if (::rmdir(disk.c_str()) != 0) return errnoResult();
    }
    const Entry* p = entryOf(parent);
    if (belowHolds(below_, p && !p->below, p && p->opaque, parent, name)) {
        if (int rc = ensureUpperDir(parent); rc != 0) return rc;
        if (int rc = makeMarker(diskOf(parent) / whiteoutName(name)); rc != 0) return rc;
    }
    markGone(ino, parent, name, true);
    return 0;
}

int Overlay::rename(Ino parent, std::string_view name, Ino newParent, std::string_view newName,
                    unsigned flags) {
    // Exchanging two names is not done; a whiteout left at the old name would be a device
    // file, which a pak cannot hold.
    if (flags & (kRenameExchange | kRenameWhiteout)) return -EINVAL;
    std::lock_guard lock(mutex_);
    if (int rc = checkNewName(newParent, newName, "rename"); rc != 0) return rc;
    Ino ino = 0;
    struct stat st;
    if (int rc = resolve(parent, name, &ino, &st); rc != 0) return rc;
    const bool dir = S_ISDIR(st.st_mode);
    if (dir) {
        // A folder of the view below (or merged with one) would have to be copied whole, as
        // overlayfs does not either: mv then copies and deletes.
        const Entry* e = entryOf(ino);
        if (!e || e->below) return -EXDEV;
    }
    Ino target = 0;
    struct stat tst;
    const bool exists = resolve(newParent, newName, &target, &tst) == 0;
    if (exists) {
        if (target == ino) return 0;
        if (flags & kRenameNoReplace) return -EEXIST;
        if (dir && !S_ISDIR(tst.st_mode)) return -ENOTDIR;
        if (!dir && S_ISDIR(tst.st_mode)) return -EISDIR;
        if (S_ISDIR(tst.st_mode) && !isEmptyDir(target)) return -ENOTEMPTY;
    }
    // The old name is whited out; a folder moved over one of the view below hides what it
    // held (a file moved over a file only replaces it, as a changed file does).
    if (int rc = refuseDeletion("rename", parent, name); rc != 0) return rc;
    if (dir)
        if (int rc = refuseDeletion("rename", newParent, newName); rc != 0) return rc;
    if (!dir)
        if (int rc = copyUp(ino); rc != 0) return rc;
    if (int rc = ensureUpperDir(newParent); rc != 0) return rc;
    const std::filesystem::path from = diskOf(ino);
    const std::filesystem::path toDir = diskOf(newParent);
    const std::filesystem::path to = toDir / std::string(newName);
    if (exists) {
        const Entry* te = entryOf(target);
        if (S_ISDIR(tst.st_mode) && te && te->upper) {
            if (int rc = clearLayoutFiles(to); rc != 0) return rc;
            if (::rmdir(to.c_str()) != 0) return errnoResult();
        }
    }
    const Entry* np = entryOf(newParent);
    const bool hidesBelow = belowHolds(below_, !np->below, np->opaque, newParent, newName);
    // A file replaced while someone may have it open keeps its bytes for them.
    bool targetKept = false;
    if (exists && !S_ISDIR(tst.st_mode))
        if (const Entry* te = entryOf(target); te && te->upper) targetKept = keep(target, true);
    if (::rename(from.c_str(), to.c_str()) != 0) {
        int rc = errnoResult();
        if (targetKept) ::unlink(keptPath(target).c_str());
        return rc;
    }
    const std::filesystem::path toWhiteout = toDir / whiteoutName(newName);
    if (existsNoFollow(toWhiteout)) ::unlink(toWhiteout.c_str());
    if (dir && hidesBelow) makeMarker(to / std::string(kOpaqueMarker));
    const Entry* p = entryOf(parent);
    if (belowHolds(below_, p && !p->below, p && p->opaque, parent, name))
        makeMarker(diskOf(parent) / whiteoutName(name));
    if (exists) {
        markChanged(target);
        markGone(target, newParent, newName, S_ISDIR(tst.st_mode));
        entries_[target].kept = targetKept;
    }
    names_.erase({parent, std::string(name)});
    Entry& e = entries_[ino];
    e.parent = newParent;
    e.name = std::string(newName);
    e.below = false;
    if (dir && hidesBelow) e.opaque = true;
    names_[{newParent, e.name}] = ino;
    return 0;
}

int Overlay::setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                     struct stat* st) {
    // A pak stores no owners: setting the ones every file shows (cp -a, mv) changes nothing.
    if (((toSet & kSetUid) && attr.st_uid != options_.uid) ||
        ((toSet & kSetGid) && attr.st_gid != options_.gid)) {
        std::lock_guard lock(mutex_);
        if (!shows(ino)) return -ENOENT;
        log("chown " + pathOf(ino) + ": a pak stores no owners");
        return -EPERM;
    }
    {
        std::lock_guard lock(mutex_);
        const Entry* e = entryOf(ino);
        if (e && e->gone && !e->kept && !e->goneUnchanged) return -ENOENT;
        // A truncation copies only what it keeps (O_TRUNC, as `cp` over a file: nothing).
        if (toSet & (kSetSize | kSetAtime | kSetMtime | kSetAtimeNow | kSetMtimeNow))
            if (int rc = copyUp(
                    ino, (toSet & kSetSize) ? std::uint64_t(attr.st_size) : ~std::uint64_t(0));
                rc != 0)
                return rc;
        const std::filesystem::path disk = diskOf(ino);
        if (toSet & kSetSize) {
            int fd = -1;
            {
                std::lock_guard hlock(handlesMutex_);
                if (auto it = handles_.find(fh); fh && it != handles_.end()) fd = it->second.fd;
            }
            int rc =
                fd >= 0 ? ::ftruncate(fd, attr.st_size) : ::truncate(disk.c_str(), attr.st_size);
            if (rc != 0) return errnoResult();
        }
        if (toSet & (kSetAtime | kSetMtime | kSetAtimeNow | kSetMtimeNow)) {
            struct timespec times[2];
            times[0].tv_nsec = UTIME_OMIT;
            times[1].tv_nsec = UTIME_OMIT;
            if (toSet & kSetAtimeNow)
                times[0].tv_nsec = UTIME_NOW;
            else if (toSet & kSetAtime)
                times[0] = attr.st_atim;
            if (toSet & kSetMtimeNow)
                times[1].tv_nsec = UTIME_NOW;
            else if (toSet & kSetMtime)
                times[1] = attr.st_mtim;
            if (::utimensat(AT_FDCWD, disk.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0)
                return errnoResult();
        }
        // Modes: a pak stores none; kept on the overlay's own files, else nothing to change.
        if ((toSet & kSetMode) && e && (e->upper || e->kept))
            if (::chmod(disk.c_str(), attr.st_mode & 07777) != 0) return errnoResult();
    }
    return getattr(ino, st);
}

int Overlay::unsupported(std::string_view what) {
    log(std::string(what) + ": a pak cannot hold it");
    return -EPERM;
}

long Overlay::getxattr(Ino ino, std::string_view name, char* value, std::size_t size) {
    {
        std::lock_guard lock(mutex_);
        if (const Entry* e = entryOf(ino)) {
            if (e->gone) return -ENOENT;
            // The pack's attributes describe the pack's bytes, not the overlay's.
            if (e->upper && !e->dir) return -ENODATA;
            if (!e->below) return -ENODATA;
        }
    }
    return below_.getxattr(ino, name, value, size);
}

long Overlay::listxattr(Ino ino, char* list, std::size_t size) {
    {
        std::lock_guard lock(mutex_);
        if (const Entry* e = entryOf(ino)) {
            if (e->gone) return -ENOENT;
            if ((e->upper && !e->dir) || !e->below) return 0;
        }
    }
    return below_.listxattr(ino, list, size);
}

int Overlay::statfs(struct statvfs* st) {
    return ::statvfs(options_.dir.c_str(), st) == 0 ? 0 : errnoResult();
}

int Overlay::access(Ino ino, int mask) {
    std::lock_guard lock(mutex_);
    (void)mask;
    return shows(ino) ? 0 : -ENOENT;
}

}  // namespace pakfs::fs
