// SPDX-License-Identifier: GPL-2.0-or-later
// CControlStyle (07017000), the look of the game's menus, and CFuncEnum (0500E000), the icon
// lists it holds. Layouts from GBX.NET (Engines/Control/CControlStyle.chunkl,
// Engines/Function/CFuncEnum.chunkl); proven on Default.ControlStyle.Gbx of the game's
// Resource.pak, whose parse ends exactly at the body's end with all 11 node slots filled.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

void quad(NodeReader& r) {  // lines?, fill?, z, z of lines, two gradient colours
    r.boolean();
    r.boolean();
    floats(r, 2 + 4 + 4);
}

// GBX.NET's STextSettings_ColorAndChars: two ints, four reals, the characters. Its first int is
// 2 in TMUF's Default.ControlStyle.Gbx and 4 in every ManiaPlanet style of dedicated.pak, whose
// settings each hold two more words after the characters (no source describes them; every one
// of those files reads whole so): read as the structure's version. Another value stops.
void textSettings(NodeReader& r) {
    std::uint64_t at = r.position();
    std::uint32_t version = r.u32();
    if (version != 2 && version != 4)
        r.fail("CControlStyle 0701701B: text settings at " + num(at) + " start with " +
               num(version) + ", only 2 (TMUF) and 4 (ManiaPlanet) are known");
    r.u32();
    floats(r, 4);
    r.string("text characters");
    if (version == 4) r.skip(8);
}

void enumList(NodeReader& r, bool forced) {  // 0701700D / 07017010
    r.nodeRef();                             // sound
    r.nodeRef();                             // list shader
    r.u32();                                 // most elements shown
    floats(r, 2);                            // icon size
    if (!forced) return;
    r.u32();      // forced display type
    r.nodeRef();  // forced icons
}

// CControlBase 0700100C. GBX.NET gives four ints and the stack text (read from a media block's
// CControlList). ManiaPlanet's menus of dedicated.pak store that form for buttons, entries,
// enums, ranges, URL links and cards, and three words only for frames, list cards, grids, labels
// and quads: the class decides (the first word, a set of flags, takes the same values in both
// forms). A class no file or source shows stops.
void controlBaseStack(NodeReader& r) {
    std::uint32_t cls = r.classes().generalize(r.node().classId);
    switch (cls) {
        case 0x07006000:  // CControlLabel
        case 0x07015000:  // CControlGrid
        case 0x07016000:  // CControlFrame
        case 0x0701B000:  // CControlQuad
        case 0x07026000:  // CControlFrameStyled
        case 0x07036000:  // CControlListCard
            r.skip(12);
            return;
        case 0x07007000:  // CControlButton
        case 0x07009000:  // CControlEntry
        case 0x0700A000:  // CControlEnum
        case 0x0700F000:  // CControlList (GBX.NET)
        case 0x07014000:  // CControlUiRange
        case 0x07019000:  // CControlUrlLinks
        case 0x030BD000:  // CGameControlCardGeneric
        case 0x2408C000:  // CTrackManiaControlPlayerInfoCard
            r.skip(16);
            r.string("stack text");
            return;
        default:
            r.fail("no source or file shows which form of the chunk " +
                   describeClass(r.node().classId, r.classes()) +
                   " stores (three words or GBX.NET's four and a string)");
    }
}

// CControlBase 07001010, the control's style ([G]: "CStyleSheetElem" archive): GBX.NET reads a
// node reference, and an int when it is null. In ManiaPlanet's menus of dedicated.pak the first
// word is the style's name (a lookback string) and, when the name is empty (-1), that int is the
// index of a node reference: the external Default.ControlStyle.Gbx, a CControlStyle node read in
// place (index, class ID, body) or one read before. A first word that is neither -1 nor a
// lookback string is read as GBX.NET's node reference.
void controlStyle(NodeReader& r) {
    std::uint64_t at = r.position();
    std::uint32_t w = r.u32();
    if (w != 0xFFFFFFFF && (w & 0xC0000000) != 0) {
        std::string name = r.lookbackFromIndex(w);
        if (!name.empty()) r.note("style", name);
        return;
    }
    if (r.nodeRefFromIndex(w, at).kind == RefKind::Null) r.nodeRef();
}

