// SPDX-License-Identifier: GPL-2.0-or-later
// The streamed strategy of the plain entry reader: ISA-L.
#include "archive/stream/IsalInflate.hpp"

#include <isa-l/igzip_lib.h>

#include <algorithm>

namespace pakfs::archive {

namespace {

// What the last reader of this thread left behind: ISA-L's state is one block of 85 KiB.
thread_local std::unique_ptr<inflate_state> tSpareState;

std::unique_ptr<inflate_state> takeState() {
    std::unique_ptr<inflate_state> state = std::move(tSpareState);
    if (!state) state = std::make_unique<inflate_state>();
    isal_inflate_init(state.get());  // raw deflate: no header, no trailer
    return state;
}

}  // namespace

bool IsalInflate::start(bool checksum) {
    // Only the usual header (deflate, 32 KiB window): zlib refuses distances beyond a smaller
    // window that the header declares, ISA-L would not.
    std::uint64_t zlibLeft = 0;
    if (s_.compressedAvail(zlibLeft) < 2 || s_.stage.at()[0] != 0x78) return false;
    // A reader sent into the entry before its first read (the mount's first read of a fresh
    // mount, decoding from the start to far in) leaves the Adler-32 out, about a tenth of
    // ISA-L's time: as a reader resumed at a seek point, it checks no trailer (the pass that
    // builds the points does). It reads the header itself; anything unusual is zlib's.
    const std::uint8_t* head = s_.stage.at();
    if (!checksum && ((head[0] << 8 | head[1]) % 31 != 0 || (head[1] & 0x20))) return false;
    std::unique_ptr<inflate_state> state = takeState();
    if (checksum) {
        state->crc_flag = ISAL_ZLIB;
    } else {
        s_.stage.consume(2);  // raw deflate after the header
        s_.rawInflate = true;
    }
    state_ = state.release();
    return true;
}

bool IsalInflate::resume(std::shared_ptr<const SeekPoint> point) {
    std::uint8_t window[kInflateWindow];
    s_.windowOf(*point, window);
    std::unique_ptr<inflate_state> state = takeState();
    if (isal_inflate_set_dict(state.get(), window, point->windowSize) != ISAL_DECOMP_OK) {
        tSpareState = std::move(state);
        return false;
    }
    s_.rawInflate = true;
    const unsigned pending = s_.startAtPoint(*point);
    if (point->bits) {
        // The bits not yet consumed are the high ones of the byte before, fed first.
        state->read_in = std::uint64_t(pending);
        state->read_in_length = point->bits;
    }
    state_ = state.release();
    resumedFrom_ = std::move(point);
    return true;
}

std::shared_ptr<const SeekPoint> IsalInflate::leave() {
    if (!state_) return nullptr;
    std::unique_ptr<inflate_state> state(state_);
    state_ = nullptr;
    if (!tSpareState) tSpareState = std::move(state);
    return std::move(resumedFrom_);
}

bool IsalInflate::finished() const {
    return state_ && state_->block_state == ISAL_BLOCK_FINISH;
}

std::size_t IsalInflate::read(std::uint8_t* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        std::uint64_t zlibLeft = 0;
        const std::size_t avail = s_.compressedAvail(zlibLeft);
        state_->next_in = s_.stage.at();
        state_->avail_in = std::uint32_t(avail);
        state_->next_out = dst + done;
        state_->avail_out = std::uint32_t(std::min<std::size_t>(n - done, 1u << 30));
        const int rc = isal_inflate(state_);
        const std::size_t used = avail - state_->avail_in;
        const std::size_t out = std::size_t(state_->next_out - (dst + done));
        s_.stage.consume(used);
        done += out;
        s_.produced += out;
        // An error, or no progress: the stream ended before the entry's size, or the input did
        // before the stream. zlib takes over and says which (the reader goes on with it).
        if (rc != ISAL_DECOMP_OK || (used == 0 && out == 0)) {
            refused_();
            break;
        }
    }
    return done;
}

void IsalInflate::checkTrailer() {
    // Accepts a stream whose input stops without a proper end. Bytes beyond the entry's size or
    // an error go to zlib, which decides as it always did.
    std::uint8_t scratch[4096];
    while (state_->block_state != ISAL_BLOCK_FINISH) {
        std::uint64_t zlibLeft = 0;
        const std::size_t avail = s_.compressedAvail(zlibLeft);
        state_->next_in = s_.stage.at();
        state_->avail_in = std::uint32_t(avail);
        state_->next_out = scratch;
        state_->avail_out = sizeof scratch;
        const int rc = isal_inflate(state_);
        const std::size_t used = avail - state_->avail_in;
        s_.stage.consume(used);
        const bool ended = s_.inputEnded(avail, zlibLeft);
        // Done when the Adler-32 matched (FINISH) or the input ended without one.
        if (rc == ISAL_DECOMP_OK && state_->avail_out == sizeof scratch &&
            (state_->block_state == ISAL_BLOCK_FINISH || (used == 0 && ended)))
            return;
        if (rc != ISAL_DECOMP_OK || state_->avail_out != sizeof scratch || used == 0) {
            refused_();
            return;
        }
    }
}

bool IsalInflate::upTo(std::uint64_t limit, std::uint64_t until, std::uint8_t* window,
                       std::uint8_t* out) {
    while (s_.produced < until) {
        std::uint64_t zlibLeft = 0;
        std::size_t avail = s_.compressedAvail(zlibLeft);
        const std::uint64_t at = s_.stage.nextOffset();
        avail = std::size_t(std::min<std::uint64_t>(avail, limit > at ? limit - at : 0));
        state_->next_in = s_.stage.at();
        state_->avail_in = std::uint32_t(avail);
        state_->next_out = out;
        state_->avail_out = std::uint32_t(std::min<std::uint64_t>(kStep, until - s_.produced));
        const int rc = isal_inflate(state_);
        const std::size_t used = avail - state_->avail_in;
        const std::size_t got = std::size_t(state_->next_out - out);
        s_.stage.consume(used);
        s_.produced += got;
        s_.decoded += got;
        slideWindow(window, out, got);
        if (rc != ISAL_DECOMP_OK) {
            refused_();
            return false;
        }
        if ((used == 0 && got == 0) || state_->block_state == ISAL_BLOCK_INPUT_DONE ||
            state_->block_state == ISAL_BLOCK_FINISH)
            break;
    }
    return true;
}

bool IsalInflate::stopsAt(std::uint64_t bit) const {
    const auto state = state_->block_state;
    if (state != ISAL_BLOCK_HDR && state != ISAL_BLOCK_NEW_HDR) return false;
    // Bits taken but not used wait in read_in, and the bytes of a header begun in tmp_in.
    const std::uint64_t taken = s_.stage.nextOffset() * 8;
    const std::uint64_t waiting =
        std::uint64_t(state_->read_in_length) +
        (state == ISAL_BLOCK_HDR ? std::uint64_t(state_->tmp_in_size) * 8 : 0);
    return taken >= waiting && taken - waiting == bit;
}

}  // namespace pakfs::archive
