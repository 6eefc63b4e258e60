// SPDX-License-Identifier: GPL-2.0-or-later
// A writable view over any view: every change goes to an overlay folder laid out as
// OverlayLayout.hpp says, never to the view below. Reading merges: the overlay wins, a
// whiteout hides, the rest is the view below, untouched (same inode numbers, same reads).
//
// What the overlay holds is learned from the folder as the kernel asks (lookups, listings)
// and kept up to date by the changes made here: the folder must not be changed by hand while
// mounted. A file of the view below is copied up (decoded whole into the work folder, synced,
// then renamed into place) before its first change, so a crash leaves the old or the new
// content, never half of one.
#pragma once

#include <sys/types.h>

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "commit/OverlayLayout.hpp"
#include "fs/view/View.hpp"

namespace pakfs::fs {

struct OverlayOptions {
    std::filesystem::path dir;  // the overlay folder (must exist)
    uid_t uid = 0;
    gid_t gid = 0;
    mode_t umask = 0;
    // One line per change refused or overlay entry left out; called from any thread.
    std::function<void(const std::string&)> log;
    // The overlay's names are found without regard to case too, as the view below's are.
    bool icase = false;
};

class Overlay : public View {
public:
    // Throws Error when the folder cannot be used (missing, not a folder, not writable).
    Overlay(View& below, OverlayOptions options);
    ~Overlay() override;
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    bool writable() const override { return true; }
    Ino inoLimit() const override { return ~Ino(0); }
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
    int unsupported(std::string_view what) override;
    // A copy-up waits for a store under way, so no stale content lands after a change.
    bool storeIfBelow(Ino ino, const std::function<bool()>& store) override;
    // A deleted file kept for whoever still has it open is removed.
    void forget(Ino ino) override;

private:
    // An inode the overlay holds something for: a file or folder in the overlay folder, or one
    // of the view below that was deleted.
    struct Entry {
        Ino parent = 0;
        std::string name;
        bool dir = false;
        bool below = false;          // the view below has it at this path (same inode number)
        bool upper = false;          // the overlay folder has it
        bool opaque = false;         // a folder whose contents below are hidden
        bool gone = false;           // deleted
        bool goneUnchanged = false;  // deleted while it held the view below's bytes
        // Deleted (or replaced by a rename) while it had bytes of its own: they stay in the
        // work folder (keptPath) until the kernel forgets the inode, as an open file may still
        // read or write them; with no OPEN sent there is no handle to hold them.
        bool kept = false;
    };
    struct Handle {
        Ino ino = 0;
        int fd = -1;                // an overlay file
        std::uint64_t belowFh = 0;  // else a file of the view below
    };

    // All of these run under mutex_.
    Entry* entryOf(Ino ino);
    // Whether `ino` shows: an entry not deleted, else an inode of the view below (never 0).
    bool shows(Ino ino);
    bool hasUpperDir(Ino ino);
    std::string pathOf(Ino ino);  // relative to the overlay folder; "" for the root
    // Where the bytes of `ino` are in the overlay folder (a kept file's: in the work folder).
    std::filesystem::path diskOf(Ino ino);
    std::filesystem::path keptPath(Ino ino) const;
    // Moves the overlay file of `ino`, about to be deleted or replaced, to keptPath; by a hard
    // link when `replacing` (the name stays until the rename that replaces it, so a crash
    // loses nothing). False when it cannot be kept (the file is then deleted as before).
    bool keep(Ino ino, bool replacing);
    // Resolves a name in a folder: 0 with ino and attributes, or -ENOENT.
    int resolve(Ino parent, std::string_view name, Ino* ino, struct stat* st);
    // The view below's child of `parent` called `name`, if it shows (not whited out, the folder
    // not opaque or new, not renamed).
    bool belowChild(Ino parent, std::string_view name, struct stat* st);
    // How the view below spells its child of `parent` that `name` finds (with icase, names
    // equal but for case find it), whether or not the overlay hides it; nullopt when it holds
    // none there or nothing below shows in `parent`. Whiteouts name it so.
    std::optional<std::string> belowSpelling(Ino parent, std::string_view name);
    // Copies every file the folder `dir` shows from the view below into the overlay folder and
    // drops the folder's whiteouts and opaque markers: it then holds what it shows on its own
    // (a folder of the pack renamed by case).
    int copyUpTree(Ino dir);
    int ensureUpperDir(Ino ino);
    // Copies a file of the view below into the overlay folder (a deleted one that is still
    // open: to keptPath), its first `limit` bytes only when it is about to be cut to that.
    int copyUp(Ino ino, std::uint64_t limit = ~std::uint64_t(0));
    void markChanged(Ino ino);
    int statUpper(Ino ino, struct stat* st);
    void fixBelowStat(struct stat* st) const;
    int checkNewName(Ino parent, std::string_view name, const char* op);
    // -EEXIST, with a log line naming both spellings, when `parent` shows a name that differs
    // from `name` only in case (other than `self`, a name renamed by case): the game compares
    // names without regard to case, so a pak cannot hold both. 0 otherwise.
    int refuseCaseTwin(Ino parent, std::string_view name, Ino self, const char* op);
    // The log line and -EEXIST for `name` beside `twin`.
    int caseTwinRefused(Ino parent, std::string_view name, std::string_view twin, const char* op);
    Ino newIno() { return nextIno_++; }
    int openFd(Ino ino, int flags);
    // A file of the overlay folder opened (flags: O_RDONLY or O_RDWR, O_TRUNC) only when it is
    // a regular file; -errno, or -EIO (logged) for a FIFO, socket or device.
    int openUpper(const std::filesystem::path& disk, int flags) const;
    bool isEmptyDir(Ino ino);
    // -EPERM, with a log line naming `op` and the path, when the view below holds `name` in
    // `parent` and says it may not be deleted (View::whyNotDeletable); 0 otherwise.
    int refuseDeletion(const char* op, Ino parent, std::string_view name);
    // Records that `ino`, called `name` in `parent`, was deleted.
    void markGone(Ino ino, Ino parent, std::string_view name, bool dir);
    int readdirLocked(Ino ino, std::int64_t offset, const FillDirAt& fill);
    void log(const std::string& line) const;

    View& below_;
    OverlayOptions options_;
    std::filesystem::path work_;
    std::mutex mutex_;
    std::unordered_map<Ino, Entry> entries_;
    std::map<std::pair<Ino, std::string>, Ino> names_;  // (folder, name) of overlay entries
    const Ino nextBelowIno_;  // the view below's inodes are the ones under it
    Ino nextIno_;
    std::mutex handlesMutex_;
    std::unordered_map<std::uint64_t, Handle> handles_;
    std::uint64_t nextHandle_ = 1;
    // Whether the overlay holds something for `ino` of the view below (a copy, a shadowing
    // file, a deletion): marked before a copy-up starts and never cleared. An inode the
    // kernel knows is marked before it learns the inode (lookups and listings mark what the
    // overlay folder holds), so a file not marked is the view below's, unchanged.
    bool changed(Ino ino);
    // Held while content from below is handed to the kernel, and while marking an inode
    // changed, so that no stale store lands after a change. One of several by inode: the
    // threads that decode ahead store different files at once.
    std::array<std::mutex, 16> storeMutexes_;
    std::mutex& storeMutex(Ino ino) { return storeMutexes_[ino % storeMutexes_.size()]; }
    // Guards changed_ alone: reads check it without the store mutex, which a store holds while
    // the kernel may wait for a page a read is filling.
    std::mutex changedMutex_;
    std::unordered_set<Ino> changed_;
    std::uint64_t copyUps_ = 0;
};

}  // namespace pakfs::fs
