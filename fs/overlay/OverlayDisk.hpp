// SPDX-License-Identifier: GPL-2.0-or-later
// The small calls on the overlay folder's files that Overlay's source files share.
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>

namespace pakfs::fs::overlay_disk {

// The failed call's errno as a FUSE reply (negative).
inline int errnoResult() {
    return -errno;
}

// Whether `path` names anything, a link not followed.
inline bool existsNoFollow(const std::filesystem::path& path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace pakfs::fs::overlay_disk
