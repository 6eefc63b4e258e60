// SPDX-License-Identifier: GPL-2.0-or-later
// Telling a gbx entry from a plain one: the entry-kind decision every reader makes.
#pragma once

#include "archive/pak/PakIndex.hpp"
#include "common/Bytes.hpp"

namespace pakfs::archive {

// Whether the entry's content starts with "GBX" (decodes only its first segment).
bool isGbxEntry(const PakIndex& pak, const PakEntry& entry);

// The entry-kind decision of a reader that has the entry's first bytes (`head`, up to 3, as a
// plain read gave them): not "GBX" is plain, without a read of the first segment; "GBX" is
// gbx when isGbxEntry's exact rule says so (the "GBX" comes out of the first segment).
bool isGbxEntryHead(const PakIndex& pak, const PakEntry& entry, ByteSpan head);

}  // namespace pakfs::archive
