// SPDX-License-Identifier: GPL-2.0-or-later
// Media tracker: clip groups, clips, tracks, the media blocks, and CControlEffectSimi.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// An old-style node array: u32 version (10), u32 count, noderefs.
void nodeArray(NodeReader& r) {
    r.u32();
    refArray(r);
}

// u32 count then count keys of keySize bytes.
void keys(NodeReader& r, std::uint64_t keySize) {
    r.skipArray(keySize);
}

void simiKeys(NodeReader& r, std::uint64_t keySize) {
    keys(r, keySize);
    r.boolean();  // centered
}

// Size of a key of 030A2006 for key version v (6 + the chunk's version): time, interpolation,
// anchor fields, position, rotation, FOV, target, then the left and right tangents.
std::uint64_t cameraCustomKeySize(std::uint32_t v) {
    std::uint64_t tangent = 12 + 12 + (v >= 10 ? 4 : 0) + 4 + 12 + (v >= 7 ? 4 : 0);
    return 24 + 40 + (v >= 7 ? 4 : 0) + 2 * tangent + (v == 8 ? 8 : 0) + (v >= 10 ? 4 : 0);
}

// 0307A001 and 0307A002 ([G] Game/CGameCtnMediaClipGroup.chunkl): the clips, then the
// triggers in the layout of their version: 1 the coordinates only, 2 the coordinates then four
// ints. 0307A003 (version 3) is below.
void clipGroupOld(NodeReader& r, std::uint32_t version) {
    nodeArray(r);
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.skipArray(12);  // trigger coordinates
        if (version >= 2) r.skip(16);
    }
}

}  // namespace

