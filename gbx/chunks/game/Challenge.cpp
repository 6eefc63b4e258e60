// SPDX-License-Identifier: GPL-2.0-or-later
// CGameCtnChallenge (03043000) and the classes only maps use: collector list, challenge
// parameters, block skins, anchored objects, waypoint properties.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

void mapName(NodeReader& r) {
    r.note("name", r.string("map name"));
}

// One block of 0304301F after its name ([G] Game/CGameCtnBlock.chunkl, the archive); false for
// an unassigned block (flags -1). From version 2 four more flag bits each add data.
bool block(NodeReader& r, std::uint32_t version) {
    r.skip(4);  // rotation, x, y, z
    std::uint32_t flags = version == 0 ? r.u16() : r.u32();
    if (flags == 0xFFFFFFFF) return false;
    if (flags & 0x8000) {
        r.lookback();  // author
        r.nodeRef();   // skin
    }
    if (version < 2) {
        // Older readers of [G] read the waypoint property of bit 20 in every version; [G] now
        // reads it from version 2 only. No file here has the bit set below version 2.
        if (flags & 0x100000)
            r.fail("block flags " + hex32(flags) + " in block data version " +
                   std::to_string(version) +
                   ": whether bit 20 adds a waypoint property below version 2 is not decided "
                   "(GBX.NET's versions disagree)");
        return true;
    }
    if (flags & 0x80000) r.nodeRef();   // character physics property (CPlugCharPhySpecialProperty)
    if (flags & 0x100000) r.nodeRef();  // waypoint property
    if (flags & 0x40000) {              // square card event IDs: two ints and idents each
        std::uint32_t n = r.count(12);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.skip(8);
            std::uint32_t m = r.count(12);
            for (std::uint32_t j = 0; j < m; ++j) r.meta();
        }
    }
    if (flags & 0x20000) {  // decal: ID, intensity, variant
        r.lookback();
        r.skip(8);
    }
    return true;
}

// 0304301F block data; also read by 03043013 (without the version field).
void blocks(NodeReader& r) {
    std::string uid;
    r.meta(&uid);
    r.note("uid", uid);
    mapName(r);
    r.meta();     // decoration
    r.skip(12);   // size x, y, z
    r.boolean();  // needUnlock
    std::uint32_t version = 0;
    if (r.chunkId() != 0x03043013 && r.chunkId() != 0x24003013) version = r.u32();
    if (version > 6)
        r.refuseVersion("block data version " + std::to_string(version) + " not supported");
    // Each block takes at least 4 (name) + 4 (rotation, x, y, z) + 2 (flags) bytes.
    std::uint32_t numBlocks = r.count(10);
    for (std::uint32_t i = 0; i < numBlocks; ++i) {
        r.lookback();                         // name
        if (!block(r, version)) ++numBlocks;  // unassigned blocks are not counted
    }
    // More blocks may follow the counted ones. Their name is a lookback string with bit 30 or 31
    // set, which no chunk ID has (the end marker excepted); anything else is the next chunk ID.
    // The u32 is read, never peeked: the pak pipeline's cipher depends on when bytes are read.
    while (true) {
        std::uint32_t next = r.u32();
        if ((next & 0xC0000000) == 0 || next == kEndOfNode) {
            r.handBackChunkId(next);
            return;
        }
        r.lookbackFromIndex(next);
        block(r, version);
    }
}

void thumbnailCamera(NodeReader& r) {  // 03043027
    if (!r.boolean()) return;
    r.u8();
    r.skip(36);  // 3x3 rotation
    r.vec3();
    r.skip(12);  // fov, near, far
}

void lightmap(NodeReader& r) {  // 0304303D
    r.boolean();
    std::uint32_t version = r.u32();
    std::uint32_t frames = version >= 5 ? r.u32() : 1;
    if (version < 2) return;
    std::uint32_t size = 0;
    for (std::uint32_t f = 0; f < frames; ++f) {
        size = r.u32();
        r.skip(size);
        if (version >= 3) {
            std::uint32_t s = r.u32();
            r.skip(s);
        }
        if (version >= 6) {
            std::uint32_t s = r.u32();
            r.skip(s);
        }
    }
    if (size != 0) {
        r.u32();  // uncompressed size
        std::uint32_t compressed = r.u32();
        r.skip(compressed);
    }
}

