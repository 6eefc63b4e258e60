// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's skeletons: CPlugSkel (090BA000), held by ManiaPlanet's and Trackmania 2020's
// meshes (CPlugSolid2Model) and shapes (CPlugSurface 0900C003).
//
// Source: [G] GBX.NET, Engines/Plug/CPlugSkel.cs and CPlugSkel.chunkl (its archives Joint and
// Socket), versions 0 to 20, checked on the shapes of ../shared/fixtures/assets2. Where [G]
// throws (a flag it does not describe the data behind) or leaves an archive empty (joint
// expressions), the reader stops with the reason.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// u32 size, then that many bytes [G] (Data).
void data(NodeReader& r) {
    r.skipArray(1);
}

// The joints [G] (Joint): an Id, the parent's index, (up to 14) a rotation and a position,
// (1+) an Iso4. Their count is a 16-bit word.
void joints(NodeReader& r, std::uint32_t v) {
    std::uint16_t n = r.u16();
    for (std::uint32_t i = 0; i < n; ++i) {
        r.lookback();
        r.u16();                       // parent
        if (v <= 14) r.skip(16 + 12);  // quaternion, position
        if (v >= 1) iso4(r);
    }
    r.note("joints", num(n));
}

// After the joints and sockets [G]: from version 9 a flag (set: not described), from 10 an int
// array (up to 15) or data (16+, twice from 18), from 13 data (up to 15) and in version 14 joint
// expressions, from 19 data, from 17 (20+: a Vec3 array) a byte and an int.
void skelTail(NodeReader& r, std::uint32_t v) {
    if (r.boolean()) r.fail("skeleton 090BA000: the data after its second flag is not described");
    if (v < 10) return;
    if (v >= 16) {
        data(r);
        if (v >= 18) data(r);
    } else {
        r.skipArray(4);
    }
    if (v >= 13) {
        if (v < 16) data(r);
        if (v == 14) {
            if (std::uint32_t n = r.u32())
                r.fail("skeleton 090BA000 version 14: an array of " + num(n) +
                       " before the joint expressions, not described");
            if (std::uint32_t n = r.u32())
                r.fail("skeleton 090BA000 version 14: " + num(n) +
                       " joint expression(s), whose layout no source gives");
        }
        if (v >= 19) data(r);
    }
    if (v >= 17) {
        if (v >= 20) r.skipArray(12);
        r.u8();
        r.u32();
    }
}

// 000 [G]: a version, then the skeleton's name and joints, (2+) a flag (set: not described),
// (6+) the sockets (Id, a 16-bit word, Iso4), then (9+) the tail above.
void skel(NodeReader& r) {
    std::uint32_t v = version(r, 20, "skeleton 090BA000");
    std::string name = r.lookback();
    if (!name.empty()) r.note("skeleton", name);
    joints(r, v);
    if (v < 2) return;
    if (r.boolean()) r.fail("skeleton 090BA000: the data after its first flag is not described");
    if (v < 6) return;
    std::uint32_t sockets = r.count(54);
    for (std::uint32_t i = 0; i < sockets; ++i) {
        r.lookback();
        r.u16();
        iso4(r);
    }
    if (sockets != 0) r.note("sockets", num(sockets));
    if (v < 9) return;
    skelTail(r, v);
}

}  // namespace

void registerPlugSkel(ChunkRegistry& reg) {
    reg.add(0x090BA000, false, skel);
}

}  // namespace pakfs::gbx::chunks
