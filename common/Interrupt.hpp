// SPDX-License-Identifier: GPL-2.0-or-later
// What a command leaves when it is stopped by SIGINT or SIGTERM: files it is in the middle of
// writing are registered here while they are unfinished, and the signal handler removes them,
// prints one line saying so, and ends the process as the signal would have.
// (SIGKILL cannot be caught: for it, outputs are written to temporary files renamed into place.)
#pragma once

#include <string>

namespace pakfs {

// Installs the handler for SIGINT and SIGTERM; `program` prefixes its line ("pak").
void installInterruptCleanup(const char* program);

// An unfinished file, removed if the process is interrupted before unregistered: `path`
// relative to `dirFd` (AT_FDCWD for the current folder); `what` is the handler's line for it,
// e.g. "OUT left as it was (its unfinished temporary file removed)". Returns a ticket for
// unregisterUnfinished, or -1 when every slot is taken (the file is then not removed).
int registerUnfinished(int dirFd, const std::string& path, const std::string& what);
void unregisterUnfinished(int ticket);

// A lock file (common/FileLock.hpp) this process holds open as `fd` at `path`: removed too if
// the process is interrupted, silently, when it is still the file at `path`, no other process
// holds its byte `mutexByte` (taken without waiting) and it is no larger than `keepAbove`
// bytes (no mount marked it). Returns a ticket for unregisterUnfinished, or -1.
int registerLockFile(int fd, const std::string& path, long long mutexByte, long long keepAbove);

}  // namespace pakfs
