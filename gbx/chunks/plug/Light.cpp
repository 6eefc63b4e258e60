// SPDX-License-Identifier: GPL-2.0-or-later
// Lights: CPlugLight (0901D000), the light a tree (CPlugTreeLight) or a mesh holds;
// CPlugLightUserModel (090F9000); and the Graphic engine's light models it references, GxLight
// (04001000), GxLightAmbient, GxLightBall, GxLightPoint, GxLightDirectional, GxLightFrustum and
// GxLightSpot.
//
// Sources of the layouts, named per reader below:
//   [G] GBX.NET: Engines/Plug/CPlugLight.chunkl, CPlugLightUserModel.chunkl, Engines/Graphic/
//       GxLight*.chunkl;
//   [P] gbx-py (schadocalex), src/gbx_structs.py: 0901D003/004, 090F9000, 0400100A,
//       04002008-0A, 04003004, 0400B003;
//   [T] a public C reimplementation of the TMUF reader (functions tmuf_gbx_*): GxLight 04001009
//       and GxLightDirectional 04007000-05 (it lists 04001000-08 without reading them).
// Where two sources give a chunk, they give it the same size unless said otherwise below.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// CPlugLight 000 [G]: light model, light function, flare and projector bitmaps.
void lightParts(NodeReader& r) {
    NodeRef model = r.nodeRef();
    r.nodeRef();  // function
    r.nodeRef();  // flare bitmap
    r.nodeRef();  // projector bitmap
    if (model.kind != RefKind::Null) r.note("light", "node " + num(model.index));
}

// CPlugLight 003 [G] [P]: an animated image, two periods, (1+) the animation timer's name. [P]
// reads the name as a word, [G] as an Id (a lookback string, the word once the lookback
// version is known).
void lightImageAnim(NodeReader& r) {
    std::uint32_t v = version(r, 1, "CPlugLight 0901D003");
    r.nodeRef();
    floats(r, 2);
    if (v >= 1) r.lookback();
}

// CPlugLight 004 [G]: version, light model, five words. [P] reads the version, the node and
// one word and no further.
void lightModel(NodeReader& r) {
    r.u32();  // version: no source branches on it
    NodeRef model = r.nodeRef();
    r.skip(20);
    if (model.kind != RefKind::Null) r.note("light", "node " + num(model.index));
}

// CPlugLightUserModel 000 [G] [P]: a word, colour, eight floats (intensity, distance, point
// and spot emission), (1+) night-only flag ([P]: a float, the same 4 bytes).
void lightUserModel(NodeReader& r) {
    std::uint32_t v = version(r, 1, "CPlugLightUserModel 090F9000");
    r.u32();
    floats(r, 3 + 8);
    if (v >= 1) r.u32();
}

// GxLightSpot 003 [G] [P]: version, flags, six floats [G] (five [P]), (1+) two bytes, and
// before version 1 a word [G]; [P] ends with a float in every version. Version 1 takes 30 bytes
// after the version in both; version 0 takes 32 in [G] and 28 in [P].
void spotLight(NodeReader& r) {
    std::uint32_t v = version(r, 1, "GxLightSpot 0400B003");
    if (v == 0) r.fail("GxLightSpot 0400B003 version 0: GBX.NET gives it 32 bytes, gbx-py 28");
    r.skip(30);
}

}  // namespace

void registerPlugLight(ChunkRegistry& reg) {
    // CPlugLight
    reg.add(0x0901D000, false, lightParts);
    reg.add(0x0901D002, false, [](NodeReader& r) {  // 000 then flags [G]
        lightParts(r);
        r.u32();
    });
    reg.add(0x0901D003, false, lightImageAnim);
    reg.add(0x0901D004, false, lightModel);
    reg.add(0x090F9000, false, lightUserModel);

    // GxLight [G]: 008 colour, intensity, flags, shadow and flare intensities, shadow colour;
    // 009 ([T] too) colour, flags, six intensities and powers, shadow colour; 00A version,
    // colour, flags, four intensities, shadow colour.
    reg.add(0x04001008, false, [](NodeReader& r) { r.skip(40); });
    reg.add(0x04001009, false, [](NodeReader& r) { r.skip(52); });
    reg.add(0x0400100A, false, [](NodeReader& r) {
        r.u32();  // version: no source branches on it
        r.skip(44);
    });
    reg.add(0x04005000, false, [](NodeReader& r) { floats(r, 2); });  // ambient: shade range
    // GxLightBall [G]: 002 (TrackMania 1.0) radius, attenuations, emitting radius, ambient
    // colour; 006 flags, seven floats, ambient colour; 008 ([P] too) flags, eight floats,
    // ambient colour, two floats; 009 and 00A a float each.
    reg.add(0x04002002, false, [](NodeReader& r) { floats(r, 7); });
    reg.add(0x04002006, false, [](NodeReader& r) { r.skip(44); });
    reg.add(0x04002008, false, [](NodeReader& r) { r.skip(56); });
    reg.add(0x04002009, false, [](NodeReader& r) { floats(r, 1); });
    reg.add(0x0400200A, false, [](NodeReader& r) { floats(r, 1); });
    // GxLightPoint [G]: flare size, (004) and its bias.
    reg.add(0x04003003, false, [](NodeReader& r) { floats(r, 1); });
    reg.add(0x04003004, false, [](NodeReader& r) { floats(r, 2); });
    // GxLightDirectional [T] (001-005 also [G]): 000 a vector; 001 boundary hint flag and
    // position; 002 the same and dazzle angle and intensity; 003 double-sided colour; 004
    // reverse colour and intensity; 005 emitting and flare angular sizes.
    reg.add(0x04007000, false, [](NodeReader& r) { r.skip(12); });
    reg.add(0x04007001, false, [](NodeReader& r) { r.skip(16); });
    reg.add(0x04007002, false, [](NodeReader& r) { r.skip(24); });
    reg.add(0x04007003, false, [](NodeReader& r) { r.skip(12); });
    reg.add(0x04007004, false, [](NodeReader& r) { r.skip(16); });
    reg.add(0x04007005, false, [](NodeReader& r) { r.skip(8); });
    // GxLightFrustum [G]: 004 three words, four floats, a word; 006 a flag, a box, a word.
    reg.add(0x0400A004, false, [](NodeReader& r) { r.skip(32); });
    reg.add(0x0400A006, false, [](NodeReader& r) {
        r.boolean();
        floats(r, 6);
        r.u32();
    });
    // GxLightSpot [G]: 001 three angles and a falloff exponent; 002 flags, five angles and the
    // exponent; 003 above.
    reg.add(0x0400B001, false, [](NodeReader& r) { floats(r, 4); });
    reg.add(0x0400B002, false, [](NodeReader& r) { r.skip(28); });
    reg.add(0x0400B003, false, spotLight);
}

}  // namespace pakfs::gbx::chunks
