// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's custom materials: CPlugMaterialCustom (0903A000), the textures, GPU
// constants and skipped samplers a ManiaPlanet CPlugMaterial holds in its chunk 09079007, and the
// later CPlugMaterial chunks that follow it.
//
// Source: [G] GBX.NET, Engines/Plug/CPlugMaterialCustom.chunkl and .cs (chunks 004 to 016 and
// the archives Bitmap, GpuFx, BitmapSkip, DefineNat, CBuffer) and CPlugMaterial.chunkl (chunks
// 010 and 011), checked on the game-written materials of
// ../shared/fixtures/real-mp/dedicated.pak (ManiaPlanet), each parse ending exactly at the
// file's end with every node slot filled.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// Bitmap [G]: a name, an int, the texture (a node reference), (1+) two ints.
std::uint32_t bitmaps(NodeReader& r, std::uint32_t archiveVersion) {
    std::uint32_t n = r.count(12);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.lookback();
        r.u32();
        r.nodeRef();
        if (archiveVersion >= 1) r.skip(8);
    }
    return n;
}

// GpuFx [G]: a name, a column count and a row count, a boolean, then rows x columns floats.
std::uint32_t gpuFxs(NodeReader& r) {
    std::uint32_t n = r.count(16);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.lookback();
        std::uint32_t columns = r.u32();
        std::uint32_t rows = r.u32();
        r.boolean();
        std::uint64_t floatsLeft = std::uint64_t(columns) * rows;
        if (floatsLeft > (std::uint64_t(1) << 32))
            r.fail("custom material 0903A00A: " + num(rows) + " rows of " + num(columns) +
                   " constants cannot fit in the file");
        r.skip(floatsLeft * 4);
    }
    return n;
}

// 00B, 00D and 016 [G]: visibility flags (a u32 or a u64, then a u64); when the first has bit 0
// set, two shorts follow. 016 is versioned and adds an int from version 1.
void visibleFilter(NodeReader& r) {
    std::uint32_t id = r.generalChunkId();
    std::uint32_t v = 0;
    if (id == 0x0903A016) v = version(r, 1, "custom material 0903A016");
    std::uint64_t flags = id == 0x0903A00B ? r.u32() : r.u64();
    r.u64();
    if (v >= 1) r.u32();
    if (flags & 1) r.skip(4);
}

// 015 [G]: a version; from version 1 an int, and when it is 0 (or before version 1) two strings,
// (2+) two more.
void materialCustomStrings(NodeReader& r) {
    std::uint32_t v = version(r, 2, "custom material 0903A015");
    std::uint32_t u = v >= 1 ? r.u32() : 0;
    if (u != 0) return;
    r.string("custom material string");
    r.string("custom material string");
    if (v >= 2) {
        r.string("custom material string");
        r.string("custom material string");
    }
}

}  // namespace

void registerPlugMaterialCustom(ChunkRegistry& reg) {
    reg.add(0x0903A004, false, [](NodeReader& r) { r.skipArray(4); });
    reg.add(0x0903A006, false, [](NodeReader& r) { r.note("textures", num(bitmaps(r, 0))); });
    reg.add(0x0903A00A, false, [](NodeReader& r) {
        std::uint32_t n = gpuFxs(r);
        n += gpuFxs(r);
        r.note("gpu constants", num(n));
    });
    reg.add(0x0903A00B, false, visibleFilter);
    reg.add(0x0903A00C, false, [](NodeReader& r) {  // skipped samplers: a name and a boolean
        std::uint32_t n = r.count(8);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.lookback();
            r.boolean();
        }
        r.note("skipped samplers", num(n));
    });
    reg.add(0x0903A00D, false, visibleFilter);
    reg.add(0x0903A00F, true, [](NodeReader& r) {  // two floats, (1+) one more, (2+) defines
        std::uint32_t v = version(r, 2, "custom material 0903A00F");
        floats(r, 2);
        if (v >= 1) r.f32();
        if (v < 2) return;
        std::uint32_t n = r.count(8);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.lookback();
            r.u32();
        }
    });
    reg.add(0x0903A010, false, [](NodeReader& r) { r.nodeRef(); });  // a bitmap
    reg.add(0x0903A011, true, [](NodeReader& r) { r.u32(); });
    reg.add(0x0903A012, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x0903A013, false, [](NodeReader& r) {
        version(r, 0, "custom material 0903A013");
        r.note("textures", num(bitmaps(r, 1)));
    });
    reg.add(0x0903A014, false, [](NodeReader& r) {  // buffers: an int, then sized data
        version(r, 0, "custom material 0903A014");
        std::uint32_t n = r.count(8);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.u32();
            std::uint32_t size = r.count(1);
            r.skip(size);
        }
    });
    reg.add(0x0903A015, false, materialCustomStrings);
    reg.add(0x0903A016, false, visibleFilter);

    // CPlugMaterial [G]: 010 a float, 011 an Id array.
    reg.add(0x09079010, false, [](NodeReader& r) { r.f32(); });
    reg.add(0x09079011, false, [](NodeReader& r) {
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.lookback();
    });
}

}  // namespace pakfs::gbx::chunks
