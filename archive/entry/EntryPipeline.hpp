// SPDX-License-Identifier: GPL-2.0-or-later
// The game's read pipeline for one entry of a pak (codec/Streams.hpp's PipelineSpec filled in).
#pragma once

#include "archive/codec/Streams.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// The game's pipeline for an entry: its ciphertext, cipher, IV and codec, named after the pak
// and the entry. Reads the IV.
PipelineSpec entryPipelineSpec(const PakIndex& pak, const PakEntry& entry);

}  // namespace pakfs::archive
