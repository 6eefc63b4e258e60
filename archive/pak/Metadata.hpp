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
// The plaintext of the section (records and the -1 terminator).
Bytes writeMetadataRecords(const std::map<std::uint32_t, Bytes>& records);

// Reads one dataless gbx (the header up to and including numNodes) and returns its bytes.
Bytes readDatalessGbx(ByteSource& source, const std::string& context);

}  // namespace pakfs::archive
