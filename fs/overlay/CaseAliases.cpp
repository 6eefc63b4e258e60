// SPDX-License-Identifier: GPL-2.0-or-later
// CaseAliases: every call passed on with the name's inode for an alias.
#include "fs/overlay/CaseAliases.hpp"

#include <sys/stat.h>

#include <cerrno>

namespace pakfs::fs {

View::Ino CaseAliases::real(Ino ino) {
    if (!isAlias(ino)) return ino;
    std::lock_guard lock(mutex_);
    auto it = aliases_.find(ino);
    return it == aliases_.end() ? 0 : it->second;
}

int CaseAliases::lookup(Ino parent, std::string_view name, struct stat* st) {
    const Ino folder = real(parent);
    if (folder == 0) return -ENOENT;
    if (int rc = inner_.lookup(folder, name, st); rc != 0) return rc;
    const Ino ino = st->st_ino;
    Ino at = 0;
    std::string shown;
    if (inner_.locate(ino, &at, &shown) != 0 || shown == name) return 0;
    std::lock_guard lock(mutex_);
    auto key = std::make_pair(folder, std::string(name));
    auto it = byName_.find(key);
    // A spelling that finds another inode than before (the name was replaced or renamed) is
    // a new alias: the kernel may still hold the old one, which keeps its inode.
    if (it != byName_.end() && aliases_[it->second] != ino) {
        spellingOf_.erase(it->second);
        byName_.erase(it);
        it = byName_.end();
    }
    if (it == byName_.end()) {
        it = byName_.emplace(key, next_).first;
        spellingOf_.emplace(next_, std::move(key));
        aliases_[next_++] = ino;
    }
    st->st_ino = it->second;
    return 0;
}

int CaseAliases::getattr(Ino ino, struct stat* st) {
    const Ino r = real(ino);
    if (r == 0) return -ENOENT;
    int rc = inner_.getattr(r, st);
    if (rc == 0) st->st_ino = ino;
    return rc;
}

int CaseAliases::locate(Ino ino, Ino* parent, std::string* name) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.locate(r, parent, name);
}

int CaseAliases::readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.readdir(r, offset, fill);
}

int CaseAliases::open(Ino ino, int flags, std::uint64_t* fh) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.open(r, flags, fh);
}

long CaseAliases::read(Ino ino, std::uint64_t fh, char* buf, std::size_t size,
                       std::int64_t offset) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.read(r, fh, buf, size, offset);
}

int CaseAliases::release(Ino ino, std::uint64_t fh) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.release(r, fh);
}

long CaseAliases::getxattr(Ino ino, std::string_view name, char* value, std::size_t size) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.getxattr(r, name, value, size);
}

long CaseAliases::listxattr(Ino ino, char* list, std::size_t size) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.listxattr(r, list, size);
}

int CaseAliases::statfs(struct statvfs* st) {
    return inner_.statfs(st);
}

int CaseAliases::access(Ino ino, int mask) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.access(r, mask);
}

int CaseAliases::create(Ino parent, std::string_view name, mode_t mode, int flags, struct stat* st,
                        std::uint64_t* fh) {
    const Ino r = real(parent);
    return r == 0 ? -ENOENT : inner_.create(r, name, mode, flags, st, fh);
}

int CaseAliases::mkdir(Ino parent, std::string_view name, mode_t mode, struct stat* st) {
    const Ino r = real(parent);
    return r == 0 ? -ENOENT : inner_.mkdir(r, name, mode, st);
}

int CaseAliases::unlink(Ino parent, std::string_view name) {
    const Ino r = real(parent);
    return r == 0 ? -ENOENT : inner_.unlink(r, name);
}

int CaseAliases::rmdir(Ino parent, std::string_view name) {
    const Ino r = real(parent);
    return r == 0 ? -ENOENT : inner_.rmdir(r, name);
}

int CaseAliases::rename(Ino parent, std::string_view name, Ino newParent, std::string_view newName,
                        unsigned flags) {
    const Ino from = real(parent), to = real(newParent);
    if (from == 0 || to == 0) return -ENOENT;
    return inner_.rename(from, name, to, newName, flags);
}

int CaseAliases::setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                         struct stat* st) {
    const Ino r = real(ino);
    if (r == 0) return -ENOENT;
    int rc = inner_.setattr(r, attr, toSet, fh, st);
    if (rc == 0) st->st_ino = ino;
    return rc;
}

long CaseAliases::write(Ino ino, std::uint64_t fh, const char* buf, std::size_t size,
                        std::int64_t offset) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.write(r, fh, buf, size, offset);
}

int CaseAliases::fsync(Ino ino, std::uint64_t fh, bool dataOnly) {
    const Ino r = real(ino);
    return r == 0 ? -ENOENT : inner_.fsync(r, fh, dataOnly);
}

void CaseAliases::forget(Ino ino) {
    if (!isAlias(ino)) return inner_.forget(ino);
    // The name's inode is the kernel's too, with its own count: only the alias goes.
    std::lock_guard lock(mutex_);
    if (auto it = spellingOf_.find(ino); it != spellingOf_.end()) {
        byName_.erase(it->second);
        spellingOf_.erase(it);
    }
    aliases_.erase(ino);
}

}  // namespace pakfs::fs
