// SPDX-License-Identifier: GPL-2.0-or-later
// Crystals (CPlugCrystal 09003000, gbx/chunks/plug/Crystal.cpp) written by BodyWriter in each
// version and layer kind GBX.NET describes and read back: each must take exactly its bytes, and
// what no source describes (or describes two ways) must stop with the reason.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

// Named, not anonymous, and holding the tests too: the tests are built in unity batches.
namespace crystal_layouts {

constexpr std::uint32_t kCrystal = 0x09003000;

// The editable form of a .Crystal.Gbx (not embedded): element pools with free handles, and
// what a damaged file may hold instead of the pools' own counts.
struct Editable {
    std::uint32_t vertices = 3, freeVertices = 0;
    std::uint32_t edges = 3, freeEdges = 0;
    std::uint32_t faces = 1, freeFaces = 0;
    std::uint32_t corners = 3;   // per mesh face
    std::uint32_t channels = 2;  // texture channels per mesh face
    std::uint32_t meshVersion = 0;
    enum class Damage { none, usedLoops, usedShort, freeIntoUsed } vertexPool = Damage::none;
    std::uint32_t meshPositions = 0;  // 0: the vertices in use
    std::uint32_t tailEdges = 0;      // 0: the edges in use
    std::uint32_t vertexIndex = 0;    // added to each corner's vertex index
};

// The geometry a written crystal holds.
struct Geometry {
    std::uint32_t version = 37;
    std::uint32_t positions = 3;
    std::uint32_t faces = 1;
    std::uint32_t corners = 3;    // per face
    std::uint32_t groups = 1;     // faces are all in the last group
    std::uint32_t materials = 0;  // chunk 003's count (sizes the packed material index)
    std::uint32_t packedEdges = 3;
    bool embedded = true;
    std::uint32_t links = 0;       // crystal links (versions 7 to 31)
    std::uint32_t uvsPerFace = 3;  // versions before 27
    std::uint32_t uvIndices = 3;   // version 37: shared texture coordinate indices
    std::uint32_t groupIndex = 0;  // the faces' group
    Editable editable;             // when not embedded
};

// Width of one element of a packed array whose count or bound is n.
std::uint32_t arrayWidth(std::uint32_t n) {
    return n >= 65535 ? 4 : n >= 255 ? 2 : 1;
}

void packed(BodyWriter& w, std::uint32_t width, std::uint32_t value) {
    if (width == 4)
        w.u32(value);
    else if (width == 2)
        w.u16(std::uint16_t(value));
    else
        w.u8(std::uint8_t(value));
}

void crystalHead(BodyWriter& w, const Geometry& g) {
    std::uint32_t v = g.version;
    w.u32(v);
    if (v >= 13) {
        w.u32(4);
        w.u32(2);  // visual levels
        w.u32(4);
        w.f32(64);
        w.u32(2);
        w.f32(128);
    }
    if (v >= 23) {
        w.u32(1);  // an anchor
        w.boolean(true);
        w.boolean(false);
        w.zeros(48);
        w.string("anchor");
        w.u32(0);
    }
    if (v >= 22) {
        w.u32(g.groups);
        for (std::uint32_t i = 0; i < g.groups; ++i) {
            if (v >= 31) w.u32(0);
            if (v >= 36)
                w.u8(1);
            else
                w.u32(1);
            w.i32(-1);
            w.string("part");
            w.i32(-1);
            w.u32(2);  // int array
            w.u32(1);
            w.u32(2);
        }
    }
    if (v >= 25) {
        if (v < 29) {
            w.boolean(g.embedded);
            w.boolean(g.embedded);
        }
        if (v >= 34)
            w.u8(g.embedded ? 1 : 0);
        else
            w.boolean(g.embedded);
        if (v >= 33) {
            w.u32(0);
            w.u32(0);
        }
    }
}

void crystalFaces(BodyWriter& w, const Geometry& g) {
    std::uint32_t v = g.version;
    w.u32(g.faces);
    if (v >= 37) {
        w.u32(2);  // shared texture coordinates
        w.zeros(16);
        w.u32(g.uvIndices);
        for (std::uint32_t i = 0; i < g.uvIndices; ++i) packed(w, arrayWidth(g.uvIndices), i % 2);
    }
    for (std::uint32_t f = 0; f < g.faces; ++f) {
        if (v >= 35)
            w.u8(std::uint8_t(g.corners - 3));
        else
            w.u32(g.corners);
        for (std::uint32_t i = 0; i < g.corners; ++i)
            if (v >= 34)
                packed(w, arrayWidth(g.positions), i);
            else
                w.u32(i);
        if (v < 27) {
            w.u32(g.uvsPerFace);
            w.zeros(std::size_t(g.uvsPerFace) * 8);
            w.zeros(12);
        } else if (v < 37) {
            w.zeros(std::size_t(g.corners) * 8);
        }
        if (v >= 25) {
            if (v >= 33 && g.materials > 0)
                packed(w, g.materials > 65535 ? 4 : g.materials > 255 ? 2 : 1, 0);
            else
                w.i32(-1);
        }
        if (v >= 33)
            packed(w, g.groups > 65535 ? 4 : g.groups > 255 ? 2 : 1, g.groupIndex);
        else
            w.u32(g.groupIndex);
    }
}

// What follows the faces, as gbx/chunks/plug/Crystal.cpp's crystalTail reads it: the embedded
// form's ints per face (< 30) and per position (< 29) or the editable form's three per face, an
// int, (7 to 31) crystal links and what follows them, (< 36) the three counts and their ints, and
// (editable) the face properties.
struct Tail {
    bool embedded;
    std::uint32_t faces, edges, positions, links;
};

void crystalTail(BodyWriter& w, std::uint32_t v, const Tail& t) {
    if (!t.embedded) {
        w.zeros(std::size_t(t.faces) * 3 * 4);
    } else {
        if (v < 30) w.zeros(std::size_t(t.faces) * 4);
        if (v < 29) w.zeros(std::size_t(t.positions) * 4);
    }
    w.u32(0);
    if (v >= 7 && v < 32) {
        w.u32(t.links);
        if (v >= 10) {
            w.u32(0);
            w.string("");
            if (v < 30) {
                w.u32(1);  // smoothing groups
                w.f32(1);
            }
        }
    }
    if (v < 36) {
        w.u32(t.faces);
        w.u32(t.edges);
        w.u32(t.positions);
        w.zeros((std::size_t(t.faces) + t.edges + t.positions) * 4);
        w.u32(0);
        if (!t.embedded) {
            for (std::uint32_t f = 0; f < t.faces; ++f) {  // face properties: an int, 4 floats
                w.u32(f % 2);
                for (int k = 0; k < 4; ++k) w.f32(1);
            }
        }
    }
}

// An element pool of `used` and `free` handles, free ones first, each list chained from its
// last handle down as the game's files show, or damaged as `damage` says.
void elementPool(BodyWriter& w, std::uint32_t used, std::uint32_t free,
                 Editable::Damage damage = Editable::Damage::none) {
    using D = Editable::Damage;
    constexpr std::uint32_t kEnd = 0x7FFFFFFF;
    const std::uint32_t n = used + free;
    w.u32(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        w.boolean(i < free);
        w.u32(1);  // the handle's version
        const bool first = i == 0 || i == free;
        w.u32(first ? (damage == D::usedLoops && i == free ? n - 1 : kEnd) : i - 1);
    }
    w.u32(damage == D::freeIntoUsed ? n - 1 : free ? free - 1 : kEnd);
    w.u32(used ? (damage == D::usedShort ? n - 2 : n - 1) : kEnd);
}

// The editable geometry in the layout gbx/chunks/plug/Crystal.cpp reads (GBX.NET's crystal branch
// as the game's files correct it) for versions 29 to 35, from the pools to the face properties.
void editableCrystal(BodyWriter& w, std::uint32_t v, const Editable& e) {
    elementPool(w, e.vertices, e.freeVertices, e.vertexPool);
    elementPool(w, e.edges, e.freeEdges);
    elementPool(w, e.faces, e.freeFaces);
    for (std::uint32_t i = 0; i < e.edges; ++i) {
        w.u32(i << 10);  // vertex handles
        w.u32((i + 1) % e.vertices << 10);
        w.boolean(false);
        w.i32(-1);
        w.u32(0);
        w.boolean(false);
        for (int k = 0; k < 4; ++k) w.f32(1);
    }
    w.u32(e.meshVersion);
    const std::uint32_t positions = e.meshPositions ? e.meshPositions : e.vertices;
    w.u32(positions);
    w.zeros(std::size_t(positions) * 12);
    w.u32(1);  // the second vec3 array
    w.zeros(12);
    w.u32(e.faces);
    for (std::uint32_t f = 0; f < e.faces; ++f) {
        w.u32(e.corners);
        for (std::uint32_t c = 0; c < e.corners; ++c) {
            w.u32(c % e.vertices + e.vertexIndex);
            w.u32(c);
            w.f32(1);
            w.zeros(12);
        }
        w.u32(e.channels);
        for (std::uint32_t c = 0; c < e.channels; ++c) {
            w.u32(c == 0 ? f : 0);
            w.zeros(std::size_t(e.corners) * 8);
        }
    }
    w.zeros(std::size_t(e.faces) * 4);  // an int per mesh face
    crystalTail(w, v, {false, e.faces, e.tailEdges ? e.tailEdges : e.edges, e.vertices, 0});
}

// A crystal in GBX.NET's layout for g.version.
void crystal(BodyWriter& w, const Geometry& g) {
    std::uint32_t v = g.version;
    crystalHead(w, g);
    if (!g.embedded) {
        editableCrystal(w, v, g.editable);
        return;
    }
    w.u32(g.positions);
    w.zeros(std::size_t(g.positions) * 12);
    if (v < 35) {
        w.u32(3);
        w.zeros(3 * 8);
    } else {
        w.u32(0);
        w.u32(g.packedEdges);
        std::uint32_t pair = g.packedEdges >= 65535 ? 8 : g.packedEdges >= 255 ? 4 : 2;
        w.zeros(std::size_t(g.packedEdges) * pair);
    }
    crystalFaces(w, g);
    crystalTail(w, v, {true, g.faces, 3, g.positions, g.links});
}

void materials(BodyWriter& w, std::uint32_t n) {
    w.chunk(0x09003003);
    w.u32(2);
    w.u32(n);
    for (std::uint32_t i = 0; i < n; ++i) w.string("M");
}

// The base of a layer of `kind`: version 2, crystal enabled, Id, name, enabled.
void layerBase(BodyWriter& w, std::uint32_t kind, std::uint32_t version = 2) {
    w.u32(kind);
    w.u32(version);
    w.boolean(true);
    w.lookback("Layer" + std::to_string(kind));
    w.string("layer");
    if (version >= 1) w.boolean(true);
}

// A modifier layer's version and mask (one part), then the kind's version.
void modifierHead(BodyWriter& w, std::uint32_t kind, std::uint32_t kindVersion) {
    layerBase(w, kind);
    w.u32(0);
    w.u32(1);
    w.u32(0);
    w.lookback("Layer0");
    w.u32(kindVersion);
}

void geometryLayer(BodyWriter& w, const Geometry& g, std::uint32_t layerVersion = 1) {
    layerBase(w, 0);
    w.u32(layerVersion);
    crystal(w, g);
    w.u32(1);  // an int per group
    w.u32(7);
    if (layerVersion >= 1) {
        w.boolean(true);
        w.boolean(true);
    }
}

// A crystal node body: materials, then one layer chunk with `layers` layers written by fill.
BodyWriter crystalBody(std::uint32_t materialCount, std::uint32_t layers,
                       const std::function<void(BodyWriter&)>& fill) {
    BodyWriter w;
    materials(w, materialCount);
    w.chunk(0x09003005);
    w.u32(0);
    w.u32(layers);
    fill(w);
    w.endNode();
    return w;
}

GbxFile readCrystal(const BodyWriter& w, std::uint32_t numNodes = 1) {
    return test::readMain(kCrystal, numNodes, w);
}

std::vector<std::string> notes(const Node& n, const std::string& key) {
    std::vector<std::string> out;
    for (const auto& [k, v] : n.values)
        if (k == key) out.push_back(v);
    return out;
}

// Reads w and requires it whole, to the body's end; then the same body cut short must stop.
GbxFile readWhole(const BodyWriter& w, std::uint32_t numNodes = 1) {
    GbxFile f = readCrystal(w, numNodes);
    INFO((f.failure ? f.failure->message : std::string("ok")));
    REQUIRE(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
    CHECK(f.unfilledSlots == 0);
    BodyWriter cut;
    cut.raw(ByteSpan(w.bytes()).first(w.size() - 5));
    CHECK_FALSE(readCrystal(cut, numNodes).nodesComplete);
    return f;
}

std::string failureOf(const BodyWriter& w) {
    return test::failureOf(readCrystal(w));
}

TEST_CASE("crystal: the geometry in every version GBX.NET reads", "[gbx][crystal]") {
    struct Case {
        Geometry g;
        const char* note;
    };
    std::vector<Case> cases;
    for (std::uint32_t v : {25u, 26u, 27u, 28u, 29u, 30u, 31u, 32u, 33u, 34u, 35u, 36u, 37u}) {
        Geometry g;
        g.version = v;
        cases.push_back({g, nullptr});
    }
    {
        Geometry g;  // 16-bit vertex indices, 4-byte edges, two faces of 4 corners, materials
        g.positions = 300;
        g.faces = 2;
        g.corners = 4;
        g.uvIndices = 8;
        g.packedEdges = 300;
        g.materials = 2;
        g.groups = 3;
        g.groupIndex = 2;
        cases.push_back({g, "version 37, 300 positions, 2 faces"});
    }
    {
        Geometry g;  // 16-bit material and group indices
        g.version = 33;
        g.materials = 256;
        g.groups = 256;
        g.groupIndex = 255;
        cases.push_back({g, "version 33, 3 positions, 1 faces"});
    }
    {
        Geometry g;  // fewer UVs than corners before version 27
        g.version = 26;
        g.uvsPerFace = 2;
        cases.push_back({g, "version 26, 3 positions, 1 faces"});
    }
    for (const Case& c : cases) {
        INFO("version " << c.g.version << ", " << c.g.positions << " positions");
        BodyWriter w = crystalBody(c.g.materials, 1, [&](BodyWriter& b) { geometryLayer(b, c.g); });
        GbxFile f = readWhole(w);
        std::string want =
            c.note ? c.note : "version " + std::to_string(c.g.version) + ", 3 positions, 1 faces";
        CHECK(notes(f.nodes[0], "crystal") == std::vector<std::string>{want});
        CHECK(notes(f.nodes[0], "layer kind") == std::vector<std::string>{"geometry"});
        CHECK(notes(f.nodes[0], "layers") == std::vector<std::string>{"1"});
    }
}

TEST_CASE("crystal: the editable form of a .Crystal.Gbx in versions 29 to 35", "[gbx][crystal]") {
    struct Case {
        std::uint32_t version;
        Editable e;
        const char* note;
    };
    std::vector<Case> cases;
    for (std::uint32_t v = 29; v <= 35; ++v) cases.push_back({v, Editable{}, nullptr});
    {
        Editable e;  // free handles in every pool, as an edited crystal keeps them
        e.vertices = 5;
        e.freeVertices = 2;
        e.edges = 6;
        e.freeEdges = 3;
        e.faces = 2;
        e.freeFaces = 1;
        e.corners = 4;
        e.channels = 3;
        cases.push_back({31, e, "version 31, editable, 5 vertices, 6 edges, 2 faces"});
    }
    {
        Editable e;  // empty pools: no vertex, edge or face
        e.vertices = e.edges = e.faces = 0;
        cases.push_back({31, e, "version 31, editable, 0 vertices, 0 edges, 0 faces"});
    }
    for (const Case& c : cases) {
        INFO("version " << c.version << ", " << c.e.vertices << " vertices");
        Geometry g;
        g.version = c.version;
        g.embedded = false;
        g.editable = c.e;
        BodyWriter w = crystalBody(0, 1, [&](BodyWriter& b) { geometryLayer(b, g); });
        GbxFile f = readWhole(w);
        std::string want = c.note ? c.note
                                  : "version " + std::to_string(c.version) +
                                        ", editable, 3 vertices, 3 edges, 1 faces";
        CHECK(notes(f.nodes[0], "crystal") == std::vector<std::string>{want});
    }
}

TEST_CASE("crystal: every layer kind GBX.NET describes", "[gbx][crystal]") {
    Geometry g;
    g.materials = 1;
    BodyWriter w = crystalBody(1, 16, [&](BodyWriter& b) {
        geometryLayer(b, g, 0);  // geometry, version 0: no visibility flags
        modifierHead(b, 1, 0);   // subdivide smooth
        b.u32(2);
        modifierHead(b, 2, 0);  // translation
        b.zeros(12);
        modifierHead(b, 3, 0);  // rotation
        b.f32(1.5f);
        b.u32(1);
        b.boolean(false);
        modifierHead(b, 4, 0);  // scale
        b.zeros(12);
        b.boolean(true);
        modifierHead(b, 5, 0);  // mirror
        b.u32(2);
        b.f32(0);
        b.boolean(false);
        modifierHead(b, 6, 0);  // move to ground
        b.boolean(true);
        modifierHead(b, 7, 0);  // extrude
        b.zeros(12);
        modifierHead(b, 8, 0);  // subdivide
        b.u32(1);
        modifierHead(b, 9, 1);  // chaos, version 1: a maximum distance
        b.f32(0.5f);
        b.u32(3);
        b.f32(2);
        modifierHead(b, 10, 0);  // smooth
        b.f32(0.5f);
        b.boolean(true);
        modifierHead(b, 11, 0);  // border transition: a visual node
        b.f32(1);
        b.f32(2);
        b.u32(1);
        b.newNode(1, 0x09006000);
        b.endNode();
        modifierHead(b, 12, 0);  // deformation
        b.zeros(24 + 48);
        layerBase(b, 14);  // trigger, version 1: an int array
        b.u32(1);
        crystal(b, g);
        b.u32(1);
        b.u32(0);
        modifierHead(b, 15, 1);  // spawn position, version 1: a roll angle
        b.zeros(12 + 12);
        modifierHead(b, 18, 0);  // light: a light user model, a position
        b.u32(1);
        b.newNode(2, 0x090F9000);
        b.endNode();
        b.u32(1);
        b.u32(0);
        b.zeros(48);
    });
    GbxFile f = readWhole(w, 3);
    CHECK(notes(f.nodes[0], "layer kind") ==
          std::vector<std::string>{"geometry", "subdivide smooth", "translation", "rotation",
                                   "scale", "mirror", "move to ground", "extrude", "subdivide",
                                   "chaos", "smooth", "border transition", "deformation", "trigger",
                                   "spawn position", "light"});
    CHECK(notes(f.nodes[0], "crystal").size() == 2);
    CHECK(notes(f.nodes[0], "layers") == std::vector<std::string>{"16"});
}

TEST_CASE("crystal: chunks 000, 004, 006 and 007", "[gbx][crystal]") {
    Geometry g;
    g.version = 32;
    BodyWriter w;
    w.chunk(0x09003000);  // the one crystal of a single layer
    w.u32(0);
    crystal(w, g);
    for (std::uint32_t v : {0u, 1u, 2u}) {  // editor data; version 2 is skipped by its size
        w.beginSkippable(0x09003004);
        w.u32(v);
        w.u32(3);
        w.zeros(3);
        if (v >= 1) w.u32(0);
        w.endSkippable();
    }
    w.chunk(0x09003006);  // lightmap coordinates as floats
    w.u32(0);
    w.u32(3);
    w.zeros(24);
    w.chunk(0x09003006);  // as 16-bit fractions
    w.u32(1);
    w.u32(3);
    w.zeros(12);
    w.chunk(0x09003006);  // fractions, then 300 indices into them: 16-bit
    w.u32(2);
    w.u32(2);
    w.zeros(8);
    w.u32(300);
    w.zeros(600);
    w.chunk(0x09003007);  // smoothing groups
    w.u32(0);
    w.u32(2);
    w.zeros(8);
    w.u32(1);
    w.u32(0);
    w.endNode();
    GbxFile f = readWhole(w);
    CHECK(notes(f.nodes[0], "crystal") ==
          std::vector<std::string>{"version 32, 3 positions, 1 faces"});
    CHECK(f.nodes[0].chunks.size() == 8);
}

TEST_CASE("crystal: materials by name or as nodes", "[gbx][crystal]") {
    Geometry g;
    g.materials = 2;
    BodyWriter w;
    w.chunk(0x09003003);
    w.u32(2);
    w.u32(2);
    w.string("Stadium\\Media\\Material\\Grass");
    w.string("");
    w.newNode(1, 0x090FD000);
    w.endNode();
    w.chunk(0x09003005);
    w.u32(0);
    w.u32(1);
    geometryLayer(w, g);
    w.endNode();
    GbxFile f = readWhole(w, 2);
    CHECK(notes(f.nodes[0], "materials") == std::vector<std::string>{"2"});
    REQUIRE(f.nodes.size() == 2);
    CHECK(f.nodes[1].classId == 0x090FD000);
}

TEST_CASE("crystal: what no source describes, or describes two ways, stops with the reason",
          "[gbx][crystal]") {
    auto withGeometry = [](const Geometry& g) {
        return crystalBody(g.materials, 1, [&](BodyWriter& b) { geometryLayer(b, g); });
    };
    struct Case {
        const char* name;
        BodyWriter body;
        const char* reason;
    };
    Geometry g;
    std::vector<Case> cases;
    auto changed = [&](const std::function<void(Geometry&)>& change) {
        Geometry x = g;
        change(x);
        return withGeometry(x);
    };
    auto editable = [&](const std::function<void(Editable&)>& change, std::uint32_t v = 31) {
        return changed([&](Geometry& x) {
            x.version = v;
            x.embedded = false;
            change(x.editable);
        });
    };
    cases.push_back({"an editable crystal of version 28", editable([](Editable&) {}, 28),
                     "editable crystal version 28: sources disagree on the floats per position "
                     "before version 29"});
    cases.push_back({"an editable crystal of version 36", editable([](Editable&) {}, 36),
                     "editable crystal version 36: where its face properties go no source says "
                     "(35 is the highest)"});
    cases.push_back({"an editable crystal's mesh of version 1",
                     editable([](Editable& e) { e.meshVersion = 1; }),
                     "editable crystal mesh version 1 not supported (0 is the highest any "
                     "source describes)"});
    cases.push_back({"a used list that loops",
                     editable([](Editable& e) { e.vertexPool = Editable::Damage::usedLoops; }),
                     "editable crystal: the used list of the vertex pool runs to handle 2 of "
                     "3, which is not one of its own"});
    cases.push_back({"a used list that misses a handle in use",
                     editable([](Editable& e) { e.vertexPool = Editable::Damage::usedShort; }),
                     "editable crystal: the used list of the vertex pool reaches 2 of its 3 "
                     "handles"});
    cases.push_back({"a free list that runs into the used handles", editable([](Editable& e) {
                         e.freeVertices = 1;
                         e.vertexPool = Editable::Damage::freeIntoUsed;
                     }),
                     "editable crystal: the free list of the vertex pool runs to handle 3 of "
                     "4, which is not one of its own"});
    cases.push_back({"more mesh positions than vertices in use",
                     editable([](Editable& e) { e.meshPositions = 4; }),
                     "editable crystal: 4 mesh positions for 3 vertices in use"});
    cases.push_back({"a mesh face naming a vertex past the positions",
                     editable([](Editable& e) { e.vertexIndex = 1; }),
                     "editable crystal: mesh face 0 names a vertex past its 3"});
    cases.push_back({"counts at the end that are not the pools'",
                     editable([](Editable& e) { e.tailEdges = 5; }),
                     "editable crystal: its counts of faces, edges and vertices (1, 5, 3) are "
                     "not its pools' (1, 3, 3)"});
    cases.push_back({"a crystal before version 25", changed([](Geometry& x) { x.version = 24; }),
                     "crystal version 24: its geometry is not described"});
    cases.push_back({"a crystal after version 37", changed([](Geometry& x) { x.version = 38; }),
                     "crystal version 38 not supported (37 is the highest any source "
                     "describes)"});
    cases.push_back({"200 packed edges", changed([](Geometry& x) { x.packedEdges = 200; }),
                     "crystal: 200 packed edges: sources disagree on their width"});
    cases.push_back({"40000 packed edges", changed([](Geometry& x) { x.packedEdges = 40000; }),
                     "crystal: 40000 packed edges: sources disagree on their width"});
    cases.push_back({"255 groups", changed([](Geometry& x) {
                         x.version = 33;
                         x.groups = 255;
                     }),
                     "crystal face group packed by a count of 255: sources disagree on its "
                     "width"});
    cases.push_back({"65535 materials", changed([](Geometry& x) { x.materials = 65535; }),
                     "crystal face material packed by a count of 65535: sources disagree "
                     "on its width"});
    cases.push_back({"a face in a group past the last",
                     changed([](Geometry& x) { x.groupIndex = 1; }),
                     "crystal face 0 is in group 1 of 1"});
    cases.push_back({"a crystal link", changed([](Geometry& x) {
                         x.version = 30;
                         x.links = 1;
                     }),
                     "crystal: 1 crystal link(s), whose layout no source gives"});
    cases.push_back({"more UVs than corners", changed([](Geometry& x) {
                         x.version = 25;
                         x.uvsPerFace = 4;
                     }),
                     "crystal face 0: 4 UVs for 3 vertices, whose extra bytes no source "
                     "sizes"});
    cases.push_back({"fewer texture coordinate indices than corners",
                     changed([](Geometry& x) { x.uvIndices = 2; }),
                     "crystal: the faces have more vertices than the 2 texture coordinate "
                     "indices"});
    cases.push_back({"a cubes layer",
                     crystalBody(0, 1,
                                 [](BodyWriter& b) {
                                     layerBase(b, 13);
                                     b.u32(2);
                                     b.zeros(32);
                                 }),
                     "crystal 09003005: a cubes layer's voxels are not described"});
    cases.push_back({"a layer of kind 16",
                     crystalBody(0, 1,
                                 [](BodyWriter& b) {
                                     layerBase(b, 16);
                                     b.zeros(32);
                                 }),
                     "crystal 09003005: layer 0 is of kind 16, which no source describes"});
    cases.push_back({"a layer of version 3",
                     crystalBody(0, 1,
                                 [](BodyWriter& b) {
                                     layerBase(b, 2, 3);
                                     b.zeros(32);
                                 }),
                     "crystal layer version 3 not supported (2 is the highest any source "
                     "describes)"});
    cases.push_back({"a geometry layer of version 2",
                     crystalBody(0, 1, [&](BodyWriter& b) { geometryLayer(b, g, 2); }),
                     "crystal geometry layer version 2 not supported (1 is the highest any "
                     "source describes)"});
    cases.push_back({"a chaos layer of version 2",
                     crystalBody(0, 1,
                                 [](BodyWriter& b) {
                                     modifierHead(b, 9, 2);
                                     b.zeros(12);
                                 }),
                     "crystal chaos layer version 2 not supported (1 is the highest any source "
                     "describes)"});
    cases.push_back({"a spawn position layer of version 2",
                     crystalBody(0, 1,
                                 [](BodyWriter& b) {
                                     modifierHead(b, 15, 2);
                                     b.zeros(28);
                                 }),
                     "crystal spawn position layer version 2 not supported (1 is the highest any "
                     "source describes)"});
    {
        BodyWriter w;
        w.chunk(0x09003006);
        w.u32(3);
        w.u32(0);
        w.endNode();
        cases.push_back({"lightmap coordinates of version 3", w,
                         "crystal 09003006 version 3 not supported (2 is the highest any source "
                         "describes)"});
    }
    {
        BodyWriter w;
        w.chunk(0x09003007);
        w.u32(1);
        w.u32(0);
        w.u32(0);
        w.endNode();
        cases.push_back({"smoothing groups of version 1", w,
                         "crystal 09003007 version 1 not supported (0 is the highest any source "
                         "describes)"});
    }
    for (const Case& c : cases) {
        INFO(c.name);
        std::string msg = failureOf(c.body);
        INFO(msg);
        CHECK_THAT(msg, Catch::Contains(std::string(": ") + c.reason + " (stopped at offset "));
        CHECK_THAT(msg, Catch::StartsWith("chunk 0900300"));
    }
}

TEST_CASE("crystal: an item's entity model edition holds one, then (versions 6 and 7) a node",
          "[gbx][crystal][item]") {
    for (std::uint32_t v : {5u, 6u, 7u, 8u}) {
        INFO("edition version " << v);
        BodyWriter w;
        w.chunk(0x2E026000);
        w.u32(v);
        w.u32(1);  // ornament
        w.newNode(1, kCrystal);
        Geometry g;
        g.materials = 1;
        materials(w, 1);
        w.chunk(0x09003005);
        w.u32(0);
        w.u32(1);
        geometryLayer(w, g);
        w.endNode();
        w.string("");
        w.nullRef();  // solid
        w.u32(0);     // images
        w.u32(0);     // sprite parameters
        w.nullRef();  // particle emitter model
        w.nullRef();  // location animation
        w.u32(0);     // light ball states
        w.zeros(7 * 4 + 48);
        w.boolean(true);  // no second crystal
        w.boolean(false);
        w.u32(0);
        w.string("inventory name");
        w.string("");
        w.zeros(8);
        if (v >= 6 && v <= 7) w.nullRef();
        w.endNode();
        GbxBuilder b;
        b.classId = 0x2E026000;
        b.numNodes = 2;
        GbxFile f = test::readBuilt(b, w);
        INFO((f.failure ? f.failure->message : std::string("ok")));
        CHECK(f.nodesComplete);
        CHECK(f.trailingBytes == 0);
        REQUIRE(f.nodes.size() == 2);
        CHECK(notes(f.nodes[1], "crystal") ==
              std::vector<std::string>{"version 37, 3 positions, 1 faces"});
    }
}

}  // namespace crystal_layouts
