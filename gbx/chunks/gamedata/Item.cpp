// SPDX-License-Identifier: GPL-2.0-or-later
// The models a ManiaPlanet or Trackmania 2020 item (CGameItemModel) holds, of the GameData engine
// (2E): physics model (CGameObjectPhyModel 2E006000), visual model (CGameObjectVisModel
// 2E007000), object model (CGameObjectModel 2E01D000), block item (CGameBlockItem 2E025000),
// placement parameters (CGameItemPlacementParam 2E020000), and the one Plug class only they hold,
// the visual model's location animation (CPlugAnimLocSimple 090F8000).
// Layouts: [G] GBX.NET, Engines/GameData/CGameObjectPhyModel.chunkl and .cs,
// CGameObjectVisModel.chunkl and .cs, CGameObjectModel.chunkl, CGameBlockItem.chunkl and .cs,
// CGameItemModel.chunkl, CGameItemPlacementParam.chunkl, and Engines/Plug/
// CPlugAnimLocSimple.chunkl with the archives they name, CPlugTriggerAction.chunkl and
// CPlugDynaPointModel.chunkl.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// A trigger of 2E006001 ([G] CPlugTriggerAction archive), in the trigger action version the
// chunk gives.
void triggerAction(NodeReader& r, std::uint32_t v) {
    if (v >= 5) r.u32();
    if (v >= 4) r.skip(16);
    if (v >= 3) r.u32();
    if (v >= 2) r.u32();
    if (v >= 1) r.skip(8);
    r.skip(24);
    r.lookback();
}

// CGameObjectPhyModel 001: the shapes, triggers and gameplay settings. Version 25 is the highest
// [G] describes.
void phyModel(NodeReader& r) {
    std::uint32_t v = version(r, 25, "physics model 2E006001");
    if (v < 11) {  // move, hit and trigger shapes
        r.nodeRef();
        r.nodeRef();
        r.nodeRef();
    }
    std::uint32_t triggerVersion = v >= 8 ? r.u32() : 5;
    std::uint32_t triggers = r.count(28);
    for (std::uint32_t i = 0; i < triggers; ++i) triggerAction(r, triggerVersion);
    if (v < 14) r.nodeRef();
    if (v < 2) return;
    std::string moveShape = r.string("move shape");
    std::string hitShape;
    if (v >= 4) hitShape = r.string("hit shape");
    if (v < 3) return;
    if (r.boolean()) r.skip(32);  // dyna point model: eight ints
    if (v < 5) return;
    r.u32();  // program
    if (v < 6) return;
    if (v < 22 || byteBool(r, "physics model 2E006001")) iso4(r);
    if (v < 7) return;
    std::string triggerShape = r.string("trigger shape");
    if (v < 9) return;
    std::string actionModel;
    if (v >= 13) actionModel = r.string("action model");
    if (actionModel.empty()) refArray(r);  // actions
    if (v >= 21) r.nodeRef();
    if (v < 11) return;
    // The shapes stored by name above are not stored again as nodes.
    if (moveShape.empty()) r.nodeRef();
    if (hitShape.empty()) r.nodeRef();
    if (triggerShape.empty()) r.nodeRef();
    if (v < 12) return;
    if (r.string().empty()) r.nodeRef();
    if (v < 15) return;
    r.u32();
    if (v < 16) return;
    r.nodeRef();  // special properties
    if (v < 17) return;
    r.u32();  // persistence
    if (v < 18) return;
    r.boolean();  // can stop enemy
    r.boolean();  // can stop enemy bullet
    if (v < 19) return;
    r.f32();  // throw speed
    r.f32();  // throw angular speed
    r.u32();  // armor
    r.boolean();
    r.u32();  // life time duration
    r.f32();  // scale coefficient max
    r.f32();  // stamina spawn coefficient
    r.u32();  // time before dome
    for (int i = 0; i < 5; ++i) r.boolean();
    r.boolean();  // heal enabled
    r.u32();      // heal armor gain per second
    r.boolean();  // shield enabled
    r.u32();      // shield dome armor
    if (v < 20) return;
    r.boolean();
    if (v < 23) return;
    r.boolean();  // bumper enabled
    if (v < 24) return;
    r.boolean();  // magnet enabled
    if (v < 25) return;
    r.nodeRef();
}

