// SPDX-License-Identifier: GPL-2.0-or-later
// The parts of a ManiaPlanet or Trackmania 2020 block info: its variants (CGameCtnBlockInfoVariant
// 0315B000, ground 0315C000, air 0315D000), their mobils (CGameCtnBlockInfoMobil 03122000), and the
// block info kinds with chunks of their own: clips (CGameCtnBlockInfoClip 03053000, horizontal
// 0335B000, vertical 03340000), pylons (03055000) and frontiers (03050000).
// Layouts: [G] GBX.NET, Engines/Game/CGameCtnBlockInfoVariant.chunkl and .cs,
// CGameCtnBlockInfoVariantGround.chunkl, CGameCtnBlockInfoMobil.chunkl,
// CGameCtnBlockInfoMobilLink.cs, CGameCtnBlockInfoClip.chunkl, CGameCtnBlockInfoClipHorizontal
// .chunkl, CGameCtnBlockInfoClipVertical.chunkl, CGameCtnBlockInfoPylon.chunkl,
// CGameCtnBlockInfoFrontier.chunkl.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The form [G] calls "_deprec": an array version, then a count of node references.
void refArrayVersioned(NodeReader& r) {
    r.u32();
    refArray(r);
}

// What 0315B000 and 0315B008 share before the spawn: the unit infos, an int and four manual
// symmetry flags.
void variantUnits(NodeReader& r) {
    refArray(r);  // block unit models
    r.u32();
    for (int i = 0; i < 4; ++i) r.boolean();  // manual symmetry H, V, D1, D2
}

// The flock emitter state of 0315B006: its own version, two floats, an int, two bools, from
// version 1 a 3x3 matrix, then a position.
void flockEmitterState(NodeReader& r) {
    std::uint32_t v = version(r, 1, "block info variant 0315B006 flock emitter state");
    r.skip(12);
    r.boolean();
    r.boolean();
    if (v >= 1) r.skip(36);
    r.vec3();
}

// 0315B006: trigger solids and shapes, then the gameplay models, one more per version.
void variantModels(NodeReader& r) {
    std::uint32_t v = version(r, 11, "block info variant 0315B006");
    if (v <= 8) r.nodeRef();
    r.nodeRef();  // screen interaction trigger solid
    r.nodeRef();  // waypoint trigger solid
    if (v >= 11) {
        r.nodeRef();
        r.nodeRef();
    }
    if (v <= 8) r.u32();
    if (v < 2) return;
    r.nodeRef();  // gate
    if (v < 3) return;
    r.nodeRef();  // teleporter
    if (v < 5) return;
    r.nodeRef();  // capture zone
    if (v < 6) return;
    r.nodeRef();  // turbine
    if (v < 7) return;
    if (r.nodeRef().kind != RefKind::Null) flockEmitterState(r);  // flock model
    if (v < 8) return;
    r.nodeRef();  // spawn model
    if (v < 10) return;
    refArray(r);  // entity spawners
}

// 0315B009: placed pillars (a reference and four ints each), from version 1 the replaced ones
// (the same and a byte).
void variantPillars(NodeReader& r) {
    std::uint32_t v = version(r, 1, "block info variant 0315B009");
    std::uint32_t placed = r.count(20);
    for (std::uint32_t i = 0; i < placed; ++i) {
        r.nodeRef();
        r.skip(16);
    }
    if (v < 1) return;
    std::uint32_t replaced = r.count(21);
    for (std::uint32_t i = 0; i < replaced; ++i) {
        r.nodeRef();
        r.skip(17);
    }
}

// 0315B00B: water volumes, each integer boxes, seven floats and from version 1 an ID.
void variantWater(NodeReader& r) {
    std::uint32_t v = version(r, 1, "block info variant 0315B00B");
    std::uint32_t volumes = r.count(32);
    for (std::uint32_t i = 0; i < volumes; ++i) {
        r.skipArray(24);  // boxes: six ints
        floats(r, 7);
        if (v >= 1) r.lookback();
    }
}

void variant(ChunkRegistry& reg) {
    reg.add(0x0315B000, false, [](NodeReader& r) {
        variantUnits(r);
        iso4(r);  // spawn location
        r.string("name");
    });
    reg.add(0x0315B002, false, [](NodeReader& r) { r.u32(); });  // multi dir
    reg.add(0x0315B003, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 2, "block info variant 0315B003");
        r.u32();  // symmetrical variant index
        if (v == 0) {
            r.u32();  // cardinal direction
            return;
        }
        r.u8();              // cardinal direction
        r.u8();              // variant base type
        if (v >= 2) r.u8();  // no pillar below index
    });
    reg.add(0x0315B004, false, [](NodeReader& r) { r.u16(); });
    reg.add(0x0315B005, false, [](NodeReader& r) {  // mobils per sub-variant, helper solids
        std::uint32_t v = version(r, 3, "block info variant 0315B005");
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) refArray(r);
        r.nodeRef();
        r.nodeRef();
        if (v >= 3) r.u32();
    });
    reg.add(0x0315B006, false, variantModels);
    reg.add(0x0315B007, false, [](NodeReader& r) {
        r.u32();      // version
        r.nodeRef();  // probe
    });
    reg.add(0x0315B008, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 2, "block info variant 0315B008");
        variantUnits(r);
        r.skip(v <= 1 ? 20 : 24);  // spawn: translation, yaw, pitch (and from 2 a roll)
        r.string("name");
    });
    reg.add(0x0315B009, false, variantPillars);
    reg.add(0x0315B00A, false, [](NodeReader& r) {  // compound model
        // [G] marks the location after the model in version 2 as a guess, so later versions,
        // which it reads without one, stop.
        std::uint32_t v = version(r, 2, "block info variant 0315B00A");
        if (v <= 1) {
            r.nodeRef();
            r.nodeRef();
            if (v == 1) iso4(r);
            return;
        }
        r.nodeRef();
        iso4(r);
    });
    reg.add(0x0315B00B, false, variantWater);
    reg.add(0x0315B00C, false, [](NodeReader& r) {
        r.u32();  // version
        if (std::uint32_t n = r.u32())
            r.fail("block info variant 0315B00C: " + std::to_string(n) +
                   " element(s) whose layout no source gives");
    });
    reg.add(0x0315B00D, false, [](NodeReader& r) { r.skip(8); });

    // CGameCtnBlockInfoVariantGround 001: auto terrains, their height offset and place type.
    reg.add(0x0315C001, false, [](NodeReader& r) {
        r.u32();  // version
        refArrayVersioned(r);
        r.u32();
        r.u32();
    });
}

