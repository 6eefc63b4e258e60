// SPDX-License-Identifier: GPL-2.0-or-later
#include "gbx/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerAll(ChunkRegistry& reg) {
    registerChallenge(reg);
    registerCollector(reg);
    registerMedia(reg);
    registerGhost(reg);
    registerMisc(reg);
    registerPlug(reg);
    registerControl(reg);
    registerBlockInfo(reg);
}

void registerAllHeader(ChunkRegistry& reg) {
    registerChallengeHeader(reg);
    registerCollectorHeader(reg);
    registerGhostHeader(reg);
}

}  // namespace pakfs::gbx::chunks
