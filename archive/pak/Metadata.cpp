// SPDX-License-Identifier: GPL-2.0-or-later
// Metadata records read (each dataless gbx checked: "GBX", version 3 to 6, user data size
// against what is left) and written, and each record's offset in the section.
#include "archive/pak/Metadata.hpp"

#include "archive/pak/FieldReader.hpp"

namespace pakfs::archive {

Bytes readDatalessGbx(ByteSource& source, const std::string& context) {
    Bytes out;
    FieldReader r(source, context, &out);
    std::uint64_t start = r.position();
    std::uint8_t magic[3];
    r.bytes(magic);
    if (std::memcmp(magic, "GBX", 3) != 0) r.fail("record does not start with \"GBX\"", start);
    std::uint8_t v[2];
    r.bytes(v);
    std::uint16_t version = std::uint16_t(v[0] | v[1] << 8);
    if (version < 3 || version > 6)
        r.fail("unsupported gbx version " + std::to_string(version), start);
    std::uint8_t format[4];
    r.bytes({format, version >= 4 ? 4u : 3u});
    r.u32();  // class ID
    if (version >= 6) {
        std::uint64_t at = r.position();
        std::uint32_t userDataSize = r.u32();
        r.checkLeft(userDataSize, at);
        Bytes userData(userDataSize);
        r.bytes(userData);
    }
    r.u32();  // numNodes
    return out;
}

std::map<std::uint32_t, Bytes> readMetadataRecords(ByteSource& source, std::size_t numEntries,
                                                   const std::string& context) {
    std::map<std::uint32_t, Bytes> records;
    FieldReader r(source, context);
    while (true) {
        std::uint64_t at = r.position();
        std::int32_t index = r.i32();
        if (index == -1) break;
        if (index < 0 || std::size_t(index) >= numEntries)
            r.fail("record for file index " + std::to_string(index) + " out of range", at);
        records[std::uint32_t(index)] = readDatalessGbx(source, context);
    }
    return records;
}

std::map<std::uint32_t, std::uint32_t> metadataRecordOffsets(
    const std::map<std::uint32_t, Bytes>& records) {
    std::map<std::uint32_t, std::uint32_t> offsets;
    std::uint64_t at = 0;
    for (const auto& [index, gbx] : records) {
        offsets.emplace_hint(offsets.end(), index, std::uint32_t(at));
        at += 4 + gbx.size();
    }
    return offsets;
}

Bytes writeMetadataRecords(const std::map<std::uint32_t, Bytes>& records) {
    Bytes out;
    ByteWriter w(out);
    for (const auto& [index, gbx] : records) {
        w.u32(index);
        w.bytes(gbx);
    }
    w.u32(0xFFFFFFFFu);
    return out;
}

}  // namespace pakfs::archive
