// SPDX-License-Identifier: GPL-2.0-or-later
// The crystals of ManiaPlanet and Trackmania 2020 (CPlugCrystal 09003000), the editable meshes
// items and blocks are made of: their materials (003), editor data (004), layers (005; the one
// layer of 000), lightmap coordinates (006) and smoothing groups (007), and the crystal geometry
// the geometry and trigger layers hold.
//
// Sources:
//   [G]  GBX.NET, Engines/Plug/CPlugCrystal.chunkl and CPlugCrystal.cs (the reading of chunks
//        000, 005 and 006 and of the crystal), Serialization/GbxReader.cs (the packed integers);
//   [G1] GBX.NET's first version (Engines/Plug/CPlugCrystal.cs and CPlugCrystal.Crystal.cs of
//        its v1 branch), and gbx-viewer (boukestam/gbx-viewer,
//        src/parser/classes/CPlugCrystal.ts), which follows it;
//   [GE] GBX.NET's crystal branch (its commit of 2026-03-08: CPlugCrystal.CrystalElemPool.cs,
//        CPlugCrystal.chunkl's CrystalEdge and GxMesh, CPlugCrystal.cs), which reads the
//        editable form a .Crystal.Gbx holds: element pools, edges and a mesh. It is unfinished
//        work; where the game's files disagree with it (which edges carry data, a texture
//        channel's shape) the files decide, and every count is checked against the pools.
// [G] and [G1] agree but for the packing of two things, where this reader stops rather than
// guess (see packedPairWidth and packedIndexWidth). No source describes the voxels of a cubes
// layer, nor layer kinds 16 and 17: those stop.
#include <vector>

#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The material count of chunk 003, which sizes a face's material index in the crystal.
constexpr const char* kMaterialsVar = "crystal materials";

// The highest crystal version [G] reads (texture coordinates shared by the faces).
constexpr std::uint32_t kCrystalHighest = 37;

// Width of each element of an array of indices packed by a count ([G] ReadArrayOptimizedInt,
// [G1] alike): 4 bytes from 65535 on, 2 from 255 on, else 1.
std::uint32_t packedArrayWidth(std::uint64_t determinedBy) {
    return determinedBy >= 65535 ? 4 : determinedBy >= 255 ? 2 : 1;
}

// A packed array: n elements of the width `determinedBy` gives.
void packedArray(NodeReader& r, std::uint32_t n, std::uint64_t determinedBy) {
    if (n != 0) r.skip(std::uint64_t(n) * packedArrayWidth(determinedBy));
}

// Width of one index packed by a count ([G] ReadOptimizedInt): 4 bytes above 65535, 2 above
// 255, else 1. [G] moved the bounds from "at" to "above" in its version 2.0.8; [G1] keeps "at":
// a count of exactly 255 or 65535 is read two ways, and stops.
std::uint32_t packedIndexWidth(NodeReader& r, std::uint32_t count, const char* what) {
    if (count == 255 || count == 65535)
        r.fail(std::string(what) + " packed by a count of " + num(count) +
               ": sources disagree on its width");
    return count > 65535 ? 4 : count > 255 ? 2 : 1;
}

std::uint32_t packedIndex(NodeReader& r, std::uint32_t width) {
    return width == 4 ? r.u32() : width == 2 ? r.u16() : r.u8();
}

// Width of an edge (two packed vertex indices) of a crystal of version 35+. [G] packs by the
// edge count (8 bytes from 65535 edges, 4 from 255, else 2); [G1] packs each index by twice
// that count, which differs for 128 to 254 and 32768 to 65534 edges: those stop.
std::uint32_t packedPairWidth(NodeReader& r, std::uint32_t edges) {
    if ((edges >= 128 && edges < 255) || (edges >= 32768 && edges < 65535))
        r.fail("crystal: " + num(edges) + " packed edges: sources disagree on their width");
    return edges >= 65535 ? 8 : edges >= 255 ? 4 : 2;
}

// --- The crystal archive [G] (Crystal), [G1] (Crystal.Read) ---

// Visual levels (13+), anchors (23+) and groups (22+); returns the group count.
std::uint32_t crystalHead(NodeReader& r, std::uint32_t v) {
    if (v >= 13) {
        r.u32();
        r.skipArray(8);  // visual levels: int, float
    }
    if (v >= 23) {
        std::uint32_t anchors = r.count(64);
        for (std::uint32_t i = 0; i < anchors; ++i) {
            r.boolean();
            r.boolean();
            iso4(r);
            r.string("anchor");
            r.u32();
        }
    }
    if (v < 22) return 0;
    std::uint32_t groups = r.count(17);
    for (std::uint32_t i = 0; i < groups; ++i) {
        if (v >= 31) r.u32();
        if (v >= 36)
            r.u8();
        else
            r.u32();
        r.u32();
        r.string("group name");
        r.u32();
        r.skipArray(4);
    }
    return groups;
}

