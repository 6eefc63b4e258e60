// SPDX-License-Identifier: GPL-2.0-or-later
// The whole gbx-entry pipeline. The first byte picks stored or zlib; the rest is the gbx file.
// planGbxEntry simulates the reader to learn the ivXor schedule; the entry is then encrypted
// with it (or without it when planning fails, as --raw stores), put in a one-file pak and read
// back with decodeGbxEntry, which must return the input or throw Error; it must return it
// unless the plan says a stored entry cannot be proven (chunks no reader knows, no checksum).
#include "archive/entry/GbxEntry.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PakWriter.hpp"
#include "fuzz/FuzzUtil.hpp"
#include "tests/hostile/Generators.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > (1 << 20)) return 0;
    const bool compressed = data[0] & 1;
    ByteSpan content(data + 1, size - 1);
    Bytes payload = compressed ? archive::zlibCompress(content, 6, "entry")
                               : Bytes(content.begin(), content.end());
    std::vector<std::uint64_t> ivXor;
    bool planned = false;
    bool provable = false;
    try {
        auto plan = archive::planGbxEntry(content, payload, compressed, "fuzz.Gbx");
        ivXor = plan.ivXorPerSegment;
        planned = true;
        provable = compressed || !plan.needsChecksum || content.size() <= archive::kSegmentSize;
    } catch (const Error&) {
    }
    const archive::PakKey key = fuzz::fuzzKey();
    Bytes blob = payload;
    blob.resize(archive::roundUp8(blob.size()), 0);
    archive::encryptSegments(blob, 0x0123456789ABCDEFull, ivXor, archive::Blowfish(key));
    hostile::PakModel m;
    m.folders.push_back({-1, "Folder\\"});
    hostile::PakModel::Row row;
    row.folder = 0;
    row.name = "fuzz.Gbx";
    row.uncompressedSize = std::uint32_t(content.size());
    row.compressedSize = compressed ? std::uint32_t(payload.size()) : 0;
    row.flags = compressed ? archive::kFlagZlib : 0;
    m.rows.push_back(row);
    ByteWriter w(m.tail);
    w.u64(0x0123456789ABCDEFull);
    w.bytes(blob);
    fuzz::writeScratch(m.build(key));
    try {
        auto pak = archive::PakIndex::open(fuzz::scratchPath(), key);
        Bytes back = archive::decodeGbxEntry(pak, pak->entries().at(0));
        // What was planned must come back exactly.
        if (planned && !std::equal(back.begin(), back.end(), content.begin(), content.end()))
            std::abort();
    } catch (const Error&) {
        // A planned entry that can be proven decodes: anything else is a finding.
        if (provable) std::abort();
    }
    return 0;
}
