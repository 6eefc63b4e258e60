// SPDX-License-Identifier: GPL-2.0-or-later
// The zones a collection holds: CGameCtnZone (0305C000) and CGameCtnZoneFlat (0305D000), as
// ManiaPlanet's Common.Collection.Gbx files of dedicated.pak hold them. Layouts from GBX.NET
// (Engines/Game/CGameCtnZone.chunkl, CGameCtnZoneFlat.chunkl).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerGameZone(ChunkRegistry& reg) {
    // CGameCtnZone
    reg.add(0x0305C003, false, [](NodeReader& r) {
        r.u32();       // height
        r.lookback();  // zone ID
        r.lookback();  // surface ID
        r.u32();
    });
    reg.add(0x0305C004, true, [](NodeReader& r) {
        r.u32();      // depth
        r.boolean();  // old zone
    });
    reg.add(0x0305C005, false, [](NodeReader& r) { r.boolean(); });   // has water
    reg.add(0x0305C006, false, [](NodeReader& r) { r.boolean(); });   // is large zone
    reg.add(0x0305C007, false, [](NodeReader& r) { r.f32(); });       // visual top ground height
    reg.add(0x0305C008, false, [](NodeReader& r) { r.u32(); });       // height
    reg.add(0x0305C00B, false, [](NodeReader& r) { r.lookback(); });  // water ID
    reg.add(0x0305C00C, false, [](NodeReader& r) { r.lookback(); });  // forced parent frontier
    // CGameCtnZoneFlat: the flat, clip, road and pylon block infos; two skippable flag chunks
    reg.add(0x0305D001, false, [](NodeReader& r) {
        for (int i = 0; i < 4; ++i) r.nodeRef();
    });
    reg.add(0x0305D002, true, [](NodeReader& r) {
        r.u32();
        r.boolean();  // ground only
        r.boolean();
    });
    reg.add(0x0305D003, true, [](NodeReader& r) { r.boolean(); });  // auto simplify genealogy
}

}  // namespace pakfs::gbx::chunks
