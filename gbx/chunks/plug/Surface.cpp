// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's collision surfaces: CPlugSurface and the older CPlugSurfaceGeom.
//
// Sources of the layouts, named per reader below:
//   [T] a public C reimplementation of the TMUF reader (functions tmuf_gbx_*), the most
//       complete source for TMUF-era files;
//   [G] GBX.NET (Engines/Plug, *.chunkl and *.cs);
//   [S] the solids in ../shared/fixtures/assets (TrackMania Sunrise, TMSX, Nations ESWC,
//       Forever, ManiaPlanet 4): each parse ends exactly at the body's end with every node slot
//       filled. They prove CPlugTree 0904F00C, CPlugVisual 07/0A/0C, CPlugVisual3D 0902C003,
//       the old CPlugSurfaceGeom's 0900D002 mesh, and ManiaPlanet's 0900600F version 5 with
//       texture coordinate sets of version 3, 09006010, 0900C003, 09005017 and 09005019.
// Where the sources describe a branch no file here exercises and whose bytes they do not agree
// on, the reader stops with a message instead of guessing: the node scan takes over from there.
#include "gbx/chunks/ChunkReaders.hpp"

#include <cstring>
#include <vector>

namespace pakfs::gbx::chunks {
namespace {

constexpr std::uint32_t kPlugSurfaceGeom = 0x0900F000;

// --- CPlugSurface (0900C000) and CPlugSurfaceGeom (0900F000) [T] [G] ---

// A surface's materials: each a material node or a surface ID.
std::uint32_t surfaceMaterials(NodeReader& r) {
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (r.boolean())
            r.nodeRef();  // material
        else
            r.u16();  // surface ID
    }
    r.note("materials", num(n));
    return n;
}

void surface(NodeReader& r) {  // 0900C000: an Id in a CPlugSurfaceGeom, else geom + materials
    if (r.classes().ofClassOrAncestor(r.node().classId, kPlugSurfaceGeom)) {
        r.lookback();
        return;
    }
    r.nodeRef();  // geometry
    surfaceMaterials(r);
}

void surfaceShape(NodeReader& r, std::uint32_t surfVersion, int depth);

// 0900C003 [G]: a version, (2+) the shape's surfVersion, the shape, the materials, (4+, when
// there are materials) a word, then (< 3) sized data or (3+) 16-bit words, (1+) a skeleton
// node, (5+) Ids. [G] reads that word while noting the game's code seems to have none; the 2020
// prefab of ../shared/fixtures/assets (a version 4 surface with materials) has it, and reads
// to its end only with it: the file decides.
void surfaceVersioned(NodeReader& r) {
    std::uint32_t version = r.u32();
    if (version > 5)
        r.refuseVersion("CPlugSurface 0900C003 version " + num(version) + " is not described");
    std::uint32_t surfVersion = version == 1 ? 1 : 0;
    if (version >= 2) surfVersion = r.u32();
    if (surfVersion > 2) r.fail("surface version " + num(surfVersion) + " is not described");
    surfaceShape(r, surfVersion, 0);
    std::uint32_t n = surfaceMaterials(r);
    if (version >= 4 && n > 0) r.u32();
    if (version < 3)
        r.skipArray(1);
    else
        r.skipArray(2);
    if (version >= 1) r.nodeRef();  // skeleton
    if (version >= 5) {
        std::uint32_t ids = r.count(4);
        for (std::uint32_t i = 0; i < ids; ++i) r.lookback();
    }
}

// The mesh of a surface (GmSurfMesh) [G] [T]: a version, then by version the vertices, cooked
// triangles (plane, three indices, surface ID, two bytes) and octree cells, or AABB tree cells,
// or plain triangles. Octree version 1 stores its cells as a deprecated array, whose version
// word [G] reads after the count (the game's other deprecated arrays have it before): it stops.
void surfaceMesh(NodeReader& r) {
    std::uint32_t version = r.u32();
    std::uint32_t v = r.count(12);
    r.skip(std::uint64_t(v) * 12);
    std::uint32_t t = 0;
    switch (version) {
        case 1:
        case 2:
        case 3: {
            t = r.count(32);
            r.skip(std::uint64_t(t) * 32);
            std::uint32_t octree = r.u32();
            if (octree == 1)
                r.fail(
                    "surface mesh octree version 1: the order of its array's words is not "
                    "settled");
            r.skipArray(32);
            break;
        }
        case 5:
            t = r.count(32);
            r.skip(std::uint64_t(t) * 32);
            r.u32();
            r.skipArray(28);  // AABB tree cells
            break;
        case 6:
        case 7:
            t = r.count(16);
            r.skip(std::uint64_t(t) * 16);
            break;
        default:
            r.fail("surface mesh version " + num(version) + " is not one the sources describe");
    }
    r.note("shape", "mesh of " + num(v) + " vertices, " + num(t) + " triangles");
}

// The surface shapes of ArchiveGmSurf ([G]'s list; [T] reads the first four). surfVersion is
// 0 in CPlugSurfaceGeom; from 1 on the primitives carry a surface index and from 2 every shape
// a gameplay direction. A compound nests shapes: `depth` bounds the nesting.
void surfaceShape(NodeReader& r, std::uint32_t surfVersion, int depth) {
    std::uint32_t type = r.u32();
    switch (type) {
        case 0:  // sphere: radius
            floats(r, 1);
            r.note("shape", "sphere");
            break;
        case 1:  // ellipsoid: radii
            floats(r, 3);
            r.note("shape", "ellipsoid");
            break;
        case 6:  // box
            floats(r, 6);
            r.note("shape", "box");
            break;
        case 7:
            surfaceMesh(r);
            break;
        case 13: {  // compound: shapes, one Iso4 each, (surfVersion 1+) joints
            if (depth >= 8) r.fail("surface compounds nest deeper than 8 levels");
            std::uint32_t n = r.count(4);
            for (std::uint32_t i = 0; i < n; ++i) surfaceShape(r, surfVersion, depth + 1);
            r.skip(std::uint64_t(n) * 48);
            if (surfVersion >= 1) r.skipArray(2);
            r.note("shape", "compound of " + num(n));
            break;
        }
        default:
            r.fail("surface shape " + num(type) + " is not one the sources describe");
    }
    if (surfVersion >= 1 && (type == 0 || type == 1 || type == 6)) r.u16();
    if (surfVersion >= 2) r.vec3();
}

// 0900F002 [G]: a shape and its surface ID. Stored as 0900D002 (CPlugSurfaceGeom's old class
// ID, a chunk the game does not remap) it is the mesh alone.
void surfaceGeomShape(NodeReader& r) {
    if ((r.chunkId() & 0xFFFFF000) == 0x0900D000) {
        surfaceMesh(r);
        return;
    }
    surfaceShape(r, 0, 0);
    r.u16();  // surface ID
}

void surfaceGeom(NodeReader& r) {  // 0900F004
    r.lookback();
    float box[6];
    for (float& f : box) f = r.f32();
    // [T]: the game mixes the box's minimum x (centre minus half size) into the cipher here.
    // One source: in the game's four solids [R] it comes after the last segment refill, so
    // they decode the same with and without it and do not settle it.
    float minX = box[0] - box[3];
    std::uint32_t bits = 0;
    std::memcpy(&bits, &minX, 4);
    r.mixIntoCipher(bits);
    surfaceShape(r, 0, 0);
    r.u16();  // surface ID
}

}  // namespace

void registerPlugSurface(ChunkRegistry& reg) {
    // CPlugSurface, CPlugSurfaceGeom
    reg.add(0x0900C000, false, surface);
    reg.add(0x0900C001, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0900C003, false, surfaceVersioned);
    reg.add(0x0900F002, false, surfaceGeomShape);
    reg.add(0x0900F003, false, [](NodeReader& r) {
        r.lookback();
        r.skip(24);
    });
    reg.add(0x0900F004, false, surfaceGeom);
}

}  // namespace pakfs::gbx::chunks
