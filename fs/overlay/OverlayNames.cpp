// SPDX-License-Identifier: GPL-2.0-or-later
// Overlay: changes to names (create, mkdir, unlink, rmdir, rename): whiteouts, opaque
// folders, and deleted files kept for whoever still has them open.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "commit/OverlayLayout.hpp"
#include "common/Bytes.hpp"
#include "fs/overlay/Overlay.hpp"
#include "fs/overlay/OverlayDisk.hpp"

namespace pakfs::fs {

using overlay_disk::errnoResult;
using overlay_disk::existsNoFollow;

namespace {

constexpr unsigned kRenameNoReplace = 1;  // RENAME_NOREPLACE
constexpr unsigned kRenameExchange = 2;   // RENAME_EXCHANGE
constexpr unsigned kRenameWhiteout = 4;   // RENAME_WHITEOUT

// Removes what an overlay folder being deleted may still hold: whiteouts and its opaque marker
// (a folder empty in the merged view holds nothing else).
int clearLayoutFiles(const std::filesystem::path& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return errnoResult();
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d))
        if (commit::isLayoutName(e->d_name)) names.emplace_back(e->d_name);
    ::closedir(d);
    for (const auto& n : names)
        if (::unlink((dir / n).c_str()) != 0) return errnoResult();
    return 0;
}

int makeMarker(const std::filesystem::path& path) {
    int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return errnoResult();
    ::close(fd);
    return 0;
}

// Whether the view below holds `name` in `parent` whether or not the overlay hides it: then
// deleting the overlay's name needs a whiteout.
bool belowHolds(View& below, bool parentOnlyUpper, bool parentOpaque, View::Ino parent,
                std::string_view name) {
    if (parentOnlyUpper || parentOpaque) return false;
    struct stat st;
    return below.lookup(parent, name, &st) == 0;
}

}  // namespace

int Overlay::checkNewName(Ino parent, std::string_view name, const char* op) {
    if (parent == kRootIno) {
        log(std::string(op) + " " + std::string(name) +
            ": the top level holds the packs; new files and folders go inside a pack's folder");
        return -EPERM;
    }
    if (auto why = commit::unusableName(name)) {
        log(std::string(op) + " " + pathOf(parent) + "/" + std::string(name) + ": " + *why);
        return -EINVAL;
    }
    if (const Entry* p = entryOf(parent); p ? p->gone || !p->dir : !shows(parent)) return -ENOENT;
    return 0;
}

int Overlay::refuseCaseTwin(Ino parent, std::string_view name, Ino self, const char* op) {
    const std::string folded = foldCase(name);
    std::vector<std::string> candidates;
    auto consider = [&](std::string_view n) {
        if (n.size() == name.size() && n != name && foldCase(n) == folded)
            candidates.emplace_back(n);
    };
    // The overlay's names, then the view below's: each one shown is a twin.
    if (hasUpperDir(parent)) {
        if (DIR* d = ::opendir(diskOf(parent).c_str())) {
            while (dirent* e = ::readdir(d)) consider(e->d_name);
            ::closedir(d);
        }
    }
    const Entry* p = entryOf(parent);
    if (!p || (p->below && !p->opaque))
        below_.readdir(parent, 2, [&](const char* n, const struct stat&, std::int64_t) {
            consider(n);
            return true;
        });
    for (const auto& twin : candidates) {
        Ino ino = 0;
        struct stat st;
        if (resolve(parent, twin, &ino, &st) != 0 || ino == self) continue;
        return caseTwinRefused(parent, name, twin, op);
    }
    return 0;
}

int Overlay::caseTwinRefused(Ino parent, std::string_view name, std::string_view twin,
                             const char* op) {
    const std::string folder = pathOf(parent);
    log(std::string(op) + " " + folder + "/" + std::string(name) + ": " + folder + "/" +
        std::string(twin) +
        " is there, and the game compares names without regard to case, so a pak cannot hold "
        "both: rename " +
        std::string(twin) + " instead");
    return -EEXIST;
}

