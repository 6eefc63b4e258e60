// SPDX-License-Identifier: GPL-2.0-or-later
// Regular files opened without ever opening a device or waiting on a FIFO, positioned reads, and
// AtomicOutputFile: a temporary beside the target, write-out every 16 MiB, fsync, rename.
#include "common/File.hpp"

#include "common/FileLock.hpp"
#include "common/Interrupt.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>

namespace pakfs {

namespace {
std::string sysError(const std::string& what, const std::string& name) {
    return name + ": " + what + ": " + std::strerror(errno);
}
}  // namespace

RegularFileOpen openRegularFile(const std::filesystem::path& path, int flags) noexcept {
    RegularFileOpen r;
    // A look first, so that a device is never opened (opening one may act: a tape rewinds, a
    // terminal becomes the controlling one) and a FIFO never waited on.
    if (::stat(path.c_str(), &r.st) != 0) {
        r.error = errno;
        return r;
    }
    if (!S_ISREG(r.st.st_mode)) return r;
    const int base = flags | O_CLOEXEC | O_NOCTTY;
    int fd = ::open(path.c_str(), base | O_NONBLOCK);
    // A regular file under a lease another holds answers EWOULDBLOCK instead of waiting for
    // the lease to break; a FIFO never does (read or read-write), so waiting is safe then.
    if (fd < 0 && errno == EWOULDBLOCK) fd = ::open(path.c_str(), base);
    if (fd < 0) {
        r.error = errno;
        return r;
    }
    if (::fstat(fd, &r.st) != 0) {
        r.error = errno;
        ::close(fd);
        return r;
    }
    if (!S_ISREG(r.st.st_mode)) {  // something else put there since the look
        ::close(fd);
        return r;
    }
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0 || ((fl & O_NONBLOCK) && ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0)) {
        r.error = errno;
        ::close(fd);
        return r;
    }
    r.fd = fd;
    return r;
}

int openRegularForReading(const std::filesystem::path& path, struct stat& st) {
    const std::string name = path.string();
    RegularFileOpen r = openRegularFile(path, O_RDONLY);
    st = r.st;
    if (r.fd >= 0) return r.fd;
    if (r.error == ENOENT) throw Error(name + ": no such file");
    if (r.error != 0) {
        errno = r.error;
        throw Error(sysError("cannot open", name));
    }
    throw Error(name +
                (S_ISDIR(r.st.st_mode) ? ": is a folder, not a file" : ": not a regular file"));
}

std::shared_ptr<InputFile> InputFile::open(const std::filesystem::path& path) {
    struct stat st {};
    const int fd = openRegularForReading(path, st);
    return std::shared_ptr<InputFile>(
        new InputFile(fd, path.string(), std::uint64_t(st.st_size), std::int64_t(st.st_mtime)));
}

InputFile::InputFile(int fd, std::string name, std::uint64_t size, std::int64_t mtime)
    : fd_(fd), name_(std::move(name)), size_(size), mtime_(mtime) {}

InputFile::~InputFile() {
    ::close(fd_);
}

void InputFile::readAt(std::uint64_t offset, std::uint8_t* dst, std::size_t n) const {
    if (offset > size_ || n > size_ - offset)
        throw TruncatedError(name_ + ": file is truncated (needs " + std::to_string(n) +
                             " bytes at offset " + std::to_string(offset) + ", file has " +
                             std::to_string(size_) + ")");
    while (n > 0) {
        ssize_t got = ::pread(fd_, dst, n, off_t(offset));
        if (got < 0) {
            if (errno == EINTR) continue;
            throw Error(sysError("read error", name_));
        }
        if (got == 0)
            throw TruncatedError(name_ + ": file shrank while reading (offset " +
                                 std::to_string(offset) + ")");
        dst += got;
        n -= std::size_t(got);
        offset += std::uint64_t(got);
    }
}

Bytes InputFile::readAt(std::uint64_t offset, std::size_t n) const {
    Bytes out(n);
    readAt(offset, out.data(), n);
    return out;
}

void ByteRange::read(std::uint64_t at, std::uint8_t* dst, std::size_t n) const {
    if (at > size_ || n > size_ - at) throw TruncatedError(name() + ": read past the end of data");
    if (n == 0) return;  // an empty range may have no memory at all
    if (file_)
        file_->readAt(offset_ + at, dst, n);
    else
        std::memcpy(dst, memory_.data() + at, n);
}

std::uint64_t ByteRange::held(std::uint64_t at) const {
    if (at >= size_) return 0;
    if (!file_) return size_ - at;
    const std::uint64_t from = offset_ + at, fileSize = file_->size();
    return from >= fileSize ? 0 : std::min(size_ - at, fileSize - from);
}

const std::string& ByteRange::name() const {
    static const std::string memoryName = "<memory>";
    return file_ ? file_->name() : memoryName;
}

