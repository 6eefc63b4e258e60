// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's sound subclasses that no public source describes chunk by chunk:
// CPlugSoundEngine (0908E000) and its components (CPlugSoundEngineComponent, 0908F000),
// CPlugSoundEngine2 (09029000, an ID TMF gave CPlugVisualHeightField), CPlugSoundGauge (09052000,
// an ID TMF gave CPlugRessourceStrings) and CPlugSoundSurface's 0905E003.
//
// Source: Openplanet's ManiaPlanet class dump (codecat/maniaplanet-history, Openplanet.h) lists
// each class's members in order, and the chunks below hold them in that order: a component's
// file and ten numbers (the dump's CPlugSoundComponent: volumes, fade and pitch speeds); an
// engine's components, its highest rpm and 8 curves; an engine 2's 14 curves; a gauge's 12 files,
// four numbers and 36 curves; a surface's speed, its texture and skid components per material and a
// curve. What each chunk holds is what the files of
// ../shared/fixtures/real-mp/dedicated.pak prove, each parsing whole to its end with every node
// slot filled. A chunk version or a value the pack does not show stops the reader with the
// offset.
//
// The curves a class holds by value (the dump's "CFuncKeysReal* const" members) are stored
// inline: the node's chunks with no index and no class ID. The game still folds each one into
// the cipher as a node read of CFuncKeysReal: the engines and the surface decode past their
// first curve only so (compressed entries, whose every later byte depends on it).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

constexpr std::uint32_t kFuncKeysReal = 0x0501A000;

// The one version of a chunk the pack shows: any other stops (no source gives the others).
void onlyVersion(NodeReader& r, std::uint32_t known, const char* what) {
    std::uint64_t at = r.position();
    std::uint32_t v = r.u32();
    if (v != known)
        r.refuseVersion(std::string(what) + " version " + num(v) + " at " + num(at) +
                        " not supported: only " + num(known) +
                        " is known (no source describes the chunk)");
}

// n reals; NaN or infinity stops (every number the pack shows here is finite).
void reals(NodeReader& r, int n, const char* what) {
    for (int i = 0; i < n; ++i) {
        std::uint64_t at = r.position();
        if ((r.u32() & 0x7F800000u) == 0x7F800000u)
            r.fail(std::string(what) + ": the real at " + num(at) +
                   " is not finite (no source describes the chunk)");
    }
}

// A curve held by value: folded as a node read of CFuncKeysReal, then its chunks.
void inlineCurves(NodeReader& r, int n) {
    for (int i = 0; i < n; ++i) {
        r.mixIntoCipher(r.classes().ivXorClassInput(kFuncKeysReal));
        r.inlineNode(kFuncKeysReal);
    }
}

// CPlugSoundEngineComponent 0908F000: its sound file, then volumes, fade speeds and pitches (10).
void component(NodeReader& r) {
    r.nodeRef();
    reals(r, 10, "CPlugSoundEngineComponent 0908F000");
}

// CPlugSoundEngine 0908E002: the highest rpm, then the volume and alpha curves (by speed,
// distance, rpm, acceleration).
void engineCurves(NodeReader& r) {
    reals(r, 1, "CPlugSoundEngine 0908E002");
    inlineCurves(r, 8);
}

// CPlugSoundEngine2 09029001: a real, 10 curves, a word (1 in every file), a boolean, a real and
// 2 curves.
void engine2Curves(NodeReader& r) {
    onlyVersion(r, 3, "CPlugSoundEngine2 09029001");
    reals(r, 1, "CPlugSoundEngine2 09029001");
    inlineCurves(r, 10);
    knownWord(r, {1}, "CPlugSoundEngine2 09029001: the word after the tenth curve");
    r.boolean();
    reals(r, 1, "CPlugSoundEngine2 09029001");
    inlineCurves(r, 2);
}

// CPlugSoundEngine2 09029002: three groups of four empty words and three reals, then 2 curves.
void engine2Perspectives(NodeReader& r) {
    onlyVersion(r, 4, "CPlugSoundEngine2 09029002");
    for (int g = 0; g < 3; ++g) {
        for (int i = 0; i < 4; ++i)
            knownWord(r, {0xFFFFFFFF}, "CPlugSoundEngine2 09029002: a word of a group");
        reals(r, 3, "CPlugSoundEngine2 09029002");
    }
    inlineCurves(r, 2);
}

// CPlugSoundSurface 0905E003: the editor's highest speed, a count of materials, each one's
// texture component then each one's skid component (node references), the skid volume curve.
void surfaceMaterials(NodeReader& r) {
    onlyVersion(r, 1, "CPlugSoundSurface 0905E003");
    reals(r, 1, "CPlugSoundSurface 0905E003");
    std::uint32_t n = r.count(8);
    for (std::uint32_t i = 0; i < 2 * n; ++i) r.nodeRef();
    inlineCurves(r, 1);
    r.note("materials", num(n));
}

// CPlugSoundGauge 09052000: the 12 sound files of the dump's order (filling, emptying, fast, on
// stop, on start, on full, on empty, graduations), by node reference.
void gaugeFiles(NodeReader& r) {
    onlyVersion(r, 2, "CPlugSoundGauge 09052000");
    nodeRefs(r, 12);
}

// CPlugSoundGauge 09052001: fast rate, fade in and fade out durations, whether a change restarts
// the loop (a boolean word: the dump's fourth number), then the 36 pitch and volume curves, by
// node reference.
void gaugeCurves(NodeReader& r) {
    onlyVersion(r, 5, "CPlugSoundGauge 09052001");
    reals(r, 3, "CPlugSoundGauge 09052001");
    r.boolean();
    nodeRefs(r, 36);
}

}  // namespace

void registerPlugSoundEngine(ChunkRegistry& reg) {
    reg.add(0x0908F000, false, component);
    // CPlugSoundEngine 0908E000: its components, a count then node references.
    reg.add(0x0908E000, false, [](NodeReader& r) { r.note("components", num(refArray(r))); });
    reg.add(0x0908E002, false, engineCurves);
    // CPlugSoundEngine2 09029000: two words, 0 and 0 in every file.
    reg.add(0x09029000, false, [](NodeReader& r) {
        knownWord(r, {0}, "CPlugSoundEngine2 09029000: first word");
        knownWord(r, {0}, "CPlugSoundEngine2 09029000: second word");
    });
    reg.add(0x09029001, false, engine2Curves);
    reg.add(0x09029002, false, engine2Perspectives);
    // CPlugSoundEngine2 09029003: the mix and three sub-emitters' placement and cone (33 reals).
    reg.add(0x09029003, false, [](NodeReader& r) {
        onlyVersion(r, 4, "CPlugSoundEngine2 09029003");
        reals(r, 33, "CPlugSoundEngine2 09029003");
    });
    reg.add(0x0905E003, false, surfaceMaterials);
    reg.add(0x09052000, false, gaugeFiles);
    reg.add(0x09052001, false, gaugeCurves);
}

}  // namespace pakfs::gbx::chunks