// CGameObjectVisModel 001: the mesh (by name or as a node), animations, sounds, particles.
// Version 22 is the highest [G] describes.
void visModel(NodeReader& r) {
    std::uint32_t v = version(r, 22, "visual model 2E007001");
    if (v < 9) {
        r.nodeRef();
    } else {
        std::string mesh = r.string("mesh");
        r.note("mesh", mesh);
        if (mesh.empty()) r.nodeRef();  // the shaded mesh
    }
    if (v < 18) r.nodeRef();
    if (v >= 2) {
        if (v < 9) r.note("mesh", r.string("mesh"));
        r.nodeRef();  // location animation
        // Light ball states: [G] counts them here (SPlugLightBallStateSimple) and gives the
        // state's layout in its item entity model edition (2E026000): an int and seven floats.
        // The one game file at hand with a state fits exactly that size.
        r.skipArray(32);
    }
    if (v < 17)
        for (int i = 0; i < 3; ++i) r.string("sound");  // spawn, unspawn, grab
    if (v < 10) return;
    bool named = !r.string().empty();
    if (v >= 11 && named) r.skip(12);
    if (v < 12) return;
    if (!r.string("smash particle").empty()) r.lookback();
    if (v < 13) return;
    r.u32();
    r.u32();
    if (v < 14) return;
    if (r.string("solid").empty()) r.nodeRef();
    if (v < 16) return;
    r.nodeRef();  // particle emitter model
    if (v < 19) return;
    r.f32();
    if (v < 20) return;
    if (r.string("visual entity effect").empty()) r.nodeRef();
    if (v < 21) return;
    r.nodeRef();  // shaded mesh file
    if (v < 22) return;
    r.vec3();  // dome shader colour
}

void objectModels(ChunkRegistry& reg) {
    reg.add(0x2E006001, false, phyModel);
    reg.add(0x2E006003, false, [](NodeReader& r) {
        // [G] reads a bool and stops when it is set: what follows it is not described.
        if (r.boolean())
            r.fail("physics model 2E006003: the data after a set flag is not described");
    });
    reg.add(0x2E007001, false, visModel);
    reg.add(0x2E007002, true, [](NodeReader& r) {
        r.u32();  // version
        for (int i = 0; i < 5; ++i) r.string("sound");
        iso4(r);  // location of the permanent sound
    });
    // CGameObjectModel 000: physics and visual models, then the inventory.
    reg.add(0x2E01D000, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 4, "object model 2E01D000");
        r.nodeRef();  // physics model
        r.nodeRef();  // visual model
        if (v < 1) return;
        r.u32();
        r.string("inventory name");
        r.string("inventory description");
        r.u32();  // inventory item class
        r.u32();  // inventory occupation
        if (v < 2) return;
        r.nodeRef();  // slave heal dome
        if (v < 3) return;
        r.nodeRef();  // slave shield dome
        if (v < 4) return;
        r.string("script ID");
    });
}

// CGameBlockItem 000: the block info it is made from and its variants' crystals, then (version
// 1) per variant the properties behind a byte flag.
void blockItem(NodeReader& r) {
    std::uint32_t v = version(r, 1, "block item 2E025000");
    r.note("archetype", r.lookback());
    r.lookback();  // the archetype's collection
    std::uint32_t variants = r.count(8);
    for (std::uint32_t i = 0; i < variants; ++i) {
        r.u32();      // ID
        r.nodeRef();  // crystal
    }
    if (v < 1 || !byteBool(r, "block item 2E025000")) return;
    for (std::uint32_t i = 0; i < variants; ++i) {
        std::uint8_t flags = r.u8();
        if (flags & 1) r.nodeRef();  // static object model (read by its class body)
        if (flags & 2) r.nodeRef();  // shape
        if (flags & 4) r.skip(24);   // aligned box: six floats
        if (flags & 8) r.vec3();
    }
}

