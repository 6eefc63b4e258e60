// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's own pack (../shared/fixtures/real-mp/dedicated.pak): its menu frames and cards
// (CControlFrame, CControlFrameStyled, CGameControlCardGeneric) read whole where every form they
// hold has a reader (gbx/chunks/control/, gbx/chunks/game/ControlCard.cpp); the others stop
// naming the form no reader takes. The key comes from the fixture's README.
#include <catch2/catch.hpp>

#include <map>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/ops/PakOpener.hpp"
#include "tests/support/RealMp.hpp"

using namespace pakfs;
using namespace pakfs::archive;

TEST_CASE("ManiaPlanet's pack: menu frames and generic cards read whole", "[real-mp][fixtures]") {
    KeyOptions keys;
    keys.baseKeyHex = test::dedicatedBaseKey();
    auto pak = openPak(test::dedicatedPak(), keys).pak;
    struct Counts {
        int parsed = 0, refused = 0;
    };
    std::map<std::uint32_t, Counts> counts;
    for (const auto& e : pak->entries()) {
        if ((e.classId != 0x07016000 && e.classId != 0x07026000 && e.classId != 0x030BD000) ||
            !isGbxEntry(*pak, e))
            continue;
        INFO(e.path);
        GbxDecode d = decodeGbxEntryProven(pak, e);
        if (d.kind == GbxDecodeKind::Parsed) {
            ++counts[e.classId].parsed;
            continue;
        }
        // Nothing is claimed that was not read whole: the rest is refused, with the reason.
        REQUIRE(d.kind == GbxDecodeKind::Refused);
        ++counts[e.classId].refused;
        CHECK_THAT(d.detail, Catch::Contains("cannot be verified ("));
    }
    // At the readers' commit: 27 of the 28 generic cards and 21 of the 30 frames read whole; the
    // styled frame and the others stop at children that are instances of other frame files (8),
    // at the chunks of CControlListCard (2) or in a CPlugFileGpuFx (1).
    CHECK(counts[0x030BD000].parsed == 27);
    CHECK(counts[0x030BD000].refused == 1);
    CHECK(counts[0x07016000].parsed == 21);
    CHECK(counts[0x07016000].refused == 9);
    CHECK(counts[0x07026000].parsed == 0);
    CHECK(counts[0x07026000].refused == 1);
}
