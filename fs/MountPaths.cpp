// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/MountPaths.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "common/Error.hpp"

namespace pakfs::fs {

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

}  // namespace

void checkMountPoint(const stdfs::path& mountpoint, bool allowNonEmpty) {
    struct stat st;
    if (::stat(mountpoint.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            throw Error(mountpoint.string() + ": the mount point does not exist (make the folder)");
        throw Error(mountpoint.string() + ": the mount point: " + std::strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        throw Error(mountpoint.string() + ": the mount point is not a folder");
    if (allowNonEmpty) return;
    std::error_code ec;
    stdfs::directory_iterator it(mountpoint, ec);
    if (ec)
        throw Error(mountpoint.string() + ": the mount point cannot be listed: " + ec.message());
    if (it != stdfs::directory_iterator())
        throw Error(mountpoint.string() +
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

}  // namespace pakfs::fs
