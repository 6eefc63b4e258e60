// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's particle emitters: CPlugParticleEmitterModel (090B3000), its sub-models
// CPlugParticleEmitterSubModel (090B2000), the splash model (090B5000), the GPU particles
// (CPlugParticleGpuModel 090C6000, CPlugParticleGpuSpawn 090C5000) and the curves they hold,
// CFuncEnvelope (05036000) and CFuncColorGradient (05038000).
//
// Source: [G] GBX.NET, Engines/Plug/CPlugParticleEmitterModel.chunkl,
// CPlugParticleEmitterSubModel.chunkl, CPlugParticleSplashModel.chunkl,
// CPlugParticleGpuModel.chunkl, CPlugParticleGpuSpawn.chunkl, Engines/Function/CFuncEnvelope.chunkl
// and CFuncColorGradient.chunkl (the chunk layouts and the highest versions below). A node GBX.NET
// names by class is read as a node reference; a versioned chunk above the version [G] describes
// stops the reader.
#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {
namespace {

// [G]'s "Material (external); if Material == null && MaterialFile == null, Shader (external)":
// a second reference only when the first is none.
void materialOrShader(NodeReader& r) {
    if (r.nodeRef().kind == RefKind::Null) r.nodeRef();
}

// CPlugParticleEmitterModel 004 [G]: (version 1) 40 bytes behind a bool; (2+) 12 bytes in
// version 2, then nine fields. Version 3, which [G] reads as 2+ without its 12 bytes, holds the
// nine fields alone (every emitter of ManiaPlanet's pack).
void emitterModel004(NodeReader& r) {
    std::uint32_t v = version(r, 3, "particle emitter 090B3004");
    if (v == 1 && r.boolean()) r.skip(40);
    if (v < 2) return;
    if (v == 2) r.skip(12);
    r.f32();
    r.u32();
    r.f32();
    r.u32();
    floats(r, 2);
    r.boolean();
    r.u32();
    r.boolean();
}

// CPlugParticleEmitterSubModel 011 [G]: the material, the sprite's size and pivot, the colour
// gradient, counts, spawn and life, the envelopes over life and the render modes.
void subModel011(NodeReader& r) {
    materialOrShader(r);
    r.f32();  // size birth ratio XY
    r.vec2();
    floats(r, 4);
    r.nodeRef();  // colour gradient
    r.u32();
    r.boolean();
    r.u32();         // max particle count
    floats(r, 3);    // spawn period, life, life variation
    floats(r, 10);   // size, weight, roll speed and transparency at birth, with variations
    nodeRefs(r, 2);  // size and transparency over life
    for (int i = 0; i < 5; ++i) r.u32();
    floats(r, 2);
    r.u32();
    r.f32();  // U scale
    r.u32();  // standard render mode
    floats(r, 3);
    r.nodeRef();  // size X over life
    r.boolean();
    r.boolean();
    r.u32();
    r.u32();
}

// 02D [G]: an int, (3+) two ints, an int, a bool, two ints, a bool, (..1) a bool, (1+) an Id,
// (4+) a float.
void subModel02D(NodeReader& r) {
    std::uint32_t v = version(r, 4, "particle sub-model 090B202D");
    r.u32();
    if (v >= 3) r.skip(8);
    r.u32();
    r.boolean();
    r.skip(8);
    r.boolean();
    if (v <= 1) r.boolean();
    if (v >= 1) r.lookback();
    if (v >= 4) r.f32();
}

// 02F [G]: up to version 2, an int, two floats, (1+) an iso4, (2) an envelope.
void subModel02F(NodeReader& r) {
    std::uint32_t v = version(r, 2, "particle sub-model 090B202F");
    r.u32();
    floats(r, 2);
    if (v >= 1) iso4(r);
    if (v >= 2) r.nodeRef();
}

// 031 [G]: the mesh particles: material, (..4) a visual, (6+) a string, the solid, (7+) an
// iso4, a vec2, an int, two floats, then fields by version up to 13.
void subModel031(NodeReader& r) {
    std::uint32_t v = version(r, 13, "particle sub-model 090B2031");
    r.u32();
    r.u32();
    r.boolean();
    r.f32();
    materialOrShader(r);
    if (v <= 4) r.nodeRef();
    if (v >= 6) r.string();
    r.nodeRef();  // solid
    if (v >= 7) iso4(r);
    r.vec2();
    r.u32();
    floats(r, 2);
    if (v < 3) return;
    r.f32();
    if (v < 4) return;
    r.boolean();
    if (v < 5) return;
    r.boolean();
    if (v < 9) return;
    r.boolean();
    if (v < 10) return;
    r.boolean();
    if (v < 11) return;
    r.u32();
    if (v < 12) return;
    r.nodeRef();
    if (v < 13) return;
    nodeRefs(r, 2);
}

// 033 [G]: reals, envelopes and a colour gradient, with fields by version up to 4.
void subModel033(NodeReader& r) {
    std::uint32_t v = version(r, 4, "particle sub-model 090B2033");
    floats(r, 2);
    r.boolean();
    floats(r, 2);
    r.boolean();
    r.nodeRef();
    r.boolean();
    r.nodeRef();
    floats(r, 2);
    r.boolean();
    r.nodeRef();  // colour gradient
    r.u32();
    r.boolean();
    if (v <= 2 && v >= 1) r.boolean();
    if (v == 2) r.boolean();
    if (v >= 3) r.u32();
    floats(r, 2);
    r.boolean();
    r.nodeRef();
    floats(r, 2);
    if (v >= 4) {
        r.f32();
        r.nodeRef();
    }
}

// 037 [G]: an int, two floats, two curves, eight floats, an int, a curve, three floats.
void subModel037(NodeReader& r) {
    version(r, 0, "particle sub-model 090B2037");
    r.u32();
    floats(r, 2);
    nodeRefs(r, 2);
    floats(r, 8);
    r.u32();
    r.nodeRef();
    floats(r, 3);
}

// 039 [G]: reals and three booleans.
void subModel039(NodeReader& r) {
    version(r, 0, "particle sub-model 090B2039");
    floats(r, 2);
    r.boolean();
    floats(r, 3);
    r.boolean();
    floats(r, 3);
    r.boolean();
}

// CPlugParticleSplashModel 000 [G]: fields by version up to 4.
void splashModel(NodeReader& r) {
    std::uint32_t v = version(r, 4, "particle splash 090B5000");
    r.u32();
    floats(r, 3);
    r.u32();
    floats(r, 3);
    if (v >= 1) r.boolean();
    floats(r, 7);
    r.boolean();
    floats(r, 6);
    if (v < 2) return;
    floats(r, 2);
    if (v < 3) return;
    r.nodeRef();  // envelope
    if (v < 4) return;
    floats(r, 3);
}

// CPlugParticleGpuModel 002 [G]: the bitmap (a reference, or from 7 on a string behind a bool),
// sizes, counts and flags by version up to 11.
void gpuModel002(NodeReader& r) {
    std::uint32_t v = version(r, 11, "particle GPU model 090C6002");
    r.f32();
    if (v <= 6) {
        r.nodeRef();
    } else {
        if (r.boolean())
            r.string();
        else
            r.nodeRef();
        if (v >= 8) {
            r.boolean();
            r.f32();
        }
    }
    floats(r, 2);
    r.u32();
    r.u32();
    if (v <= 2) r.f32();
    if (v >= 3) {
        floats(r, 2);
        if (v >= 4) r.f32();
    }
    floats(r, 2);
    r.boolean();
    if (v < 2) return;
    r.boolean();
    if (v < 5) return;
    r.boolean();
    if (v < 6) return;
    r.boolean();
    r.f32();
    if (v < 9) return;
    r.nodeRef();
    for (int i = 0; i < 4; ++i) r.boolean();
    r.f32();
    if (v < 10) return;
    r.f32();
    r.boolean();
    if (v < 11) return;
    r.f32();
    r.boolean();
}

// CPlugParticleGpuSpawn 000 [G]: (0) an int; (1+) the spawn archive, its own version up to 4,
// its emission shape by kind (1, 2, 3: a box, 4).
void gpuSpawn(NodeReader& r) {
    std::uint32_t v = version(r, 1, "particle GPU spawn 090C5000");
    if (v == 0) {
        r.u32();
        return;
    }
    std::uint32_t sv = version(r, 4, "particle GPU spawn archive");
    r.u32();
    if (sv >= 2) r.u32();
    r.u32();
    r.f32();
    if (sv >= 3) r.f32();
    if (sv >= 4) {
        r.boolean();
        floats(r, 3);
    }
    floats(r, 5);
    std::uint32_t kind = r.u32();
    if (kind == 1 || kind == 4) floats(r, 4);
    if (kind == 2) floats(r, sv >= 1 ? 8 : 4);
    if (kind == 3) floats(r, 6);  // an aligned box
}

}  // namespace

