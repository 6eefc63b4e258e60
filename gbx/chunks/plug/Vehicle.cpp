// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's vehicle classes of ManiaPlanet: physics models and their shapes
// (CPlugVehiclePhyModel 090EA000, CPlugVehicleCarPhyShape 0910E000), tunings
// (CPlugVehiclePhyTunings 090EC000, CPlugVehiclePhyTuning 090EB000, CPlugVehicleCarPhyTuning
// 090ED000) and race cameras (CPlugCamControlModel 0910C000, CPlugCamShakeModel 0910B000,
// CPlugVehicleCameraRace2Model 090F6000, CPlugVehicleCameraRace3Model 090EF000).
//
// Source: [G] GBX.NET, Engines/Plug/<class>.chunkl and CPlugVehiclePhyTuning.cs (the cipher
// mix of 090EB000) and CPlugVehicleCarPhyTuning.cs (the Keys archive). A "_deprec" array is an
// array version then a count of node references; "bool" is a u32 0 or 1. A versioned chunk
// above the highest version [G] describes (or one [G] throws on) is refused.
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

std::uint32_t deprecRefArray(NodeReader& r) {
    r.u32();  // array version
    return refArray(r);
}

// CPlugVehicleCarPhyTuning's Keys [G]: in the inline form, a keys version, a count, by that
// version a byte, an int or a short, then count (x, y) pairs; in a chunk version older than the
// inline form, a CFuncKeysReal node reference.
void keys(NodeReader& r, bool inlineForm) {
    if (!inlineForm) {
        r.nodeRef();
        return;
    }
    const std::uint32_t kv = r.u32();
    const std::uint32_t n = r.count(8);
    switch (kv) {
        case 1:
            r.u8();
            break;
        case 2:
            r.u32();
            break;
        case 3:
            r.u16();
            break;
        default:
            break;
    }
    r.skip(std::uint64_t(n) * 8);
}

// A chunk of plain fields, one letter each: f float, i int, b bool, v vec3, d Id (lookback
// string), k node reference (a CFuncKeysReal), F float array (u32 count then the floats), A
// "_deprec" node reference array, R node reference array, I inline Keys, K Keys in the form
// `inlineKeys` says. A number before f or i is a run of that many, skipped at once.
void fields(NodeReader& r, std::string_view spec, bool inlineKeys = true) {
    for (std::size_t at = 0; at < spec.size(); ++at) {
        const char c = spec[at];
        if (c >= '0' && c <= '9') {
            std::uint32_t n = 0;
            for (; at < spec.size() && spec[at] >= '0' && spec[at] <= '9'; ++at)
                n = n * 10 + std::uint32_t(spec[at] - '0');
            if (at == spec.size() || (spec[at] != 'f' && spec[at] != 'i'))
                r.fail("internal: field run without f or i");
            r.skip(std::uint64_t(n) * 4);
            continue;
        }
        switch (c) {
            case 'f':
            case 'i':
                r.u32();
                break;
            case 'b':
                r.boolean();
                break;
            case 'v':
                r.vec3();
                break;
            case 'd':
                r.lookback();
                break;
            case 'k':
                r.nodeRef();
                break;
            case 'F':
                r.skipArray(4);
                break;
            case 'A':
                deprecRefArray(r);
                break;
            case 'R':
                refArray(r);
                break;
            case 'I':
                keys(r, true);
                break;
            case 'K':
                keys(r, inlineKeys);
                break;
            default:
                r.fail("internal: field letter " + std::string(1, c));
        }
    }
}