int Overlay::create(Ino parent, std::string_view name, mode_t mode, int flags, struct stat* st,
                    std::uint64_t* fh) {
    std::lock_guard lock(mutex_);
    if (int rc = checkNewName(parent, name, "create"); rc != 0) return rc;
    Ino existing = 0;
    struct stat est;
    if (resolve(parent, name, &existing, &est) == 0) return -EEXIST;
    if (int rc = refuseCaseTwin(parent, name, 0, "create"); rc != 0) return rc;
    if (int rc = ensureUpperDir(parent); rc != 0) return rc;
    const std::filesystem::path dir = diskOf(parent);
    const std::filesystem::path whiteout = dir / commit::whiteoutName(name);
    if (existsNoFollow(whiteout) && ::unlink(whiteout.c_str()) != 0) return errnoResult();
    const std::filesystem::path path = dir / std::string(name);
    int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC,
                    (mode & 0777) | S_IRUSR | S_IWUSR);
    if (fd < 0) return errnoResult();
    (void)flags;
    Ino ino = newIno();
    Entry e;
    e.parent = parent;
    e.name = std::string(name);
    e.upper = true;
    entries_[ino] = e;
    names_[{parent, e.name}] = ino;
    {
        std::lock_guard hlock(handlesMutex_);
        *fh = nextHandle_++;
        handles_.emplace(*fh, Handle{ino, fd, 0});
    }
    return statUpper(ino, st);
}

int Overlay::mkdir(Ino parent, std::string_view name, mode_t mode, struct stat* st) {
    std::lock_guard lock(mutex_);
    if (int rc = checkNewName(parent, name, "mkdir"); rc != 0) return rc;
    Ino existing = 0;
    struct stat est;
    if (resolve(parent, name, &existing, &est) == 0) return -EEXIST;
    if (int rc = refuseCaseTwin(parent, name, 0, "mkdir"); rc != 0) return rc;
    if (int rc = ensureUpperDir(parent); rc != 0) return rc;
    const Entry* p = entryOf(parent);
    const bool hidesBelow = belowHolds(below_, !p->below, p->opaque, parent, name);
    const std::filesystem::path dir = diskOf(parent);
    const std::filesystem::path path = dir / std::string(name);
    if (::mkdir(path.c_str(), (mode & 0777) | S_IRWXU) != 0) return errnoResult();
    // The view below's folder of this name was deleted: the new one starts empty.
    if (hidesBelow) {
        if (int rc = makeMarker(path / std::string(commit::kOpaqueMarker)); rc != 0) {
            ::rmdir(path.c_str());
            return rc;
        }
    }
    const std::filesystem::path whiteout = dir / commit::whiteoutName(name);
    if (existsNoFollow(whiteout)) ::unlink(whiteout.c_str());
    Ino ino = newIno();
    Entry e;
    e.parent = parent;
    e.name = std::string(name);
    e.dir = e.upper = true;
    e.opaque = hidesBelow;
    entries_[ino] = e;
    names_[{parent, e.name}] = ino;
    return statUpper(ino, st);
}

void Overlay::markGone(Ino ino, Ino parent, std::string_view name, bool dir) {
    Entry& gone = entries_[ino];
    gone.goneUnchanged = !dir && !gone.upper && ino < nextBelowIno_;
    gone.parent = parent;
    gone.name = std::string(name);
    gone.dir = dir;
    gone.upper = false;
    gone.gone = true;
    names_.erase({parent, gone.name});
}

int Overlay::refuseDeletion(const char* op, Ino parent, std::string_view name) {
    const Entry* p = entryOf(parent);
    if (p && (!p->below || p->opaque)) return 0;  // nothing below shows in this folder
    struct stat st;
    if (below_.lookup(parent, name, &st) != 0) return 0;
    const std::string why = below_.whyNotDeletable(st.st_ino);
    if (why.empty()) return 0;
    log(std::string(op) + " " + pathOf(parent) + "/" + std::string(name) + ": " + why);
    return -EPERM;
}

