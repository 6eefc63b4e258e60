// SPDX-License-Identifier: GPL-2.0-or-later
// CGameCtnCollector (0301A000, later 2E001000) and the collector classes: object info,
// decoration, collection.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// Registers a collector chunk under its TMF ID and under the later GameData ID (2E001xxx).
void addCollector(ChunkRegistry& reg, std::uint32_t index, bool skippable, ChunkReadFn fn) {
    reg.add(0x0301A000 | index, skippable, fn);
    reg.add(0x2E001000 | index, skippable, fn);
}

void desc(NodeReader& r) {  // 0301A003 (header)
    std::string name;
    r.meta(&name);
    r.note("name", name);
    std::uint32_t v = r.u32();
    r.string("page name");
    if (v == 5) r.lookback();
    if (v >= 4) r.lookback();
    if (v >= 3) {
        r.u32();  // flags
        r.u16();  // catalog position
        // Up to version 5 ([G] GameData/CGameCtnCollector.chunkl, SHeaderDesc): least number
        // available, copper price, most available.
        if (v <= 5) {
            r.u8();
            r.u32();
            r.u16();
        }
    }
    if (v >= 7) r.string("name");
    if (v >= 8) r.u8();  // prod state
}

void icon(NodeReader& r) {  // 0301A004 (header)
    std::uint16_t w = r.u16();
    std::uint16_t h = r.u16();
    if (std::int16_t(w) >= 0 && std::int16_t(h) >= 0) {
        r.skip(std::uint64_t(4) * w * h);
        return;
    }
    if (r.u16() >= 1) r.skip(r.u32());  // WebP
}

// CGameItemModel 019, the model ([G] GameData/CGameItemModel.cs, Chunk2E002019; the seed's
// 0301C019 reads three references whatever the version and item type, which the fixtures of
// versions 8 and up contradict). Before the version that moved them (by item type), the
// custom physics and visual models come first;
// then from version 3 the default weapon name, from 4 the physics model (again, or null), from
// 5 the visual model, from 6 the actions, from 7 the default camera, from 8 the entity model
// edition or, when it is null, the entity model, from 13 the effects, from 15 the material
// modifier. The item type is chunk 015's, else the header's (chunk 2E002000).
void itemModel(NodeReader& r) {
    std::uint32_t v = r.u32();
    if (v > 15)
        r.refuseVersion("item model 2E002019 version " + std::to_string(v) + " not supported");
    std::int64_t type = r.hasVar(kItemTypeVar) ? r.var(kItemTypeVar) : 0;
    std::uint32_t moved = 12;  // Undefined and the types [G] does not list
    switch (type) {
        case 1:  // ornament
        case 2:  // pick up
        case 5:  // spot
            moved = 9;
            break;
        case 4:  // vehicle
            moved = 10;
            break;
        case 11:  // block: never stored first
            moved = 0;
            break;
        default:
            break;
    }
    if (v < moved) {
        r.nodeRef();  // physics model
        r.nodeRef();  // visual model
        // Versions 1 and 2: the seed (0301C019) adds a static visual model, [G] reads nothing
        // more. MP-CGameItemModel~bridge1.ObjectInfo.gbx of ../shared/fixtures/assets2
        // (version 1) reads to its end only with it: the file decides (version 2 alike).
        if (v == 1 || v == 2) r.nodeRef();
    }
    if (v < 3) return;
    r.lookback();  // default weapon name
    if (v < 4) return;
    r.nodeRef();  // physics model
    if (v < 5) return;
    r.nodeRef();  // visual model
    if (v < 6) return;
    std::uint32_t actions = r.count(4);
    for (std::uint32_t i = 0; i < actions; ++i) r.nodeRef();
    if (v < 7) return;
    r.u32();  // default camera
    if (v < 8) return;
    if (r.nodeRef().kind == RefKind::Null) {  // entity model edition, else the entity model
        if (type == 11) r.fail("item model 2E002019: a block item has no entity model");
        r.nodeRef();
    }
    if (v < 13) return;
    r.nodeRef();  // effects
    if (v < 15) return;
    r.nodeRef();  // material modifier
}

