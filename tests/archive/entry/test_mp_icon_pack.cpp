// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's own pack (../shared/fixtures/real-mp/dedicated.pak): the files holding the engine
// classes read here (icon indexes, gbx/chunks/plug/IconIndex.cpp, and particle emitters,
// gbx/chunks/plug/ParticleEmitter.cpp) are proven, and no refused file stops inside one of them.
// The key comes from the fixture's README.
#include <catch2/catch.hpp>

#include <map>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/ops/PakOpener.hpp"
#include "common/ByteSource.hpp"
#include "gbx/GbxFile.hpp"
#include "tests/support/RealMp.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

struct Proven {
    int files = 0;    // proven files holding a node of the class
    int refused = 0;  // refused files whose reason names the class
};

// For each class, the files of the pack holding one of its nodes, proven (parsed or exact), and
// the refused files whose reason names it.
std::map<std::uint32_t, Proven> provenByClass(const std::map<std::uint32_t, std::string>& classes) {
    KeyOptions keys;
    keys.baseKeyHex = test::dedicatedBaseKey();
    auto pak = openPak(test::dedicatedPak(), keys).pak;
    std::map<std::uint32_t, Proven> out;
    for (const auto& e : pak->entries()) {
        if (!isGbxEntry(*pak, e)) continue;
        INFO(e.path);
        GbxDecode d = decodeGbxEntryProven(pak, e);
        if (d.kind == GbxDecodeKind::Refused) {
            for (const auto& [id, name] : classes)
                if (d.detail.find(name + " (") != std::string::npos) ++out[id].refused;
            continue;
        }
        if (d.kind != GbxDecodeKind::Parsed && d.kind != GbxDecodeKind::Exact) continue;
        // A file stored in the clear is exact without its nodes: what they read shows the classes.
        MemorySource src(d.bytes);
        gbx::GbxFile f = gbx::readGbxPartial(src);
        for (const auto& [id, name] : classes) {
            bool holds = false;
            for (const auto& n : f.nodes) holds = holds || n.classId == id;
            if (holds) ++out[id].files;
        }
    }
    return out;
}

}  // namespace

TEST_CASE(
    "ManiaPlanet's pack: the files holding icon indexes and particle emitters are proven "
    "whole",
    "[real-mp][fixtures]") {
    const std::map<std::uint32_t, std::string> classes = {
        {0x09093000, "CPlugIconIndex"},
        {0x090B3000, "CPlugParticleEmitterModel"},
    };
    auto proven = provenByClass(classes);
    // The 32 function enums, control styles and node buffers holding icons (31 parsed, one
    // exact: a style with skippable chunks no reader knows; 31 were refused before, one buffer
    // exact). The sounds: tests/archive/pak/test_mp_sounds_materials.cpp.
    CHECK(proven[0x09093000].files == 32);
    CHECK(proven[0x09093000].refused == 0);
    // The 23 particle models (9 stopped at 090B3002 version 4 before, 14 were exact).
    CHECK(proven[0x090B3000].files == 23);
    CHECK(proven[0x090B3000].refused == 0);
}
