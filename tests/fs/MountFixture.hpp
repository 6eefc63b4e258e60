// SPDX-License-Identifier: GPL-2.0-or-later
// Real mounts with the pakfs binary through the kernel, for the mount tests. Skipped (exit code
// kSkipExitCode, with the reason) when FUSE is not available.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/Cli.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

namespace pakfs::test {

#ifdef PAKFS_MOUNT_BINARY
inline const std::string kPakfs = PAKFS_MOUNT_BINARY;
#else
inline const std::string kPakfs =
    (std::filesystem::path(PAKFS_PAK_BINARY).parent_path() / "pakfs").string();
#endif

inline void skipUnlessFuse() {
    const char* reason = nullptr;
    if (::access("/dev/fuse", R_OK | W_OK) != 0)
        reason = "/dev/fuse is missing or not usable";
    else if (run("command -v fusermount3").code != 0)
        reason = "fusermount3 is not installed";
    else if (!std::filesystem::exists(kPakfs))
        reason = "the pakfs binary was not built";
    if (reason) {
        std::printf("SKIPPED: %s\n", reason);
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
}

inline bool isMounted(const std::filesystem::path& mountpoint) {
    std::ifstream in("/proc/self/mounts");
    std::string device, dir, rest;
    while (in >> device >> dir && std::getline(in, rest))
        if (dir == mountpoint.string()) return true;
    return false;
}

inline std::string quote(const std::string& s) {
    return "'" + s + "'";
}

// pakfs running in the foreground in a child process; unmounted and reaped on destruction.
class Mount {
public:
    Mount(const std::vector<std::string>& args, const std::filesystem::path& mountpoint,
          const TempDir& dir)
        : mountpoint_(std::filesystem::weakly_canonical(mountpoint)), errPath_(dir / "pakfs.err") {
        std::filesystem::create_directories(mountpoint_);
        std::vector<std::string> argv{kPakfs, "-f"};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.push_back(mountpoint_.string());
        pid_ = spawnLogged(argv, errPath_);
    }
    ~Mount() {
        if (pid_ > 0) {
            if (isMounted(mountpoint_)) run("fusermount3 -u " + quote(mountpoint_.string()));
            if (waitExit(std::chrono::seconds(10)) == kTimedOut) {
                kill(pid_, SIGKILL);
                waitpid(pid_, nullptr, 0);
            }
        }
        if (isMounted(mountpoint_)) run("fusermount3 -uz " + quote(mountpoint_.string()));
    }
    Mount(const Mount&) = delete;
    Mount& operator=(const Mount&) = delete;

    // Waits until the kernel lists the mount (or the process ended).
    bool waitMounted(std::chrono::seconds timeout = std::chrono::seconds(10)) {
        auto end = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < end) {
            if (isMounted(mountpoint_)) return true;
            if (waitpid(pid_, &status_, WNOHANG) == pid_) {
                pid_ = -1;
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }

    static constexpr int kTimedOut = -1000;
    // Exit code of pakfs, or kTimedOut.
    int waitExit(std::chrono::milliseconds timeout) {
        auto end = std::chrono::steady_clock::now() + timeout;
        while (pid_ > 0) {
            if (waitpid(pid_, &status_, WNOHANG) == pid_) {
                pid_ = -1;
                break;
            }
            if (std::chrono::steady_clock::now() > end) return kTimedOut;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
    }

    pid_t pid() const { return pid_; }
    const std::filesystem::path& path() const { return mountpoint_; }
    // What the last pakfs mounted with `dir` printed (it is kept after the mount ends).
    static std::string errorsOf(const TempDir& dir) {
        Bytes b = readFile(dir / "pakfs.err");
        return std::string(b.begin(), b.end());
    }
    std::string errors() const {
        Bytes b = readFile(errPath_);
        return std::string(b.begin(), b.end());
    }

private:
    std::filesystem::path mountpoint_;
    std::filesystem::path errPath_;
    pid_t pid_ = -1;
    int status_ = 0;
};

struct MountedPack {
    TestPack pack = makeTestPack(true);
    TempDir dir;
    std::unique_ptr<Mount> mount;

    explicit MountedPack(std::vector<std::string> extra = {}) {
        skipUnlessFuse();
        std::vector<std::string> args{"--key", kTestKeyHex};
        args.insert(args.end(), extra.begin(), extra.end());
        args.push_back(pack.pak.string());
        mount = std::make_unique<Mount>(args, dir / "mnt", dir);
        INFO(mount->errors());
        REQUIRE(mount->waitMounted());
    }
    std::filesystem::path operator/(const std::string& p) const {
        return mount->path() / "Test" / p;
    }
};

}  // namespace pakfs::test
