// SPDX-License-Identifier: GPL-2.0-or-later
// Effect and skin classes of ManiaPlanet: CPlugVisEntFxModel (09115000), CSceneFxNod
// (0A03A000), CPlugPointsInSphereOpt (09066000) and CPlugGameSkin's body chunks (090F4001 to
// 090F4004).
//
// Source: [G] GBX.NET, Engines/Plug/CPlugVisEntFxModel.chunkl, Engines/Scene/CSceneFxNod.chunkl,
// Engines/Plug/CPlugPointsInSphereOpt.chunkl, Engines/Plug/CPlugGameSkin.chunkl and .cs. A
// versioned chunk above the version [G] describes is refused.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// CPlugGameSkin 000 and 001 [G]: a count, a second count the game does not use, then per
// entry a node reference and a name.
void skinFids(NodeReader& r) {
    const std::uint32_t n = r.count(8);
    r.u32();
    for (std::uint32_t i = 0; i < n; ++i) {
        r.nodeRef();
        r.string("skin file name");
    }
}

// CPlugVisEntFxModel 000 [G]: four particle emitters, two curves, three floats, a light ball.
void visEntFx(NodeReader& r) {
    version(r, 0, "visual entity effect 09115000");
    for (int i = 0; i < 6; ++i) r.nodeRef();
    floats(r, 3);
    r.nodeRef();
}

// CPlugGameSkin 004 [G]: a byte version, the folder, (1+) the painter's texture and scene, a
// byte count of files (class ID, name, (3+) a node reference behind a bool, else a folder,
// (2+) mip maps), (4+) another folder, (5+) a bool, (6+) a string, (7+) an int.
void skinFiles(NodeReader& r) {
    const std::uint8_t v = r.u8();
    if (v > 7)
        r.refuseVersion("game skin 090F4004 version " + num(v) +
                        " not supported (7 is the highest any source describes)");
    r.string("skin folder");
    if (v >= 1) {
        r.string("painter texture name");
        r.string("painter scene");
    }
    const std::uint8_t n = r.u8();
    for (std::uint8_t i = 0; i < n; ++i) {
        r.u32();  // class ID
        r.string("skin file name");
        if (v >= 3) {
            if (r.boolean()) r.nodeRef();
        } else {
            r.string("skin file folder");
        }
        if (v >= 2) r.boolean();
    }
    if (v < 4) return;
    r.string("alternative skin folder");
    if (v < 5) return;
    r.boolean();
    if (v < 6) return;
    r.string();
    if (v < 7) return;
    r.u32();
}

}  // namespace

void registerPlugFx(ChunkRegistry& reg) {
    reg.add(0x09115000, false, visEntFx);
    // CSceneFxNod [G]: 000 its effect, 001 its inputs and an int, 002 two nodes.
    reg.add(0x0A03A000, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x0A03A001, false, [](NodeReader& r) {
        r.u32();  // array version
        refArray(r);
        r.u32();
    });
    reg.add(0x0A03A002, false, [](NodeReader& r) {
        version(r, 0, "scene effect node 0A03A002");
        r.nodeRef();
        r.nodeRef();
    });
    // CPlugPointsInSphereOpt 000 [G]: packs of two ints, then points.
    reg.add(0x09066000, false, [](NodeReader& r) {
        r.skipArray(8);
        r.skipArray(12);
    });
    reg.add(0x090F4001, false, skinFids);
    reg.add(0x090F4004, false, skinFiles);
    // CPlugGameSkin 003 [G]: the painter's texture name and scene Id, two strings.
    reg.add(0x090F4003, false, [](NodeReader& r) {
        r.string("painter texture name");
        r.string("painter scene");
    });
}

}  // namespace pakfs::gbx::chunks