AtomicOutputFile::AtomicOutputFile(const std::filesystem::path& path) : dest_(writeTarget(path)) {
    // A symbolic link stays a link: the file it names is the one replaced.
    const std::filesystem::path& dest = dest_;
    std::filesystem::path dir = dest.parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    const bool replaces = std::filesystem::exists(dest, ec);
    // The name is registered for removal on SIGINT/SIGTERM before the file exists, so no
    // moment leaves it behind unregistered (mkstemp would create it first).
    static std::atomic<std::uint64_t> counter{0};
    std::random_device random;
    for (int attempt = 0; fd_ < 0; ++attempt) {
        char suffix[7];
        std::uint64_t bits = (std::uint64_t(random()) << 32) ^ random() ^ (counter++ << 20);
        static const char kChars[] =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for (char& c : suffix) c = kChars[(bits >>= 6) % 62];
        suffix[6] = '\0';
        tempPath_ = (dir / ("." + dest.filename().string() + ".tmp-" + suffix)).string();
        interruptTicket_ =
            registerUnfinished(AT_FDCWD, tempPath_,
                               dest.string() + (replaces ? " left as it was" : " not written") +
                                   " (its unfinished temporary file " + tempPath_ + " removed)");
        fd_ = ::open(tempPath_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd_ >= 0) break;
        const int err = errno;
        unregisterUnfinished(interruptTicket_);
        interruptTicket_ = -1;
        errno = err;
        if (err != EEXIST || attempt > 100)
            throw Error(sysError("cannot create a temporary file", tempPath_));
    }
}

AtomicOutputFile::~AtomicOutputFile() {
    unregisterUnfinished(interruptTicket_);
    if (fd_ >= 0) {
        ::close(fd_);
        ::unlink(tempPath_.c_str());
    }
}

void AtomicOutputFile::write(ByteSpan data) {
    writeAt(size_, data);
}

void AtomicOutputFile::readAt(std::uint64_t offset, std::uint8_t* dst, std::size_t n) const {
    while (n > 0) {
        ssize_t got = ::pread(fd_, dst, n, off_t(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) throw Error(sysError("read error", dest_.string()));
        dst += got;
        n -= std::size_t(got);
        offset += std::uint64_t(got);
    }
}

// The write-out is started every 16 MiB written, so that it keeps pace with the writer and the
// final fsync has little left to wait for (every 64 MiB: a version 18 commit took 1.52x the time
// of cp then sync instead of 1.45x; BENCHMARKS.md).
void AtomicOutputFile::written(std::uint64_t n) {
    unflushed_ += n;
    if (unflushed_ < (16u << 20)) return;
    unflushed_ = 0;
    // Only a start: no wait, and no error that the final fsync would not report.
    (void)::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
}

void AtomicOutputFile::writeAt(std::uint64_t offset, ByteSpan data) {
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    std::uint64_t at = offset;
    while (n > 0) {
        ssize_t put = ::pwrite(fd_, p, n, off_t(at));
        if (put < 0) {
            if (errno == EINTR) continue;
            throw Error(sysError("write error", dest_.string()));
        }
        p += put;
        n -= std::size_t(put);
        at += std::uint64_t(put);
    }
    size_ = std::max(size_, at);
    written(data.size());
}

void AtomicOutputFile::copyFrom(const InputFile& source, std::uint64_t sourceOffset,
                                std::uint64_t offset, std::uint64_t n) {
    if (sourceOffset > source.size() || n > source.size() - sourceOffset)
        throw TruncatedError(source.name() + ": truncated (wanted " + std::to_string(n) +
                             " bytes at offset " + std::to_string(sourceOffset) + ")");
    loff_t in = loff_t(sourceOffset), out = loff_t(offset);
    std::uint64_t left = n;
    while (left > 0) {
        // In 64 MiB pieces, so that writing out starts while the copy goes on.
        ssize_t put = ::copy_file_range(source.descriptor(), &in, fd_, &out,
                                        std::size_t(std::min<std::uint64_t>(left, 64u << 20)), 0);
        if (put > 0) {
            left -= std::uint64_t(put);
            written(std::uint64_t(put));
            continue;
        }
        if (put < 0 && errno == EINTR) continue;
        if (put < 0 && errno != EXDEV && errno != ENOSYS && errno != EINVAL &&
            errno != EOPNOTSUPP && errno != EBADF)
            throw Error(sysError("write error", dest_.string()));
        // Not between these files (or the source ended, which readAt reports): by hand.
        Bytes buf(std::size_t(std::min<std::uint64_t>(left, 1u << 20)));
        while (left > 0) {
            const std::size_t k = std::size_t(std::min<std::uint64_t>(left, buf.size()));
            source.readAt(std::uint64_t(in), buf.data(), k);
            writeAt(std::uint64_t(out), ByteSpan(buf.data(), k));
            in += loff_t(k);
            out += loff_t(k);
            left -= k;
        }
    }
    size_ = std::max(size_, offset + n);
}

void AtomicOutputFile::commit() {
    // A file replaced keeps its mode; a new one is 0644.
    struct stat old;
    const mode_t mode = ::stat(dest_.c_str(), &old) == 0 ? old.st_mode & 07777 : 0644;
    if (::fchmod(fd_, mode) != 0 || ::fsync(fd_) != 0)
        throw Error(sysError("cannot finish writing", dest_.string()));
    if (::close(fd_) != 0) {
        fd_ = -1;
        ::unlink(tempPath_.c_str());
        throw Error(sysError("cannot finish writing", dest_.string()));
    }
    fd_ = -1;
    unregisterUnfinished(interruptTicket_);
    interruptTicket_ = -1;
    if (::rename(tempPath_.c_str(), dest_.c_str()) != 0) {
        int err = errno;
        ::unlink(tempPath_.c_str());
        errno = err;
        throw Error(sysError("cannot rename the finished file into place", dest_.string()));
    }
    // The rename itself reaches the disk with its folder.
    const std::filesystem::path folder = dest_.has_parent_path() ? dest_.parent_path() : ".";
    int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

}  // namespace pakfs