// 03043040 ([G] CGameCtnChallenge.cs): the anchored objects and, by version, which item sits
// on which and what each is snapped to; encapsulated, its size checked as [G] checks it. [G]
// reads versions 0 to 8.
void items(NodeReader& r) {
    std::uint32_t version = chunks::version(r, 8, "items 03043040");
    r.u32();
    std::uint32_t size = r.u32();
    std::uint64_t start = r.position();
    r.encapsulated([&] {
        r.u32();  // array version (10)
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        if (version >= 1 && version != 5 && version < 8) r.skipArray(8);  // items on items
        if (version >= 5) {
            r.skipArray(4);                    // snapped blocks
            if (version < 7) r.skipArray(4);   // snap item groups
            if (version >= 6) r.skipArray(4);  // snapped items
            if (version >= 7) r.skipArray(4);  // snap item groups
            if (version != 6) r.skipArray(4);
            r.skipArray(4);  // item snap indexes
        }
    });
    if (r.position() - start != size)
        r.fail("items 03043040: the encapsulated part holds " + std::to_string(size) +
               " bytes but its reader took " + std::to_string(r.position() - start));
}

void metadata(NodeReader& r) {  // 03043044: script metadata, encapsulated, size-prefixed
    r.u32();
    std::uint32_t size = r.u32();
    r.encapsulated([&] { r.skip(size); });
}

void embeddedItems(NodeReader& r) {  // 03043054, encapsulated
    r.u32();                         // version
    r.u32();
    r.u32();  // size
    r.encapsulated([&] {
        std::uint32_t n = r.count(12);
        for (std::uint32_t i = 0; i < n; ++i) r.meta();
        std::uint32_t zip = r.u32();
        r.skip(zip);
        std::uint32_t textures = r.count(4);
        for (std::uint32_t i = 0; i < textures; ++i) r.string();
    });
}

// --- CGameCtnChallenge header chunks ---

// The map's meta: its UID, its environment (collection) and its author's login.
void mapMeta(NodeReader& r, std::string* uid) {
    std::string collection, author;
    r.meta(uid, &collection, &author);
    r.note("environment", collection);
    r.note("author", author);
}

void tmDesc(NodeReader& r) {  // 03043002
    std::uint8_t v = r.u8();
    r.note("version", std::to_string(v));
    if (v < 3) {
        mapMeta(r, nullptr);
        mapName(r);
    }
    r.boolean();
    if (v < 1) return;
    r.skip(16);  // medal times
    if (v == 2) r.u8();
    if (v < 4) return;
    r.u32();  // cost
    if (v < 5) return;
    r.boolean();  // multilap
    if (v == 6) r.boolean();
    if (v < 7) return;
    r.u32();  // track type
    if (v < 9) return;
    r.u32();
    if (v < 10) return;
    r.u32();  // author score
    if (v < 11) return;
    r.u32();  // editor mode
    if (v < 12) return;
    r.u32();
    if (v < 13) return;
    r.skip(8);  // checkpoints, laps
}

void common(NodeReader& r) {  // 03043003
    std::uint8_t v = r.u8();
    std::string uid;
    mapMeta(r, &uid);
    r.note("uid", uid);
    mapName(r);
    r.u8();  // kind
    if (v < 1) return;
    r.u32();  // locked
    r.string("password");
    if (v < 2) return;
    r.meta();  // decoration
    if (v < 3) return;
    r.vec2();
    if (v < 4) return;
    r.vec2();
    if (v < 5) return;
    r.u128();
    if (v < 6) return;
    r.string("map type");
    r.string("map style");
    if (v <= 8) r.u32();
    if (v < 8) return;
    r.u64();  // lightmap cache UID
    if (v < 9) return;
    r.u8();
    if (v < 11) return;
    r.lookback();  // title
}

