// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's menu cards: CGameControlCard (0309A000), a CControlFrame that shows a game
// object, and CGameControlCardGeneric (030BD000), the card of the menus' buttons
// (Menu/Control/Card/*.Frame.Gbx of dedicated.pak). No public source gives their chunks: each
// layout is what every card of the pack reads whole with, under the rules of doc/FORMAT.md §7.7;
// the generic card's data follows the members Openplanet's class dump lists.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// One record of 030BD006: the generic data Openplanet's dump lists for the card (Str1 to Str7,
// StrInt1 to StrInt7, Nat1 to Nat6, Real1 to Real3), in that order.
void genericCardData(NodeReader& r) {
    for (int i = 0; i < 14; ++i) {
        std::string s = r.string("card text");
        if (!s.empty()) r.note(i < 7 ? "Str" + num(i + 1) : "StrInt" + num(i - 6), s);
    }
    r.skip(6 * 4);  // Nat1 to Nat6
    floats(r, 3);   // Real1 to Real3
}

}  // namespace

void registerGameControlCard(ChunkRegistry& reg) {
    // CGameControlCard 002: three booleans (0, 1, 1 in every card).
    reg.add(0x0309A002, false, [](NodeReader& r) {
        for (int i = 0; i < 3; ++i) r.boolean();
    });
    // CGameControlCardGeneric 000: a word (0); 006: a byte (4), a count, then that many records
    // of generic data (0 or 1 in the files).
    reg.add(0x030BD000, false,
            [](NodeReader& r) { knownWord(r, {0}, "CGameControlCardGeneric 030BD000: word"); });
    reg.add(0x030BD006, false, [](NodeReader& r) {
        std::uint64_t at = r.position();
        if (std::uint8_t b = r.u8(); b != 4)
            r.fail("CGameControlCardGeneric 030BD006: first byte at " + num(at) + " is " + num(b) +
                   ", only 4 is known (no source describes it)");
        std::uint32_t n = r.count(14 * 4 + 9 * 4);
        for (std::uint32_t i = 0; i < n; ++i) genericCardData(r);
    });
}

}  // namespace pakfs::gbx::chunks