// The chunks whose data is plain fields, by generalized chunk ID [G].
const std::unordered_map<std::uint32_t, std::string_view>& fieldChunks() {
    static const std::unordered_map<std::uint32_t, std::string_view> table = {
        {0x090ED000, "ffffffffffff"},
        {0x090ED001, "d"},
        {0x090ED002, "fff"},
        {0x090ED004, "b"},
        {0x090ED005, "f"},
        {0x090ED006, "ffff"},
        {0x090ED007, "f"},
        {0x090ED008, "ff"},
        {0x090ED009, "f"},
        {0x090ED00A, "ff"},
        {0x090ED00B, "fv"},
        {0x090ED00C, "b"},
        {0x090ED00D, "i"},
        {0x090ED00E, "i"},
        {0x090ED010, "if"},
        {0x090ED011, "fffffffff"},
        {0x090ED012, "ffff"},
        {0x090ED013, "ffffffffffff"},
        {0x090ED014, "ff"},
        {0x090ED015, "fffff"},
        {0x090ED016, "ff"},
        {0x090ED017, "ffffffff"},
        {0x090ED018, "fff"},
        {0x090ED019, "ffffffff"},
        {0x090ED01A, "f"},
        {0x090ED01B, "f"},
        {0x090ED01D, "ff"},
        {0x090ED01E, "i"},
        {0x090ED01F, "fff"},
        {0x090ED020, "ffff"},
        {0x090ED021, "f"},
        {0x090ED022, "ff"},
        {0x090ED023, "ff"},
        {0x090ED024, "k"},
        {0x090ED026, "ffff"},
        {0x090ED027, "ff"},
        {0x090ED028, "fkffff"},
        {0x090ED029, "fk"},
        {0x090ED02A, "k"},
        {0x090ED02B, "kffi"},
        {0x090ED02C, "kfffff"},
        {0x090ED02D, "i"},
        {0x090ED02E, "ff"},
        {0x090ED02F, "i"},
        {0x090ED030, "k"},
        {0x090ED031, "ff"},
        {0x090ED032, "ffffffff"},
        {0x090ED033, "f"},
        {0x090ED034, "f"},
        {0x090ED035, "b"},
        {0x090ED036, "fffk"},
        {0x090ED037, "k"},
        {0x090ED038, "fkff"},
        {0x090ED039, "ff"},
        {0x090ED03A, "ff"},
        {0x090ED03B, "f"},
        {0x090ED03C, "f"},
        {0x090ED03D, "k"},
        {0x090ED03E, "i"},
        {0x090ED03F, "k"},
        {0x090ED040, "k"},
        {0x090ED041, "fi"},
        {0x090ED042, "i"},
        {0x090ED043, "i"},
        {0x090ED044, "f"},
        {0x090ED045, "fffff"},
        {0x090ED046, "fffkkk"},
        {0x090ED047, "f"},
        {0x090ED048, "k"},
        {0x090ED049, "k"},
        {0x090ED04A, "ff"},
        {0x090ED04D, "f"},
        {0x090ED04E, "ff"},
        {0x090ED04F, "fk"},
        {0x090ED051, "f"},
        {0x090ED052, "k"},
        {0x090ED053, "f"},
        {0x090ED056, "fff"},
        {0x090ED057, "F"},
        {0x090ED058, "f"},
        {0x090ED059, "ffff"},
        {0x090ED05A, "fff"},
        {0x090ED05B, "kf"},
        {0x090ED05C, "ff"},
        {0x090ED05D, "ffkkfffffffffiffiffffkkffffffFFFi"},
        {0x090ED05E, "k"},
        {0x090ED05F, "f"},
        {0x090ED060, "fffii"},
        {0x090ED061, "k"},
        {0x090ED062, "f"},
        {0x090ED063, "f"},
        {0x090ED064, "f"},
        {0x090ED065, "f"},
        {0x090ED066, "f"},
        {0x090ED06A, "ff"},
        {0x090ED06E, "f"},
        {0x090ED072, "fffi"},
        {0x090ED077, "ffffk"},
        {0x090ED078, "f"},
        {0x090ED079, "bkkf"},
        {0x090ED07D, "iff"},
        {0x090ED082, "bkkkk"},
        {0x090ED084, "fff"},
        {0x090ED085, "bfffff"},
        {0x090ED086, "ff"},
        {0x090ED088, "f"},
        {0x090EF000, "fffiiifffiifiifiifiiffiifffiifiiffiiffffffiifiifiifiifiifiifiifiikkk"},
        {0x090EF001, "f"},
        {0x090EF002, "ff"},
        {0x090EF003, "bb"},
        {0x090EF004, "d"},
        {0x090F6000, "fiifiifiifiifiifiifiifiifiifiifiifiifiifiifiiffiiiiiiffkkkffff"},
        {0x090F6001, "b"},
    };
    return table;
}

