// SPDX-License-Identifier: GPL-2.0-or-later
// Version 18's LZ4 block stream: compressed whole, decoded whole, and decoded as a stream
// (Lz4Stage) through a ring of blocks that keeps LZ4's 64 KiB window; every block size checked.
#include "archive/codec/Lz4.hpp"

#include <lz4.h>

#include <cstring>

#include "archive/codec/Pak18Lz4Dictionary.hpp"

namespace pakfs::archive {

namespace {

// Decoded blocks go one after another into a ring buffer big enough for LZ4's 64 KiB window
// plus a block; a block never wraps, since the ring is a whole number of blocks.
constexpr std::size_t kRingSize = 64 * 1024 + 2 * kLz4BlockSize;
// A block that gives 4096 bytes takes more than this: one match of that length alone needs a
// token, an offset and 16 length bytes, and a block ends with a literal run.
constexpr std::size_t kMinFullBlock = 16;
static_assert(kRingSize % kLz4BlockSize == 0);

std::string blockError(const std::string& name, std::uint64_t block, const std::string& what) {
    return name + ": LZ4 block " + std::to_string(block) + ": " + what;
}

// The size of block `block`, whose 2-byte size is at data[at]: 1 to 4128, and within the data.
std::size_t blockSizeAt(ByteSpan data, std::size_t at, std::uint64_t block,
                        const std::string& name) {
    if (data.size() - at < 2)
        throw Error(blockError(name, block, "its size runs past the end of the data"));
    const std::size_t n = loadLE16(data.data() + at);
    if (n == 0 || n > kLz4MaxBlock)
        throw Error(blockError(name, block, "size " + std::to_string(n) + " is not 1 to 4128"));
    if (n > data.size() - at - 2)
        throw Error(blockError(name, block, "runs past the end of the data"));
    return n;
}

}  // namespace

ByteSpan pak18Lz4Dictionary() {
    return ByteSpan(kPak18Lz4Dictionary, sizeof kPak18Lz4Dictionary);
}

Bytes lz4PackCompress(ByteSpan content) {
    LZ4_stream_t* stream = LZ4_createStream();
    if (!stream) throw Error("LZ4: out of memory");
    ByteSpan dict = pak18Lz4Dictionary();
    LZ4_loadDict(stream, reinterpret_cast<const char*>(dict.data()), int(dict.size()));
    Bytes out;
    out.reserve(content.size() / 2 + 64);
    char block[kLz4MaxBlock];
    // The input stays in place, so each block's history is the dictionary and the blocks
    // before it, as the reader's stream sees them.
    for (std::size_t at = 0; at < content.size(); at += kLz4BlockSize) {
        int n = int(std::min(kLz4BlockSize, content.size() - at));
        int got =
            LZ4_compress_fast_continue(stream, reinterpret_cast<const char*>(content.data() + at),
                                       block, n, int(kLz4MaxBlock), 1);
        if (got <= 0 || std::size_t(got) > kLz4MaxBlock) {
            LZ4_freeStream(stream);
            throw Error("LZ4: compression failed");
        }
        out.push_back(std::uint8_t(got));
        out.push_back(std::uint8_t(got >> 8));
        out.insert(out.end(), block, block + got);
    }
    LZ4_freeStream(stream);
    return out;
}

Bytes lz4PackDecompress(ByteSpan data, std::uint64_t size, const std::string& name) {
    // Every block takes at least 3 bytes and gives at most 4096: the untrusted size is checked
    // against what the data can give before anything is allocated.
    const std::uint64_t blocks = (size + kLz4BlockSize - 1) / kLz4BlockSize;
    if (blocks * 3 > data.size())
        throw Error(name + ": LZ4 data of " + std::to_string(data.size()) +
                    " bytes cannot give the declared " + std::to_string(size) + " bytes");
    // The block sizes first: the declared size is allocated only when the blocks present can
    // give it (every block but the last is big enough for 4096 bytes).
    for (std::size_t b = 0, at = 0; b < blocks; ++b) {
        const std::size_t n = blockSizeAt(data, at, b, name);
        if (b + 1 < blocks && n < kMinFullBlock)
            throw Error(
                blockError(name, b, "size " + std::to_string(n) + " cannot give 4096 bytes"));
        at += 2 + n;
    }
    Bytes out(static_cast<std::size_t>(size));
    LZ4_streamDecode_t* stream = LZ4_createStreamDecode();
    if (!stream) throw Error(name + ": LZ4: out of memory");
    ByteSpan dict = pak18Lz4Dictionary();
    LZ4_setStreamDecode(stream, reinterpret_cast<const char*>(dict.data()), int(dict.size()));
    std::size_t in = 0;
    std::uint64_t produced = 0;
    try {
        for (std::uint64_t b = 0; produced < size; ++b) {
            const std::size_t n = blockSizeAt(data, in, b, name);
            in += 2;
            std::size_t want = std::size_t(std::min<std::uint64_t>(kLz4BlockSize, size - produced));
            int got = LZ4_decompress_safe_continue(
                stream, reinterpret_cast<const char*>(data.data() + in),
                reinterpret_cast<char*>(out.data() + produced), int(n), int(want));
            if (got < 0) throw Error(blockError(name, b, "corrupt LZ4 data"));
            if (std::size_t(got) != want)
                throw Error(blockError(
                    name, b,
                    "gives " + std::to_string(got) + " bytes instead of " + std::to_string(want)));
            in += n;
            produced += want;
        }
        if (in != data.size())
            throw Error(name + ": " + std::to_string(data.size() - in) +
                        " bytes of LZ4 data left after the declared size");
    } catch (...) {
        LZ4_freeStreamDecode(stream);
        throw;
    }
    LZ4_freeStreamDecode(stream);
    return out;
}

struct Lz4Stage::State {
    LZ4_streamDecode_t* stream = nullptr;
    std::unique_ptr<std::uint8_t[]> ring = std::make_unique<std::uint8_t[]>(kRingSize);
    std::size_t ringPos = 0;
    std::uint64_t block = 0;
    std::uint8_t in[kLz4MaxBlock];
    ~State() {
        if (stream) LZ4_freeStreamDecode(stream);
    }
};

Lz4Stage::Lz4Stage(ByteSource& input, std::uint64_t compressedSize, std::uint64_t uncompressedSize,
                   std::string name)
    : input_(input),
      name_(std::move(name)),
      compressedLeft_(compressedSize),
      size_(uncompressedSize),
      state_(std::make_unique<State>()) {
    state_->stream = LZ4_createStreamDecode();
    if (!state_->stream) throw Error(name_ + ": LZ4: out of memory");
    ByteSpan dict = pak18Lz4Dictionary();
    LZ4_setStreamDecode(state_->stream, reinterpret_cast<const char*>(dict.data()),
                        int(dict.size()));
}

Lz4Stage::~Lz4Stage() = default;

void Lz4Stage::nextBlock() {
    State& s = *state_;
    if (compressedLeft_ < 2)
        throw TruncatedError(blockError(name_, s.block, "its size runs past the end of the data"));
    std::uint8_t head[2];
    input_.read(head);
    compressedLeft_ -= 2;
    std::size_t n = loadLE16(head);
    if (n == 0 || n > kLz4MaxBlock)
        throw Error(blockError(name_, s.block, "size " + std::to_string(n) + " is not 1 to 4128"));
    if (n > compressedLeft_)
        throw TruncatedError(blockError(name_, s.block, "runs past the end of the data"));
    input_.read({s.in, n});
    compressedLeft_ -= n;
    const std::uint64_t left = size_ - position_;
    const std::size_t want = std::size_t(std::min<std::uint64_t>(kLz4BlockSize, left));
    if (s.ringPos + kLz4BlockSize > kRingSize) s.ringPos = 0;
    std::uint8_t* dst = s.ring.get() + s.ringPos;
    int got = LZ4_decompress_safe_continue(s.stream, reinterpret_cast<const char*>(s.in),
                                           reinterpret_cast<char*>(dst), int(n), int(want));
    if (got < 0) throw Error(blockError(name_, s.block, "corrupt LZ4 data"));
    if (std::size_t(got) != want)
        throw Error(blockError(
            name_, s.block,
            "gives " + std::to_string(got) + " bytes instead of " + std::to_string(want)));
    s.ringPos += kLz4BlockSize;
    ++s.block;
    out_ = dst;
    outPos_ = 0;
    outLen_ = want;
}

void Lz4Stage::read(std::span<std::uint8_t> dst) {
    if (dst.size() > size_ - position_)
        throw TruncatedError(name_ + ": " +
                             readPastEndMessage(position_, dst.size(), size_ - position_));
    std::size_t done = 0;
    while (done < dst.size()) {
        if (outPos_ == outLen_) nextBlock();
        std::size_t n = std::min(dst.size() - done, outLen_ - outPos_);
        std::memcpy(dst.data() + done, out_ + outPos_, n);
        outPos_ += n;
        done += n;
        position_ += n;
    }
}

std::optional<std::uint64_t> Lz4Stage::remaining() const {
    std::uint64_t declared = size_ - position_;
    // Each block still to come takes at least 3 bytes and gives at most 4096.
    std::uint64_t possible = (outLen_ - outPos_) + compressedLeft_ / 3 * kLz4BlockSize;
    return std::min(declared, possible);
}

void Lz4Stage::finish() {
    if (position_ != size_ || outPos_ != outLen_)
        throw Error(name_ + ": LZ4 data ends before the declared size");
    if (compressedLeft_ != 0)
        throw Error(name_ + ": " + std::to_string(compressedLeft_) +
                    " bytes of LZ4 data left after the declared size");
}

}  // namespace pakfs::archive
