// SPDX-License-Identifier: GPL-2.0-or-later
// The entity model of a ManiaPlanet or Trackmania 2020 item (CGameCommonItemEntityModel
// 2E027000), and the older body chunks of CGameItemModel (2E002000 to 2E002011: vehicle, skins,
// solids, cameras, materials) that items written before the model chunk 019 may still hold.
// Layouts: [G] GBX.NET, Engines/GameData/CGameCommonItemEntityModel.chunkl and
// CGameItemModel.chunkl; Engines/Plug/CPlugStaticObjectModel.chunkl.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// CGameCommonItemEntityModel 000: the models (version 0), two strings (version 3), the static
// object (from 4), then from version 2 the trigger, particles, actions, five strings, a location
// and an int, and from version 5 a byte.
void commonItemEntityModel(NodeReader& r) {
    std::uint32_t v = version(r, 5, "item entity model 2E027000");
    if (v == 0) {
        r.nodeRef();  // physics model
        r.nodeRef();  // visual model
    }
    if (v == 3) {
        r.string();
        r.string();
    }
    if (v >= 4) r.nodeRef();  // static object model (read by its class body)
    if (v < 2) return;
    r.nodeRef();  // trigger shape
    iso4(r);
    r.nodeRef();  // particle emitter model
    refArray(r);  // actions
    r.nodeRef();  // [G] "v5-": every version up to the highest
    for (int i = 0; i < 5; ++i) r.string();
    iso4(r);
    r.u32();  // expression validator
    if (v >= 5) r.u8();
}

}  // namespace

void registerItemEntity(ChunkRegistry& reg) {
    reg.add(0x2E027000, false, commonItemEntityModel);
    for (std::uint32_t cls : {0x0301C000u, 0x2E002000u}) {
        // Vehicle, game skin, old race interface, low quality solid, a node.
        for (std::uint32_t i = 0x000; i <= 0x004; ++i)
            reg.add(cls | i, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x007, false, [](NodeReader& r) { nodeRefs(r, 3); });  // old materials
        reg.add(cls | 0x00D, false, [](NodeReader& r) { refArray(r); });     // forced skins
        reg.add(cls | 0x00E, false, [](NodeReader& r) { nodeRefs(r, 4); });  // car materials
        reg.add(cls | 0x011, false, [](NodeReader& r) { nodeRefs(r, 9); });  // materials, lights
    }
}

}  // namespace pakfs::gbx::chunks
