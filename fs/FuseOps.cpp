// SPDX-License-Identifier: GPL-2.0-or-later
// The FUSE edge: each low-level operation translated to the View and its answer back to libfuse;
// mounting, serving and libfuse's options.
#define FUSE_USE_VERSION 314
#include "fs/FuseOps.hpp"

#include <fuse_lowlevel.h>

#include <fcntl.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "archive/pak/Version.hpp"
#include "fs/Unmount.hpp"
#include "fs/view/ReadQueue.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PAKFS_LEAK_CHECKED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PAKFS_LEAK_CHECKED 1
#endif
#ifdef PAKFS_LEAK_CHECKED
// Sanitizer builds only. When a signal had the Unmounter unmount a busy mount, libfuse's own
// fuse_session_unmount must not run (it would act on the path a second time), and it is what
// frees the copy of the mount point fuse_session_mount made: one small string, once, at exit.
extern "C" const char* __lsan_default_suppressions() {
    return "leak:fuse_session_mount\n";
}
extern "C" const char* __lsan_default_options() {
    return "print_suppressions=0";
}
#endif

namespace pakfs::fs {

namespace {

// Nothing in a pack ever changes while it is mounted, so the kernel may keep everything. A
// writable mount changes only through the kernel, which updates what it keeps itself.
constexpr double kCacheSeconds = 3600.0;

static_assert(View::kSetMode == FUSE_SET_ATTR_MODE && View::kSetUid == FUSE_SET_ATTR_UID &&
              View::kSetGid == FUSE_SET_ATTR_GID && View::kSetSize == FUSE_SET_ATTR_SIZE &&
              View::kSetAtime == FUSE_SET_ATTR_ATIME && View::kSetMtime == FUSE_SET_ATTR_MTIME &&
              View::kSetAtimeNow == FUSE_SET_ATTR_ATIME_NOW &&
              View::kSetMtimeNow == FUSE_SET_ATTR_MTIME_NOW);

// The low-level API: the kernel names inodes, which are the view's (no path is built per
// request), and files decoded ahead can be pushed into the kernel's page cache by inode
// (fuse_lowlevel_notify_store), which the high-level API cannot do.
struct Session {
    View* view = nullptr;
    // Set at init: the kernel takes ENOSYS from open as "no open needed" (no OPEN, no RELEASE
    // for any file from then on, and reads and writes carry no handle). A writable view then
    // copies up at the first change (a write, a truncate) instead of at an open for writing.
    std::atomic<bool> openless{false};
    // The reads of each file (by inode and handle) being answered.
    ReadQueue reads;
};

Session& state(fuse_req_t req) {
    return *static_cast<Session*>(fuse_req_userdata(req));
}

View& viewOf(fuse_req_t req) {
    return *state(req).view;
}

void replyStatus(fuse_req_t req, long rc) {
    fuse_reply_err(req, rc < 0 ? int(-rc) : 0);
}

// How long the kernel may keep what it learns of `ino` (its attributes, its names, its
// listing, its pages): no time when changes through another inode change it (a writable
// icase mount, where every spelling of a name is an inode).
double cacheSeconds(fuse_req_t req, std::uint64_t ino) {
    return viewOf(req).keepsNoAttributes(ino) ? 0.0 : kCacheSeconds;
}

// The entry the kernel keeps for a name whose attributes are `st` (st_ino is the view's).
fuse_entry_param entryOf(fuse_req_t req, const struct stat& st) {
    fuse_entry_param e{};
    e.ino = st.st_ino;
    e.generation = 1;
    e.attr = st;
    e.attr_timeout = cacheSeconds(req, st.st_ino);
    e.entry_timeout = e.attr_timeout;
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
    if (s.view->writable()) {
        conn->max_write = 1 << 20;
        if (s.openless) {
            // Every write reaches the view as it is made, so a copy-up that fails (ENOSPC)
            // fails that write() and the kernel keeps none of its bytes (a write-back cache
            // would report it at close, with the bytes still cached). No atomic O_TRUNC: with
            // no OPEN, a truncating open must reach the view as a SETATTR.
            conn->want &= ~unsigned(FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_ATOMIC_O_TRUNC);
        } else {
            // Writes gather in the kernel's page cache and come in large pieces.
            if (conn->capable & FUSE_CAP_WRITEBACK_CACHE) conn->want |= FUSE_CAP_WRITEBACK_CACHE;
            if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC) conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
        }
    }
}

void replyEntry(fuse_req_t req, int rc, const struct stat& st) {
    if (rc != 0) return replyStatus(req, rc);
    fuse_entry_param e = entryOf(req, st);
    fuse_reply_entry(req, &e);
}

void opLookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
    struct stat st;
    int rc = viewOf(req).lookup(parent, name, &st);
    if (rc == -ENOENT) {
        // A negative entry, kept as long as the positive ones.
        fuse_entry_param e{};
        e.entry_timeout = cacheSeconds(req, parent);
        fuse_reply_entry(req, &e);
        return;
    }
    replyEntry(req, rc, st);
}