void fieldChunk(NodeReader& r) {
    fields(r, fieldChunks().at(r.generalChunkId()));
}

// A versioned chunk as data: its highest version, the version from which its Keys are inline
// (see keys()), and rows of fields read when the chunk's version is from `from` to `to`, in order.
inline constexpr std::uint32_t kLast = ~std::uint32_t(0);

struct VersionedRow {
    std::uint32_t from, to;
    std::string_view spec;
};

struct VersionedChunk {
    std::uint32_t highest;
    std::uint32_t inlineKeysFrom;
    std::vector<VersionedRow> rows;
};

// CPlugVehicleCarPhyTuning's versioned chunks, by generalized chunk ID [G].
const std::unordered_map<std::uint32_t, VersionedChunk>& versionedChunks() {
    static const std::unordered_map<std::uint32_t, VersionedChunk> table = {
        // clang-format off
        {0x090ED089, {9, 10, {
            {0, kLast, "K"}, {0, 2, "k"}, {2, kLast, "4f"}, {4, kLast, "11f"}, {6, kLast, "f"},
            {7, kLast, "b"}, {8, kLast, "KK"}, {9, kLast, "K"}}}},
        {0x090ED08A, {7, 8, {
            {0, kLast, "4fKKKK"}, {1, 3, "2f"}, {4, kLast, "KK"}, {3, kLast, "i"}, {5, 5, "f"},
            {6, kLast, "K"}, {7, kLast, "b"}}}},
        {0x090ED08B, {36, 37, {
            {0, 2, "f"}, {0, 10, "fk"}, {0, 9, "f"}, {0, 8, "k"}, {0, kLast, "f"}, {0, 9, "f"},
            {0, 10, "k"}, {1, kLast, "b"}, {3, 9, "2f"}, {4, kLast, "K"}, {5, 9, "2i"},
            {9, kLast, "K"}, {13, 22, "f"}, {22, kLast, "K"}, {13, kLast, "f"}, {6, kLast, "K"},
            {7, kLast, "f"}, {10, kLast, "KKK"}, {11, kLast, "5fK"}, {12, kLast, "f"},
            {14, kLast, "K"}, {15, kLast, "K"}, {16, kLast, "K"}, {17, kLast, "i"},
            {18, kLast, "i"}, {19, kLast, "K"}, {20, kLast, "3f"}, {21, kLast, "3i"},
            {23, kLast, "b2fK"}, {24, kLast, "i"}, {25, kLast, "bf"}, {26, kLast, "f"},
            {27, 33, "3fk"}, {28, 33, "k"}, {29, kLast, "i2f"}, {30, 33, "k"}, {31, 33, "k"},
            {32, 33, "fk"}, {35, kLast, "b"}, {36, kLast, "bKk"}}}},
        {0x090ED08C, {1, 0, {
            {0, kLast, "4f"}, {1, kLast, "f"}}}},
        {0x090ED08D, {6, 0, {
            {0, kLast, "fb"}, {2, kLast, "b"}, {1, kLast, "2f"}, {3, 3, "2f"}, {4, kLast, "f"},
            {5, kLast, "b"}}}},
        {0x090ED08E, {4, 0, {
            {0, kLast, "A"}, {1, kLast, "A"}, {2, kLast, "k"}, {3, kLast, "k"}, {4, kLast, "R"}}}},
        {0x090ED094, {5, 3, {
            {0, kLast, "fKifKi"}, {1, kLast, "2i"}, {2, kLast, "fK2i"}, {3, 3, "i"},
            {4, kLast, "i"}}}},
        {0x090ED095, {7, 1, {
            {0, kLast, "ifKb3f"}, {1, kLast, "i"}, {2, kLast, "iKK"}, {3, kLast, "K"},
            {4, kLast, "i"}, {5, kLast, "2iKi"}, {6, kLast, "K"}}}},
        {0x090ED096, {5, 0, {
            {0, kLast, "9f"}, {2, kLast, "f"}, {0, kLast, "6fFFF"}, {3, kLast, "f"},
            {4, kLast, "b"}, {5, kLast, "f"}}}},
        {0x090ED097, {2, 0, {
            {0, kLast, "6fb"}, {2, kLast, "k"}}}},
        {0x090ED098, {2, 0, {
            {0, kLast, "fi2fi3f"}, {2, kLast, "b"}}}},
        {0x090ED099, {0, 0, {
            {0, kLast, "k"}}}},
        {0x090ED09A, {0, 0, {
            {0, kLast, "k"}}}},
        {0x090ED09B, {4, 0, {
            {0, kLast, "6f3i"}, {1, kLast, "13f"}, {2, kLast, "f"}, {3, kLast, "7f"},
            {4, kLast, "I"}}}},
        {0x090ED09C, {20, 21, {
            {0, 17, "f"}, {18, kLast, "KKK"}, {0, kLast, "2fkkkKK"}, {1, kLast, "KK"},
            {2, kLast, "f"}, {3, 3, "f"}, {4, kLast, "k"}, {5, kLast, "fK3f"}, {6, kLast, "f"},
            {7, kLast, "iK"}, {8, kLast, "K"}, {9, kLast, "f"}, {10, kLast, "f"}, {11, kLast, "KK"},
            {12, kLast, "K"}, {13, kLast, "K"}, {15, kLast, "f"}, {16, kLast, "f"},
            {19, kLast, "K"}, {20, kLast, "f"}}}},
        {0x090ED09D, {20, 21, {
            {0, 0, "b4fb2f"}, {1, kLast, "KfK2f2fKK"}, {2, kLast, "K"}, {3, kLast, "KK"},
            {4, kLast, "2f"}, {5, kLast, "fKKKK"}, {6, kLast, "K"}, {0, 7, "KKKKKK"},
            {8, kLast, "fK"}, {9, kLast, "3f"}, {10, kLast, "K"}, {11, kLast, "f"},
            {12, kLast, "K"}, {13, kLast, "K"}, {14, kLast, "K"}, {15, kLast, "2f"},
            {16, kLast, "f"}, {17, kLast, "f"}, {18, kLast, "K"}, {19, kLast, "f"},
            {20, kLast, "k"}}}},
        {0x090ED09E, {7, 8, {
            {0, kLast, "3f"}, {1, kLast, "f"}, {2, kLast, "if"}, {3, kLast, "f"}, {4, kLast, "fK"},
            {4, 6, "f"}, {7, kLast, "I"}, {5, kLast, "f"}, {6, kLast, "2f"}}}},
        {0x090ED09F, {13, 14, {
            {0, kLast, "K3f"}, {1, kLast, "f"}, {2, kLast, "K"}, {3, kLast, "K"}, {4, kLast, "6f"},
            {5, kLast, "f"}, {6, kLast, "K"}, {7, kLast, "fKKf"}, {8, kLast, "4f"},
            {9, kLast, "vv"}, {10, kLast, "K"}, {11, kLast, "K"}, {12, kLast, "b"},
            {13, kLast, "5i"}}}},
        {0x090ED0A0, {2, 0, {
            {1, kLast, "5f"}, {2, kLast, "5f"}}}},
        {0x090ED0A1, {0, 0, {
            {0, kLast, "II2fII5fI"}}}},
        {0x090ED0A2, {0, 2, {
            {0, kLast, "KKKKKKKKKKKK"}}}},
        {0x090ED0A3, {12, 13, {
            {0, kLast, "2f2i"}, {1, kLast, "f"}, {2, kLast, "4f"}, {3, kLast, "f"},
            {4, kLast, "kf3i"}, {5, kLast, "ikkKK"}, {6, kLast, "i"}, {7, kLast, "i"},
            {8, kLast, "i"}, {9, kLast, "fi"}, {10, kLast, "i"}, {11, kLast, "f"},
            {12, kLast, "KK"}}}},
        {0x090ED0A4, {18, 14, {
            {0, kLast, "f"}, {1, kLast, "f"}, {2, kLast, "i"}, {3, kLast, "iK2f"},
            {4, kLast, "fif"}, {5, kLast, "K"}, {6, kLast, "K"}, {7, kLast, "Ki"}, {8, kLast, "KK"},
            {9, kLast, "i"}, {10, kLast, "i"}, {11, 17, "3i"}, {12, kLast, "K"}, {13, 17, "i"},
            {15, kLast, "i"}, {16, kLast, "f"}, {18, kLast, "i"}}}},
        {0x090ED0A5, {1, 1, {
            {0, kLast, "iiii4i6fKKKKKKIKKKK"}}}},
        {0x090ED0A6, {15, 11, {
            {0, kLast, "KKK3i"}, {1, kLast, "fKKfK"}, {2, kLast, "f"}, {3, kLast, "K"},
            {4, kLast, "K"}, {5, kLast, "2i"}, {6, 13, "K"}, {7, 13, "K"}, {8, kLast, "KK"},
            {9, kLast, "K"}, {10, kLast, "K"}, {12, 13, "2i"}, {13, kLast, "2i"}, {14, 14, "i"},
            {15, kLast, "I"}}}},
        {0x090ED0A7, {18, 19, {
            {0, kLast, "3i4fKK"}, {1, kLast, "i"}, {2, kLast, "iK"}, {3, kLast, "i"},
            {4, kLast, "2f2i"}, {5, kLast, "2i"}, {6, kLast, "k"}, {7, kLast, "i"}, {8, kLast, "K"},
            {9, kLast, "KKi"}, {10, kLast, "fK"}, {11, kLast, "K"}, {12, kLast, "2f"},
            {13, kLast, "K"}, {14, kLast, "KK"}, {15, kLast, "i"}, {16, kLast, "K"},
            {17, kLast, "K"}, {18, kLast, "2f"}}}},
        {0x090ED0A8, {9, 10, {
            {0, kLast, "iK"}, {1, kLast, "KK"}, {2, kLast, "K"}, {3, kLast, "K"}, {4, kLast, "i"},
            {5, kLast, "if"}, {6, kLast, "K"}, {7, kLast, "K"}, {8, kLast, "2f"},
            {9, kLast, "K"}}}},
        {0x090ED0A9, {3, 4, {
            {0, kLast, "2iKK"}, {1, kLast, "i"}, {2, kLast, "ifKK"}, {3, kLast, "K"}}}},
        {0x090ED0AA, {0, 0, {
            {0, kLast, "f"}}}},
        {0x090ED0AB, {0, 1, {
            {0, kLast, "2ifK"}}}},
        {0x090ED0AC, {0, 0, {
            {0, kLast, "i"}}}},
        {0x090ED0AD, {11, 10, {
            {0, kLast, "Kifik4ikK2ikKk"}, {1, kLast, "KKKK"}, {2, kLast, "3i"}, {3, kLast, "KK"},
            {4, kLast, "Kf"}, {5, kLast, "f"}, {6, kLast, "K"}, {7, kLast, "kk"}, {8, kLast, "K"},
            {9, kLast, "f"}, {11, kLast, "i"}}}},
        {0x090ED0AE, {1, 2, {
            {0, kLast, "iK"}, {1, kLast, "f"}}}},
        {0x090ED0AF, {0, 0, {
            {0, kLast, "I4fIIII5fI3fIIfI2fIII3fIIIIfII2fIII9fi2fi4fII5fI2fIiIIfIIII"}}}},
        {0x090ED0B0, {1, 0, {
            {0, kLast, "f"}, {1, kLast, "f"}}}},
        // clang-format on
    };
    return table;
}