void thumbnail(NodeReader& r) {  // 03043007
    if (r.u32() == 0) return;
    std::uint32_t size = r.u32();
    r.skip(15);  // "<Thumbnail.jpg>"
    r.skip(size);
    r.skip(16);  // "</Thumbnail.jpg>"
    r.skip(10);  // "<Comments>"
    r.string("comments");
    r.skip(11);  // "</Comments>"
}

void authorInfo(NodeReader& r) {  // 03043008 and alike
    r.u32();
    r.u32();
    std::string login = r.string("author login");
    r.note("author", login);
    r.note("author nickname", r.string("author nickname"));
    r.string("author zone");
    r.string("author extra info");
}

void challengeParameters(ChunkRegistry& reg) {
    reg.add(0x0305B000, false, [](NodeReader& r) { r.skip(32); });
    reg.add(0x0305B001, false, [](NodeReader& r) {
        for (int i = 0; i < 4; ++i) r.string("tip");
    });
    reg.add(0x0305B002, false, [](NodeReader& r) { r.skip(64); });
    reg.add(0x0305B003, false, [](NodeReader& r) { r.skip(24); });
    reg.add(0x0305B004, false, [](NodeReader& r) { r.skip(20); });
    reg.add(0x0305B005, false, [](NodeReader& r) { r.skip(12); });
    reg.add(0x0305B006, false, [](NodeReader& r) { r.skipArray(4); });
    reg.add(0x0305B007, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0305B008, false, [](NodeReader& r) { r.skip(8); });
    reg.add(0x0305B00A, true, [](NodeReader& r) {
        r.string("tip");
        r.skip(24);
    });
    reg.add(0x0305B00D, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x0305B00E, true, [](NodeReader& r) {
        r.string("map type");
        r.string("map style");
        r.u32();
    });
}

}  // namespace

void registerChallengeHeader(ChunkRegistry& reg) {
    reg.add(0x03043002, false, tmDesc);
    reg.add(0x03043003, false, common);
    reg.add(0x03043004, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x03043005, false, [](NodeReader& r) { r.string("xml"); });
    reg.add(0x03043007, false, thumbnail);
    reg.add(0x03043008, false, authorInfo);
    // Virtual Skipper's map description is not read: the seed's layout leaves fields open.
}

