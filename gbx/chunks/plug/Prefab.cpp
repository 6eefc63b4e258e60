// SPDX-License-Identifier: GPL-2.0-or-later
// Prefabs (CPlugPrefab 09145000), whose node body is their fields with no chunk IDs, and the
// structures an entity of a prefab holds as its parameters: a class ID then the fields
// (NPlugDynaObjectModel_SInstanceParams 2F0B6000, NPlugStaticObjectModel_SInstanceParams
// 2F0D9000, NPlugItemPlacement_SPlacement 2F0A9000, NPlugItemPlacement_SPlacementGroup 2F0D8000,
// NPlugDyna_SPrefabConstraintParams 2F0C8000).
//
// Sources of the layouts, named per reader below:
//   [G] GBX.NET: Engines/Plug/CPlugPrefab.cs (its ReadWrite and EntRef), Engines/Meta/
//       NPlugDynaObjectModel_SInstanceParams, NPlugStaticObjectModel_SInstanceParams,
//       NPlugItemPlacement_SPlacement, NPlugItemPlacement_SPlacementGroup and
//       NPlugDyna_SPrefabConstraintParams (.chunkl), Engines/MetaNotPersistent/
//       NPlugItemPlacement_SPlacementOption.cs;
//   [P] gbx-py (schadocalex), src/gbx_structs.py: body_chunks[0x09145000] and the parameter
//       structures it switches on.
// Both read every prefab version with the one layout; the parameter structures branch on their
// own version, and a version above the highest branch stops the read.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// NPlugItemPlacement_SPlacementOption [G] [P]: required tags, a count of (key, value) strings.
void placementOption(NodeReader& r) {
    std::uint32_t tags = r.count(8);
    for (std::uint32_t i = 0; i < tags; ++i) {
        r.string("placement tag");
        r.string("placement tag value");
    }
}

// NPlugItemPlacement_SPlacement 2F0A9000 [G] [P]: version, layout, options. Also held inline
// (no class ID) by a placement group.
void placement(NodeReader& r) {
    r.u32();  // version: no source branches on it
    r.u32();  // layout index
    std::uint32_t options = r.count(4);
    for (std::uint32_t i = 0; i < options; ++i) placementOption(r);
}

// NPlugItemPlacement_SPlacementGroup 2F0D8000 [G] [P]: version, placements, a short per
// something, then locations (position and rotation: 7 floats).
void placementGroup(NodeReader& r) {
    r.u32();  // version: no source branches on it
    std::uint32_t placements = r.count(12);
    for (std::uint32_t i = 0; i < placements; ++i) placement(r);
    r.skipArray(2);
    r.skipArray(28);
}

// NPlugDynaObjectModel_SInstanceParams 2F0B6000 [G] [P]: period, texture, kinematic flag; (1+)
// period maximum and phases; (2+) static shadow flag.
void dynaInstanceParams(NodeReader& r) {
    std::uint32_t v = version(r, 2, "NPlugDynaObjectModel_SInstanceParams");
    floats(r, 1);
    r.u32();
    r.boolean();
    if (v >= 1) floats(r, 3);
    if (v >= 2) r.boolean();
}

// NPlugStaticObjectModel_SInstanceParams 2F0D9000 [G] [P]: version, phase.
void staticInstanceParams(NodeReader& r) {
    r.u32();  // version: no source branches on it
    floats(r, 1);
}

// NPlugDyna_SPrefabConstraintParams 2F0C8000 [G] [P]: version, two entity indexes, two points.
void constraintParams(NodeReader& r) {
    r.u32();  // version: no source branches on it
    r.skip(8);
    floats(r, 6);
}

// The parameter structures an entity may hold [G]: [G] throws on any other class, [P] reads
// nothing for it; the reader stops there (NodeReader::metaNode) as for any class without a body.
constexpr std::uint32_t kEntParams[] = {0x2F0A9000, 0x2F0B6000, 0x2F0C8000, 0x2F0D8000, 0x2F0D9000};

// CPlugPrefab [G] [P]: version, file time, source URL, a word, the entity count, a word, then
// per entity: its model (a node, often in another file), rotation (quaternion), position,
// parameters (a structure by class ID, or -1), and a string.
void prefab(NodeReader& r) {
    r.u32();  // version: neither source branches on it
    r.u64();  // file write time
    std::string url = r.string("source URL");
    r.u32();
    std::uint32_t ents = r.count(4 + 28 + 4 + 4);
    r.u32();
    for (std::uint32_t i = 0; i < ents; ++i) {
        r.nodeRef();
        floats(r, 4 + 3);
        std::uint64_t at = r.position();
        std::uint32_t classId = r.u32();
        if (classId != 0xFFFFFFFF) {
            bool known = false;
            for (std::uint32_t id : kEntParams)
                known = known || r.classes().generalize(classId) == id;
            if (!known)
                r.fail("CPlugPrefab entity " + num(i) + " parameters of class " +
                       describeClass(classId, r.classes()) + " at " + num(at) +
                       ": not one GBX.NET reads for a prefab");
        }
        r.metaNode(classId);
        r.string("entity name");
    }
    if (!url.empty()) r.note("source", url);
    r.note("entities", num(ents));
}

}  // namespace

void registerPlugPrefab(ChunkRegistry& reg) {
    reg.addClassBody(0x09145000, prefab);
    reg.addClassBody(0x2F0A9000, placement);
    reg.addClassBody(0x2F0B6000, dynaInstanceParams);
    reg.addClassBody(0x2F0C8000, constraintParams);
    reg.addClassBody(0x2F0D8000, placementGroup);
    reg.addClassBody(0x2F0D9000, staticInstanceParams);
}

}  // namespace pakfs::gbx::chunks
