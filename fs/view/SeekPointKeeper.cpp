// SPDX-License-Identifier: GPL-2.0-or-later
// SeekPointKeeper: an index for each of the last few entries read, loaded from its file or
// built by one background pass that decodes the entry from its start (then saved).
#include "fs/view/SeekPointKeeper.hpp"

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "fs/view/SeekIndexFile.hpp"

namespace pakfs::fs {

SeekPointKeeper::SeekPointKeeper(Limits limits, const Tree& tree, Log log, Log warn)
    : limits_(limits), tree_(tree), log_(std::move(log)), warn_(std::move(warn)) {}

SeekPointKeeper::~SeekPointKeeper() = default;

std::shared_ptr<archive::SeekIndex> SeekPointKeeper::indexFor(const Node& node) {
    if (!node.entry->compressed() || limits_.pointsPerEntry == 0 || limits_.entries == 0)
        return nullptr;
    // An LZ4 counter-mode entry: its readers keep no points, and a pass would be refused
    // (it is read only under -o unverified, which the pass does not ask for).
    if (node.entry->counterMode && !archive::counterModeProven(*node.entry)) return nullptr;
    std::lock_guard lock(mutex_);
    auto it = kept_.find(node.ino);
    if (it != kept_.end()) {
        lru_.splice(lru_.begin(), lru_, it->second.lru);
        return it->second.index;
    }
    KeptIndex kept;
    kept.index = std::make_shared<archive::SeekIndex>(
        archive::SeekIndex::spanFor(node.size(), limits_.span, limits_.pointsPerEntry),
        limits_.pointsPerEntry, limits_.bytesPerEntry);
    if (limits_.indexFileMin > 0 && node.size() >= limits_.indexFileMin) {
        const packs::Pack& pack = tree_.packOf(node);
        kept.file = seekIndexFile(*pack.pak, *node.entry);
        kept.passPending =
            !kept.file || !loadSeekIndex(*kept.file, *pack.pak, *node.entry, *kept.index);
        if (!kept.passPending) {
            // A window found damaged when a read uses it: that point is dropped, and the file
            // goes so that the next mount builds it again.
            kept.index->onDamaged([file = *kept.file, warn = warn_, &node] {
                std::error_code ec;
                std::filesystem::remove(file, ec);
                warn(node, "damaged seek point window in " + file.string() +
                               ": its point is dropped (reads resume at an earlier one or "
                               "the start) and the file removed (built again by the next mount)");
            });
        }
    }
    lru_.push_front(node.ino);
    kept.lru = lru_.begin();
    auto index = kept.index;
    kept_.emplace(node.ino, std::move(kept));
    while (kept_.size() > limits_.entries) {
        kept_.erase(lru_.back());
        lru_.pop_back();
    }
    return index;
}

void SeekPointKeeper::startPass(const Node& node) {
    std::lock_guard lock(mutex_);
    auto it = kept_.find(node.ino);
    if (it == kept_.end() || !it->second.passPending) return;
    it->second.passPending = false;
    std::lock_guard qlock(queueMutex_);
    queue_.push_back({&node, it->second.index, it->second.file});
    if (!worker_.joinable()) worker_ = std::jthread([this](std::stop_token stop) { loop(stop); });
    queueChanged_.notify_all();
}

void SeekPointKeeper::loop(std::stop_token stop) {
    Bytes scratch(256 * 1024);
    for (;;) {
        IndexJob job;
        {
            std::unique_lock lock(queueMutex_);
            if (!queueChanged_.wait(lock, stop, [&] { return !queue_.empty(); })) return;
            job = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
        }
        struct Done {
            SeekPointKeeper& keeper;
            ~Done() {
                std::lock_guard lock(keeper.queueMutex_);
                keeper.busy_ = false;
                keeper.queueChanged_.notify_all();
            }
        } done{*this};
        const Node& node = *job.node;
        try {
            // One pass from the start: the reader adds the points as it goes, so readers of
            // the entry can use them before the pass ends.
            archive::PlainEntryReader reader(tree_.packOf(node).pak, *node.entry,
                                             archive::ReadRequest::points(job.index));
            while (reader.position() < reader.size()) {
                if (stop.stop_requested()) return;
                if (reader.read(scratch.data(), scratch.size()) == 0) break;
            }
            if (job.file)
                saveSeekIndex(*job.file, *tree_.packOf(node).pak, *node.entry, *job.index);
        } catch (const Error& e) {
            log_(node, e.what());
        }
    }
}

void SeekPointKeeper::settle() {
    std::unique_lock lock(queueMutex_);
    queueChanged_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

std::size_t SeekPointKeeper::count() const {
    std::lock_guard lock(mutex_);
    std::size_t total = 0;
    for (const auto& [ino, kept] : kept_) total += kept.index->size();
    return total;
}

std::size_t SeekPointKeeper::memoryBytes() const {
    std::lock_guard lock(mutex_);
    std::size_t total = 0;
    for (const auto& [ino, kept] : kept_) total += kept.index->memoryBytes();
    return total;
}

}  // namespace pakfs::fs
