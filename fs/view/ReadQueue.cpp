// SPDX-License-Identifier: GPL-2.0-or-later
// The reads of a file that come together: which thread answers each, and in what order.
#include "fs/view/ReadQueue.hpp"

#include <algorithm>
#include <new>

namespace pakfs::fs {

namespace {

std::uint64_t start(std::int64_t offset) {
    return std::uint64_t(std::max<std::int64_t>(offset, 0));
}

}  // namespace

ReadQueue::Turn ReadQueue::arrive(const File& file, const Read& read) {
    const std::uint64_t from = start(read.offset);
    std::lock_guard lock(mutex_);
    auto it = files_.find(file);
    if (it == files_.end()) {
        try {
            files_.emplace(file, InFlight{from, from + read.size, {}});
            return Turn::answer;
        } catch (const std::bad_alloc&) {
            return Turn::answerAlone;
        }
    }
    InFlight& r = it->second;
    if (from + read.size + kNear < r.from || from > r.to + kNear)
        return Turn::answerAlone;  // far from them: answered beside them
    try {
        r.pending.push_back(read);
    } catch (const std::bad_alloc&) {
        return Turn::answerAlone;  // no room in the queue: answered by the caller
    }
    r.from = std::min(r.from, from);
    r.to = std::max(r.to, from + read.size);
    return Turn::queued;
}

std::optional<ReadQueue::Read> ReadQueue::next(const File& file) {
    std::lock_guard lock(mutex_);
    auto it = files_.find(file);
    std::vector<Read>& pending = it->second.pending;
    if (pending.empty()) {
        files_.erase(it);
        return std::nullopt;
    }
    auto first = std::min_element(pending.begin(), pending.end(),
                                  [](const Read& a, const Read& b) { return a.offset < b.offset; });
    const Read read = *first;
    pending.erase(first);
    // Near means near the reads still to answer.
    InFlight& r = it->second;
    r.from = start(read.offset);
    r.to = r.from + read.size;
    for (const Read& p : pending) {
        r.from = std::min(r.from, start(p.offset));
        r.to = std::max(r.to, start(p.offset) + p.size);
    }
    return read;
}

}  // namespace pakfs::fs
