// SPDX-License-Identifier: GPL-2.0-or-later
// Reading any entry byte-exactly: plain entries by PlainEntryReader, gbx entries whose node
// reads mix the cipher through the game's pipeline (GbxEntry.hpp).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// The whole content of an entry, byte-exact; gbx entries go through the game's pipeline.
// Throws Error naming the pak and entry when it cannot be decoded exactly.
Bytes readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                const GbxDecodeOptions& gbx = {});

// Whether `entry` decodes to exactly `content` (an entry that cannot be decoded does not): the
// test for keeping an entry's encrypted bytes when a file is packed again.
bool entryDecodesTo(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                    ByteSpan content);

// Streams an entry's content in pieces to `sink` (plain entries without holding them whole).
// A gbx entry comes whole, decoded by decodeGbxEntryProven with `gbx`; one it returns
// unverified (only when gbx.unverified) is reported to `warn` first. A counter-mode entry
// nothing proves is read only with gbx.unverified, and reported to `warn` once read.
void readEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
               const std::function<void(ByteSpan)>& sink, const GbxDecodeOptions& gbx = {},
               const std::function<void(const std::string&)>& warn = {});

}  // namespace pakfs::archive
