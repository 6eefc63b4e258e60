// SPDX-License-Identifier: GPL-2.0-or-later
// Ghosts (CGameGhost 0303F000, CGameCtnGhost 03092000) and replays (CGameCtnReplayRecord
// 03093000).
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

void ghostData(NodeReader& r) {  // 0303F005: zlib-compressed samples, kept opaque
    r.u32();                     // uncompressed size
    std::uint32_t size = r.u32();
    r.skip(size);
}

void nodeArray(NodeReader& r) {
    r.u32();  // array version (10)
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
}

// 03092019 (TMF), 03092011 (TMU): 011 has no validation seed at the end.
void validation(NodeReader& r) {
    std::uint32_t duration = r.u32();  // events duration
    r.var(kEventsDurationVar) = duration;
    if (duration == 0) return;
    ghostValidationInputs(r);
    if (r.generalChunkId() == 0x03092019) r.u32();  // validation seed
}

// Input names (lookback strings), the input count, an int, the inputs (time, name index,
// value: 9 bytes each): the events of replays and of a ghost's validation.
void inputEvents(NodeReader& r) {
    std::uint32_t names = r.count(4);
    for (std::uint32_t i = 0; i < names; ++i) r.lookback();
    std::uint32_t entries = r.count(9);
    r.u32();
    r.skip(std::uint64_t(entries) * 9);
}

// 0309300D: input events of TMSX/TMNESWC replays.
void replayEvents(NodeReader& r) {
    if (r.u32() == 0) return;  // events duration
    r.u32();
    inputEvents(r);
}

// 03093003: input events of TM1.0/TMPU replays, with the control names spelled out.
void replayEventsOld(NodeReader& r) {
    if (r.u32() == 0) return;  // events duration
    r.u32();
    std::uint32_t names = r.count(12);
    for (std::uint32_t i = 0; i < names; ++i) {
        r.skip(8);
        r.string("control name");
    }
    // The stored count is one more than the entries (12 bytes each: time, name index, value).
    std::uint32_t stored = r.u32();  // skip() checks what is left, nothing is allocated
    if (stored > 0) r.skip(std::uint64_t(stored - 1) * 12);
    r.u32();
}

// One event of CCtnMediaBlockEventTrackMania 2407F003.
void trackManiaEvent(NodeReader& r) {
    r.f32();  // time
    std::uint8_t v = r.u8();
    if (v == 0) r.fail("event version 0 not supported");
    if (v < 3)
        r.u32();
    else
        r.u8();
    std::uint32_t type = r.u32();
    switch (type) {
        case 0:          // stunt: figure, angle, score, factor, 4 bools, combo, total score
            r.skip(40);  // (the time is the event's)
            break;
        case 1:  // checkpoint
            if (r.u32() == 0) r.skip(16);
            break;
        case 2:  // end of lap
            if (r.u32() < 2) r.skip(v == 1 ? 8 : 12);
            break;
        case 3:  // end of race
            if (r.u32() == 0) r.skip(8);
            break;
        default:
            r.fail("event type " + std::to_string(type) + " not supported");
    }
}

// CGameCtnGhost 000 ([G] Game/CGameCtnGhost.chunkl): the player's appearance, names and, from
// version 5, the record data node. [G] describes versions 0 to 9.
void ghostAppearance(NodeReader& r) {
    std::uint32_t v = version(r, 9, "ghost 03092000");
    std::uint32_t appearance = v >= 9 ? r.u32() : 0;
    r.meta();  // player model
    r.vec3();  // light trail colour
    std::uint32_t skins = r.count(1);
    for (std::uint32_t i = 0; i < skins; ++i) r.fileRef();
    if (r.boolean()) ghostBadge(r);
    if (appearance >= 1) r.string();
    r.note("nickname", r.string("nickname"));
    r.string("avatar");
    if (v < 2) return;
    r.string("recording context");
    if (v < 4) return;
    r.u32();  // [G] a bool; the ghost of the 2020 replay fixture stores 2 [game]
    if (v < 5) return;
    r.nodeRef();     // record data (CPlugEntRecordData)
    r.skipArray(4);  // [G] gives no name
    if (v < 6) return;
    r.string("trigram");
    if (v < 7) return;
    r.string("zone");
    if (v < 8) return;
    r.string("club tag");
}

