// SPDX-License-Identifier: GPL-2.0-or-later
// Lock files and their open-file-description locks (FileLock.hpp says the layout).
#include "common/FileLock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/Error.hpp"
#include "common/Interrupt.hpp"

namespace stdfs = std::filesystem;

namespace pakfs {

namespace {

constexpr off_t kWriterByte = 0;
constexpr off_t kLinesMutexByte = 1;
// Written first, so the mounts' lines never overlap the two bytes above.
constexpr char kHeader[] = "# pakfs lock file: see pak(1), LOCKS\n";
constexpr off_t kHeaderSize = sizeof(kHeader) - 1;
// The most of a lock file read for the mounts' lines: a mount point is a path.
constexpr std::size_t kMaxLockFileRead = 1 << 20;

std::string sysMessage(const std::string& what, int err) {
    return what + ": " + std::strerror(err);
}

// Opens (creating) a lock file; -1 with errno set when it cannot be. A symbolic link in its
// place is not followed: nothing is written through it.
int openLockFile(const stdfs::path& file) {
    return ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
}

struct flock rangeOf(short type, off_t start, off_t length) {
    struct flock fl {};
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = length;
    return fl;
}

// Takes (or with F_UNLCK drops) a lock on a byte range; false when another holds a lock in
// the way and `wait` is false.
bool setLock(int fd, short type, off_t start, off_t length, bool wait, const stdfs::path& file) {
    for (;;) {
        struct flock fl = rangeOf(type, start, length);
        if (::fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl) == 0) return true;
        if (errno == EINTR) continue;
        if (!wait && (errno == EAGAIN || errno == EACCES)) return false;
        throw Error(sysMessage(file.string() + ": cannot lock", errno));
    }
}

// Whether another open file holds a lock that a lock of `type` on the range would meet.
bool lockedByOthers(int fd, short type, off_t start, off_t length, const stdfs::path& file) {
    struct flock fl = rangeOf(type, start, length);
    if (::fcntl(fd, F_OFD_GETLK, &fl) != 0)
        throw Error(sysMessage(file.string() + ": cannot test its lock", errno));
    return fl.l_type != F_UNLCK;
}

// Whether `fd` is still the file at `path` (the last one out may have removed it meanwhile).
bool stillAtPath(int fd, const stdfs::path& path) {
    struct stat open {
    }, named{};
    if (::fstat(fd, &open) != 0 || ::stat(path.c_str(), &named) != 0) return false;
    return open.st_dev == named.st_dev && open.st_ino == named.st_ino;
}

struct MountLine {
    off_t start;
    off_t length;
    std::string text;
};

std::vector<MountLine> mountLines(int fd) {
    std::vector<MountLine> lines;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size <= kHeaderSize) return lines;
    const std::size_t size =
        std::min<std::size_t>(std::size_t(st.st_size - kHeaderSize), kMaxLockFileRead);
    std::string text(size, '\0');
    const ssize_t got = ::pread(fd, text.data(), size, kHeaderSize);
    if (got <= 0) return lines;
    text.resize(std::size_t(got));
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) break;  // a line being written
        lines.push_back({off_t(kHeaderSize + at), off_t(end + 1 - at), text.substr(at, end - at)});
        at = end + 1;
    }
    return lines;
}

bool anyLineHeld(int fd, const stdfs::path& file) {
    for (const auto& line : mountLines(fd))
        if (lockedByOthers(fd, F_WRLCK, line.start, line.length, file)) return true;
    return false;
}

}  // namespace

stdfs::path writeTarget(const stdfs::path& path) {
    stdfs::path at = path;
    for (int links = 0; links <= 40; ++links) {
        std::error_code ec;
        if (!stdfs::is_symlink(stdfs::symlink_status(at, ec))) {
            if (links == 0) return path;
            // Shown to the user: the file by its plain name.
            stdfs::path plain = stdfs::weakly_canonical(at, ec);
            return ec ? at : plain;
        }
        stdfs::path to = stdfs::read_symlink(at, ec);
        if (ec)
            throw Error(path.string() + ": cannot read the symbolic link " + at.string() + ": " +
                        ec.message());
        at = to.is_absolute() ? to : at.parent_path() / to;
    }
    throw Error(path.string() + ": its symbolic links loop or run over 40 levels");
}

