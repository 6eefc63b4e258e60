// SPDX-License-Identifier: GPL-2.0-or-later
// Macroblocks of ManiaPlanet and Trackmania 2020 (CGameCtnMacroBlockInfo 0310D000, a collector),
// the auto terrains they hold and the script metadata of the waypoint property their blocks and
// objects hold (CGameWaypointSpecialProperty 2E009001).
// Layouts: [G] GBX.NET, Engines/Game/CGameCtnMacroBlockInfo.chunkl and .cs,
// Engines/GameData/CGameWaypointSpecialProperty.chunkl and .cs. In [G]'s notation a "list" and
// an array are a u32 count then the elements, "data" is a u32 size then the bytes, a "_deprec"
// array has a u32 array version before its count, an encapsulated part is a u32 0, a u32 size,
// then that many bytes read with their own lookback strings and index-less node references.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The encapsulated script metadata (CScriptTraitsMetadata) of 0310D00B and 2E009001: u32 0,
// u32 size, then the node's chunks, taken whole by size as the map's 03043044 takes them.
void scriptMetadata(NodeReader& r) {
    r.u32();
    std::uint32_t size = r.u32();
    r.encapsulated([&] { r.skip(size); });
}

// One block of the macroblock ([G] archive BlockSpawn): version 8 is the highest described.
void blockSpawn(NodeReader& r) {
    std::uint32_t v = version(r, 8, "macroblock block spawn");
    std::string model;
    r.meta(&model);
    r.note("block", model);
    if (v < 2) {
        r.skip(12);  // coordinates
        r.u32();     // direction
        return;
    }
    if (v < 5) r.skip(4);  // byte coordinates, byte direction
    std::uint32_t flags = r.u32();
    if (v < 3) return;
    if (v >= 5) {
        if ((flags >> 26) & 1)
            r.skip(24);  // free block: absolute position, pitch yaw roll
        else
            r.skip(4);  // byte coordinates, byte direction
    }
    r.nodeRef();  // waypoint property
    if (v < 4) return;
    if (v < 6) r.nodeRef();
    if (v >= 8) r.u16();
}

// One free-placed item ([G] archive ObjectSpawn): version 14 is the highest described.
void objectSpawn(NodeReader& r) {
    std::uint32_t v = version(r, 14, "macroblock object spawn");
    std::string model;
    r.meta(&model);
    r.note("item", model);
    if (v < 3) {
        r.u8();              // quarter y
        if (v >= 1) r.u8();  // additional direction
    } else {
        r.vec3();  // pitch yaw roll
    }
    r.skip(12);    // block coordinates
    r.lookback();  // anchor tree ID
    r.vec3();      // absolute position
    if (v < 5) r.u32();
    if (v < 6) {
        r.u32();
        return;
    }
    r.u16();
    if (v < 7) return;
    r.vec3();  // pivot position
    if (v < 8) return;
    r.nodeRef();  // waypoint property
    if (v < 9) return;
    r.f32();  // scale
    if (v < 10) return;
    r.skip(12);
    if (v < 11) return;
    r.u8();
    r.u8();
    if (v < 12) return;
    r.u8();
    if (v < 13) return;
    bool pack = r.u8() != 0;
    bool foreground = r.u8() != 0;
    if (pack) r.fileRef();
    if (foreground) r.fileRef();
    if (v < 14) return;
    r.u32();
}

