// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's meshes of ManiaPlanet and Trackmania 2020: CPlugSolid2Model (090BB000), what
// a .Mesh.Gbx holds and what an item's visual model points to. Its visuals (CPlugVisual*,
// CPlugVertexStream, CPlugIndexBuffer) are read by gbx/chunks/plug/Visual.cpp, its skeleton by
// gbx/chunks/plug/Skel.cpp, its material instances by gbx/chunks/plug/MaterialInst.cpp.
//
// Sources of the layouts, named per reader below:
//   [G] GBX.NET, Engines/Plug/CPlugSolid2Model.cs (chunk 000, versions 0 to 34) and
//       CPlugSolid2Model.chunkl (chunk 002 and the archives ShadedGeom, PreLightGen, Light,
//       LightInst, Material, FakeOccProj);
//   [R] a public Rust reader (the `gbx` crate's plug/solid_2_model.rs), which reads version 34
//       only;
//   [S] the game-written meshes of ../shared/fixtures (ManiaPlanet versions 5, 7 and 14; the
//       version 5 one inside an object info) and
//       the ManiaPlanet solid CPlugSolid~GBX-NET_2_CPlugSolid_MP4_001.Solid.Gbx, whose
//       09005017 holds the same pre-lighting archive with UV groups (see preLightGen).
// Where the sources disagree and no file here decides, or a source throws on a branch, the
// reader stops with the reason.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

constexpr const char* kChunk = "mesh 090BB000";

// A deprecated node array [G]: a version word, then a count of node references.
std::uint32_t deprecatedRefArray(NodeReader& r) {
    r.u32();
    return refArray(r);
}

std::uint32_t idArray(NodeReader& r) {
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.lookback();
    return n;
}

// A count the sources read and then refuse when it is not 0 ([G] throws, [R] has no layout).
void zeroCount(NodeReader& r, const char* what) {
    if (std::uint32_t n = r.u32())
        r.fail(std::string(kChunk) + ": " + num(n) + " " + what + ", whose layout no source gives");
}

// ShadedGeom [G] [R]: visual index, material index, a location (-1), (1+) a LOD mask, (32+) an
// int. Before version 6, which brings the visuals array, the visual is a node reference in its
// place: [G] reads an index there in every version, but the ManiaPlanet file of [S] in version 5
// (MP-CGameItemModel~bridge1.ObjectInfo.gbx) has the visual's node (index, class ID, chunks)
// there and reads whole only so: the file decides.
void shadedGeoms(NodeReader& r, std::uint32_t v) {
    std::uint64_t rest = 8 + (v >= 1 ? 4 : 0) + (v >= 32 ? 4 : 0);
    std::uint32_t n = r.count(4 + rest);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (v < 6)
            r.nodeRef();  // the visual
        else
            r.u32();  // the visual's index
        r.skip(rest);
    }
    r.note("shaded geometries", num(n));
}

// SPlugSolidPreLightGen [G]: a version, an int, a float, a bool, eight floats, two ints, aligned
// boxes, then (1+) UV groups. [G] gives a UV group 16 bytes here (int4) but 20 in CPlugSolid's
// copy of the archive, as [R] does (five words); the ManiaPlanet solid of [S] holds seven UV
// groups in its 09005017 and reads whole only with 20: the file decides.
void preLightGen(NodeReader& r) {
    std::uint32_t v = version(r, 1, "mesh 090BB000 pre-lighting parameters");
    r.u32();
    r.f32();
    r.boolean();
    floats(r, 8);
    r.skip(8);        // sprite count (two ints)
    r.skipArray(24);  // aligned boxes
    if (v >= 1) r.skipArray(20);
}

// The lights [G]: an Id, a flag, a CPlugLight (set) or a name, an Iso4, six ints, then a flag
// and three floats when it is set. [G]'s archive adds three ints from chunk version 26 but its
// chunk reads the archive without the version (so never reads them), and [R] reads none in
// version 34: a light in version 26 or later stops the reader.
void lights(NodeReader& r, std::uint32_t v) {
    std::uint32_t n = r.count(4 + 4 + 4 + 48 + 24 + 4);
    if (n != 0 && v >= 26)
        r.fail(std::string(kChunk) + " version " + num(v) + " with " + num(n) +
               " light(s): whether a light has three more ints from version 26 is not settled");
    for (std::uint32_t i = 0; i < n; ++i) {
        r.lookback();
        if (r.boolean())
            r.nodeRef();  // CPlugLight, often an external file
        else
            r.string("light");
        iso4(r);
        r.skip(6 * 4);
        if (r.boolean()) floats(r, 3);
    }
    if (n != 0) r.note("lights", num(n));
}

