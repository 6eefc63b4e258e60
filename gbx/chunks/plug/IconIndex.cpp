// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's CPlugIconIndex (09093000, TMF's CPlugFileGpuFx ID given to another class): one
// icon of a CFuncEnum or a control style, the atlas cell each state of a control shows.
//
// Source: GBX.NET's class ID lists name 09093000 CPlugIconIndex for ManiaPlanet; Openplanet's
// ManiaPlanet class dump (codecat/maniaplanet-history) declares it a CMwNod with no members.
// No public source describes its chunk 09093003: the layout below is what the 32 files of
// ../shared/fixtures/real-mp/dedicated.pak that hold icons (function enums, control styles, ref
// buffers) prove, each parsing whole to its end with every node slot filled. A value none of them
// shows stops the reader with the offset.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The states a control draws (six in every file), each with an atlas cell and a name.
constexpr int kIconStates = 6;
// The largest atlas cell index or margin the pack shows is below this; a larger word is a
// misplaced read, not an icon.
constexpr std::int32_t kIconWordLimit = 0x10000;

// A word that must be a cell index (-1 = none) or a small count: anything else stops.
std::int32_t iconWord(NodeReader& r, const char* what) {
    std::uint64_t at = r.position();
    std::int32_t v = r.i32();
    if (v < -1 || v >= kIconWordLimit)
        r.fail("CPlugIconIndex 09093003: " + std::string(what) + " at " + num(at) + " is " +
               std::to_string(v) + ", the pack shows -1 to " + num(kIconWordLimit - 1) +
               " (no source describes the chunk)");
    return v;
}

// A real the pack shows as a finite number (0, -1, ratios): NaN or infinity stops.
void iconReal(NodeReader& r, const char* what) {
    std::uint64_t at = r.position();
    std::uint32_t bits = r.u32();
    if ((bits & 0x7F800000u) == 0x7F800000u)
        r.fail("CPlugIconIndex 09093003: " + std::string(what) + " at " + num(at) +
               " is not a finite real (no source describes the chunk)");
}

// 09093003: the icon's name; the atlas cell of each state (-1 = none); two small counts (0, 50,
// 100 in the pack) and two reals; then the name of each state's icon (an identifier, empty for
// none).
void iconIndex(NodeReader& r) {
    r.note("name", r.lookback());
    int cells = 0;
    for (int i = 0; i < kIconStates; ++i)
        if (iconWord(r, "state cell") >= 0) ++cells;
    iconWord(r, "first count");
    iconWord(r, "second count");
    iconReal(r, "first real");
    iconReal(r, "second real");
    for (int i = 0; i < kIconStates; ++i) r.lookback();
    r.note("state cells", num(cells));
}

}  // namespace

void registerPlugIconIndex(ChunkRegistry& reg) {
    reg.add(0x09093003, false, iconIndex);
}

}  // namespace pakfs::gbx::chunks
