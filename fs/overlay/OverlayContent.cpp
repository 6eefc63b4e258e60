// SPDX-License-Identifier: GPL-2.0-or-later
// Overlay: file contents (copy-up of the view below's files and folders, handles, reads,
// writes, syncs, sizes and times).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "commit/OverlayLayout.hpp"
#include "common/File.hpp"
#include "fs/overlay/Overlay.hpp"
#include "fs/overlay/OverlayDisk.hpp"

namespace pakfs::fs {

using overlay_disk::errnoResult;

namespace {

constexpr std::size_t kCopyChunk = 1 << 20;

void syncFolder(const std::filesystem::path& dir) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

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

int Overlay::copyUpTree(Ino dir) {
    if (int rc = ensureUpperDir(dir); rc != 0) return rc;
    std::vector<std::string> names;
    if (int rc = readdirLocked(dir, 2,
                               [&](const char* n, const struct stat&, std::int64_t) {
                                   names.emplace_back(n);
                                   return true;
                               });
        rc != 0)
        return rc;
    for (const auto& n : names) {
        Ino child = 0;
        struct stat st;
        if (resolve(dir, n, &child, &st) != 0) continue;
        const int rc = S_ISDIR(st.st_mode) ? copyUpTree(child) : copyUp(child);
        if (rc != 0) return rc;
        entries_[child].below = false;
    }
    // Whiteouts and the opaque marker hide what the view below had here: nothing is taken
    // from it any more.
    const std::filesystem::path disk = diskOf(dir);
    std::vector<std::filesystem::path> markers;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(disk, ec), end; !ec && it != end; it.increment(ec))
        if (commit::isLayoutName(it->path().filename().string())) markers.push_back(it->path());
    if (ec) return -ec.value();
    for (const auto& m : markers)
        if (::unlink(m.c_str()) != 0) return errnoResult();
    Entry& e = entries_[dir];
    e.below = e.opaque = false;
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
}  // namespace pakfs::fs