// The custom materials [G]: per material a name, or when empty a CPlugMaterialUserInst node.
void customMaterials(NodeReader& r, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
        std::string name = r.string("material");
        if (name.empty()) r.nodeRef();  // material instance
    }
    if (n != 0) r.note("custom materials", num(n));
}

// Versions 15 and later [G]: custom materials (their count read here before version 29, at
// the start from 29), then boxes (17 to 20), joint Ids (20+), and the ints, node, floats and
// Id of Trackmania 2020. Version 33 has an int more than 34 before the last array.
void solid2ModelLater(NodeReader& r, std::uint32_t v, std::uint32_t materials) {
    if (v < 29) materials = r.count(4);
    if (v >= 30) r.u32();
    customMaterials(r, materials);
    if (v < 17) return;
    if (v < 21) r.skipArray(24);  // aligned boxes
    if (v >= 20) idArray(r);      // joints
    if (v < 22) return;
    r.skipArray(4);
    if (v < 23) return;
    zeroCount(r, "entries of the array after version 22's");
    r.skipArray(4);
    if (v < 24) return;
    r.u32();
    if (v < 25) return;
    r.nodeRef();
    floats(r, 2);
    if (v < 27) return;
    r.lookback();
    if (v < 31) return;
    zeroCount(r, "entries of version 31's array");
    if (v < 33) return;
    if (v < 34) r.u32();
    // [G] reads five ints per entry, [R] one.
    if (std::uint32_t n = r.u32())
        r.fail(std::string(kChunk) + ": " + num(n) +
               " entries of the last array, whose size its sources give two ways");
}

// 000 [G]: a version, an Id, the shaded geometries, (6+) the visuals, the material Ids and
// materials, the skeleton, then by version LOD distances, a visibility type, pre-lighting,
// a file time, names, lights, material instances (8 to 15), light models and instances (10+),
// damage zone, flags, and from 15 on what solid2ModelLater reads.
void solid2Model(NodeReader& r) {
    std::uint32_t v = version(r, 34, kChunk);
    r.lookback();
    shadedGeoms(r, v);
    if (v >= 6) r.note("visuals", num(deprecatedRefArray(r)));
    idArray(r);  // material Ids
    std::uint32_t materials = v >= 29 ? r.count(4) : 0;
    if (materials == 0) deprecatedRefArray(r);  // materials
    r.nodeRef();                                // skeleton
    if (v < 1) return;
    r.skipArray(4);  // LOD distances
    if (v < 2) return;
    r.u32();  // visibility type
    if (v < 3) return;
    if (r.boolean()) preLightGen(r);
    if (v < 4) return;
    r.u64();  // file time
    if (v < 5) return;
    r.string();
    if (v < 7) return;
    std::string folder = r.string("materials folder");
    if (!folder.empty()) r.note("materials folder", folder);
    if (v >= 19) r.string();
    if (v < 8) return;
    lights(r, v);
    if (v < 16) refArray(r);  // material instances
    if (v < 10) return;
    refArray(r);     // light user models
    r.skipArray(8);  // light instances: model and socket indexes
    if (v < 11) return;
    r.u32();  // damage zone
    if (v < 12) return;
    r.u32();  // flags
    if (v < 13) return;
    r.u32();
    if (v < 14) return;
    r.string();
    if (v < 15) return;
    solid2ModelLater(r, v, materials);
}

// 002 (skippable) [G]: the file's image (sized data), then fake occlusion projections: three
// ints, a quaternion and seven floats each.
void fakeOcclusion(NodeReader& r) {
    r.skipArray(1);
    r.skipArray(3 * 4 + 16 + 7 * 4);
}

}  // namespace

void registerPlugMesh(ChunkRegistry& reg) {
    reg.add(0x090BB000, false, solid2Model);
    reg.add(0x090BB002, true, fakeOcclusion);
}

}  // namespace pakfs::gbx::chunks
