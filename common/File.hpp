// SPDX-License-Identifier: GPL-2.0-or-later
// Files as the tools open, read and write them: regular files only (never waiting on a FIFO or
// device), read-only files shared by threads, and output replaced atomically.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "common/Bytes.hpp"

namespace pakfs {

// What openRegularFile found: an open regular file, or why not.
struct RegularFileOpen {
    int fd = -1;        // the open file (the caller closes it), or -1
    int error = 0;      // with fd -1: errno of the failed stat or open; 0: not a regular file
    struct stat st {};  // what is at the path (with fd >= 0, the open file's)
};

// Opens `path` with `flags` (O_RDONLY or O_RDWR; O_CLOEXEC and O_NOCTTY are added) only when it
// is a regular file, without ever waiting on what is not one: a FIFO, socket or device is not
// opened at all, and one put in its place between the look and the open is opened without
// blocking (O_NONBLOCK, cleared again on a regular file), seen and closed. Never throws.
RegularFileOpen openRegularFile(const std::filesystem::path& path, int flags) noexcept;

// openRegularFile for reading, with the user-facing refusals thrown as Error naming the path:
// "no such file", "is a folder, not a file", "not a regular file", "cannot open: REASON".
// Returns the descriptor (the caller closes it); `st` gets the file's stat.
int openRegularForReading(const std::filesystem::path& path, struct stat& st);

// A read-only file opened once and read with pread, so many threads can share it.
class InputFile {
public:
    static std::shared_ptr<InputFile> open(const std::filesystem::path& path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::string& name() const { return name_; }
    std::uint64_t size() const { return size_; }
    std::int64_t mtime() const { return mtime_; }
    // Reads exactly `n` bytes at `offset` or throws TruncatedError naming the file.
    void readAt(std::uint64_t offset, std::uint8_t* dst, std::size_t n) const;
    Bytes readAt(std::uint64_t offset, std::size_t n) const;
    int descriptor() const { return fd_; }

private:
    InputFile(int fd, std::string name, std::uint64_t size, std::int64_t mtime);
    int fd_;
    std::string name_;
    std::uint64_t size_;
    std::int64_t mtime_;
};

// A run of bytes to read sequentially: part of a file, or memory.
class ByteRange {
public:
    ByteRange(std::shared_ptr<const InputFile> file, std::uint64_t offset, std::uint64_t size)
        : file_(std::move(file)), offset_(offset), size_(size) {}
    explicit ByteRange(ByteSpan memory) : memory_(memory), size_(memory.size()) {}

    std::uint64_t size() const { return size_; }
    void read(std::uint64_t at, std::uint8_t* dst, std::size_t n) const;
    const std::string& name() const;
    bool inMemory() const { return !file_; }
    // How many of the range's bytes from `at` on the file holds (fewer in a file cut short).
    std::uint64_t held(std::uint64_t at) const;

private:
    std::shared_ptr<const InputFile> file_;
    ByteSpan memory_;
    std::uint64_t offset_ = 0;
    std::uint64_t size_ = 0;
};

// Writes a file next to its destination and renames it into place only when complete, so a
// failed or interrupted write never leaves a half-written file where the user's file was.
// A destination that is a symbolic link is written through: the file it names is replaced
// (its temporary file beside it), and the link stays a link.
class AtomicOutputFile {
public:
    explicit AtomicOutputFile(const std::filesystem::path& dest);
    // The file written: the destination, or the file its symbolic links name.
    const std::filesystem::path& target() const { return dest_; }
    ~AtomicOutputFile();  // removes the temp file unless commit() ran
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    void write(ByteSpan data);
    void writeAt(std::uint64_t offset, ByteSpan data);
    // Copies `n` bytes of `source` at `sourceOffset` to `offset`, in the kernel where it can
    // (copy_file_range: no pass through this process's memory), else by reads and writes.
    void copyFrom(const InputFile& source, std::uint64_t sourceOffset, std::uint64_t offset,
                  std::uint64_t n);
    // Reads back what was written (checksums over the finished file).
    void readAt(std::uint64_t offset, std::uint8_t* dst, std::size_t n) const;
    std::uint64_t size() const { return size_; }
    void commit();

private:
    std::filesystem::path dest_;
    std::string tempPath_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    int interruptTicket_ = -1;     // the temp file is removed if SIGINT/SIGTERM comes first
    std::uint64_t unflushed_ = 0;  // bytes written since the disk was last asked to start
    // After every 64 MiB written, asks the kernel to start writing the file out, so that the
    // disk works while the rest is made and the final fsync has less left to wait for.
    void written(std::uint64_t n);
};

}  // namespace pakfs
