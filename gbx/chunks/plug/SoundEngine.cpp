// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's sound subclasses that no public source describes chunk by chunk:
// CPlugSoundGauge (09052000, an ID TMF gave CPlugRessourceStrings).
//
// Source: Openplanet's ManiaPlanet class dump (codecat/maniaplanet-history, Openplanet.h) lists
// each class's members in order: CPlugSoundGauge holds 12 sound files, four numbers and 36
// curves (CFuncKeysReal). The chunks below are what the files of
// ../shared/fixtures/real-mp/dedicated.pak prove, each parsing whole to its end with every node
// slot filled: the member counts of the dump and the node references the stream shows agree. A
// chunk version or value the pack does not show stops the reader with the offset.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// The one version of a chunk the pack shows: any other stops (no source gives the others).
void onlyVersion(NodeReader& r, std::uint32_t known, const char* what) {
    std::uint64_t at = r.position();
    std::uint32_t v = r.u32();
    if (v != known)
        r.refuseVersion(std::string(what) + " version " + num(v) + " at " + num(at) +
                        " not supported: only " + num(known) +
                        " is known (no source describes the chunk)");
}

void nodeRefs(NodeReader& r, int n) {
    for (int i = 0; i < n; ++i) r.nodeRef();
}

// 09052000: the 12 sound files of the dump's order (filling, emptying, fast, on stop, on start,
// on full, on empty, graduations), by node reference.
void gaugeFiles(NodeReader& r) {
    onlyVersion(r, 2, "CPlugSoundGauge 09052000");
    nodeRefs(r, 12);
}

// 09052001: fast rate, fade in and fade out durations, whether a change restarts the loop (a
// boolean word: the dump's fourth number), then the 36 pitch and volume curves.
void gaugeCurves(NodeReader& r) {
    onlyVersion(r, 5, "CPlugSoundGauge 09052001");
    floats(r, 3);
    r.boolean();
    nodeRefs(r, 36);
}

}  // namespace

void registerPlugSoundEngine(ChunkRegistry& reg) {
    reg.add(0x09052000, false, gaugeFiles);
    reg.add(0x09052001, false, gaugeCurves);
}

}  // namespace pakfs::gbx::chunks
