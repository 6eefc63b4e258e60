// SPDX-License-Identifier: GPL-2.0-or-later
// Damaged and hostile gbx files: clear errors, no crash, no hang, no huge allocation.
#include <catch2/catch.hpp>

#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

// Map with two nodes, a skippable chunk and a reference table.
Bytes smallMap(const std::string& format) {
    GbxBuilder b;
    b.format = format;
    b.classId = 0x03043000;
    b.numNodes = 4;
    b.refs.externals.push_back(test::resourceRef(3, 7));
    b.refs.folders.push_back({"A", {{"B", {}}}});
    b.headerChunks.push_back({0x03043004, {5, 0, 0, 0}, false});
    BodyWriter w;
    w.chunk(0x0304300D);
    w.meta("Vehicle", "Stadium", "Nadeo");
    w.chunk(0x03043011);
    w.newNode(1, 0x0301B000);
    w.chunk(0x0301B000);
    w.u32(0);
    w.endNode();
    w.newNode(2, 0x0305B000);
    w.chunk(0x0305B004);
    w.zeros(20);
    w.endNode();
    w.u32(1);
    w.beginSkippable(0x03043018);
    w.boolean(true);
    w.u32(3);
    w.endSkippable();
    w.chunk(0x03043026);
    w.ref(3);
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

Bytes mapWithBody(const std::function<void(BodyWriter&)>& fill, std::uint32_t numNodes = 3) {
    GbxBuilder b;
    b.classId = 0x03043000;
    b.numNodes = numNodes;
    BodyWriter w;
    fill(w);
    b.body = w.bytes();
    return b.build();
}

}  // namespace

TEST_CASE("truncation at every offset gives a clear error", "[gbx][bad]") {
    for (const char* format : {"BUUR", "BUCR"}) {
        Bytes file = smallMap(format);
        MemorySource whole(file);
        REQUIRE(readGbx(whole).nodesComplete);
        for (std::size_t n = 0; n < file.size(); ++n) {
            INFO(format << " cut at " << n << " of " << file.size());
            MemorySource src(ByteSpan(file).first(n));
            GbxFile f = readGbxPartial(src);
            REQUIRE(f.failure);
            CHECK_FALSE(f.failure->message.empty());
            MemorySource again(ByteSpan(file).first(n));
            CHECK_THROWS_AS(readGbx(again), Error);
        }
    }
}

TEST_CASE("bad headers", "[gbx][bad]") {
    Bytes file = smallMap("BUUR");
    auto expectError = [](Bytes data, const std::string& text) {
        MemorySource src(data);
        CHECK_THROWS_WITH(readGbx(src), Catch::Contains(text));
    };
    Bytes text = file;
    text[5] = 'T';
    expectError(text, "text gbx not supported");
    Bytes magic = file;
    magic[0] = 'X';
    expectError(magic, "not a gbx file");
    Bytes version = file;
    version[3] = 9;
    expectError(version, "gbx version 9 not supported");
    Bytes hugeUser = file;
    storeLE32(hugeUser.data() + 13, 0x7FFFFFF0);
    expectError(hugeUser, "gbx user data");
    Bytes hugeChunks = file;
    storeLE32(hugeChunks.data() + 17, 0x40000000);
    expectError(hugeChunks, "header chunk table");
}

