// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's classes that fill the game's packs: solids and their trees, visuals and
// index buffers, surfaces, materials, shaders and their passes, bitmaps and their samplers.
//
// Sources of the layouts, named per reader below:
//   [T] a public C reimplementation of the TMUF reader (functions tmuf_gbx_*), the most
//       complete source for TMUF-era files;
//   [G] GBX.NET (Engines/Plug, *.chunkl and *.cs);
//   [R] the game's own Resource.pak (../shared/fixtures/real): its compressed files prove a
//       layout through zlib's Adler-32, its stored ones through a parse that ends exactly at the
//       body's end with every node slot filled.
//   [S] the solids in ../shared/fixtures/assets (TrackMania Sunrise, TMSX, Nations ESWC,
//       Forever, ManiaPlanet 4): each parse ends exactly at the body's end with every node slot
//       filled. They prove CPlugTree 0904F00C, CPlugVisual 07/0A/0C, CPlugVisual3D 0902C003,
//       the old CPlugSurfaceGeom's 0900D002 mesh, and ManiaPlanet's 0900600F version 5 with
//       texture coordinate sets of version 3, 09006010, 0900C003, 09005017 and 09005019.
// Where the sources describe a branch no file here exercises and whose bytes they do not agree
// on, the reader stops with a message instead of guessing: the node scan takes over from there.
#include "gbx/ChunkReaders.hpp"

#include <cstring>
#include <vector>

