// SPDX-License-Identifier: GPL-2.0-or-later
// Checks made before mounting: the mount point must be a folder with no live or dead mount of
// pakfs on it, and no path pakfs reads or writes (sources, key files, the overlay folder, the
// seek point folder) may be inside it, nor the mount point inside the overlay folder. Such a
// path would have pakfs send requests to its own mount, whose answers wait on the request being
// served: the mount hangs.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pakfs::packs {

// A path pakfs uses, with what it is for the messages ("the overlay folder").
struct UsedPath {
    std::string role;
    std::filesystem::path path;
};

// A mount as /proc/self/mountinfo lists it.
struct MountEntry {
    std::string point;   // where it is mounted
    std::string type;    // "fuse.pakfs", "ext4", ...
    std::string source;  // what is mounted ("pakfs", a device, ...)
    dev_t device = 0;    // its device number
};

// The mounts of this process's mount namespace, in the kernel's order (a mount made on top of
// another comes after it); none when /proc/self/mountinfo cannot be read.
std::vector<MountEntry> listMounts();
// The mount whose mount point is `point` (an absolute path without symbolic links), the top
// one when several are; nullopt when nothing is mounted there.
std::optional<MountEntry> mountAt(const std::string& point);

// Error unless `mountpoint` is an existing folder (symbolic links followed) that no pakfs
// serves: a live pakfs mount there (even with `allowNonEmpty`: a second one would stack on it)
// and a dead mount there (its server gone: ENOTCONN) are Errors saying which fusermount3 to
// run. A folder that holds anything is an Error too unless `allowNonEmpty`: its files would be
// hidden while mounted (naming the file system mounted there, if one is).
void checkMountPoint(const std::filesystem::path& mountpoint, bool allowNonEmpty);

// Whether `path` is `folder` or inside it, resolving symbolic links and "..": each folder on
// the way from `path` up to / is compared with `folder` by device and inode, so a bind mount of
// the folder counts too. `path` need not exist (its existing part is resolved); false when
// `folder` does not exist.
bool isInside(const std::filesystem::path& path, const std::filesystem::path& folder);

// Error naming the first of `used` that is the mount point or inside it, or (with an overlay
// folder, `overlay` not empty) the mount point when it is inside the overlay folder.
void refuseSelfMount(const std::filesystem::path& mountpoint, const std::vector<UsedPath>& used,
                     const std::filesystem::path& overlay);

}  // namespace pakfs::packs
