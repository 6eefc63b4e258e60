// SPDX-License-Identifier: GPL-2.0-or-later
// `pak extract`'s output file for one entry: opened unnamed, under its name or a temporary one,
// given its name or renamed into place once complete, removed when unfinished. With the errors
// extraction tells apart and the file descriptor they share.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "common/Bytes.hpp"
#include "common/Error.hpp"

namespace pakfs::archive::extraction {

// An open file descriptor, closed with its owner.
class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    ~Fd();
    Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Fd& operator=(Fd&& o) noexcept {
        std::swap(fd_, o.fd_);
        return *this;
    }
    int get() const { return fd_; }

private:
    int fd_;
};

// A failure of the target itself (full disk, quota, read-only, I/O error): every further file
// would fail the same way, so the run stops at the first.
class TargetError : public Error {
public:
    using Error::Error;
};

// A file that is already there and is kept (ExtractOptions::overwrite is off).
class KeptError : public Error {
public:
    using Error::Error;
};

// An output error for errno: TargetError when the target itself failed, else Error for this file.
[[noreturn]] void outputFailed(const std::string& what);

// One entry's file in its folder. It is written unnamed (O_TMPFILE) and given its name once
// complete (linkat), so neither an error nor a killed run (kill -9 included) ever leaves a
// partial file under a name, and no temporary name is left behind either. Replacing a file
// (--overwrite), the complete file is linked under a temporary name and renamed over it.
// Where the file system has no O_TMPFILE: a whole entry is created under its own name (O_EXCL:
// never writing through a link), removed on error or SIGINT/SIGTERM; a streamed one goes to a
// temporary file renamed into place.
// Without --overwrite a file already there is kept: known before decoding (the constructor
// throws KeptError), and made sure of by O_EXCL, linkat or a rename that does not replace.
// Unless placed, the file is removed when its owner goes.
class EntryOutputFile {
public:
    // `name` in the folder `dir`; `where` prefixes errors, `target` (targetName/path) names the
    // file kept and the interrupt lines; `index` makes the temporary name unique.
    EntryOutputFile(int dir, const std::string& name, std::size_t index, const std::string& where,
                    std::string target, bool overwrite);
    ~EntryOutputFile();
    EntryOutputFile(const EntryOutputFile&) = delete;
    EntryOutputFile& operator=(const EntryOutputFile&) = delete;

    bool isOpen() const { return created_; }
    // Opens the output at the first bytes; `whole` when they are the entire entry.
    void open(bool whole);
    void write(ByteSpan bytes);
    // Gives the complete file its name.
    void place();

private:
    class UnfinishedGuard {
    public:
        UnfinishedGuard() = default;
        ~UnfinishedGuard();
        void set(int dirFd, const std::string& name, const std::string& what);
        UnfinishedGuard(const UnfinishedGuard&) = delete;
        UnfinishedGuard& operator=(const UnfinishedGuard&) = delete;

    private:
        int ticket_ = -1;
    };

    bool inTheWay() const;
    bool openUnnamed();
    bool openUnderName();
    void openTemporary();
    bool link(const char* linkName) const;
    void nameUnnamed();
    void moveIntoPlace();
    void removeUnfinished() const;

    const int dir_;
    const char* const name_;
    const std::string& where_;
    const std::string target_;
    const bool overwrite_;
    bool replacing_ = false;
    std::string tempName_;
    Fd out_;
    std::string tmpName_;   // the temporary name `out_` has (none: final name or unnamed)
    bool unnamed_ = false;  // `out_` is an O_TMPFILE file, linked once complete
    bool created_ = false;
    bool placed_ = false;
    UnfinishedGuard unfinished_;
};

}  // namespace pakfs::archive::extraction
