// SPDX-License-Identifier: GPL-2.0-or-later
#define FUSE_USE_VERSION 314
#include "fs/FuseOps.hpp"

#include <fuse.h>
#include <fuse_lowlevel.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "archive/Version.hpp"

namespace pakfs::fs {

namespace {

// Nothing in a pack ever changes while it is mounted, so the kernel may keep everything.
constexpr double kCacheSeconds = 3600.0;

Filesystem& self() {
    return *static_cast<Filesystem*>(fuse_get_context()->private_data);
}

void* opInit(fuse_conn_info* conn, fuse_config* cfg) {
    // Attributes with every listing, not only the first: a `find | xargs cat` then needs no
    // LOOKUP per file (the entries come in the listing, and stay valid: nothing changes).
    if (conn->capable & FUSE_CAP_READDIRPLUS) conn->want &= ~unsigned(FUSE_CAP_READDIRPLUS_AUTO);
    cfg->use_ino = 1;
    cfg->readdir_ino = 1;
    cfg->kernel_cache = 1;
    cfg->entry_timeout = kCacheSeconds;
    cfg->attr_timeout = kCacheSeconds;
    cfg->negative_timeout = kCacheSeconds;
    return fuse_get_context()->private_data;
}

int opGetattr(const char* path, struct stat* st, fuse_file_info*) {
    return self().getattr(path, st);
}

int opAccess(const char* path, int mask) {
    return self().access(path, mask);
}

int opOpendir(const char* path, fuse_file_info*) {
    return self().opendir(path);
}

int opReaddir(const char* path, void* buf, fuse_fill_dir_t filler, off_t offset, fuse_file_info*,
              fuse_readdir_flags flags) {
    auto fillFlags = (flags & FUSE_READDIR_PLUS) ? FUSE_FILL_DIR_PLUS : fuse_fill_dir_flags(0);
    // With offsets libfuse hands the attributes of a readdirplus on to the kernel (without,
    // it sends none and every file costs a LOOKUP later), and a listing goes out in pieces.
    return self().readdir(path, offset,
                          [&](const char* name, const struct stat& st, std::int64_t next) {
                              return filler(buf, name, &st, off_t(next), fillFlags) == 0;
                          });
}

int opOpen(const char* path, fuse_file_info* fi) {
    std::uint64_t fh = 0;
    int rc = self().open(path, fi->flags, &fh);
    if (rc != 0) return rc;
    self().release(fh);
    // ENOSYS on a successful open: the kernel stops sending OPEN and RELEASE for every file
    // (two requests of three when reading a small file) and reads carry no handle. The mount
    // is read-only, so the kernel refuses opens for writing before they get here.
    return -ENOSYS;
}

int opRead(const char* path, char* buf, size_t size, off_t offset, fuse_file_info* fi) {
    if (fi && fi->fh) return int(self().read(fi->fh, buf, size, offset));
    return int(self().readPath(path, buf, size, offset));
}

int opRelease(const char*, fuse_file_info* fi) {
    return self().release(fi->fh);
}

int opGetxattr(const char* path, const char* name, char* value, size_t size) {
    return int(self().getxattr(path, name, value, size));
}

int opListxattr(const char* path, char* list, size_t size) {
    return int(self().listxattr(path, list, size));
}

int opStatfs(const char*, struct statvfs* st) {
    return self().statfs(st);
}

// Everything that would change the tree.
int roMknod(const char*, mode_t, dev_t) {
    return Filesystem::readOnly();
}
int roMkdir(const char*, mode_t) {
    return Filesystem::readOnly();
}
int roPath(const char*) {
    return Filesystem::readOnly();
}
int roTwoPaths(const char*, const char*) {
    return Filesystem::readOnly();
}
int roRename(const char*, const char*, unsigned) {
    return Filesystem::readOnly();
}
int roChmod(const char*, mode_t, fuse_file_info*) {
    return Filesystem::readOnly();
}
int roChown(const char*, uid_t, gid_t, fuse_file_info*) {
    return Filesystem::readOnly();
}
int roTruncate(const char*, off_t, fuse_file_info*) {
    return Filesystem::readOnly();
}
int roWrite(const char*, const char*, size_t, off_t, fuse_file_info*) {
    return Filesystem::readOnly();
}
int roSetxattr(const char*, const char*, const char*, size_t, int) {
    return Filesystem::readOnly();
}
int roRemovexattr(const char*, const char*) {
    return Filesystem::readOnly();
}
int roCreate(const char*, mode_t, fuse_file_info*) {
    return Filesystem::readOnly();
}
int roUtimens(const char*, const struct timespec[2], fuse_file_info*) {
    return Filesystem::readOnly();
}
int roFallocate(const char*, int, off_t, off_t, fuse_file_info*) {
    return Filesystem::readOnly();
}

fuse_operations makeOperations() {
    fuse_operations ops{};
    ops.init = opInit;
    ops.getattr = opGetattr;
    ops.access = opAccess;
    ops.opendir = opOpendir;
    ops.readdir = opReaddir;
    ops.open = opOpen;
    ops.read = opRead;
    ops.release = opRelease;
    ops.getxattr = opGetxattr;
    ops.listxattr = opListxattr;
    ops.statfs = opStatfs;
    ops.mknod = roMknod;
    ops.mkdir = roMkdir;
    ops.unlink = roPath;
    ops.rmdir = roPath;
    ops.symlink = roTwoPaths;
    ops.link = roTwoPaths;
    ops.rename = roRename;
    ops.chmod = roChmod;
    ops.chown = roChown;
    ops.truncate = roTruncate;
    ops.write = roWrite;
    ops.setxattr = roSetxattr;
    ops.removexattr = roRemovexattr;
    ops.create = roCreate;
    ops.utimens = roUtimens;
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

    fuse_operations ops = makeOperations();
    fuse* f = fuse_new(args.get(), &ops, sizeof ops, &fs);
    if (!f) return 2;  // libfuse printed why (usually an unknown option)
    int rc = 1;
    if (fuse_mount(f, opts.mountpoint) != 0) {
        fuse_destroy(f);
        return 1;
    }
    fuse_session* session = fuse_get_session(f);
    if (fuse_daemonize(opts.foreground) != 0 || fuse_set_signal_handlers(session) != 0) {
        fuse_unmount(f);
        fuse_destroy(f);
        return 1;
    }
    if (opts.singlethread) {
        rc = fuse_loop(f);
    } else {
        fuse_loop_config* config = fuse_loop_cfg_create();
        fuse_loop_cfg_set_clone_fd(config, unsigned(opts.clone_fd));
        // Unset values read as UINT_MAX or 0; libfuse's defaults apply then.
        if (opts.max_threads > 0 && opts.max_threads < 100000)
            fuse_loop_cfg_set_max_threads(config, opts.max_threads);
        if (opts.max_idle_threads > 0 && opts.max_idle_threads < 100000)
            fuse_loop_cfg_set_idle_threads(config, opts.max_idle_threads);
        rc = fuse_loop_mt(f, config);
        fuse_loop_cfg_destroy(config);
    }
    fuse_remove_signal_handlers(session);
    fuse_unmount(f);
    fuse_destroy(f);
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
    fuse_lib_help(args.get());
}

std::string versionLine() {
    return std::string("pakfs ") + archive::projectVersion() + " (libfuse " + fuse_pkgversion() +
           ", " + archive::libraryVersions() + ")";
}

}  // namespace pakfs::fs
