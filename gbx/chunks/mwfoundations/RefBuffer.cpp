// SPDX-License-Identifier: GPL-2.0-or-later
// CMwRefBuffer (01026000), a list of nodes of one class (ManiaPlanet's menus, icon lists and
// character models keep such buffers). Layout from GBX.NET (Engines/MwFoundations/
// CMwRefBuffer.chunkl): 000 the class of the nodes, whether they are reference-counted and a
// deprecated node array (a version word, then a count of node references); 001 an identifier.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerMwRefBuffer(ChunkRegistry& reg) {
    reg.add(0x01026000, false, [](NodeReader& r) {
        std::uint32_t cls = r.u32();
        r.boolean();  // add-ref/release
        r.u32();      // array version
        std::uint32_t n = refArray(r);
        r.note("node class", hex32(cls));
        r.note("nodes", num(n));
    });
    reg.add(0x01026001, false, [](NodeReader& r) { r.lookback(); });  // buffer ID
}

}  // namespace pakfs::gbx::chunks