int Overlay::unlink(Ino parent, std::string_view name) {
    std::lock_guard lock(mutex_);
    Ino ino = 0;
    struct stat st;
    if (int rc = resolve(parent, name, &ino, &st); rc != 0) return rc;
    if (S_ISDIR(st.st_mode)) return -EISDIR;
    if (parent == kRootIno) return -EPERM;
    if (int rc = refuseDeletion("unlink", parent, name); rc != 0) return rc;
    Entry* e = entryOf(ino);
    bool kept = false;
    if (e && e->upper) {
        kept = keep(ino, false);
        if (!kept && ::unlink(diskOf(ino).c_str()) != 0) return errnoResult();
    }
    if (const auto spelled = belowSpelling(parent, name)) {
        if (int rc = ensureUpperDir(parent); rc != 0) return rc;
        if (int rc = makeMarker(diskOf(parent) / commit::whiteoutName(*spelled)); rc != 0)
            return rc;
    }
    markChanged(ino);
    markGone(ino, parent, name, false);
    entries_[ino].kept = kept;
    return 0;
}

int Overlay::rmdir(Ino parent, std::string_view name) {
    std::lock_guard lock(mutex_);
    Ino ino = 0;
    struct stat st;
    if (int rc = resolve(parent, name, &ino, &st); rc != 0) return rc;
    if (!S_ISDIR(st.st_mode)) return -ENOTDIR;
    if (parent == kRootIno) {
        log("rmdir " + std::string(name) + ": a pack's folder cannot be removed");
        return -EPERM;
    }
    if (!isEmptyDir(ino)) return -ENOTEMPTY;
    if (int rc = refuseDeletion("rmdir", parent, name); rc != 0) return rc;
    if (hasUpperDir(ino)) {
        const std::filesystem::path disk = diskOf(ino);
        if (int rc = clearLayoutFiles(disk); rc != 0) return rc;
        if (::rmdir(disk.c_str()) != 0) return errnoResult();
    }
    if (const auto spelled = belowSpelling(parent, name)) {
        if (int rc = ensureUpperDir(parent); rc != 0) return rc;
        if (int rc = makeMarker(diskOf(parent) / commit::whiteoutName(*spelled)); rc != 0)
            return rc;
    }
    markGone(ino, parent, name, true);
    return 0;
}

