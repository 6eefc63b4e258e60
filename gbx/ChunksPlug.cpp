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
// Where the sources describe a branch no file here exercises and whose bytes they do not agree
// on, the reader stops with a message instead of guessing: the node scan takes over from there.
#include "gbx/ChunkReaders.hpp"

#include <cstring>

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

// --- CPlugVisual family [T]; 0900600E's texture coordinates and 0902C004's vertex layout
// are proven on the game's solids [R] ---

void visualHeader(NodeReader& r) {  // 0900600E
    std::uint32_t flags = r.u32();
    std::uint32_t texCoordSets = r.u32();
    std::uint32_t vertices = r.u32();
    std::uint32_t streams = r.u32();
    if (texCoordSets > 8) r.fail("visual with " + num(texCoordSets) + " texture coordinate sets");
    if (streams != 0) r.fail("visual with vertex streams: their layout is not known");
    r.var("visual.flags") = flags;
    r.var("visual.vertices") = vertices;
    for (std::uint32_t i = 0; i < texCoordSets; ++i) {
        std::uint32_t kind = r.u32() & 0xFF;
        if (kind > 2) r.fail("texture coordinate kind " + num(kind) + " is not known");
        r.skip(std::uint64_t(vertices) * 4 * (2 + kind));
    }
    // The low three flag bits select data no source describes.
    if (flags & 7) r.fail("visual flags " + hex32(flags) + " select data no source describes");
    floats(r, 6);       // bounding box
    r.skipArray(0x14);  // bitmap elements to pack
    r.note("vertices", num(vertices));
    r.note("texture coordinate sets", num(texCoordSets));
}

void visual3dVertices(NodeReader& r) {  // 0902C004
    if (!r.hasVar("visual.vertices")) r.fail("vertices before the visual's header (0900600E)");
    std::uint64_t flags = std::uint64_t(r.var("visual.flags"));
    std::uint64_t vertices = std::uint64_t(r.var("visual.vertices"));
    std::uint64_t stride = 12;      // position
    if (flags & 0x20) stride += 4;  // normal, packed
    if (flags & 0x40) stride += 4;  // colour
    if (r.classes().ofClassOrAncestor(r.node().classId, kPlugVisualSprite)) stride += 8;
    r.skip(vertices * stride);
    r.skipArray(4);  // tangents
    r.skipArray(4);  // binormals
}

void visualIndexed(NodeReader& r) {  // 0906A001: the index buffer, archived inline
    if (r.boolean()) r.inlineNode(kPlugIndexBuffer);
}

void indexBuffer(NodeReader& r) {  // 09057000
    r.u32();                       // format
    std::uint32_t n = r.count(2);
    r.skip(std::uint64_t(n) * 2);
    r.note("indices", num(n));
}

// --- CPlugSurface (0900C000) and CPlugSurfaceGeom (0900F000) [T] [G] ---

void surface(NodeReader& r) {  // 0900C000: an Id in a CPlugSurfaceGeom, else geom + materials
    if (r.classes().ofClassOrAncestor(r.node().classId, kPlugSurfaceGeom)) {
        r.lookback();
        return;
    }
    r.nodeRef();  // geometry
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (r.boolean())
            r.nodeRef();  // material
        else
            r.u16();  // surface ID
    }
    r.note("materials", num(n));
}

// The surface shapes of ArchiveGmSurf ([G]'s list; [T] reads the same four).
void surfaceShape(NodeReader& r) {
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
        case 7: {  // mesh: vertices, triangles, octree cells
            if (r.u32() != 3) r.fail("surface mesh vertex version is not 3");
            std::uint32_t v = r.count(12);
            r.skip(std::uint64_t(v) * 12);
            std::uint32_t t = r.count(32);
            r.skip(std::uint64_t(t) * 32);
            if (r.u32() != 3) r.fail("surface mesh octree version is not 3");
            std::uint32_t c = r.count(32);
            r.skip(std::uint64_t(c) * 32);
            r.note("shape", "mesh of " + num(v) + " vertices, " + num(t) + " triangles");
            break;
        }
        default:
            r.fail("surface shape " + num(type) + " is not one the sources describe");
    }
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
    surfaceShape(r);
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
    reg.add(0x09005007, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0900500A, false, solidTreeModes);
    reg.add(0x0900500B, false, [](NodeReader& r) { r.skip(32); });
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

    // CPlugTree
    reg.add(0x0904F006, false, [](NodeReader& r) {
        r.u32();
        r.note("children", num(nodeRefArray(r)));
    });
    reg.add(0x0904F00D, false, [](NodeReader& r) {
        std::string name = r.lookback();
        if (!name.empty()) r.note("name", name);
        if (r.nodeRef().kind != RefKind::Null) r.lookback();
    });
    reg.add(0x0904F00E, false, [](NodeReader& r) { treeParts(r, 3); });
    reg.add(0x0904F010, false, [](NodeReader& r) { treeFlags(r, r.u32()); });
    reg.add(0x0904F011, false, [](NodeReader& r) { r.nodeRef(); });  // function
    reg.add(0x0904F012, false, [](NodeReader& r) { treeParts(r, 4); });
    reg.add(0x0904F014, false, [](NodeReader& r) { treeParts(r, 5); });
    reg.add(0x0904F016, false, [](NodeReader& r) { treeParts(r, 4); });
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

    // CPlugVisual, CPlugVisual3D, CPlugVisualIndexed, CPlugVisualSprite, CPlugIndexBuffer
    reg.add(0x09006001, false, [](NodeReader& r) { r.lookback(); });
    reg.add(0x09006004, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x09006005, false, [](NodeReader& r) { r.skipArray(12); });  // sub-visuals
    reg.add(0x09006006, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x09006009, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0900600B, false, [](NodeReader& r) { r.skipArray(32); });  // splits
    reg.add(0x0900600E, false, visualHeader);
    reg.add(0x0902C002, false, [](NodeReader& r) { r.nodeRef(); });  // material
    reg.add(0x0902C004, false, visual3dVertices);
    reg.add(0x0906A001, false, visualIndexed);
    reg.add(0x09010005, false, [](NodeReader& r) { r.skip(24); });
    reg.add(0x09010006, false, [](NodeReader& r) { r.skip(4); });
    reg.add(0x09057000, false, indexBuffer);

    // CPlugSurface, CPlugSurfaceGeom
    reg.add(0x0900C000, false, surface);
    reg.add(0x0900C001, false, [](NodeReader& r) { r.u32(); });
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
