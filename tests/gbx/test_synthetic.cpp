// SPDX-License-Identifier: GPL-2.0-or-later
// Gbx files written by GbxBuilder: the node engine, node references, lookback strings,
// encapsulation and the moments the observer is told about node reads.
#include <catch2/catch.hpp>

#include "gbx/Describe.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/HeaderChunks.hpp"
#include "gbx/testing/GbxBuilder.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

struct Call {
    std::uint32_t classId;
    bool inSkippable;
    std::uint64_t position;
    bool operator==(const Call&) const = default;
};

class NodeReadLog : public ReadObserver {
public:
    explicit NodeReadLog(const ByteSource& src) : src_(src) {}
    void onNodeRead(std::uint32_t classId, bool inSkippableChunk, std::int64_t) override {
        calls.push_back({classId, inSkippableChunk, src_.position()});
    }
    std::vector<Call> calls;

private:
    const ByteSource& src_;
};

// A source that refuses to be read past what a test allows, to prove there is no read-ahead.
class StrictSource final : public ByteSource {
public:
    explicit StrictSource(ByteSpan d) : mem_(d) {}
    void read(std::span<std::uint8_t> dst) override {
        ++reads;
        mem_.read(dst);
    }
    std::uint64_t position() const override { return mem_.position(); }
    std::optional<std::uint64_t> remaining() const override { return mem_.remaining(); }
    int reads = 0;

private:
    MemorySource mem_;
};

// A map whose body has: a vehicle meta, two new nodes in 03043011, a skippable chunk, an
// encapsulated skippable chunk with a direct node, a back-reference, a null reference and an
// external slot. Positions are relative to the body.
struct SampleMap {
    GbxBuilder b;
    std::vector<Call> expected;  // positions relative to the body start
};

SampleMap sampleMap(const std::string& format) {
    SampleMap m;
    m.b.format = format;
    m.b.classId = 0x03043000;
    m.b.numNodes = 5;
    ExternalRef ext;
    ext.flags = 1;
    ext.name = "Skin.zip";
    ext.nodeIndex = 4;
    ext.folderIndex = 1;
    m.b.refs.ancestorLevel = 2;
    m.b.refs.folders.push_back({"Skins", {}});
    m.b.refs.externals.push_back(ext);

    BodyWriter w;
    m.expected.push_back({0x03043000, false, 0});
    w.chunk(0x0304300D);
    w.meta("Vehicle", "Stadium", "Nadeo");
    w.chunk(0x03043011);
    m.expected.push_back({0x0301B000, false, w.newNode(1, 0x0301B000)});
    w.chunk(0x0301B000);
    w.u32(1);
    w.meta("StadiumRoadMain", "Stadium", "Nadeo");  // "Stadium" and "Nadeo" known by now
    w.u32(7);
    w.endNode();
    m.expected.push_back({0x0305B000, false, w.newNode(2, 0x0305B000)});
    w.chunk(0x0305B001);
    for (int i = 0; i < 4; ++i) w.string("tip");
    w.beginSkippable(0x0305B00A);
    w.string("tip");
    w.zeros(24);
    w.endSkippable();
    w.endNode();
    w.u32(8);  // kind
    w.beginSkippable(0x03043017);
    w.u32(1);
    w.zeros(12);
    w.endSkippable();
    w.beginSkippable(0x03043099);  // unknown to the reader: skipped by size
    w.zeros(9);
    w.endSkippable();
    // items: encapsulated, its node has no index and its own lookback strings
    w.beginSkippable(0x03043040);
    w.u32(4);  // version
    w.u32(0);
    BodyWriter items;  // written apart so that its size can come first
    items.beginEncapsulation();
    items.u32(10);
    items.u32(1);
    std::size_t itemAt = items.directNode(0x03101000);
    items.chunk(0x03101002);
    items.u32(7);
    items.meta("Tree", "Stadium", "someone");  // a new list: "Stadium" is new here
    items.zeros(12 + 3);
    items.lookback("Tree");  // index 1 of the encapsulated list
    items.zeros(12);
    items.u32(0xFFFFFFFF);  // no waypoint property
    items.u16(0);           // flags
    items.zeros(12 + 4);    // pivot, scale
    items.endNode();
    items.u32(0);  // connected item pairs
    items.endEncapsulation();
    w.u32(std::uint32_t(items.size()));
    m.expected.push_back({0x03101000, true, w.size() + itemAt});
    w.raw(items.bytes());
    w.endSkippable();
    w.chunk(0x03043026);
    w.ref(1);  // back-reference: no class ID, no node read
    w.chunk(0x03043021);
    w.nullRef();
    w.ref(4);  // the external slot
    m.expected.push_back({0x03079000, false, w.newNode(3, 0x03079000)});
    w.chunk(0x03079005);
    w.u32(10);
    w.u32(0);
    w.string("clip");
    w.endNode();
    w.chunk(0x0304300D);
    w.meta("Vehicle", "Stadium", "Nadeo");  // the outer list still knows these
    w.endNode();
    m.b.body = w.bytes();
    return m;
}

}  // namespace

