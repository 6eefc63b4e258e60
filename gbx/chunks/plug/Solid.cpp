// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's solids (CPlugSolid) and the trees of parts they hold (CPlugTree and its
// variants).
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

// 09005011: use model, has model, then the tree; the sources agree when there is no model.
// With one, [G] (and gbx-py) read a flag then the tree; [T] reads a flag, the model (by file
// reference when the flag is set, else a node) and the tree only when the model is not used.
void solidTree(NodeReader& r) {
    r.boolean();
    bool hasModel = r.boolean();
    if (hasModel)
        r.fail(
            "CPlugSolid 09005011 with a model: GBX.NET reads a flag then the tree, the C "
            "reader a flag, the model and the tree only when the model is not used");
    r.note("tree", "node " + num(r.nodeRef().index));
}

// 09005017 [G] (ManiaPlanet): pre-lighting generation parameters. Version 3 and later: a
// flag, then when set the parameters (a version, two words, a bool, eight floats, two words,
// boxes, (1+) UV groups); before 3: a byte, a float, a bool, two rectangles, two words, (1+)
// boxes. From version 2 on a file time ends it.
void solidPreLight(NodeReader& r) {
    std::uint32_t version = r.u32();
    if (version > 3)
        r.refuseVersion("CPlugSolid 09005017 version " + num(version) + " is not described");
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
    refArray(r);
}

// 09005019 [G] (ManiaPlanet): sounds, particle emitters, two lists of located instances (a
// word and an Iso4), (1+) a word, (2+) Ids and Iso4s, (3+) a string, (4+) a word, (5+) a path
// node.
void solidInstances(NodeReader& r) {
    std::uint32_t version = r.u32();
    if (version > 5)
        r.refuseVersion("CPlugSolid 09005019 version " + num(version) + " is not described");
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

}  // namespace

void registerPlugSolid(ChunkRegistry& reg) {
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
        r.note("children", num(refArray(r)));
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
}

}  // namespace pakfs::gbx::chunks
