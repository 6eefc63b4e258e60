// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/EntryReader.hpp"

#include "archive/GbxEntry.hpp"
#include "archive/Streams.hpp"

namespace pakfs::archive {

namespace {
constexpr std::size_t kBulkChunk = 256 * 1024;  // ciphertext decrypted per step on the fast path
}

PlainEntryDecoder::PlainEntryDecoder(std::shared_ptr<const PakIndex> pak, const PakEntry& entry)
    : pak_(std::move(pak)), entry_(entry) {
    std::uint64_t at = pak_->entryOffset(entry_);
    iv_ = loadLE64(pak_->file()->readAt(at, 8).data());
    cipherSize_ = entry_.cipherSize();
    if (entry_.compressed()) {
        if (inflateInit(&z_) != Z_OK) throw Error(where() + ": cannot initialise zlib");
        zlibOpen_ = true;
    }
}

PlainEntryDecoder::~PlainEntryDecoder() {
    if (zlibOpen_) inflateEnd(&z_);
}

std::string PlainEntryDecoder::where() const {
    return pak_->name() + ": " + entry_.path;
}

void PlainEntryDecoder::decryptMore() {
    std::size_t n = std::size_t(std::min<std::uint64_t>(kBulkChunk, cipherSize_ - cipherOffset_));
    chunk_.resize(n);
    chunkPos_ = 0;
    if (n == 0) return;
    pak_->file()->readAt(pak_->entryOffset(entry_) + 8 + cipherOffset_, chunk_.data(), n);
    pak_->cipher().cbcDecrypt(chunk_.data(), n, iv_);
    cipherOffset_ += n;
}

std::size_t PlainEntryDecoder::read(std::uint8_t* dst, std::size_t n) {
    n = std::size_t(std::min<std::uint64_t>(n, entry_.uncompressedSize - produced_));
    std::size_t done = 0;
    if (!entry_.compressed()) {
        while (done < n) {
            if (chunkPos_ == chunk_.size()) {
                decryptMore();
                if (chunk_.empty()) throw TruncatedError(where() + ": data ends early");
            }
            std::size_t k = std::min(n - done, chunk_.size() - chunkPos_);
            std::memcpy(dst + done, chunk_.data() + chunkPos_, k);
            chunkPos_ += k;
            done += k;
        }
    } else {
        // Only the compressed bytes feed zlib: the padding after them is not part of the stream.
        while (done < n) {
            if (zlibEnded_)
                throw TruncatedError(where() + ": compressed data ends at " +
                                     std::to_string(produced_ + done) + " of " +
                                     std::to_string(entry_.uncompressedSize) + " bytes");
            Step step = inflateStep(dst + done, n - done);
            done += step.produced;
            if (!step.progressed && !zlibEnded_)
                throw TruncatedError(where() + ": compressed data ends before the zlib stream does");
        }
        // After the last byte, run zlib to the end of its stream so that its checksum is
        // verified: a damaged entry must fail rather than return wrong bytes. A stream that
        // simply stops (no final block) is accepted, as the game's reader never looks there.
        if (produced_ + done == entry_.uncompressedSize && !zlibEnded_) {
            std::uint8_t scratch[4096];
            while (!zlibEnded_ && inflateStep(scratch, sizeof scratch).progressed) {
            }
        }
    }
    produced_ += done;
    return done;
}

PlainEntryDecoder::Step PlainEntryDecoder::inflateStep(std::uint8_t* out, std::size_t cap) {
    if (chunkPos_ == chunk_.size()) decryptMore();
    std::uint64_t consumedBefore = cipherOffset_ - (chunk_.size() - chunkPos_);
    std::uint64_t zlibLeft =
        entry_.compressedSize > consumedBefore ? entry_.compressedSize - consumedBefore : 0;
    std::size_t avail = std::size_t(std::min<std::uint64_t>(chunk_.size() - chunkPos_, zlibLeft));
    z_.next_in = chunk_.data() + chunkPos_;
    z_.avail_in = unsigned(avail);
    z_.next_out = out;
    z_.avail_out = unsigned(std::min<std::size_t>(cap, 1u << 30));
    int rc = inflate(&z_, Z_NO_FLUSH);
    Step step;
    std::size_t used = avail - z_.avail_in;
    step.produced = std::size_t(z_.next_out - out);
    chunkPos_ += used;
    step.progressed = used > 0 || step.produced > 0;
    if (rc == Z_STREAM_END) {
        zlibEnded_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw Error(where() + ": corrupt compressed data (zlib: " +
                    (z_.msg ? std::string(z_.msg) : std::to_string(rc)) + ")");
    }
    return step;
}

bool isGbxEntry(const PakIndex& pak, const PakEntry& entry) {
    if (entry.uncompressedSize < 3) return false;
    std::uint64_t at = pak.entryOffset(entry);
    std::uint64_t iv = loadLE64(pak.file()->readAt(at, 8).data());
    std::size_t n = std::size_t(std::min<std::uint64_t>(kSegmentSize, entry.cipherSize()));
    Bytes seg = pak.file()->readAt(at + 8, n);
    pak.cipher().cbcDecrypt(seg.data(), n, iv);
    std::uint8_t head[3];
    if (!entry.compressed()) {
        std::memcpy(head, seg.data(), 3);
    } else {
        z_stream z{};
        if (inflateInit(&z) != Z_OK) return false;
        z.next_in = seg.data();
        z.avail_in = unsigned(std::min<std::uint64_t>(n, entry.compressedSize));
        z.next_out = head;
        z.avail_out = 3;
        inflate(&z, Z_SYNC_FLUSH);
        bool got = z.avail_out == 0;
        inflateEnd(&z);
        if (!got) return false;
    }
    return std::memcmp(head, "GBX", 3) == 0;
}

void readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
               const std::function<void(ByteSpan)>& sink) {
    if (isGbxEntry(*pak, entry)) {
        Bytes all = decodeGbxEntry(pak, entry);
        sink(all);
        return;
    }
    PlainEntryDecoder decoder(pak, entry);
    Bytes buf(std::min<std::uint64_t>(entry.uncompressedSize, 1 << 20));
    while (decoder.position() < decoder.size()) {
        std::size_t n = decoder.read(buf.data(), buf.size());
        sink({buf.data(), n});
    }
}

Bytes readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry) {
    Bytes out;
    // The size is untrusted: reserve no more than the data could plausibly inflate to.
    out.reserve(
        std::size_t(std::min<std::uint64_t>(entry.uncompressedSize, entry.cipherSize() * 64)));
    readEntry(pak, entry, [&](ByteSpan b) { out.insert(out.end(), b.begin(), b.end()); });
    return out;
}

}  // namespace pakfs::archive