// The edges: (< 35) a count of index pairs; (35+) an unused count, then a count of packed pairs.
void crystalEdges(NodeReader& r, std::uint32_t v) {
    if (v < 35) {
        r.skipArray(8);
        return;
    }
    r.u32();
    std::uint32_t n = r.count(2);
    if (n != 0) r.skip(std::uint64_t(n) * packedPairWidth(r, n));
}

struct FaceShape {
    std::uint32_t version = 0;
    std::uint32_t positions = 0;
    std::uint32_t materials = 0;
    std::uint32_t groups = 0;
};

// One face: its vertex count and indices, its UVs (before 37), its material (25+) and group.
// Returns its vertex count.
std::uint32_t crystalFace(NodeReader& r, const FaceShape& s, std::uint32_t face) {
    std::uint32_t v = s.version;
    std::uint32_t corners = v >= 35 ? r.u8() + 3u : r.u32();
    if (v >= 34)
        packedArray(r, corners, s.positions);
    else
        r.skip(std::uint64_t(corners) * 4);
    if (v < 27) {
        // [G] and [G1] read as many UVs as the count says, up to the vertex count, then a
        // vector; more UVs than vertices would leave bytes no source sizes.
        std::uint32_t uvs = r.u32();
        if (uvs > corners)
            r.fail("crystal face " + num(face) + ": " + num(uvs) + " UVs for " + num(corners) +
                   " vertices, whose extra bytes no source sizes");
        r.skip(std::uint64_t(uvs) * 8);
        r.vec3();
    } else if (v < 37) {
        r.skip(std::uint64_t(corners) * 8);
    }
    if (v >= 25) {
        if (v >= 33 && s.materials > 0)
            packedIndex(r, packedIndexWidth(r, s.materials, "crystal face material"));
        else
            r.u32();
    }
    std::uint32_t group =
        v >= 33 ? packedIndex(r, packedIndexWidth(r, s.groups, "crystal face group")) : r.u32();
    if (group >= s.groups)
        r.fail("crystal face " + num(face) + " is in group " + num(group) + " of " + num(s.groups));
    return corners;
}

// The faces: (37+) the shared texture coordinates and their packed indices, then each face.
std::uint32_t crystalFaces(NodeReader& r, const FaceShape& s) {
    std::uint32_t faces = r.count(5);
    std::uint64_t uvIndices = 0;
    if (s.version >= 37) {
        r.skipArray(8);
        std::uint32_t n = r.count(1);
        packedArray(r, n, n);
        uvIndices = n;
    }
    std::uint64_t corners = 0;
    for (std::uint32_t i = 0; i < faces; ++i) {
        corners += crystalFace(r, s, i);
        if (s.version >= 37 && corners > uvIndices)
            r.fail("crystal: the faces have more vertices than the " + num(uvIndices) +
                   " texture coordinate indices");
    }
    return faces;
}

// What follows the faces: per face ints (an embedded crystal's before 30; three of an editable
// one's), per position (< 29) an int, an int, (7 to 31) crystal links with (10+) an int, a string
// and (< 30) smoothing groups, (< 36) the face, edge and vertex counts sizing three int arrays
// and an int, then (editable) per face an int and four floats ([G]'s note on the editable form).
// An editable crystal's three counts are checked against its element pools.
struct TailCounts {
    std::uint32_t faces = 0;
    std::uint32_t edges = 0;
    std::uint32_t positions = 0;
};

void crystalTail(NodeReader& r, std::uint32_t v, bool embedded, const TailCounts& c) {
    const std::uint64_t intsPerFace = embedded ? (v < 30 ? 1 : 0) : 3;
    r.skip(std::uint64_t(c.faces) * intsPerFace * 4);
    if (v < 29) r.skip(std::uint64_t(c.positions) * 4);
    r.u32();
    if (v >= 7 && v < 32) {
        // [G] stops at crystal links: it reads none.
        if (std::uint32_t links = r.u32())
            r.fail("crystal: " + num(links) + " crystal link(s), whose layout no source gives");
        if (v >= 10) {
            r.u32();
            r.string("crystal link name");
            if (v < 30) r.skipArray(4);
        }
    }
    if (v < 36) {
        std::uint32_t faceInts = r.u32(), edgeInts = r.u32(), vertexInts = r.u32();
        if (!embedded && (faceInts != c.faces || edgeInts != c.edges || vertexInts != c.positions))
            r.fail("editable crystal: its counts of faces, edges and vertices (" + num(faceInts) +
                   ", " + num(edgeInts) + ", " + num(vertexInts) + ") are not its pools' (" +
                   num(c.faces) + ", " + num(c.edges) + ", " + num(c.positions) + ")");
        r.skip((std::uint64_t(faceInts) + edgeInts + vertexInts) * 4);
        r.u32();
        if (!embedded) r.skip(std::uint64_t(c.faces) * 20);
    }
}