void versionedChunk(NodeReader& r) {
    const std::uint32_t id = r.generalChunkId();
    const VersionedChunk& chunk = versionedChunks().at(id);
    char what[32];
    std::snprintf(what, sizeof what, "car tuning %08X", unsigned(id));
    const std::uint32_t v = version(r, chunk.highest, what);
    for (const VersionedRow& row : chunk.rows)
        if (v >= row.from && v <= row.to) fields(r, row.spec, v >= chunk.inlineKeysFrom);
}

// CPlugVehiclePhyTuning 000 [G]: its name (an Id), a curve, a float; then the game mixes the
// name's first four characters into the cipher ([G] CPlugVehiclePhyTuning.cs), so a name
// shorter than that, or one a chunk skipped by size hides, stops the reader.
void phyTuning(NodeReader& r) {
    std::string name = r.decidingLookback("the cipher mix of 090EB000");
    r.nodeRef();
    r.f32();
    if (name.size() < 4)
        r.fail("vehicle tuning 090EB000: name \"" + name +
               "\" is shorter than the 4 characters the game mixes into the cipher");
    r.note("name", name);
    std::uint32_t mix = 0;
    for (int i = 3; i >= 0; --i) mix = (mix << 8) | static_cast<std::uint8_t>(name[i]);
    r.mixIntoCipher(mix);
}