void registerMedia(ChunkRegistry& reg) {
    // CGameCtnMediaClipGroup
    reg.add(0x0307A001, false, [](NodeReader& r) { clipGroupOld(r, 1); });
    reg.add(0x0307A002, false, [](NodeReader& r) { clipGroupOld(r, 2); });
    reg.add(0x0307A004, true, [](NodeReader& r) { r.u32(); });
    reg.add(0x0307A003, false, [](NodeReader& r) {
        nodeArray(r);
        std::uint32_t n = r.count(28);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.vec3();
            r.skip(12);       // rotation, condition, argument
            r.skipArray(12);  // trigger positions
        }
    });

    // CGameCtnMediaClip
    reg.add(0x03079002, false, [](NodeReader& r) {
        nodeArray(r);
        r.note("name", r.string("clip name"));
        r.u32();
    });
    reg.add(0x03079003, false, [](NodeReader& r) {
        nodeArray(r);
        r.note("name", r.string("clip name"));
    });
    // The seed calls this an ignored u32; it is a node reference (a scene, normally -1).
    reg.add(0x03079004, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x03079005, false, [](NodeReader& r) {
        nodeArray(r);
        r.note("name", r.string("clip name"));
    });
    reg.add(0x03079007, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x03079008, false, [](NodeReader& r) { r.f32(); });
    reg.add(0x03079009, false, [](NodeReader& r) { r.string(); });
    reg.add(0x0307900A, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0307900B, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0307900C, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0307900D, false, [](NodeReader& r) {
        r.u32();  // version
        nodeArray(r);
        r.note("name", r.string("clip name"));
        r.boolean();
        r.boolean();
        r.boolean();
        r.string();
        r.f32();
        r.u32();
    });

    // 00E ([G] Game/CGameCtnMediaClip.chunkl): version, an int; version 1 in the 2020 clip of
    // ../shared/fixtures/gbx [game], no other described.
    reg.add(0x0307900E, true, [](NodeReader& r) {
        version(r, 1, "media clip 0307900E");
        r.u32();
    });

    // CGameCtnMediaTrack
    reg.add(0x03078001, false, [](NodeReader& r) {
        r.note("name", r.string("track name"));
        nodeArray(r);
        r.u32();
    });
    reg.add(0x03078002, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x03078003, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x03078004, false, [](NodeReader& r) {
        r.boolean();
        r.u32();
    });
    reg.add(0x03078005, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.boolean();            // keep playing
        r.boolean();            // read only
        r.boolean();            // cycling
        if (v >= 1) r.skip(8);  // repeating segment start and end (-1: none)
    });

    // CControlEffectSimi: keys of time, position, rotation, scale (24 bytes), then from key
    // version 1 the opacity, from 2 the depth, from 3 four floats ([G]
    // Control/CControlEffectSimi.chunkl; a chunk's keys have its own version).
    reg.add(0x07010001, false, [](NodeReader& r) { simiKeys(r, 28); });
    reg.add(0x07010002, false, [](NodeReader& r) { simiKeys(r, 32); });
    reg.add(0x07010003, false, [](NodeReader& r) { simiKeys(r, 32); });
    reg.add(0x07010004, false, [](NodeReader& r) {
        simiKeys(r, 48);
        r.u32();      // color blend mode
        r.boolean();  // continuous effect
    });
    reg.add(0x07010005, false, [](NodeReader& r) {
        r.readChunk(0x07010004);
        r.boolean();  // interpolated
    });

    // Media blocks
    // Camera path 000 to 002: below, with the later blocks (the simple camera shares their IDs).
    // Camera custom ([G] Game/CGameCtnMediaBlockCameraCustom.chunkl): a key of version 1 ends
    // with two floats after the target position (80 bytes), of 2 to 5 with two tangent
    // positions (96 bytes).
    reg.add(0x030A2001, false, [](NodeReader& r) { keys(r, 80); });
    reg.add(0x030A2002, false, [](NodeReader& r) { keys(r, 96); });
    reg.add(0x030A2005, false, [](NodeReader& r) { keys(r, 96); });
    reg.add(0x030A2006, false, [](NodeReader& r) {  // camera custom (later)
        std::uint32_t v = r.u32();
        if (v > 16)
            r.refuseVersion("custom camera version " + std::to_string(v) + " not supported");
        keys(r, cameraCustomKeySize(6 + v));
    });
    reg.add(0x03145000, false, [](NodeReader& r) { r.skip(8); });     // shoot: start, end
    for (std::uint32_t id : {0x03128000u, 0x03128001u, 0x03128002u})  // bloom HDR
        reg.add(id, false, [](NodeReader& r) { keys(r, 16); });
    reg.add(0x030A0001, false, [](NodeReader& r) {  // camera orbital
        std::uint32_t v = r.u32();
        if (v > 1)
            r.refuseVersion("orbital camera version " + std::to_string(v) + " not supported");
        keys(r, 41 + 4 + (v >= 1 ? 16 : 0));
    });
    reg.add(0x030A1003, false, [](NodeReader& r) {  // camera path (later)
        std::uint32_t v = r.u32();
        if (v > 5) r.refuseVersion("camera path version " + std::to_string(v) + " not supported");
        keys(r, 80 + (v >= 3 ? 4 : 0) + (v >= 4 ? 8 : 0));
    });
    reg.add(0x03166000, false, [](NodeReader& r) {  // inertial tracking
        std::uint32_t v = r.u32();
        if (v != 0) r.fail("inertial tracking version " + std::to_string(v) + " not supported");
        r.skip(8 + 12);  // start, end, tracking, auto zoom, auto focus
    });
    reg.add(0x03126000, false, [](NodeReader& r) { keys(r, 12); });  // depth of field
    reg.add(0x03126001, false, [](NodeReader& r) { keys(r, 16); });
    reg.add(0x03126002, false, [](NodeReader& r) { keys(r, 28); });
    reg.add(0x03161000, false, [](NodeReader& r) {  // camera effect script
        std::uint32_t v = r.u32();
        r.string("script");
        if (v == 0) r.skip(8);  // start, end
        keys(r, 16);
    });
    reg.add(0x03186000, false, [](NodeReader& r) { r.fileRef(); });  // color grading image
    reg.add(0x03186001, false, [](NodeReader& r) { keys(r, 8); });   // color grading keys
    reg.add(0x03165000, false, [](NodeReader& r) {                   // dirty lens
        r.u32();                                                     // version
        keys(r, 8);
    });
    // Camera game (later): [G] describes versions 0 to 3; version 4, in the game-written clip
    // and map of ../shared/fixtures/gbx, reads whole in version 3's layout [game].
    reg.add(0x03084007, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 4, "game camera 03084007");
        r.skip(8);  // start, end
        if (v <= 1)
            r.lookback();  // game camera name
        else
            r.u32();  // game camera
        r.u32();      // clip entity
        r.skip(44);   // position, rotation, FOV, two floats, near and far planes
        r.skip(12);   // three bools
        if (v >= 1) r.f32();
        if (v >= 3) r.u32();
    });
    reg.add(0x03133000, false, [](NodeReader& r) { r.skip(8); });  // vehicle light
    reg.add(0x03133001, false, [](NodeReader& r) { r.u32(); });    // its target
    reg.add(0x03195000, false, [](NodeReader& r) {                 // interface
        r.u32();                                                   // version
        r.skip(8);                                                 // start, end
        r.boolean();                                               // show interface
        r.string("manialink");
    });
    reg.add(0x03199000, false, [](NodeReader& r) {  // fog
        std::uint32_t v = r.u32();
        if (v > 2) r.refuseVersion("fog version " + std::to_string(v) + " not supported");
        keys(r, 16 + (v >= 1 ? 16 : 0) + (v >= 2 ? 8 : 0));
    });
    reg.add(0x030A4000, false, [](NodeReader& r) { keys(r, 12); });  // camera shake
    reg.add(0x030A5000, false, [](NodeReader& r) {                   // image
        r.nodeRef();
        r.fileRef();
    });
    reg.add(0x030A6001, false, [](NodeReader& r) { keys(r, 12); });  // music effect
    reg.add(0x030A7001, false, [](NodeReader& r) {                   // sound
        r.fileRef();
        keys(r, 12);
    });
    reg.add(0x030A7002, false, [](NodeReader& r) {
        r.u32();
        r.boolean();
    });
    reg.add(0x030A7003, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.u32();
        r.boolean();
        r.boolean();
        if (v >= 1) r.boolean();
        if (v >= 2) {
            r.boolean();
            r.u32();
        }
    });
    // Sound 004 ([G] CGameCtnMediaBlockSound.chunkl): keys of time, volume and pan, from key
    // version 1 a position; the keys get the chunk's version.
    reg.add(0x030A7004, false, [](NodeReader& r) {
        r.fileRef();
        std::uint32_t v = version(r, 1, "sound 030A7004");
        keys(r, v >= 1 ? 24 : 12);
    });
    reg.add(0x030A8001, false, [](NodeReader& r) {  // text
        r.note("text", r.string("text"));
        r.nodeRef();
    });
    reg.add(0x030A8002, false, [](NodeReader& r) { r.color(); });
    reg.add(0x030A8003, false, [](NodeReader& r) { r.f32(); });    // [G] CGameCtnMediaBlockText
    reg.add(0x030A9000, false, [](NodeReader& r) { r.skip(8); });  // trails
    reg.add(0x030AB000, false, [](NodeReader& r) {                 // transition fade
        keys(r, 8);
        r.color();
        r.f32();
    });
    reg.add(0x03080003, false, [](NodeReader& r) { keys(r, 20 + 2 * 48); });  // fx colors
    reg.add(0x03081001, false, [](NodeReader& r) { keys(r, 16); });           // blur depth
    reg.add(0x03082000, false, [](NodeReader& r) { r.skip(8); });             // blur motion
    reg.add(0x03083001, false, [](NodeReader& r) { keys(r, 12); });           // bloom
    // CGameCtnMediaBlockCameraGame ([G] Game/CGameCtnMediaBlockCameraGame.chunkl): 000 start,
    // end, the old game camera; 001 adds the clip entity. 003 start, end, camera ID, clip entity;
    // 004 adds position, pitch yaw roll, FOV, two floats, near and far clip planes; 005 and 006
    // add a bool each.
    reg.add(0x03084000, false, [](NodeReader& r) { r.skip(12); });
    reg.add(0x03084001, false, [](NodeReader& r) { r.skip(16); });
    reg.add(0x03084003, false, [](NodeReader& r) {
        r.skip(8);
        r.lookback();
        r.u32();
    });
    reg.add(0x03084004, false, [](NodeReader& r) {
        r.readChunk(0x03084003);
        r.skip(44);
    });
    reg.add(0x03084005, false, [](NodeReader& r) {
        r.readChunk(0x03084004);
        r.boolean();
    });
    reg.add(0x03084006, false, [](NodeReader& r) {
        r.readChunk(0x03084005);
        r.boolean();
    });
    // CGameCtnMediaBlockUi ([G] Game/CGameCtnMediaBlockUi.chunkl): 000 the interface (a
    // CControlContainer), start, end; 001 start, end.
    reg.add(0x0307D000, false, [](NodeReader& r) {
        r.nodeRef();
        r.skip(8);
    });
    reg.add(0x0307D001, false, [](NodeReader& r) { r.skip(8); });
    // CGameCtnMediaBlockManialink ([G] Game/CGameCtnMediaBlockManialink.chunkl): version,
    // start, end, the manialink's URL.
    reg.add(0x0312A001, false, [](NodeReader& r) {
        r.u32();
        r.skip(8);
        r.string("manialink URL");
    });
    // Time: keys of time, value, tangent. CGameCtnMediaBlockTimeSpeed (03129000) stores its
    // keys of time and speed under this chunk ID too ([G] Game/CGameCtnMediaBlockTime.chunkl,
    // CGameCtnMediaBlockTimeSpeed.chunkl).
    reg.add(0x03085000, false, [](NodeReader& r) {
        bool timeSpeed = r.classes().generalize(r.node().classId) == 0x03129000;
        keys(r, timeSpeed ? 8 : 12);
    });
    reg.add(0x03129000, false, [](NodeReader& r) { keys(r, 8); });
    // Tone mapping ([G] Game/CGameCtnMediaBlockToneMapping.chunkl): five chunk IDs, one layout;
    // keys of time, exposure, max HDR, light trail scale and an int.
    for (std::uint32_t id = 0x03127000; id <= 0x03127004; ++id)
        reg.add(id, false, [](NodeReader& r) { keys(r, 20); });
    // Coloring base ([G] Game/CGameCtnMediaBlockColoringBase.chunkl): keys of time and hue,
    // from version 1 an intensity, from 2 a short; the base index from version 1.
    reg.add(0x03172000, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        if (v > 2) r.refuseVersion("coloring base version " + std::to_string(v) + " not supported");
        if (v >= 2) r.u32();
        keys(r, 8 + (v >= 1 ? 4 : 0) + (v >= 2 ? 2 : 0));
        if (v >= 1) r.u32();
    });
    // Coloring capturable ([G] Game/CGameCtnMediaBlockColoringCapturable.chunkl): keys of
    // time, hue, gauge, emblem; the capturable index from version 1.
    reg.add(0x0316C000, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.u32();
        keys(r, 16);
        if (v >= 1) r.u32();
    });
    // Camera blend ([G] Game/CGameCtnMediaBlockFxCameraBlend.chunkl): version, keys of time
    // and capture weight.
    reg.add(0x0316D000, false, [](NodeReader& r) {
        r.u32();
        keys(r, 8);
    });
    // Spectators ([G] Game/CGameCtnMediaBlockSpectators.chunkl; the Forever class table gives
    // 030EB000 to CGameLoadProgress, which has no chunks): version, keys of time and count.
    reg.add(0x030EB000, false, [](NodeReader& r) {
        r.u32();
        keys(r, 8);
    });
    reg.add(0x03024000, false, [](NodeReader& r) { keys(r, 12); });  // 3d stereo
    reg.add(0x03029001, false, [](NodeReader& r) {                   // triangles
        std::uint32_t numKeys = r.count(4);
        r.skip(std::uint64_t(numKeys) * 4);
        std::uint32_t keys2 = r.count(0);
        std::uint32_t points = r.u32();
        // keys2 * points * 12 can pass 2^64; no file holds more than 2^64 bytes anyway.
        if (points != 0 && keys2 > ~std::uint64_t(0) / 12 / points)
            r.fail("triangle positions: " + std::to_string(keys2) + " keys of " +
                   std::to_string(points) + " points do not fit in any file");
        r.skip(std::uint64_t(keys2) * points * 12);
        r.skipArray(16);  // point colors and opacity
        r.skipArray(12);  // triangles
        r.skip(28);
    });
    reg.add(0x030E5001, false, [](NodeReader& r) {  // ghost
        r.skip(8);
        r.nodeRef();
        r.f32();
    });
    reg.add(0x030E5002, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        if (v < 3)
            r.skip(8);
        else
            keys(r, 8);
        r.nodeRef();
        r.f32();
        r.boolean();
        r.boolean();
        r.boolean();
    });
}

}  // namespace pakfs::gbx::chunks

// Media blocks of the later games (ManiaPlanet, Trackmania 2020) that the readers above do
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

namespace pakfs::gbx::chunks {
namespace {

// u32 count then count file references.
void fileRefs(NodeReader& r) {
    countedArray(r, 1, [&r] { r.fileRef(); });
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

void addLaterBlocks(ChunkRegistry& reg) {
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

// Chunks of older blocks the readers above did not read.
void addOlderChunks(ChunkRegistry& reg) {
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
    addLaterBlocks(reg);
    addOlderChunks(reg);
    reg.add(0x090CE001, false, dataTape);
    // CGameReplayObjectVisData 000: version, keys of ten ints, visibilities of five ints.
    reg.add(0x031A8000, false, [](NodeReader& r) {
        r.u32();
        keys(r, 40);
        keys(r, 20);
    });
}

}  // namespace pakfs::gbx::chunks
