// SPDX-License-Identifier: GPL-2.0-or-later
// Block infos (CGameCtnBlockInfo 0304E000 and its unit infos, CGameCtnBlockUnitInfo 03036000),
// the placed block of TM 1.0 maps (CGameCtnBlock 03057000), and the scene objects a block info
// holds (CSceneObject 0A005000, CSceneMobil 0A011000, CHmsItem 06003000).
// Layouts: [G] GBX.NET, Engines/Game/CGameCtnBlockInfo.chunkl and .cs,
// CGameCtnBlockUnitInfo.chunkl and .cs, CGameCtnBlockInfoRoad.chunkl, CGameCtnBlock.chunkl,
// Engines/Scene/CSceneObject.chunkl, CSceneMobil.chunkl, Engines/Hms/CHmsItem.chunkl.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The older form: u32 array version, u32 count, node references.
void refArrayVersioned(NodeReader& r) {
    r.u32();
    refArray(r);
}

// 0304E005: the block info as TM 1.0, Sunrise and Forever store it.
void blockInfoOld(NodeReader& r) {
    std::string id = r.lookback();
    r.note("id", id);
    r.skip(12);   // three ints
    r.u32();      // is pillar
    r.u32();      // selection
    r.u32();      // an int
    r.nodeRef();  // pillar block info
    refArray(r);  // ground unit infos
    refArray(r);  // air unit infos
    for (int air = 0; air < 2; ++air) {
        // Mobils, per variant: u32 count of variants, each an array of references.
        std::uint32_t variants = r.count(4);
        for (std::uint32_t i = 0; i < variants; ++i) refArray(r);
    }
    r.u8();
    r.u32();
    r.u16();
    r.u16();
}

void blockInfo(ChunkRegistry& reg) {
    reg.add(0x0304E005, false, blockInfoOld);
    reg.add(0x0304E009, false, [](NodeReader& r) { r.boolean(); });  // is pillar
    reg.add(0x0304E00B, false, [](NodeReader& r) {                   // helper mobils
        r.u32();
        nodeRefs(r, 3);
    });
    reg.add(0x0304E00C, false, [](NodeReader& r) {  // spawn locations, ground and air
        iso4(r);
        iso4(r);
    });
    reg.add(0x0304E00D, false, [](NodeReader& r) { r.boolean(); });  // is replacement
    reg.add(0x0304E00E, false, [](NodeReader& r) {                   // way point type, mobils
        r.u32();
        nodeRefs(r, 3);
    });
    reg.add(0x0304E00F, false, [](NodeReader& r) { r.boolean(); });  // no respawn
    reg.add(0x0304E013, false, [](NodeReader& r) { r.boolean(); });  // icon auto use ground
    reg.add(0x0304E015, false, [](NodeReader& r) {
        r.u32();
        iso4(r);
    });
    reg.add(0x0304E017, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0304E020, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 8, "block info 0304E020");
        r.nodeRef();              // char physics special property
        if (v <= 6) r.nodeRef();  // waypoint special property
        if (v < 2) return;
        r.nodeRef();  // podium info
        if (v < 3) return;
        r.nodeRef();  // intro info
        if (v < 4) return;
        r.boolean();  // char physics property customizable
        if (v == 5) r.boolean();
        if (v >= 8 && r.boolean()) {
            r.string("material modifier");
            r.string("grass");
        }
    });
    reg.add(0x0304E023, false, [](NodeReader& r) {  // base variants, ground and air, inline
        r.inlineNode(0x0315C000);
        r.inlineNode(0x0315D000);
    });
    reg.add(0x0304E026, false, [](NodeReader& r) { r.u32(); });  // way point type
    reg.add(0x0304E027, false, refArrayVersioned);               // more ground variants
    reg.add(0x0304E028, false, [](NodeReader& r) {               // symmetrical block info
        r.lookback();
        r.u32();  // direction
    });
    reg.add(0x0304E029, false, [](NodeReader& r) { r.nodeRef(); });  // fog volume box
    reg.add(0x0304E02A, false, [](NodeReader& r) {                   // sounds
        std::uint32_t v = version(r, 3, "block info 0304E02A");
        NodeRef s1 = r.nodeRef();
        NodeRef s2 = r.nodeRef();
        if (v <= 2 || s1.kind != RefKind::Null) iso4(r);
        if (v <= 2 || s2.kind != RefKind::Null) iso4(r);
    });
    reg.add(0x0304E02B, false, [](NodeReader& r) {
        if (version(r, 1, "block info 0304E02B") == 0)
            r.fail("block info 0304E02B version 0 not supported");
        r.u32();  // base type
    });
    reg.add(0x0304E02C, false, refArrayVersioned);  // more air variants
    reg.add(0x0304E02E, false, [](NodeReader& r) {  // prod state
        r.u32();
        r.u32();
    });
    reg.add(0x0304E02F, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 1, "block info 0304E02F");
        r.u8();  // is pillar
        r.u8();  // pillar shape multi dir
        if (v >= 1) r.u8();
    });
    reg.add(0x0304E031, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 1, "block info 0304E031");
        r.nodeRef();
        r.nodeRef();  // material modifier
        if (v >= 1) r.nodeRef();
    });

    // CGameCtnBlockInfoRoad
    reg.add(0x03052000, false, [](NodeReader& r) { r.nodeRef(); });  // slope
}