void registerPlugParticleEmitter(ChunkRegistry& reg) {
    // CFuncEnvelope 000 [G]: four key values, two key positions, frequency, amplitude, mode.
    reg.add(0x05036000, false, [](NodeReader& r) {
        floats(r, 8);
        r.u32();
    });
    // CFuncColorGradient 000 [G]: four colours, two positions; 001 the same and a colour space.
    reg.add(0x05038000, false, [](NodeReader& r) { floats(r, 14); });
    reg.add(0x05038001, false, [](NodeReader& r) {
        floats(r, 14);
        r.u32();
    });

    // CPlugParticleEmitterModel [G]: 000 its sub-models (a deprecated node array), 001 an Id,
    // 002 splash mode and (3+) a shadow texel size, 003 strings, 004 above.
    reg.add(0x090B3000, false, [](NodeReader& r) {
        r.u32();  // array version
        r.note("sub-models", num(refArray(r)));
    });
    reg.add(0x090B3001, false, [](NodeReader& r) { r.lookback(); });
    // Version 4, which no source describes, holds the same two words (every emitter of
    // ManiaPlanet's pack: the next chunk ID follows them).
    reg.add(0x090B3002, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 4, "particle emitter 090B3002");
        r.boolean();
        if (v >= 3) r.f32();
    });
    reg.add(0x090B3003, false, [](NodeReader& r) {
        version(r, 0, "particle emitter 090B3003");
        std::uint32_t n = r.count(4);
        for (std::uint32_t i = 0; i < n; ++i) r.string();
    });
    reg.add(0x090B3004, false, emitterModel004);

    // CPlugParticleEmitterSubModel [G]
    reg.add(0x090B2011, false, subModel011);
    reg.add(0x090B2013, false, [](NodeReader& r) {
        r.u32();
        floats(r, 8);
    });
    reg.add(0x090B2015, false, [](NodeReader& r) {
        r.skip(12);  // three booleans
        floats(r, 3);
    });
    reg.add(0x090B2016, false, [](NodeReader& r) {
        r.f32();
        r.u32();
    });
    reg.add(0x090B2017, false, [](NodeReader& r) {
        r.f32();
        r.boolean();
    });
    reg.add(0x090B2018, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x090B2019, false, [](NodeReader& r) { r.lookback(); });
    reg.add(0x090B201A, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x090B201B, false, [](NodeReader& r) { r.skip(8); });  // two booleans
    reg.add(0x090B201C, false, [](NodeReader& r) { r.skip(16); });
    reg.add(0x090B201D, false, [](NodeReader& r) { floats(r, 2); });
    reg.add(0x090B201E, false, [](NodeReader& r) { r.f32(); });
    reg.add(0x090B201F, false, [](NodeReader& r) { r.f32(); });
    reg.add(0x090B2020, false, [](NodeReader& r) {
        r.boolean();
        r.u32();
        r.u32();
        r.boolean();
        floats(r, 2);
    });
    reg.add(0x090B2021, false, [](NodeReader& r) { r.f32(); });
    reg.add(0x090B2022, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x090B2023, false, [](NodeReader& r) { r.boolean(); });
    reg.add(0x090B202D, false, subModel02D);
    reg.add(0x090B202E, false, [](NodeReader& r) {
        if (version(r, 0, "particle sub-model 090B202E") == 0) r.nodeRef();  // splash model
    });
    reg.add(0x090B202F, false, subModel02F);
    reg.add(0x090B2030, false, [](NodeReader& r) {
        version(r, 0, "particle sub-model 090B2030");
        floats(r, 2);
        r.u32();
    });
    reg.add(0x090B2031, false, subModel031);
    reg.add(0x090B2032, false, [](NodeReader& r) {
        version(r, 0, "particle sub-model 090B2032");
        r.skip(16);
        r.boolean();
        r.skip(8);
        r.boolean();
    });
    reg.add(0x090B2033, false, subModel033);
    reg.add(0x090B2034, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 2, "particle sub-model 090B2034");
        nodeRefs(r, 3);  // light ball, envelope, colour gradient
        if (v >= 1) r.boolean();
        if (v >= 2) r.boolean();
    });
    reg.add(0x090B2035, false, [](NodeReader& r) {
        if (version(r, 1, "particle sub-model 090B2035") == 0) r.nodeRef();
    });
    reg.add(0x090B2036, false, [](NodeReader& r) {
        version(r, 0, "particle sub-model 090B2036");
        r.boolean();
        r.skip(8);
    });
    reg.add(0x090B2037, false, subModel037);
    reg.add(0x090B2038, false, [](NodeReader& r) {
        version(r, 0, "particle sub-model 090B2038");
        floats(r, 2);
    });
    reg.add(0x090B2039, false, subModel039);
    reg.add(0x090B203A, false, [](NodeReader& r) {
        if (version(r, 1, "particle sub-model 090B203A") >= 1) nodeRefs(r, 2);  // spawn, model
    });
    reg.add(0x090B203B, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 1, "particle sub-model 090B203B");
        floats(r, 10);
        if (v >= 1) r.f32();
    });

    reg.add(0x090B5000, false, splashModel);

    // CPlugParticleGpuModel [G]
    reg.add(0x090C6000, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 6, "particle GPU model 090C6000");
        floats(r, 4);
        if (v >= 2) floats(r, 2);
        if (v >= 3) r.f32();
        if (v >= 5) r.boolean();
        if (v >= 6) r.boolean();
    });
    reg.add(0x090C6001, false, [](NodeReader& r) {
        std::uint32_t v = version(r, 2, "particle GPU model 090C6001");
        floats(r, 2);
        if (v >= 1) r.skip(8);
        if (v >= 2) r.boolean();
    });
    reg.add(0x090C6002, false, gpuModel002);
    reg.add(0x090C6003, false, [](NodeReader& r) {
        version(r, 0, "particle GPU model 090C6003");
        floats(r, 2);
    });
    reg.add(0x090C5000, false, gpuSpawn);
}

}  // namespace pakfs::gbx::chunks
