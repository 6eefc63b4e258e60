// SPDX-License-Identifier: GPL-2.0-or-later
// An entry read whole: its first bytes send a gbx entry whose node reads mix the cipher to the
// gbx decode, anything else through the plain reader to the sink in pieces of up to 256 KiB.
#include "archive/entry/EntryReader.hpp"

#include <algorithm>
#include <cstring>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/stream/SpareBuffer.hpp"

namespace pakfs::archive {

namespace {

constexpr std::size_t kOutBuffer = 256 * 1024;  // readEntry's pieces handed to the sink

// What the last readEntry of this thread left behind (extraction reads one entry after
// another).
thread_local SpareBuffer tSpareOut;

}  // namespace

void readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
               const std::function<void(ByteSpan)>& sink, const GbxDecodeOptions& gbx,
               const std::function<void(const std::string&)>& warn) {
    PlainEntryReader reader(pak, entry, ReadRequest().allowUnverified(gbx.unverified));
    // The size is untrusted, but it only caps the buffer here.
    const std::size_t cap =
        std::size_t(std::min<std::uint64_t>(entry.uncompressedSize, kOutBuffer));
    SpareBuffer out = takeBuffer(tSpareOut, cap);
    std::uint8_t* buf = out.data.get();
    // The first bytes tell a gbx entry from a plain one, which goes on in the same pass. The
    // gbx pipeline starts over from the beginning. A gbx entry whose node reads do not mix the
    // cipher reads like any other.
    std::size_t have = reader.read(buf, std::min<std::size_t>(3, cap));
    if (pak->nodeReadsMixCipher(entry) && isGbxEntryHead(*pak, entry, {buf, have})) {
        giveBack(tSpareOut, std::move(out));
        sink(decodeGbxEntry(pak, entry, gbx, warn));
        return;
    }
    while (reader.position() < reader.size()) {
        if (have == cap) {
            sink({buf, have});
            have = 0;
        }
        have += reader.read(buf + have, cap - have);
    }
    if (have > 0) sink({buf, have});
    giveBack(tSpareOut, std::move(out));
    if (reader.unproven() && warn)
        warn(pak->name() + ": " + entry.path + ": " + counterModeDetail(entry));
}

bool entryDecodesTo(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                    ByteSpan content) {
    if (entry.uncompressedSize != content.size()) return false;
    try {
        const Bytes decoded = readEntry(pak, entry);
        return std::equal(decoded.begin(), decoded.end(), content.begin(), content.end());
    } catch (const Error&) {
        return false;
    }
}

Bytes readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                const GbxDecodeOptions& gbx) {
    Bytes out;
    // The size is untrusted: reserve no more than the data could plausibly inflate to.
    out.reserve(
        std::size_t(std::min<std::uint64_t>(entry.uncompressedSize, entry.cipherSize() * 64)));
    readEntry(
        pak, entry, [&](ByteSpan b) { out.insert(out.end(), b.begin(), b.end()); }, gbx);
    return out;
}

}  // namespace pakfs::archive