// --- The editable crystal [GE] (CrystalElemPool, CrystalEdge, GxMesh), checked by the files ---

// An element pool: its handles (free flag, version, next in its list), then the heads of its
// free and used lists. Each list must reach exactly the handles of its kind, once: what proves
// the pool was read as one. Returns the number of handles in use.
std::uint32_t elementPool(NodeReader& r, const char* what) {
    constexpr std::uint32_t kEnd = 0x7FFFFFFF;
    const std::uint32_t n = r.count(12);
    std::vector<std::uint32_t> next(n);
    std::vector<bool> isFree(n);
    std::uint32_t used = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        isFree[i] = r.boolean();
        r.u32();  // the handle's version
        next[i] = r.u32();
        if (!isFree[i]) ++used;
    }
    const std::uint32_t heads[2] = {r.u32(), r.u32()};  // free, used
    std::vector<bool> seen(n);
    for (int list = 0; list < 2; ++list) {
        std::string which = list ? "used" : "free";
        which.append(" list of the ").append(what);
        const std::uint32_t own = list ? used : n - used;
        std::uint32_t reached = 0;
        for (std::uint32_t at = heads[list]; at != kEnd; at = next[at], ++reached) {
            if (at >= n || seen[at] || isFree[at] != (list == 0))
                r.fail("editable crystal: the " + which + " pool runs to handle " + num(at) +
                       " of " + num(n) + ", which is not one of its own");
            seen[at] = true;
        }
        if (reached != own)
            r.fail("editable crystal: the " + which + " pool reaches " + num(reached) + " of its " +
                   num(own) + " handles");
    }
    return used;
}

// An edge in use, in the versions read (29+): its two vertex handles, a flag, an int, an int,
// a flag and four floats ([GE]'s CrystalEdge from version 19; its fields of versions 8 to 25
// are not read here).
void crystalEdge(NodeReader& r) {
    r.skip(8);
    r.boolean();
    r.u32();
    r.u32();
    r.boolean();
    r.skip(16);
}

// The mesh: a version (0, the only one [GE] and the files show), the positions (one per vertex
// in use), a vec3 array, then per face in use its corners (vertex index, int, float, vec3) and
// its texture channels. [GE] reads a channel as a counted vec2 array; the game's files store an
// int and then one vec2 per corner (no count): the files decide. Then an int per face.
void editableMesh(NodeReader& r, std::uint32_t vertices, std::uint32_t faces) {
    version(r, 0, "editable crystal mesh");
    const std::uint32_t positions = r.count(12);
    if (positions != vertices)
        r.fail("editable crystal: " + num(positions) + " mesh positions for " + num(vertices) +
               " vertices in use");
    r.skip(std::uint64_t(positions) * 12);
    r.skipArray(12);
    const std::uint32_t n = r.count(8);
    if (n != faces)
        r.fail("editable crystal: " + num(n) + " mesh faces for " + num(faces) + " faces in use");
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t corners = r.count(24);
        for (std::uint32_t c = 0; c < corners; ++c) {
            if (r.u32() >= positions)
                r.fail("editable crystal: mesh face " + num(i) + " names a vertex past its " +
                       num(positions));
            r.skip(20);
        }
        const std::uint32_t channels = r.count(4);
        for (std::uint32_t c = 0; c < channels; ++c) {
            r.u32();
            r.skip(std::uint64_t(corners) * 8);
        }
    }
    r.skip(std::uint64_t(n) * 4);
}

