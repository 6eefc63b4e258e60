// SPDX-License-Identifier: GPL-2.0-or-later
// CGameCtnCollector (0301A000, later 2E001000) and the collector classes: object info,
// decoration, collection.
#include "gbx/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// Registers a collector chunk under its TMF ID and under the later GameData ID (2E001xxx).
void addCollector(ChunkRegistry& reg, std::uint32_t index, bool skippable, ChunkReadFn fn) {
    reg.add(0x0301A000 | index, skippable, fn);
    reg.add(0x2E001000 | index, skippable, fn);
}

void desc(NodeReader& r) {  // 0301A003 (header)
    std::string name;
    r.meta(&name);
    r.note("name", name);
    std::uint32_t v = r.u32();
    r.string("page name");
    if (v == 5) r.lookback();
    if (v >= 4) r.lookback();
    if (v >= 3) {
        r.u32();  // flags
        r.u16();  // catalog position
    }
    if (v >= 7) r.string("name");
    if (v >= 8) r.u8();  // prod state
}

void icon(NodeReader& r) {  // 0301A004 (header)
    std::uint16_t w = r.u16();
    std::uint16_t h = r.u16();
    if (std::int16_t(w) >= 0 && std::int16_t(h) >= 0) {
        r.skip(std::uint64_t(4) * w * h);
        return;
    }
    if (r.u16() >= 1) r.skip(r.u32());  // WebP
}

}  // namespace

void registerCollectorHeader(ChunkRegistry& reg) {
    addCollector(reg, 0x003, false, desc);
    addCollector(reg, 0x004, false, icon);
    addCollector(reg, 0x006, false, [](NodeReader& r) { r.u64(); });
    addCollector(reg, 0x008, false, [](NodeReader& r) {
        r.u8();
        r.string("default skin");
    });
    // CGameCtnObjectInfo / CGameItemModel header chunks
    for (std::uint32_t cls : {0x0301C000u, 0x2E002000u}) {
        reg.add(cls | 0x000, false, [](NodeReader& r) { r.u32(); });  // item type
        reg.add(cls | 0x001, false, [](NodeReader& r) { r.u32(); });
    }
}

void registerCollector(ChunkRegistry& reg) {
    addCollector(reg, 0x007, false, [](NodeReader& r) {
        r.boolean();
        r.skip(20);
    });
    addCollector(reg, 0x008, false, [](NodeReader& r) {  // seed: byte + skin file name
        r.u8();
        r.string("skin file");
    });
    addCollector(reg, 0x009, false, [](NodeReader& r) {
        r.string("page name");
        if (r.boolean()) r.nodeRef();  // icon fid
        r.lookback();
    });
    addCollector(reg, 0x00B, false, [](NodeReader& r) {
        std::string name;
        r.meta(&name);
        r.note("name", name);
    });
    addCollector(reg, 0x00C, false, [](NodeReader& r) { r.note("name", r.string()); });
    addCollector(reg, 0x00D, false, [](NodeReader& r) { r.string("description"); });
    addCollector(reg, 0x00E, false, [](NodeReader& r) {
        r.boolean();
        r.u32();
    });
    addCollector(reg, 0x00F, false, [](NodeReader& r) { r.string("default skin"); });
    addCollector(reg, 0x010, false, [](NodeReader& r) {  // skin (later games)
        std::uint32_t v = r.u32();
        r.nodeRef();  // default skin zip, usually an external slot
        std::string dir = r.string("skin directory");
        if (v >= 2 && dir.empty()) r.nodeRef();
    });
    addCollector(reg, 0x011, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        r.boolean();         // internal
        r.boolean();         // advanced
        r.u32();             // catalog position
        if (v >= 1) r.u8();  // prod state
    });
    addCollector(reg, 0x012, false, [](NodeReader& r) { r.skip(16); });

    // CGameCtnObjectInfo (seed IDs 0301Cxxx; later CGameItemModel 2E002xxx)
    for (std::uint32_t cls : {0x0301C000u, 0x2E002000u}) {
        reg.add(cls | 0x006, false, [](NodeReader& r) { r.u32(); });
        reg.add(cls | 0x008, false, [](NodeReader& r) {
            std::uint32_t n = r.count(4);
            for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        });
        reg.add(cls | 0x009, false, [](NodeReader& r) {
            r.u32();
            std::uint32_t n = r.count(4);
            for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        });
        reg.add(cls | 0x00A, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x00B, false, [](NodeReader& r) {
            r.nodeRef();
            r.nodeRef();
        });
        reg.add(cls | 0x00C, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x010, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x012, false, [](NodeReader& r) { r.skip(28); });
        reg.add(cls | 0x013, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x014, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x015, false, [](NodeReader& r) { r.u32(); });
        reg.add(cls | 0x016, false, [](NodeReader& r) { r.nodeRef(); });
        reg.add(cls | 0x017, false, [](NodeReader& r) {
            r.u32();
            r.boolean();
        });
        reg.add(cls | 0x018, false, [](NodeReader& r) {
            r.u32();
            r.boolean();
        });
        reg.add(cls | 0x019, false, [](NodeReader& r) {
            std::uint32_t v = r.u32();
            r.nodeRef();
            r.nodeRef();
            if (v >= 1) r.nodeRef();
        });
    }

    // CGameCtnDecoration
    reg.add(0x03038000, false, [](NodeReader& r) {
        r.u8();
        r.string("dir name");
        r.readChunk(0x03031000);
    });
    reg.add(0x03038001, false, [](NodeReader& r) {
        r.u8();
        r.u32();
    });

    // CGameCtnCollection
    reg.add(0x03033001, false, [](NodeReader& r) {
        std::uint8_t v = r.u8();
        r.note("collection", r.lookback());
        r.boolean();
        if (v < 1) return;
        r.string();
        r.string();
        if (v < 2) return;
        r.u32();
        if (v < 3) return;
        r.lookback();
        if (v < 4) return;
        r.meta();
        if (v < 5) return;
        r.string("map fid");
        r.vec2();
        r.vec2();
        if (v == 5) r.vec2();
        if (v == 6 || v == 7) r.skip(16);
        if (v < 7) return;
        r.string("loadscreen");
        if (v < 8) return;
        r.skip(24);
        r.string("long description");
        if (v < 9) return;
        r.string("display name");
        if (v < 10) return;
        r.boolean();
    });
    reg.add(0x03033002, false, [](NodeReader& r) {
        std::uint8_t v = r.u8();
        for (int i = 0; i < 3; ++i) r.string("folder");
        if (v == 1 || v == 2) r.string("folder");
        if (v >= 2) r.string("folder");
        if (v >= 3) r.string("folder");
        if (v >= 4) r.string("folder");
    });
    reg.add(0x03033003, false, [](NodeReader& r) {
        r.u8();
        r.string("folder");
    });
}

}  // namespace pakfs::gbx::chunks