// CPlugVehiclePhyModel 008 [G]: a shape, (1+) occupant slots read at the chunk's version,
// (6+) a vec3 array, (10..13) an int, (12+) an int.
void occupantSlot(NodeReader& r, std::uint32_t v) {
    r.u8();
    if (v < 2) return;
    r.lookback();
    if (v < 3) return;
    r.vec3();
    if (v < 4) return;
    if (!r.boolean()) return;
    r.u32();
    r.f32();
    r.skip(8);  // 2 ints
    if (v < 5) return;
    r.boolean();
    if (v < 7) return;
    r.u8();
    if (v < 8) return;
    r.boolean();
    r.f32();
}

void phyModelShape(NodeReader& r) {
    const std::uint32_t v = version(r, 13, "vehicle physics model 090EA008");
    r.nodeRef();  // CPlugVehicleCarPhyShape
    if (v >= 1) {
        const std::uint32_t slots = r.count(1);
        for (std::uint32_t i = 0; i < slots; ++i) occupantSlot(r, v);
    }
    if (v < 6) return;
    r.skipArray(12);
    if (v >= 10 && v <= 13) r.u32();
    if (v >= 12) r.u32();
}

// CPlugVehicleCarPhyShape 000 [G].
void carPhyShape(NodeReader& r) {
    const std::uint32_t v = version(r, 6, "vehicle car shape 0910E000");
    r.f32();
    NodeRef solid = r.nodeRef();
    if (v >= 1 && solid.kind == RefKind::Null) r.nodeRef();  // move shape (CPlugSurface)
    // wheels (CPlugVehicleWheelPhyModel, an archive [G]): driving, steering, an Id
    const std::uint32_t wheels = r.count(12);
    for (std::uint32_t i = 0; i < wheels; ++i) {
        r.boolean();
        r.boolean();
        r.lookback();
    }
    floats(r, 6);  // aligned box
    r.boolean();
    floats(r, 9);
    r.skipArray(16);  // vec4 array
    floats(r, 6);     // car versus car box
    r.boolean();
    r.boolean();
    floats(r, 2);
    r.boolean();
    r.f32();
    r.boolean();
    r.f32();
    r.boolean();
    floats(r, 3);
    if (v < 2) return;
    floats(r, 3);
    if (v < 3) return;
    if (r.string("car shape surface name").empty()) r.nodeRef();
    if (v < 4) return;
    r.skipArray(12);
    if (v < 5) return;
    r.nodeRef();
    if (v < 6) return;
    r.nodeRef();
    r.nodeRef();
}

