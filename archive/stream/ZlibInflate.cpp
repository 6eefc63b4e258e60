// SPDX-License-Identifier: GPL-2.0-or-later
// The zlib strategy of the plain entry reader.
#include "archive/stream/ZlibInflate.hpp"

#include <string>

namespace pakfs::archive {

namespace {

// Taken and given back, so nested use just allocates anew.
thread_local InflatePtr tSpareInflate;

}  // namespace

InflatePtr takeInflate(int windowBits) {
    if (InflatePtr z = std::move(tSpareInflate))
        if (inflateReset2(z.get(), windowBits) == Z_OK) return z;
    auto* z = new z_stream{};
    if (inflateInit2(z, windowBits) != Z_OK) {
        delete z;
        return nullptr;
    }
    return InflatePtr(z);
}

void giveBack(InflatePtr z) {
    if (!tSpareInflate) tSpareInflate = std::move(z);
}

ZlibInflate::~ZlibInflate() {
    if (z_) giveBack(InflatePtr(z_));
}

void ZlibInflate::restart(const SeekPoint* point) {
    // The window first: a damaged one throws before anything here changes. One read from an
    // index file that is damaged now (windowOf dropped its point) gives way to the point before
    // it, or the start; each turn drops a point, so this ends.
    std::uint8_t window[kInflateWindow];
    std::shared_ptr<const SeekPoint> earlier;
    while (point) {
        try {
            s_.windowOf(*point, window);
            break;
        } catch (const DamagedWindowError&) {
            earlier = s_.index->before(point->out);
            point = earlier.get();
        }
    }
    // Mid-stream there is no zlib header; the trailer's checksum is checked only by readers
    // that start at the beginning.
    const int windowBits = point ? -15 : 15;
    if (!z_) {
        z_ = takeInflate(windowBits).release();
        if (!z_) throw Error(s_.where() + ": cannot initialise zlib");
    } else if (inflateReset2(z_, windowBits) != Z_OK) {
        throw Error(s_.where() + ": cannot initialise zlib");
    }
    ended_ = false;
    s_.rawInflate = point != nullptr;
    if (!point) {
        s_.produced = 0;
        s_.stage.startAt(0);
        return;
    }
    const unsigned pending = s_.startAtPoint(*point);
    if (point->bits) inflatePrime(z_, point->bits, int(pending));
    if (inflateSetDictionary(z_, window, point->windowSize) != Z_OK)
        throw Error(s_.where() + ": cannot restore the inflate window");
}

void ZlibInflate::maybeRecordPoint() {
    // Bit 7 of data_type: inflate stopped at the end of a deflate block; bit 6: the last block.
    if (!s_.index || !s_.recordPoints || !(z_->data_type & 128) || (z_->data_type & 64) ||
        s_.produced == 0)
        return;
    if (!s_.index->wants(s_.produced)) return;
    std::uint8_t window[kInflateWindow];
    unsigned len = sizeof window;
    if (inflateGetDictionary(z_, window, &len) != Z_OK) return;
    s_.index->add(
        SeekPoint::make(s_.produced, s_.stage.nextOffset(), z_->data_type & 7, {window, len}));
}

void ZlibInflate::corrupt(int rc) const {
    throw Error(s_.where() + ": corrupt compressed data (zlib: " +
                (z_->msg ? std::string(z_->msg) : std::to_string(rc)) + ")");
}

std::size_t ZlibInflate::read(std::uint8_t* dst, std::size_t n) {
    // Z_BLOCK stops at deflate block boundaries, the only places a seek point can go; without
    // an index there is nothing to record and inflate runs uninterrupted.
    const int flush = s_.index && s_.recordPoints ? Z_BLOCK : Z_NO_FLUSH;
    std::size_t done = 0;
    while (done < n) {
        if (ended_)
            throw TruncatedError(s_.where() + ": compressed data ends at " +
                                 std::to_string(s_.produced) + " of " +
                                 std::to_string(s_.entry.uncompressedSize) + " bytes");
        std::uint64_t zlibLeft = 0;
        const std::size_t avail = feed(zlibLeft);
        z_->next_out = dst + done;
        z_->avail_out = unsigned(std::min<std::size_t>(n - done, 1u << 30));
        const int rc = inflate(z_, flush);
        const std::size_t used = avail - z_->avail_in;
        const std::size_t out = std::size_t(z_->next_out - (dst + done));
        s_.stage.consume(used);
        done += out;
        s_.produced += out;
        if (rc == Z_STREAM_END) {
            ended_ = true;
            if (s_.produced < s_.entry.uncompressedSize && done < n) continue;  // throws above
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && used == 0 && out == 0)) {
            if (zlibLeft == 0 || (avail == 0 && s_.stage.ended()))
                throw TruncatedError(s_.where() +
                                     ": compressed data ends before the zlib stream "
                                     "does");
        } else if (rc != Z_OK) {
            corrupt(rc);
        } else {
            maybeRecordPoint();
        }
    }
    return done;
}

std::size_t ZlibInflate::feed(std::uint64_t& zlibLeft) {
    const std::size_t avail = s_.compressedAvail(zlibLeft);
    z_->next_in = s_.stage.at();
    z_->avail_in = unsigned(avail);
    return avail;
}

void ZlibInflate::checkTrailer() {
    // A damaged entry then fails instead of handing out wrong bytes. Streams that stop without
    // a proper end (sync-flushed writers) are accepted, as the game does.
    std::uint8_t scratch[4096];
    std::uint64_t extra = 0;
    while (!ended_ && extra < 64 * 1024) {
        std::uint64_t zlibLeft = 0;
        const std::size_t avail = feed(zlibLeft);
        z_->next_out = scratch;
        z_->avail_out = sizeof scratch;
        const int rc = inflate(z_, Z_NO_FLUSH);
        const std::size_t used = avail - z_->avail_in;
        s_.stage.consume(used);
        extra += sizeof scratch - z_->avail_out;
        if (rc == Z_STREAM_END) {
            ended_ = true;
        } else if (rc == Z_BUF_ERROR ||
                   (rc == Z_OK && used == 0 && z_->avail_out == sizeof scratch)) {
            if (s_.inputEnded(avail, zlibLeft)) return;
        } else if (rc != Z_OK) {
            corrupt(rc);
        }
    }
}

}  // namespace pakfs::archive
