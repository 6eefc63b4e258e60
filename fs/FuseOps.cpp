// SPDX-License-Identifier: GPL-2.0-or-later
#define FUSE_USE_VERSION 314
#include "fs/FuseOps.hpp"

#include <fuse_lowlevel.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

#include "archive/Version.hpp"

namespace pakfs::fs {

namespace {

// Nothing in a pack ever changes while it is mounted, so the kernel may keep everything.
constexpr double kCacheSeconds = 3600.0;

// The low-level API: the kernel names inodes, which are the tree's (no path is built per
// request), and files decoded ahead can be pushed into the kernel's page cache by inode
// (fuse_lowlevel_notify_store), which the high-level API cannot do.
struct Session {
    Filesystem* fs = nullptr;
    // Set at init: the kernel takes ENOSYS from open as "no open needed" (no OPEN, no RELEASE
    // for any file from then on, and reads carry no handle).
    std::atomic<bool> openless{false};
};

Session& state(fuse_req_t req) {
    return *static_cast<Session*>(fuse_req_userdata(req));
}

// The node an inode number names, or nullptr (after replying ENOENT).
const Node* nodeFor(fuse_req_t req, fuse_ino_t ino) {
    const Node* node = state(req).fs->tree().byIno(ino);
    if (!node) fuse_reply_err(req, ENOENT);
    return node;
}

void replyStatus(fuse_req_t req, long rc) {
    fuse_reply_err(req, rc < 0 ? int(-rc) : 0);
}

// The entry the kernel keeps for a name whose attributes are `st` (st_ino is the tree's).
fuse_entry_param entryOf(const struct stat& st) {
    fuse_entry_param e{};
    e.ino = st.st_ino;
    e.generation = 1;
    e.attr = st;
    e.attr_timeout = kCacheSeconds;
    e.entry_timeout = kCacheSeconds;
    return e;
}

void opInit(void* userdata, fuse_conn_info* conn) {
    auto& s = *static_cast<Session*>(userdata);
    // Attributes with every listing, not only the first: a `find | xargs cat` then needs no
    // LOOKUP per file (the entries come in the listing, and stay valid: nothing changes).
    if (conn->capable & FUSE_CAP_READDIRPLUS) {
        conn->want |= FUSE_CAP_READDIRPLUS;
        conn->want &= ~unsigned(FUSE_CAP_READDIRPLUS_AUTO);
    }
    s.openless = (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT) != 0;
}

void opLookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
    const Node* dir = nodeFor(req, parent);
    if (!dir) return;
    if (!dir->dir) return (void)fuse_reply_err(req, ENOTDIR);
    const Filesystem& fs = *state(req).fs;
    const Node* node = fs.tree().child(*dir, name);
    if (!node) {
        // A negative entry, kept as long as the positive ones.
        fuse_entry_param e{};
        e.entry_timeout = kCacheSeconds;
        fuse_reply_entry(req, &e);
        return;
    }
    struct stat st;
    fs.getattr(*node, &st);
    fuse_entry_param e = entryOf(st);
    fuse_reply_entry(req, &e);
}

// The tree outlives the session, so there is nothing to forget.
void opForget(fuse_req_t req, fuse_ino_t, uint64_t) {
    fuse_reply_none(req);
}
void opForgetMulti(fuse_req_t req, size_t, fuse_forget_data*) {
    fuse_reply_none(req);
}

void opGetattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    struct stat st;
    state(req).fs->getattr(*node, &st);
    fuse_reply_attr(req, &st, kCacheSeconds);
}

void opAccess(fuse_req_t req, fuse_ino_t ino, int mask) {
    if (const Node* node = nodeFor(req, ino)) replyStatus(req, state(req).fs->access(*node, mask));
}

void opOpendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    if (!node->dir) return (void)fuse_reply_err(req, ENOTDIR);
    // Listings never change: the kernel may keep them.
    fi->cache_readdir = 1;
    fi->keep_cache = 1;
    fuse_reply_open(req, fi);
}

void readdirCommon(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, bool plus) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    const Filesystem& fs = *state(req).fs;
    std::vector<char> buf(size);
    std::size_t used = 0;
    int rc =
        fs.readdir(*node, offset, [&](const char* name, const struct stat& st, std::int64_t next) {
            std::size_t need;
            if (plus) {
                fuse_entry_param e{};
                // "." and ".." carry no entry: the kernel does not look them up.
                if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0)
                    e = entryOf(st);
                else
                    e.attr = st;
                need = fuse_add_direntry_plus(req, buf.data() + used, size - used, name, &e, next);
            } else {
                need = fuse_add_direntry(req, buf.data() + used, size - used, name, &st, next);
            }
            if (need > size - used) return false;
            used += need;
            return true;
        });
    if (rc != 0) return replyStatus(req, rc);
    fuse_reply_buf(req, buf.data(), used);
}

