// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's vehicle material of ManiaPlanet (CPlugVehicleMaterial 090F1000): the
// surface a car drives on, its grip, vibration, trail and particle emitters.
//
// Source: [G] GBX.NET, Engines/Plug/CPlugVehicleMaterial.chunkl and CPlugVehicleMaterial.Keys.cs
// (the Keys archive). "byte" is one byte, "bool" a u32 0 or 1. Chunk 090F1010 above the
// highest version [G] describes is refused.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The Keys archive [G]: from `v` 0 on, inline keys (a keys version, a count, by that version a
// byte, an int or a short, then count (x, y) pairs); below 0, a CFuncKeysReal node reference.
void materialKeys(NodeReader& r, int v) {
    if (v < 0) {
        r.nodeRef();
        return;
    }
    const std::uint32_t kv = r.u32();
    const std::uint32_t n = r.count(8);
    if (kv == 1)
        r.u8();
    else if (kv == 2)
        r.u32();
    else if (kv == 3)
        r.u16();
    r.skip(std::uint64_t(n) * 8);
}

void material010(NodeReader& r) {
    const std::uint32_t v = version(r, 14, "vehicle material 090F1010");
    const int kv = int(v) - 12;
    floats(r, 4);
    r.u8();
    if (v == 1) floats(r, 2);
    if (v >= 7) floats(r, 2);
    if (v >= 1) floats(r, 3);
    if (v >= 2) r.f32();
    if (v >= 3) floats(r, 3);
    if (v >= 4) {
        r.boolean();
        floats(r, 2);  // vec2
    }
    if (v >= 5) r.f32();
    if (v >= 6) r.f32();
    if (v >= 8) {
        r.f32();
        if (v <= 13) r.f32();
    }
    if (v >= 9) materialKeys(r, kv);
    if (v >= 10) materialKeys(r, kv);
    if (v >= 11) r.f32();
    if (v >= 13) {
        materialKeys(r, kv);
        materialKeys(r, kv);
        floats(r, 3);
    }
    if (v >= 14) {
        materialKeys(r, kv);
        r.u32();
    }
}

}  // namespace

void registerPlugVehicleMaterial(ChunkRegistry& reg) {
    reg.add(0x090F1001, false, [](NodeReader& r) {  // material, trail, shader, vibration
        r.u8();
        r.boolean();
        r.nodeRef();
        floats(r, 2);
    });
    reg.add(0x090F1004, false, [](NodeReader& r) {  // height detail bitmap and scale
        r.nodeRef();
        floats(r, 2);
    });
    reg.add(0x090F1005, false, [](NodeReader& r) { floats(r, 4); });  // speed, grip, coefs
    reg.add(0x090F1006, false, [](NodeReader& r) { r.nodeRef(); });   // trail manager model
    reg.add(0x090F1009, false, [](NodeReader& r) {
        r.u8();
        floats(r, 2);
        r.boolean();
        for (int i = 0; i < 5; ++i) r.nodeRef();  // a node, then four particle emitters
    });
    for (std::uint32_t id : {0x090F100Au, 0x090F100Bu, 0x090F100Cu, 0x090F100Du})
        reg.add(id, false, [](NodeReader& r) { r.nodeRef(); });  // a particle emitter
    reg.add(0x090F100E, false, [](NodeReader& r) {
        r.u8();
        floats(r, 2);
    });
    reg.add(0x090F100F, false, [](NodeReader& r) { floats(r, 2); });
    reg.add(0x090F1010, false, material010);
}

}  // namespace pakfs::gbx::chunks