TEST_CASE("hostile counts, sizes and indexes", "[gbx][bad]") {
    auto expectError = [](const Bytes& data, const std::string& text) {
        MemorySource src(data);
        CHECK_THROWS_WITH(readGbx(src), Catch::Contains(text));
    };
    // A block count far beyond the data.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.chunk(0x0304301F);
                    w.meta("u", "c", "a");
                    w.string("n");
                    w.meta("d", "c", "a");
                    w.zeros(12);
                    w.boolean(false);
                    w.u32(6);
                    w.u32(0xFFFFFFFF);
                }),
                "count 4294967295");
    // A string longer than the file.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.chunk(0x03043012);
                    w.u32(0x7FFFFFFF);
                }),
                "needs 2147483647 bytes");
    // A skippable chunk claiming more than is left.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.chunk(0x03043055);
                    w.u32(0x534B4950);
                    w.u32(0xFFFFFF00);
                }),
                "skipped chunk");
    // A node index beyond numNodes.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.chunk(0x03043026);
                    w.ref(3);
                }),
                "node index 3");
    // A known skippable chunk whose size does not match what its reader takes.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.beginSkippable(0x03043018);
                    w.boolean(true);
                    w.u32(3);
                    w.u32(0);
                    w.endSkippable();
                }),
                "holds 12 bytes but its reader took 8");
    // An unknown chunk that is not skippable names the class, the chunk and the offset.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.chunk(0x0304300D);
                    w.meta("a", "b", "c");
                    w.chunk(0x03043077);
                    w.u32(5);
                }),
                "unknown chunk 03043077 of CGameCtnChallenge (03043000) at offset");
    // A bool that is neither 0 nor 1.
    expectError(mapWithBody([](BodyWriter& w) {
                    w.chunk(0x0304302A);
                    w.u32(2);
                }),
                "bool");
    // LZO sizes that cannot be.
    GbxBuilder b;
    b.format = "BUCR";
    b.classId = 0x03043000;
    BodyWriter w;
    w.endNode();
    b.body = w.bytes();
    Bytes lzo = b.build();
    Bytes hugeOut = lzo;
    std::size_t sizes = b.buildHeader().size() + 4;  // after the (empty) reference table
    storeLE32(hugeOut.data() + sizes, 0xFFFFFFF0);
    MemorySource src(hugeOut);
    CHECK_THROWS_WITH(readGbx(src), Catch::Contains("claims 4294967280 bytes"));
    Bytes badPacked = lzo;
    storeLE32(badPacked.data() + sizes, 100);  // decodes to fewer bytes than claimed
    MemorySource src2(badPacked);
    CHECK_THROWS_WITH(readGbx(src2), Catch::Contains("LZO"));
}

TEST_CASE("reference cycles and deep nesting end cleanly", "[gbx][bad]") {
    // Node 1 refers to itself and to the main node: both are back-references, read once.
    Bytes cyc = mapWithBody([](BodyWriter& w) {
        w.chunk(0x03043026);
        w.newNode(1, 0x03079000);
        w.chunk(0x03079004);
        w.ref(1);
        w.chunk(0x03079004);
        w.ref(0);
        w.endNode();
        w.endNode();
    });
    MemorySource src(cyc);
    GbxFile f = readGbx(src);
    REQUIRE(f.nodes.size() == 2);
    CHECK(f.nodes[1].chunks[0].refs[0].kind == RefKind::Back);
    CHECK(f.nodes[1].chunks[0].refs[0].node == 1);
    CHECK(f.nodes[1].chunks[1].refs[0].node == 0);

    // Clips nested in clips deeper than the reader allows.
    Bytes deep = mapWithBody(
        [](BodyWriter& w) {
            w.chunk(0x03043026);
            for (std::uint32_t i = 1; i < 200; ++i) {
                w.newNode(i, 0x03079000);
                w.chunk(0x03079004);
            }
            w.nullRef();
        },
        300);
    MemorySource src2(deep);
    CHECK_THROWS_WITH(readGbx(src2), Catch::Contains("nest deeper than 64"));

    // External references: indexes checked against numNodes and the folder count.
    GbxBuilder b;
    b.classId = 0x03043000;
    b.numNodes = 2;
    ExternalRef e;
    e.flags = 1;
    e.name = "x";
    e.nodeIndex = 1;
    e.folderIndex = 2;
    b.refs.folders.push_back({"A", {}});
    b.refs.externals.push_back(e);
    BodyWriter w;
    w.endNode();
    b.body = w.bytes();
    Bytes badFolder = b.build();
    MemorySource src3(badFolder);
    CHECK_THROWS_WITH(readGbx(src3), Catch::Contains("folder index 2"));
    b.refs.externals[0].folderIndex = 1;
    b.refs.externals[0].nodeIndex = 2;
    Bytes badNode = b.build();
    MemorySource src4(badNode);
    CHECK_THROWS_WITH(readGbx(src4), Catch::Contains("node index 2 not below numNodes 2"));
}