void macroBlock(ChunkRegistry& reg) {
    reg.add(0x0310D000, false, [](NodeReader& r) {  // block spawns
        std::uint32_t n = r.count(8);
        for (std::uint32_t i = 0; i < n; ++i) blockSpawn(r);
    });
    reg.add(0x0310D001, false, [](NodeReader& r) {  // block skin spawns
        std::uint32_t n = r.count(12);
        for (std::uint32_t i = 0; i < n; ++i) {
            std::uint32_t v = r.u32();
            r.nodeRef();  // skin
            if (v == 0) r.skip(12);
            r.u32();  // index of its block spawn
        }
    });
    reg.add(0x0310D002, false, [](NodeReader& r) {  // card events spawns
        std::uint32_t n = r.count(20);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.u32();  // version
            std::uint32_t idents = r.count(12);
            for (std::uint32_t j = 0; j < idents; ++j) r.meta();
            r.skip(12);
        }
    });
    reg.add(0x0310D006, false, [](NodeReader& r) {
        r.u32();             // an int [G] writes as 2
        r.skip(r.count(1));  // data [G] does not name (scene decals?)
    });
    reg.add(0x0310D007, false, [](NodeReader& r) {  // clip groups in game, end race, a node
        r.nodeRef();
        r.nodeRef();
        r.nodeRef();
    });
    reg.add(0x0310D008, false, [](NodeReader& r) {
        r.u32();      // array version
        refArray(r);  // auto terrains
        r.u32();
        r.u32();
    });
    reg.add(0x0310D00B, true, scriptMetadata);
    reg.add(0x0310D00C, true, [](NodeReader& r) {  // splines
        std::uint32_t v = version(r, 2, "macroblock 0310D00C");
        if (v == 2) return;
        if (v == 0) {
            for (int i = 0; i < 4; ++i) {  // nodes, 3D splines, nodes, nodes
                r.u32();                   // array version
                refArray(r);
            }
            r.skip(12);
        }
        r.u32();  // array version
        refArray(r);
    });
    reg.add(0x0310D00D, false, [](NodeReader& r) { r.u32(); });  // version
    reg.add(0x0310D00E, false, [](NodeReader& r) {               // object spawns
        std::uint32_t v = version(r, 3, "macroblock 0310D00E");
        std::uint32_t n = r.count(8);
        for (std::uint32_t i = 0; i < n; ++i) objectSpawn(r);
        if (v >= 1 && v <= 2) r.skipArray(8);
        if (v >= 3) r.skipArray(16);
    });
    reg.add(0x0310D00F, false, [](NodeReader& r) {
        r.u32();  // version
        r.skip(24);
        r.skipArray(12);
    });
    reg.add(0x0310D010, true, [](NodeReader& r) {
        r.u32();  // version
        r.u32();  // icon size
    });
    reg.add(0x0310D011, true, [](NodeReader& r) {  // media clips
        r.u32();                                   // version
        r.u32();
        r.u32();  // size
        r.encapsulated([&] {
            r.skip(24);   // two int3 [G] does not name
            r.nodeRef();  // clip group in game
            r.nodeRef();  // clip group end race
        });
    });
}

// The auto terrains of 0310D008 (CGameCtnAutoTerrain 03120000, [G]
// Game/CGameCtnAutoTerrain.chunkl) and the zone genealogy each holds (CGameCtnZoneGenealogy
// 0311D000, [G] Game/CGameCtnZoneGenealogy.chunkl).
void autoTerrain(ChunkRegistry& reg) {
    reg.add(0x03120001, false, [](NodeReader& r) {
        r.skip(12);   // offset
        r.nodeRef();  // genealogy
    });
    reg.add(0x0311D001, false, [](NodeReader& r) {
        r.u32();  // current index
        r.u32();  // direction
    });
    reg.add(0x0311D002, false, [](NodeReader& r) {
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.lookback();  // zone IDs
        r.u32();                                             // current index
        r.u32();                                             // direction
        r.lookback();                                        // current zone ID
    });
}

void waypoint(ChunkRegistry& reg) {
    // 2E009000 is read with the map classes (chunks/game/Challenge.cpp).
    reg.add(0x2E009001, true, [](NodeReader& r) {
        r.u32();  // version
        if (r.boolean()) scriptMetadata(r);
    });
}

}  // namespace

void registerMacroBlock(ChunkRegistry& reg) {
    macroBlock(reg);
    autoTerrain(reg);
    waypoint(reg);
}

}  // namespace pakfs::gbx::chunks
