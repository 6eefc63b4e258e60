// SPDX-License-Identifier: GPL-2.0-or-later
// CGameVehicleModel (2E01C000), the vehicle an item of ManiaPlanet's Trackmania title holds
// (Items/Vehicles/*.ObjectInfo.Gbx of dedicated.pak). Layout from GBX.NET (Engines/GameData/
// CGameVehicleModel.chunkl): a version, the physics and visual models, the occupant slots (an
// identifier and action models each), from version 1 object models, in version 2 one more node.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerGameVehicle(ChunkRegistry& reg) {
    reg.add(0x2E01C000, false, [](NodeReader& r) {
        std::uint32_t version = r.u32();
        if (version > 2)
            r.refuseVersion("CGameVehicleModel 2E01C000 version " + num(version) +
                            " (2 is the highest any source describes)");
        r.nodeRef();  // physics model
        r.nodeRef();  // visual model
        std::uint32_t slots = r.count(8);
        for (std::uint32_t i = 0; i < slots; ++i) {
            r.lookback();
            refArray(r);  // action models
        }
        if (version >= 1) refArray(r);  // object models
        if (version == 2) r.nodeRef();
        r.note("occupant slots", num(slots));
    });
}

}  // namespace pakfs::gbx::chunks
