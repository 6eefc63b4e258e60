// SPDX-License-Identifier: GPL-2.0-or-later
// EntryCache: one shared future per entry, so that concurrent reads wait for one decode (its
// error shared too, the slot dropped); sizes counted by capacity, least recently used evicted.
#include "fs/view/EntryCache.hpp"

namespace pakfs::fs {

EntryCache::Data EntryCache::getOrLoad(std::uint64_t key, const std::function<Bytes()>& load) {
    std::promise<Data> promise;
    {
        std::unique_lock lock(mutex_);
        auto it = slots_.find(key);
        if (it != slots_.end()) {
            ++stats_.hits;
            if (it->second.ready) lru_.splice(lru_.begin(), lru_, it->second.lru);
            std::shared_future<Data> value = it->second.value;
            lock.unlock();
            return value.get();  // waits for a decode in progress; rethrows its error
        }
        ++stats_.misses;
        slots_[key].value = promise.get_future().share();
    }
    Data data;
    try {
        data = std::make_shared<const Bytes>(load());
    } catch (...) {
        promise.set_exception(std::current_exception());
        std::lock_guard lock(mutex_);
        slots_.erase(key);
        throw;
    }
    promise.set_value(data);
    std::lock_guard lock(mutex_);
    auto it = slots_.find(key);
    std::uint64_t size = data->capacity() + kEntryOverhead;
    if (size > capacity_) {
        slots_.erase(it);
        return data;
    }
    Slot& slot = it->second;
    slot.ready = true;
    slot.size = size;
    lru_.push_front(key);
    slot.lru = lru_.begin();
    stats_.bytes += slot.size;
    evictLocked();
    stats_.peakBytes = std::max(stats_.peakBytes, stats_.bytes);
    return data;
}

EntryCache::Data EntryCache::find(std::uint64_t key) {
    std::lock_guard lock(mutex_);
    auto it = slots_.find(key);
    if (it == slots_.end() || !it->second.ready) return nullptr;
    ++stats_.hits;
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.value.get();
}

bool EntryCache::contains(std::uint64_t key) const {
    std::lock_guard lock(mutex_);
    return slots_.count(key) != 0;
}

EntryCache::Data EntryCache::take(std::uint64_t key) {
    std::shared_future<Data> value;
    {
        std::lock_guard lock(mutex_);
        auto it = slots_.find(key);
        if (it == slots_.end()) return nullptr;
        value = it->second.value;
    }
    Data data;
    try {
        data = value.get();
    } catch (...) {
        return nullptr;  // the caller decodes again and reports the error itself
    }
    std::lock_guard lock(mutex_);
    ++stats_.hits;  // a failed decode is no hit
    auto it = slots_.find(key);
    if (it != slots_.end() && it->second.ready) {
        stats_.bytes -= it->second.size;
        lru_.erase(it->second.lru);
        slots_.erase(it);
    }
    return data;
}

void EntryCache::evictLocked() {
    while (stats_.bytes > capacity_ && !lru_.empty()) {
        std::uint64_t victim = lru_.back();
        lru_.pop_back();
        auto it = slots_.find(victim);
        stats_.bytes -= it->second.size;
        slots_.erase(it);
        ++stats_.evictions;
    }
}

EntryCache::Stats EntryCache::stats() const {
    std::lock_guard lock(mutex_);
    Stats s = stats_;
    s.entries = lru_.size();
    return s;
}

}  // namespace pakfs::fs