// Where a container holds one child, after it: a frame (and the classes below it) its location,
// a 3x4 matrix (Openplanet's class dump: CControlFrame::ChildsRelativeLocations); a grid its
// square, two reals, and a word that is 0 in every grid child of dedicated.pak (the dump lists
// CControlGrid's ChildsSquares and ChildsSquaresParam, an array of strings). Another container
// stops.
void childPlace(NodeReader& r) {
    const ClassRegistry& classes = r.classes();
    std::uint32_t cls = classes.generalize(r.node().classId);
    if (cls == 0x07015000) {
        floats(r, 2);
        knownWord(r, {0}, "CControlGrid 07002005: a child's parameter");
        return;
    }
    // A frame and the classes below it (cards, styled and list frames).
    if (classes.ofClassOrAncestor(0x07016000, cls)) {
        iso4(r);
        return;
    }
    r.fail("CControlContainer 07002005: no file shows what " +
           describeClass(r.node().classId, classes) + " stores after a child");
}

// The children a CControlContainer archives after 07002005's fields: a count (the third int
// GBX.NET reads), then each child as three words (1, 3 and -2 in every file), the child node
// and its place (childPlace). No source describes them; every container of dedicated.pak reads so.
// GBX.NET notes that the game archives the children only when AcceptOwnControls is false.
void controlChildren(NodeReader& r, bool acceptOwn) {
    std::uint32_t n = r.count(4 * 3 + 8 + 48);
    if (n != 0 && acceptOwn)
        r.fail("CControlContainer 07002005: " + num(n) +
               " children with AcceptOwnControls set: no file shows it");
    for (std::uint32_t i = 0; i < n; ++i) {
        knownWord(r, {1}, "CControlContainer 07002005: a child's first word");
        knownWord(r, {3}, "CControlContainer 07002005: a child's second word");
        knownWord(r, {0xFFFFFFFE}, "CControlContainer 07002005: a child's third word");
        std::uint64_t at = r.position();
        if (r.nodeRef().kind == RefKind::Null)
            r.fail("CControlContainer 07002005: child " + num(i) + " at " + num(at) +
                   " is a null reference: no file shows one");
        childPlace(r);
    }
    if (n != 0) r.note("children", num(n));
}

}  // namespace

