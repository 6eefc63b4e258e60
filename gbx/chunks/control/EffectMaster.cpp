// SPDX-License-Identifier: GPL-2.0-or-later
// Control engine classes ManiaPlanet's menus hold beside their styles (Control.cpp):
// CControlEffectMaster (0701C000), the effects a control plays on focus, show, hide and action.
// Layouts from GBX.NET (Engines/Control/CControlEffectMaster.chunkl).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
void registerControlEffectMaster(ChunkRegistry& reg) {
    // CControlEffectMaster: 000 nine effects (focus, focus gained and lost, by another,
    // sleeping, showing, hiding, action); 001 a boolean and an int; 002 the nine and a managed
    // effect; 003 a special effect (a CMwRefBuffer).
    reg.add(0x0701C000, false, [](NodeReader& r) { nodeRefs(r, 9); });
    reg.add(0x0701C001, false, [](NodeReader& r) {
        r.boolean();
        r.u32();
    });
    reg.add(0x0701C002, false, [](NodeReader& r) { nodeRefs(r, 10); });
    reg.add(0x0701C003, false, [](NodeReader& r) { r.nodeRef(); });
}

}  // namespace pakfs::gbx::chunks
