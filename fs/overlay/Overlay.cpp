// SPDX-License-Identifier: GPL-2.0-or-later
// Overlay: the merged view (what the overlay holds of each inode, lookups, listings and
// attributes). Changing file contents is in OverlayContent.cpp, changing names in
// OverlayNames.cpp.
#include "fs/overlay/Overlay.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "commit/OverlayLayout.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"
#include "fs/overlay/OverlayDisk.hpp"

namespace pakfs::fs {

using overlay_disk::errnoResult;
using overlay_disk::existsNoFollow;

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
    work_ = options_.dir / commit::kOverlayWorkFolder;
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
    const bool upperDir = hasUpperDir(parent);
    if (upperDir && existsNoFollow(diskOf(parent) / commit::whiteoutName(name))) return false;
    if (below_.lookup(parent, name, st) != 0) return false;
    // With icase the view below finds names equal but for case: its whiteout has its spelling.
    Ino at = 0;
    std::string spelled;
    if (below_.locate(st->st_ino, &at, &spelled) == 0 && spelled != name && upperDir &&
        existsNoFollow(diskOf(parent) / commit::whiteoutName(spelled)))
        return false;
    // Moved elsewhere, or renamed by case in this folder.
    if (const Entry* c = entryOf(st->st_ino);
        c && (c->gone || c->parent != parent || (c->name != spelled && c->name != name)))
        return false;
    fixBelowStat(st);
    return true;
}

std::optional<std::string> Overlay::belowSpelling(Ino parent, std::string_view name) {
    const Entry* p = entryOf(parent);
    if (p && (!p->below || p->opaque)) return std::nullopt;
    struct stat st;
    if (below_.lookup(parent, name, &st) != 0) return std::nullopt;
    Ino at = 0;
    std::string spelled;
    if (below_.locate(st.st_ino, &at, &spelled) != 0) return std::string(name);
    return spelled;
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
    if (commit::isLayoutName(name) || (parent == kRootIno && commit::isOverlayOwnName(name)))
        return -ENOENT;
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
        e.opaque = e.dir && existsNoFollow(disk / std::string(commit::kOpaqueMarker));
        *ino = shadows ? Ino(bst.st_ino) : newIno();
        entries_[*ino] = e;
        names_[{parent, e.name}] = *ino;
        if (shadows) markChanged(*ino);
        return statUpper(*ino, st);
    }
    // With icase, the overlay's name spelled otherwise (a folder holds no two names that
    // differ only in case: they are refused as they are made).
    if (options_.icase) {
        const std::string folded = foldCase(name);
        std::string found;
        if (DIR* d = ::opendir(diskOf(parent).c_str())) {
            while (dirent* e = ::readdir(d))
                if (std::string_view n = e->d_name; n.size() == name.size() && n != name &&
                                                    !commit::isLayoutName(n) &&
                                                    foldCase(n) == folded)
                    found = n;
            ::closedir(d);
        }
        if (!found.empty() && resolve(parent, found, ino, st) == 0) return 0;
    }
    if (!belowChild(parent, name, st)) return -ENOENT;
    *ino = st->st_ino;
    // Found by another spelling (icase) while the overlay holds it: its attributes.
    if (const Entry* c = entryOf(*ino); c && c->upper) return statUpper(*ino, st);
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
        if (n == "." || n == ".." || commit::isLayoutName(n)) {
            if (auto target = commit::whiteoutTarget(n)) seen.insert(*target);
            continue;
        }
        if (ino == kRootIno && commit::isOverlayOwnName(n)) continue;
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
            // Moved elsewhere, deleted, or renamed by case in this folder.
            if (const Entry* c = entryOf(st.st_ino);
                c && (c->gone || c->parent != ino || c->name != n))
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