void registerControl(ChunkRegistry& reg) {
    // CControlStyle
    reg.add(0x07017000, false, [](NodeReader& r) { nodeRefs(r, 5); });  // scripts, sound, nodes
    reg.add(0x07017004, false, [](NodeReader& r) { r.nodeRef(); });     // entry sound
    reg.add(0x07017009, false, [](NodeReader& r) { noteRef(r, "default shader"); });
    reg.add(0x0701700B, false, [](NodeReader& r) {  // fit text size, two ints
        r.boolean();
        r.skip(8);
    });
    reg.add(0x0701700C, false, [](NodeReader& r) { r.lookback(); });
    reg.add(0x0701700D, false, [](NodeReader& r) { enumList(r, false); });
    reg.add(0x0701700E, false, [](NodeReader& r) {  // action sound, icon size, default icons
        r.nodeRef();
        floats(r, 2);
        noteRef(r, "button icons");
    });
    reg.add(0x07017010, false, [](NodeReader& r) { enumList(r, true); });
    reg.add(0x07017014, false, [](NodeReader& r) {
        quad(r);
        floats(r, 4);  // lines colour
    });
    reg.add(0x07017015, false, [](NodeReader& r) {
        quad(r);
        floats(r, 4);  // UV rectangle
    });
    reg.add(0x07017016, false, [](NodeReader& r) { r.nodeRef(); });  // effect master
    reg.add(0x07017017, false, [](NodeReader& r) {
        quad(r);
        floats(r, 4 + 1);  // UV rectangle, skew
    });
    reg.add(0x07017018, false, [](NodeReader& r) { floats(r, 8); });  // line gradient colours
    reg.add(0x0701701B, false, [](NodeReader& r) {                    // font and text colours
        noteRef(r, "font");
        floats(r, 2);
        for (int i = 0; i < 3; ++i) textSettings(r);
    });
    reg.add(0x0701701C, false, [](NodeReader& r) {  // slider sizes, sound, icons
        floats(r, 4);
        nodeRefs(r, 3);
    });
    reg.add(0x0701701D, false, [](NodeReader& r) {  // focus area
        r.boolean();
        noteRef(r, "focus material");
        noteRef(r, "focus material read-only");
        noteRef(r, "focus material selected");
        noteRef(r, "focus material focused");
        floats(r, 4);
        r.nodeRef();  // solid
        floats(r, 1);
    });
    reg.add(0x0701701E, false, [](NodeReader& r) { r.lookback(); });  // default icon ID
    // 0701701F: no source describes it. What ManiaPlanet's styles of dedicated.pak hold there
    // (each reads whole so): a word (0 in all of them), two node references, two reals, an
    // identifier and a node reference, the fields of 0701700E and 0701701E side by side.
    reg.add(0x0701701F, false, [](NodeReader& r) {
        std::uint64_t at = r.position();
        if (std::uint32_t v = r.u32(); v != 0)
            r.fail("CControlStyle 0701701F: first word at " + num(at) + " is " + num(v) +
                   ", only 0 is known (no source describes the chunk)");
        nodeRefs(r, 2);
        floats(r, 2);
        r.lookback();
        r.nodeRef();
    });

    // CControlBase, CControlContainer, CControlList ([G] Engines/Control/CControlBase.chunkl,
    // CControlContainer.chunkl, CControlList.chunkl): the controls of a media block's interface
    // and of ManiaPlanet's menus (controlBaseStack, controlStyle, controlChildren above).
    reg.add(0x0700100C, false, controlBaseStack);
    reg.add(0x0700100E, false, [](NodeReader& r) {
        floats(r, 6);  // aligned box
        r.nodeRef();   // layout
        r.skip(8);
    });
    reg.add(0x0700100F, false, [](NodeReader& r) { r.string(); });
    reg.add(0x07001010, false, controlStyle);
    reg.add(0x07002005, false, [](NodeReader& r) {
        bool acceptOwn = r.boolean();
        r.boolean();  // use script
        r.skip(8);
        controlChildren(r, acceptOwn);
    });
    // 07002006: no source describes it; two words, 0 in every container of dedicated.pak.
    reg.add(0x07002006, false, [](NodeReader& r) {
        for (int i = 0; i < 2; ++i) knownWord(r, {0}, "CControlContainer 07002006: word");
    });
    reg.add(0x0700F007, false, [](NodeReader& r) {
        r.skip(28);
        std::uint32_t n = r.count(20);
        for (std::uint32_t i = 0; i < n; ++i) {
            r.string();
            r.f32();
            r.nodeRef();
            r.lookback();
            r.boolean();
        }
    });
    reg.add(0x0700F00A, false, [](NodeReader& r) {
        floats(r, 3);
        r.u32();
        r.boolean();
        if (r.decidingLookback("follows the control's style").empty()) r.nodeRef();
        floats(r, 2);
        r.boolean();
    });

    // CFuncEnum
    reg.add(0x0500E005, false, [](NodeReader& r) {
        r.u32();  // wanted count
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
        r.lookback();    // name
        r.skip(8);       // atlas size
        r.skipArray(4);  // atlas position of each value
        floats(r, 4);    // texture coordinates, min and max
        r.note("values", std::to_string(n));
    });
    reg.add(0x0500E006, false, [](NodeReader& r) { r.nodeRef(); });   // icon indexes
    reg.add(0x0500E007, false, [](NodeReader& r) { floats(r, 2); });  // texture size
}

}  // namespace pakfs::gbx::chunks