void replayVersion(NodeReader& r) {  // 03093000 (header)
    std::uint32_t v = r.u32();
    if (v < 3) return;
    std::string uid;
    r.meta(&uid);
    r.note("map uid", uid);
    r.u32();  // time
    r.note("nickname", r.string("nickname"));
    if (v < 6) return;
    r.string("login");
    if (v < 8) return;
    r.u8();
    r.lookback();  // title
}

}  // namespace

// After the events duration of 011, 019 and 025 ([G] CGameCtnGhost.cs, Chunk03092011): an int,
// the input names (lookback strings), the input count, an int, the inputs (time, name index,
// value: 9 bytes each), then the exe version, checksum, OS and CPU kinds and race settings.
void ghostValidationInputs(NodeReader& r) {
    r.u32();
    inputEvents(r);
    r.note("game version", r.string("game version"));
    r.skip(12);  // exe checksum, os, cpu
    r.string("race settings");
}

// [G] archive SBadge of Game/CGameCtnGhost.chunkl: version, colour, an int and a string in
// version 0 only, stickers (two strings each), layers.
void ghostBadge(NodeReader& r) {
    std::uint32_t v = r.u32();
    r.vec3();  // colour
    if (v == 0) {
        r.u32();
        r.string("badge");
    }
    std::uint32_t stickers = r.count(8);
    for (std::uint32_t i = 0; i < stickers; ++i) {
        r.string("sticker");
        r.string("sticker");
    }
    std::uint32_t layers = r.count(4);
    for (std::uint32_t i = 0; i < layers; ++i) r.string("badge layer");
}

void registerGhostHeader(ChunkRegistry& reg) {
    reg.add(0x03093000, false, replayVersion);
    reg.add(0x03093001, false, [](NodeReader& r) { r.string("xml"); });
    reg.add(0x03093002, false, [](NodeReader& r) {  // author
        r.skip(8);
        r.note("author", r.string());
        r.string();
        r.string();
        r.string();
    });
}

