// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's material instances of ManiaPlanet and Trackmania 2020: CPlugMaterialUserInst
// (090FD000), what a .Mat.Gbx holds and what a mesh names its custom materials by.
//
// Source: [G] GBX.NET, Engines/Plug/CPlugMaterialUserInst.chunkl (chunks 000 to 002, their
// archives Cst, UvAnim and UserTexture), checked on the game-written materials of
// ../shared/fixtures/assets2 (ManiaPlanet version 9, Trackmania 2020 version 10): each parse ends
// exactly at the body's end.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The material's link (its model in the game's material library): a string, or an Id from
// version 11 and in versions before 9, unless the instance uses a game material (11+), which
// links by string.
void materialLink(NodeReader& r, std::uint32_t v, bool gameMaterial) {
    std::string link;
    if (gameMaterial || v == 9 || v == 10)
        link = r.string("material link");
    else
        link = r.lookback();
    if (!link.empty()) r.note("link", link);
}

// 000 [G]: names, base texture, physics (and 10+ gameplay) surface, link, then constants,
// colours, UV animations, Ids, user textures and a hiding group as the version grows.
void materialUserInst(NodeReader& r) {
    std::uint32_t v = version(r, 11, "material instance 090FD000");
    bool gameMaterial = v >= 11 && byteBool(r, "material instance 090FD000");
    std::string name = r.lookback();
    if (!name.empty()) r.note("material", name);
    std::string model = r.lookback();
    if (!model.empty()) r.note("model", model);
    r.string("base texture");
    r.u8();               // physics surface ID
    if (v >= 10) r.u8();  // gameplay surface ID
    if (v < 1) return;
    materialLink(r, v, gameMaterial);
    if (v < 2) return;
    std::uint32_t csts = r.count(12);  // Id, Id, int
    for (std::uint32_t i = 0; i < csts; ++i) {
        r.lookback();
        r.lookback();
        r.u32();
    }
    r.skipArray(4);  // colours
    if (v < 3) return;
    std::uint32_t anims = r.count(24);
    for (std::uint32_t i = 0; i < anims; ++i) {  // Id, Id, float, u64, (5+) Id
        r.lookback();
        r.lookback();
        r.f32();
        r.u64();
        if (v >= 5) r.lookback();
    }
    if (v < 4) return;
    std::uint32_t ids = r.count(4);
    for (std::uint32_t i = 0; i < ids; ++i) r.lookback();
    if (v < 6) return;
    std::uint32_t textures = r.count(8);
    for (std::uint32_t i = 0; i < textures; ++i) {
        r.u32();
        r.string("user texture");
    }
    if (textures != 0) r.note("user textures", num(textures));
    if (v < 7) return;
    r.lookback();  // hiding group
}

// 001 [G]: a bitmap atlas, then (3+) texture tiling in U and V, the texture's size in meters,
// (4+) an int and (5+) whether it is natural. [G] gives version 2 no layout (it throws).
void materialUserInstTiling(NodeReader& r) {
    std::uint32_t v = version(r, 5, "material instance 090FD001");
    r.nodeRef();  // bitmap atlas
    if (v == 2) r.fail("material instance 090FD001 version 2: its layout is not described");
    if (v < 3) return;
    r.u32();  // tiling U
    r.u32();  // tiling V
    r.f32();  // texture size in meters
    if (v < 4) return;
    r.u32();
    if (v < 5) return;
    r.boolean();  // natural
}

}  // namespace

void registerPlugMaterialInst(ChunkRegistry& reg) {
    reg.add(0x090FD000, false, materialUserInst);
    reg.add(0x090FD001, false, materialUserInstTiling);
    // 002 [G] (Trackmania 2020): a version and an int; [G] names no later version.
    reg.add(0x090FD002, false, [](NodeReader& r) {
        version(r, 0, "material instance 090FD002");
        r.u32();
    });
}

}  // namespace pakfs::gbx::chunks