namespace pakfs::gbx::chunks {
namespace {

constexpr std::uint32_t kPlugSurfaceGeom = 0x0900F000;
constexpr std::uint32_t kPlugVisualSprite = 0x09010000;
constexpr std::uint32_t kPlugIndexBuffer = 0x09057000;

std::string num(std::uint64_t v) {
    return std::to_string(v);
}

// n floats, skipped (kept by no reader).
void floats(NodeReader& r, std::uint32_t n) {
    r.skip(std::uint64_t(n) * 4);
}

// u32 count then count node references.
std::uint32_t nodeRefArray(NodeReader& r) {
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
    return n;
}

// --- CPlugSolid (09005000) [T], proven on the game's four .Solid.Gbx files [R] ---

void solidMass(NodeReader& r) {  // mass, centre of mass, inertia tensor
    floats(r, 1 + 3 + 9);
}

void solidTreeOnly(NodeReader& r) {  // 0900500D: use model, has model, model, tree
    bool useModel = r.boolean();
    bool hasModel = r.boolean();
    if (hasModel) r.nodeRef();
    if (!(useModel && hasModel)) r.nodeRef();
}

void solidTreeModes(NodeReader& r) {  // 0900500A
    bool useModel = r.boolean();
    bool hasModel = r.boolean();
    if (hasModel) r.nodeRef();
    if (useModel && hasModel) return;
    std::uint32_t mode = r.u32();
    bool primary = r.boolean();
    bool secondary = r.boolean();
    if (mode == 0 || mode == 2) {
        r.nodeRef();
    } else if (mode == 1 || mode == 3) {
        if (primary) r.nodeRef();
        if (secondary) r.nodeRef();
    } else {
        r.fail("CPlugSolid tree mode " + num(mode) + " is not one the sources describe");
    }
}

void solidTree(NodeReader& r) {  // 09005011
    bool useModel = r.boolean();
    bool hasModel = r.boolean();
    if (hasModel)
        // [T] reads a "fid reference" when a flag says so: its bytes are not described.
        r.fail("CPlugSolid 09005011 with a model: the model reference's layout is not known");
    (void)useModel;
    r.note("tree", "node " + num(r.nodeRef().index));
}

// 09005017 [G] (ManiaPlanet): pre-lighting generation parameters. Version 3 and later: a
// flag, then when set the parameters (a version, two words, a bool, eight floats, two words,
// boxes, (1+) UV groups); before 3: a byte, a float, a bool, two rectangles, two words, (1+)
// boxes. From version 2 on a file time ends it.
void solidPreLight(NodeReader& r) {
    std::uint32_t version = r.u32();
    if (version > 3) r.fail("CPlugSolid 09005017 version " + num(version) + " is not described");
    if (version >= 3) {
        if (r.boolean()) {
            std::uint32_t params = r.u32();
            r.skip(8);
            r.boolean();
            floats(r, 8);
            r.skip(8);
            r.skipArray(24);                   // boxes
            if (params >= 1) r.skipArray(20);  // UV groups
        }
    } else {
        r.u8();
        floats(r, 1);
        r.boolean();
        floats(r, 8);  // two rectangles
        r.skip(8);
        if (version >= 1) r.skipArray(24);
    }
    if (version >= 2) r.u64();  // file time
}

// A deprecated node array: a version word, then a count of node references.
void deprecatedNodeArray(NodeReader& r) {
    r.u32();
    nodeRefArray(r);
}

// 09005019 [G] (ManiaPlanet): sounds, particle emitters, two lists of located instances (a
// word and an Iso4), (1+) a word, (2+) Ids and Iso4s, (3+) a string, (4+) a word, (5+) a path
// node.
void solidInstances(NodeReader& r) {
    std::uint32_t version = r.u32();
    if (version > 5) r.fail("CPlugSolid 09005019 version " + num(version) + " is not described");
    deprecatedNodeArray(r);
    deprecatedNodeArray(r);
    r.skipArray(52);
    r.skipArray(52);
    if (version >= 1) r.u32();
    if (version >= 2) {
        std::uint32_t ids = r.count(4);
        for (std::uint32_t i = 0; i < ids; ++i) r.lookback();
        r.skipArray(48);
    }
    if (version >= 3) r.string("name");
    if (version >= 4) r.u32();
    if (version >= 5) r.nodeRef();
}

// --- CPlugTree (0904F000) and variants [T] [G] ---

// Flags whose bit 2 says a local transform (GmIso4: 12 floats) follows.
void treeFlags(NodeReader& r, std::uint32_t flags) {
    if (flags & 4) floats(r, 12);
}

void treeParts(NodeReader& r, int count) {  // visual, shader, (material), surface, (generator)
    static const char* const kFive[] = {"visual", "shader", "material", "surface", "generator"};
    static const char* const kFour[] = {"visual", "shader", "surface", "generator"};
    for (int i = 0; i < count; ++i) {
        NodeRef ref = r.nodeRef();
        const char* name = count == 5 ? kFive[i] : kFour[i];
        if (ref.kind != RefKind::Null) r.note(name, "node " + num(ref.index));
    }
}

// --- CPlugVisual family [G] (CPlugVisual, CPlugVisual3D, CPlugVisualIndexed .cs/.chunkl) and
// [T]; 0900600E's texture coordinates and 0902C004's vertex layout are proven on the game's
// solids [R]. The header chunks (08, 0A, 0C, 0D, 0E, 0F) leave what later chunks need in node
// variables: the vertex count, the vertex stream count and the flags, kept in [G]'s in-memory
// form (chunks 0D..0F store them packed; kVisual* are the in-memory bits). ---

constexpr std::int64_t kVisualGeometryStatic = 1 << 3;
constexpr std::int64_t kVisualIndexationStatic = 1 << 5;
constexpr std::int64_t kVisualNormals = 1 << 7;
constexpr std::int64_t kVisualColours = 1 << 8;
constexpr std::int64_t kVisualPackedNormals = 1 << 20;
constexpr std::int64_t kVisualPackedColours = 1 << 21;
constexpr std::int64_t kVisualOptionalAttributes = 1 << 22;

// [G]: the packed flags of 0900600D/E/F in memory form.
std::int64_t unpackVisualFlags(std::uint32_t stored) {
    std::int64_t s = stored;
    std::int64_t flags = s & 15;
    flags |= (s << 1) & 0x20;
    flags |= (s << 2) & 0x180;
    flags |= (s << 13) & 0x700000;
    return flags;
}

// One texture coordinate set of `vertices` vertices [G] (TexCoordSet). Versions 0..2 store
// 8 + 4 * version bytes per vertex. Version 3 and later store the vertex count and a kind word
// first, the coordinates as 8 bytes each, then floats that [G] counts as (vertices * kind) &
// 0xFF, which reads as vertices * (kind & 0xFF) as well: where the two disagree it stops.
void texCoordSet(NodeReader& r, std::uint64_t vertices) {
    std::uint32_t version = r.u32();
    if (version < 3) {
        r.skip(vertices * (8 + 4 * std::uint64_t(version)));
        return;
    }
    std::uint32_t n = r.u32();
    if (n != vertices)
        r.fail("texture coordinate set of " + num(n) + " for " + num(vertices) + " vertices");
    std::uint32_t kind = r.u32();
    if ((kind & 0xFF) > 2) r.fail("texture coordinate kind " + num(kind & 0xFF) + " is not known");
    std::uint64_t asWritten = (vertices * kind) & 0xFF;
    std::uint64_t perVertex = vertices * (kind & 0xFF);
    if (asWritten != perVertex)
        r.fail("texture coordinate set version " + num(version) + " with kind " + hex32(kind) +
               ": the size of its extra floats is not settled");
    r.skip(vertices * 8 + perVertex * 4);
}

// SSkinData [G]: `version` is 0 (0900600C), 1 (0D) or 2 + the chunk version (0F).
void skinData(NodeReader& r, std::uint32_t version) {
    r.boolean();
    r.u32();
    if (version >= 5) {
        if (r.boolean()) r.fail("visual skin data with its third flag set: not described");
        r.boolean();
    }
    std::uint32_t bones = r.count(4);
    if (version == 2) r.skipArray(48);  // Iso4 per bone
    for (std::uint32_t i = 0; i < bones; ++i) r.lookback();
    if (version != 3) r.skipArray(4);
    r.note("bones", num(bones));
}

// The vertex streams (CPlugVertexStream nodes): only their number matters here, vertex data
// in 0902C004 is stored in the streams when there are any.
void vertexStreams(NodeReader& r) {
    std::uint32_t n = nodeRefArray(r);
    r.var("visual.streams") = n;
    if (n != 0) r.note("vertex streams", num(n));
}

// CPlugVertexStream 09056000 [G] (ManiaPlanet): a version, the vertex count, flags, a model
// stream; without a model, the declarations of its attributes (two words each, then from
// version 0 data per vertex or, when flags2 says so, two 16-bit words the second of which is the
// attribute's offset, repeated in flags2), then (1+) a bool and each attribute's array.
void vertexStream(NodeReader& r) {
    std::uint32_t version = r.u32();
    std::uint64_t vertices = r.u32();
    r.u32();  // flags
    NodeRef model = r.nodeRef();
    if (vertices == 0 || model.kind != RefKind::Null) return;
    std::uint32_t n = r.count(8);
    std::vector<std::uint32_t> decls;
    for (std::uint32_t i = 0; i < n; ++i) {
        std::uint32_t flags1 = r.u32();
        std::uint32_t flags2 = r.u32();
        decls.push_back(flags1);
        if ((flags2 & 0xFFC) == 0) {
            if (version == 0) r.skip(std::uint64_t((flags1 >> 18) & 0x3FF) * vertices);
            continue;
        }
        r.u16();
        std::uint16_t offset = r.u16();
        if (((flags2 >> 2) & 0x3FF) != offset)
            r.fail("vertex stream attribute offset " + num(offset) + " differs from its flags'");
    }
    r.note("vertices", num(vertices));
    r.note("attributes", num(n));
    if (version == 0) return;
    r.boolean();
    for (std::uint32_t flags1 : decls) {
        std::uint32_t usage = flags1 & 0x1FF;
        std::uint32_t type = (flags1 >> 9) & 0x1FF;
        std::uint64_t size = 0;
        if (type == 1 && (usage == 3 || (usage >= 10 && usage <= 17)))
            size = 8;  // blend weight, texture coordinates
        else if (type == 2 && usage <= 1)
            size = 12;  // positions
        else if (type == 2 && (usage == 5 || usage == 6))
            size = 4;  // normals, 10 bits per axis
        else if (type == 4 && (usage == 8 || usage == 9 || usage == 22))
            size = 4;  // colours
        else if (type == 5 && usage == 4)
            size = 4;  // blend indices
        else if (type == 14 && (usage == 5 || usage == 18 || usage == 20))
            size = 4;  // normal, tangents, 10 bits per axis
        else
            r.fail("vertex stream attribute " + num(usage) + " of type " + num(type) +
                   " is not described");
        r.skip(size * vertices);
    }
}

void keepVisual(NodeReader& r, std::int64_t flags, std::uint32_t vertices, std::uint32_t sets) {
    r.var("visual.flags") = flags;
    r.var("visual.vertices") = vertices;
    r.note("vertices", num(vertices));
    r.note("texture coordinate sets", num(sets));
}

// 09006008 (TM 1.0), 0900600A (TMSX), 0900600C (Nations ESWC) [G]: two bools, set count, skin
// flags, vertex count, (0A, 0C: vertex streams), the sets, (0C: skin data), a bool; then 08 and
// 0A end with an Iso4 array, 0C with the bounding box. 08 and 0A with skin data: [G] does not
// describe it.
void visualLegacyHeader(NodeReader& r) {
    std::uint32_t id = r.generalChunkId();
    // These chunks change some bits of the flags and keep the others (0x09006006's normals).
    std::int64_t flags =
        r.var("visual.flags") & ~(kVisualGeometryStatic | kVisualIndexationStatic | kVisualColours);
    if (r.boolean()) flags |= kVisualGeometryStatic;
    if (r.boolean()) flags |= kVisualIndexationStatic;
    std::uint32_t sets = r.u32();
    std::uint32_t skin = r.u32() & 7;
    std::uint32_t vertices = r.u32();
    flags |= skin;
    if (id != 0x09006008) vertexStreams(r);
    if (sets > 8) r.fail("visual with " + num(sets) + " texture coordinate sets");
    for (std::uint32_t i = 0; i < sets; ++i) texCoordSet(r, vertices);
    if (skin != 0) {
        if (id != 0x0900600C) r.fail("visual skin data in " + hex32(id) + ": not described");
        skinData(r, 0);
    }
    if (r.boolean()) flags |= kVisualColours;
    if (id == 0x0900600C)
        floats(r, 6);  // bounding box
    else
        r.skipArray(48);
    keepVisual(r, flags, vertices, sets);
}

// 0900600D, 0900600E (= 0D + bitmap elements to pack), 0900600F (versioned 0E) [G].
void visualHeader(NodeReader& r) {
    std::uint32_t id = r.generalChunkId();
    std::uint32_t version = 0;
    if (id == 0x0900600F) {
        version = r.u32();
        if (version > 6)
            r.fail("CPlugVisual 0900600F version " + num(version) + " is not described");
    }
    std::int64_t flags = unpackVisualFlags(r.u32());
    std::uint32_t sets = r.u32();
    std::uint32_t vertices = r.u32();
    vertexStreams(r);
    if (sets > 8) r.fail("visual with " + num(sets) + " texture coordinate sets");
    for (std::uint32_t i = 0; i < sets; ++i) texCoordSet(r, vertices);
    if (flags & 7) {
        // [G] reads 0E through 0D's reader (skin version 1) but names version 2 for it.
        if (id == 0x0900600E) r.fail("visual skin data in 0900600E: its version is not settled");
        skinData(r, id == 0x0900600D ? 1 : 2 + version);
    }
    floats(r, 6);                             // bounding box
    if (id != 0x0900600D) r.skipArray(0x14);  // bitmap elements to pack
    if (version >= 5) r.skipArray(2);         // UV groups
    if (version >= 6) {
        r.u32();
        std::uint32_t size = r.u32();
        if (size > 0) {
            if (size < 4) r.fail("CPlugVisual 0900600F data of " + num(size) + " bytes");
            r.skip(size - 4);
        }
    }
    keepVisual(r, flags, vertices, sets);
}

void visualMorphs(NodeReader& r) {  // 09006010 [G]: version, morph count (only 0 described)
    r.u32();
    std::uint32_t morphs = r.u32();
    if (morphs != 0) r.fail("visual with " + num(morphs) + " morphs: not described");
}

// 0902C003 (TM 1.0 to Nations ESWC) [G]: per vertex position, normal, a vector and a float;
// then two Vec3 arrays.
void visual3dVerticesLegacy(NodeReader& r) {
    if (!r.hasVar("visual.vertices")) r.fail("vertices before the visual's header");
    r.skip(std::uint64_t(r.var("visual.vertices")) * 40);
    r.skipArray(12);
    r.skipArray(12);
}

// The tangent arrays of 0902C004 [G]: empty or one per vertex, 4 bytes each with packed
// normals, else 12.
void visualTangents(NodeReader& r, std::uint64_t flags, std::uint64_t vertices) {
    std::uint32_t n = r.u32();
    if (n != 0 && n != vertices)
        r.fail("visual with " + num(n) + " tangents for " + num(vertices) + " vertices");
    r.skip(std::uint64_t(n) * ((flags & kVisualPackedNormals) ? 4 : 12));
}

void visual3dVertices(NodeReader& r) {  // 0902C004 [G]
    if (!r.hasVar("visual.vertices")) r.fail("vertices before the visual's header");
    std::uint64_t flags = std::uint64_t(r.var("visual.flags"));
    std::uint64_t vertices = std::uint64_t(r.var("visual.vertices"));
    bool optional = flags & kVisualOptionalAttributes;
    std::uint64_t stride = 12;  // position
    if (!optional || (flags & kVisualNormals)) stride += (flags & kVisualPackedNormals) ? 4 : 12;
    if (!optional || (flags & kVisualColours)) stride += (flags & kVisualPackedColours) ? 4 : 16;
    if (r.classes().ofClassOrAncestor(r.node().classId, kPlugVisualSprite)) stride += 8;
    if (r.var("visual.streams") == 0) r.skip(vertices * stride);
    visualTangents(r, flags, vertices);
    visualTangents(r, flags, vertices);
}

void visualIndexed(NodeReader& r) {  // 0906A001: the index buffer, archived inline
    if (r.boolean()) r.inlineNode(kPlugIndexBuffer);
}

// 0906A000 (TM 1.0) [G], and CPlugIndexBuffer 09057000 / 09057001 (deltas) [G] [T] after a
// flags word: a u32 count of 16-bit indices.
void indices(NodeReader& r) {
    std::uint32_t n = r.count(2);
    r.skip(std::uint64_t(n) * 2);
    r.note("indices", num(n));
}

void indexBuffer(NodeReader& r) {  // 09057000, 09057001
    r.u32();                       // flags
    indices(r);
}

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

// 0900C003 [G]: a version, (2+) the shape's surfVersion, the shape, the materials, then (< 3)
// sized data or (3+) 16-bit words, (1+) a skeleton node, (5+) Ids. [G] reads a word after the
// materials from version 4 on while noting the game's code has none: that branch stops.
void surfaceVersioned(NodeReader& r) {
    std::uint32_t version = r.u32();
    if (version > 5) r.fail("CPlugSurface 0900C003 version " + num(version) + " is not described");
    std::uint32_t surfVersion = version == 1 ? 1 : 0;
    if (version >= 2) surfVersion = r.u32();
    if (surfVersion > 2) r.fail("surface version " + num(surfVersion) + " is not described");
    surfaceShape(r, surfVersion, 0);
    std::uint32_t n = surfaceMaterials(r);
    if (version >= 4 && n > 0)
        r.fail("CPlugSurface 0900C003 version " + num(version) +
               " with materials: the word after them is not settled");
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

// --- CPlugMaterial (09079000) [T] [G], proven on Default.ControlStyle.Gbx [R] ---

void materialDevices(NodeReader& r) {  // 09079008/9/C/D
    std::uint32_t id = r.generalChunkId();
    NodeRef model = r.nodeRef();
    if (model.kind != RefKind::Null) return;
    bool shaderFids = id == 0x09079009 || id == 0x0907900C || id == 0x0907900D;
    std::uint32_t n = r.count(12);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.u32();  // device, sub-device, quality
        if (r.boolean())
            r.fail("CPlugMaterial device shader by file reference: its layout is not known");
        r.nodeRef();  // shader
        if (shaderFids) {
            // Day and night shaders by file reference: only the empty one (-1) is known.
            for (int k = 0; k < 2; ++k)
                if (r.u32() != 0xFFFFFFFF)
                    r.fail("CPlugMaterial day/night shader reference: its layout is not known");
        }
    }
    if (id == 0x0907900C || id == 0x0907900D) r.skipArray(4);  // formats
    r.note("device shaders", num(n));
}

// --- CPlugShader (09002000), Generic (09004000), Apply (09026000) [T] [G] ---

void shaderPasses(NodeReader& r) {  // 0900200E
    r.nodeRef();                    // function shader
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
    r.nodeRef();
    nodeRefArray(r);  // [G]: external nodes
    r.note("passes", num(n));
}

void shaderRequirements(NodeReader& r) {  // 09002016: requirement flags, a real, a node, ids
    r.u32();
    r.u32();
    floats(r, 1);
    r.nodeRef();
    r.u16();  // visible ID flags
}

void shaderBitmapAddresses(NodeReader& r) {  // 09026002
    r.note("bitmap addresses", num(nodeRefArray(r)));
}

// --- CPlugShaderPass (09067000) [T] [G], proven on Default.ShaderSprite.Gbx [R] ---

void gpuProgram(NodeReader& r) {  // enabled, program file; when enabled its constants
    bool enabled = r.boolean();
    r.nodeRef();
    if (!enabled) return;
    std::uint32_t n = r.count(20);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.lookback();
        r.skip(16);
    }
    std::uint32_t m = r.count(16);
    r.skip(std::uint64_t(m) * 16);
}

void shaderPassPrograms(NodeReader& r) {  // 0906700A: ids, vertex program, pixel program
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.lookback();
    gpuProgram(r);
    gpuProgram(r);
}

// --- CPlugBitmap (09011000) [T] [G], proven on the game's seven .Texture.gbx files [R] ---

void bitmapImage(NodeReader& r) {  // 09011014/15/18/22
    NodeRef image = r.nodeRef();
    std::uint8_t usage[8];
    for (auto& b : usage) b = r.u8();
    floats(r, 3);  // mip-map lower alpha, bump scale, mip-map LOD bias
    r.u32();       // border colour
    if (image.kind != RefKind::Null) r.note("image", "node " + num(image.index));
    std::uint32_t id = r.generalChunkId();
    if (id != 0x09011018 && id != 0x09011022) return;
    // [T]: the second usage byte says what updates the pixels.
    switch (usage[1]) {
        case 4:
            r.nodeRef();  // the render
            break;
        case 7:
            r.skip(std::uint64_t(r.count(16)) * 16);  // highlights
            break;
        case 8:
            r.u32();
            break;
        case 5:
            r.fail("bitmap pixel update mode 5 is not described");
        default:
            break;
    }
}

void bitmapTexCoords(NodeReader& r) {  // 0901101C: scale, translation, rotation
    floats(r, 5);
}

// --- CPlugBitmapSampler (0907E000), Address (09047000), Apply (09012000) [T] [G] ---

void samplerBitmap(NodeReader& r) {  // 0907E008: name, bitmap, two words
    std::string name = r.lookback();
    NodeRef bitmap = r.nodeRef();
    r.skip(8);
    if (bitmap.kind != RefKind::Null) r.note("bitmap", "node " + num(bitmap.index));
    if (!name.empty()) r.note("sampler", name);
}

void addressTransform(NodeReader& r) {  // 09047007: flags, node, which transforms follow
    r.u32();
    r.nodeRef();
    std::uint8_t which = r.u8();
    if (which > 3) r.fail("bitmap address transform flag " + num(which));
    if (which & 1) floats(r, 6);   // GmIso3
    if (which & 2) floats(r, 16);  // GmMat4
}

// --- CPlugFontBitmap (0904E000) [R]: no public source describes its chunks; these layouts
// are the ones Arial.Font.Gbx of the game's pack holds, proven by its Adler-32 ---

void fontCharMap(NodeReader& r) {  // 0904E004: character ranges, then the glyph of each char
    std::uint32_t ranges = r.count(16);
    std::uint64_t chars = 0;
    for (std::uint32_t i = 0; i < ranges; ++i) {
        std::uint32_t first = r.u32();
        std::uint32_t last = r.u32();
        r.u32();  // index of the first character
        r.u32();  // that index minus the first character
        if (last < first) r.fail("font character range ends before it starts");
        chars += std::uint64_t(last - first) + 1;
    }
    std::uint32_t n = r.count(2);
    if (n != chars) r.fail("font maps " + num(n) + " characters, its ranges hold " + num(chars));
    r.skip(std::uint64_t(n) * 2);
    r.note("characters", num(n));
}

void fontKerning(NodeReader& r) {  // 0904E005: a hash table (buckets, entries) of 8-byte pairs
    std::uint32_t buckets = r.count(8);
    std::uint32_t used = r.u32();
    if (used > buckets) r.fail("font kerning table uses more buckets than it has");
    r.skip(std::uint64_t(buckets) * 8);
    r.note("kerning pairs", num(used));
}

void fontGlyphs(NodeReader& r) {  // 0904E007: two metrics, glyphs, then the pages
    r.u32();
    r.u32();
    std::uint32_t glyphs = r.count(32);
    r.skip(std::uint64_t(glyphs) * 32);  // index, texture rectangle, metrics
    r.nodeRef();
    std::uint32_t pages = r.count(8);
    for (std::uint32_t i = 0; i < pages; ++i) {
        r.u32();
        r.nodeRef();  // the page's shader
    }
    r.note("glyphs", num(glyphs));
    r.note("pages", num(pages));
}

}  // namespace

