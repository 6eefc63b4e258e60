// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/SeekPoints.hpp"

#include <algorithm>

namespace pakfs::archive {

namespace {
// Ciphertext decrypted per step: small enough that a random read in a stored entry stays cheap.
constexpr std::size_t kCipherChunk = 64 * 1024;
constexpr std::size_t kSkipBuffer = 64 * 1024;
}  // namespace

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

PlainEntryReader::PlainEntryReader(std::shared_ptr<const PakIndex> pak, const PakEntry& entry,
                                   std::shared_ptr<SeekIndex> index)
    : pak_(std::move(pak)), entry_(entry), index_(std::move(index)) {
    entryIv_ = loadLE64(pak_->file()->readAt(pak_->entryOffset(entry_), 8).data());
    cipherSize_ = entry_.cipherSize();
    if (entry_.compressed())
        restartInflate(nullptr);
    else
        startCipherAt(0);
}

PlainEntryReader::~PlainEntryReader() {
    if (zlibOpen_) inflateEnd(&z_);
}

std::string PlainEntryReader::where() const {
    return pak_->name() + ": " + entry_.path;
}

std::uint64_t PlainEntryReader::nextPlainOffset() const {
    return cipherOffset_ - (chunk_.size() - chunkPos_) + pendingSkip_;
}

void PlainEntryReader::startCipherAt(std::uint64_t plainOffset) {
    std::uint64_t block = plainOffset & ~std::uint64_t(7);
    // CBC: the chaining value for a block is the ciphertext block stored before it.
    iv_ = block == 0 ? entryIv_
                     : loadLE64(pak_->file()->readAt(pak_->entryOffset(entry_) + block, 8).data());
    cipherOffset_ = block;
    chunk_.clear();
    chunkPos_ = 0;
    pendingSkip_ = std::size_t(plainOffset - block);
}

void PlainEntryReader::decryptMore() {
    std::size_t n = std::size_t(std::min<std::uint64_t>(kCipherChunk, cipherSize_ - cipherOffset_));
    chunk_.resize(n);
    chunkPos_ = 0;
    if (n == 0) return;
    pak_->file()->readAt(pak_->entryOffset(entry_) + 8 + cipherOffset_, chunk_.data(), n);
    pak_->cipher().cbcDecrypt(chunk_.data(), n, iv_);
    cipherOffset_ += n;
    chunkPos_ = std::min(pendingSkip_, n);
    pendingSkip_ = 0;
}

void PlainEntryReader::restartInflate(const SeekPoint* point) {
    if (zlibOpen_) {
        inflateEnd(&z_);
        zlibOpen_ = false;
    }
    z_ = z_stream{};
    zlibEnded_ = false;
    if (!point) {
        if (inflateInit(&z_) != Z_OK) throw Error(where() + ": cannot initialise zlib");
        zlibOpen_ = true;
        rawInflate_ = false;
        produced_ = 0;
        startCipherAt(0);
        return;
    }
    // Mid-stream there is no zlib header; the trailer's checksum is checked only by readers
    // that start at the beginning.
    if (inflateInit2(&z_, -15) != Z_OK) throw Error(where() + ": cannot initialise zlib");
    zlibOpen_ = true;
    rawInflate_ = true;
    produced_ = point->out;
    if (point->bits) {
        startCipherAt(point->in - 1);
        decryptMore();
        if (chunkPos_ >= chunk_.size()) throw TruncatedError(where() + ": data ends early");
        int byte = chunk_[chunkPos_++];
        inflatePrime(&z_, point->bits, byte >> (8 - point->bits));
    } else {
        startCipherAt(point->in);
    }
    if (inflateSetDictionary(&z_, point->window.data(), unsigned(point->window.size())) != Z_OK)
        throw Error(where() + ": cannot restore the inflate window");
}

void PlainEntryReader::maybeRecordPoint() {
    // Bit 7 of data_type: inflate stopped at the end of a deflate block; bit 6: the last block.
    if (!index_ || !(z_.data_type & 128) || (z_.data_type & 64) || produced_ == 0) return;
    if (!index_->wants(produced_)) return;
    auto point = std::make_shared<SeekPoint>();
    point->out = produced_;
    point->in = nextPlainOffset();
    point->bits = z_.data_type & 7;
    point->window.resize(kInflateWindow);
    unsigned len = unsigned(point->window.size());
    if (inflateGetDictionary(&z_, point->window.data(), &len) != Z_OK) return;
    point->window.resize(len);
    index_->add(std::move(point));
}

std::size_t PlainEntryReader::inflateSome(std::uint8_t* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        if (zlibEnded_)
            throw TruncatedError(where() + ": compressed data ends at " +
                                 std::to_string(produced_) + " of " +
                                 std::to_string(entry_.uncompressedSize) + " bytes");
        if (chunkPos_ == chunk_.size()) decryptMore();
        std::uint64_t consumedBefore = nextPlainOffset();
        std::uint64_t zlibLeft =
            entry_.compressedSize > consumedBefore ? entry_.compressedSize - consumedBefore : 0;
        std::size_t avail =
            std::size_t(std::min<std::uint64_t>(chunk_.size() - chunkPos_, zlibLeft));
        z_.next_in = chunk_.data() + chunkPos_;
        z_.avail_in = unsigned(avail);
        z_.next_out = dst + done;
        z_.avail_out = unsigned(std::min<std::size_t>(n - done, 1u << 30));
        // Z_BLOCK stops at deflate block boundaries, the only places a seek point can go.
        int rc = inflate(&z_, Z_BLOCK);
        std::size_t used = avail - z_.avail_in;
        std::size_t out = std::size_t(z_.next_out - (dst + done));
        chunkPos_ += used;
        done += out;
        produced_ += out;
        if (rc == Z_STREAM_END) {
            zlibEnded_ = true;
            if (produced_ < entry_.uncompressedSize && done < n) continue;  // throws above
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && used == 0 && out == 0)) {
            if (zlibLeft == 0 || (avail == 0 && cipherOffset_ == cipherSize_))
                throw TruncatedError(where() +
                                     ": compressed data ends before the zlib stream "
                                     "does");
        } else if (rc != Z_OK) {
            throw Error(where() + ": corrupt compressed data (zlib: " +
                        (z_.msg ? std::string(z_.msg) : std::to_string(rc)) + ")");
        } else {
            maybeRecordPoint();
        }
    }
    return done;
}

