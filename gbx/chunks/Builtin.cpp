// SPDX-License-Identifier: GPL-2.0-or-later
// The built-in chunk registries, made from the listed groups of readers (ChunkReaders.hpp).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx {

// The built-in registries are made here, from the groups, so the node reader below them
// needs no chunk reader.
const ChunkRegistry& ChunkRegistry::builtin() {
    static const ChunkRegistry reg = [] {
        ChunkRegistry r;
        chunks::registerAll(r);
        return r;
    }();
    return reg;
}

const ChunkRegistry& ChunkRegistry::builtinHeader() {
    static const ChunkRegistry reg = [] {
        ChunkRegistry r;
        chunks::registerAllHeader(r);
        return r;
    }();
    return reg;
}

}  // namespace pakfs::gbx