void registerGhost(ChunkRegistry& reg) {
    // CGameGhost
    reg.add(0x0303F005, false, ghostData);
    reg.add(0x0303F003, false, [](NodeReader& r) {  // older games: raw samples, then offsets
        std::uint32_t size = r.u32();
        r.skip(size);
        r.skipArray(4);  // sample offsets
        r.skipArray(4);  // state times
        r.boolean();     // fixed time step
        r.skip(8);       // sample period, version
    });
    reg.add(0x0303F004, false, [](NodeReader& r) { r.u32(); });  // saved mobil class ID
    reg.add(0x0303F006, false, [](NodeReader& r) {
        r.u32();  // is replaying
        ghostData(r);
    });

    // CGameCtnGhost
    reg.add(0x03092000, true, ghostAppearance);
    reg.add(0x03092003, false, [](NodeReader& r) {  // TM1.0 player
        r.meta();
        r.string("skin");
        r.note("nickname", r.string("nickname"));
    });
    reg.add(0x03092006, false, [](NodeReader& r) {  // player (older games)
        r.meta();
        r.string("skin");
        r.u32();
        r.note("nickname", r.string("nickname"));
    });
    reg.add(0x03092007, false, [](NodeReader& r) { r.color(); });
    reg.add(0x0309200D, false, [](NodeReader& r) {  // player (TMU)
        r.meta();
        r.string("skin");
        r.skip(16);
        r.note("nickname", r.string("nickname"));
    });
    reg.add(0x0309201C, false, [](NodeReader& r) { r.skip(32); });     // security key
    reg.add(0x03092004, true, [](NodeReader& r) { r.skipArray(8); });  // checkpoints (TMPU)
    reg.add(0x03092005, true, [](NodeReader& r) { r.u32(); });         // race time
    reg.add(0x03092008, true, [](NodeReader& r) { r.u32(); });         // respawns
    reg.add(0x03092009, true, [](NodeReader& r) { r.color(); });
    reg.add(0x0309200A, true, [](NodeReader& r) { r.u32(); });         // stunts score
    reg.add(0x0309200B, true, [](NodeReader& r) { r.skipArray(8); });  // checkpoints
    reg.add(0x0309200C, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0309200E, false, [](NodeReader& r) { r.lookback(); });  // ghost UID
    reg.add(0x0309200F, false, [](NodeReader& r) { r.note("login", r.string("login")); });
    reg.add(0x03092010, false, [](NodeReader& r) { r.lookback(); });  // validation map UID
    reg.add(0x03092011, false, validation);
    reg.add(0x03092012, false, [](NodeReader& r) {
        r.u32();
        r.u128();
    });
    reg.add(0x03092013, true, [](NodeReader& r) { r.skip(8); });
    reg.add(0x03092014, true, [](NodeReader& r) { r.u32(); });
    reg.add(0x03092015, false, [](NodeReader& r) { r.lookback(); });
    reg.add(0x03092017, true, [](NodeReader& r) {
        std::uint32_t n = r.count(1);
        for (std::uint32_t i = 0; i < n; ++i) r.fileRef();
        r.note("nickname", r.string("nickname"));
        r.string("avatar");
    });
    reg.add(0x03092018, false, [](NodeReader& r) { r.meta(); });
    reg.add(0x03092019, false, validation);

    // CGameCtnReplayRecord
    reg.add(0x03093002, false, [](NodeReader& r) {  // the map, a whole gbx file, kept opaque
        std::uint32_t size = r.u32();
        r.skip(size);
    });
    reg.add(0x03093004, false, [](NodeReader& r) {  // ghosts (older games)
        r.u32();
        nodeArray(r);
        r.u32();
        r.skipArray(8);
    });
    reg.add(0x03093005, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x03093007, true, [](NodeReader& r) { r.u32(); });
    reg.add(0x03093008, true, [](NodeReader& r) {
        r.string("exe version");
        r.skipArray(72);
    });
    reg.add(0x0309300C, false, [](NodeReader& r) { r.nodeRef(); });  // clip
    reg.add(0x0309300E, false, [](NodeReader& r) { r.nodeRef(); });  // events
    reg.add(0x0309300F, true, [](NodeReader& r) {
        r.string("exe version");
        r.skip(12);
        r.string("race settings");
        r.skipRestOfChunk();
    });
    reg.add(0x03093010, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x03093014, false, [](NodeReader& r) {  // ghosts
        nodeArray(r);
        r.u32();
        r.skipArray(8);
    });
    reg.add(0x03093015, false, [](NodeReader& r) { r.nodeRef(); });  // clip
    reg.add(0x03093011, false, [](NodeReader&) {});                  // holds no data
    reg.add(0x03093003, false, replayEventsOld);
    reg.add(0x0309300D, false, replayEvents);
    reg.add(0x03093024, false, [](NodeReader& r) {  // record data
        r.u32();                                    // version
        r.nodeRef();                                // data tape
        r.nodeRef();                                // entity record data
    });

    // CCtnMediaBlockEventTrackMania: start, end, a bool, then stunts (old) or events.
    reg.add(0x2407F000, false, [](NodeReader& r) {
        r.skip(12);
        r.skipArray(44);
    });
    reg.add(0x2407F003, false, [](NodeReader& r) {
        r.skip(12);
        std::uint32_t n = r.count(13);
        for (std::uint32_t i = 0; i < n; ++i) trackManiaEvent(r);
    });
    // CCtnMediaBlockUiTMSimpleEvtsDisplay ([G] TrackMania/CCtnMediaBlockUiTMSimpleEvtsDisplay
    // .chunkl and .cs): 000 the display mode, 001 what the display shows (five bools), 002
    // whether it is never shown.
    reg.add(0x24092000, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x24092001, false, [](NodeReader& r) { r.skip(20); });
    reg.add(0x24092002, false, [](NodeReader& r) { r.boolean(); });

    // CPlugEntRecordData: from version 5 on the records are one zlib stream, kept opaque.
    reg.add(0x0911F000, false, [](NodeReader& r) {
        std::uint32_t v = r.u32();
        if (v < 5) r.fail("entity record data version " + std::to_string(v) + " not supported");
        r.u32();  // uncompressed size
        r.skip(r.u32());
    });
}

}  // namespace pakfs::gbx::chunks

// The chunks ghosts of ManiaPlanet and Trackmania 2020 (CGameCtnGhost 03092000) add after those
// of the Forever games: checkpoint count, player inputs, settings, anticheat data, match
// separators, the validation of the later games, UIDs, title and timestamps. All are skippable;
// those [G] leaves undescribed (01B, 02B) stay unknown and are skipped by size.
// Layouts: [G] GBX.NET, Engines/Game/CGameCtnGhost.chunkl and CGameCtnGhost.cs. In [G]'s
// notation an array or a list is a u32 count then the elements, "data" a u32 size then the
// bytes; an archive read without "(version: V)" gets version 0.

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
void validation025(NodeReader& r) {
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
    reg.add(0x03092025, true, validation025);
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
