// SPDX-License-Identifier: GPL-2.0-or-later
// Whole gbx files of the engine classes (solids, bitmaps, sprites, fonts, control styles).
#include "gbx/testing/EngineBuilder.hpp"

#include "gbx/testing/GbxBuilder.hpp"

namespace pakfs::gbx::engine {
namespace {

constexpr std::uint32_t kEmptyId = 0xFFFFFFFF;

void floats(BodyWriter& w, std::initializer_list<float> values) {
    for (float v : values) w.f32(v);
}

void ones(BodyWriter& w, int n) {
    for (int i = 0; i < n; ++i) w.f32(1.0f);
}

// The chunks every shader of the game's files carries: passes, requirements, the generic
// render state block, bitmap addresses, the apply state words.
void shaderChunks(BodyWriter& w, std::uint32_t passIndex, std::uint32_t addressIndex,
                  std::uint32_t bitmapSlot, std::uint32_t programSlot) {
    w.chunk(0x0900200E);
    w.nullRef();
    if (passIndex) {
        w.u32(1);
        w.newNode(passIndex, 0x09067000);  // CPlugShaderPass
        w.chunk(0x09067006);
        w.u32(0);
        w.chunk(0x09067007);
        w.u32(1);
        w.chunk(0x0906700A);
        w.u32(0);
        w.boolean(true);  // vertex program, enabled
        w.ref(programSlot);
        w.u32(0);
        w.u32(0);
        w.boolean(false);  // pixel program
        w.nullRef();
        w.endNode();
    } else {
        w.u32(0);
    }
    w.nullRef();
    w.u32(0);
    w.chunk(0x09002016);
    w.u32(0xB003F800);
    w.u32(0xFFF0);
    w.f32(1.0f);
    w.nullRef();
    w.u16(1);
    w.chunk(0x09004003);
    ones(w, 12);  // 0x58 bytes, the last word the flags
    floats(w, {20.0f, 1.0f, 1.0f, 1.0f, 0, 0, 0, 0, 1.0f});
    w.u32(0x205);
    w.chunk(0x09026002);
    if (addressIndex) {
        w.u32(1);
        w.newNode(addressIndex, 0x09012000);  // CPlugBitmapApply
        w.chunk(0x0907E008);
        w.lookbackRaw(kEmptyId);
        w.ref(bitmapSlot);
        w.u32(0x1605);
        w.f32(-1.0f);
        w.chunk(0x09047007);
        w.u32(0);
        w.nullRef();
        w.u8(0);
        w.chunk(0x09047009);
        w.f32(1.0f);
        w.chunk(0x09012004);
        w.u32(1);
        w.endNode();
    } else {
        w.u32(0);
    }
    w.chunk(0x09026004);
    w.u32(0x01010101);
    w.chunk(0x09026008);
    w.u32(0x0600000E);
    w.u32(0x007F007F);
}

ExternalRef external(std::uint32_t node, const std::string& name, std::uint32_t folder) {
    ExternalRef e;
    e.flags = 1;
    e.name = name;
    e.nodeIndex = node;
    e.folderIndex = folder;
    return e;
}

// The solid's visual (node 2): a CPlugVisualIndexedTriangles with its vertices, texture
// coordinates, normals and an inline index buffer.
void solidVisual(BodyWriter& w, const SolidSpec& spec) {
    w.newNode(2, 0x0901E000);  // CPlugVisualIndexedTriangles
    w.chunk(0x09006001);
    w.lookback("7856f08c-f78d-11d4-a326-0080c8475ee8");
    w.chunk(0x09006004);
    w.nullRef();
    w.chunk(0x09006005);
    w.u32(0);
    w.chunk(0x09006009);
    w.u32(0);
    w.chunk(0x0900600B);
    w.u32(0);
    w.chunk(0x0900600E);
    w.u32(0x3B8);  // normals (0x20), no colours (0x40)
    w.u32(1);
    w.u32(spec.vertices);
    w.u32(0);
    w.u32(0);  // two texture coordinates per vertex
    for (std::uint32_t i = 0; i < spec.vertices; ++i) floats(w, {float(i % 2), float(i / 2 % 2)});
    floats(w, {0, 0, 0, 0.5f, 0.5f, 0.5f});
    w.u32(0);
    w.chunk(0x0902C002);
    w.nullRef();
    w.chunk(0x0902C004);
    for (std::uint32_t i = 0; i < spec.vertices; ++i) {
        floats(w, {float(i) * 0.5f, -0.5f, float(i % 3)});
        w.u32(0x00080400 + i);  // packed normal
    }
    w.u32(0);
    w.u32(0);
    w.chunk(0x0906A001);
    w.boolean(true);
    w.chunk(0x09057000);  // the index buffer, inline
    w.u32(0);
    w.u32(spec.indices);
    for (std::uint32_t i = 0; i < spec.indices; ++i)
        w.u16(std::uint16_t(spec.vertices ? i % spec.vertices : 0));
    w.endNode();
    w.endNode();
}

// The solid's collision surface (nodes 4 and 5): a box, or a mesh of spec.meshTriangles.
void solidSurface(BodyWriter& w, const SolidSpec& spec) {
    w.newNode(4, 0x0900C000);  // CPlugSurface
    w.chunk(0x0900C000);
    w.newNode(5, 0x0900F000);  // CPlugSurfaceGeom
    w.chunk(0x0900F004);
    w.lookback(spec.treeName);
    for (float f : spec.box) w.f32(f);
    if (spec.meshTriangles == 0) {
        w.u32(6);
        floats(w, {-0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f});
    } else {
        w.u32(7);
        w.u32(3);
        w.u32(3);
        floats(w, {0, 0, 0, 1, 0, 0, 0, 1, 0});
        w.u32(spec.meshTriangles);
        for (std::uint32_t t = 0; t < spec.meshTriangles; ++t) {
            floats(w, {0, 0, 1, 0});  // plane
            w.u32(0);
            w.u32(1);
            w.u32(2);
            w.u16(std::uint16_t(t));
            w.u8(0);
            w.u8(0);
        }
        w.u32(3);
        w.u32(1);
        w.u32(0);
        floats(w, {0, 0, 0, 1, 1, 1});
        w.u32(0);
    }
    w.u16(0);
    w.endNode();
    w.u32(1);
    w.boolean(false);
    w.u16(0);
    w.endNode();
}

// The control style's icons (node 1): a CFuncEnum of `icons` shaders (nodes 2 on).
void controlIcons(BodyWriter& w, std::uint32_t icons) {
    w.newNode(1, 0x0500E000);  // CFuncEnum
    w.chunk(0x0500E005);
    w.u32(icons);
    w.u32(icons);
    for (std::uint32_t i = 0; i < icons; ++i) {
        w.newNode(2 + i, 0x09026000);
        shaderChunks(w, 0, 0, 0, 0);
        w.endNode();
    }
    w.lookbackRaw(kEmptyId);
    w.u32(1);
    w.u32(1);
    w.u32(icons);
    for (std::uint32_t i = 0; i < icons; ++i) w.u32(0xFFFFFFFF);
    floats(w, {0, 0, 1, 1});
    w.chunk(0x0500E006);
    w.nullRef();
    w.chunk(0x0500E007);
    floats(w, {0, 0});
    w.endNode();
}

// The control style's two materials, each with its shader, in the nodes after the font's.
void controlMaterials(BodyWriter& w, std::uint32_t fontSlot) {
    for (std::uint32_t m = 0; m < 2; ++m) {
        std::uint32_t node = fontSlot + 1 + 2 * m;
        w.newNode(node, 0x09079000);  // CPlugMaterial
        w.chunk(0x09079001);
        w.nullRef();
        w.chunk(0x09079007);
        w.nullRef();
        w.chunk(0x0907900D);
        w.nullRef();  // no model: device shaders follow
        w.u32(1);
        w.u32(0);
        w.boolean(false);
        w.newNode(node + 1, 0x09026000);
        shaderChunks(w, 0, 0, 0, 0);
        w.endNode();
        w.u32(0xFFFFFFFF);  // day and night shader files: none
        w.u32(0xFFFFFFFF);
        w.u32(0);  // formats
        w.chunk(0x0907900E);
        w.u32(0x800E0000);
        w.chunk(0x0907900F);
        w.u32(0);
        w.endNode();
    }
}

}  // namespace

Bytes solid(const SolidSpec& spec) {
    GbxBuilder b;
    b.classId = 0x09005000;
    b.numNodes = 6 + spec.children;
    BodyWriter w;
    w.chunk(0x09005000);
    w.u32(2);
    w.chunk(0x0900500E);
    ones(w, 1);  // mass
    floats(w, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1f, 0.3f, 0.3f});
    w.chunk(0x09005010);
    w.nullRef();
    w.chunk(0x09005011);
    w.boolean(true);
    w.boolean(false);
    w.newNode(1, 0x0904F000);  // CPlugTree
    w.chunk(0x0904F006);
    w.u32(10);
    w.u32(spec.children);
    for (std::uint32_t i = 0; i < spec.children; ++i) {
        w.newNode(6 + i, 0x0904F000);
        w.chunk(0x0904F01A);
        w.u32(0x0001E84A);
        w.endNode();
    }
    w.chunk(0x0904F00D);
    w.lookback(spec.treeName);
    w.nullRef();
    w.chunk(0x0904F011);
    w.nullRef();
    w.chunk(0x0904F016);
    solidVisual(w, spec);
    w.newNode(3, 0x09026000);  // CPlugShaderApply
    shaderChunks(w, 0, 0, 0, 0);
    w.endNode();
    solidSurface(w, spec);
    w.nullRef();  // generator
    w.chunk(0x0904F01A);
    w.u32(0x0001E84A);
    w.endNode();
    w.chunk(0x09005012);
    w.u8(0);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

Bytes bitmap(const std::string& imageName) {
    GbxBuilder b;
    b.classId = 0x09011000;
    b.numNodes = 2;
    b.refs.folders = {{"Image", {}}};
    b.refs.externals.push_back(external(1, imageName, 1));
    BodyWriter w;
    w.chunk(0x09011019);
    w.f32(0.5f);
    w.chunk(0x0901101C);
    floats(w, {1, 1, 0, 0, 0});
    w.chunk(0x0901101E);
    w.u32(0);
    w.chunk(0x09011020);
    w.u32(0);
    w.chunk(0x09011022);
    w.ref(1);
    w.u32(0x00035574);
    w.u32(0x444);
    floats(w, {0, 1, 0});
    w.u32(0);
    w.chunk(0x09011024);
    w.u32(0x02000A00);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

Bytes shaderSprite(const std::string& programName) {
    GbxBuilder b;
    b.classId = 0x09068000;
    b.numNodes = 3;
    b.refs.ancestorLevel = 1;
    b.refs.folders = {{"Text", {{"Vsh", {}}}}};
    b.refs.externals.push_back(external(2, programName, 2));
    BodyWriter w;
    shaderChunks(w, 1, 0, 0, 2);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

Bytes font(std::uint32_t glyphs) {
    GbxBuilder b;
    b.classId = 0x0904E000;
    b.numNodes = 4;
    b.refs.ancestorLevel = 1;
    b.refs.folders = {{"Texture", {}}};
    b.refs.externals.push_back(external(3, "Font.Texture.Gbx", 1));
    BodyWriter w;
    w.chunk(0x0904E004);
    w.u32(2);  // ranges: first, last, first index, first index - first
    const std::uint32_t ranges[2][2] = {{0x20, 0x7E}, {0xA0, 0xFF}};
    std::uint32_t index = 0;
    for (const auto& r : ranges) {
        w.u32(r[0]);
        w.u32(r[1]);
        w.u32(index);
        w.u32(index - r[0]);
        index += r[1] - r[0] + 1;
    }
    w.u32(index);
    for (std::uint32_t i = 0; i < index; ++i) w.u16(std::uint16_t(glyphs ? i % glyphs : 0));
    w.chunk(0x0904E005);
    w.u32(7);  // buckets
    w.u32(2);  // in use
    for (std::uint32_t i = 0; i < 7; ++i) {
        w.u32(i < 2 ? 0x00330035 + i : 0xFFFFFFFF);
        w.u32(i < 2 ? 0xCDCDFFC0 : 0xCDCDCDCD);
    }
    w.chunk(0x0904E006);
    floats(w, {0, -1, 1, 0});
    w.chunk(0x0904E007);
    w.u32(3069);
    w.u32(2371);
    w.u32(glyphs);
    for (std::uint32_t g = 0; g < glyphs; ++g) {
        w.u32(g);
        floats(w, {float(g) / 64, 0.25f, float(g + 1) / 64, 0.5f});
        w.u32(0x580);
        w.u32(0xFD800580);
        w.u32(0x880);
    }
    w.nullRef();  // fallback
    w.u32(1);     // pages
    w.u32(0);
    w.newNode(1, 0x09026000);  // CPlugShaderApply
    shaderChunks(w, 0, 2, 3, 0);
    w.endNode();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

Bytes controlStyle(std::uint32_t icons) {
    GbxBuilder b;
    b.classId = 0x07017000;
    const std::uint32_t fontSlot = 2 + icons;
    b.numNodes = fontSlot + 5;
    b.refs.ancestorLevel = 1;
    b.refs.folders = {{"ControlStyle", {}}, {"Font", {}}};
    b.refs.externals.push_back(external(fontSlot, "Arial.Font.Gbx", 2));
    BodyWriter w;
    w.chunk(0x07017000);
    for (int i = 0; i < 5; ++i) w.nullRef();
    w.chunk(0x07017004);
    w.nullRef();
    w.chunk(0x07017009);
    w.nullRef();
    w.chunk(0x0701700B);
    w.boolean(true);
    w.u32(0x0012F308);
    w.u32(0x0701700B);
    w.chunk(0x0701700C);
    w.lookbackRaw(kEmptyId);
    w.chunk(0x0701700D);
    w.nullRef();
    w.nullRef();
    w.u32(5);
    floats(w, {-1, -1});
    w.chunk(0x0701700E);
    w.nullRef();
    floats(w, {0.05f, 0.05f});
    controlIcons(w, icons);
    w.chunk(0x07017010);
    w.nullRef();
    w.nullRef();
    w.u32(5);
    floats(w, {-1, -1});
    w.u32(0);
    w.nullRef();
    for (std::uint32_t id : {0x07017014u, 0x07017015u, 0x07017017u}) {
        w.chunk(id);
        w.boolean(false);
        w.boolean(true);
        floats(w, {0.25f, -0.25f});
        ones(w, 8);
        floats(w, {0, 0, 0, 1});
        if (id == 0x07017017) w.f32(0);
    }
    w.chunk(0x07017016);
    w.nullRef();
    w.chunk(0x07017018);
    floats(w, {0, 0, 0, 1, 0, 0, 0, 1});
    w.chunk(0x0701701B);
    w.ref(fontSlot);
    floats(w, {0.05f, 1});
    for (int i = 0; i < 3; ++i) {
        w.u32(2);
        w.u32(8);
        ones(w, 4);
        w.string(i == 2 ? "$fff" : "");
    }
    w.chunk(0x0701701C);
    floats(w, {0.4f, 0.08f, 0.04f, 0.08f});
    for (int i = 0; i < 3; ++i) w.nullRef();
    w.chunk(0x0701701D);
    w.boolean(false);
    controlMaterials(w, fontSlot);
    w.nullRef();
    w.nullRef();
    floats(w, {0.1f, 0.05f, 0.01f, 0.01f});
    w.nullRef();
    w.f32(0.001f);
    w.chunk(0x0701701E);
    w.lookbackRaw(kEmptyId);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace pakfs::gbx::engine
