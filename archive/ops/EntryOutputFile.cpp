// SPDX-License-Identifier: GPL-2.0-or-later
// `pak extract`'s output file for one entry: open, name, move into place, clean up.
#include "archive/ops/EntryOutputFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/Interrupt.hpp"

namespace pakfs::archive::extraction {

Fd::~Fd() {
    if (fd_ >= 0) ::close(fd_);
}

namespace {

bool targetFailed(int err) {
    return err == ENOSPC || err == EDQUOT || err == EROFS || err == EIO || err == EMFILE ||
           err == ENFILE;
}

mode_t fileMode() {
    static const mode_t mode = [] {
        mode_t mask = ::umask(022);
        ::umask(mask);
        return mode_t(0666 & ~mask);
    }();
    return mode;
}

}  // namespace

void outputFailed(const std::string& what) {
    const int err = errno;
    const std::string message = what + ": " + std::strerror(err);
    if (targetFailed(err)) throw TargetError(message);
    throw Error(message);
}

// Removes an unfinished file if SIGINT/SIGTERM comes while it is written.
void EntryOutputFile::UnfinishedGuard::set(int dirFd, const std::string& name,
                                           const std::string& what) {
    unregisterUnfinished(ticket_);
    ticket_ = registerUnfinished(dirFd, name, what);
}

EntryOutputFile::UnfinishedGuard::~UnfinishedGuard() {
    unregisterUnfinished(ticket_);
}

EntryOutputFile::EntryOutputFile(int dir, const std::string& name, std::size_t index,
                                 const std::string& where, std::string target, bool overwrite)
    : dir_(dir),
      name_(name.c_str()),
      where_(where),
      target_(std::move(target)),
      overwrite_(overwrite) {
    replacing_ = inTheWay();
    static const std::string pid = std::to_string(::getpid());  // one system call in all
    tempName_ = "." + name + ".pak-tmp-" + pid + "-" + std::to_string(index);
}

EntryOutputFile::~EntryOutputFile() {
    if (!placed_) removeUnfinished();
}

// What is in the way: a file is kept (unless --overwrite: then true); a folder or anything
// else is this entry's error, as it always was.
bool EntryOutputFile::inTheWay() const {
    struct stat st;
    if (::fstatat(dir_, name_, &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
    if (!S_ISREG(st.st_mode))
        throw Error(where_ + ": cannot create file: " +
                    (S_ISDIR(st.st_mode) ? "a folder" : "something that is not a file") +
                    " of that name is in the way");
    if (!overwrite_) throw KeptError(target_);
    return true;
}

void EntryOutputFile::open(bool whole) {
    if (openUnnamed()) return;
    if (whole && !replacing_ && openUnderName()) return;
    openTemporary();
}

// Writes all the bytes.
void EntryOutputFile::write(ByteSpan bytes) {
    const std::uint8_t* p = bytes.data();
    std::size_t n = bytes.size();
    while (n > 0) {
        ssize_t put = ::write(out_.get(), p, n);
        if (put < 0) {
            if (errno == EINTR) continue;
            outputFailed(where_ + ": write error");
        }
        p += put;
        n -= std::size_t(put);
    }
}

void EntryOutputFile::place() {
    nameUnnamed();
    moveIntoPlace();
    placed_ = true;
}

// An O_TMPFILE file; false where the file system has none.
bool EntryOutputFile::openUnnamed() {
    static std::atomic<bool> tmpfileWorks{::access("/proc/self/fd", X_OK) == 0};
    if (!tmpfileWorks) return false;
    out_ = Fd(::openat(dir_, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, fileMode()));
    if (out_.get() >= 0) {
        created_ = unnamed_ = true;
        return true;
    }
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
        outputFailed(where_ + ": cannot create file");
    tmpfileWorks = false;  // this file system has none: names from now on
    return false;
}

// The file under its own name, removed if the run is stopped; false when a file of that
// name was made meanwhile and is to be replaced.
bool EntryOutputFile::openUnderName() {
    out_ =
        Fd(::openat(dir_, name_, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode()));
    if (out_.get() >= 0) {
        created_ = true;
        unfinished_.set(dir_, name_, target_ + " removed (unfinished)");
        return true;
    }
    if (errno != EEXIST) outputFailed(where_ + ": cannot create file");
    inTheWay();  // made meanwhile
    return false;
}

// The file under a temporary name, renamed into place once complete.
void EntryOutputFile::openTemporary() {
    tmpName_ = tempName_;
    out_ = Fd(::openat(dir_, tmpName_.c_str(),
                       O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, fileMode()));
    if (out_.get() < 0) {
        tmpName_.clear();
        outputFailed(where_ + ": cannot create file");
    }
    created_ = true;
    unfinished_.set(dir_, tmpName_,
                    target_ + " not written (its unfinished temporary file removed)");
}

// Gives the complete unnamed file `linkName`.
bool EntryOutputFile::link(const char* linkName) const {
    char self[64];
    std::snprintf(self, sizeof self, "/proc/self/fd/%d", out_.get());
    return ::linkat(AT_FDCWD, self, dir_, linkName, AT_SYMLINK_FOLLOW) == 0;
}

// Links a complete unnamed file: under its own name, or, replacing a file, under the
// temporary name first, to go over the old file in one step.
void EntryOutputFile::nameUnnamed() {
    if (!unnamed_) return;
    if (!replacing_) {
        if (!link(name_)) {
            if (errno == EEXIST && inTheWay())  // made meanwhile
                throw Error(where_ + ": a file of that name appeared while it was extracted");
            outputFailed(where_ + ": cannot give the file its name");
        }
        return;
    }
    ::unlinkat(dir_, tempName_.c_str(), 0);
    if (!link(tempName_.c_str())) outputFailed(where_ + ": cannot give the file a name");
    tmpName_ = tempName_;
    unfinished_.set(dir_, tmpName_, target_ + " left as it was (its new temporary file removed)");
}

// Renames a file complete under its temporary name to its own name.
void EntryOutputFile::moveIntoPlace() {
    if (tmpName_.empty()) return;
    if (::renameat2(dir_, tmpName_.c_str(), dir_, name_, overwrite_ ? 0 : RENAME_NOREPLACE) == 0)
        return;
    if (errno == EEXIST) inTheWay();
    outputFailed(where_ + ": cannot move the file into place");
}

void EntryOutputFile::removeUnfinished() const {
    if (created_ && !tmpName_.empty())
        ::unlinkat(dir_, tmpName_.c_str(), 0);
    else if (created_ && !unnamed_)
        ::unlinkat(dir_, name_, 0);
}

}  // namespace pakfs::archive::extraction
