// SPDX-License-Identifier: GPL-2.0-or-later
// The class table: names, generalized and specific IDs, and ivXorClassInput with its rules.
#include <catch2/catch.hpp>

#include "gbx/Classes.hpp"

using namespace pakfs::gbx;

TEST_CASE("class names, generalization and specific IDs", "[gbx][classes]") {
    const auto& c = ClassRegistry::builtin();
    CHECK(c.classCount() > 900);
    CHECK(c.name(0x03043000) == "CGameCtnChallenge");
    CHECK(c.name(0x24003000) == "CGameCtnChallenge");  // old ID, read as the new class
    CHECK(c.name(0x01001000) == "CMwNod");
    CHECK(c.name(0x12345000).empty());
    CHECK(c.generalize(0x24003000) == 0x03043000u);
    CHECK(c.generalize(0x24003001) == 0x03043001u);  // chunk IDs follow their class
    CHECK(c.generalize(0x2403F002) == 0x03093002u);
    CHECK(c.generalize(0x03043011) == 0x03043011u);
    CHECK(c.specific(0x03078000) == 0x24061000u);  // three old IDs; the table's choice
    CHECK(c.specific(0x03043000) == 0x24003000u);
    CHECK(c.specific(0x01001000) == 0x01001000u);
    CHECK(c.parent(0x03092000) == 0x0303F000u);
    CHECK(c.parent(0x2401B000) == 0x0303F000u);
    CHECK_FALSE(c.parent(0x12345000).has_value());
    CHECK(describeClass(0x03043000) == "CGameCtnChallenge (03043000)");
}

TEST_CASE("ivXorClassInput: S = specific(parent(generalized(id))) and the rules",
          "[gbx][classes]") {
    CHECK(ivXorClassInput(0x03043000) == 0x01001000u);  // parent CMwNod
    CHECK(ivXorClassInput(0x24003000) == 0x01001000u);  // old ID generalized first
    CHECK(ivXorClassInput(0x03092000) == 0x0303F000u);  // CGameGhost has no old ID
    CHECK(ivXorClassInput(0x03080000) == 0x2402D000u);  // parent CGameCtnMediaBlockFx, specific
    CHECK(ivXorClassInput(0x0305D000) == 0x2401C000u);  // parent CGameCtnZone, specific
    CHECK(ivXorClassInput(0x07006000) == 0x07001000u);  // CControlText -> CControlBase
    CHECK(ivXorClassInput(0x0305C000) == 0x2401C000u);  // rule: CGameCtnZone
    // GBX.NET's overrides are of the parent: a child of CPlugVehiclePhyTuning folds
    // CSceneVehicleTuning, a child of CFuncKeysReal CMwNod; the classes themselves do not.
    CHECK(ivXorClassInput(0x090ED000) == 0x0A02E000u);  // CPlugVehicleCarPhyTuning
    CHECK(ivXorClassInput(0x090EB000) == 0x01001000u);  // CPlugVehiclePhyTuning
    CHECK(ivXorClassInput(0x0501A000) == 0x05002000u);  // CFuncKeysReal: CFuncKeys
    // 09052000 is ManiaPlanet's CPlugSoundGauge, a CPlugSound (TMF's CPlugRessourceStrings).
    CHECK(ivXorClassInput(0x09052000) == 0x0901A000u);
    CHECK(ClassRegistry::builtin().name(0x09052000) == "CPlugSoundGauge");
    // 09093000 is ManiaPlanet's CPlugIconIndex, a CMwNod (TMF's CPlugFileGpuFx, a CPlugFileText).
    CHECK(ivXorClassInput(0x09093000) == 0x01001000u);
    CHECK(ClassRegistry::builtin().name(0x09093000) == "CPlugIconIndex");
    CHECK(ivXorClassInput(0x12345000) == 0x01001000u);  // unknown class: child of CMwNod

    // The rules are data: a caller can replace them.
    ClassRegistry mine = ClassRegistry::fromText(data::kClassTable, "");
    CHECK(mine.ivXorClassInput(0x07006000) == 0x07031000u);
    CHECK(mine.ivXorClassInput(0x0305C000) == 0x01001000u);
    CHECK(mine.ivXorClassInput(0x090ED000) == 0x090EB000u);
    IvXorRules rules;
    rules.parentOverride[0x03043000] = 0x03078000;
    mine.setIvXorRules(rules);
    CHECK(mine.ivXorClassInput(0x03043000) == 0x24061000u);
}
