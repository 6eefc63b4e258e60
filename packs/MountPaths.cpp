// SPDX-License-Identifier: GPL-2.0-or-later
// The mount table from /proc/self/mountinfo (fields unescaped), the mount point checked (a
// folder, no live or dead FUSE mount on it), and paths inside the mount point refused.
#include "packs/MountPaths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/Error.hpp"
#include "common/ShellWord.hpp"

namespace pakfs::packs {

namespace stdfs = std::filesystem;

namespace {

// The path as the user gave it, and where it leads when a symbolic link or ".." makes that
// differ from the path itself.
std::string shown(const stdfs::path& given) {
    std::error_code ec;
    const stdfs::path absolute = stdfs::absolute(given, ec);
    stdfs::path lexical = absolute.lexically_normal();
    if (!lexical.has_filename() && lexical.has_parent_path()) lexical = lexical.parent_path();
    const stdfs::path resolved = stdfs::weakly_canonical(absolute, ec);
    if (ec || resolved == lexical) return given.string();
    return given.string() + " (" + resolved.string() + ")";
}

const char* const kWhy = ": pakfs would send requests to its own mount and wait on itself";

// A path as /proc/self/mountinfo writes it: space, tab, newline and backslash as \ooo.
std::string unescapeMountField(const std::string& field) {
    std::string out;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() &&
            field.find_first_not_of("01234567", i + 1) >= i + 4) {
            out += char(std::stoi(field.substr(i + 1, 3), nullptr, 8));
            i += 3;
        } else {
            out += field[i];
        }
    }
    return out;
}

// A mount that pakfs serves: its type as serve() names it, or its name when -o subtype= gave
// another type.
bool isPakfsMount(const MountEntry& m) {
    return m.type == "fuse.pakfs" || (m.type.rfind("fuse", 0) == 0 && m.source == "pakfs");
}

// The error for a mount point on which, or above which, a FUSE mount has lost its server.
std::string deadMount(const stdfs::path& mountpoint, int err) {
    const std::string given = mountpoint.string();
    const char* why = err == ENOTCONN ? "transport endpoint not connected" : "connection aborted";
    // Where it is, without asking the dead mount: the parent folder resolved, if it can be.
    std::error_code ec;
    stdfs::path at = stdfs::absolute(mountpoint, ec).lexically_normal();
    if (!at.has_filename() && at.has_parent_path()) at = at.parent_path();
    if (char* parent = ::realpath(at.parent_path().c_str(), nullptr)) {
        at = stdfs::path(parent) / at.filename();
        std::free(parent);
    }
    // The mount it is in: the deepest mount point that is `at` or a folder above it.
    std::string dead;
    for (const auto& m : listMounts()) {
        const std::string& p = m.point;
        const std::string path = at.string();
        const bool above =
            p == "/" || path == p ||
            (path.size() > p.size() && path.compare(0, p.size(), p) == 0 && path[p.size()] == '/');
        if (above && p.size() >= dead.size()) dead = p;
    }
    if (dead.empty() || dead == at.string())
        return given + ": a mount there has died (" + why + "); run: fusermount3 -u " +
               shellWord(given);
    return given + ": inside " + dead + ", a mount that has died (" + why +
           "); run: fusermount3 -u " + shellWord(dead);
}

}  // namespace

std::vector<MountEntry> listMounts() {
    std::vector<MountEntry> mounts;
    std::ifstream in("/proc/self/mountinfo");
    // ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string id, parent, device, root, point, word;
        if (!(fields >> id >> parent >> device >> root >> point)) continue;
        while (fields >> word && word != "-") {
        }
        MountEntry m;
        if (word != "-" || !(fields >> m.type)) continue;
        fields >> m.source;
        m.point = unescapeMountField(point);
        m.source = unescapeMountField(m.source);
        unsigned devMajor = 0, devMinor = 0;
        if (std::sscanf(device.c_str(), "%u:%u", &devMajor, &devMinor) == 2)
            m.device = makedev(devMajor, devMinor);
        mounts.push_back(std::move(m));
    }
    return mounts;
}

std::optional<MountEntry> mountAt(const std::string& point) {
    std::optional<MountEntry> found;
    for (auto& m : listMounts())
        if (m.point == point) found = std::move(m);
    return found;
}

void checkMountPoint(const stdfs::path& mountpoint, bool allowNonEmpty) {
    const std::string given = mountpoint.string();
    // Forced to ask the file system: a FUSE mount whose server died may still have the
    // attributes of its root in the kernel's cache, and answers a plain stat from it.
    struct statx stx;
    if (::statx(AT_FDCWD, mountpoint.c_str(), AT_STATX_FORCE_SYNC, STATX_TYPE, &stx) != 0) {
        const int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            throw Error(given + ": the mount point does not exist (make the folder)");
        if (err == ENOTCONN || err == ECONNABORTED) throw Error(deadMount(mountpoint, err));
        throw Error(given + ": the mount point: " + std::strerror(err));
    }
    if (!S_ISDIR(stx.stx_mode)) throw Error(given + ": the mount point is not a folder");
    std::optional<MountEntry> mounted;
    if (char* real = ::realpath(mountpoint.c_str(), nullptr)) {
        mounted = mountAt(real);
        std::free(real);
    }
    if (mounted && isPakfsMount(*mounted))
        throw Error(given + ": already mounted (by pakfs); unmount it first: fusermount3 -u " +
                    shellWord(given));
    if (allowNonEmpty) return;
    std::error_code ec;
    stdfs::directory_iterator it(mountpoint, ec);
    if (ec) throw Error(given + ": the mount point cannot be listed: " + ec.message());
    if (it == stdfs::directory_iterator()) return;
    if (mounted)
        throw Error(given + ": a " + mounted->type + " file system (" + mounted->source +
                    ") is mounted there and holds files (they would be hidden while mounted); "
                    "unmount it first, or give -o nonempty to mount over it");
    throw Error(given +
                ": the mount point is not empty (its files would be hidden while mounted; "
                "give -o nonempty to mount over them)");
}

bool isInside(const stdfs::path& path, const stdfs::path& folder) {
    struct stat target;
    if (::stat(folder.c_str(), &target) != 0) return false;
    std::error_code ec;
    stdfs::path at = stdfs::weakly_canonical(stdfs::absolute(path, ec), ec);
    if (ec) at = stdfs::absolute(path).lexically_normal();
    for (;;) {
        struct stat st;
        if (::stat(at.c_str(), &st) == 0 && st.st_dev == target.st_dev &&
            st.st_ino == target.st_ino)
            return true;
        stdfs::path up = at.parent_path();
        if (up == at || up.empty()) return false;
        at = up;
    }
}

void refuseSelfMount(const stdfs::path& mountpoint, const std::vector<UsedPath>& used,
                     const stdfs::path& overlay) {
    for (const auto& u : used)
        if (isInside(u.path, mountpoint))
            throw Error(shown(u.path) + ": " + u.role +
                        (isInside(mountpoint, u.path) ? " is the mount point "
                                                      : " is inside the mount point ") +
                        shown(mountpoint) + kWhy);
    if (!overlay.empty() && isInside(mountpoint, overlay))
        throw Error(shown(mountpoint) + ": the mount point is inside the overlay folder " +
                    shown(overlay) + kWhy);
}

}  // namespace pakfs::packs
