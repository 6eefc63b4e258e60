// SPDX-License-Identifier: GPL-2.0-or-later
// Parsing a built gbx file in a test: whole (every node complete, every chunk known, no byte
// left over) or to the error it stops with.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "common/ByteSource.hpp"
#include "common/Error.hpp"
#include "gbx/GbxFile.hpp"
#include "tests/support/NodeSummary.hpp"

namespace pakfs::test {

inline NodeSummary parseWhole(const Bytes& file) {
    MemorySource src(file);
    gbx::GbxFile f = gbx::readGbx(src);
    REQUIRE(f.nodesComplete);
    CHECK(f.trailingBytes == 0);
    CHECK(f.unfilledSlots == 0);
    NodeSummary p = summarize(f);
    CHECK(p.allNodesComplete);
    CHECK(p.allChunksKnown);
    return p;
}

// The message of the error the parse stops with, "no error" when it does not stop.
inline std::string gbxParseError(const Bytes& file) {
    MemorySource src(file);
    try {
        gbx::readGbx(src);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace pakfs::test