// The editable geometry of a .Crystal.Gbx (versions 29 to 35): the vertex, edge and face pools,
// each edge in use, the mesh, then the tail.
void editableCrystal(NodeReader& r, std::uint32_t v) {
    // [G] places the face properties of the editable form before version 36 only. Before 29 its
    // tail holds a float per position, which [GE] (no positions in this form) reads none of and
    // [G]'s reading of the other form one per vertex: no file here decides.
    if (v >= 36)
        r.fail("editable crystal version " + num(v) +
               ": where its face properties go no source says (35 is the highest)");
    if (v < 29)
        r.fail("editable crystal version " + num(v) +
               ": sources disagree on the floats per position before version 29");
    TailCounts c;
    c.positions = elementPool(r, "vertex");
    c.edges = elementPool(r, "edge");
    c.faces = elementPool(r, "face");
    for (std::uint32_t i = 0; i < c.edges; ++i) crystalEdge(r);
    editableMesh(r, c.positions, c.faces);
    crystalTail(r, v, false, c);
    r.note("crystal", "version " + num(v) + ", editable, " + num(c.positions) + " vertices, " +
                          num(c.edges) + " edges, " + num(c.faces) + " faces");
}

// A crystal: its version, head, embedded flag, then (embedded only) its geometry.
void crystal(NodeReader& r) {
    std::uint32_t v = version(r, kCrystalHighest, "crystal");
    FaceShape s;
    s.version = v;
    s.groups = crystalHead(r, v);
    // [G] reads the embedded flag from version 25 on; before, no source reads the geometry.
    if (v < 25) r.fail("crystal version " + num(v) + ": its geometry is not described");
    if (v < 29) {
        r.boolean();
        r.boolean();
    }
    bool embedded = v >= 34 ? byteBool(r, "crystal") : r.boolean();
    if (v >= 33) {
        r.u32();
        r.u32();
    }
    if (!embedded) {
        editableCrystal(r, v);
        return;
    }
    s.positions = r.count(12);
    r.skip(std::uint64_t(s.positions) * 12);
    crystalEdges(r, v);
    s.materials = std::uint32_t(r.var(kMaterialsVar));
    std::uint32_t faces = crystalFaces(r, s);
    crystalTail(r, v, true, {faces, 0, s.positions});
    r.note("crystal",
           "version " + num(v) + ", " + num(s.positions) + " positions, " + num(faces) + " faces");
}

// --- Layers (005) [G] (Layer, ModifierLayer and the kinds), [G1] (Chunk09003005) ---

enum LayerKind : std::uint32_t {
    kGeometry = 0,
    kSubdivideSmooth = 1,
    kTranslation = 2,
    kRotation = 3,
    kScale = 4,
    kMirror = 5,
    kMoveToGround = 6,
    kExtrude = 7,
    kSubdivide = 8,
    kChaos = 9,
    kSmooth = 10,
    kBorderTransition = 11,
    kDeformation = 12,
    kCubes = 13,
    kTrigger = 14,
    kSpawnPosition = 15,
    kLight = 18,
};

// The kinds [G] names (16 and 17 it does not), or null.
const char* layerKindName(std::uint32_t kind) {
    static const char* const kNames[] = {
        "geometry",      "subdivide smooth",  "translation", "rotation",  "scale",
        "mirror",        "move to ground",    "extrude",     "subdivide", "chaos",
        "smooth",        "border transition", "deformation", "cubes",     "trigger",
        "spawn position"};
    if (kind < std::size(kNames)) return kNames[kind];
    return kind == kLight ? "light" : nullptr;
}

// What every layer starts with: a version, whether the crystal is enabled, the layer's Id and
// name, and (1+) whether the layer is. [G1] notes version 2 and reads it as 1.
void layerBase(NodeReader& r) {
    std::uint32_t v = version(r, 2, "crystal layer");
    r.boolean();
    r.note("layer", r.lookback());
    r.string("layer name");
    if (v >= 1) r.boolean();
}

// A kind's version, read before the kind's fields: refused above the highest [G] describes.
void kindVersionAtMost(NodeReader& r, std::uint32_t v, std::uint32_t highest, const char* what) {
    if (v > highest)
        r.refuseVersion(std::string(what) + " version " + num(v) + " not supported (" +
                        num(highest) + " is the highest any source describes)");
}