void registerPlug(ChunkRegistry& reg) {
    // CPlugSolid
    reg.add(0x09005000, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x09005006, false, [](NodeReader& r) {
        floats(r, 2);  // legacy speeds
        solidMass(r);
    });
    reg.add(0x09005007, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x0900500A, false, solidTreeModes);
    // [T] skips 32 bytes, [G] reads six bools and a word (28); no file here holds it.
    reg.add(0x0900500B, false, [](NodeReader& r) {
        r.fail("CPlugSolid 0900500B: its sources give it 28 and 32 bytes");
    });
    reg.add(0x0900500C, false, [](NodeReader& r) { r.skip(72); });
    reg.add(0x0900500D, false, solidTreeOnly);
    reg.add(0x0900500E, false, [](NodeReader& r) {
        solidMass(r);
        floats(r, 3);  // fluid friction, response
    });
    reg.add(0x0900500F, false, [](NodeReader& r) { r.skip(8); });
    reg.add(0x09005010, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x09005011, false, solidTree);
    reg.add(0x09005012, false, [](NodeReader& r) { r.u8(); });  // lightmap cells
    reg.add(0x09005017, false, solidPreLight);
    reg.add(0x09005019, false, solidInstances);

    // CPlugTree
    reg.add(0x0904F006, false, [](NodeReader& r) {
        r.u32();
        r.note("children", num(nodeRefArray(r)));
    });
    reg.add(0x0904F00C, false, [](NodeReader& r) {  // [G]: a count, only 0 described
        std::uint32_t n = r.u32();
        if (n != 0) r.fail("CPlugTree 0904F00C with " + num(n) + " entries: not described");
    });
    reg.add(0x0904F00D, false, [](NodeReader& r) {
        std::string name = r.lookback();
        if (!name.empty()) r.note("name", name);
        // The second entry: [T] reads a node (then an Id when there is one), [G] an Id (an
        // older [G] a node). Empty (-1) they read alike; any other value stops.
        std::uint32_t second = r.u32();
        if (second != 0xFFFFFFFF)
            r.fail("CPlugTree 0904F00D second entry " + hex32(second) +
                   ": its sources read it as a node or an Id");
    });
    reg.add(0x0904F00E, false, [](NodeReader& r) { treeParts(r, 3); });
    reg.add(0x0904F010, false, [](NodeReader& r) { treeFlags(r, r.u32()); });
    reg.add(0x0904F011, false, [](NodeReader& r) { r.nodeRef(); });  // function
    reg.add(0x0904F012, false, [](NodeReader& r) { treeParts(r, 4); });
    reg.add(0x0904F014, false, [](NodeReader& r) { treeParts(r, 5); });
    // [G] (TM 1.0; [T] lists it without data, as it does 0904F00C, which the Sunrise solids
    // prove holds a word).
    reg.add(0x0904F015, false, [](NodeReader& r) { treeFlags(r, r.u32() & 0x1FFFF); });
    reg.add(0x0904F016, false, [](NodeReader& r) { treeParts(r, 4); });
    reg.add(0x0904F017, false, [](NodeReader& r) { r.nodeRef(); });  // visual [G]
    reg.add(0x0904F018, false, [](NodeReader& r) {
        std::uint32_t flags = r.u32();
        r.u32();
        treeFlags(r, flags);
    });
    reg.add(0x0904F019, false, [](NodeReader& r) { treeFlags(r, r.u32()); });
    reg.add(0x0904F01A, false, [](NodeReader& r) { treeFlags(r, r.u32()); });
    reg.add(0x09015002, false, [](NodeReader& r) {  // CPlugTreeVisualMip: distance + tree
        std::uint32_t n = r.count(8);
        for (std::uint32_t i = 0; i < n; ++i) {
            floats(r, 1);
            r.nodeRef();
        }
        r.note("levels", num(n));
    });
    reg.add(0x09062004, false, [](NodeReader& r) { r.nodeRef(); });  // CPlugTreeLight: light
    reg.add(0x09051000, false, [](NodeReader& r) { r.u32(); });      // CPlugTreeGenerator [G]

    // CPlugVisual, CPlugVisual3D, CPlugVisualIndexed, CPlugVisualSprite, CPlugIndexBuffer
    reg.add(0x09006001, false, [](NodeReader& r) { r.lookback(); });
    reg.add(0x09006004, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x09006005, false, [](NodeReader& r) { r.skipArray(12); });  // sub-visuals
    reg.add(0x09006006, false, [](NodeReader& r) {                       // has vertex normals [G]
        std::int64_t& flags = r.var("visual.flags");
        flags = r.boolean() ? flags | kVisualNormals : flags & ~kVisualNormals;
    });
    reg.add(0x09006007, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x09006008, false, visualLegacyHeader);
    reg.add(0x09006009, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0900600A, false, visualLegacyHeader);
    reg.add(0x0900600B, false, [](NodeReader& r) { r.skipArray(32); });  // splits
    reg.add(0x0900600C, false, visualLegacyHeader);
    for (std::uint32_t id : {0x0900600Du, 0x0900600Eu, 0x0900600Fu})
        reg.add(id, false, visualHeader);
    reg.add(0x09006010, false, visualMorphs);
    reg.add(0x0902C002, false, [](NodeReader& r) { r.nodeRef(); });  // material
    reg.add(0x0902C003, false, visual3dVerticesLegacy);
    reg.add(0x0902C004, false, visual3dVertices);
    reg.add(0x0906A000, false, indices);
    reg.add(0x0906A001, false, visualIndexed);
    reg.add(0x09009001, false, [](NodeReader& r) { r.u32(); });  // CPlugVisualIndexedLines [G]
    reg.add(0x0904A000, false, [](NodeReader& r) { r.skipArray(32); });  // CPlugVisual2D [G]
    reg.add(0x0903B000, false, [](NodeReader& r) { r.skip(16); });       // CPlugVisualGrid [G]
    reg.add(0x09010005, false, [](NodeReader& r) { r.skip(24); });
    reg.add(0x09010006, false, [](NodeReader& r) { r.skip(4); });
    reg.add(0x09010008, false, [](NodeReader& r) { r.directNode(); });   // sprite parameters [G]
    reg.add(0x09010009, false, [](NodeReader& r) { r.skipArray(16); });  // rectangles [G]
    // CPlugSpriteParam [G]: a word, direction, pivot, tilt factor; 001 versions it and adds
    // the texture height in the world and (version 1+) two distances.
    reg.add(0x090AC000, false, [](NodeReader& r) { r.skip(28); });
    reg.add(0x090AC001, false, [](NodeReader& r) {
        std::uint32_t version = r.u32();
        r.skip(28 + 4);
        if (version >= 1) r.skip(8);
    });
    reg.add(0x09057000, false, indexBuffer);
    reg.add(0x09057001, false, indexBuffer);
    reg.add(0x09056000, false, vertexStream);

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

    // CPlugMaterial
    reg.add(0x09079001, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x09079002, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x09079007, false, [](NodeReader& r) { r.nodeRef(); });  // custom material
    reg.add(0x09079008, false, materialDevices);
    reg.add(0x09079009, false, materialDevices);
    reg.add(0x0907900A, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0907900B, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x0907900C, false, materialDevices);
    reg.add(0x0907900D, false, materialDevices);
    reg.add(0x0907900E, false, [](NodeReader& r) { r.u32(); });  // surface ID and flags
    reg.add(0x0907900F, false, [](NodeReader& r) { r.u32(); });

    // CPlugShader, CPlugShaderGeneric, CPlugShaderApply, CPlugShaderPass
    reg.add(0x0900200E, false, shaderPasses);
    reg.add(0x09002016, false, shaderRequirements);
    for (std::uint32_t id : {0x09004001u, 0x09004002u, 0x09004003u})
        reg.add(id, false, [](NodeReader& r) { r.skip(0x58); });  // render state block
    reg.add(0x09026002, false, shaderBitmapAddresses);
    reg.add(0x09026004, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x09026008, false, [](NodeReader& r) { r.skip(8); });
    reg.add(0x09067006, false, [](NodeReader& r) { nodeRefArray(r); });  // vertex textures
    reg.add(0x09067007, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0906700A, false, shaderPassPrograms);

    // CPlugBitmap
    for (std::uint32_t id : {0x09011014u, 0x09011015u, 0x09011018u, 0x09011022u})
        reg.add(id, false, bitmapImage);
    for (std::uint32_t id : {0x09011019u, 0x0901101Bu, 0x0901101Du, 0x0901101Fu, 0x09011021u,
                             0x09011023u, 0x09011024u, 0x0901102Eu})
        reg.add(id, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0901101C, false, bitmapTexCoords);
    reg.add(0x0901101E, false, [](NodeReader& r) { r.skipArray(8); });  // atlas UV counts
    reg.add(0x09011020, false, [](NodeReader& r) { r.skipArray(4); });  // mip-map fade alphas
    reg.add(0x09011025, false, [](NodeReader& r) { r.skip(24); });
    reg.add(0x09011028, false, [](NodeReader& r) { r.skip(8); });

    // CPlugBitmapSampler, CPlugBitmapAddress, CPlugBitmapApply
    reg.add(0x0907E008, false, samplerBitmap);
    reg.add(0x09047007, false, addressTransform);
    reg.add(0x09047009, false, [](NodeReader& r) { floats(r, 1); });  // bump scale
    reg.add(0x09012004, false, [](NodeReader& r) { r.u32(); });

    // CPlugFontBitmap
    reg.add(0x0904E004, false, fontCharMap);
    reg.add(0x0904E005, false, fontKerning);
    reg.add(0x0904E006, false, [](NodeReader& r) { floats(r, 4); });  // capital bounding box
    reg.add(0x0904E007, false, fontGlyphs);
}

}  // namespace pakfs::gbx::chunks
