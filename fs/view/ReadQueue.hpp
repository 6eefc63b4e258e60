// SPDX-License-Identifier: GPL-2.0-or-later
// The reads of a file that come together, answered by one thread in offset order: the FUSE
// edge hands each read here with the way to answer it.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace pakfs::fs {

// The kernel's readahead sends several reads of a file at once, each to a thread of its own,
// and the view answers a file's reads one at a time: each thread would wait for the one
// before (a thread switch per read, a sixth of a large file's `cat`). A read near those of
// the same file being answered is left to the thread answering them instead, which takes
// them in offset order when it is done; reads elsewhere in the file go on beside it.
class ReadQueue {
public:
    // Reads this close to those of a file being answered are answered by the same thread.
    static constexpr std::uint64_t kNear = 2 << 20;

    using File = std::pair<std::uint64_t, std::uint64_t>;  // inode, handle
    struct Read {
        void* request;  // the caller's, handed back to its answer
        std::size_t size;
        std::int64_t offset;
    };
    enum class Turn {
        answer,       // the caller answers it, then each read next() hands it
        answerAlone,  // the caller answers it, and only it (far from those being answered)
        queued,       // left to the thread answering the file's reads near it
    };

    // Answers `read` of `file` through `answer` (called as answer(const Read&)) in this
    // thread, then the reads of the file queued meanwhile; or queues it and returns at once.
    template <class Answer>
    void serve(const File& file, const Read& read, Answer&& answer) {
        const Turn turn = arrive(file, read);
        if (turn == Turn::queued) return;
        answer(read);
        if (turn == Turn::answerAlone) return;
        while (std::optional<Read> next = this->next(file)) answer(*next);
    }

    // What to do with `read`, which has come for `file`.
    Turn arrive(const File& file, const Read& read);
    // For the thread answering `file`'s reads: the queued read with the lowest offset, or
    // nullopt when none is left (the thread is then done with the file).
    std::optional<Read> next(const File& file);

private:
    struct InFlight {
        std::uint64_t from = 0, to = 0;  // the bytes of the reads being answered and waiting
        std::vector<Read> pending;
    };
    std::mutex mutex_;
    std::map<File, InFlight> files_;
};

}  // namespace pakfs::fs
