// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points of large compressed entries, so that a random read decodes from a point near it
// instead of the entry's start: kept for a few entries at a time, loaded from index files
// (SeekIndexFile.hpp) or built by a pass in the background started by the first read that jumps.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_map>

#include "archive/stream/SeekPoints.hpp"
#include "fs/view/Tree.hpp"

namespace pakfs::fs {

class SeekPointKeeper {
public:
    struct Limits {
        std::uint64_t span;          // points at least this far apart
        std::size_t pointsPerEntry;  // at most this many per entry
        std::size_t bytesPerEntry;   // in at most this much memory per entry
        std::size_t entries;         // for at most this many entries (least recently used out)
        std::uint64_t indexFileMin;  // entries this large use index files and passes (0: none)
    };
    using Log = std::function<void(const Node&, const std::string&)>;
    // `log` says why a pass could not read a file; `warn` what a damaged index file cost.
    SeekPointKeeper(Limits limits, const Tree& tree, Log log, Log warn);
    ~SeekPointKeeper();  // stops the pass
    SeekPointKeeper(const SeekPointKeeper&) = delete;
    SeekPointKeeper& operator=(const SeekPointKeeper&) = delete;

    // The points of `node` (null when it has none: stored, or points off).
    std::shared_ptr<archive::SeekIndex> indexFor(const Node& node);
    // Queues the background pass of `node`'s points if it is still pending.
    void startPass(const Node& node);
    // Waits until the passes queued so far are done and saved (for tests).
    void settle();
    // Points held now, over all entries.
    std::size_t count() const;
    // Their memory, over all entries.
    std::size_t memoryBytes() const;

private:
    void loop(std::stop_token stop);

    const Limits limits_;
    const Tree& tree_;
    Log log_, warn_;
    mutable std::mutex mutex_;
    struct KeptIndex {
        std::shared_ptr<archive::SeekIndex> index;
        std::list<std::uint64_t>::iterator lru;
        // Points to come from a background pass, not started yet: it starts at the first read
        // that jumps, so that a file only read through (cp, cat) is decoded once, not twice.
        bool passPending = false;
        std::optional<std::filesystem::path> file;  // where the pass saves them
    };
    std::unordered_map<std::uint64_t, KeptIndex> kept_;
    std::list<std::uint64_t> lru_;  // most recently used first

    struct IndexJob {
        const Node* node;
        std::shared_ptr<archive::SeekIndex> index;
        std::optional<std::filesystem::path> file;
    };
    std::mutex queueMutex_;
    std::condition_variable_any queueChanged_;
    std::deque<IndexJob> queue_;
    bool busy_ = false;
    std::jthread worker_;  // after everything it uses: stops first
};

}  // namespace pakfs::fs
