// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's visuals (CPlugVisual, 3D, indexed, sprites), their vertex streams and index
// buffers.
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
#include "gbx/chunks/ChunkReaders.hpp"

#include <cstring>
#include <vector>

namespace pakfs::gbx::chunks {
namespace {

constexpr std::uint32_t kPlugVisualSprite = 0x09010000;
constexpr std::uint32_t kPlugIndexBuffer = 0x09057000;

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
    std::uint32_t n = refArray(r);
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

}  // namespace

void registerPlugVisual(ChunkRegistry& reg) {
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
}

}  // namespace pakfs::gbx::chunks
