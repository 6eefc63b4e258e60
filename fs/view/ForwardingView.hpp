// SPDX-License-Identifier: GPL-2.0-or-later
// ForwardingView: a View that passes every operation on to the view below it, each inode
// number first translated by below(): the base of a view that changes only a few operations
// (CaseAliases). An inode below() maps to 0 is gone: the operation answers -ENOENT.
#pragma once

#include <cerrno>

#include "fs/view/View.hpp"

namespace pakfs::fs {

class ForwardingView : public View {
public:
    explicit ForwardingView(View& inner) : inner_(inner) {}

    bool writable() const override { return inner_.writable(); }
    Ino inoLimit() const override { return inner_.inoLimit(); }
    int lookup(Ino parent, std::string_view name, struct stat* st) override {
        return onBelow(parent, [&](Ino r) { return inner_.lookup(r, name, st); });
    }
    int getattr(Ino ino, struct stat* st) override {
        return onBelow(ino, [&](Ino r) { return inner_.getattr(r, st); });
    }
    int locate(Ino ino, Ino* parent, std::string* name) override {
        return onBelow(ino, [&](Ino r) { return inner_.locate(r, parent, name); });
    }
    int readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) override {
        return onBelow(ino, [&](Ino r) { return inner_.readdir(r, offset, fill); });
    }
    int open(Ino ino, int flags, std::uint64_t* fh) override {
        return onBelow(ino, [&](Ino r) { return inner_.open(r, flags, fh); });
    }
    long read(Ino ino, std::uint64_t fh, char* buf, std::size_t size, std::int64_t at) override {
        return onBelow(ino, [&](Ino r) { return inner_.read(r, fh, buf, size, at); });
    }
    int release(Ino ino, std::uint64_t fh) override {
        return onBelow(ino, [&](Ino r) { return inner_.release(r, fh); });
    }
    long getxattr(Ino ino, std::string_view name, char* value, std::size_t size) override {
        return onBelow(ino, [&](Ino r) { return inner_.getxattr(r, name, value, size); });
    }
    long listxattr(Ino ino, char* list, std::size_t size) override {
        return onBelow(ino, [&](Ino r) { return inner_.listxattr(r, list, size); });
    }
    int statfs(struct statvfs* st) override { return inner_.statfs(st); }
    int access(Ino ino, int mask) override {
        return onBelow(ino, [&](Ino r) { return inner_.access(r, mask); });
    }
    int create(Ino parent, std::string_view name, mode_t mode, int flags, struct stat* st,
               std::uint64_t* fh) override {
        return onBelow(parent, [&](Ino r) { return inner_.create(r, name, mode, flags, st, fh); });
    }
    int mkdir(Ino parent, std::string_view name, mode_t mode, struct stat* st) override {
        return onBelow(parent, [&](Ino r) { return inner_.mkdir(r, name, mode, st); });
    }
    int unlink(Ino parent, std::string_view name) override {
        return onBelow(parent, [&](Ino r) { return inner_.unlink(r, name); });
    }
    int rmdir(Ino parent, std::string_view name) override {
        return onBelow(parent, [&](Ino r) { return inner_.rmdir(r, name); });
    }
    int rename(Ino parent, std::string_view name, Ino newParent, std::string_view newName,
               unsigned flags) override {
        const Ino to = below(newParent);
        if (to == 0) return -ENOENT;
        return onBelow(parent, [&](Ino r) { return inner_.rename(r, name, to, newName, flags); });
    }
    int setattr(Ino ino, const struct stat& attr, int toSet, std::uint64_t fh,
                struct stat* st) override {
        return onBelow(ino, [&](Ino r) { return inner_.setattr(r, attr, toSet, fh, st); });
    }
    long write(Ino ino, std::uint64_t fh, const char* buf, std::size_t size,
               std::int64_t at) override {
        return onBelow(ino, [&](Ino r) { return inner_.write(r, fh, buf, size, at); });
    }
    int fsync(Ino ino, std::uint64_t fh, bool dataOnly) override {
        return onBelow(ino, [&](Ino r) { return inner_.fsync(r, fh, dataOnly); });
    }
    int unsupported(std::string_view what) override { return inner_.unsupported(what); }
    std::string whyNotDeletable(Ino ino) override { return inner_.whyNotDeletable(below(ino)); }
    void forget(Ino ino) override { inner_.forget(below(ino)); }
    bool keepsNoAttributes(Ino ino) const override { return inner_.keepsNoAttributes(ino); }
    bool storeIfBelow(Ino ino, const std::function<bool()>& store) override {
        return inner_.storeIfBelow(below(ino), store);
    }

protected:
    // The inode below for one of this view; 0 when it leads nowhere any more.
    virtual Ino below(Ino ino) { return ino; }

    View& inner_;

private:
    template <class Call>
    auto onBelow(Ino ino, Call&& call) -> decltype(call(ino)) {
        const Ino r = below(ino);
        return r == 0 ? -ENOENT : call(r);
    }
};

}  // namespace pakfs::fs
