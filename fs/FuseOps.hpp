// SPDX-License-Identifier: GPL-2.0-or-later
// The FUSE edge: maps libfuse's low-level operations onto a View (the read-only pack view, or
// the writable Overlay over it). The only code that includes libfuse's headers.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "fs/view/PackView.hpp"

namespace pakfs::fs {

// Mounts `view` at `mountpoint` (read-only unless the view is writable) and serves requests until
// the file system is unmounted (fusermount3 -u) or the process gets SIGINT, SIGTERM or SIGHUP, then
// unmounts (a busy mount by aborting its connection, with a line to `log`: no request left
// waiting can keep it). `fuseArgs` are libfuse's own options (-f, -d, -s, -o ...). Returns the
// process exit code; problems go to stderr. `packs` is the pack view under `view` (or `view`
// itself): its files decoded ahead go to the kernel's page cache. The caller has checked the
// mount point and the paths the views use (MountPaths.hpp).
int serve(View& view, PackView& packs, const std::string& program,
          const std::vector<std::string>& fuseArgs, const std::string& mountpoint,
          const std::function<void(const std::string&)>& log);

// Tries each of `fuseArgs` (libfuse's options, as serve takes them) with libfuse's own parsers,
// mounting nothing: "" when libfuse takes them all, else the first it refuses, in a line naming
// it ("unknown mount option: bogus", "unknown option: -x", or libfuse's reason).
std::string checkFuseArgs(const std::vector<std::string>& fuseArgs);

// libfuse's help for its own options (mount options, -f, -d, -s ...).
void printFuseHelp(const std::string& program);
// "pakfs VERSION (libfuse VERSION)".
std::string versionLine();

}  // namespace pakfs::fs