TEST_CASE("uncompressed body: nodes, references and observer positions", "[gbx][synthetic]") {
    SampleMap m = sampleMap("BUUR");
    Bytes file = m.b.build();
    StrictSource src(file);
    NodeReadLog rec(src);
    GbxFile f = readGbx(src, &rec);
    REQUIRE(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
    CHECK(src.remaining() == 0u);
    std::uint64_t bodyStart = f.body.offset;
    CHECK(bodyStart == m.b.bodyOffset());
    std::vector<Call> want = m.expected;
    for (auto& c : want) c.position += bodyStart;
    CHECK(rec.calls == want);

    REQUIRE(f.nodes.size() == 5);
    CHECK(f.nodes[0].classId == 0x03043000);
    CHECK(f.nodes[1].slot == 1);
    CHECK(f.nodes[3].slot == -1);  // encapsulated
    CHECK(f.nodes[3].inSkippableChunk);
    CHECK(f.nodes[3].parent == 0);
    const auto& chunks = f.nodes[0].chunks;
    REQUIRE(chunks.size() == 8);
    CHECK(chunks[3].id == 0x03043099);
    CHECK_FALSE(chunks[3].known);
    CHECK(chunks[3].skippable);
    CHECK(chunks[3].size == 9);
    REQUIRE(chunks[5].refs.size() == 1);
    CHECK(chunks[5].refs[0].kind == RefKind::Back);
    CHECK(chunks[5].refs[0].node == 1);
    REQUIRE(chunks[6].refs.size() == 3);
    CHECK(chunks[6].refs[0].kind == RefKind::Null);
    CHECK(chunks[6].refs[1].kind == RefKind::External);
    CHECK(chunks[6].refs[1].index == 4);
    CHECK(chunks[6].refs[2].kind == RefKind::New);
    CHECK(f.refs.folderPaths == std::vector<std::string>{"Skins\\"});

    auto j = describeJson(f, {true});
    CHECK(j["format"] == "BUUR");
    CHECK(j["class_id"] == "03043000");
    CHECK(j["class_name"] == "CGameCtnChallenge");
    CHECK(j["references"]["externals"][0]["name"] == "Skin.zip");
    CHECK(j["references"]["externals"][0]["folder_index"] == 1);
    CHECK(j["body"]["compressed"] == false);
    CHECK(j["nodes"].size() == 5);
    CHECK(describeText(f, {true}).find("CGameCtnMediaClip (03079000)") != std::string::npos);
}

TEST_CASE("LZO body: same nodes, observer not called", "[gbx][synthetic]") {
    SampleMap m = sampleMap("BUCR");
    Bytes file = m.b.build();
    MemorySource src(file);
    NodeReadLog rec(src);
    GbxFile f = readGbx(src, &rec);
    CHECK(rec.calls.empty());
    REQUIRE(f.nodesComplete);
    CHECK(f.nodes.size() == 5);
    CHECK(f.body.compressed);
    CHECK(f.body.uncompressedSize == m.b.body.size());
}

TEST_CASE("header only: the dataless gbx ends at numNodes", "[gbx][synthetic]") {
    SampleMap m = sampleMap("BUUR");
    BodyWriter hc;
    hc.u8(13);
    hc.lookback("uid");
    m.b.headerChunks.push_back({0x03043004, {4, 0, 0, 0}, false});
    m.b.headerChunks.push_back({0x03043005, {3, 0, 0, 0, 'x', 'm', 'l'}, true});
    Bytes header = m.b.buildHeader();
    MemorySource src(header);
    GbxHeader h = readHeader(src);
    CHECK(h.size == header.size());
    CHECK(src.remaining() == 0u);
    REQUIRE(h.chunks.size() == 2);
    CHECK(h.chunks[1].heavy);
    CHECK(h.chunks[1].size == 7);
    auto infos = decodeHeaderChunks(h);
    REQUIRE(infos.size() == 2);
    CHECK(infos[0].ok);
    CHECK(infos[1].ok);
}

TEST_CASE("lookback string forms", "[gbx][synthetic]") {
    GbxBuilder b;
    b.classId = 0x03043000;
    BodyWriter w;
    w.chunk(0x0304300D);
    w.lookbackNumber(26);       // a global ID: no string follows
    w.lookbackRaw(0xFFFFFFFF);  // unassigned
    w.lookbackRaw(0x7FFFFFFF);  // unassigned, the other stored form
    w.chunk(0x0304300D);
    w.lookback("A");
    w.lookback("B");
    w.lookback("A");
    w.endNode();
    b.body = w.bytes();
    Bytes file = b.build();
    MemorySource src(file);
    GbxFile f = readGbx(src);
    CHECK(f.nodesComplete);
    CHECK(f.nodes[0].chunks.size() == 2);

    // An index beyond the list is an error that names the chunk.
    BodyWriter bad;
    bad.chunk(0x0304300D);
    bad.lookbackRaw(0x40000002);
    bad.lookback("x");
    bad.lookback("y");
    bad.endNode();
    b.body = bad.bytes();
    file = b.build();
    MemorySource src2(file);
    CHECK_THROWS_WITH(readGbx(src2),
                      Catch::Contains("lookback string index 2") && Catch::Contains("0304300D"));
}

namespace {

// 0304301F with one counted block and extra blocks after it: a new name with a skin node, a
// known name, an unassigned name (-1), then `after` (the next chunk ID or the end marker).
struct ExtraBlocks {
    Bytes body;
    std::vector<Call> expected;   // positions relative to the body start
    std::size_t nextChunkAt = 0;  // body offset of the chunk after the blocks
};

ExtraBlocks extraBlocksBody(bool chunkAfter) {
    ExtraBlocks e;
    BodyWriter w;
    e.expected.push_back({0x03043000, false, 0});
    w.chunk(0x0304301F);
    w.meta("uid", "Stadium", "me");
    w.string("Map");
    w.meta("Day", "Stadium", "Nadeo");
    w.zeros(12);
    w.boolean(false);
    w.u32(6);  // version
    w.u32(1);  // counted blocks
    w.lookback("StadiumRoadMain");
    w.zeros(4);
    w.u32(0);
    // extra blocks
    w.lookback("StadiumSign");  // new string: 0x40000000 + text
    w.zeros(4);
    w.u32(0x8000);
    w.lookback("me");
    e.expected.push_back({0x03059000, false, w.newNode(1, 0x03059000)});
    w.chunk(0x03059000);
    w.string("a");
    w.string("b");
    w.endNode();
    w.lookback("StadiumRoadMain");  // known string: 0x40000000 + index
    w.zeros(4);
    w.u32(0xFFFFFFFF);
    w.lookbackRaw(0xFFFFFFFF);  // unassigned name
    w.zeros(4);
    w.u32(0xFFFFFFFF);
    e.nextChunkAt = w.size();
    if (chunkAfter) {
        w.chunk(0x03043011);
        e.expected.push_back({0x0301B000, false, w.newNode(2, 0x0301B000)});
        w.chunk(0x0301B000);
        w.u32(0);
        w.endNode();
        w.nullRef();
        w.u32(8);
    }
    w.endNode();
    e.body = w.bytes();
    return e;
}

}  // namespace

TEST_CASE("extra blocks after the counted ones, the next chunk ID is read once",
          "[gbx][synthetic][blocks]") {
    for (bool chunkAfter : {true, false}) {
        INFO("chunk after the blocks: " << chunkAfter);
        ExtraBlocks e = extraBlocksBody(chunkAfter);
        GbxBuilder b;
        b.classId = 0x03043000;
        b.numNodes = 3;
        b.body = e.body;
        Bytes file = b.build();
        StrictSource src(file);
        NodeReadLog rec(src);
        GbxFile f = readGbx(src, &rec);
        REQUIRE(f.nodesComplete);
        CHECK(src.remaining() == 0u);
        std::vector<Call> want = e.expected;
        for (auto& c : want) c.position += b.bodyOffset();
        CHECK(rec.calls == want);
        const auto& chunks = f.nodes[0].chunks;
        REQUIRE(chunks.size() == (chunkAfter ? 2u : 1u));
        CHECK(chunks[0].refs.size() == 1);  // the skin of the extra block
        if (chunkAfter) {
            CHECK(chunks[1].id == 0x03043011);
            CHECK(chunks[1].known);
            // The record points at the chunk ID the blocks reader read.
            CHECK(chunks[1].offset == b.bodyOffset() + e.nextChunkAt);
        }
        // The same through an LZO body.
        b.format = "BUCR";
        Bytes packed = b.build();
        MemorySource msrc(packed);
        GbxFile g = readGbx(msrc);
        CHECK(g.nodesComplete);
        CHECK(g.nodes.size() == f.nodes.size());
    }
}

namespace {

// Readers that misuse handBackChunkId, for the engine's checks.
void handBackThenRead(NodeReader& r) {
    r.handBackChunkId(r.u32());
    r.u32();
}
void handBackThenNode(NodeReader& r) {
    r.handBackChunkId(r.u32());
    r.nodeRef();
}
void handBackTwice(NodeReader& r) {
    r.handBackChunkId(r.u32());
    r.handBackChunkId(r.u32());
}
void handBack(NodeReader& r) {
    r.handBackChunkId(r.u32());
}

GbxFile readWith(const ChunkRegistry& reg, const Bytes& body, std::uint32_t numNodes = 2) {
    GbxBuilder b;
    b.classId = 0x03043000;
    b.numNodes = numNodes;
    b.body = body;
    Bytes file = b.build();
    MemorySource src(file);
    ReadOptions opts;
    opts.chunks = &reg;
    return readGbxPartial(src, nullptr, opts);
}

}  // namespace

TEST_CASE("handing back a chunk ID: misuse is an error", "[gbx][synthetic][blocks]") {
    BodyWriter w;
    w.chunk(0x03043A01);
    w.chunk(0x0304300D);
    w.u32(0xFFFFFFFF);
    w.endNode();
    w.endNode();

    SECTION("a plain hand-back reads on") {
        ChunkRegistry reg;
        reg.add(0x03043A01, false, handBack);
        reg.add(0x0304300D, false, [](NodeReader& r) { r.u32(); });
        GbxFile f = readWith(reg, w.bytes());
        CHECK(f.nodesComplete);
        CHECK(f.nodes[0].chunks.size() == 2);
        CHECK(f.trailingBytes == 4);
    }
    SECTION("reading after the hand-back") {
        ChunkRegistry reg;
        reg.add(0x03043A01, false, handBackThenRead);
        GbxFile f = readWith(reg, w.bytes());
        REQUIRE(f.failure);
        CHECK_THAT(f.failure->message, Catch::Contains("read on after handing back"));
    }
    SECTION("a node after the hand-back") {
        ChunkRegistry reg;
        reg.add(0x03043A01, false, handBackThenNode);
        BodyWriter n;
        n.chunk(0x03043A01);
        n.chunk(0x0304300D);
        n.newNode(1, 0x03059000);
        n.endNode();
        n.endNode();
        GbxFile f = readWith(reg, n.bytes());
        REQUIRE(f.failure);
        CHECK_THAT(f.failure->message, Catch::Contains("node read after the next chunk ID"));
    }
    SECTION("twice") {
        ChunkRegistry reg;
        reg.add(0x03043A01, false, handBackTwice);
        GbxFile f = readWith(reg, w.bytes());
        REQUIRE(f.failure);
        CHECK_THAT(f.failure->message, Catch::Contains("handed back twice"));
    }
    SECTION("from a skippable chunk") {
        ChunkRegistry reg;
        reg.add(0x03043A01, true, handBack);
        BodyWriter s;
        s.beginSkippable(0x03043A01);
        s.u32(0x0304300D);
        s.endSkippable();
        s.endNode();
        GbxFile f = readWith(reg, s.bytes());
        REQUIRE(f.failure);
        CHECK_THAT(f.failure->message, Catch::Contains("skippable chunk cannot hand back"));
    }
}

TEST_CASE("lookback strings after a chunk skipped by size", "[gbx][synthetic]") {
    // 03043A01 notes a lookback string; 03043A02 decides by one. A skipped chunk may have stored
    // strings the reader never saw: those before it keep their numbers, those after cannot be
    // found by index, and a reader deciding by one stops.
    ChunkRegistry reg;
    reg.add(0x03043A01, false, [](NodeReader& r) { r.note("id", r.lookback()); });
    reg.add(0x03043A02, false,
            [](NodeReader& r) { r.note("decided", r.decidingLookback("the test decides")); });
    // The skipped chunk stores string 2 in the game (12 bytes), or holds 4 bytes: no string.
    auto body = [](bool storing, std::uint32_t deciding) {
        BodyWriter w;
        w.chunk(0x03043A01);
        w.lookback("A");               // string 1
        w.beginSkippable(0x03043AF0);  // no reader knows it
        if (storing) {
            w.lookbackRaw(0x40000000);
            w.string("B");
        } else {
            w.u32(0);
        }
        w.endSkippable();
        w.chunk(0x03043A01);
        w.lookbackRaw(0x40000001);  // A, numbered before the skip
        w.chunk(0x03043A01);
        w.lookback("C");  // stored here: 3 in the game, 2 in the reader's list
        w.chunk(0x03043A01);
        w.lookbackRaw(0x40000003);
        w.chunk(0x03043A02);
        w.lookbackRaw(deciding);
        w.endNode();
        return w;
    };
    auto ids = [](const GbxFile& f) {
        std::vector<std::string> out;
        for (const auto& [k, v] : f.nodes[0].values) out.push_back(k + "=" + v);
        return out;
    };
    const std::string hidden3 =
        "(lookback string 3, not known: numbered after a chunk skipped by size)";

    GbxFile f = readWith(reg, body(true, 0x40000001).bytes());
    INFO((f.failure ? f.failure->message : std::string("whole")));
    CHECK(f.nodesComplete);
    CHECK(ids(f) == std::vector<std::string>{"id=A", "id=A", "id=C", "id=" + hidden3, "decided=A"});

    GbxFile decided = readWith(reg, body(true, 0x40000002).bytes());
    REQUIRE(decided.failure);
    CHECK_THAT(decided.failure->message,
               Catch::Contains("what the test decides depends on a lookback string numbered "
                               "after a chunk skipped by size"));

    // A skipped chunk of 4 bytes holds no string: the numbering stays known, and an index past
    // the list is an error again.
    GbxFile shortSkip = readWith(reg, body(false, 0x40000002).bytes());
    REQUIRE(shortSkip.failure);
    CHECK_THAT(shortSkip.failure->message,
               Catch::Contains("lookback string index 3 but only 2 strings were stored"));
}
