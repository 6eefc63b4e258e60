// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <zlib.h>

#include <functional>
#include <memory>

#include "archive/PakIndex.hpp"

namespace pakfs::archive {

// Streams a plain (non-gbx) entry: bulk CBC and large inflate steps, no parser, no ivXor.
// Sequential only; one per open file.
class PlainEntryDecoder {
public:
    PlainEntryDecoder(std::shared_ptr<const PakIndex> pak, const PakEntry& entry);
    ~PlainEntryDecoder();
    PlainEntryDecoder(const PlainEntryDecoder&) = delete;
    PlainEntryDecoder& operator=(const PlainEntryDecoder&) = delete;

    // Fills dst with the next bytes of the entry; returns fewer only at the end.
    std::size_t read(std::uint8_t* dst, std::size_t n);
    std::uint64_t position() const { return produced_; }
    std::uint64_t size() const { return entry_.uncompressedSize; }

private:
    void decryptMore();
    // One inflate call into out[0..cap), decrypting more input when needed.
    struct Step {
        std::size_t produced = 0;
        bool progressed = false;  // input consumed or output produced
    };
    Step inflateStep(std::uint8_t* out, std::size_t cap);
    std::string where() const;

    std::shared_ptr<const PakIndex> pak_;
    const PakEntry& entry_;
    std::uint64_t iv_ = 0;
    std::uint64_t cipherOffset_ = 0;  // bytes of ciphertext consumed
    std::uint64_t cipherSize_ = 0;
    std::uint64_t produced_ = 0;
    Bytes chunk_;  // decrypted, not yet used
    std::size_t chunkPos_ = 0;
    z_stream z_{};
    bool zlibOpen_ = false;
    bool zlibEnded_ = false;
};

// Whether the entry's content starts with "GBX" (decodes only its first segment).
bool isGbxEntry(const PakIndex& pak, const PakEntry& entry);

// The whole content of an entry, byte-exact; gbx entries go through the game's pipeline.
// Throws Error naming the pak and entry when it cannot be decoded exactly.
Bytes readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry);

// Streams an entry's content in pieces to `sink` (plain entries without holding them whole).
void readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
               const std::function<void(ByteSpan)>& sink);

}  // namespace pakfs::archive
