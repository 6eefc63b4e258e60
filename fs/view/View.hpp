// SPDX-License-Identifier: GPL-2.0-or-later
// A view of files, by inode number, as the FUSE adapter serves it: the read-only pack view
// (PackView) and the overlay over any view (Overlay) answer it. Every method returns 0 (or a
// byte count) or a negative errno; nothing here knows about FUSE. No inode is numbered 0: the
// methods that read answer it with -ENOENT (the changes too, unless the view is read-only).
#pragma once

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace pakfs::fs {

class View {
public:
    using Ino = std::uint64_t;
    static constexpr Ino kRootIno = 1;
    // What setattr changes (the values of libfuse's FUSE_SET_ATTR_*, checked in FuseOps.cpp).
    static constexpr int kSetMode = 1 << 0, kSetUid = 1 << 1, kSetGid = 1 << 2, kSetSize = 1 << 3,
                         kSetAtime = 1 << 4, kSetMtime = 1 << 5, kSetAtimeNow = 1 << 7,
                         kSetMtimeNow = 1 << 8;
    // `next` is the offset to resume at after this entry; false: the buffer is full.
    using FillDirAt =
        std::function<bool(const char* name, const struct stat& st, std::int64_t next)>;

    virtual ~View() = default;

    // Whether anything can change (then the kernel may keep nothing forever).
    virtual bool writable() const { return false; }
    // Inode numbers this view hands out are at most this (a view over it numbers above).
    virtual Ino inoLimit() const = 0;

    virtual int lookup(Ino parent, std::string_view name, struct stat* st) = 0;
    virtual int getattr(Ino ino, struct stat* st) = 0;
    // The parent and name of `ino` (the root: itself and ""); -ENOENT if unknown.
    virtual int locate(Ino ino, Ino* parent, std::string* name) = 0;
    // ".", ".." and every child in name order from entry `offset` (0: from ".").
    virtual int readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) = 0;
    // fh 0 after success: reads go by inode (no state to keep).
    virtual int open(Ino ino, int flags, std::uint64_t* fh) = 0;
    virtual long read(Ino ino, std::uint64_t fh, char* buf, std::size_t size,
                      std::int64_t offset) = 0;
    virtual int release(Ino ino, std::uint64_t fh) = 0;
    virtual long getxattr(Ino ino, std::string_view name, char* value, std::size_t size) = 0;
    virtual long listxattr(Ino ino, char* list, std::size_t size) = 0;
    virtual int statfs(struct statvfs* st) = 0;
    virtual int access(Ino ino, int mask) = 0;

    // Changes: a read-only view refuses them all.
    virtual int create(Ino parent, std::string_view name, mode_t mode, int flags, struct stat* st,
                       std::uint64_t* fh) {
        (void)parent, (void)name, (void)mode, (void)flags, (void)st, (void)fh;
        return -EROFS;
    }
    virtual int mkdir(Ino parent, std::string_view name, mode_t mode, struct stat* st) {
        (void)parent, (void)name, (void)mode, (void)st;
        return -EROFS;
    }
    virtual int unlink(Ino parent, std::string_view name) {
        (void)parent, (void)name;
        return -EROFS;
    }
    virtual int rmdir(Ino parent, std::string_view name) {
        (void)parent, (void)name;
        return -EROFS;
    }
    virtual int rename(Ino parent, std::string_view name, Ino newParent, std::string_view newName,
                       unsigned flags) {
        (void)parent, (void)name, (void)newParent, (void)newName, (void)flags;
        return -EROFS;
    }
    // `toSet`: the kSet* bits.
    virtual int setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                        struct stat* st) {
        (void)ino, (void)attr, (void)toSet, (void)fh, (void)st;
        return -EROFS;
    }
    virtual long write(Ino ino, std::uint64_t fh, const char* buf, std::size_t size,
                       std::int64_t offset) {
        (void)ino, (void)fh, (void)buf, (void)size, (void)offset;
        return -EROFS;
    }
    virtual int fsync(Ino ino, std::uint64_t fh, bool dataOnly) {
        (void)ino, (void)fh, (void)dataOnly;
        return 0;
    }
    // What a pak cannot hold (symlinks, hard links, device files): refused with this errno.
    virtual int unsupported(std::string_view what) {
        (void)what;
        return -EROFS;
    }

    // Why a view over this one may not delete `ino` of this view, nor hide it by a rename (a
    // whiteout, or an opaque folder made over it): one line for the log, "" when it may.
    virtual std::string whyNotDeletable(Ino ino) {
        (void)ino;
        return {};
    }

    // The kernel holds `ino` no more (no name, no open file leads to it).
    virtual void forget(Ino ino) { (void)ino; }

    // Whether the kernel may keep nothing of `ino` (its attributes, its names, its listing,
    // its pages) for any time: changes made through another inode change it.
    virtual bool keepsNoAttributes(Ino ino) const {
        (void)ino;
        return false;
    }

    // Runs `store`, which hands the content of `ino` decoded by the view below to the kernel
    // (files decoded ahead), unless this view has changed or hidden `ino`.
    virtual bool storeIfBelow(Ino ino, const std::function<bool()>& store) {
        (void)ino;
        return store();
    }
};

// The inode at "/pack/folder/file" ("/" is the root; one trailing '/' is allowed), walking
// `view.lookup` one component at a time; 0 (which reads answer with -ENOENT) when there is none,
// also for a path not starting with '/' or with an empty component.
View::Ino inoAt(View& view, std::string_view path);

}  // namespace pakfs::fs
