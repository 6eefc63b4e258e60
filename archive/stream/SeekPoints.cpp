// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points' windows deflated (libdeflate level 1), read back from index files under a CRC,
// and one entry's index of points: spaced, thinned when full, a damaged point dropped.
#include "archive/stream/SeekPoints.hpp"

#include <isa-l/crc.h>
#include <libdeflate.h>

#include <algorithm>
#include <utility>

namespace pakfs::archive {

namespace {

struct CompressorFree {
    void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
struct DecompressorFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
// Level 1: a window deflates in about 0.1 ms and inflates in a few microseconds.
thread_local std::unique_ptr<libdeflate_compressor, CompressorFree> tWindowCompressor;
thread_local std::unique_ptr<libdeflate_decompressor, DecompressorFree> tWindowDecompressor;

}  // namespace

std::uint32_t windowCrc(ByteSpan bytes) {
    return crc32_gzip_refl(0, bytes.data(), std::uint64_t(bytes.size()));
}

std::shared_ptr<SeekPoint> SeekPoint::make(std::uint64_t out, std::uint64_t in, int bits,
                                           ByteSpan dictionary) {
    auto p = plain(out, in, bits, dictionary);
    if (!tWindowCompressor) tWindowCompressor.reset(libdeflate_alloc_compressor(1));
    if (!tWindowCompressor || dictionary.empty()) return p;
    Bytes deflated(dictionary.size());
    // No room beyond the raw size: a window that does not shrink is kept as it is.
    const std::size_t n =
        libdeflate_deflate_compress(tWindowCompressor.get(), dictionary.data(), dictionary.size(),
                                    deflated.data(), deflated.size() - 1);
    if (n > 0) {
        deflated.resize(n);
        deflated.shrink_to_fit();
        p->window = std::move(deflated);
        p->windowDeflated = true;
    }
    return p;
}

std::shared_ptr<SeekPoint> SeekPoint::plain(std::uint64_t out, std::uint64_t in, int bits,
                                            ByteSpan dictionary) {
    auto p = std::make_shared<SeekPoint>();
    p->out = out;
    p->in = in;
    p->bits = bits;
    p->windowSize = std::uint32_t(dictionary.size());
    p->window.assign(dictionary.begin(), dictionary.end());
    return p;
}

Bytes SeekPoint::storedWindow() const {
    if (!windowFile) return window;
    Bytes stored = windowFile->readAt(windowAt, windowLength);
    if (archive::windowCrc(stored) != windowCrc)
        throw DamagedWindowError("damaged seek point window in " + windowFile->name());
    return stored;
}

void SeekPoint::windowBytes(std::uint8_t* dst) const {
    const Bytes stored = windowFile ? storedWindow() : Bytes();
    const Bytes& window = windowFile ? stored : this->window;
    if (!windowDeflated) {
        if (window.size() != windowSize) throw DamagedWindowError("damaged seek point window");
        std::copy(window.begin(), window.end(), dst);
        return;
    }
    if (!tWindowDecompressor) tWindowDecompressor.reset(libdeflate_alloc_decompressor());
    if (!tWindowDecompressor) throw Error("cannot allocate an inflater");
    std::size_t made = 0;
    if (libdeflate_deflate_decompress(tWindowDecompressor.get(), window.data(), window.size(), dst,
                                      windowSize, &made) != LIBDEFLATE_SUCCESS ||
        made != windowSize)
        throw DamagedWindowError("damaged seek point window");
}

SeekIndex::SeekIndex(std::uint64_t span, std::size_t maxPoints, std::size_t maxBytes)
    : baseSpan_(std::max<std::uint64_t>(span, 1)),
      span_(baseSpan_),
      maxPoints_(maxPoints),
      maxBytes_(maxBytes) {}

std::uint64_t SeekIndex::spanFor(std::uint64_t size, std::uint64_t minSpan, std::size_t maxPoints) {
    std::uint64_t span = std::max<std::uint64_t>(minSpan, 1);
    if (maxPoints > 0) span = std::max(span, size / maxPoints + 1);
    return span;
}

std::uint64_t SeekIndex::currentSpan() const {
    std::lock_guard lock(mutex_);
    return span_;
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

void SeekIndex::thinLocked() {
    // Every other point goes (the first stays), and later points keep twice the distance.
    std::vector<std::shared_ptr<const SeekPoint>> kept;
    kept.reserve(points_.size() / 2 + 1);
    bytes_ = 0;
    for (std::size_t i = 0; i < points_.size(); i += 2) {
        bytes_ += points_[i]->memoryBytes();
        kept.push_back(std::move(points_[i]));
    }
    points_ = std::move(kept);
    span_ *= 2;
}

void SeekIndex::add(std::shared_ptr<const SeekPoint> point) {
    std::lock_guard lock(mutex_);
    if (!wantsLocked(point->out)) return;
    while (!points_.empty() && bytes_ + point->memoryBytes() > maxBytes_) {
        thinLocked();
        if (!wantsLocked(point->out)) return;
    }
    if (point->memoryBytes() > maxBytes_) return;
    auto it = std::lower_bound(points_.begin(), points_.end(), point->out,
                               [](const auto& p, std::uint64_t o) { return p->out < o; });
    bytes_ += point->memoryBytes();
    points_.insert(it, std::move(point));
}

bool SeekIndex::drop(const SeekPoint* point) {
    std::function<void()> handler;
    {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(points_.begin(), points_.end(),
                               [&](const auto& p) { return p.get() == point; });
        if (it == points_.end()) return false;
        bytes_ -= (*it)->memoryBytes();
        points_.erase(it);
        handler = std::exchange(onDamaged_, nullptr);
    }
    if (handler) handler();
    return true;
}

void SeekIndex::onDamaged(std::function<void()> handler) {
    std::lock_guard lock(mutex_);
    onDamaged_ = std::move(handler);
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
    return bytes_;
}

}  // namespace pakfs::archive