void opReaddir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info*) {
    readdirCommon(req, ino, size, offset, false);
}

void opReaddirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info*) {
    readdirCommon(req, ino, size, offset, true);
}

void opOpen(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    Session& s = state(req);
    if (int rc = Filesystem::checkOpen(*node, fi->flags); rc != 0) return replyStatus(req, rc);
    // ENOSYS on a successful open: the kernel stops sending OPEN and RELEASE for every file
    // (two requests of three when reading a small file). The mount is read-only, so the
    // kernel refuses opens for writing before they get here.
    if (s.openless) return (void)fuse_reply_err(req, ENOSYS);
    std::uint64_t fh = 0;
    if (int rc = s.fs->open(*node, fi->flags, &fh); rc != 0) return replyStatus(req, rc);
    fi->fh = fh;
    fi->keep_cache = 1;
    if (fuse_reply_open(req, fi) != 0) s.fs->release(fh);  // interrupted: no release will come
}

void opRead(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info* fi) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    Filesystem& fs = *state(req).fs;
    thread_local std::vector<char> buf;
    if (buf.size() < size) buf.resize(size);
    long n = fi && fi->fh ? fs.read(fi->fh, buf.data(), size, offset)
                          : fs.read(*node, buf.data(), size, offset);
    if (n < 0) return replyStatus(req, n);
    fuse_reply_buf(req, buf.data(), std::size_t(n));
}

void opRelease(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
    if (fi->fh) state(req).fs->release(fi->fh);
    fuse_reply_err(req, 0);
}

void replyXattr(fuse_req_t req, size_t size, const std::function<long(char*, std::size_t)>& get) {
    if (size == 0) {
        long n = get(nullptr, 0);
        if (n < 0) return replyStatus(req, n);
        fuse_reply_xattr(req, std::size_t(n));
        return;
    }
    std::vector<char> buf(size);
    long n = get(buf.data(), size);
    if (n < 0) return replyStatus(req, n);
    fuse_reply_buf(req, buf.data(), std::size_t(n));
}

void opGetxattr(fuse_req_t req, fuse_ino_t ino, const char* name, size_t size) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    const Filesystem& fs = *state(req).fs;
    replyXattr(req, size, [&](char* v, std::size_t n) { return fs.getxattr(*node, name, v, n); });
}

void opListxattr(fuse_req_t req, fuse_ino_t ino, size_t size) {
    const Node* node = nodeFor(req, ino);
    if (!node) return;
    const Filesystem& fs = *state(req).fs;
    replyXattr(req, size, [&](char* l, std::size_t n) { return fs.listxattr(*node, l, n); });
}

void opStatfs(fuse_req_t req, fuse_ino_t) {
    struct statvfs st;
    state(req).fs->statfs(&st);
    fuse_reply_statfs(req, &st);
}

