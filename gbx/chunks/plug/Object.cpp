// SPDX-License-Identifier: GPL-2.0-or-later
// The object models a prefab or a train places: CPlugStaticObjectModel (09159000) and
// CPlugDynaObjectModel (09144000), whose node bodies are their fields with no chunk IDs, and
// CPlugTrainWagonModel (0911C000).
//
// Sources of the layouts, named per reader below:
//   [G] GBX.NET: Engines/Plug/CPlugStaticObjectModel.chunkl and .cs, CPlugDynaObjectModel.cs,
//       CPlugTrainWagonModel.chunkl;
//   [P] gbx-py (schadocalex), src/gbx_structs.py: body_chunks[0x09159000] and [0x09144000],
//       and its list of classes read without chunks (GbxNodesWithoutBody).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// CPlugStaticObjectModel [G] [P]: version, mesh, whether the mesh is its collision shape (a
// byte), and when it is not, the shape. Neither source branches on the version.
void staticObjectModel(NodeReader& r) {
    r.u32();
    NodeRef mesh = r.nodeRef();
    std::uint8_t collidable = r.u8();
    if (collidable > 1)
        r.fail("CPlugStaticObjectModel: mesh collision byte at " + num(r.position() - 1) + " is " +
               num(collidable));
    if (mesh.kind != RefKind::Null) r.note("mesh", "node " + num(mesh.index));
    if (!collidable) {
        NodeRef shape = r.nodeRef();
        if (shape.kind != RefKind::Null) r.note("shape", "node " + num(shape.index));
    }
}

// CPlugDynaObjectModel: version, static and dynamize-on-spawn flags, mesh, dynamic and static
// shapes, break speed, mass, light alive durations, words and bytes no source names, location
// animation, a word, its physical flag, water model. [G] reads all of it in every version; [P]
// leaves out the break speed below 2, the mass below 3, the light durations below 5, the
// animation below 7, the word below 8 and the flag below 10. From version 10 on they agree.
void dynaObjectModel(NodeReader& r) {
    std::uint32_t v = r.u32();
    if (v < 10)
        r.fail("CPlugDynaObjectModel version " + num(v) +
               ": GBX.NET reads every field, gbx-py leaves out those of later versions, and no "
               "file here decides");
    r.boolean();
    r.boolean();
    NodeRef mesh = r.nodeRef();
    r.nodeRef();  // dynamic shape
    r.nodeRef();  // static shape
    floats(r, 4);
    r.skip(8);
    r.skip(2);
    r.skip(8);
    r.skip(1);
    r.skip(8);
    r.nodeRef();  // location animation
    r.u32();
    r.boolean();
    r.nodeRef();  // water model
    r.note("version", num(v));
    if (mesh.kind != RefKind::Null) r.note("mesh", "node " + num(mesh.index));
}

// CPlugTrainWagonModel 000 [G]: shape, mesh; (2+) locomotive flag and a vector; (3+) four
// sounds; (5+) length, collision offset, length-from-shape flag; (6+) acceleration curve;
// (7+) smoke emitter; (8+) a curve, dust and sparkle emitters; (9+) a node; (10+) animation.
void trainWagon(NodeReader& r) {
    std::uint32_t v = version(r, 10, "CPlugTrainWagonModel 0911C000");
    r.nodeRef();  // shape
    r.nodeRef();  // mesh
    if (v >= 2) {
        r.boolean();
        floats(r, 3);
    }
    if (v >= 3)
        for (int i = 0; i < 4; ++i) r.nodeRef();  // engine, brake, rail contact, collision
    if (v >= 5) {
        floats(r, 2);
        r.boolean();
    }
    if (v >= 6) r.nodeRef();
    if (v >= 7) r.nodeRef();
    if (v >= 8)
        for (int i = 0; i < 3; ++i) r.nodeRef();
    if (v >= 9) r.nodeRef();
    if (v >= 10) r.nodeRef();
    r.note("version", num(v));
}

}  // namespace

void registerPlugObject(ChunkRegistry& reg) {
    reg.addClassBody(0x09159000, staticObjectModel);
    reg.addClassBody(0x09144000, dynaObjectModel);
    reg.add(0x0911C000, false, trainWagon);
}

}  // namespace pakfs::gbx::chunks