// CPlugCamShakeModel 000 [G]: two ints, four floats, (2+) a float, (3+) two ints, five floats.
void camShake(NodeReader& r) {
    const std::uint32_t v = version(r, 3, "camera shake 0910B000");
    r.skip(8);  // 2 ints
    floats(r, 4);
    if (v < 2) return;
    r.f32();
    if (v < 3) return;
    r.skip(8);  // 2 ints
    floats(r, 5);
}

// CPlugVehicleCameraRace3Model 005 [G]: chunk 000's fields after a version, then a curve (2+),
// a float (3+), three (5+) and nine more fields (6+).
void race3Versioned(NodeReader& r) {
    const std::uint32_t v = version(r, 6, "race camera 090EF005");
    fields(r, fieldChunks().at(0x090EF000));
    if (v < 2) return;
    r.nodeRef();
    if (v < 3) return;
    r.f32();
    if (v < 5) return;
    fields(r, "fff");
    if (v < 6) return;
    fields(r, "fiifiifii");
}

// CPlugVehicleCameraRace2Model 002 [G]: an Id, five floats, (2+) six fields.
void race2Versioned(NodeReader& r) {
    const std::uint32_t v = version(r, 2, "race camera 090F6002");
    r.lookback();
    floats(r, 5);
    if (v >= 2) fields(r, "fiifii");
}

