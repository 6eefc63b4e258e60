// SPDX-License-Identifier: GPL-2.0-or-later
// Internal: the groups of chunk readers the built-in ChunkRegistry objects are made of.
#pragma once

#include "gbx/NodeReader.hpp"

namespace pakfs::gbx::chunks {

void registerAll(ChunkRegistry& reg);
void registerAllHeader(ChunkRegistry& reg);

void registerChallenge(ChunkRegistry& reg);    // CGameCtnChallenge and the classes of maps
void registerCollector(ChunkRegistry& reg);    // collectors, object info, decoration, collection
void registerMedia(ChunkRegistry& reg);        // media clips, tracks, blocks, CControlEffectSimi
void registerMediaLater(ChunkRegistry& reg);   // later media blocks, data tapes
void registerMapLater(ChunkRegistry& reg);     // what later maps' blocks hold
void registerGhost(ChunkRegistry& reg);        // ghosts and replays
void registerGhostLater(ChunkRegistry& reg);   // the later games' ghost chunks
void registerMisc(ChunkRegistry& reg);         // CMwNod, skins, profiles
void registerPlugSolid(ChunkRegistry& reg);    // solids and their trees
void registerPlugVisual(ChunkRegistry& reg);   // visuals, vertex streams, index buffers
void registerPlugSurface(ChunkRegistry& reg);  // collision surfaces
void registerPlugShader(ChunkRegistry& reg);   // materials, shaders, shader passes
void registerPlugBitmap(ChunkRegistry& reg);   // bitmaps, samplers, bitmap fonts
void registerControl(ChunkRegistry& reg);      // control styles and the icon lists they hold
void registerBlockInfo(ChunkRegistry& reg);    // block infos, blocks of TM 1.0, scene mobils
void registerItem(ChunkRegistry& reg);         // the models an item holds (GameData, 2E)
void registerItemEntity(ChunkRegistry& reg);   // item entity models, older item model chunks
void registerBlockInfoVariant(ChunkRegistry& reg);  // block info variants, mobils, clips, pylons
void registerMacroBlock(ChunkRegistry& reg);        // macroblocks, waypoint properties
void registerPlugMesh(ChunkRegistry& reg);          // meshes (CPlugSolid2Model)
void registerPlugMaterialInst(ChunkRegistry& reg);  // material instances (CPlugMaterialUserInst)
void registerPlugSkel(ChunkRegistry& reg);          // skeletons (CPlugSkel)
void registerCrystal(ChunkRegistry& reg);           // crystals (CPlugCrystal) and their layers
void registerPlugPrefab(ChunkRegistry& reg);        // prefabs and their entities' parameters
void registerPlugObject(ChunkRegistry& reg);        // static and dynamic object models, wagons
void registerItemPlacement(ChunkRegistry& reg);     // item placement classes, mobil dyna links
void registerPlugLight(ChunkRegistry& reg);         // CPlugLight and the Graphic light models
void registerFunc(ChunkRegistry& reg);              // curves (CFuncKeys*) and light functions
void registerControlLater(ChunkRegistry& reg);      // control effect masters, frames, cards
void registerMwRefBuffer(ChunkRegistry& reg);       // node buffers (CMwRefBuffer)
void registerGameZone(ChunkRegistry& reg);          // a collection's zones (CGameCtnZone*)
void registerGameVehicle(ChunkRegistry& reg);       // vehicle models (CGameVehicleModel)

// Shapes several groups read.

// u32 count, then that many node references; returns the count.
inline std::uint32_t refArray(NodeReader& r) {
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
    return n;
}

// n floats, skipped (kept by no reader).
inline void floats(NodeReader& r, std::uint32_t n) {
    r.skip(std::uint64_t(n) * 4);
}

// A number as the notes print it.
inline std::string num(std::uint64_t v) {
    return std::to_string(v);
}

// A 3x3 rotation and a translation: 12 floats.
inline void iso4(NodeReader& r) {
    r.skip(48);
}

// A boolean stored in one byte: 0 or 1, anything else refused naming `what` and the offset.
inline bool byteBool(NodeReader& r, const char* what) {
    std::uint8_t b = r.u8();
    if (b > 1)
        r.fail(std::string(what) + ": boolean byte at " + num(r.position() - 1) + " is " + num(b));
    return b != 0;
}

// A chunk's or structure's version, refused above the highest any source describes.
inline std::uint32_t version(NodeReader& r, std::uint32_t highest, const char* what) {
    std::uint32_t v = r.u32();
    if (v > highest)
        r.refuseVersion(std::string(what) + " version " + std::to_string(v) + " not supported (" +
                        std::to_string(highest) + " is the highest any source describes)");
    return v;
}

// A ghost's badge (SBadge), which media entity blocks hold too (ChunksGhost.cpp).
void ghostBadge(NodeReader& r);
// A ghost's inputs and validation fields after the events duration (ChunksGhost.cpp); the
// duration is kept in the node's variable kEventsDurationVar.
void ghostValidationInputs(NodeReader& r);
inline constexpr const char* kEventsDurationVar = "ghost events duration";

void registerChallengeHeader(ChunkRegistry& reg);
void registerCollectorHeader(ChunkRegistry& reg);
void registerGhostHeader(ChunkRegistry& reg);  // replay header chunks

}  // namespace pakfs::gbx::chunks
