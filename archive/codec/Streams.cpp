// SPDX-License-Identifier: GPL-2.0-or-later
// CryptedStream: 256-byte refills read ahead from the file, each applying the pending ivXor (or
// noting it, over plaintext); the zlib stage's 0x100-byte steps; ReadPipeline stacking them.
#include "archive/codec/Streams.hpp"

#include <algorithm>
#include <cstring>

namespace pakfs::archive {

namespace {
// Ciphertext read from a file at a time: the first read is small (a look at an entry's first
// bytes stays cheap), each next one twice the last, up to the most.
constexpr std::size_t kFirstReadAhead = 8 * 1024;
constexpr std::size_t kReadAhead = 64 * 1024;
}  // namespace

CryptedStream::CryptedStream(ByteRange range, const Blowfish* cipher, std::uint64_t iv,
                             std::uint64_t logicalSize, bool counterMode)
    : range_(std::move(range)),
      cipher_(cipher),
      iv_(iv),
      counterMode_(counterMode),
      logicalSize_(logicalSize) {
    if (logicalSize_ > range_.size())
        throw TruncatedError(range_.name() + ": crypted data is shorter than its declared size");
}

void CryptedStream::refill() {
    std::uint64_t left = range_.size() - rawOffset_;
    std::size_t n = std::size_t(std::min<std::uint64_t>(kSegmentSize, left));
    if (n == 0) throw TruncatedError(range_.name() + ": read past the end of the crypted data");
    if (range_.inMemory()) {
        range_.read(rawOffset_, buffer_, n);
    } else {
        if (rawOffset_ + n > rawStart_ + rawLen_) {  // the stream only moves forward
            // Never past what the file holds: a file cut short fails at the segment it cuts,
            // as with a read per segment.
            readAhead_ = readAhead_ == 0 ? kFirstReadAhead : std::min(2 * readAhead_, kReadAhead);
            const std::uint64_t ahead = std::min<std::uint64_t>(readAhead_, left);
            const std::uint64_t held = range_.held(rawOffset_);
            const std::size_t len = std::size_t(held >= n ? std::min(ahead, held) : n);
            if (raw_.size() < len) raw_.resize(len);
            rawLen_ = 0;  // nothing half-read is served later
            range_.read(rawOffset_, raw_.data(), len);
            rawStart_ = rawOffset_;
            rawLen_ = len;
        }
        std::memcpy(buffer_, raw_.data() + (rawOffset_ - rawStart_), n);
    }
    const std::uint64_t at = rawOffset_;
    rawOffset_ += n;
    if (!counterMode_) iv_ ^= ivXor_;
    if (cipher_) {
        if (n % 8 != 0)
            throw Error(range_.name() + ": crypted data is not a whole number of 8-byte blocks");
        if (counterMode_)
            cipher_->counterXor(buffer_, n, iv_, at);
        else
            cipher_->cbcDecrypt(buffer_, n, iv_);
    } else {
        applied_.push_back(ivXor_);
    }
    ivXor_ = 0;
    bufferPos_ = 0;
    bufferLen_ = n;
}

void CryptedStream::read(std::span<std::uint8_t> dst) {
    if (dst.size() > logicalSize_ - position_)
        throw TruncatedError(range_.name() + ": " +
                             readPastEndMessage(position_, dst.size(), logicalSize_ - position_));
    std::size_t done = 0;
    while (done < dst.size()) {
        if (bufferPos_ == bufferLen_) refill();
        std::size_t n = std::min(dst.size() - done, bufferLen_ - bufferPos_);
        std::memcpy(dst.data() + done, buffer_ + bufferPos_, n);
        bufferPos_ += n;
        done += n;
    }
    position_ += dst.size();
}

ZlibStage::ZlibStage(CryptedStream& input, std::uint64_t compressedSize,
                     std::uint64_t uncompressedSize, std::string name)
    : input_(input),
      name_(std::move(name)),
      compressedLeft_(compressedSize),
      uncompressedSize_(uncompressedSize) {
    if (inflateInit(&z_) != Z_OK) throw Error(name_ + ": cannot initialise zlib");
}

ZlibStage::~ZlibStage() {
    inflateEnd(&z_);
}

void ZlibStage::refill() {
    outPos_ = 0;
    outLen_ = 0;
    while (outLen_ < kZlibOutputBuffer && !ended_) {
        if (z_.avail_in == 0 && compressedLeft_ > 0) {
            std::size_t n = std::size_t(std::min<std::uint64_t>(kZlibInputStep, compressedLeft_));
            input_.read({in_, n});
            compressedLeft_ -= n;
            z_.next_in = in_;
            z_.avail_in = unsigned(n);
        }
        z_.next_out = out_ + outLen_;
        z_.avail_out = unsigned(kZlibOutputBuffer - outLen_);
        unsigned inBefore = z_.avail_in;
        int rc = inflate(&z_, Z_SYNC_FLUSH);
        std::size_t produced = kZlibOutputBuffer - outLen_ - z_.avail_out;
        outLen_ += produced;
        if (rc == Z_STREAM_END) {
            ended_ = true;
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && produced == 0 && inBefore == z_.avail_in)) {
            // No progress possible: zlib needs input and none is left.
            if (compressedLeft_ == 0 && z_.avail_in == 0) {
                if (outLen_ > 0) return;
                throw TruncatedError(name_ + ": compressed data ends before the zlib stream does");
            }
        } else if (rc != Z_OK) {
            throw Error(name_ + ": corrupt compressed data (zlib: " +
                        (z_.msg ? std::string(z_.msg) : std::to_string(rc)) + ")");
        }
    }
}

