// SPDX-License-Identifier: GPL-2.0-or-later
// What holds for entries encrypted in counter mode.
#include "archive/entry/CounterMode.hpp"

namespace pakfs::archive {

bool counterModeProven(const PakEntry& entry) {
    return entry.codec == EntryCodec::Zlib;
}

const char* counterModeKind(const PakEntry& entry) {
    return counterModeProven(entry) ? "counter" : "counter:unverified";
}

std::string counterModeDetail(const PakEntry& entry) {
    if (counterModeProven(entry))
        return "decoded in counter mode (seekable flag); zlib's Adler-32 and the size prove it";
    return std::string("decoded in counter mode (seekable flag) without proof: ") +
           (entry.codec == EntryCodec::Lz4 ? "LZ4 keeps no checksum"
                                           : "stored, no checksum covers its bytes");
}

void checkCounterModeRead(const PakIndex& pak, const PakEntry& entry, bool unverified) {
    const std::string where = pak.name() + ": " + entry.path;
    if (!counterModeProven(entry) && !unverified)
        throw Error(where + ": encrypted in counter mode (seekable flag) and " +
                    (entry.codec == EntryCodec::Lz4 ? "LZ4-compressed, which keeps no checksum"
                                                    : "stored without a checksum") +
                    ": its bytes cannot be verified; pass --unverified (pak) or -o "
                    "unverified (pakfs) to read it unverified");
    const std::uint64_t held = entry.ivSize() + entry.cipherSize();
    if (entry.slotSize && held > *entry.slotSize)
        throw Error(where + ": damaged file table (" + std::to_string(held) +
                    " bytes of IV and data do not fit its slot of " +
                    std::to_string(*entry.slotSize) + " bytes)");
}

}  // namespace pakfs::archive
