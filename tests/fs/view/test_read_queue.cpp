// SPDX-License-Identifier: GPL-2.0-or-later
// The read queue of the FUSE edge without FUSE: who answers each read of a file, in what order.
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "fs/view/ReadQueue.hpp"

using pakfs::fs::ReadQueue;

namespace {

constexpr std::int64_t kQueueMiB = 1 << 20;
constexpr std::size_t kQueueReadSize = 128 << 10;

ReadQueue::Read queueRead(std::int64_t offset) {
    return {nullptr, kQueueReadSize, offset};
}

// The offset of each read next() hands, until none is left.
std::vector<std::int64_t> drainQueue(ReadQueue& q, const ReadQueue::File& file) {
    std::vector<std::int64_t> offsets;
    while (auto r = q.next(file)) offsets.push_back(r->offset);
    return offsets;
}

}  // namespace

TEST_CASE("read queue: a read near those being answered waits for their thread, a far one not",
          "[readqueue]") {
    using Turn = ReadQueue::Turn;
    ReadQueue q;
    const ReadQueue::File file{5, 0};
    const std::int64_t at = 10 * kQueueMiB;
    const std::int64_t end = at + std::int64_t(kQueueReadSize);  // of the read being answered
    const auto near = std::int64_t(ReadQueue::kNear);
    REQUIRE(q.arrive(file, queueRead(at)) == Turn::answer);
    // Up to kNear bytes past the end, or before the start, of the reads being answered.
    CHECK(q.arrive(file, queueRead(end + near + 1)) == Turn::answerAlone);
    CHECK(q.arrive(file, queueRead(end + near)) == Turn::queued);
    CHECK(q.arrive(file, queueRead(at - near - std::int64_t(kQueueReadSize) - 1)) ==
          Turn::answerAlone);
    CHECK(q.arrive(file, queueRead(at - near - std::int64_t(kQueueReadSize))) == Turn::queued);
    // A queued read widens what is near.
    CHECK(q.arrive(file, queueRead(end + 2 * near + std::int64_t(kQueueReadSize))) == Turn::queued);
    // Another file, or the same inode through another handle, is answered by its own caller.
    CHECK(q.arrive({5, 7}, queueRead(at)) == Turn::answer);
    CHECK(q.arrive({6, 0}, queueRead(at)) == Turn::answer);

    // In offset order; what is near follows the reads still to answer.
    auto first = q.next(file);
    REQUIRE(first);
    CHECK(first->offset == at - near - std::int64_t(kQueueReadSize));
    auto second = q.next(file);
    REQUIRE(second);
    CHECK(second->offset == end + near);
    CHECK(q.arrive(file, queueRead(at - kQueueMiB)) ==
          Turn::answerAlone);  // near answered reads only
    CHECK(drainQueue(q, file) ==
          std::vector<std::int64_t>{end + 2 * near + std::int64_t(kQueueReadSize)});
    // Done with the file: the next read of it is answered by its caller.
    CHECK(q.arrive(file, queueRead(at)) == Turn::answer);
    CHECK(drainQueue(q, file).empty());
}

TEST_CASE("read queue: serve answers the reads queued meanwhile after its own, in offset order",
          "[readqueue]") {
    ReadQueue q;
    const ReadQueue::File file{2, 1};
    std::vector<std::int64_t> answered;
    int requestTag = 0;
    q.serve(file, {&requestTag, kQueueReadSize, 0}, [&](const ReadQueue::Read& r) {
        answered.push_back(r.offset);
        if (r.offset != 0) return;
        CHECK(r.request == &requestTag);
        // While the first read is answered, others come (here from the same thread).
        const auto answerNothing = [&](const ReadQueue::Read& o) { answered.push_back(-o.offset); };
        q.serve(file, queueRead(3 * 128 << 10), answerNothing);
        q.serve(file, queueRead(128 << 10), answerNothing);
        q.serve(file, queueRead(64 * kQueueMiB),
                answerNothing);  // far: answered at once, by its caller
        q.serve(file, queueRead(2 * 128 << 10), answerNothing);
    });
    CHECK(answered ==
          std::vector<std::int64_t>{0, -64 * kQueueMiB, 128 << 10, 2 * 128 << 10, 3 * 128 << 10});
    CHECK(q.arrive(file, queueRead(0)) == ReadQueue::Turn::answer);
}

TEST_CASE("read queue: reads coming from other threads are answered by the thread answering",
          "[readqueue]") {
    ReadQueue q;
    const ReadQueue::File file{9, 0};
    std::mutex m;
    std::vector<std::pair<std::int64_t, std::thread::id>> answered;
    std::promise<void> answering, release;
    const auto answer = [&](const ReadQueue::Read& r) {
        {
            std::lock_guard lock(m);
            answered.emplace_back(r.offset, std::this_thread::get_id());
        }
        if (r.offset == 0) {
            answering.set_value();
            release.get_future().wait();
        }
    };
    std::thread first([&] { q.serve(file, queueRead(0), answer); });
    const std::thread::id firstId = first.get_id();
    const bool started =
        answering.get_future().wait_for(std::chrono::seconds(10)) == std::future_status::ready;
    if (started) {
        q.serve(file, queueRead(2 * 128 << 10), answer);  // both return at once: queued
        q.serve(file, queueRead(128 << 10), answer);
    }
    release.set_value();
    first.join();
    REQUIRE(started);
    using Answered = std::vector<std::pair<std::int64_t, std::thread::id>>;
    CHECK(answered == Answered{{0, firstId}, {128 << 10, firstId}, {2 * 128 << 10, firstId}});
}
