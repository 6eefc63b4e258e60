// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's sounds: CPlugAudio (09001000), CPlugSound (0901A000) and the subclasses whose
// own chunks a public source gives, CPlugSoundMulti (09064000) and CPlugSoundSurface (0905E000).
//
// Source: [G] GBX.NET, Engines/Plug/CPlugAudio.chunkl, CPlugSound.chunkl, CPlugSoundMulti.chunkl
// and CPlugSoundSurface.chunkl (the chunk layouts and the highest versions below), checked on the
// game-written sounds of ../shared/fixtures/real-mp/dedicated.pak (ManiaPlanet), each parse
// ending exactly at the file's end with every node slot filled.
// The own chunks of CPlugSoundEngine (0908E000), CPlugSoundEngine2 (09029000), CPlugSoundGauge
// (09052000) and CPlugSoundSurface's 0905E003 are described by no public source: SoundEngine.cpp
// reads them as ManiaPlanet's pack proves them. CPlugMusic's (0901C000) stop the reader.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// CPlugSound 009 and 00D [G]: mode, volume, looping, continuous, priority.
void soundPlayback(NodeReader& r) {
    r.u32();      // mode
    r.f32();      // volume
    r.boolean();  // looping
    r.boolean();  // continuous
    r.f32();      // priority
}

// CPlugSound 00E [G]: 009's fields, then one more each version up to 9 (8 adds none).
void soundPlaybackVersioned(NodeReader& r) {
    std::uint32_t v = version(r, 9, "sound 0901A00E");
    soundPlayback(r);
    if (v >= 1) r.boolean();   // low pass filter
    if (v >= 2) r.u32();       // max duplicates
    if (v >= 3) r.u32();       // balance group
    if (v >= 4) r.u32();       // duplicates interval min
    if (v >= 5) r.f32();       // fade stop duration
    if (v >= 6) r.f32();       // pitch
    if (v >= 7) r.f32();       // fade play duration
    if (v >= 9) r.lookback();  // group duplicate
}

// CPlugSound 00F [G]: distances and attenuations, curves by node reference as the version grows
// (5 and 6 add none).
void soundDistance(NodeReader& r) {
    std::uint32_t v = version(r, 12, "sound 0901A00F");
    r.f32();                   // ref distance
    r.f32();                   // max distance
    r.boolean();               // doppler
    floats(r, 7);              // doppler factor and six attenuations
    if (v >= 1) r.f32();       // rolloff factor
    if (v >= 2) r.nodeRef();   // volume from distance (CFuncKeysReal)
    if (v >= 3) r.u32();       // room fx send
    if (v >= 4) floats(r, 2);  // room rolloff, air absorption
    if (v >= 7) {
        r.u32();  // pitch from distance mode
        r.u32();  // ignore source properties
    }
    if (v >= 8) r.nodeRef();  // pitch from distance
    if (v >= 9) r.nodeRef();  // volume from speed
    if (v >= 10) r.f32();     // radius
    if (v >= 11) r.f32();     // pan angle
    if (v >= 12) r.f32();
}

// CPlugSoundMulti 003 [G]: whether the input is a distance, the preferred distances, (1+) the
// volume curve, (2+) the input mapping.
void soundMultiDistances(NodeReader& r) {
    std::uint32_t v = version(r, 2, "sound multi 09064003");
    r.boolean();
    r.skipArray(12);  // preferred distances (vec3)
    if (v >= 1) r.nodeRef();
    if (v >= 2) r.u32();
}

}  // namespace

void registerPlugSound(ChunkRegistry& reg) {
    // CPlugAudio
    reg.add(0x09001001, false, [](NodeReader& r) { r.lookback(); });

    // CPlugSound
    reg.add(0x0901A000, false, [](NodeReader& r) { r.nodeRef(); });  // the sound file
    reg.add(0x0901A002, false, [](NodeReader& r) { r.lookback(); });
    reg.add(0x0901A009, false, soundPlayback);
    reg.add(0x0901A00B, false, [](NodeReader& r) {  // kind, cone angles, attenuations
        r.u32();
        r.u32();
        r.u32();
        floats(r, 2);
    });
    reg.add(0x0901A00C, false, [](NodeReader& r) {  // distances, doppler, attenuations
        floats(r, 2);
        r.boolean();
        floats(r, 8);
    });
    reg.add(0x0901A00D, false, soundPlayback);
    reg.add(0x0901A00E, false, soundPlaybackVersioned);
    reg.add(0x0901A00F, false, soundDistance);
    reg.add(0x0901A010, false, [](NodeReader& r) {  // old sub-sources: a deprecated node array
        version(r, 0, "sound 0901A010");
        r.u32();
        r.note("old sub-sources", num(refArray(r)));
    });
    reg.add(0x0901A011, false, [](NodeReader& r) {  // kind, cone angles, attenuation
        version(r, 0, "sound 0901A011");
        r.u32();
        r.u32();
        r.u32();
        r.f32();
    });
    for (std::uint32_t id : {0x0901A012u, 0x0901A013u})  // backing and focused sounds
        reg.add(id, false, [](NodeReader& r) {
            version(r, 0, r.generalChunkId() == 0x0901A012 ? "sound 0901A012" : "sound 0901A013");
            r.nodeRef();
        });

    // CPlugSoundMulti
    reg.add(0x09064000, false, [](NodeReader& r) {  // additional sounds, input mapping
        r.nodeRef();
        r.u32();
    });
    reg.add(0x09064001, false, [](NodeReader& r) {  // additional sounds (deprecated array)
        r.u32();
        r.note("additional sounds", num(refArray(r)));
        r.u32();  // input mapping
    });
    reg.add(0x09064002, false, [](NodeReader& r) {  // variances, then flags as the version grows
        std::uint32_t v = version(r, 3, "sound multi 09064002");
        floats(r, 2);
        if (v >= 1) r.boolean();  // avoid duplicates
        if (v >= 2) r.boolean();  // alternate parity
        if (v >= 3) r.f32();      // negative pitch variance
    });
    reg.add(0x09064003, false, soundMultiDistances);

    // CPlugSoundSurface 002 [G]: four floats, (2+) a boolean ([G] gives version 1 nothing more).
    reg.add(0x0905E002, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 2, "sound surface 0905E002");
        floats(r, 4);
        if (v >= 2) r.boolean();
    });
}

}  // namespace pakfs::gbx::chunks
