// SPDX-License-Identifier: GPL-2.0-or-later
// Unmounting on a signal: the signal thread, fusermount3 for a user's mount, the abort of a
// busy mount's connection.
#include "fs/Unmount.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mount.h>
#include <sys/signalfd.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "packs/MountPaths.hpp"

namespace pakfs::fs {

namespace {

sigset_t stopSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
    return set;
}

// The kernel's number of the mount at `mountpoint` (major:minor of its device, as
// /proc/self/mountinfo lists it), or 0 when none is there. The newest mount at a path wins.
dev_t mountDevice(const std::string& mountpoint) {
    const std::optional<packs::MountEntry> m = packs::mountAt(mountpoint);
    return m ? m->device : 0;
}

// Runs fusermount3 with `args`; whether it exited with 0 within 10 seconds.
bool runFusermount(const std::vector<std::string>& args) {
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, nullptr);
        std::vector<char*> argv{const_cast<char*>("fusermount3")};
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    for (int i = 0; i < 500; ++i) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) && WEXITSTATUS(status) == 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(pid, SIGKILL);
    return false;
}

}  // namespace

void Unmounter::blockSignals() {
    const sigset_t set = stopSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Unmounter::Unmounter(std::string mountpoint, int deviceFd, std::function<void()> endLoop,
                     std::function<void(const std::string&)> log)
    : mountpoint_(std::move(mountpoint)),
      deviceFd_(deviceFd),
      endLoop_(std::move(endLoop)),
      log_(std::move(log)),
      device_(mountDevice(mountpoint_)),
      main_(pthread_self()) {
    const sigset_t set = stopSignals();
    signals_ = signalfd(-1, &set, SFD_CLOEXEC);
    done_ = eventfd(0, EFD_CLOEXEC);
    // A thread-directed signal that only interrupts: the main thread's wait for libfuse's
    // workers, so that it cancels the idle ones (see abortConnection).
    struct sigaction wake {};
    wake.sa_handler = [](int) {};
    sigaction(SIGRTMIN, &wake, nullptr);
    thread_ = std::thread([this] { run(); });
}

Unmounter::~Unmounter() {
    finish();
    close(signals_);
    close(done_);
}

void Unmounter::finish() {
    if (!thread_.joinable()) return;
    std::uint64_t one = 1;
    if (write(done_, &one, sizeof one) < 0) {
    }
    thread_.join();
}

void Unmounter::run() {
    pollfd fds[2] = {{signals_, POLLIN, 0}, {done_, POLLIN, 0}};
    while (poll(fds, 2, -1) < 0 && errno == EINTR) {
    }
    if (!(fds[0].revents & POLLIN)) return;  // the loop ended on its own
    signalfd_siginfo info{};
    if (read(signals_, &info, sizeof info) != ssize_t(sizeof info)) return;
    signal_ = int(info.ssi_signo);
    endLoop_();
    const bool root = geteuid() == 0;
    // A plain unmount: the kernel writes back what it keeps for the mount, then ends the
    // connection, and libfuse's workers see the end.
    if (root ? umount2(mountpoint_.c_str(), 0) == 0
             : runFusermount({"-u", "-q", "--", mountpoint_})) {
        unmounted_ = true;
        return;
    }
    if (mountDevice(mountpoint_) != device_) {  // unmounted meanwhile
        unmounted_ = true;
        return;
    }
    log(std::string(signal_ == SIGINT    ? "SIGINT"
                    : signal_ == SIGTERM ? "SIGTERM"
                                         : "SIGHUP") +
        ": " + mountpoint_ +
        " is busy (a file open or a request waiting): aborting the connection (requests "
        "still waiting fail), then unmounting it lazily");
    abortConnection(root);
    if (root)
        umount2(mountpoint_.c_str(), MNT_DETACH);
    else
        runFusermount({"-u", "-q", "-z", "--", mountpoint_});
    unmounted_ = true;
}

// Every way there is, as each works only in some setups (each tried alone on Linux 6.18 with
// libfuse 3.14): the connection's abort file (fusectl, when it is mounted on
// /sys/fs/fuse/connections; it belongs to the user who mounted), a forced unmount (root only:
// the kernel aborts the connection before it looks whether the mount is busy), and the device
// closed (the kernel aborts when its last descriptor goes; the idle workers' reads hold it
// until the main thread, woken, cancels them; not with -o clone_fd, where each worker holds a
// descriptor of its own).
void Unmounter::abortConnection(bool root) {
    const std::string abortFile = "/sys/fs/fuse/connections/" +
                                  std::to_string((major(device_) << 20) | minor(device_)) +
                                  "/abort";
    if (int fd = open(abortFile.c_str(), O_WRONLY | O_CLOEXEC); fd >= 0) {
        if (write(fd, "1", 1) < 0) {
        }
        close(fd);
    }
    if (root) umount2(mountpoint_.c_str(), MNT_FORCE);
    if (int null = open("/dev/null", O_RDWR | O_CLOEXEC); null >= 0) {
        // Replies and reads then go to /dev/null; libfuse closes it at the end.
        dup3(null, deviceFd_, O_CLOEXEC);
        close(null);
    }
    pthread_kill(main_, SIGRTMIN);
}

void Unmounter::log(const std::string& line) const {
    if (log_) log_(line);
}

}  // namespace pakfs::fs
