// SPDX-License-Identifier: GPL-2.0-or-later
// CMwNod, skins and player profiles.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

void skin(NodeReader& r) {  // 03031000
    std::uint8_t v = r.u8();
    r.string("dir name");
    if (v >= 1) {
        r.string("texture name");
        r.string("scene id");
    }
    std::uint8_t n = r.u8();
    for (std::uint8_t i = 0; i < n; ++i) {
        r.u32();  // class ID
        r.string("name");
        r.string("file");
        if (v >= 2) r.boolean();
    }
    if (v >= 4) r.string("alternative dir name");
    if (v >= 5) r.boolean();
}

}  // namespace

void registerMisc(ChunkRegistry& reg) {
    reg.add(0x01001000, false, [](NodeReader& r) {  // folder dependencies
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.string("folder");
    });
    reg.add(0x03031000, false, skin);
    reg.add(0x090F4000, false, skin);  // the same class in the Plug engine
    reg.add(0x0308C000, false, [](NodeReader& r) {
        r.note("login", r.string("online login"));
        r.string("online support key");
    });
}

}  // namespace pakfs::gbx::chunks
