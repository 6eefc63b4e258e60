// SPDX-License-Identifier: GPL-2.0-or-later
// Internal: the groups of chunk readers the built-in ChunkRegistry is made of.
#pragma once

#include "gbx/NodeReader.hpp"

namespace pakfs::gbx::chunks {

void registerAll(ChunkRegistry& reg);
void registerChallenge(ChunkRegistry& reg);  // CGameCtnChallenge and its helper classes
void registerCollector(ChunkRegistry& reg);  // collectors, object info, decoration, collection
void registerMedia(ChunkRegistry& reg);      // media clips, tracks, blocks, CControlEffectSimi
void registerGhost(ChunkRegistry& reg);      // ghosts and replays
void registerMisc(ChunkRegistry& reg);       // CMwNod, skins, profiles, system config

}  // namespace pakfs::gbx::chunks