// CGameCtnBlockInfoMobil 003: the mobil's solid, prefab, paths and effects, by version.
void mobilSolid(NodeReader& r) {
    std::uint32_t v = version(r, 23, "block info mobil 03122003");
    if (v <= 1) {
        r.boolean();
        if (v == 0) r.nodeRef();  // old mobil
    }
    r.u32();  // solid frequency
    if (v < 1) return;
    if (r.u8()) r.skip(24);  // geometry translation and rotation
    if (v < 2) return;
    if (r.nodeRef().kind == RefKind::Null) r.nodeRef();  // solid, else an old mobil
    if (v >= 14) r.nodeRef();                            // prefab
    if (v < 3) return;
    r.nodeRef();  // old solid aggregate
    if (v < 5) return;
    if (v == 5) refArray(r);  // poly lines
    if (v <= 10) r.boolean();
    if (v < 6) return;
    r.nodeRef();  // rail path
    if (v < 7) return;
    if (v <= 22) r.nodeRef();  // traffic path
    if (v >= 15) r.nodeRef();
    if (v < 8) return;
    if (v <= 12) r.u32();
    if (v < 9) return;
    if (v <= 22) r.u32();  // road chunks: the array version before version 23
    refArray(r);           // road chunks
    if (v < 10) return;
    if (v <= 12) r.u32();
    if (v == 12) r.u32();
    if (v < 16) return;
    if (v <= 22) r.nodeRef();  // citizen network path
    if (v < 17) return;
    refArray(r);
    if (v < 18) return;
    r.nodeRef();  // effects
    std::uint8_t kind = r.u8();
    if (kind <= 1) r.f32();
    if (v == 18) iso4(r);
    if (v >= 19) r.skip(24);
    r.f32();
    if (v < 20) return;
    refArray(r);
    if (v < 21) return;
    r.nodeRef();
}

void mobil(ChunkRegistry& reg) {
    reg.add(0x03122002, false, [](NodeReader& r) {
        refArrayVersioned(r);  // solid decals
        r.u32();
    });
    reg.add(0x03122003, false, mobilSolid);
    reg.add(0x03122004, false, [](NodeReader& r) {  // dyna links
        r.u32();                                    // version
        r.u32();                                    // array version
        refArray(r);  // links (CGameCtnBlockInfoMobilLink, read by its class body)
    });
}

void clip(ChunkRegistry& reg) {
    reg.add(0x03053002, false, [](NodeReader& r) { r.lookback(); });  // asymmetrical clip
    reg.add(0x03053004, false, [](NodeReader& r) {                    // full, exclusive free
        r.boolean();
        r.boolean();
    });
    reg.add(0x03053005, false, [](NodeReader& r) { r.u32(); });  // clip type
    reg.add(0x03053006, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 4, "block info clip 03053006");
        r.boolean();  // can be deleted by a full free clip
        if (v >= 1) r.u32();
        if (v >= 2) r.u8();
        if (v >= 3) r.u8();
        if (v >= 4) r.u8();
    });
    reg.add(0x03053007, false, [](NodeReader& r) {  // passing point
        r.u32();                                    // version
        if (r.boolean()) r.skip(16);                // position, roll, pitch
    });
    reg.add(0x03053008, true, [](NodeReader& r) {  // clip groups
        std::uint32_t v = version(r, 1, "block info clip 03053008");
        r.lookback();
        r.lookback();
        if (v < 1) return;
        r.lookback();
        r.lookback();
    });
    for (std::uint32_t id : {0x0335B000u, 0x03340000u})  // horizontal, vertical clip group
        reg.add(id, false, [](NodeReader& r) {
            r.u32();  // version
            r.lookback();
        });
}

}  // namespace

void registerBlockInfoVariant(ChunkRegistry& reg) {
    variant(reg);
    mobil(reg);
    clip(reg);
    // CGameCtnBlockInfoPylon: three references, then offset, amount, placement, height offset.
    reg.add(0x03055000, false, [](NodeReader& r) {
        r.nodeRef();
        r.nodeRef();
        r.nodeRef();
    });
    reg.add(0x03055002, false, [](NodeReader& r) { r.skip(16); });
    reg.add(0x03050000, false, [](NodeReader& r) { r.boolean(); });  // CGameCtnBlockInfoFrontier
}

}  // namespace pakfs::gbx::chunks