// Inode numbers stay valid for the life of the mount; the kernel forgets an inode only once
// nothing holds it, which frees what a writable view keeps for a deleted file still open.
void opForget(fuse_req_t req, fuse_ino_t ino, uint64_t) {
    viewOf(req).forget(ino);
    fuse_reply_none(req);
}
void opForgetMulti(fuse_req_t req, size_t count, fuse_forget_data* forgets) {
    View& v = viewOf(req);
    for (std::size_t i = 0; i < count; ++i) v.forget(forgets[i].ino);
    fuse_reply_none(req);
}

void opGetattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
    struct stat st;
    if (int rc = viewOf(req).getattr(ino, &st); rc != 0) return replyStatus(req, rc);
    fuse_reply_attr(req, &st, cacheSeconds(req, ino));
}

void opAccess(fuse_req_t req, fuse_ino_t ino, int mask) {
    replyStatus(req, viewOf(req).access(ino, mask));
}

void opOpendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    struct stat st;
    if (int rc = viewOf(req).getattr(ino, &st); rc != 0) return replyStatus(req, rc);
    if (!S_ISDIR(st.st_mode)) return (void)fuse_reply_err(req, ENOTDIR);
    // The kernel may keep listings: a change made through it drops the folder's.
    fi->cache_readdir = fi->keep_cache = !viewOf(req).keepsNoAttributes(ino);
    fuse_reply_open(req, fi);
}

void readdirCommon(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, bool plus) {
    std::vector<char> buf(size);
    std::size_t used = 0;
    int rc = viewOf(req).readdir(
        ino, offset, [&](const char* name, const struct stat& st, std::int64_t next) {
            std::size_t need;
            if (plus) {
                fuse_entry_param e{};
                // "." and ".." carry no entry: the kernel does not look them up.
                if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0)
                    e = entryOf(req, st);
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
    Session& s = state(req);
    if (!s.view->writable()) {
        struct stat st;
        if (int rc = s.view->getattr(ino, &st); rc != 0) return replyStatus(req, rc);
        if (S_ISDIR(st.st_mode)) return (void)fuse_reply_err(req, EISDIR);
        if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC))
            return (void)fuse_reply_err(req, EROFS);
    }
    // ENOSYS on a successful open: the kernel stops sending OPEN and RELEASE for every file
    // (two requests of three when reading a small file). A writable view needs no handle: its
    // reads and writes go by inode (a read-only mount's kernel refuses opens for writing
    // before they get here).
    if (s.openless) return (void)fuse_reply_err(req, ENOSYS);
    std::uint64_t fh = 0;
    if (int rc = s.view->open(ino, fi->flags, &fh); rc != 0) return replyStatus(req, rc);
    fi->fh = fh;
    fi->keep_cache = !s.view->keepsNoAttributes(ino);
    if (fuse_reply_open(req, fi) != 0) s.view->release(ino, fh);  // interrupted: no release
}

void answerRead(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, std::uint64_t fh) {
    thread_local std::vector<char> buf;
    long n = -EIO;
    try {
        if (buf.size() < size) buf.resize(size);
        n = viewOf(req).read(ino, fh, buf.data(), size, offset);
    } catch (const std::exception&) {
    }
    if (n < 0) return replyStatus(req, n);
    fuse_reply_buf(req, buf.data(), std::size_t(n));
}

// The kernel's readahead sends several reads of a file at once: the queue has one thread
// answer those near each other (fs/view/ReadQueue.hpp).
void opRead(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info* fi) {
    const std::uint64_t fh = fi ? fi->fh : 0;
    state(req).reads.serve({ino, fh}, {req, size, offset}, [&](const ReadQueue::Read& r) {
        answerRead(static_cast<fuse_req_t>(r.request), ino, r.size, r.offset, fh);
    });
}

void opRelease(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    viewOf(req).release(ino, fi->fh);
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
    View& v = viewOf(req);
    replyXattr(req, size, [&](char* b, std::size_t n) { return v.getxattr(ino, name, b, n); });
}

void opListxattr(fuse_req_t req, fuse_ino_t ino, size_t size) {
    View& v = viewOf(req);
    replyXattr(req, size, [&](char* l, std::size_t n) { return v.listxattr(ino, l, n); });
}

void opStatfs(fuse_req_t req, fuse_ino_t) {
    struct statvfs st;
    if (int rc = viewOf(req).statfs(&st); rc != 0) return replyStatus(req, rc);
    fuse_reply_statfs(req, &st);
}