void blockUnitInfo(ChunkRegistry& reg) {
    reg.add(0x03036000, false, [](NodeReader& r) {
        r.u32();  // place pylons
        // Two values [G] names bools; Sunrise stores 0707F880 in the second, so no 0/1 check.
        r.u32();
        r.u32();
        r.skip(12);   // relative offset
        refArray(r);  // clips
    });
    reg.add(0x03036001, false, [](NodeReader& r) {
        r.lookback();  // surface
        r.u32();       // frontier
        r.u32();       // direction
    });
    reg.add(0x03036002, true, [](NodeReader& r) { r.boolean(); });  // underground
    reg.add(0x03036003, false, [](NodeReader& r) {
        r.nodeRef();   // replacement block info
        r.lookback();  // replacement ID
        r.u32();       // multi dir
        r.u32();
    });
    reg.add(0x03036004, false, [](NodeReader& r) { r.u32(); });       // accept pylons
    reg.add(0x03036005, false, [](NodeReader& r) { r.lookback(); });  // terrain modifier
    // A bool, then four (bool, int) pairs: nine values in [G], not eight.
    reg.add(0x03036006, false, [](NodeReader& r) { r.skip(36); });
    reg.add(0x03036007, false, [](NodeReader& r) { nodeRefs(r, 4); });  // pylons
    reg.add(0x03036008, false, [](NodeReader& r) { nodeRefs(r, 2); });  // bottom, top clip
    reg.add(0x03036009, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 2, "block unit info 03036009");
        r.nodeRef();
        r.u32();
        if (v == 0) r.u32();
        if (v == 2) r.u8();
    });
    reg.add(0x0303600A, false, [](NodeReader& r) {
        r.u32();  // version
        r.nodeRef();
        r.u32();
    });
    reg.add(0x0303600B, false, [](NodeReader& r) {  // bottom, top clip and their directions
        r.u32();                                    // version
        nodeRefs(r, 2);
        r.skip(8);
    });
    reg.add(0x0303600C, false, [](NodeReader& r) {  // clips per side
        std::uint32_t v = version(r, 2, "block unit info 0303600C");
        if (v == 0) r.fail("block unit info 0303600C version 0 not supported");
        std::uint32_t bits = r.u32();  // six 3-bit counts: north, east, south, west, top, bottom
        for (int side = 0; side < 6; ++side) nodeRefs(r, int((bits >> (3 * side)) & 7));
        r.skip(v >= 2 ? 4 : 8);
    });
    reg.add(0x0303600D, false, [](NodeReader& r) {
        r.u32();  // version
        r.skip(r.count(1));
    });
}

void block(ChunkRegistry& reg) {
    // CGameCtnBlock 002 (TM 1.0 maps): block model, direction, coordinates, flags.
    reg.add(0x03057002, false, [](NodeReader& r) {
        std::string name;
        r.meta(&name);
        r.note("block", name);
        r.u8();
        r.skip(3);
        r.u32();
    });
}

void scene(ChunkRegistry& reg) {
    // CSceneObject
    reg.add(0x0A005001, false, [](NodeReader& r) { r.lookback(); });  // name
    reg.add(0x0A005002, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0A005003, false, [](NodeReader& r) { r.nodeRef(); });  // motion
    reg.add(0x0A005004, false, [](NodeReader& r) { r.u32(); });
    // CSceneMobil
    reg.add(0x0A011003, false, [](NodeReader& r) { refArray(r); });  // object links
    reg.add(0x0A011004, false, [](NodeReader& r) { r.nodeRef(); });  // a node [G] does not name
    reg.add(0x0A011005, false,
            [](NodeReader& r) { r.inlineNode(0x06003000); });        // the item, inline
    reg.add(0x0A011006, false, [](NodeReader& r) { r.nodeRef(); });  // message handler
    // CHmsItem
    reg.add(0x06003001, false, [](NodeReader& r) { r.nodeRef(); });  // solid
    for (std::uint32_t id : {0x0600300Eu, 0x06003010u, 0x06003011u})
        reg.add(id, false, [](NodeReader& r) {
            r.u64();
            r.u16();
        });
}

}  // namespace

void registerBlockInfo(ChunkRegistry& reg) {
    blockInfo(reg);
    blockUnitInfo(reg);
    block(reg);
    scene(reg);
}

}  // namespace pakfs::gbx::chunks
