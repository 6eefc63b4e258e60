// SPDX-License-Identifier: GPL-2.0-or-later
// Chunk tests build a gbx file around a body and read it back: as far as it goes, whole (every
// shorter prefix stopping), or to the reason it stops.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <catch2/catch.hpp>

#include "common/ByteSource.hpp"
#include "common/Error.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/NodeSummary.hpp"

namespace pakfs::test {

// `b` with `body` as its body, built and read by readGbxPartial.
inline gbx::GbxFile readBuilt(gbx::GbxBuilder b, const gbx::BodyWriter& body) {
    b.body = body.bytes();
    Bytes file = b.build();
    pakfs::MemorySource src(file);
    return gbx::readGbxPartial(src);
}

// The file of `numNodes` node slots whose main node, of `classId`, has `body` as its body.
inline Bytes builtFile(std::uint32_t classId, const gbx::BodyWriter& body,
                       std::uint32_t numNodes = 1) {
    gbx::GbxBuilder b;
    b.classId = classId;
    b.numNodes = numNodes;
    b.body = body.bytes();
    return b.build();
}

// builtFile's file with the external references `refs`, read by readGbxPartial.
inline gbx::GbxFile readMain(std::uint32_t classId, std::uint32_t numNodes,
                             const gbx::BodyWriter& body, const gbx::RefTable& refs = {}) {
    gbx::GbxBuilder b;
    b.classId = classId;
    b.numNodes = numNodes;
    b.refs = refs;
    return readBuilt(b, body);
}

// A body whose main node holds one chunk, `id` (skippable or not), with what `fill` writes.
inline gbx::BodyWriter oneChunkBody(std::uint32_t id, bool skippable,
                                    const std::function<void(gbx::BodyWriter&)>& fill) {
    gbx::BodyWriter w;
    if (skippable)
        w.beginSkippable(id);
    else
        w.chunk(id);
    fill(w);
    if (skippable) w.endSkippable();
    w.endNode();
    return w;
}

// Reads `b` with its body stored (BUUR) and LZO compressed (BUCR): each read must take the body
// exactly, its main node holding one known chunk, with `newNodes` nodes read besides.
inline void checkOneChunkReadsExactly(gbx::GbxBuilder b, std::uint32_t newNodes) {
    for (const char* format : {"BUUR", "BUCR"}) {
        b.format = format;
        Bytes file = b.build();
        pakfs::MemorySource src(file);
        gbx::GbxFile f = gbx::readGbxPartial(src);
        INFO((f.failure ? f.failure->message : std::string("ok")));
        REQUIRE(f.nodesComplete);
        CHECK(f.trailingBytes == 0);
        CHECK(f.nodes.size() == 1 + newNodes);
        REQUIRE(f.nodes[0].chunks.size() == 1);
        CHECK(f.nodes[0].chunks[0].known);
    }
}

// Reads a file that must read whole, every node complete and every chunk known; every shorter
// prefix of it must stop with an error. `observer` sees the whole read.
inline NodeSummary readsWhole(const Bytes& data, gbx::ReadObserver* observer = nullptr) {
    pakfs::MemorySource src(data);
    gbx::GbxFile f = gbx::readGbx(src, observer);
    REQUIRE(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
    CHECK(f.unfilledSlots == 0);
    NodeSummary s = summarize(f);
    CHECK(s.allNodesComplete);
    CHECK(s.allChunksKnown);
    for (std::size_t n = 0; n < data.size(); ++n) {
        pakfs::MemorySource cut(ByteSpan(data).first(n));
        gbx::GbxFile partial = gbx::readGbxPartial(cut);
        if (!partial.failure) FAIL("cut at " << n << " of " << data.size() << " read whole");
    }
    return s;
}

// The message of the error readGbx throws on `data`, or "no error".
inline std::string readError(const Bytes& data) {
    pakfs::MemorySource src(data);
    try {
        gbx::readGbx(src);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

// The reason a read by readGbxPartial stopped, which it must have done before the nodes were
// complete.
inline std::string failureOf(const gbx::GbxFile& f) {
    REQUIRE(f.failure);
    CHECK_FALSE(f.nodesComplete);
    return f.failure->message;
}

// An external reference by resource index (flags 4) for node `node`.
inline gbx::ExternalRef resourceRef(std::uint32_t node, std::uint32_t resourceIndex) {
    gbx::ExternalRef e;
    e.flags = 4;
    e.resourceIndex = resourceIndex;
    e.nodeIndex = node;
    return e;
}

// A list of keys whose bytes the reader only skips: the u32 count `n`, then `n` keys of
// `keySize` zero bytes.
inline void zeroKeys(gbx::BodyWriter& w, std::uint32_t n, std::size_t keySize) {
    w.u32(n);
    w.zeros(n * keySize);
}

// A ghost's validation inputs after the events duration (gbx/chunks/game/Ghost.cpp,
// ghostValidationInputs): an int, one input name, one 9-byte input, then the exe version, 12
// bytes and the race settings.
inline void validationInputs(gbx::BodyWriter& w, const std::string& exe,
                             const std::string& settings) {
    w.u32(0);
    w.u32(1);
    w.lookback("Accelerate");
    w.u32(1);
    w.u32(0);
    w.zeros(9);
    w.string(exe);
    w.zeros(12);
    w.string(settings);
}

}  // namespace pakfs::test
