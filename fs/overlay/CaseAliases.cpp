// SPDX-License-Identifier: GPL-2.0-or-later
// CaseAliases: the alias inodes handed out by lookup, and what shows or forgets them.
#include "fs/overlay/CaseAliases.hpp"

#include <sys/stat.h>

#include <cerrno>

namespace pakfs::fs {

View::Ino CaseAliases::below(Ino ino) {
    if (!isAlias(ino)) return ino;
    std::lock_guard lock(mutex_);
    auto it = aliases_.find(ino);
    return it == aliases_.end() ? 0 : it->second;
}

int CaseAliases::lookup(Ino parent, std::string_view name, struct stat* st) {
    const Ino folder = below(parent);
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
    int rc = ForwardingView::getattr(ino, st);
    if (rc == 0) st->st_ino = ino;
    return rc;
}

int CaseAliases::setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                         struct stat* st) {
    int rc = ForwardingView::setattr(ino, attr, toSet, fh, st);
    if (rc == 0) st->st_ino = ino;
    return rc;
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
