// SPDX-License-Identifier: GPL-2.0-or-later
// Internal to PackView's files: an open file's decoding state (the whole entry from the cache,
// or a streaming reader and the bytes just behind it).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "archive/entry/PlainEntryReader.hpp"
#include "fs/view/PackView.hpp"

namespace pakfs::fs {

// Decoded bytes kept behind a streaming reader: the kernel's readahead sends neighbouring
// requests out of order (even with one FUSE thread), and these serve them without restarting.
inline constexpr std::size_t kRecentKeep = 1 << 20;

struct PackView::OpenFile {
    const Node* node = nullptr;
    std::mutex mutex;
    bool failed = false;
    EntryCache::Data whole;
    std::unique_ptr<archive::PlainEntryReader> reader;
    Bytes recent;  // the bytes just before the reader's position
    std::uint64_t recentStart = 0;
    // The offsets read without restarting the decoder; readNoHandle picks states by them.
    std::atomic<std::uint64_t> nearFrom{0}, nearTo{kRecentKeep};

    void appendRecent(const std::uint8_t* p, std::size_t n) {
        recent.insert(recent.end(), p, p + n);
        if (recent.size() > 2 * kRecentKeep) {
            std::size_t drop = recent.size() - kRecentKeep;
            recent.erase(recent.begin(), recent.begin() + std::ptrdiff_t(drop));
            recentStart += drop;
        }
    }
};

}  // namespace pakfs::fs
