// SPDX-License-Identifier: GPL-2.0-or-later
// The classes items and block infos hold whose node bodies are their fields, with no chunk IDs:
// an item's placement class (NPlugItemPlacement_SClass 09187000, held by CGameItemPlacementParam
// 2E020005) and a block info mobil's dyna links (CGameCtnBlockInfoMobilLink 03192000, held by
// 03122004).
//
// Sources of the layouts, named per reader below:
//   [G] GBX.NET: Engines/Plug/NPlugItemPlacement_SClass.chunkl and .cs (its archive and the
//       PatchLayout archive it names), Engines/Game/CGameCtnBlockInfoMobilLink.cs (its
//       ReadWrite; the .chunkl names the class only);
//   [R] a public Rust reader (the `gbx` crate's item placement class), which reads the same
//       fields as [G] but only in version 10.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// A count of Ids (lookback strings), each at least its 4-byte index.
void idArray(NodeReader& r) {
    countedArray(r, 4, [&r] { r.lookback(); });
}

// A patch layout of the placement class [G] [R]: item count, item spacing, fill alignment and
// direction, normed position, a float, the groups it applies to (Ids), altitude, a float.
void patchLayout(NodeReader& r) {
    r.u32();       // item count
    r.f32();       // item spacing
    r.u32();       // fill alignment
    r.u32();       // fill direction
    floats(r, 2);  // normed position, a float [G] guesses is the distance from it
    idArray(r);    // only on groups
    floats(r, 2);  // altitude, a float [G] guesses is the fill border offset
}

// NPlugItemPlacement_SClass [G] [R]: version, size group (Id), compatible groups (Ids), three
// flags (always up, align to interior, align to world direction), the world direction, the patch
// layouts and the groups' current patch layouts (ints). [G] reads every version so, [R] only
// version 10: another version stops, as no file here holds one.
void placementClass(NodeReader& r) {
    std::uint32_t v = r.u32();
    if (v != 10)
        r.fail("NPlugItemPlacement_SClass version " + num(v) +
               ": GBX.NET reads every version in one layout, the gbx crate only version 10, "
               "and no file here decides");
    std::string sizeGroup = r.lookback();
    idArray(r);   // compatible groups
    r.boolean();  // always up
    r.boolean();  // align to interior
    r.boolean();  // align to world direction
    r.vec3();     // world direction
    std::uint32_t layouts = r.count(9 * 4);
    for (std::uint32_t i = 0; i < layouts; ++i) patchLayout(r);
    r.skipArray(4);  // the groups' current patch layouts
    if (!sizeGroup.empty()) r.note("size group", sizeGroup);
    r.note("patch layouts", num(layouts));
}

// CGameCtnBlockInfoMobilLink [G]: version, socket (Id), the object model (a node), and in
// version 0 one more node [G] does not name (it notes the layout may still not be perfect).
void mobilLink(NodeReader& r) {
    // [G] branches on version 0 only: 1 is the highest whose bytes it can be said to give.
    std::uint32_t v = version(r, 1, "CGameCtnBlockInfoMobilLink");
    std::string socket = r.lookback();
    r.nodeRef();  // object model
    if (v == 0) r.nodeRef();
    if (!socket.empty()) r.note("socket", socket);
}

}  // namespace

void registerItemPlacement(ChunkRegistry& reg) {
    reg.addClassBody(0x09187000, placementClass);
    reg.addClassBody(0x03192000, mobilLink);
}

}  // namespace pakfs::gbx::chunks