void PlainEntryReader::checkTrailer() {
    // Runs the stream past the last byte the file table asks for, so that zlib checks its
    // Adler-32 trailer: a damaged entry then fails instead of handing out wrong bytes. Streams
    // that stop without a proper end (sync-flushed writers) are accepted, as the game does.
    std::uint8_t scratch[4096];
    std::uint64_t extra = 0;
    while (!zlibEnded_ && extra < 64 * 1024) {
        if (chunkPos_ == chunk_.size()) decryptMore();
        std::uint64_t consumedBefore = nextPlainOffset();
        std::uint64_t zlibLeft =
            entry_.compressedSize > consumedBefore ? entry_.compressedSize - consumedBefore : 0;
        std::size_t avail =
            std::size_t(std::min<std::uint64_t>(chunk_.size() - chunkPos_, zlibLeft));
        z_.next_in = chunk_.data() + chunkPos_;
        z_.avail_in = unsigned(avail);
        z_.next_out = scratch;
        z_.avail_out = sizeof scratch;
        int rc = inflate(&z_, Z_NO_FLUSH);
        std::size_t used = avail - z_.avail_in;
        chunkPos_ += used;
        extra += sizeof scratch - z_.avail_out;
        if (rc == Z_STREAM_END) {
            zlibEnded_ = true;
        } else if (rc == Z_BUF_ERROR ||
                   (rc == Z_OK && used == 0 && z_.avail_out == sizeof scratch)) {
            if (avail == 0 && (zlibLeft == 0 || cipherOffset_ == cipherSize_)) return;
        } else if (rc != Z_OK) {
            throw Error(where() + ": corrupt compressed data (zlib: " +
                        (z_.msg ? std::string(z_.msg) : std::to_string(rc)) + ")");
        }
    }
}

std::size_t PlainEntryReader::read(std::uint8_t* dst, std::size_t n) {
    n = std::size_t(std::min<std::uint64_t>(n, entry_.uncompressedSize - produced_));
    if (n == 0) return 0;
    std::size_t done = 0;
    if (entry_.compressed()) {
        done = inflateSome(dst, n);
        if (produced_ == entry_.uncompressedSize && !rawInflate_) checkTrailer();
    } else {
        while (done < n) {
            if (chunkPos_ == chunk_.size()) {
                decryptMore();
                if (chunkPos_ == chunk_.size()) throw TruncatedError(where() + ": data ends early");
            }
            std::size_t k = std::min(n - done, chunk_.size() - chunkPos_);
            std::memcpy(dst + done, chunk_.data() + chunkPos_, k);
            chunkPos_ += k;
            done += k;
        }
        produced_ += done;
    }
    decoded_ += done;
    return done;
}

void PlainEntryReader::skip(std::uint64_t n) {
    std::uint8_t scratch[kSkipBuffer];
    while (n > 0) {
        std::size_t got = read(scratch, std::size_t(std::min<std::uint64_t>(n, sizeof scratch)));
        if (got == 0) throw TruncatedError(where() + ": data ends early");
        n -= got;
    }
}

void PlainEntryReader::seek(std::uint64_t offset) {
    offset = std::min<std::uint64_t>(offset, entry_.uncompressedSize);
    if (offset == produced_) return;
    if (!entry_.compressed()) {
        produced_ = offset;
        startCipherAt(offset);
        return;
    }
    std::shared_ptr<const SeekPoint> point = index_ ? index_->before(offset) : nullptr;
    bool keepGoing = offset > produced_ && (!point || point->out <= produced_);
    if (!keepGoing) restartInflate(point.get());
    skip(offset - produced_);
}

}  // namespace pakfs::archive
