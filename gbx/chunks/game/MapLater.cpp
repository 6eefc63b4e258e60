// SPDX-License-Identifier: GPL-2.0-or-later
// Nodes the blocks of later maps (ManiaPlanet, Trackmania 2020) hold beside their waypoint
// property: the character physics property (CPlugCharPhySpecialProperty 090F2000).
// Layout: [G] GBX.NET, Engines/Plug/CPlugCharPhySpecialProperty.chunkl.
#include "gbx/chunks/ChunkReaders.hpp"

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
