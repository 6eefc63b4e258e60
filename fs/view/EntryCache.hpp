// SPDX-License-Identifier: GPL-2.0-or-later
// A bounded cache of whole decoded entries (small files and gbx files), least recently used out
// first. Concurrent requests for one entry wait for a single decode instead of each decoding it.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/Bytes.hpp"

namespace pakfs::fs {

class EntryCache {
public:
    using Data = std::shared_ptr<const Bytes>;

    explicit EntryCache(std::uint64_t capacityBytes) : capacity_(capacityBytes) {}

    // The cached bytes for `key`, or the result of `load` (called once however many threads
    // ask at the same time). A result larger than the capacity is handed out but not kept.
    // Exceptions from `load` reach every waiter and nothing is cached.
    Data getOrLoad(std::uint64_t key, const std::function<Bytes()>& load);
    // The cached bytes for `key` if they are there and decoded; nullptr otherwise.
    Data find(std::uint64_t key);
    // True when `key` is cached or being decoded.
    bool contains(std::uint64_t key) const;
    // The bytes for `key`, dropped from the cache: for bytes decoded ahead to be read once.
    // Waits for a decode in progress; nullptr when absent or when that decode failed.
    Data take(std::uint64_t key);

    // What an entry takes beyond its bytes (slot, list node, shared state), counted with it.
    static constexpr std::uint64_t kEntryOverhead = 256;

    struct Stats {
        std::uint64_t bytes = 0;      // held now: capacity of the buffers plus kEntryOverhead
        std::uint64_t peakBytes = 0;  // most ever held
        std::size_t entries = 0;
        std::uint64_t hits = 0, misses = 0, evictions = 0;
    };
    Stats stats() const;
    std::uint64_t capacity() const { return capacity_; }

private:
    struct Slot {
        std::shared_future<Data> value;
        std::uint64_t size = 0;
        bool ready = false;
        std::list<std::uint64_t>::iterator lru;  // valid when ready
    };
    void evictLocked();

    std::uint64_t capacity_;
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, Slot> slots_;
    std::list<std::uint64_t> lru_;  // most recently used first; ready slots only
    Stats stats_;
};

}  // namespace pakfs::fs