// Changes: a read-only view answers EROFS (the kernel refuses most of them on a read-only
// mount before they get here).
void opSetattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int toSet, fuse_file_info* fi) {
    struct stat st;
    int rc = viewOf(req).setattr(ino, *attr, toSet, fi ? fi->fh : 0, &st);
    if (rc != 0) return replyStatus(req, rc);
    fuse_reply_attr(req, &st, cacheSeconds(req, ino));
}
void opMkdir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode) {
    struct stat st;
    replyEntry(req, viewOf(req).mkdir(parent, name, mode, &st), st);
}
void opUnlink(fuse_req_t req, fuse_ino_t parent, const char* name) {
    replyStatus(req, viewOf(req).unlink(parent, name));
}
void opRmdir(fuse_req_t req, fuse_ino_t parent, const char* name) {
    replyStatus(req, viewOf(req).rmdir(parent, name));
}
void opRename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t newParent,
              const char* newName, unsigned flags) {
    replyStatus(req, viewOf(req).rename(parent, name, newParent, newName, flags));
}
void opCreate(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode,
              fuse_file_info* fi) {
    View& v = viewOf(req);
    struct stat st;
    std::uint64_t fh = 0;
    if (int rc = v.create(parent, name, mode, fi->flags, &st, &fh); rc != 0)
        return replyStatus(req, rc);
    // Once OPEN is answered ENOSYS the kernel sends no RELEASE for created files either: no
    // handle to keep, the writes go by inode.
    if (state(req).openless && fh != 0) {
        v.release(st.st_ino, fh);
        fh = 0;
    }
    fi->fh = fh;
    fuse_entry_param e = entryOf(req, st);
    if (fuse_reply_create(req, &e, fi) != 0) v.release(st.st_ino, fh);
}
void opWrite(fuse_req_t req, fuse_ino_t ino, const char* buf, size_t size, off_t offset,
             fuse_file_info* fi) {
    long n = viewOf(req).write(ino, fi ? fi->fh : 0, buf, size, offset);
    if (n < 0) return replyStatus(req, n);
    fuse_reply_write(req, std::size_t(n));
}
void opFsync(fuse_req_t req, fuse_ino_t ino, int datasync, fuse_file_info* fi) {
    replyStatus(req, viewOf(req).fsync(ino, fi ? fi->fh : 0, datasync != 0));
}
void opFsyncdir(fuse_req_t req, fuse_ino_t, int, fuse_file_info*) {
    fuse_reply_err(req, 0);
}
void opMknod(fuse_req_t req, fuse_ino_t, const char* name, mode_t, dev_t) {
    replyStatus(req,
                viewOf(req).unsupported(std::string("mknod ") + name + " (a device file or pipe)"));
}
void opSymlink(fuse_req_t req, const char*, fuse_ino_t, const char* name) {
    replyStatus(req,
                viewOf(req).unsupported(std::string("symlink ") + name + " (a symbolic link)"));
}
void opLink(fuse_req_t req, fuse_ino_t, fuse_ino_t, const char* name) {
    replyStatus(req, viewOf(req).unsupported(std::string("link ") + name + " (a hard link)"));
}
void opSetxattr(fuse_req_t req, fuse_ino_t, const char*, const char*, size_t, int) {
    fuse_reply_err(req, viewOf(req).writable() ? ENOTSUP : EROFS);
}
void opRemovexattr(fuse_req_t req, fuse_ino_t, const char*) {
    fuse_reply_err(req, viewOf(req).writable() ? ENOTSUP : EROFS);
}
void opFallocate(fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
    fuse_reply_err(req, viewOf(req).writable() ? EOPNOTSUPP : EROFS);
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
    ops.setattr = opSetattr;
    ops.mknod = opMknod;
    ops.mkdir = opMkdir;
    ops.unlink = opUnlink;
    ops.rmdir = opRmdir;
    ops.removexattr = opRemovexattr;
    ops.symlink = opSymlink;
    ops.rename = opRename;
    ops.link = opLink;
    ops.write = opWrite;
    // No flush: libfuse answers the first FLUSH with ENOSYS and the kernel sends no more, so
    // a close costs no round trip (with the writeback cache the kernel still writes a file's
    // dirty pages back at close, before it would send FLUSH, and reports their errors there).
    ops.fsync = opFsync;
    ops.fsyncdir = opFsyncdir;
    ops.setxattr = opSetxattr;
    ops.create = opCreate;
    ops.fallocate = opFallocate;
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

int serve(View& view, PackView& packs, const std::string& program,
          const std::vector<std::string>& fuseArgs, const std::string& mountpoint,
          const std::function<void(const std::string&)>& log) {
    Args args;
    args.add(program);
    // Ours first so that the user's -o options can override the names.
    args.add("-o");
    args.add(std::string(view.writable() ? "rw" : "ro") +
             ",default_permissions,fsname=pakfs,subtype=pakfs");
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
    state.view = &view;
    fuse_lowlevel_ops ops = makeOperations();
    fuse_session* session = fuse_session_new(args.get(), &ops, sizeof ops, &state);
    if (!session) return 2;  // libfuse printed why (usually an unknown option)
    if (fuse_session_mount(session, opts.mountpoint) != 0) {
        fuse_session_destroy(session);
        return 1;
    }
    if (fuse_daemonize(opts.foreground) != 0) {
        fuse_session_unmount(session);
        fuse_session_destroy(session);
        return 1;
    }
    // No thread runs yet: every one started from here on has the signals blocked.
    Unmounter::blockSignals();
    std::signal(SIGPIPE, SIG_IGN);  // a reply to a request whose caller is gone
    auto unmounter = std::make_unique<Unmounter>(
        opts.mountpoint, fuse_session_fd(session), [session] { fuse_session_exit(session); }, log);
    // Files decoded ahead go into the kernel's page cache: reading them then needs no request.
    // A store the kernel refuses (an inode it dropped, an unmount under way) only costs the
    // request it would have saved.
    packs.setStoreAhead([session, &view](const Node& node, const Bytes& content) {
        return view.storeIfBelow(node.ino, [&] {
            fuse_bufvec bufv = FUSE_BUFVEC_INIT(content.size());
            bufv.buf[0].mem = const_cast<std::uint8_t*>(content.data());
            return fuse_lowlevel_notify_store(session, node.ino, 0, &bufv,
                                              fuse_buf_copy_flags(0)) == 0;
        });
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
    packs.settleReadAhead();
    packs.setStoreAhead({});
    unmounter->finish();
    const bool signalled = unmounter->signalled();
    if (!unmounter->unmounted()) fuse_session_unmount(session);
    unmounter.reset();
    fuse_session_destroy(session);
    // A loop ended by a signal is a clean exit.
    return rc == 0 || signalled ? 0 : 1;
}

namespace {

// What libfuse logs while options are tried (one thread: before anything is mounted).
std::string* g_fuseLog = nullptr;

void keepFuseLog(enum fuse_log_level, const char* fmt, va_list ap) {
    char line[1024];
    std::vsnprintf(line, sizeof line, fmt, ap);
    if (g_fuseLog) *g_fuseLog += line;
}

// libfuse's complaint about `option` alone, as serve() would parse it ("" when it takes it).
std::string tryFuseArgs(const std::vector<std::string>& option) {
    Args args;
    args.add("pakfs");
    for (const auto& a : option) args.add(a);
    std::string said;
    g_fuseLog = &said;
    fuse_set_log_func(keepFuseLog);
    fuse_cmdline_opts opts{};
    bool taken = fuse_parse_cmdline(args.get(), &opts) == 0;
    std::free(opts.mountpoint);
    if (taken) {
        fuse_lowlevel_ops ops{};
        if (fuse_session* session = fuse_session_new(args.get(), &ops, sizeof ops, nullptr))
            fuse_session_destroy(session);
        else
            taken = false;
    }
    fuse_set_log_func(nullptr);  // back to stderr
    g_fuseLog = nullptr;
    if (taken) return {};
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    if (said.rfind("fuse: ", 0) == 0) said.erase(0, 6);
    return said.empty() ? "refused by libfuse" : said;
}

}  // namespace

std::string checkFuseArgs(const std::vector<std::string>& fuseArgs) {
    for (std::size_t i = 0; i < fuseArgs.size(); ++i) {
        if (fuseArgs[i] != "-o" || i + 1 == fuseArgs.size()) {
            const std::string said = tryFuseArgs({fuseArgs[i]});
            if (said.empty()) continue;
            if (said.find("unknown option") != std::string::npos)
                return "unknown option: " + fuseArgs[i];
            return fuseArgs[i] + ": " + said;
        }
        // Each of a list on its own, split as libfuse splits it (a backslash escapes the
        // character after it, a comma too), and left escaped for libfuse to read.
        const std::string& list = fuseArgs[++i];
        std::string option;
        for (std::size_t c = 0; c <= list.size(); ++c) {
            if (c < list.size() && list[c] == '\\' && c + 1 < list.size()) {
                option += list.substr(c++, 2);
                continue;
            }
            if (c < list.size() && list[c] != ',') {
                option += list[c];
                continue;
            }
            if (!option.empty()) {
                const std::string said = tryFuseArgs({"-o", option});
                if (said.find("unknown option") != std::string::npos)
                    return "unknown mount option: " + option;
                if (!said.empty()) return "mount option " + option + ": " + said;
            }
            option.clear();
        }
    }
    return {};
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
