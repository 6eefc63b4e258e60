// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/entry/SeekPoints.hpp"

#include <algorithm>

namespace pakfs::archive {

SeekIndex::SeekIndex(std::uint64_t span, std::size_t maxPoints)
    : span_(std::max<std::uint64_t>(span, 1)), maxPoints_(maxPoints) {}

std::uint64_t SeekIndex::spanFor(std::uint64_t size, std::uint64_t minSpan, std::size_t maxPoints) {
    std::uint64_t span = std::max<std::uint64_t>(minSpan, 1);
    if (maxPoints > 0) span = std::max(span, size / maxPoints + 1);
    return span;
}

std::shared_ptr<const SeekPoint> SeekIndex::before(std::uint64_t offset) const {
    std::lock_guard lock(mutex_);
    auto it = std::upper_bound(points_.begin(), points_.end(), offset,
                               [](std::uint64_t o, const auto& p) { return o < p->out; });
    if (it == points_.begin()) return nullptr;
    return *std::prev(it);
}

bool SeekIndex::wantsLocked(std::uint64_t out) const {
    if (out < span_ || points_.size() >= maxPoints_) return false;
    auto it = std::lower_bound(points_.begin(), points_.end(), out,
                               [](const auto& p, std::uint64_t o) { return p->out < o; });
    if (it != points_.end() && (*it)->out - out < span_) return false;
    if (it != points_.begin() && out - (*std::prev(it))->out < span_) return false;
    return true;
}

bool SeekIndex::wants(std::uint64_t out) const {
    std::lock_guard lock(mutex_);
    return wantsLocked(out);
}

void SeekIndex::add(std::shared_ptr<const SeekPoint> point) {
    std::lock_guard lock(mutex_);
    if (!wantsLocked(point->out)) return;
    auto it = std::lower_bound(points_.begin(), points_.end(), point->out,
                               [](const auto& p, std::uint64_t o) { return p->out < o; });
    points_.insert(it, std::move(point));
}

std::vector<std::shared_ptr<const SeekPoint>> SeekIndex::points() const {
    std::lock_guard lock(mutex_);
    return points_;
}

std::size_t SeekIndex::size() const {
    std::lock_guard lock(mutex_);
    return points_.size();
}

std::size_t SeekIndex::memoryBytes() const {
    std::lock_guard lock(mutex_);
    std::size_t total = 0;
    for (const auto& p : points_) total += sizeof(SeekPoint) + p->window.size();
    return total;
}

}  // namespace pakfs::archive
