// SPDX-License-Identifier: GPL-2.0-or-later
// The Function engine's curves and light functions the Plug objects hold: CFuncKeys (05002000)
// and CFuncKeysReal (0501A000), e.g. a train wagon's acceleration curve; CFuncLight (05018000)
// and CFuncLightColor (05019000), a CPlugLight's function, with the chunks of their base
// CFuncPlug (0500B000).
// Layouts: [G] GBX.NET, Engines/Function/CFuncKeys.chunkl, CFuncKeysReal.chunkl,
// CFuncLight.chunkl, CFuncLightColor.chunkl, and their base CFuncPlug.chunkl.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// CFuncKeysReal 001: the values, then the interpolation (0-3 [G]).
void keysRealValues(NodeReader& r) {
    std::uint32_t n = r.skipArray(4);
    std::uint32_t interp = r.u32();
    if (interp > 3)
        r.fail("CFuncKeysReal interpolation " + num(interp) + " is not one GBX.NET names");
    r.note("keys", num(n));
}

}  // namespace

void registerFunc(ChunkRegistry& reg) {
    // CFuncKeys: 001 the keys' positions, 003 an Id.
    reg.add(0x05002001, false, [](NodeReader& r) { r.skipArray(4); });
    reg.add(0x05002003, false, [](NodeReader& r) { r.lookback(); });
    // CFuncKeysReal: 000 the values; 001 the values and interpolation; 002 those, then two
    // forced-tangent flags and the two tangents.
    reg.add(0x0501A000, false, [](NodeReader& r) { r.note("keys", num(r.skipArray(4))); });
    reg.add(0x0501A001, false, keysRealValues);
    reg.add(0x0501A002, false, [](NodeReader& r) {
        keysRealValues(r);
        r.boolean();
        r.boolean();
        floats(r, 2);
    });
    // CFuncPlug: period, phase, auto-create-motion flag; (004) a randomize-phase flag; (005)
    // the input value's Id. 003 is TrackMania 1.0's.
    reg.add(0x0500B003, false, [](NodeReader& r) {
        floats(r, 2);
        r.boolean();
    });
    reg.add(0x0500B004, false, [](NodeReader& r) {
        floats(r, 2);
        r.boolean();
        r.boolean();
    });
    reg.add(0x0500B005, false, [](NodeReader& r) {
        floats(r, 2);
        r.boolean();
        r.boolean();
        r.lookback();
    });
    // CFuncLight 000: function type, flicker period and count. CFuncLightColor: 001 two
    // colours (4 floats each); 002 those and an image (a node, often in another file).
    reg.add(0x05018000, false, [](NodeReader& r) { r.skip(12); });
    reg.add(0x05019001, false, [](NodeReader& r) { floats(r, 8); });
    reg.add(0x05019002, false, [](NodeReader& r) {
        floats(r, 8);
        r.nodeRef();
    });
}

}  // namespace pakfs::gbx::chunks