stdfs::path lockFileOf(const stdfs::path& target) {
    return target.parent_path() / ("." + target.filename().string() + ".pakfs-lock");
}

WriterLock WriterLock::acquire(const stdfs::path& path, bool wait) {
    const stdfs::path target = writeTarget(path);
    const stdfs::path lockFile = lockFileOf(target);
    for (;;) {
        const int fd = openLockFile(lockFile);
        if (fd < 0 && errno == ENOENT)
            throw Error(
                target.string() + ": no such folder " +
                (target.has_parent_path() ? target.parent_path() : stdfs::path(".")).string());
        if (fd < 0)
            throw Error(sysMessage(
                target.string() + ": cannot make its lock file " + lockFile.string(), errno));
        try {
            if (!setLock(fd, F_WRLCK, kWriterByte, 1, wait, lockFile))
                throw Error(target.string() +
                            ": another pak command is writing it now (it holds the lock file " +
                            lockFile.string() + "); try again when it is done, or pass --wait");
        } catch (...) {
            ::close(fd);
            throw;
        }
        if (stillAtPath(fd, lockFile)) return WriterLock(fd, target, lockFile);
        ::close(fd);  // removed by its last user while this one waited: lock the new one
    }
}

WriterLock::WriterLock(int fd, stdfs::path target, stdfs::path lockFile)
    : HeldDescriptor(fd), target_(std::move(target)), lockFile_(std::move(lockFile)) {
    // A command stopped by Ctrl-C leaves no lock file behind (when no mount marked it).
    interruptTicket_ = registerLockFile(fd_, lockFile_.string(), kLinesMutexByte, kHeaderSize);
}

WriterLock::~WriterLock() {
    release();
}

void WriterLock::release() {
    if (fd_ < 0) return;
    unregisterUnfinished(interruptTicket_);
    interruptTicket_ = -1;
    try {
        // The last one out removes the lock file, holding both bytes so no one locks it
        // meanwhile; a mount still marking the file keeps it.
        setLock(fd_, F_WRLCK, kLinesMutexByte, 1, true, lockFile_);
        if (!anyLineHeld(fd_, lockFile_)) ::unlink(lockFile_.c_str());
    } catch (const Error&) {
        // The lock file stays: harmless, and the next one out removes it.
    }
    ::close(fd_);
    fd_ = -1;
}

std::vector<std::string> WriterLock::servingMounts() const {
    std::vector<std::string> mounts;
    setLock(fd_, F_WRLCK, kLinesMutexByte, 1, true, lockFile_);
    for (const auto& line : mountLines(fd_))
        if (lockedByOthers(fd_, F_WRLCK, line.start, line.length, lockFile_))
            mounts.push_back(line.text);
    setLock(fd_, F_UNLCK, kLinesMutexByte, 1, false, lockFile_);
    return mounts;
}

ServedMark ServedMark::mark(const stdfs::path& pak, const std::string& mountPoint) {
    return markIf(pak, mountPoint, nullptr);
}

ServedMark ServedMark::markAlone(const stdfs::path& pak, const std::string& mountPoint,
                                 std::string& servedBy) {
    servedBy.clear();
    return markIf(pak, mountPoint, &servedBy);
}

