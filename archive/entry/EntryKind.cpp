// SPDX-License-Identifier: GPL-2.0-or-later
// Telling a gbx entry from a plain one.
#include "archive/entry/EntryKind.hpp"

#include <algorithm>
#include <cstring>

#include "archive/entry/EntryPipeline.hpp"
#include "archive/stream/DecryptStage.hpp"
#include "archive/stream/ZlibInflate.hpp"

namespace pakfs::archive {

bool isGbxEntry(const PakIndex& pak, const PakEntry& entry) {
    if (entry.uncompressedSize < 3) return false;
    if (entry.codec == EntryCodec::Lz4) {
        ReadPipeline pipe(entryPipelineSpec(pak, entry));
        std::uint8_t head[3];
        try {
            pipe.top().read(head);
        } catch (const Error&) {
            return false;  // reading it says why
        }
        return std::memcmp(head, "GBX", 3) == 0;
    }
    // The IV and the first segment in one read.
    std::uint8_t seg[8 + kSegmentSize];
    const std::size_t n = std::size_t(std::min<std::uint64_t>(kSegmentSize, entry.cipherSize()));
    DecryptStage::decryptStart(pak, entry, seg, n);
    std::uint8_t* plain = seg + 8;
    std::uint8_t head[3];
    if (!entry.compressed()) {
        std::memcpy(head, plain, 3);
    } else {
        InflatePtr z = takeInflate(15);
        if (!z) return false;
        z->next_in = plain;
        z->avail_in = unsigned(std::min<std::uint64_t>(n, entry.compressedSize));
        z->next_out = head;
        z->avail_out = 3;
        inflate(z.get(), Z_SYNC_FLUSH);
        const bool got = z->avail_out == 0;
        giveBack(std::move(z));
        if (!got) return false;
    }
    return std::memcmp(head, "GBX", 3) == 0;
}

bool isGbxEntryHead(const PakIndex& pak, const PakEntry& entry, ByteSpan head) {
    return head.size() >= 3 && std::memcmp(head.data(), "GBX", 3) == 0 && isGbxEntry(pak, entry);
}

}  // namespace pakfs::archive
