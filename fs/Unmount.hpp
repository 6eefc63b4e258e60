// SPDX-License-Identifier: GPL-2.0-or-later
// Unmounting on SIGINT, SIGTERM or SIGHUP, a busy mount too: a thread of its own takes the
// signals, ends the request loop and unmounts, aborting the connection when the kernel calls
// the mount busy. Knows nothing of libfuse: the FUSE edge hands it the connection's descriptor
// and a way to end its loop.
#pragma once

#include <pthread.h>
#include <sys/types.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace pakfs::fs {

// SIGINT, SIGTERM and SIGHUP unmount, even when a request can never be answered (a handler
// waiting on a request to this same mount). libfuse's own handlers only end its loop, which
// then waits for every handler to return: a stuck one hangs pakfs, and the kernel calls the
// mount busy. So the signals are blocked in every thread and taken by a thread of their own,
// which unmounts; when the kernel says the mount is busy (a file open, or a request
// waiting), it aborts the connection, which fails every request still waiting and ends the
// loop, then detaches the mount.
class Unmounter {
public:
    // Blocks the signals in the calling thread and every thread started from it afterwards:
    // called before any thread runs, and before an Unmounter is made.
    static void blockSignals();

    // Starts the thread that waits for the signals. Made in the thread that then runs the
    // request loop (the thread an abort wakes). `deviceFd`: the connection's descriptor
    // (/dev/fuse) the loop reads; `endLoop` asks the loop to end (callable from any thread);
    // `log` takes the line saying a busy mount is being aborted.
    Unmounter(std::string mountpoint, int deviceFd, std::function<void()> endLoop,
              std::function<void(const std::string&)> log);
    ~Unmounter();
    Unmounter(const Unmounter&) = delete;
    Unmounter& operator=(const Unmounter&) = delete;

    // Once the loop has ended: lets the thread finish what it does and end.
    void finish();
    // Whether a signal came.
    bool signalled() const { return signal_ != 0; }
    // Whether the mount was unmounted here (libfuse's unmount must not run again).
    bool unmounted() const { return unmounted_; }

private:
    void run();
    void abortConnection(bool root);
    void log(const std::string& line) const;

    std::string mountpoint_;
    int deviceFd_;
    std::function<void()> endLoop_;
    std::function<void(const std::string&)> log_;
    dev_t device_;
    pthread_t main_;
    int signals_ = -1, done_ = -1;
    std::atomic<int> signal_{0};
    std::atomic<bool> unmounted_{false};
    std::thread thread_;
};

}  // namespace pakfs::fs