ServedMark ServedMark::markIf(const stdfs::path& pak, const std::string& mountPoint,
                              std::string* servedBy) {
    ServedMark m;
    try {
        m.lockFile_ = lockFileOf(writeTarget(pak));
        std::string line = mountPoint;
        for (char& c : line)
            if (c == '\n') c = '?';
        line += '\n';
        for (;;) {
            const int fd = openLockFile(m.lockFile_);
            if (fd < 0) return ServedMark();
            setLock(fd, F_WRLCK, kLinesMutexByte, 1, true, m.lockFile_);
            if (!stillAtPath(fd, m.lockFile_)) {
                ::close(fd);
                continue;
            }
            if (servedBy)
                for (const auto& held : mountLines(fd))
                    if (lockedByOthers(fd, F_WRLCK, held.start, held.length, m.lockFile_)) {
                        *servedBy = held.text;
                        ::close(fd);  // the mutex byte goes with it
                        return ServedMark();
                    }
            // Lines of mounts that ended are dropped when no line is held.
            struct stat st {};
            if (::fstat(fd, &st) != 0 || st.st_size < kHeaderSize ||
                !anyLineHeld(fd, m.lockFile_)) {
                if (::ftruncate(fd, 0) != 0 ||
                    ::pwrite(fd, kHeader, std::size_t(kHeaderSize), 0) != kHeaderSize) {
                    ::close(fd);
                    return ServedMark();
                }
                st.st_size = kHeaderSize;
            }
            const off_t at = st.st_size;
            if (::pwrite(fd, line.data(), line.size(), at) != ssize_t(line.size()) ||
                !setLock(fd, F_RDLCK, at, off_t(line.size()), false, m.lockFile_)) {
                ::close(fd);
                return ServedMark();
            }
            setLock(fd, F_UNLCK, kLinesMutexByte, 1, false, m.lockFile_);
            m.fd_ = fd;
            m.lineStart_ = at;
            m.lineLength_ = off_t(line.size());
            return m;
        }
    } catch (const Error&) {
        return ServedMark();
    }
}

ServedMark::~ServedMark() {
    release();
}

void ServedMark::release() {
    if (fd_ < 0) return;
    try {
        setLock(fd_, F_WRLCK, kLinesMutexByte, 1, true, lockFile_);
        setLock(fd_, F_UNLCK, off_t(lineStart_), off_t(lineLength_), false, lockFile_);
        // Removed only by one holding the writer's byte too: a writer may be at work.
        if (stillAtPath(fd_, lockFile_) &&
            setLock(fd_, F_WRLCK, kWriterByte, 1, false, lockFile_) && !anyLineHeld(fd_, lockFile_))
            ::unlink(lockFile_.c_str());
    } catch (const Error&) {
    }
    ::close(fd_);
    fd_ = -1;
}

FolderLock FolderLock::tryAcquire(const stdfs::path& lockFile, const std::string& holder,
                                  std::string& heldBy) {
    for (;;) {
        const int fd = openLockFile(lockFile);
        if (fd < 0)
            throw Error(sysMessage(lockFile.string() + ": cannot make the lock file", errno));
        try {
            if (!setLock(fd, F_WRLCK, kWriterByte, 1, false, lockFile)) {
                char text[4096];
                const ssize_t got = ::pread(fd, text, sizeof text, 0);
                heldBy.assign(text, got > 0 ? std::size_t(got) : 0);
                while (!heldBy.empty() && (heldBy.back() == '\n' || heldBy.back() == '\0'))
                    heldBy.pop_back();
                if (heldBy.empty()) heldBy = "another process";
                ::close(fd);
                return FolderLock();
            }
        } catch (...) {
            ::close(fd);
            throw;
        }
        if (!stillAtPath(fd, lockFile)) {
            ::close(fd);
            continue;
        }
        FolderLock lock;
        lock.fd_ = fd;
        lock.lockFile_ = lockFile;
        lock.describe(holder);
        return lock;
    }
}

void FolderLock::describe(const std::string& holder) {
    const std::string text = holder + "\n";
    if (::ftruncate(fd_, 0) != 0 ||
        ::pwrite(fd_, text.data(), text.size(), 0) != ssize_t(text.size()))
        throw Error(sysMessage(lockFile_.string() + ": cannot write the lock file", errno));
}

FolderLock::~FolderLock() {
    release();
}

void FolderLock::release() {
    if (fd_ < 0) return;
    ::unlink(lockFile_.c_str());  // held: no one else can be using this file now
    ::close(fd_);
    fd_ = -1;
}

}  // namespace pakfs
