// SPDX-License-Identifier: GPL-2.0-or-later
// The chunks ghosts of ManiaPlanet and Trackmania 2020 (CGameCtnGhost 03092000) add after those
// of the Forever games: checkpoint count, player inputs, settings, anticheat data, match
// separators, the validation of the later games, UIDs, title and timestamps. All are skippable;
// those [G] leaves undescribed (01B, 02B) stay unknown and are skipped by size.
// Layouts: [G] GBX.NET, Engines/Game/CGameCtnGhost.chunkl and CGameCtnGhost.cs. In [G]'s
// notation an array or a list is a u32 count then the elements, "data" a u32 size then the
// bytes; an archive read without "(version: V)" gets version 0.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// 01D: version, then per input record ([G] archive PlayerInputData) its version, an int, from
// chunk version 4 the start offset, the tick count, then data. [G] describes versions up to 4.
void playerInputs(NodeReader& r) {
    std::uint32_t v = version(r, 4, "ghost player inputs 0309201D");
    std::uint32_t n = r.count(16);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.skip(8);
        if (v >= 4) r.u32();
        r.u32();
        r.skip(r.u32());
    }
}

// 022: version; up to version 1 old settings (three ints each); from 2 settings ([G] archive
// SettingsInfos). [G] reads the settings without a version, so the fields it gives settings of
// version 3 and 4 are never read; with settings in a chunk of version 3 or more, which holds, no
// file here tells.
void settings(NodeReader& r) {
    std::uint32_t v = r.u32();
    if (v <= 1) {
        r.skipArray(12);
        return;
    }
    std::uint32_t n = r.count(33);
    if (n > 0 && v >= 3)
        r.fail("ghost settings 03092022 version " + std::to_string(v) +
               ": whether its settings hold the fields GBX.NET gives settings of version 3 and "
               "4 is not described (GBX.NET passes them no version)");
    for (std::uint32_t i = 0; i < n; ++i) {
        r.boolean();
        r.boolean();
        r.u8();
        r.boolean();
        r.f32();
        r.boolean();
        r.f32();
        r.skipArray(4);
        r.string("settings");
    }
}

// 023: version, then strings and ints; from version 2 a byte and two ints, from 3 two bytes.
void anticheat(NodeReader& r) {
    std::uint32_t v = version(r, 3, "ghost anticheat data 03092023");
    r.string("anticheat");
    r.u32();
    r.string("anticheat");
    r.skip(8);
    r.string("anticheat");
    r.u32();
    r.string("anticheat");
    if (v < 2) return;
    r.u8();
    r.skip(8);
    if (v >= 3) r.skip(2);
}

// 025: the validation of the later games. Version 0: 019's layout, then a bool when there are
// events; from 1: the events duration, the inputs and validation fields whatever the duration,
// the validation seed and a bool ([G] CGameCtnGhost.cs, Chunk03092025).
void validation(NodeReader& r) {
    std::uint32_t v = version(r, 1, "ghost validation 03092025");
    std::uint32_t duration = r.u32();
    r.var(kEventsDurationVar) = duration;
    if (v == 0) {
        if (duration == 0) return;
        ghostValidationInputs(r);
        r.u32();  // validation seed
        r.boolean();
        return;
    }
    ghostValidationInputs(r);
    r.u32();  // validation seed
    r.boolean();
}

// 02D: an int (from 1 the inputs are stored elsewhere, in a way [G] does not give), then the
// validation fields, timestamps, title and its checksum, four ints and the race settings.
void validationLater(NodeReader& r) {
    std::uint32_t stored = r.u32();
    if (stored >= 1)
        r.fail("ghost validation 0309202D: inputs stored separately (" + std::to_string(stored) +
               "), a layout no source gives");
    r.string("exe version");
    r.skip(16);  // exe checksum, os, cpu, walltime start
    r.u32();     // walltime end
    r.string("title");
    r.skip(32);  // title checksum
    r.skip(16);
    r.string("race settings");
}

}  // namespace

void registerGhostLater(ChunkRegistry& reg) {
    reg.add(0x0309201A, true, [](NodeReader& r) { r.u32(); });  // checkpoint count
    reg.add(0x0309201D, true, playerInputs);
    reg.add(0x03092022, true, settings);
    reg.add(0x03092023, true, anticheat);
    reg.add(0x03092024, true, [](NodeReader& r) {  // match replay separators: two ints each
        r.u32();
        r.skipArray(8);
    });
    reg.add(0x03092025, true, validation);
    reg.add(0x03092026, true, [](NodeReader& r) { r.u128(); });  // ghost UID
    // 027: version, timed pixel arrays (node references), from 1 ints, from 3 more arrays. [G]
    // describes versions 0 to 3; the game-written ghosts and replays of ../shared/fixtures/gbx
    // store version 4, which reads whole in version 3's layout [game].
    reg.add(0x03092027, true, [](NodeReader& r) {
        std::uint32_t v = version(r, 4, "ghost timed pixel arrays 03092027");
        refArray(r);
        if (v < 1) return;
        r.skipArray(4);
        if (v >= 3) refArray(r);
    });
    // 028: the title ID and its checksum, when 011, 019 or 025 gave events.
    reg.add(0x03092028, true, [](NodeReader& r) {
        if (r.var(kEventsDurationVar) == 0) return;
        r.string("title ID");
        r.skip(32);
    });
    reg.add(0x03092029, true, [](NodeReader& r) {
        r.u32();
        r.u32();
        r.string();
        r.string();
        r.string();
    });
    reg.add(0x0309202A, true, [](NodeReader& r) { r.skip(8); });
    reg.add(0x0309202C, true, [](NodeReader& r) {  // version, walltime start and end
        r.u32();
        r.skip(8);
    });
    reg.add(0x0309202D, true, validationLater);
    reg.add(0x0309202E, true, [](NodeReader& r) { r.string(); });
}

}  // namespace pakfs::gbx::chunks
