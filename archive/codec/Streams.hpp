// SPDX-License-Identifier: GPL-2.0-or-later
// The game's read pipeline: a crypted stream of 256-byte segments, and a zlib stage that
// refills a 0x400-byte buffer from 0x100-byte reads. Both serve as ByteSource so the gbx
// reader can drive them, and both run in a simulation mode over plaintext so the writer can
// learn which ivXor the reader will hold at each segment.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "archive/cipher/Crypto.hpp"
#include "archive/codec/Lz4.hpp"
#include "common/ByteSource.hpp"
#include "common/File.hpp"

namespace pakfs::archive {

inline constexpr std::size_t kSegmentSize = 256;
inline constexpr std::size_t kZlibInputStep = 0x100;
inline constexpr std::size_t kZlibOutputBuffer = 0x400;

constexpr std::uint64_t roundUp8(std::uint64_t n) {
    return (n + 7) & ~std::uint64_t(7);
}

class CryptedStream final : public ByteSource {
public:
    // Reads `range` (ciphertext, a multiple of 8 bytes) decrypting with `cipher` from `iv`.
    // With cipher == nullptr the range is taken as plaintext (simulation mode), and the ivXor
    // applied at each segment is recorded for the writer.
    // `logicalSize` (<= range size) is how many plaintext bytes may be read; the rest is padding.
    // `counterMode`: the version 6+ counter mode (Blowfish::counterXor) instead of CBC; the
    // ivXor then has no effect.
    CryptedStream(ByteRange range, const Blowfish* cipher, std::uint64_t iv,
                  std::uint64_t logicalSize, bool counterMode = false);

    void read(std::span<std::uint8_t> dst) override;
    std::uint64_t position() const override { return position_; }
    std::optional<std::uint64_t> remaining() const override { return logicalSize_ - position_; }

    // Folds bytes into the pending ivXor; it takes effect at the next segment refill.
    void mixIvXor(ByteSpan bytes) { ivXor_ = calcIvXor(ivXor_, bytes); }
    std::uint64_t pendingIvXor() const { return ivXor_; }
    void setPendingIvXor(std::uint64_t v) { ivXor_ = v; }
    // Simulation mode: ivXor applied at each segment refill so far, in order.
    const std::vector<std::uint64_t>& appliedIvXor() const { return applied_; }

private:
    void refill();

    ByteRange range_;
    const Blowfish* cipher_;
    std::uint64_t iv_;
    bool counterMode_;
    std::uint64_t ivXor_ = 0;
    std::uint64_t logicalSize_;
    std::uint64_t rawOffset_ = 0;  // next raw byte to refill from
    // Ciphertext read from the file ahead of the segments (a pread per segment made the file
    // table of a pak of 100000 files take 18000 system calls): raw_ holds rawLen_ of the
    // range's bytes from rawStart_ on.
    Bytes raw_;
    std::uint64_t rawStart_ = 0;
    std::size_t rawLen_ = 0;
    std::size_t readAhead_ = 0;   // the size the last read ahead asked for (0: none yet)
    std::uint64_t position_ = 0;  // plaintext bytes handed out
    std::uint8_t buffer_[kSegmentSize];
    std::size_t bufferPos_ = 0;
    std::size_t bufferLen_ = 0;
    std::vector<std::uint64_t> applied_;
};

// The game's CClassicBufferZlib reading side, step for step: the inflate calls and how much
// input each refill takes decide when the crypted stream below refills its segments.
class ZlibStage final : public ByteSource {
public:
    ZlibStage(CryptedStream& input, std::uint64_t compressedSize, std::uint64_t uncompressedSize,
              std::string name);
    ~ZlibStage() override;
    ZlibStage(const ZlibStage&) = delete;
    ZlibStage& operator=(const ZlibStage&) = delete;

    void read(std::span<std::uint8_t> dst) override;
    std::uint64_t position() const override { return position_; }
    // What is left of the declared size, but no more than the compressed bytes still to come
    // can inflate to: the declared size is untrusted and readers allocate by it.
    std::optional<std::uint64_t> remaining() const override;
    bool streamEnded() const { return ended_; }
    // After the last byte of the declared size: reads on to the end of the zlib stream, which
    // must come with no further output; zlib checks the Adler-32 trailer on the way. Throws
    // Error otherwise. Not something the game does: it proves what was read.
    void finish();

private:
    void refill();

    CryptedStream& input_;
    std::string name_;
    z_stream z_{};
    std::uint64_t compressedLeft_;
    std::uint64_t uncompressedSize_;
    std::uint64_t position_ = 0;
    bool ended_ = false;
    std::uint8_t in_[kZlibInputStep];
    std::uint8_t out_[kZlibOutputBuffer];
    std::size_t outPos_ = 0;
    std::size_t outLen_ = 0;
};

// What it takes to build the pipeline of one entry, again and again (a search decodes an entry
// several times from its start).
struct PipelineSpec {
    explicit PipelineSpec(ByteRange r) : range(std::move(r)) {}
    ByteRange range;  // ciphertext after the IV, or the padded plaintext payload (simulation)
    const Blowfish* cipher = nullptr;  // null: simulation over plaintext
    std::uint64_t iv = 0;
    bool counterMode = false;          // version 6+ counter mode instead of CBC
    bool compressed = false;           // zlib (the only codec with a checksum)
    bool lz4 = false;                  // version 18's LZ4 blocks
    std::uint64_t compressedSize = 0;  // the compressed stream's length, when compressed
    std::uint64_t size = 0;            // the entry's content size
    std::string name;                  // "pak: path" for messages
};

// The game's read pipeline for one entry: the crypted stream, with the zlib or LZ4 stage on
// top when the entry is compressed.
class ReadPipeline {
public:
    explicit ReadPipeline(const PipelineSpec& spec);
    ByteSource& top() {
        if (zlib_) return *zlib_;
        if (lz4_) return *lz4_;
        return crypted_;
    }
    CryptedStream& crypted() { return crypted_; }
    ZlibStage* zlib() { return zlib_ ? &*zlib_ : nullptr; }
    Lz4Stage* lz4() { return lz4_ ? &*lz4_ : nullptr; }

private:
    CryptedStream crypted_;
    std::optional<ZlibStage> zlib_;
    std::optional<Lz4Stage> lz4_;
};

}  // namespace pakfs::archive