// CGameItemModel's chunks after its model (019), [G] GameData/CGameItemModel.chunkl. They are
// registered under the ID of CGameCtnObjectInfo (0301C000) too, as its earlier chunks are.
void itemModelLater(ChunkRegistry& reg, std::uint32_t cls) {
    reg.add(cls | 0x01A, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(cls | 0x01B, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(cls | 0x01C, false, [](NodeReader& r) {  // default placement
        std::uint32_t v = r.u32();
        if (v >= 5) {
            r.nodeRef();  // placement parameters
            return;
        }
        r.skipArray(12);
        if (v >= 1) r.skip(6 * 4);
        if (v >= 2) r.skip(5 * 4);
        if (v >= 3) r.skip(2 * 4);
        if (v >= 4) r.f32();
    });
    reg.add(cls | 0x01D, false, [](NodeReader& r) { r.u16(); });
    reg.add(cls | 0x01E, false, [](NodeReader& r) {  // archetype
        std::uint32_t v = version(r, 7, "item model 2E00201E");
        if (v < 2) return;
        std::string archetype = r.string("archetype");
        if (!archetype.empty()) r.note("archetype", archetype);
        if (v < 5) return;
        if (archetype.empty()) r.nodeRef();
        if (v < 6) return;
        r.string("skin folder");
        if (v < 7) return;
        r.u32();
    });
    reg.add(cls | 0x01F, false, [](NodeReader& r) {  // waypoint type, lightmap
        // [G] reads the node of version 9 to 12 only: 13 is the first version it implies.
        std::uint32_t v = version(r, 13, "item model 2E00201F");
        if (v <= 6) {
            if (v >= 5) {
                r.string();
                r.string();
                r.u32();
            }
            if (v >= 4) r.u32();
            if (v <= 2) r.u16();
        }
        r.u32();  // waypoint type
        if (v <= 7) iso4(r);
        if (v < 6) return;
        r.boolean();  // disable lightmap
        if (v < 9) return;
        if (v <= 12) r.nodeRef();
        if (v < 11) return;
        r.u8();
        if (v < 12) return;
        r.u32();
        r.u32();
    });
    reg.add(cls | 0x020, false, [](NodeReader& r) {  // icon
        std::uint32_t v = version(r, 3, "item model 2E002020");
        r.string("icon");
        if (v <= 1) {
            r.nodeRef();
            return;
        }
        if (v >= 3) byteBool(r, "item model 2E002020");
    });
    reg.add(cls | 0x021, false, [](NodeReader& r) {  // item group elements
        r.u32();                                     // version
        std::uint32_t n = r.count(52);
        for (std::uint32_t i = 0; i < n; ++i) {
            iso4(r);
            if (r.string("item").empty()) r.nodeRef();
        }
    });
    reg.add(cls | 0x022, true, [](NodeReader& r) {
        r.u32();  // version
        r.u32();
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.lookback();
        r.u32();
        r.skipArray(2);
    });
    reg.add(cls | 0x023, false, [](NodeReader& r) {
        r.u32();  // version
        r.u8();
        r.u32();
    });
    reg.add(cls | 0x024, true, [](NodeReader& r) {
        r.u32();  // version
        r.skipArray(8);
    });
    reg.add(cls | 0x025, true, [](NodeReader& r) {
        r.u32();  // version
        r.boolean();
    });
    reg.add(cls | 0x026, true, [](NodeReader& r) {
        r.u32();  // version
        r.skipArray(12);
    });
    reg.add(cls | 0x027, true, [](NodeReader& r) {
        r.u32();  // version
        r.f32();
    });
}

// CGameItemPlacementParam ([G] GameData/CGameItemPlacementParam.chunkl), the default placement
// of 2E00201C. Chunks 003 and 004, which [G] does not read, are left to be skipped by size.
void placementParam(ChunkRegistry& reg) {
    reg.add(0x2E020000, true, [](NodeReader& r) {
        r.u32();     // version
        r.u16();     // flags
        r.vec3();    // cube centre
        r.skip(32);  // cube size, grid snap steps and offsets, fly step and offset, pivot snap
    });
    reg.add(0x2E020001, true, [](NodeReader& r) {
        r.skipArray(12);  // pivot positions
        r.skipArray(16);  // pivot rotations
    });
    reg.add(0x2E020005, true, [](NodeReader& r) { r.nodeRef(); });  // placement class
}

// CPlugAnimLocSimple 000 ([G] Plug/CPlugAnimLocSimple.chunkl), the location animation of
// 2E007001: an int before its version, rotation and translation periods, a height, then by
// version an axis, the periods' maxima, a rotation function and angle.
void animLocSimple(NodeReader& r) {
    r.u32();
    std::uint32_t v = version(r, 3, "simple location animation 090F8000");
    r.u32();  // rotation period
    r.u32();  // translation period
    r.f32();  // translation height
    if (v < 1) return;
    r.u32();  // axis
    if (v < 2) return;
    r.u32();
    r.u32();
    if (v < 3) return;
    r.u8();   // rotation function
    r.f32();  // rotation angle
}

}  // namespace

void registerItem(ChunkRegistry& reg) {
    reg.add(0x090F8000, false, animLocSimple);
    objectModels(reg);
    reg.add(0x2E025000, false, blockItem);
    for (std::uint32_t cls : {0x0301C000u, 0x2E002000u}) itemModelLater(reg, cls);
    placementParam(reg);
}

}  // namespace pakfs::gbx::chunks
