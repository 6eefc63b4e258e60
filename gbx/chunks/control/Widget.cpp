// SPDX-License-Identifier: GPL-2.0-or-later
// The controls ManiaPlanet's menu frames hold (Menu/Control/*.Frame.Gbx of dedicated.pak):
// CControlText (07031000) and its label, button, entry and enum, CControlUiRange (07014000),
// CControlGrid (07015000) with its CControlLayout (0700C000), and CControlQuad (0701B000).
// No public source gives these chunks (GBX.NET has no reader for the classes; Openplanet's
// class dump names their members only): each layout is what every file of the pack holding the
// chunk reads whole with, under the rules of doc/FORMAT.md §7.7 (a word that is the same in
// every file is checked, references read where the files show indexes of their node table).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

void noteLookback(NodeReader& r, const std::string& key) {
    std::string s = r.lookback();
    if (!s.empty()) r.note(key, s);
}

}  // namespace

void registerControlWidgets(ChunkRegistry& reg) {
    // CControlText 000: the text's style (a CControlStyle node in a few entries and frames,
    // else null), a real (between 0.01 and 0.8: a text size), a small int (0, 2 or 3).
    reg.add(0x07031000, false, [](NodeReader& r) {
        noteRef(r, "text style");
        r.f32();
        r.u32();
    });

    // CControlLabel 007: the label's text, its bitmap (an external texture in the files that
    // have one) and a boolean (set exactly when there is a bitmap); 008 (skippable): a word (0)
    // and a colour with alpha.
    reg.add(0x07006007, false, [](NodeReader& r) {
        std::string text = r.string("label");
        if (!text.empty()) r.note("label", text);
        noteRef(r, "bitmap");
        r.boolean();
    });
    reg.add(0x07006008, true, [](NodeReader& r) {
        knownWord(r, {0}, "CControlLabel 07006008: first word");
        floats(r, 4);
    });

    // CControlButton 005: the label, then 1 and -1; 008: -1; 00B: two node references (the
    // action sound and the icons, a CFuncEnum, as Openplanet's dump orders the members) and two
    // ints (the sub-icon indexes); 00C: the icon's identifier.
    reg.add(0x07007005, false, [](NodeReader& r) {
        std::string text = r.string("label");
        if (!text.empty()) r.note("label", text);
        knownWord(r, {1}, "CControlButton 07007005: word after the label");
        knownWord(r, {0xFFFFFFFF}, "CControlButton 07007005: last word");
    });
    reg.add(0x07007008, false,
            [](NodeReader& r) { knownWord(r, {0xFFFFFFFF}, "CControlButton 07007008: word"); });
    reg.add(0x0700700B, false, [](NodeReader& r) {
        noteRef(r, "action sound");
        noteRef(r, "icons");
        r.skip(8);
    });
    reg.add(0x0700700C, false, [](NodeReader& r) { noteLookback(r, "icon"); });

    // CControlEntry 00A: an int (0 or 4) and -1; 00B: 0, 1, 0, 0, 0.
    reg.add(0x0700900A, false, [](NodeReader& r) {
        r.u32();
        knownWord(r, {0xFFFFFFFF}, "CControlEntry 0700900A: second word");
    });
    reg.add(0x0700900B, false, [](NodeReader& r) {
        const std::uint32_t words[] = {0, 1, 0, 0, 0};
        for (std::uint32_t w : words) knownWord(r, {w}, "CControlEntry 0700900B: word");
    });

    // CControlEnum 009: 1, 0, 1, 3, -1 and a real; 00A: a count and that many identifiers (the
    // values shown).
    reg.add(0x0700A009, false, [](NodeReader& r) {
        const std::uint32_t words[] = {1, 0, 1, 3, 0xFFFFFFFF};
        for (std::uint32_t w : words) knownWord(r, {w}, "CControlEnum 0700A009: word");
        r.f32();
    });
    reg.add(0x0700A00A, false, [](NodeReader& r) {
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.lookback();
        if (n != 0) r.note("values", num(n));
    });

    // CControlUiRange 000: an identifier (the icon); 001: 0; 003: 4, a boolean, two reals and
    // a boolean.
    reg.add(0x07014000, false, [](NodeReader& r) { noteLookback(r, "icon"); });
    reg.add(0x07014001, false,
            [](NodeReader& r) { knownWord(r, {0}, "CControlUiRange 07014001: word"); });
    reg.add(0x07014003, false, [](NodeReader& r) {
        knownWord(r, {4}, "CControlUiRange 07014003: first word");
        r.boolean();
        floats(r, 2);
        r.boolean();
    });

    // CControlGrid 001: its main layout (a CControlLayout), 0, 0 and two reals; 003: a count and
    // that many reals (column widths), then 1; 005: two reals; 006: 0, 0 and two ints.
    // CControlLayout 001: two ints and four reals (Openplanet's dump: two alignments, then ratios
    // and paddings).
    reg.add(0x07015001, false, [](NodeReader& r) {
        noteRef(r, "layout");
        knownWord(r, {0}, "CControlGrid 07015001: word after the layout");
        knownWord(r, {0}, "CControlGrid 07015001: second word after the layout");
        floats(r, 2);
    });
    reg.add(0x07015003, false, [](NodeReader& r) {
        r.skipArray(4);
        knownWord(r, {1}, "CControlGrid 07015003: word after the widths");
    });
    reg.add(0x07015005, false, [](NodeReader& r) { floats(r, 2); });
    reg.add(0x07015006, false, [](NodeReader& r) {
        knownWord(r, {0}, "CControlGrid 07015006: first word");
        knownWord(r, {0}, "CControlGrid 07015006: second word");
        r.skip(8);
    });
    reg.add(0x0700C001, false, [](NodeReader& r) {
        r.skip(8);  // the two alignments (1 or 4, 0 or 1 in the files)
        floats(r, 4);
    });

    // CControlQuad 004: 2 or 3, then two booleans (Openplanet's dump lists IsLines and IsFill);
    // 005: two reals; 006: an identifier (the style's icon set); 007: a word (0) then the
    // icon's identifier and a colour with alpha (IconId, IconVertexColors, IconVertexAlpha).
    reg.add(0x0701B004, false, [](NodeReader& r) {
        knownWord(r, {2, 3}, "CControlQuad 0701B004: first word");
        r.boolean();
        r.boolean();
    });
    reg.add(0x0701B005, false, [](NodeReader& r) { floats(r, 2); });
    reg.add(0x0701B006, false, [](NodeReader& r) { noteLookback(r, "icons"); });
    reg.add(0x0701B007, false, [](NodeReader& r) {
        knownWord(r, {0}, "CControlQuad 0701B007: first word");
        noteLookback(r, "icon");
        floats(r, 4);
    });
}

}  // namespace pakfs::gbx::chunks