// CGameCommonItemEntityModelEdition 000, the mesh modeller's item ([G]
// GameData/CGameCommonItemEntityModelEdition.chunkl). [G] reads only ornaments (and pick-ups'
// mass) and throws for any other item type after the second crystal.
void commonItemEntityModelEdition(NodeReader& r) {
    std::uint32_t v = r.u32();
    // Version 8 (a fixture [G] reads) is the highest [G] names.
    if (v > 8)
        r.refuseVersion("item entity model edition version " + std::to_string(v) +
                        " not supported");
    std::uint32_t type = r.u32();
    r.nodeRef();  // mesh crystal
    r.string();
    r.nodeRef();  // solid
    std::uint32_t images = r.count(4);
    for (std::uint32_t i = 0; i < images; ++i) r.nodeRef();
    r.skipArray(20);  // sprite parameters: position, a bool, a float
    r.nodeRef();      // particle emitter model
    r.nodeRef();      // simple animated location
    r.skipArray(32);  // light ball states: an int, seven floats
    r.skip(7 * 4 + 48);
    if (v >= 3 && type == 2) r.f32();  // a pick-up's mass
    if (!r.boolean()) r.nodeRef();     // a second crystal
    if (type != 1)
        r.fail("item entity model edition of item type " + std::to_string(type) +
               ": no source gives its layout");
    if (r.boolean()) r.skip(4 + 48);
    r.u32();
    if (v < 1) return;
    r.string("inventory name");
    r.string("inventory description");
    r.skip(8);  // inventory item class and occupation
    // [G] "v6+ v7-": a node in versions 6 and 7 (null in the version 7 items of assets2).
    if (v >= 6 && v <= 7) r.nodeRef();
    // From version 7 a bool follows for pick-ups only, and only ornaments get here.
}

}  // namespace

void registerCollectorHeader(ChunkRegistry& reg) {
    addCollector(reg, 0x003, false, desc);
    addCollector(reg, 0x004, false, icon);
    addCollector(reg, 0x006, false, [](NodeReader& r) { r.u64(); });
    addCollector(reg, 0x008, false, [](NodeReader& r) {
        r.u8();
        r.string("default skin");
    });
    // CGameCtnObjectInfo / CGameItemModel header chunks
    for (std::uint32_t cls : {0x0301C000u, 0x2E002000u}) {
        reg.add(cls | 0x000, false, [](NodeReader& r) { r.u32(); });  // item type
        reg.add(cls | 0x001, false, [](NodeReader& r) { r.u32(); });
    }
}

