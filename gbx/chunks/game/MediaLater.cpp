// SPDX-License-Identifier: GPL-2.0-or-later
// Media blocks of the later games (ManiaPlanet, Trackmania 2020) that chunks/game/Media.cpp does
// not read, the older media block chunks it lacked, and the two nodes only media blocks hold here:
// the data tape (CPlugDataTape 090CE000) and the replay object visibility data
// (CGameReplayObjectVisData 031A8000).
// Layouts: [G] GBX.NET, Engines/Game/CGameCtnMediaBlock<Name>.chunkl for each block below,
// Engines/Plug/CPlugDataTape.chunkl, Engines/Game/CGameReplayObjectVisData.chunkl, and the
// badge of Engines/Game/CGameCtnGhost.chunkl. In [G]'s notation a list or an array is a u32 count
// then the elements, "data" a u32 size then the bytes, a timefloat (nullable or not) a float, an
// ident three lookback strings, a packdesc a file reference; a list of keys read "(version: V)"
// gets V as the key's version, one read without it gets version 0. The badge is read as a
// ghost's (ghostBadge, chunks/game/Ghost.cpp).
// Not read: CGameCtnMediaBlockLightmap, which [G] gives class ID 030C0000, the class ID the
// Forever class tree gives CGameControlCardNetOnlineNews (a node's place in the tree decides the
// cipher, so the table keeps the Forever class and the chunk stays unknown).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// u32 count then count keys of keySize bytes.
void keys(NodeReader& r, std::uint64_t keySize) {
    r.skipArray(keySize);
}

// u32 count then count file references.
void fileRefs(NodeReader& r) {
    std::uint32_t n = r.count(1);
    for (std::uint32_t i = 0; i < n; ++i) r.fileRef();
}

// CGameCtnMediaBlockEntity 000: a recorded entity (a ghost's record data) and how it is shown.
// [G] describes versions 0 to 11. A key is time and lights (8 bytes), from key version 6 four
// more values, from 9 the self-illumination intensity; the keys get the chunk's version.
void entity(NodeReader& r) {
    std::uint32_t v = version(r, 11, "media block entity 0329F000");
    r.nodeRef();            // record data (CPlugEntRecordData)
    if (v <= 3) r.skip(8);  // start, end
    r.f32();                // start offset
    r.skipArray(4);         // notice records
    if (v < 2) return;
    r.skip(16);            // no damage, ?, force light, force hue: bools
    if (v <= 5) r.vec3();  // light trail colour
    if (v < 3) return;
    if (v >= 11) r.u32();
    std::string model;
    r.meta(&model);
    r.note("player model", model);
    r.vec3();
    fileRefs(r);  // skins
    if (r.boolean()) ghostBadge(r);
    if (v < 4) return;
    if (v >= 11) r.string("skin options");
    keys(r, 8 + (v >= 6 ? 16 : 0) + (v >= 9 ? 4 : 0));
    if (v == 5) r.f32();
    if (v < 7) return;
    r.note("ghost name", r.string("ghost name"));
    if (v < 8) return;
    r.u32();
    if (v >= 11) r.skip(8);
}

// CGameCtnMediaBlockFxCameraMap 001: twelve floats and ints, a byte, three ints, then the
// image's file reference.
void cameraMap(NodeReader& r) {
    r.skip(12 * 4);
    r.u8();
    r.skip(3 * 4);
    r.fileRef();
}

// CGameCtnMediaBlockCameraSimple (0309F000) stores its chunks under CGameCtnMediaBlockCameraPath's
// IDs 030A1000 to 030A1002 ([G] CGameCtnMediaBlockCameraSimple.chunkl): the node's class tells
// the two layouts apart, as the game reads the chunks of the class it makes.
bool cameraSimple(NodeReader& r) {
    return r.classes().generalize(r.node().classId) == 0x0309F000;
}

// A camera path key of key version v ([G] CGameCtnMediaBlockCameraPath.chunkl): time, position,
// pitch yaw roll, FOV, from version 3 the near plane, the anchor fields (bool, int, bool, int),
// the target position, the weight and a quaternion, from version 4 two ints.
std::uint64_t cameraPathKey(std::uint32_t v) {
    return 80 + (v >= 3 ? 4 : 0) + (v >= 4 ? 8 : 0);
}

// A simple camera's key: time, a byte, a 3x4 matrix, three floats.
constexpr std::uint64_t kCameraSimpleKey = 4 + 1 + 48 + 12;

void cameraPathOrSimple(NodeReader& r, std::uint32_t pathVersion) {
    if (!cameraSimple(r)) {
        keys(r, cameraPathKey(pathVersion));
        return;
    }
    switch (r.generalChunkId()) {
        case 0x030A1000:
            keys(r, kCameraSimpleKey);
            return;
        case 0x030A1001:
            r.u32();
            return;
        default: {
            std::uint32_t v = r.u32();
            keys(r, kCameraSimpleKey);
            r.skip(8);
            if (v >= 2) r.boolean();
        }
    }
}

// CGameCtnMediaBlockObject 000: version 0 the anchored object infos (bool, int, three floats,
// int: 24 bytes each), from version 1 a node of object visibility data. [G] describes 0 and 1.
void objectBlock(NodeReader& r) {
    std::uint32_t v = version(r, 1, "media block object 03196000");
    r.skip(8);  // start, end
    if (v == 0)
        keys(r, 24);
    else
        r.nodeRef();  // CGameReplayObjectVisData
}

