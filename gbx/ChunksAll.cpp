// SPDX-License-Identifier: GPL-2.0-or-later
#include "gbx/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerAll(ChunkRegistry& reg) {
    registerChallenge(reg);
    registerCollector(reg);
    registerMedia(reg);
    registerMediaLater(reg);
    registerMapLater(reg);
    registerGhost(reg);
    registerGhostLater(reg);
    registerMisc(reg);
    registerPlugSolid(reg);
    registerPlugVisual(reg);
    registerPlugSurface(reg);
    registerPlugShader(reg);
    registerPlugBitmap(reg);
    registerControl(reg);
    registerBlockInfo(reg);
    registerBlockInfoVariant(reg);
    registerMacroBlock(reg);
    registerItem(reg);
    registerItemEntity(reg);
    registerPlugMesh(reg);
    registerPlugMaterialInst(reg);
    registerPlugSkel(reg);
    registerCrystal(reg);
    registerPlugPrefab(reg);
    registerPlugObject(reg);
    registerItemPlacement(reg);
    registerPlugLight(reg);
    registerFunc(reg);
    registerControlLater(reg);
    registerMwRefBuffer(reg);
    registerGameZone(reg);
    registerGameVehicle(reg);
}

void registerAllHeader(ChunkRegistry& reg) {
    registerChallengeHeader(reg);
    registerCollectorHeader(reg);
    registerGhostHeader(reg);
}

}  // namespace pakfs::gbx::chunks

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