void registerCollector(ChunkRegistry& reg) {
    // Chunks of the older games ([G] GameData/CGameCtnCollector.chunkl): 002 the ident
    // (TM 1.0, Sunrise), 006 the skin kind, 00A an ID (Forever).
    addCollector(reg, 0x002, false, [](NodeReader& r) {
        std::string name;
        r.meta(&name);
        r.note("name", name);
    });
    addCollector(reg, 0x006, false, [](NodeReader& r) { r.u32(); });
    addCollector(reg, 0x00A, false, [](NodeReader& r) { r.lookback(); });
    addCollector(reg, 0x007, false, [](NodeReader& r) {
        r.boolean();
        r.skip(20);
    });
    addCollector(reg, 0x008, false, [](NodeReader& r) {  // seed: byte + skin file name
        r.u8();
        r.string("skin file");
    });
    addCollector(reg, 0x009, false, [](NodeReader& r) {
        r.string("page name");
        if (r.boolean()) r.nodeRef();  // icon fid
        r.lookback();
    });
    addCollector(reg, 0x00B, false, [](NodeReader& r) {
        std::string name;
        r.meta(&name);
        r.note("name", name);
    });
    addCollector(reg, 0x00C, false, [](NodeReader& r) { r.note("name", r.string()); });
    addCollector(reg, 0x00D, false, [](NodeReader& r) { r.string("description"); });
    addCollector(reg, 0x00E, false, [](NodeReader& r) {
        r.boolean();
        r.u32();
    });
    addCollector(reg, 0x00F, false, [](NodeReader& r) { r.string("default skin"); });
    addCollector(reg, 0x010, false, [](NodeReader& r) {  // skin (later games)
        std::uint32_t v = r.u32();
        r.nodeRef();  // default skin zip, usually an external slot
        std::string dir = r.string("skin directory");
        if (v >= 2 && dir.empty()) r.nodeRef();
    });
    addCollector(reg, 0x011, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.boolean();         // internal
        r.boolean();         // advanced
        r.u32();             // catalog position
        if (v >= 1) r.u8();  // prod state
    });
    addCollector(reg, 0x012, false, [](NodeReader& r) { r.skip(16); });

    // CGameCtnObjectInfo (seed IDs 0301Cxxx; later CGameItemModel 2E002xxx)
    for (std::uint32_t cls : {0x0301C000u, 0x2E002000u}) {
        reg.add(cls | 0x006, false, [](NodeReader& r) { r.u32(); });
        reg.add(cls | 0x008, false, [](NodeReader& r) {
            std::uint32_t n = r.count(4);
            for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        });
        reg.add(cls | 0x009, false, [](NodeReader& r) {
            r.u32();
            std::uint32_t n = r.count(4);
            for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        });
        reg.add(cls | 0x00A, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x00B, false, [](NodeReader& r) {
            r.nodeRef();
            r.nodeRef();
        });
        reg.add(cls | 0x00C, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x010, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x012, false, [](NodeReader& r) { r.skip(28); });
        reg.add(cls | 0x013, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x014, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x015, false, [](NodeReader& r) { r.var(kItemTypeVar) = r.u32(); });
        reg.add(cls | 0x016, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x017, false, [](NodeReader& r) {
            r.u32();
            r.boolean();
        });
        reg.add(cls | 0x018, false, [](NodeReader& r) {
            r.u32();
            r.boolean();
        });
        reg.add(cls | 0x019, false, itemModel);
    }

    // CGameCtnDecoration
    reg.add(0x03038000, false, [](NodeReader& r) {
        r.u8();
        r.string("dir name");
        r.readChunk(0x03031000);
    });
    reg.add(0x03038001, false, [](NodeReader& r) {
        r.u8();
        r.u32();
    });

    reg.add(0x2E026000, false, commonItemEntityModelEdition);

    // CGameCtnDecoration ([G] Game/CGameCtnDecoration.chunkl): size, audio, mood, solid warp,
    // terrain modifiers covered and base, then the later versioned chunks.
    for (std::uint32_t id = 0x03038011; id <= 0x03038016; ++id)
        reg.add(id, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x03038017, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.lookback();             // zone frontier ID
        if (v >= 1) r.boolean();  // water outside the play field
    });
    reg.add(0x03038018, false, [](NodeReader& r) {
        r.u32();      // version
        r.nodeRef();  // vehicle effects skin
        r.string("vehicle effects folder");
    });
    reg.add(0x03038019, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.nodeRef();              // audio
        if (v >= 1) r.nodeRef();  // ambient sound
    });
    reg.add(0x0303801A, false, [](NodeReader& r) {
        r.u32();      // version
        r.nodeRef();  // material modifiers
    });
    reg.add(0x0303801B, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.nodeRef();              // decoration map
        if (v >= 1) r.nodeRef();  // its light map
    });

    // CGameCtnCollection body chunks ([G] Game/CGameCtnCollection.chunkl and .cs)
    reg.add(0x03033008, false, [](NodeReader& r) { r.nodeRef(); });  // default decoration
    reg.add(0x03033009, false, [](NodeReader& r) {
        r.note("collection", r.lookback());
        r.u32();  // array version
        std::uint32_t zones = r.count(4);
        for (std::uint32_t i = 0; i < zones; ++i) r.nodeRef();
        r.nodeRef();  // default zone
        r.boolean();  // need unlock
        r.skip(8);    // square size and height
        r.meta();     // vehicle
    });
    reg.add(0x0303300B, false, [](NodeReader& r) { r.u32(); });  // blocks shadow
    reg.add(0x0303300C, false, [](NodeReader& r) {               // editable, collection type
        r.boolean();
        r.u32();
    });
    reg.add(0x0303300D, false, [](NodeReader& r) {  // icon, small icon, each behind a bool
        if (r.boolean()) r.nodeRef();
        if (r.boolean()) r.nodeRef();
    });
    reg.add(0x0303300E, false, [](NodeReader& r) { r.u32(); });       // sort index
    reg.add(0x03033011, false, [](NodeReader& r) { r.nodeRef(); });   // default decoration
    reg.add(0x03033013, false, [](NodeReader& r) { r.skip(12); });    // water, camera heights
    for (std::uint32_t id : {0x03033016u, 0x0303301Bu, 0x03033024u})  // shadows, vertex light
        reg.add(id, false, [](NodeReader& r) { r.skip(28); });
    reg.add(0x03033018, false, [](NodeReader& r) {  // map, its rectangle and coordinates
        r.nodeRef();
        r.skip(16 + 8 + 8);
    });
    reg.add(0x03033019, false, [](NodeReader& r) { r.nodeRef(); });  // load screen
    reg.add(0x0303301A, false, [](NodeReader& r) {
        r.nodeRef();
        r.skip(16 + 8 + 8 + 8);
        r.string("long description");
    });
    reg.add(0x0303301D, false, [](NodeReader& r) {
        std::uint32_t n = r.count(8);  // zone strings: base and replacement IDs
        for (std::uint32_t i = 0; i < n; ++i) {
            r.lookback();
            r.lookback();
        }
        r.u32();  // array version
        std::uint32_t m = r.count(4);
        for (std::uint32_t i = 0; i < m; ++i) r.nodeRef();  // replacement terrain modifiers
    });
    reg.add(0x0303301E, false, [](NodeReader& r) {
        r.skip(12);
        r.boolean();  // water outside the play field
    });
    reg.add(0x0303301F, false, [](NodeReader& r) { r.skipArray(4); });  // particle emitters
    reg.add(0x03033020, false, [](NodeReader& r) {
        for (int i = 0; i < 4; ++i) r.string("folder");
    });
    reg.add(0x03033021, false, [](NodeReader& r) { r.string("display name"); });
    reg.add(0x03033022, false, [](NodeReader& r) { r.boolean(); });  // water multi height
    reg.add(0x03033023, false, [](NodeReader& r) { r.boolean(); });  // car can be dirty
    reg.add(0x03033027, false, [](NodeReader& r) { r.skip(8); });    // board square
    for (std::uint32_t id : {0x03033028u, 0x03033029u, 0x0303302Au, 0x03033031u})
        reg.add(id, false, [](NodeReader& r) { r.string("folder"); });
    reg.add(0x0303302C, false, [](NodeReader& r) { r.u128(); });
    reg.add(0x0303302F, false, [](NodeReader& r) { r.vec3(); });  // tunnel specular
    reg.add(0x03033030, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x03033033, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.lookback();
        if (v >= 1) r.u32();  // decal fade density
    });
    reg.add(0x03033034, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.nodeRef();  // clouds shader
        r.nodeRef();  // clouds bitmap
        if (v >= 1) {
            r.nodeRef();  // vehicle environment layer bitmap
            r.u32();
        }
    });
    reg.add(0x03033036, false, [](NodeReader& r) {
        r.u32();      // version
        r.nodeRef();  // off-zone fog matter
    });
    reg.add(0x03033037, false, [](NodeReader& r) { r.f32(); });  // terrain height offset
    reg.add(0x0303303A, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.skip(36);  // shadow and vertex lighting settings, an int, the LOD distance scale
        if (v == 1 || v >= 3) r.u32();
    });
    reg.add(0x0303303B, false, [](NodeReader& r) {  // turbo colours
        std::uint32_t v = r.u32();
        r.skip(12);
        if (v >= 1) r.skip(8);
        if (v >= 2) r.u32();
    });
    reg.add(0x0303303C, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.string();
        if (v >= 1) r.u32();
    });
    reg.add(0x0303303D, false, [](NodeReader& r) {  // default TV programs
        r.u32();
        for (int i = 0; i < 5; ++i) r.nodeRef();
    });
    for (std::uint32_t id : {0x0303303Eu, 0x0303303Fu})
        reg.add(id, false, [](NodeReader& r) { r.skip(8); });  // version, int
    for (std::uint32_t id : {0x03033040u, 0x03033044u})        // material modifiers
        reg.add(id, false, [](NodeReader& r) {
            r.u32();
            r.nodeRef();
        });
    for (std::uint32_t id : {0x03033041u, 0x03033043u})
        reg.add(id, false, [](NodeReader& r) { r.string(); });
    reg.add(0x03033042, false, [](NodeReader& r) { r.u32(); });

    // CGameCtnCollection header chunks, also met in bodies
    reg.add(0x03033001, false, [](NodeReader& r) {
        std::uint8_t v = r.u8();
        r.note("collection", r.lookback());
        r.boolean();
        if (v < 1) return;
        r.string();
        r.string();
        if (v < 2) return;
        r.u32();
        if (v < 3) return;
        r.lookback();
        if (v < 4) return;
        r.meta();
        if (v < 5) return;
        r.string("map fid");
        r.vec2();
        r.vec2();
        if (v == 5) r.vec2();
        if (v == 6 || v == 7) r.skip(16);
        if (v < 7) return;
        r.string("loadscreen");
        if (v < 8) return;
        r.skip(24);
        r.string("long description");
        if (v < 9) return;
        r.string("display name");
        if (v < 10) return;
        r.boolean();
    });
    reg.add(0x03033002, false, [](NodeReader& r) {
        std::uint8_t v = r.u8();
        for (int i = 0; i < 3; ++i) r.string("folder");
        if (v == 1 || v == 2) r.string("folder");
        if (v >= 2) r.string("folder");
        if (v >= 3) r.string("folder");
        if (v >= 4) r.string("folder");
    });
    reg.add(0x03033003, false, [](NodeReader& r) {
        r.u8();
        r.string("folder");
    });
}

}  // namespace pakfs::gbx::chunks
