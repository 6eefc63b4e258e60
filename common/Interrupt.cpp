// SPDX-License-Identifier: GPL-2.0-or-later
// The SIGINT/SIGTERM handler over 128 fixed slots (no lock, no allocation): unfinished files
// removed and named, lock files removed as FileLock would, then the signal raised again.
#include "common/Interrupt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace pakfs {

namespace {

// Fixed slots, so that the handler touches no lock and no allocation (async-signal-safe).
constexpr int kSlots = 128;
constexpr std::size_t kText = 1024;

struct Slot {
    std::atomic<int> state{0};  // 0 free, 1 being filled or emptied, 2 registered
    int dirFd = AT_FDCWD;
    int lockFd = -1;  // a lock file: removed on the conditions of registerLockFile
    long long mutexByte = 0;
    long long keepAbove = 0;
    char path[4096];
    char what[kText];
};

Slot slots[kSlots];
const char* programName = "pak";

void say(const char* text) {
    std::size_t n = std::strlen(text);
    while (n > 0) {
        ssize_t put = ::write(STDERR_FILENO, text, n);
        if (put <= 0) return;
        text += put;
        n -= std::size_t(put);
    }
}

// A lock file left by a command stopped is harmless, but a 0-byte file beside the pak is
// noise: removed as the last one out removes it (FileLock.cpp), without waiting.
void removeLockFile(const Slot& s) {
    struct flock fl {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = off_t(s.mutexByte);
    fl.l_len = 1;
    if (::fcntl(s.lockFd, F_OFD_SETLK, &fl) != 0) return;
    struct stat open {
    }, named{};
    if (::fstat(s.lockFd, &open) != 0 || ::stat(s.path, &named) != 0) return;
    if (open.st_dev == named.st_dev && open.st_ino == named.st_ino && open.st_size <= s.keepAbove)
        ::unlink(s.path);
}

void onSignal(int sig) {
    bool any = false;
    for (auto& s : slots) {
        if (s.state.load() != 2) continue;
        if (s.lockFd >= 0) {
            removeLockFile(s);
            continue;
        }
        ::unlinkat(s.dirFd, s.path, 0);
        say(programName);
        say(": interrupted: ");
        say(s.what);
        say("\n");
        any = true;
    }
    if (!any) {
        say(programName);
        say(": interrupted: every file is as it was or complete\n");
    }
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void copyText(char* dst, std::size_t size, const std::string& src) {
    const std::size_t n = std::min(size - 1, src.size());
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

}  // namespace

void installInterruptCleanup(const char* program) {
    programName = program;
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESETHAND;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

int registerUnfinished(int dirFd, const std::string& path, const std::string& what) {
    if (path.size() >= sizeof(Slot::path)) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
        slots[i].dirFd = dirFd;
        slots[i].lockFd = -1;
        copyText(slots[i].path, sizeof(Slot::path), path);
        copyText(slots[i].what, kText, what);
        slots[i].state.store(2);
        return i;
    }
    return -1;
}

int registerLockFile(int fd, const std::string& path, long long mutexByte, long long keepAbove) {
    if (path.size() >= sizeof(Slot::path)) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
        slots[i].dirFd = AT_FDCWD;
        slots[i].lockFd = fd;
        slots[i].mutexByte = mutexByte;
        slots[i].keepAbove = keepAbove;
        copyText(slots[i].path, sizeof(Slot::path), path);
        slots[i].what[0] = '\0';
        slots[i].state.store(2);
        return i;
    }
    return -1;
}

void unregisterUnfinished(int ticket) {
    if (ticket < 0 || ticket >= kSlots) return;
    slots[ticket].state.store(1);
    slots[ticket].state.store(0);
}

}  // namespace pakfs
