// SPDX-License-Identifier: GPL-2.0-or-later
// A writable mount with icase: a name looked up by another spelling than the one it shows
// (CASE.txt for Case.txt) is an inode of its own to the kernel, an alias of the name's.
//
// The kernel takes a rename whose new name is the old one's inode for no change at all, and
// mv(1) refuses to move a file onto itself: with the one inode for every spelling, Case.txt
// could never become CASE.txt. Every call on an alias is the call on the name's inode; only
// the inode number differs. A change through one spelling changes what the others show, so
// the kernel keeps nothing of any inode (attributes, names, listings, pages) on such a mount.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "fs/view/View.hpp"

namespace pakfs::fs {

class CaseAliases : public View {
public:
    explicit CaseAliases(View& inner) : inner_(inner) {}

    // Alias inode numbers start here, above any the overlay hands out.
    static constexpr Ino kFirstAlias = Ino(1) << 62;
    static bool isAlias(Ino ino) { return ino >= kFirstAlias; }

    bool writable() const override { return inner_.writable(); }
    Ino inoLimit() const override { return inner_.inoLimit(); }
    int lookup(Ino parent, std::string_view name, struct stat* st) override;
    int getattr(Ino ino, struct stat* st) override;
    int locate(Ino ino, Ino* parent, std::string* name) override;
    int readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) override;
    int open(Ino ino, int flags, std::uint64_t* fh) override;
    long read(Ino ino, std::uint64_t fh, char* buf, std::size_t size, std::int64_t offset) override;
    int release(Ino ino, std::uint64_t fh) override;
    long getxattr(Ino ino, std::string_view name, char* value, std::size_t size) override;
    long listxattr(Ino ino, char* list, std::size_t size) override;
    int statfs(struct statvfs* st) override;
    int access(Ino ino, int mask) override;
    int create(Ino parent, std::string_view name, mode_t mode, int flags, struct stat* st,
               std::uint64_t* fh) override;
    int mkdir(Ino parent, std::string_view name, mode_t mode, struct stat* st) override;
    int unlink(Ino parent, std::string_view name) override;
    int rmdir(Ino parent, std::string_view name) override;
    int rename(Ino parent, std::string_view name, Ino newParent, std::string_view newName,
               unsigned flags) override;
    int setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                struct stat* st) override;
    long write(Ino ino, std::uint64_t fh, const char* buf, std::size_t size,
               std::int64_t offset) override;
    int fsync(Ino ino, std::uint64_t fh, bool dataOnly) override;
    int unsupported(std::string_view what) override { return inner_.unsupported(what); }
    std::string whyNotDeletable(Ino ino) override { return inner_.whyNotDeletable(real(ino)); }
    void forget(Ino ino) override;
    bool storeIfBelow(Ino ino, const std::function<bool()>& store) override {
        return inner_.storeIfBelow(ino, store);
    }
    // A change through one spelling changes what every other shows: the kernel keeps nothing.
    bool keepsNoAttributes(Ino) const override { return true; }

private:
    // The name's inode for an alias (0 for one forgotten); any other inode as it is.
    Ino real(Ino ino);

    View& inner_;
    std::mutex mutex_;
    std::unordered_map<Ino, Ino> aliases_;               // alias -> the name's inode
    std::map<std::pair<Ino, std::string>, Ino> byName_;  // (folder, spelling) -> alias
    std::unordered_map<Ino, std::pair<Ino, std::string>> spellingOf_;  // alias -> its key
    Ino next_ = kFirstAlias;
};

}  // namespace pakfs::fs
