// SPDX-License-Identifier: GPL-2.0-or-later
// The metadata section: {u32 fileIndex, dataless gbx} records ended by -1, zlib-compressed
// and encrypted, padded to whole 256-byte segments.
#pragma once

#include <map>

#include "common/ByteSource.hpp"

namespace pakfs::archive {

// Reads records until -1; each index must be < numEntries.
std::map<std::uint32_t, Bytes> readMetadataRecords(ByteSource& source, std::size_t numEntries,
                                                   const std::string& context);
// The plaintext of the section (records and the -1 terminator), in file index order.
Bytes writeMetadataRecords(const std::map<std::uint32_t, Bytes>& records);
// Where writeMetadataRecords puts each file's record: the byte offset of its fileIndex field in
// the plaintext section, by file index.
std::map<std::uint32_t, std::uint32_t> metadataRecordOffsets(
    const std::map<std::uint32_t, Bytes>& records);

// Version 3: the file table's field after a file's name (PakEntry::unknown) holds the offset of
// the file's record in the plaintext section, or this for a file without one, as the game's
// writer fills it (doc/FORMAT.md §2.3).
inline constexpr std::uint32_t kNoMetadataRecord = 0xFFFFFFFFu;

// Reads one dataless gbx (the header up to and including numNodes) and returns its bytes.
Bytes readDatalessGbx(ByteSource& source, const std::string& context);

}  // namespace pakfs::archive