void ZlibStage::finish() {
    if (position_ != uncompressedSize_ || outPos_ != outLen_)
        throw Error(name_ + ": the zlib stream goes on after the declared size");
    while (!ended_) {
        refill();
        if (outLen_ > 0) throw Error(name_ + ": the zlib stream goes on after the declared size");
        if (!ended_ && compressedLeft_ == 0 && z_.avail_in == 0)
            throw TruncatedError(name_ + ": compressed data ends before the zlib stream does");
    }
}

std::optional<std::uint64_t> ZlibStage::remaining() const {
    std::uint64_t declared = uncompressedSize_ > position_ ? uncompressedSize_ - position_ : 0;
    std::uint64_t buffered = outLen_ - outPos_;
    if (ended_) return std::min(declared, buffered);
    // Deflate expands at most 1032:1; the slack covers output inflate holds between calls.
    std::uint64_t possible = buffered + (compressedLeft_ + z_.avail_in) * 1032 + 65536;
    return std::min(declared, possible);
}

void ZlibStage::read(std::span<std::uint8_t> dst) {
    if (dst.size() > uncompressedSize_ - std::min(uncompressedSize_, position_))
        throw TruncatedError(name_ + ": unexpected end of data at offset " +
                             std::to_string(position_) + " (wanted " + std::to_string(dst.size()) +
                             " bytes)");
    std::size_t done = 0;
    while (done < dst.size()) {
        if (outPos_ == outLen_) {
            if (ended_)
                throw TruncatedError(name_ + ": the zlib stream ends at offset " +
                                     std::to_string(position_ + done) +
                                     " before the declared size");
            refill();
            if (outLen_ == 0)
                throw TruncatedError(name_ + ": the zlib stream ends at offset " +
                                     std::to_string(position_ + done) +
                                     " before the declared size");
        }
        std::size_t n = std::min(dst.size() - done, outLen_ - outPos_);
        std::memcpy(dst.data() + done, out_ + outPos_, n);
        outPos_ += n;
        done += n;
    }
    position_ += dst.size();
}

ReadPipeline::ReadPipeline(const PipelineSpec& spec)
    : crypted_(spec.range, spec.cipher, spec.iv,
               spec.compressed || spec.lz4 ? spec.range.size() : spec.size, spec.counterMode) {
    if (spec.compressed)
        zlib_.emplace(crypted_, spec.compressedSize, spec.size, spec.name);
    else if (spec.lz4)
        lz4_.emplace(crypted_, spec.compressedSize, spec.size, spec.name);
}

}  // namespace pakfs::archive