// What a modifier layer adds: its version and mask (group index and layer Id per part), then
// the kind's version and fields. Versions without a branch in [G] are not checked.
void modifierLayer(NodeReader& r, std::uint32_t kind) {
    r.u32();
    std::uint32_t mask = r.count(8);
    for (std::uint32_t i = 0; i < mask; ++i) {
        r.u32();
        r.lookback();
    }
    std::uint32_t v = r.u32();
    switch (kind) {
        case kSubdivideSmooth:
        case kSubdivide:
            r.u32();  // subdivisions
            break;
        case kTranslation:
        case kExtrude:
            r.vec3();
            break;
        case kRotation:
            r.f32();      // angle
            r.u32();      // axis
            r.boolean();  // independently
            break;
        case kScale:
            r.vec3();
            r.boolean();  // independently
            break;
        case kMirror:
            r.u32();  // axis
            r.f32();  // distance
            r.boolean();
            break;
        case kMoveToGround:
            r.boolean();
            break;
        case kChaos:
            kindVersionAtMost(r, v, 1, "crystal chaos layer");
            r.f32();  // minimum distance
            r.u32();
            if (v >= 1) r.f32();  // maximum distance
            break;
        case kSmooth:
            r.f32();
            r.boolean();
            break;
        case kBorderTransition:
            r.f32();
            r.f32();
            refArray(r);  // visuals
            break;
        case kDeformation:
            r.skip(24);  // aligned box
            iso4(r);
            break;
        case kSpawnPosition:
            kindVersionAtMost(r, v, 1, "crystal spawn position layer");
            r.vec3();
            r.f32();              // horizontal angle
            r.f32();              // vertical angle
            if (v >= 1) r.f32();  // roll angle
            break;
        case kLight:
            refArray(r);      // light user models
            r.skipArray(52);  // light positions: int and location
            break;
        default:
            break;
    }
}

void layer(NodeReader& r, std::uint32_t index) {
    std::uint32_t kind = r.u32();
    const char* name = layerKindName(kind);
    if (!name)
        r.fail("crystal 09003005: layer " + num(index) + " is of kind " + num(kind) +
               ", which no source describes");
    r.note("layer kind", name);
    layerBase(r);
    if (kind == kGeometry) {
        std::uint32_t v = version(r, 1, "crystal geometry layer");
        crystal(r);
        r.skipArray(4);
        if (v >= 1) {
            r.boolean();  // visible
            r.boolean();  // collidable
        }
    } else if (kind == kTrigger) {
        std::uint32_t v = version(r, 1, "crystal trigger layer");
        crystal(r);
        if (v >= 1) r.skipArray(4);
    } else if (kind == kCubes) {
        // [G] throws at the voxel space and [G1] before it; gbx-viewer reads [G1]'s unreachable
        // lines, which take the voxel model arrays for bare counts.
        r.u32();
        r.fail("crystal 09003005: a cubes layer's voxels are not described");
    } else {
        modifierLayer(r, kind);
    }
}

// 005: a version and the layers, each of a kind.
void layers(NodeReader& r) {
    r.u32();  // version ([G] reads no branch)
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) layer(r, i);
    r.note("layers", num(n));
}

// 006: the lightmap coordinates of the visible geometry's face vertices: (0) as floats, (1+)
// as two 16-bit fractions, (2+) then packed indices into them.
void lightmapCoords(NodeReader& r) {
    std::uint32_t v = version(r, 2, "crystal 09003006");
    if (v == 0) {
        r.skipArray(8);
        return;
    }
    r.skipArray(4);
    if (v >= 2) {
        std::uint32_t n = r.count(1);
        packedArray(r, n, n);
    }
}

// 007: smoothing groups (floats) and ints. [G] reads every version so; [G1] notes that other
// versions add two floats and an int array without saying which: only version 0, which every
// game-written file here has, is read.
void smoothingGroups(NodeReader& r) {
    version(r, 0, "crystal 09003007");
    r.skipArray(4);
    r.skipArray(4);
}

}  // namespace

void registerCrystal(ChunkRegistry& reg) {
    // 000 [G]: a version, then the one crystal of a crystal with a single geometry layer.
    reg.add(0x09003000, false, [](NodeReader& r) {
        r.u32();
        crystal(r);
    });
    // 003 [G]: the materials, each by name or else as a CPlugMaterialUserInst node.
    reg.add(0x09003003, false, [](NodeReader& r) {
        r.u32();  // version ([G] names 2 and reads no branch)
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i)
            if (r.string("material").empty()) r.nodeRef();
        r.var(kMaterialsVar) = n;
        r.note("materials", num(n));
    });
    // 004 [G]: the editor's data, then (1+) an int. A later version is skipped by its size.
    reg.add(0x09003004, true, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        if (v > 1) {
            r.skipRestOfChunk();
            return;
        }
        r.skipArray(1);
        if (v >= 1) r.u32();
    });
    reg.add(0x09003005, false, layers);
    reg.add(0x09003006, false, lightmapCoords);
    reg.add(0x09003007, false, smoothingGroups);
}

}  // namespace pakfs::gbx::chunks