// CPlugVehicleCameraInternalModel 000 [G]: an Id, (2+) a position and a field of view, (3+) a
// vec3, (4+) first person and pitch, yaw, roll, (5+) blending, (6+) a float, (7+ and 8+) three
// fields each.
void internalCamera(NodeReader& r) {
    const std::uint32_t v = version(r, 8, "internal camera 090F7000");
    r.lookback();
    if (v >= 2) {
        r.vec3();
        r.f32();
        if (v >= 3) r.vec3();
    }
    if (v < 4) return;
    r.boolean();
    r.vec3();
    if (v < 5) return;
    r.boolean();
    if (v < 6) return;
    r.f32();
    if (v < 7) return;
    fields(r, "fii");
    if (v < 8) return;
    fields(r, "fii");
}

// CPlugVehicleGearBox 001 [G] (ManiaPlanet's 09094000, a D3D GPU effect file in TMF's class
// tree): gear ratios, a bool, two ints, six floats, (1+) and (2+) a float each.
void gearBox(NodeReader& r) {
    const std::uint32_t v = version(r, 2, "gear box 09094001");
    r.skipArray(4);
    fields(r, "biiffffff");
    if (v >= 1) r.f32();
    if (v >= 2) r.f32();
}

}  // namespace

void registerPlugVehicle(ChunkRegistry& reg) {
    for (const auto& [id, spec] : fieldChunks()) reg.add(id, false, fieldChunk);
    for (const auto& [id, chunk] : versionedChunks()) reg.add(id, false, versionedChunk);
    reg.add(0x090EB000, false, phyTuning);
    reg.add(0x090EB001, false, [](NodeReader& r) { r.boolean(); });
    // CPlugVehiclePhyTunings 000 [G]: the tunings, then the index of the one in use.
    reg.add(0x090EC000, false, [](NodeReader& r) {
        deprecRefArray(r);
        r.u32();
    });
    // CPlugVehiclePhyModel [G]: 002 its reference buffer, 003 its tunings, 009 (0..1) two
    // reference buffers.
    reg.add(0x090EA002, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x090EA003, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x090EA008, false, phyModelShape);
    reg.add(0x090EA009, false, [](NodeReader& r) {
        const std::uint32_t v = version(r, 1, "vehicle physics model 090EA009");
        if (v <= 1) {
            r.nodeRef();
            r.nodeRef();
        }
    });
    reg.add(0x0910E000, false, carPhyShape);
    reg.add(0x0910B000, false, camShake);
    // CPlugCamControlModel 000 [G]: a version and its shake model.
    reg.add(0x0910C000, false, [](NodeReader& r) {
        version(r, 0, "camera control 0910C000");
        r.nodeRef();
    });
    reg.add(0x090EF005, false, race3Versioned);
    reg.add(0x090F6002, false, race2Versioned);
    reg.add(0x090F7000, false, internalCamera);
    reg.add(0x09094001, false, gearBox);
}

}  // namespace pakfs::gbx::chunks