void registerChallenge(ChunkRegistry& reg) {
    reg.add(0x0304300D, false, [](NodeReader& r) { r.meta(); });  // vehicle
    reg.add(0x0304300F, false, [](NodeReader& r) {                // TM1.0 blocks (old layout)
        r.meta();
        r.skip(12);
        r.u32();  // array version
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        r.boolean();
        r.meta();
    });
    reg.add(0x03043011, false, [](NodeReader& r) {
        r.nodeRef();  // collector list
        r.nodeRef();  // challenge parameters
        r.u32();      // kind
    });
    reg.add(0x03043012, false, [](NodeReader& r) { r.string(); });
    reg.add(0x03043013, false, [](NodeReader& r) { r.readChunk(0x0304301F); });
    reg.add(0x03043014, true, [](NodeReader& r) {
        r.u32();
        r.string("password");
    });
    reg.add(0x03043016, true, [](NodeReader& r) { r.u32(); });
    reg.add(0x03043017, true, [](NodeReader& r) { r.skipArray(12); });  // checkpoints
    reg.add(0x03043018, true, [](NodeReader& r) {
        r.boolean();
        r.u32();
    });
    reg.add(0x03043019, true, [](NodeReader& r) { r.fileRef(); });
    reg.add(0x0304301C, true, [](NodeReader& r) { r.u32(); });
    reg.add(0x0304301F, false, blocks);
    reg.add(0x03043020, false, [](NodeReader& r) {
        for (int i = 0; i < 5; ++i) r.nodeRef();
    });
    reg.add(0x03043021, false, [](NodeReader& r) {
        for (int i = 0; i < 3; ++i) r.nodeRef();  // intro, in game, end race
    });
    reg.add(0x03043022, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x03043023, false, [](NodeReader& r) { r.vec2(); });
    reg.add(0x03043024, false, [](NodeReader& r) { r.fileRef(); });
    reg.add(0x03043025, false, [](NodeReader& r) { r.skip(16); });
    reg.add(0x03043026, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x03043027, false, thumbnailCamera);
    reg.add(0x03043028, false, [](NodeReader& r) {
        thumbnailCamera(r);
        r.string("comments");
    });
    reg.add(0x03043029, true, [](NodeReader& r) { r.skip(20); });  // password hash, CRC
    reg.add(0x0304302A, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0304303D, true, lightmap);
    reg.add(0x03043040, true, items);
    reg.add(0x03043044, true, metadata);
    reg.add(0x03043049, false, [](NodeReader& r) {  // media clips of later games
        std::uint32_t v = r.u32();
        for (int i = 0; i < 4; ++i) r.nodeRef();
        if (v >= 2) r.nodeRef();
        if (v >= 1) r.skip(12);
    });
    reg.add(0x03043054, true, embeddedItems);

    // CGameCtnCollectorList
    reg.add(0x0301B000, false, [](NodeReader& r) {
        std::uint32_t n = r.count(16);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.meta();
            r.u32();
        }
    });
    challengeParameters(reg);

    // CGameCtnBlockSkin
    reg.add(0x03059000, false, [](NodeReader& r) {
        r.string();
        r.string();
    });
    reg.add(0x03059001, false, [](NodeReader& r) {
        r.string();
        r.fileRef();
    });
    reg.add(0x03059002, false, [](NodeReader& r) {
        r.string();
        r.fileRef();
        r.fileRef();
    });
    reg.add(0x03059003, false, [](NodeReader& r) {
        r.u32();
        r.fileRef();
    });

    // CGameWaypointSpecialProperty (also under its GameData ID)
    auto waypoint = [](NodeReader& r) {
        std::uint32_t v = r.u32();
        if (v == 1) {
            r.skip(8);
        } else if (v == 2) {
            r.string("tag");
            r.u32();
        }
    };
    reg.add(0x0313B000, false, waypoint);
    reg.add(0x2E009000, false, waypoint);

    // CGameCtnAnchoredObject ([G] Game/CGameCtnAnchoredObject.chunkl): 002 versions 0 to 8;
    // 004 a version and an int.
    reg.add(0x03101002, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 8, "anchored object 03101002");
        std::string item;
        r.meta(&item);
        r.note("item", item);
        r.vec3();
        r.skip(3);
        r.lookback();
        r.vec3();
        r.directNode();  // waypoint property
        if (v < 5) r.u32();
        if (v < 4) return;
        std::uint16_t flags = r.u16();
        if (v < 5) return;
        r.vec3();
        if (v < 6) return;
        r.f32();
        if (v < 7) return;
        if (flags & 4) r.fileRef();
        if (v < 8) return;
        r.vec3();
        r.vec3();
    });
    reg.add(0x03101004, true, [](NodeReader& r) {
        version(r, 0, "anchored object 03101004");
        r.u32();
    });
}

}  // namespace pakfs::gbx::chunks

// Nodes the blocks of later maps (ManiaPlanet, Trackmania 2020) hold beside their waypoint
// property: the character physics property (CPlugCharPhySpecialProperty 090F2000).
// Layout: [G] GBX.NET, Engines/Plug/CPlugCharPhySpecialProperty.chunkl.

namespace pakfs::gbx::chunks {
namespace {

// 000: version, an int, up to version 1 three floats, a bool, int, float, int, float, from
// version 1 an int, from 2 four floats, from 3 an int, from 4 a bool. [G] describes 0 to 4.
void charPhyProperty(NodeReader& r) {
    std::uint32_t v = version(r, 4, "character physics property 090F2000");
    r.u32();
    if (v <= 1) r.skip(12);
    r.boolean();
    r.skip(16);
    if (v >= 1) r.u32();
    if (v < 2) return;
    r.skip(16);
    if (v < 3) return;
    r.u32();
    if (v >= 4) r.boolean();
}

}  // namespace

void registerMapLater(ChunkRegistry& reg) {
    reg.add(0x090F2000, false, charPhyProperty);
}

}  // namespace pakfs::gbx::chunks