int Overlay::rename(Ino parent, std::string_view name, Ino newParent, std::string_view newName,
                    unsigned flags) {
    // Exchanging two names is not done; a whiteout left at the old name would be a device
    // file, which a pak cannot hold.
    if (flags & (kRenameExchange | kRenameWhiteout)) return -EINVAL;
    std::lock_guard lock(mutex_);
    if (int rc = checkNewName(newParent, newName, "rename"); rc != 0) return rc;
    Ino ino = 0;
    struct stat st;
    if (int rc = resolve(parent, name, &ino, &st); rc != 0) return rc;
    const bool dir = S_ISDIR(st.st_mode);
    // A new spelling of the same name (Case.txt to CASE.txt): the game compares names without
    // regard to case, so it is a rename of that one name, whatever holds it.
    const bool caseOnly =
        parent == newParent && name != newName && foldCase(name) == foldCase(newName);
    bool wholeTree = false;
    if (dir) {
        // A folder of the view below (or merged with one) would have to be copied whole, as
        // overlayfs does not either: mv then copies and deletes. By case only it is copied
        // here: the copy mv makes would be a new name beside the old one.
        const Entry* e = entryOf(ino);
        if (!e || e->below) {
            if (!caseOnly) return -EXDEV;
            wholeTree = true;
        }
    }
    Ino target = 0;
    struct stat tst;
    bool exists = resolve(newParent, newName, &target, &tst) == 0;
    // With icase the new spelling finds the name itself.
    if (exists && target == ino && caseOnly) exists = false;
    if (exists) {
        if (target == ino) return 0;
        // With icase another spelling finds the name: replacing it under this spelling would
        // leave both in the pak.
        Ino at = 0;
        std::string spelled;
        if (const Entry* te = entryOf(target)) {
            spelled = te->name;
        } else if (below_.locate(target, &at, &spelled) != 0) {
            spelled = newName;
        }
        if (spelled != newName) return caseTwinRefused(newParent, newName, spelled, "rename");
        if (flags & kRenameNoReplace) return -EEXIST;
        if (dir && !S_ISDIR(tst.st_mode)) return -ENOTDIR;
        if (!dir && S_ISDIR(tst.st_mode)) return -EISDIR;
        if (S_ISDIR(tst.st_mode) && !isEmptyDir(target)) return -ENOTEMPTY;
    } else if (int rc = refuseCaseTwin(newParent, newName, ino, "rename"); rc != 0) {
        return rc;
    }
    // The old name is whited out; a folder moved over one of the view below hides what it
    // held (a file moved over a file only replaces it, as a changed file does).
    if (int rc = refuseDeletion("rename", parent, name); rc != 0) return rc;
    if (dir && !caseOnly)
        if (int rc = refuseDeletion("rename", newParent, newName); rc != 0) return rc;
    const std::optional<std::string> fromBelow = belowSpelling(parent, name);
    if (!dir)
        if (int rc = copyUp(ino); rc != 0) return rc;
    if (wholeTree)
        if (int rc = copyUpTree(ino); rc != 0) return rc;
    if (int rc = ensureUpperDir(newParent); rc != 0) return rc;
    const std::filesystem::path from = diskOf(ino);
    const std::filesystem::path toDir = diskOf(newParent);
    const std::filesystem::path to = toDir / std::string(newName);
    if (exists) {
        const Entry* te = entryOf(target);
        if (S_ISDIR(tst.st_mode) && te && te->upper) {
            if (int rc = clearLayoutFiles(to); rc != 0) return rc;
            if (::rmdir(to.c_str()) != 0) return errnoResult();
        }
    }
    const Entry* np = entryOf(newParent);
    // By case only, the view below's name is the one renamed (or, spelled back as the pack
    // spells it, the one it comes back to: its deleted contents stay hidden).
    const std::optional<std::string> toBelow = belowSpelling(newParent, newName);
    const bool hidesBelow = caseOnly
                                ? toBelow == std::string(newName)
                                : belowHolds(below_, !np->below, np->opaque, newParent, newName);
    // A file replaced while someone may have it open keeps its bytes for them.
    bool targetKept = false;
    if (exists && !S_ISDIR(tst.st_mode))
        if (const Entry* te = entryOf(target); te && te->upper) targetKept = keep(target, true);
    if (::rename(from.c_str(), to.c_str()) != 0) {
        int rc = errnoResult();
        if (targetKept) ::unlink(keptPath(target).c_str());
        return rc;
    }
    const std::filesystem::path toWhiteout = toDir / commit::whiteoutName(newName);
    if (existsNoFollow(toWhiteout)) ::unlink(toWhiteout.c_str());
    if (dir && hidesBelow) makeMarker(to / std::string(commit::kOpaqueMarker));
    if (fromBelow && !(caseOnly && *fromBelow == newName))
        makeMarker(diskOf(parent) / commit::whiteoutName(*fromBelow));
    if (exists) {
        markChanged(target);
        markGone(target, newParent, newName, S_ISDIR(tst.st_mode));
        entries_[target].kept = targetKept;
    }
    names_.erase({parent, std::string(name)});
    if (const Entry* old = entryOf(ino)) names_.erase({old->parent, old->name});
    Entry& e = entries_[ino];
    e.parent = newParent;
    e.name = std::string(newName);
    e.below = false;
    if (dir && hidesBelow) e.opaque = true;
    names_[{newParent, e.name}] = ino;
    return 0;
}
int Overlay::unsupported(std::string_view what) {
    log(std::string(what) + ": a pak cannot hold it");
    return -EPERM;
}
}  // namespace pakfs::fs
