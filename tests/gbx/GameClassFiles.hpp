// SPDX-License-Identifier: GPL-2.0-or-later
// Small gbx files of the game classes, built with BodyWriter: the tests read them whole and the
// gbx body fuzz target starts from them.
#pragma once

#include "gbx/testing/GbxBuilder.hpp"

namespace pakfs::test {

// A Sunrise-style block info: collector ident, the old block info chunk with a unit info and a
// scene mobil holding its CHmsItem inline, then a later chunk (gbx/chunks/game/BlockInfo.cpp).
inline Bytes builtBlockInfo() {
    gbx::BodyWriter w;
    w.chunk(0x0301A002);
    w.meta("Block", "Bay", "Nadeo");
    w.chunk(0x0304E005);
    w.lookback("Block");
    w.zeros(24);  // three ints, is pillar, selection, an int
    w.nullRef();  // pillar
    w.u32(1);     // ground unit infos
    w.newNode(1, 0x03036000);
    w.chunk(0x03036000);
    w.zeros(24);
    w.u32(0);  // clips
    w.chunk(0x03036001);
    w.lookback("Sea");
    w.zeros(8);
    w.beginSkippable(0x03036002);
    w.boolean(false);
    w.endSkippable();
    w.endNode();
    w.u32(0);  // air unit infos
    w.u32(1);  // ground mobils: one variant of one mobil
    w.u32(1);
    w.newNode(2, 0x0A011000);
    w.chunk(0x0A005001);
    w.lookbackRaw(0xFFFFFFFF);
    w.chunk(0x0A011005);  // the CHmsItem, inline
    w.chunk(0x06003011);
    w.zeros(10);
    w.endNode();
    w.chunk(0x0A011006);
    w.nullRef();
    w.endNode();
    w.u32(0);  // air mobils
    w.zeros(9);
    w.chunk(0x0304E009);
    w.boolean(true);
    w.endNode();
    gbx::GbxBuilder b;
    b.classId = 0x03051000;
    b.numNodes = 3;
    b.body = w.bytes();
    return b.build();
}

// An item model whose model chunk's layout depends on the header's item type.
inline Bytes builtItemModel() {
    gbx::BodyWriter w;
    w.chunk(0x2E002019);
    w.u32(10);
    w.lookbackRaw(0xFFFFFFFF);
    w.nullRef();
    w.nullRef();
    w.u32(0);  // actions
    w.u32(0);  // default camera
    w.nullRef();
    w.nullRef();
    w.endNode();
    gbx::GbxBuilder b;
    b.classId = 0x2E002000;
    b.headerChunks.push_back({0x2E002000, Bytes{4, 0, 0, 0}, false});  // vehicle
    b.body = w.bytes();
    return b.build();
}

}  // namespace pakfs::test