// Everything that would change the tree (the kernel refuses most of it on a read-only mount
// before it gets here).
void roSetattr(fuse_req_t req, fuse_ino_t, struct stat*, int, fuse_file_info*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roMknod(fuse_req_t req, fuse_ino_t, const char*, mode_t, dev_t) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roMkdir(fuse_req_t req, fuse_ino_t, const char*, mode_t) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roName(fuse_req_t req, fuse_ino_t, const char*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roSymlink(fuse_req_t req, const char*, fuse_ino_t, const char*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roRename(fuse_req_t req, fuse_ino_t, const char*, fuse_ino_t, const char*, unsigned) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roLink(fuse_req_t req, fuse_ino_t, fuse_ino_t, const char*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roWrite(fuse_req_t req, fuse_ino_t, const char*, size_t, off_t, fuse_file_info*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roSetxattr(fuse_req_t req, fuse_ino_t, const char*, const char*, size_t, int) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roCreate(fuse_req_t req, fuse_ino_t, const char*, mode_t, fuse_file_info*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}
void roFallocate(fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
    fuse_reply_err(req, -Filesystem::readOnly());
}

fuse_lowlevel_ops makeOperations() {
    fuse_lowlevel_ops ops{};
    ops.init = opInit;
    ops.lookup = opLookup;
    ops.forget = opForget;
    ops.forget_multi = opForgetMulti;
    ops.getattr = opGetattr;
    ops.access = opAccess;
    ops.opendir = opOpendir;
    ops.readdir = opReaddir;
    ops.readdirplus = opReaddirplus;
    ops.open = opOpen;
    ops.read = opRead;
    ops.release = opRelease;
    ops.getxattr = opGetxattr;
    ops.listxattr = opListxattr;
    ops.statfs = opStatfs;
    ops.setattr = roSetattr;
    ops.mknod = roMknod;
    ops.mkdir = roMkdir;
    ops.unlink = roName;
    ops.rmdir = roName;
    ops.removexattr = roName;
    ops.symlink = roSymlink;
    ops.rename = roRename;
    ops.link = roLink;
    ops.write = roWrite;
    ops.setxattr = roSetxattr;
    ops.create = roCreate;
    ops.fallocate = roFallocate;
    return ops;
}

class Args {
public:
    Args() = default;
    ~Args() { fuse_opt_free_args(&args_); }
    Args(const Args&) = delete;
    Args& operator=(const Args&) = delete;
    void add(const std::string& a) { fuse_opt_add_arg(&args_, a.c_str()); }
    fuse_args* get() { return &args_; }

private:
    fuse_args args_ = FUSE_ARGS_INIT(0, nullptr);
};

}  // namespace

int serve(Filesystem& fs, const std::string& program, const std::vector<std::string>& fuseArgs,
          const std::string& mountpoint) {
    Args args;
    args.add(program);
    // Ours first so that the user's -o options can override the names.
    args.add("-o");
    args.add("ro,default_permissions,fsname=pakfs,subtype=pakfs");
    for (const auto& a : fuseArgs) args.add(a);
    args.add(mountpoint);

    fuse_cmdline_opts opts{};
    if (fuse_parse_cmdline(args.get(), &opts) != 0) return 2;
    std::unique_ptr<char, decltype(&std::free)> mountpointCopy(opts.mountpoint, &std::free);
    if (!opts.mountpoint) {
        std::fprintf(stderr, "pakfs: no mount point given\n");
        return 2;
    }

    Session state;
    state.fs = &fs;
    fuse_lowlevel_ops ops = makeOperations();
    fuse_session* session = fuse_session_new(args.get(), &ops, sizeof ops, &state);
    if (!session) return 2;  // libfuse printed why (usually an unknown option)
    if (fuse_session_mount(session, opts.mountpoint) != 0) {
        fuse_session_destroy(session);
        return 1;
    }
    if (fuse_daemonize(opts.foreground) != 0 || fuse_set_signal_handlers(session) != 0) {
        fuse_session_unmount(session);
        fuse_session_destroy(session);
        return 1;
    }
    // Files decoded ahead go into the kernel's page cache: reading them then needs no request.
    // A store the kernel refuses (an inode it dropped, an unmount under way) only costs the
    // request it would have saved.
    fs.setStoreAhead([session](const Node& node, const Bytes& content) {
        fuse_bufvec bufv = FUSE_BUFVEC_INIT(content.size());
        bufv.buf[0].mem = const_cast<std::uint8_t*>(content.data());
        return fuse_lowlevel_notify_store(session, node.ino, 0, &bufv, fuse_buf_copy_flags(0)) == 0;
    });
    int rc = 1;
    if (opts.singlethread) {
        rc = fuse_session_loop(session);
    } else {
        fuse_loop_config* config = fuse_loop_cfg_create();
        fuse_loop_cfg_set_clone_fd(config, unsigned(opts.clone_fd));
        // Unset values read as UINT_MAX or 0; libfuse's defaults apply then.
        if (opts.max_threads > 0 && opts.max_threads < 100000)
            fuse_loop_cfg_set_max_threads(config, opts.max_threads);
        if (opts.max_idle_threads > 0 && opts.max_idle_threads < 100000)
            fuse_loop_cfg_set_idle_threads(config, opts.max_idle_threads);
        rc = fuse_session_loop_mt(session, config);
        fuse_loop_cfg_destroy(config);
    }
    // No request comes any more: once the read-ahead thread is idle, nothing stores.
    fs.settleReadAhead();
    fs.setStoreAhead({});
    fuse_remove_signal_handlers(session);
    fuse_session_unmount(session);
    fuse_session_destroy(session);
    // A loop ended by a signal is a clean exit.
    return rc == 0 || rc == SIGINT || rc == SIGTERM || rc == SIGHUP || rc == -SIGINT ||
                   rc == -SIGTERM || rc == -SIGHUP
               ? 0
               : 1;
}

void printFuseHelp(const std::string& program) {
    Args args;
    args.add(program);
    std::printf("libfuse options:\n");
    fuse_cmdline_help();
    fuse_lowlevel_help();
}

std::string versionLine() {
    return std::string("pakfs ") + archive::projectVersion() + " (libfuse " + fuse_pkgversion() +
           ", " + archive::libraryVersions() + ")";
}

}  // namespace pakfs::fs
