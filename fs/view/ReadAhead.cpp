// SPDX-License-Identifier: GPL-2.0-or-later
// ReadAhead: the small files after one in its folder queued (bounded by count, size and bytes),
// decoded by two worker threads started at the first; a file read meanwhile is skipped.
#include "fs/view/ReadAhead.hpp"

#include <algorithm>
#include <exception>

namespace pakfs::fs {

namespace {
constexpr unsigned kWorkers = 2;  // see ReadAhead::workers_
}

ReadAhead::ReadAhead(Limits limits, std::function<bool(const Node&)> ready,
                     std::function<void(const Node&)> load)
    : limits_(limits), ready_(std::move(ready)), load_(std::move(load)) {}

ReadAhead::~ReadAhead() {
    for (auto& w : workers_) w.request_stop();
    changed_.notify_all();
    workers_.clear();
}

void ReadAhead::after(const Node& node) {
    if (limits_.files == 0 || !node.parent || node.dir) return;
    auto siblings = node.parent->children;
    auto it = std::lower_bound(siblings.begin(), siblings.end(), node.name,
                               [](const Node* n, std::string_view name) { return n->name < name; });
    if (it == siblings.end() || *it != &node) return;
    std::size_t files = 0, looked = 0;
    std::uint64_t bytes = 0;
    std::lock_guard lock(mutex_);
    // Looking is bounded too: a folder of folders has nothing to read ahead.
    for (++it; it != siblings.end() && files < limits_.files && looked < 4 * limits_.files;
         ++it, ++looked) {
        const Node& next = **it;
        if (next.dir || next.size() == 0 || next.size() > limits_.fileSize) continue;
        bytes += next.size();
        if (bytes > limits_.bytes) break;
        ++files;
        if (waiting_.count(next.ino) || ready_(next)) continue;
        queue_.push_back(&next);
        waiting_.insert(next.ino);
    }
    // Files queued long ago were read or skipped by now: the queue stays short.
    while (queue_.size() > 4 * limits_.files) {
        waiting_.erase(queue_.front()->ino);
        queue_.pop_front();
    }
    if (workers_.empty())
        for (unsigned i = 0; i < kWorkers; ++i)
            workers_.emplace_back([this](std::stop_token stop) { loop(stop); });
    changed_.notify_all();
}

void ReadAhead::unqueue(const Node& node) {
    if (limits_.files == 0) return;
    std::lock_guard lock(mutex_);
    waiting_.erase(node.ino);  // the worker skips it
}

void ReadAhead::loop(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (!changed_.wait(lock, stop, [&] { return !queue_.empty(); })) return;
        const Node* node = queue_.front();
        queue_.pop_front();
        if (!waiting_.erase(node->ino)) continue;  // read meanwhile
        ++busy_;
        lock.unlock();
        try {
            load_(*node);
        } catch (const std::exception&) {
            // Nothing is kept; the reader decodes the file again and reports the error.
        }
        lock.lock();
        --busy_;
        changed_.notify_all();
    }
}

void ReadAhead::settle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.empty() && busy_ == 0; });
}

}  // namespace pakfs::fs
