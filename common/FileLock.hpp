// SPDX-License-Identifier: GPL-2.0-or-later
// Advisory locks that keep two writers of one file apart, keep one overlay folder to one user
// at a time, and let a writable mount say which paks it serves; and where a write through a
// symbolic link lands.
//
// Every lock is an open-file-description lock (fcntl F_OFD_*) on a lock file: it is released
// when the process ends however it ends (kill -9 included), and it is kept across fork (the
// mount's daemon). A lock file is never the locked file itself: a writer replaces that by
// rename, and a lock on the old inode would then lock nothing.
//
// The lock file of a file TARGET is ".NAME.pakfs-lock" beside it:
//   byte 0          the writer's lock, exclusive, held for the whole of a command's work
//   byte 1          a short lock while the mounts' lines are read or written
//   lines after it  one per writable mount serving TARGET: its mount point, each line held by
//                   that mount with a shared lock for its lifetime (a line no one holds is a
//                   mount that ended)
// The last one out removes the lock file; a lock is only counted once the file it was taken
// on is still the one at the path (else it is taken again on the new one).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace pakfs {

// The descriptor a lock object holds, moved as the objects below move: a move takes it and
// leaves -1 behind; a move onto an object that holds one first lets that go (Owner::release,
// which still sees the owner's other members as they were).
template <class Owner>
class HeldDescriptor {
protected:
    HeldDescriptor() = default;
    explicit HeldDescriptor(int fd) : fd_(fd) {}
    HeldDescriptor(HeldDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    HeldDescriptor& operator=(HeldDescriptor&& other) noexcept {
        if (this != &other) {
            static_cast<Owner*>(this)->release();
            fd_ = std::exchange(other.fd_, -1);
        }
        return *this;
    }
    ~HeldDescriptor() = default;

    int fd_ = -1;
};

// The file a write to `path` lands on: `path` itself, or, when it is a symbolic link (or a
// chain of them), the file the last one names (which need not exist yet). Throws Error naming
// `path` for a chain that loops or runs over 40 links.
std::filesystem::path writeTarget(const std::filesystem::path& path);

// The lock file of `target` (a path after writeTarget).
std::filesystem::path lockFileOf(const std::filesystem::path& target);

// An exclusive lock on a file that is replaced by rename (a pak, a packlist), for the lock's
// lifetime. Moves, not copies.
class WriterLock : private HeldDescriptor<WriterLock> {
public:
    // Locks writeTarget(path). When another process holds it: waits for it with `wait`, else
    // throws Error naming the file and the lock file at once.
    static WriterLock acquire(const std::filesystem::path& path, bool wait);
    WriterLock(WriterLock&& other) noexcept = default;
    WriterLock& operator=(WriterLock&& other) noexcept = default;
    ~WriterLock();

    // The file the lock is for (after links).
    const std::filesystem::path& target() const { return target_; }
    // The mount points of the writable mounts that serve the file now.
    std::vector<std::string> servingMounts() const;

private:
    friend class HeldDescriptor<WriterLock>;
    WriterLock(int fd, std::filesystem::path target, std::filesystem::path lockFile);
    void release();
    // Removes the lock file on SIGINT and SIGTERM (Interrupt.hpp). A moved-from lock keeps a
    // stale number but holds no descriptor, so its release() does nothing with it.
    int interruptTicket_ = -1;
    std::filesystem::path target_;
    std::filesystem::path lockFile_;
};

// A writable mount's mark on a pak it serves (see above), for the mark's lifetime. Marks are
// best effort: a pak in a folder no lock file can be made in is served unmarked.
class ServedMark : private HeldDescriptor<ServedMark> {
public:
    // Marks writeTarget(pak) as served by the mount at `mountPoint`; an unmarked object when
    // no lock file can be made beside the pak.
    static ServedMark mark(const std::filesystem::path& pak, const std::string& mountPoint);
    // The same, unless another writable mount serves the pak now: then nothing is marked and
    // `servedBy` is that mount's point (checked and marked under one lock: of two mounts at
    // once, one is refused).
    static ServedMark markAlone(const std::filesystem::path& pak, const std::string& mountPoint,
                                std::string& servedBy);
    ServedMark() = default;
    ServedMark(ServedMark&& other) noexcept = default;
    ServedMark& operator=(ServedMark&& other) noexcept = default;
    ~ServedMark();

private:
    static ServedMark markIf(const std::filesystem::path& pak, const std::string& mountPoint,
                             std::string* servedBy);
    friend class HeldDescriptor<ServedMark>;
    void release();
    long long lineStart_ = 0;
    long long lineLength_ = 0;
    std::filesystem::path lockFile_;
};

// An exclusive lock on a folder (an overlay folder: its lock file is FOLDER/NAME), saying who
// holds it. Moves, not copies.
class FolderLock : private HeldDescriptor<FolderLock> {
public:
    // Locks `lockFile` and writes `holder` into it. When another holds it: the holder text it
    // wrote is returned in `heldBy` and the lock is not taken (taken() is false).
    static FolderLock tryAcquire(const std::filesystem::path& lockFile, const std::string& holder,
                                 std::string& heldBy);
    FolderLock() = default;
    FolderLock(FolderLock&& other) noexcept = default;
    FolderLock& operator=(FolderLock&& other) noexcept = default;
    ~FolderLock();
    bool taken() const { return fd_ >= 0; }
    // Says what the holder does now, for those refused meanwhile.
    void describe(const std::string& holder);

private:
    friend class HeldDescriptor<FolderLock>;
    void release();
    std::filesystem::path lockFile_;
};

}  // namespace pakfs
