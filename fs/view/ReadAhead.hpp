// SPDX-License-Identifier: GPL-2.0-or-later
// Read-ahead of small files: reading a file from its start has worker threads decode the small
// files after it in its folder, so that a folder copied file by file finds them decoded:
// decoding runs beside the reader instead of between its requests.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <unordered_set>
#include <vector>

#include "fs/view/Tree.hpp"

namespace pakfs::fs {

class ReadAhead {
public:
    struct Limits {
        std::size_t files = 64;         // files ahead at most (0: off)
        std::uint64_t bytes = 4 << 20;  // bytes ahead at most
        std::uint64_t fileSize = 0;     // larger files are not read ahead
    };
    // `ready`: whether a file needs no decoding (already cached). `load`: decodes a file and
    // hands it on; called on a worker thread, its exceptions are dropped (the reader decodes
    // the file again and reports the error).
    ReadAhead(Limits limits, std::function<bool(const Node&)> ready,
              std::function<void(const Node&)> load);
    ~ReadAhead();  // stops the workers
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    // Queues the small files after `node` in its folder.
    void after(const Node& node);
    // Takes `node` off the queue if it is still waiting there (it is being read).
    void unqueue(const Node& node);
    // Waits until the workers have nothing left to do.
    void settle();

private:
    void loop(std::stop_token stop);

    const Limits limits_;
    std::function<bool(const Node&)> ready_;
    std::function<void(const Node&)> load_;
    std::mutex mutex_;
    std::condition_variable_any changed_;
    std::deque<const Node*> queue_;
    std::unordered_set<std::uint64_t> waiting_;  // inos in the queue not yet taken off
    int busy_ = 0;                               // workers decoding
    // Two threads: a reader copying a folder file by file, whose files come from the kernel's
    // page cache once stored there, outruns one thread decoding and storing them. Started on
    // first use (not before a mount daemonizes); last, so they stop first.
    std::vector<std::jthread> workers_;
};

}  // namespace pakfs::fs
