// SPDX-License-Identifier: GPL-2.0-or-later
// The header chunks' readers and what each header chunk holds.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gbx/Header.hpp"
#include "gbx/NodeReader.hpp"

namespace pakfs::gbx {

struct HeaderChunkInfo {
    std::uint32_t id = 0;
    bool known = false;  // a reader exists for it
    bool ok = false;     // read, and the reader took exactly the chunk's size
    std::string error;
    std::vector<std::pair<std::string, std::string>> values;
};

// Reads each header chunk with its reader, each with a fresh lookback string state (the state
// is reset after every header chunk). Problems are recorded per chunk, never thrown.
std::vector<HeaderChunkInfo> decodeHeaderChunks(
    const GbxHeader& header, const ClassRegistry& classes = ClassRegistry::builtin(),
    const ChunkRegistry& chunks = ChunkRegistry::builtinHeader());

}  // namespace pakfs::gbx
