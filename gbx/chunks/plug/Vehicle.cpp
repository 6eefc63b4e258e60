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
#include <unordered_map>

#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

std::uint32_t deprecRefArray(NodeReader& r) {
    r.u32();  // array version
    return refArray(r);
}

// A chunk of plain fields, one letter each: f float, i int, b bool, v vec3, d Id (lookback
// string), k node reference (a CFuncKeysReal), F float array (u32 count then the floats).
void fields(NodeReader& r, std::string_view spec) {
    for (char c : spec) {
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

// CPlugVehicleCarPhyTuning's Keys [G]: from `v` 0 on, inline keys (a keys version, a count, by
// that version a byte, an int or a short, then count (x, y) pairs); below 0 (the chunk's
// version older than the inline form), a CFuncKeysReal node reference.
void keys(NodeReader& r, int v) {
    if (v < 0) {
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

void carTuning089(NodeReader& r) {
    const std::uint32_t v = version(r, 9, "car tuning 090ED089");
    keys(r, int(v) - 10);
    if (v <= 2) {
        r.nodeRef();
    }
    if (v < 2) return;
    floats(r, 4);
    if (v < 4) return;
    floats(r, 11);
    if (v < 6) return;
    r.f32();
    if (v < 7) return;
    r.boolean();
    if (v < 8) return;
    keys(r, int(v) - 10);
    keys(r, int(v) - 10);
    if (v < 9) return;
    keys(r, int(v) - 10);
}

void carTuning08A(NodeReader& r) {
    const std::uint32_t v = version(r, 7, "car tuning 090ED08A");
    floats(r, 4);
    keys(r, int(v) - 8);
    keys(r, int(v) - 8);
    keys(r, int(v) - 8);
    keys(r, int(v) - 8);
    if (v < 1) return;
    if (v <= 3) {
        floats(r, 2);
    }
    if (v >= 4) {
        keys(r, int(v) - 8);
        keys(r, int(v) - 8);
    }
    if (v < 3) return;
    r.u32();
    if (v == 5) {
        r.f32();
    }
    if (v < 6) return;
    keys(r, int(v) - 8);
    if (v < 7) return;
    r.boolean();
}

void carTuning08B(NodeReader& r) {
    const std::uint32_t v = version(r, 36, "car tuning 090ED08B");
    if (v <= 2) {
        r.f32();
    }
    if (v <= 10) {
        r.f32();
        r.nodeRef();
    }
    if (v <= 9) {
        r.f32();
    }
    if (v <= 8) {
        r.nodeRef();
    }
    r.f32();
    if (v <= 9) {
        r.f32();
    }
    if (v <= 10) {
        r.nodeRef();
    }
    if (v >= 1) {
        r.boolean();
    }
    if (v >= 3) {
        if (v <= 9) {
            floats(r, 2);
        }
    }
    if (v < 4) return;
    keys(r, int(v) - 37);
    if (v < 5) return;
    if (v <= 9) {
        r.skip(8);  // 2 ints
    }
    if (v >= 9) {
        keys(r, int(v) - 37);
        if (v >= 13) {
            if (v <= 22) {
                r.f32();
            }
            if (v >= 22) {
                keys(r, int(v) - 37);
            }
            r.f32();
        }
    }
    if (v < 6) return;
    keys(r, int(v) - 37);
    if (v < 7) return;
    r.f32();
    if (v < 10) return;
    keys(r, int(v) - 37);
    keys(r, int(v) - 37);
    keys(r, int(v) - 37);
    if (v < 11) return;
    floats(r, 5);
    keys(r, int(v) - 37);
    if (v < 12) return;
    r.f32();
    if (v < 14) return;
    keys(r, int(v) - 37);
    if (v < 15) return;
    keys(r, int(v) - 37);
    if (v < 16) return;
    keys(r, int(v) - 37);
    if (v < 17) return;
    r.u32();
    if (v < 18) return;
    r.u32();
    if (v < 19) return;
    keys(r, int(v) - 37);
    if (v < 20) return;
    floats(r, 3);
    if (v < 21) return;
    r.skip(12);  // 3 ints
    if (v < 23) return;
    r.boolean();
    floats(r, 2);
    keys(r, int(v) - 37);
    if (v < 24) return;
    r.u32();
    if (v < 25) return;
    r.boolean();
    r.f32();
    if (v < 26) return;
    r.f32();
    if (v < 27) return;
    if (v <= 33) {
        floats(r, 3);
        r.nodeRef();
    }
    if (v < 28) return;
    if (v <= 33) {
        r.nodeRef();
    }
    if (v >= 29) {
        r.u32();
        floats(r, 2);
        if (v <= 33) {
            if (v >= 30) {
                r.nodeRef();
            }
            if (v >= 31) {
                r.nodeRef();
            }
            if (v >= 32) {
                r.f32();
                r.nodeRef();
            }
        }
        if (v >= 35) {
            r.boolean();
            if (v >= 36) {
                r.boolean();
                keys(r, int(v) - 37);
                r.nodeRef();
            }
        }
    }
}

void carTuning08C(NodeReader& r) {
    const std::uint32_t v = version(r, 1, "car tuning 090ED08C");
    floats(r, 4);
    if (v < 1) return;
    r.f32();
}

void carTuning08D(NodeReader& r) {
    const std::uint32_t v = version(r, 6, "car tuning 090ED08D");
    r.f32();
    r.boolean();
    if (v >= 2) {
        r.boolean();
    }
    if (v >= 1) {
        floats(r, 2);
    }
    if (v == 3) {
        floats(r, 2);
    }
    if (v >= 4) {
        r.f32();
    }
    if (v < 5) return;
    r.boolean();
    if (v == 5) {
    }
}

void carTuning08E(NodeReader& r) {
    const std::uint32_t v = version(r, 4, "car tuning 090ED08E");
    deprecRefArray(r);
    if (v < 1) return;
    deprecRefArray(r);
    if (v < 2) return;
    r.nodeRef();
    if (v < 3) return;
    r.nodeRef();
    if (v < 4) return;
    refArray(r);
}

void carTuning094(NodeReader& r) {
    const std::uint32_t v = version(r, 5, "car tuning 090ED094");
    r.f32();
    keys(r, int(v) - 3);
    r.u32();
    r.f32();
    keys(r, int(v) - 3);
    r.u32();
    if (v < 1) return;
    r.skip(8);  // 2 ints
    if (v < 2) return;
    r.f32();
    keys(r, int(v) - 3);
    r.skip(8);  // 2 ints
    if (v == 3) {
        r.u32();
    }
    if (v < 4) return;
    r.u32();
}

void carTuning095(NodeReader& r) {
    const std::uint32_t v = version(r, 7, "car tuning 090ED095");
    r.u32();
    r.f32();
    keys(r, int(v) - 1);
    r.boolean();
    floats(r, 3);
    if (v < 1) return;
    r.u32();
    if (v < 2) return;
    r.u32();
    keys(r, int(v) - 1);
    keys(r, int(v) - 1);
    if (v < 3) return;
    keys(r, int(v) - 1);
    if (v < 4) return;
    r.u32();
    if (v < 5) return;
    r.skip(8);  // 2 ints
    keys(r, int(v) - 1);
    r.u32();
    if (v < 6) return;
    keys(r, int(v) - 1);
}

void carTuning096(NodeReader& r) {
    const std::uint32_t v = version(r, 5, "car tuning 090ED096");
    floats(r, 9);
    if (v >= 2) {
        r.f32();
    }
    floats(r, 6);
    r.skipArray(4);
    r.skipArray(4);
    r.skipArray(4);
    if (v < 3) return;
    r.f32();
    if (v < 4) return;
    r.boolean();
    if (v < 5) return;
    r.f32();
}

void carTuning097(NodeReader& r) {
    const std::uint32_t v = version(r, 2, "car tuning 090ED097");
    floats(r, 6);
    r.boolean();
    if (v < 2) return;
    r.nodeRef();
}

void carTuning098(NodeReader& r) {
    const std::uint32_t v = version(r, 2, "car tuning 090ED098");
    r.f32();
    r.u32();
    floats(r, 2);
    r.u32();
    floats(r, 3);
    if (v < 2) return;
    r.boolean();
}

void carTuning099(NodeReader& r) {
    version(r, 0, "car tuning 090ED099");
    r.nodeRef();
}

void carTuning09A(NodeReader& r) {
    version(r, 0, "car tuning 090ED09A");
    r.nodeRef();
}

void carTuning09B(NodeReader& r) {
    const std::uint32_t v = version(r, 4, "car tuning 090ED09B");
    floats(r, 6);
    r.skip(12);  // 3 ints
    if (v < 1) return;
    floats(r, 13);
    if (v < 2) return;
    r.f32();
    if (v < 3) return;
    floats(r, 7);
    if (v < 4) return;
    keys(r, 0);
}

void carTuning09C(NodeReader& r) {
    const std::uint32_t v = version(r, 20, "car tuning 090ED09C");
    if (v <= 17) {
        r.f32();
    }
    if (v >= 18) {
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
    }
    floats(r, 2);
    r.nodeRef();
    r.nodeRef();
    r.nodeRef();
    keys(r, int(v) - 21);
    keys(r, int(v) - 21);
    if (v >= 1) {
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
    }
    if (v >= 2) {
        r.f32();
    }
    if (v == 3) {
        r.f32();
    }
    if (v < 4) return;
    r.nodeRef();
    if (v < 5) return;
    r.f32();
    keys(r, int(v) - 21);
    floats(r, 3);
    if (v < 6) return;
    r.f32();
    if (v < 7) return;
    r.u32();
    keys(r, int(v) - 21);
    if (v < 8) return;
    keys(r, int(v) - 21);
    if (v < 9) return;
    r.f32();
    if (v < 10) return;
    r.f32();
    if (v < 11) return;
    keys(r, int(v) - 21);
    keys(r, int(v) - 21);
    if (v < 12) return;
    keys(r, int(v) - 21);
    if (v < 13) return;
    keys(r, int(v) - 21);
    if (v < 15) return;
    r.f32();
    if (v < 16) return;
    r.f32();
    if (v < 19) return;
    keys(r, int(v) - 21);
    if (v < 20) return;
    r.f32();
}

void carTuning09D(NodeReader& r) {
    const std::uint32_t v = version(r, 20, "car tuning 090ED09D");
    if (v == 0) {
        r.boolean();
        floats(r, 4);
        r.boolean();
        floats(r, 2);
    }
    if (v >= 1) {
        if (v <= 20) {
            keys(r, int(v) - 21);
            r.f32();
            keys(r, int(v) - 21);
            floats(r, 2);
        }
        floats(r, 2);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
    }
    if (v >= 2) {
        if (v <= 20) {
            keys(r, int(v) - 21);
        }
    }
    if (v >= 3) {
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
    }
    if (v >= 4) {
        floats(r, 2);
    }
    if (v >= 5) {
        r.f32();
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        if (v <= 20) {
            keys(r, int(v) - 21);
        }
    }
    if (v >= 6) {
        keys(r, int(v) - 21);
    }
    if (v <= 7) {
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
        keys(r, int(v) - 21);
    }
    if (v >= 8) {
        r.f32();
        keys(r, int(v) - 21);
    }
    if (v >= 9) {
        floats(r, 3);
    }
    if (v >= 10) {
        keys(r, int(v) - 21);
    }
    if (v >= 11) {
        r.f32();
    }
    if (v >= 12) {
        keys(r, int(v) - 21);
    }
    if (v >= 13) {
        keys(r, int(v) - 21);
    }
    if (v >= 14) {
        keys(r, int(v) - 21);
    }
    if (v >= 15) {
        floats(r, 2);
    }
    if (v >= 16) {
        r.f32();
    }
    if (v >= 17) {
        r.f32();
    }
    if (v >= 18) {
        keys(r, int(v) - 21);
    }
    if (v >= 19) {
        r.f32();
    }
    if (v < 20) return;
    r.nodeRef();
}

void carTuning09E(NodeReader& r) {
    const std::uint32_t v = version(r, 7, "car tuning 090ED09E");
    floats(r, 3);
    if (v < 1) return;
    r.f32();
    if (v < 2) return;
    r.u32();
    r.f32();
    if (v < 3) return;
    r.f32();
    if (v < 4) return;
    r.f32();
    keys(r, int(v) - 8);
    if (v <= 6) {
        r.f32();
    }
    if (v >= 7) {
        keys(r, 0);
    }
    if (v < 5) return;
    r.f32();
    if (v < 6) return;
    floats(r, 2);
}

void carTuning09F(NodeReader& r) {
    const std::uint32_t v = version(r, 13, "car tuning 090ED09F");
    keys(r, int(v) - 14);
    floats(r, 3);
    if (v < 1) return;
    r.f32();
    if (v < 2) return;
    keys(r, int(v) - 14);
    if (v < 3) return;
    keys(r, int(v) - 14);
    if (v < 4) return;
    floats(r, 6);
    if (v < 5) return;
    r.f32();
    if (v < 6) return;
    keys(r, int(v) - 14);
    if (v < 7) return;
    r.f32();
    keys(r, int(v) - 14);
    keys(r, int(v) - 14);
    r.f32();
    if (v < 8) return;
    floats(r, 4);
    if (v < 9) return;
    r.vec3();
    r.vec3();
    if (v < 10) return;
    keys(r, int(v) - 14);
    if (v < 11) return;
    keys(r, int(v) - 14);
    if (v < 12) return;
    r.boolean();
    if (v < 13) return;
    r.skip(20);  // 5 ints
}

void carTuning0A0(NodeReader& r) {
    const std::uint32_t v = version(r, 2, "car tuning 090ED0A0");
    if (v < 1) return;
    floats(r, 5);
    if (v < 2) return;
    floats(r, 5);
}

void carTuning0A1(NodeReader& r) {
    version(r, 0, "car tuning 090ED0A1");
    keys(r, 0);
    keys(r, 0);
    floats(r, 2);
    keys(r, 0);
    keys(r, 0);
    floats(r, 5);
    keys(r, 0);
}

void carTuning0A2(NodeReader& r) {
    const std::uint32_t v = version(r, 0, "car tuning 090ED0A2");
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
    keys(r, int(v) - 2);
}

void carTuning0A3(NodeReader& r) {
    const std::uint32_t v = version(r, 12, "car tuning 090ED0A3");
    floats(r, 2);
    r.skip(8);  // 2 ints
    if (v < 1) return;
    r.f32();
    if (v < 2) return;
    floats(r, 4);
    if (v < 3) return;
    r.f32();
    if (v < 4) return;
    r.nodeRef();
    r.f32();
    r.skip(12);  // 3 ints
    if (v < 5) return;
    r.u32();
    r.nodeRef();
    r.nodeRef();
    keys(r, int(v) - 13);
    keys(r, int(v) - 13);
    if (v < 6) return;
    r.u32();
    if (v < 7) return;
    r.u32();
    if (v < 8) return;
    r.u32();
    if (v < 9) return;
    r.f32();
    r.u32();
    if (v < 10) return;
    r.u32();
    if (v < 11) return;
    r.f32();
    if (v < 12) return;
    keys(r, int(v) - 13);
    keys(r, int(v) - 13);
}

void carTuning0A4(NodeReader& r) {
    const std::uint32_t v = version(r, 18, "car tuning 090ED0A4");
    r.f32();
    if (v >= 1) {
        r.f32();
    }
    if (v >= 2) {
        r.u32();
    }
    if (v >= 3) {
        r.u32();
        keys(r, int(v) - 14);
        floats(r, 2);
    }
    if (v >= 4) {
        r.f32();
        r.u32();
        r.f32();
    }
    if (v >= 5) {
        keys(r, int(v) - 14);
    }
    if (v >= 6) {
        keys(r, int(v) - 14);
    }
    if (v >= 7) {
        keys(r, int(v) - 14);
        r.u32();
    }
    if (v >= 8) {
        keys(r, int(v) - 14);
        keys(r, int(v) - 14);
    }
    if (v >= 9) {
        r.u32();
    }
    if (v >= 10) {
        r.u32();
    }
    if (v >= 11) {
        if (v <= 17) {
            r.skip(12);  // 3 ints
        }
    }
    if (v >= 12) {
        keys(r, int(v) - 14);
    }
    if (v >= 13) {
        if (v <= 17) {
            r.u32();
        }
    }
    if (v >= 15) {
        r.u32();
    }
    if (v >= 16) {
        r.f32();
    }
    if (v < 18) return;
    r.u32();
}

void carTuning0A5(NodeReader& r) {
    const std::uint32_t v = version(r, 1, "car tuning 090ED0A5");
    if (v <= 1) {
        r.u32();
    }
    r.u32();
    if (v <= 1) {
        r.u32();
    }
    r.u32();
    if (v <= 1) {
        r.skip(16);  // 4 ints
    }
    floats(r, 6);
    if (v <= 1) {
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
    }
    keys(r, 0);
    if (v <= 1) {
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
        keys(r, int(v) - 1);
    }
    keys(r, int(v) - 1);
}

void carTuning0A6(NodeReader& r) {
    const std::uint32_t v = version(r, 15, "car tuning 090ED0A6");
    keys(r, int(v) - 11);
    keys(r, int(v) - 11);
    keys(r, int(v) - 11);
    r.skip(12);  // 3 ints
    if (v >= 1) {
        r.f32();
        keys(r, int(v) - 11);
        keys(r, int(v) - 11);
        r.f32();
        keys(r, int(v) - 11);
    }
    if (v >= 2) {
        r.f32();
    }
    if (v >= 3) {
        keys(r, int(v) - 11);
    }
    if (v >= 4) {
        keys(r, int(v) - 11);
    }
    if (v >= 5) {
        r.skip(8);  // 2 ints
    }
    if (v >= 6) {
        if (v <= 13) {
            keys(r, int(v) - 11);
        }
    }
    if (v >= 7) {
        if (v <= 13) {
            keys(r, int(v) - 11);
        }
    }
    if (v >= 8) {
        keys(r, int(v) - 11);
        keys(r, int(v) - 11);
    }
    if (v >= 9) {
        keys(r, int(v) - 11);
    }
    if (v >= 10) {
        keys(r, int(v) - 11);
    }
    if (v >= 12) {
        if (v <= 13) {
            r.skip(8);  // 2 ints
        }
    }
    if (v >= 13) {
        r.skip(8);  // 2 ints
    }
    if (v == 14) {
        r.u32();
    }
    if (v < 15) return;
    keys(r, 0);
}

void carTuning0A7(NodeReader& r) {
    const std::uint32_t v = version(r, 18, "car tuning 090ED0A7");
    r.skip(12);  // 3 ints
    floats(r, 4);
    keys(r, int(v) - 19);
    keys(r, int(v) - 19);
    if (v >= 1) {
        r.u32();
    }
    if (v >= 2) {
        r.u32();
        keys(r, int(v) - 19);
    }
    if (v >= 3) {
        r.u32();
    }
    if (v >= 4) {
        floats(r, 2);
        r.skip(8);  // 2 ints
    }
    if (v >= 5) {
        r.skip(8);  // 2 ints
    }
    if (v >= 6) {
        r.nodeRef();
    }
    if (v >= 7) {
        r.u32();
    }
    if (v >= 8) {
        keys(r, int(v) - 19);
    }
    if (v >= 9) {
        keys(r, int(v) - 19);
        keys(r, int(v) - 19);
        r.u32();
    }
    if (v >= 10) {
        r.f32();
        keys(r, int(v) - 19);
    }
    if (v >= 11) {
        keys(r, int(v) - 19);
    }
    if (v >= 12) {
        floats(r, 2);
    }
    if (v >= 13) {
        keys(r, int(v) - 19);
    }
    if (v >= 14) {
        keys(r, int(v) - 19);
        keys(r, int(v) - 19);
    }
    if (v >= 15) {
        r.u32();
    }
    if (v >= 16) {
        keys(r, int(v) - 19);
    }
    if (v >= 17) {
        keys(r, int(v) - 19);
    }
    if (v < 18) return;
    floats(r, 2);
}

void carTuning0A8(NodeReader& r) {
    const std::uint32_t v = version(r, 9, "car tuning 090ED0A8");
    r.u32();
    keys(r, int(v) - 10);
    if (v >= 1) {
        keys(r, int(v) - 10);
        keys(r, int(v) - 10);
    }
    if (v >= 2) {
        keys(r, int(v) - 10);
    }
    if (v >= 3) {
        keys(r, int(v) - 10);
    }
    if (v >= 4) {
        r.u32();
    }
    if (v >= 5) {
        r.u32();
        r.f32();
    }
    if (v >= 6) {
        keys(r, int(v) - 10);
    }
    if (v >= 7) {
        keys(r, int(v) - 10);
    }
    if (v >= 8) {
        floats(r, 2);
    }
    if (v < 9) return;
    keys(r, int(v) - 10);
}

void carTuning0A9(NodeReader& r) {
    const std::uint32_t v = version(r, 3, "car tuning 090ED0A9");
    r.skip(8);  // 2 ints
    keys(r, int(v) - 4);
    keys(r, int(v) - 4);
    if (v >= 1) {
        r.u32();
    }
    if (v >= 2) {
        r.u32();
        r.f32();
        keys(r, int(v) - 4);
        keys(r, int(v) - 4);
    }
    if (v < 3) return;
    keys(r, int(v) - 4);
}

void carTuning0AA(NodeReader& r) {
    version(r, 0, "car tuning 090ED0AA");
    r.f32();
}

void carTuning0AB(NodeReader& r) {
    const std::uint32_t v = version(r, 0, "car tuning 090ED0AB");
    r.skip(8);  // 2 ints
    r.f32();
    keys(r, int(v) - 1);
}

void carTuning0AC(NodeReader& r) {
    version(r, 0, "car tuning 090ED0AC");
    r.u32();
}

void carTuning0AD(NodeReader& r) {
    const std::uint32_t v = version(r, 11, "car tuning 090ED0AD");
    keys(r, int(v) - 10);
    r.u32();
    r.f32();
    r.u32();
    r.nodeRef();
    r.skip(16);  // 4 ints
    r.nodeRef();
    keys(r, int(v) - 10);
    r.skip(8);  // 2 ints
    r.nodeRef();
    keys(r, int(v) - 10);
    r.nodeRef();
    if (v >= 1) {
        keys(r, int(v) - 10);
        keys(r, int(v) - 10);
        keys(r, int(v) - 10);
        keys(r, int(v) - 10);
    }
    if (v >= 2) {
        r.skip(12);  // 3 ints
    }
    if (v >= 3) {
        keys(r, int(v) - 10);
        keys(r, int(v) - 10);
    }
    if (v >= 4) {
        keys(r, int(v) - 10);
        r.f32();
    }
    if (v >= 5) {
        r.f32();
    }
    if (v >= 6) {
        keys(r, int(v) - 10);
    }
    if (v >= 7) {
        r.nodeRef();
        r.nodeRef();
    }
    if (v >= 8) {
        keys(r, int(v) - 10);
    }
    if (v >= 9) {
        r.f32();
    }
    if (v < 11) return;
    r.u32();
}

void carTuning0AE(NodeReader& r) {
    const std::uint32_t v = version(r, 1, "car tuning 090ED0AE");
    r.u32();
    keys(r, int(v) - 2);
    if (v < 1) return;
    r.f32();
}

void carTuning0AF(NodeReader& r) {
    version(r, 0, "car tuning 090ED0AF");
    keys(r, 0);
    floats(r, 4);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    floats(r, 5);
    keys(r, 0);
    floats(r, 3);
    keys(r, 0);
    keys(r, 0);
    r.f32();
    keys(r, 0);
    floats(r, 2);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    floats(r, 3);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    r.f32();
    keys(r, 0);
    keys(r, 0);
    floats(r, 2);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    floats(r, 9);
    r.u32();
    floats(r, 2);
    r.u32();
    floats(r, 4);
    keys(r, 0);
    keys(r, 0);
    floats(r, 5);
    keys(r, 0);
    floats(r, 2);
    keys(r, 0);
    r.u32();
    keys(r, 0);
    keys(r, 0);
    r.f32();
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
    keys(r, 0);
}

void carTuning0B0(NodeReader& r) {
    const std::uint32_t v = version(r, 1, "car tuning 090ED0B0");
    r.f32();
    if (v < 1) return;
    r.f32();
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
    reg.add(0x090ED089, false, carTuning089);
    reg.add(0x090ED08A, false, carTuning08A);
    reg.add(0x090ED08B, false, carTuning08B);
    reg.add(0x090ED08C, false, carTuning08C);
    reg.add(0x090ED08D, false, carTuning08D);
    reg.add(0x090ED08E, false, carTuning08E);
    reg.add(0x090ED094, false, carTuning094);
    reg.add(0x090ED095, false, carTuning095);
    reg.add(0x090ED096, false, carTuning096);
    reg.add(0x090ED097, false, carTuning097);
    reg.add(0x090ED098, false, carTuning098);
    reg.add(0x090ED099, false, carTuning099);
    reg.add(0x090ED09A, false, carTuning09A);
    reg.add(0x090ED09B, false, carTuning09B);
    reg.add(0x090ED09C, false, carTuning09C);
    reg.add(0x090ED09D, false, carTuning09D);
    reg.add(0x090ED09E, false, carTuning09E);
    reg.add(0x090ED09F, false, carTuning09F);
    reg.add(0x090ED0A0, false, carTuning0A0);
    reg.add(0x090ED0A1, false, carTuning0A1);
    reg.add(0x090ED0A2, false, carTuning0A2);
    reg.add(0x090ED0A3, false, carTuning0A3);
    reg.add(0x090ED0A4, false, carTuning0A4);
    reg.add(0x090ED0A5, false, carTuning0A5);
    reg.add(0x090ED0A6, false, carTuning0A6);
    reg.add(0x090ED0A7, false, carTuning0A7);
    reg.add(0x090ED0A8, false, carTuning0A8);
    reg.add(0x090ED0A9, false, carTuning0A9);
    reg.add(0x090ED0AA, false, carTuning0AA);
    reg.add(0x090ED0AB, false, carTuning0AB);
    reg.add(0x090ED0AC, false, carTuning0AC);
    reg.add(0x090ED0AD, false, carTuning0AD);
    reg.add(0x090ED0AE, false, carTuning0AE);
    reg.add(0x090ED0AF, false, carTuning0AF);
    reg.add(0x090ED0B0, false, carTuning0B0);
}

}  // namespace pakfs::gbx::chunks