// CGameCtnMediaBlockSkel 000. [G] describes versions 0 to 4, but reads the keys without a
// version, so their "version 2" fields (four floats) are never read; with a chunk of version 2 or
// more the keys may hold them or not, and no file here tells.
void skel(NodeReader& r) {
    std::uint32_t v = version(r, 4, "media block skeleton 0314A000");
    if (v >= 2)
        r.fail("media block skeleton 0314A000 version " + std::to_string(v) +
               ": whether its keys hold the four floats GBX.NET gives keys of version 2 is not "
               "described (GBX.NET passes the keys no version)");
    std::uint32_t n = r.count(8);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.f32();          // time
        r.skipArray(28);  // position and rotation per bone
    }
    if (v >= 1) r.u32();
}

// CGameCtnMediaBlockDecal2d 000: start, end, the images, then decals of a 3x4 matrix, a scale,
// a float, a bool and an int (72 bytes each).
void decal2d(NodeReader& r) {
    r.skip(8);
    fileRefs(r);
    keys(r, 48 + 12 + 4 + 4 + 4);
}

// CPlugDataTape 001: version, an int, two int arrays, data, an int, data.
void dataTape(NodeReader& r) {
    r.u32();
    r.u32();
    r.skipArray(4);
    r.skipArray(4);
    r.skip(r.u32());
    r.u32();
    r.skip(r.u32());
}

void registerBlocks(ChunkRegistry& reg) {
    // CGameCtnMediaBlockEntity; 002 the skin options.
    reg.add(0x0329F000, false, entity);
    reg.add(0x0329F002, false, [](NodeReader& r) { r.string("skin options"); });
    // CGameCtnMediaBlockFxCameraMap: 000 start, end.
    reg.add(0x03139000, false, [](NodeReader& r) { r.skip(8); });
    reg.add(0x03139001, false, cameraMap);
    // Bullet effects, character visibility, empty cars: start, end, a data tape node.
    for (std::uint32_t id : {0x03169000u, 0x0316A000u, 0x0325E000u})
        reg.add(id, false, [](NodeReader& r) {
            r.skip(8);
            r.nodeRef();
        });
    // CGameCtnMediaBlockTurret: version, a data tape node.
    reg.add(0x03294000, false, [](NodeReader& r) {
        r.u32();
        r.nodeRef();
    });
    reg.add(0x031AA000, false, decal2d);
    reg.add(0x03196000, false, objectBlock);
    // CGameCtnMediaBlockOpponentVisibility: 000 start, end; 001 the visibility.
    reg.add(0x0338B000, false, [](NodeReader& r) { r.skip(8); });
    reg.add(0x0338B001, false, [](NodeReader& r) { r.u32(); });
    // CGameCtnMediaBlockScenery: 000 version, keys of time and three floats (the key's version
    // changes nothing); 001 version, an int, a data tape node.
    reg.add(0x03188000, false, [](NodeReader& r) {
        r.u32();
        keys(r, 16);
    });
    reg.add(0x03188001, false, [](NodeReader& r) {
        r.u32();
        r.u32();
        r.nodeRef();
    });
    reg.add(0x0314A000, false, skel);
}

// Chunks of older blocks chunks/game/Media.cpp did not read.
void registerOlderChunks(ChunkRegistry& reg) {
    // Camera path 000 to 002 (keys of version 0 to 2) or the simple camera's chunks.
    reg.add(0x030A1000, false, [](NodeReader& r) { cameraPathOrSimple(r, 0); });
    reg.add(0x030A1001, false, [](NodeReader& r) { cameraPathOrSimple(r, 1); });
    reg.add(0x030A1002, false, [](NodeReader& r) { cameraPathOrSimple(r, 2); });
    // Orbital camera 000: keys of version -1: time, a byte, radius, longitude, latitude, the
    // target position, FOV, the two render distances.
    reg.add(0x030A0000, false, [](NodeReader& r) { keys(r, 41); });
    // Colours 000 to 002: 003's layout ([G] CGameCtnMediaBlockFxColors.chunkl, "base: 0x000").
    for (std::uint32_t id = 0x03080000; id <= 0x03080002; ++id)
        reg.add(id, false, [](NodeReader& r) { keys(r, 20 + 2 * 48); });
    reg.add(0x030A5001, false, [](NodeReader& r) { r.f32(); });     // image
    reg.add(0x030A6000, false, [](NodeReader& r) { keys(r, 8); });  // music: time, volume
    reg.add(0x03029002, true, [](NodeReader& r) { r.u32(); });      // triangles
}

}  // namespace

void registerMediaLater(ChunkRegistry& reg) {
    registerBlocks(reg);
    registerOlderChunks(reg);
    reg.add(0x090CE001, false, dataTape);
    // CGameReplayObjectVisData 000: version, keys of ten ints, visibilities of five ints.
    reg.add(0x031A8000, false, [](NodeReader& r) {
        r.u32();
        keys(r, 40);
        keys(r, 20);
    });
}

}  // namespace pakfs::gbx::chunks
