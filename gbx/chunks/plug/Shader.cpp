// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's materials, shaders and shader passes.
//
// Sources of the layouts, named per reader below:
//   [T] a public C reimplementation of the TMUF reader (functions tmuf_gbx_*), the most
//       complete source for TMUF-era files;
//   [G] GBX.NET (Engines/Plug, *.chunkl and *.cs);
//   [R] the game's own Resource.pak (../shared/fixtures/real): its compressed files prove a
//       layout through zlib's Adler-32, its stored ones through a parse that ends exactly at the
//       body's end with every node slot filled.
// Where the sources describe a branch no file here exercises and whose bytes they do not agree
// on, the reader stops with a message instead of guessing: the node scan takes over from there.
#include "gbx/chunks/ChunkReaders.hpp"

#include <cstring>
#include <vector>

namespace pakfs::gbx::chunks {
namespace {

// --- CPlugMaterial (09079000) [T] [G], proven on Default.ControlStyle.Gbx [R] ---

void materialDevices(NodeReader& r) {  // 09079008/9/C/D
    std::uint32_t id = r.generalChunkId();
    NodeRef model = r.nodeRef();
    if (model.kind != RefKind::Null) return;
    bool shaderFids = id == 0x09079009 || id == 0x0907900C || id == 0x0907900D;
    std::uint32_t n = r.count(12);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.u32();  // device, sub-device, quality
        if (r.boolean()) {
            // [G] gives 009 and 00D this flag with the same fields after it: the shader and
            // (009, 00D) the day and night shaders as node references (ManiaPlanet's are
            // references to shader files). [T] has no layout for it, nor does any source for 008
            // and 00C.
            if (id != 0x09079009 && id != 0x0907900D)
                r.fail("CPlugMaterial device shader by file reference: its layout is not known");
            r.nodeRef();
            r.nodeRef();
            r.nodeRef();
            continue;
        }
        r.nodeRef();  // shader
        if (shaderFids) {
            // Day and night shaders by file reference: only the empty one (-1) is known.
            for (int k = 0; k < 2; ++k)
                if (r.u32() != 0xFFFFFFFF)
                    r.fail("CPlugMaterial day/night shader reference: its layout is not known");
        }
    }
    if (id == 0x0907900C || id == 0x0907900D) r.skipArray(4);  // formats
    r.note("device shaders", num(n));
}

// --- CPlugShader (09002000), Generic (09004000), Apply (09026000) [T] [G] ---

void shaderPasses(NodeReader& r) {  // 0900200E
    r.nodeRef();                    // function shader
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.nodeRef();
    r.nodeRef();
    refArray(r);  // [G]: external nodes
    r.note("passes", num(n));
}

void shaderRequirements(NodeReader& r) {  // 09002016: requirement flags, a real, a node, ids
    r.u32();
    r.u32();
    floats(r, 1);
    r.nodeRef();
    r.u16();  // visible ID flags
}

void shaderBitmapAddresses(NodeReader& r) {  // 09026002
    r.note("bitmap addresses", num(refArray(r)));
}

// --- CPlugShaderPass (09067000) [T] [G], proven on Default.ShaderSprite.Gbx [R] ---

void gpuProgram(NodeReader& r) {  // enabled, program file; when enabled its constants
    bool enabled = r.boolean();
    r.nodeRef();
    if (!enabled) return;
    std::uint32_t n = r.count(20);
    for (std::uint32_t i = 0; i < n; ++i) {
        r.lookback();
        r.skip(16);
    }
    std::uint32_t m = r.count(16);
    r.skip(std::uint64_t(m) * 16);
}

void shaderPassPrograms(NodeReader& r) {  // 0906700A: ids, vertex program, pixel program
    std::uint32_t n = r.count(4);
    for (std::uint32_t i = 0; i < n; ++i) r.lookback();
    gpuProgram(r);
    gpuProgram(r);
}

}  // namespace

void registerPlugShader(ChunkRegistry& reg) {
    // CPlugMaterial
    reg.add(0x09079001, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x09079002, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x09079007, false, [](NodeReader& r) { r.nodeRef(); });  // custom material
    reg.add(0x09079008, false, materialDevices);
    reg.add(0x09079009, false, materialDevices);
    reg.add(0x0907900A, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0907900B, false, [](NodeReader& r) { r.nodeRef(); });
    reg.add(0x0907900C, false, materialDevices);
    reg.add(0x0907900D, false, materialDevices);
    reg.add(0x0907900E, false, [](NodeReader& r) { r.u32(); });  // surface ID and flags
    reg.add(0x0907900F, false, [](NodeReader& r) { r.u32(); });

    // CPlugShader, CPlugShaderGeneric, CPlugShaderApply, CPlugShaderPass
    reg.add(0x0900200E, false, shaderPasses);
    reg.add(0x09002016, false, shaderRequirements);
    for (std::uint32_t id : {0x09004001u, 0x09004002u, 0x09004003u})
        reg.add(id, false, [](NodeReader& r) { r.skip(0x58); });  // render state block
    reg.add(0x09026002, false, shaderBitmapAddresses);
    reg.add(0x09026004, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x09026008, false, [](NodeReader& r) { r.skip(8); });
    reg.add(0x09067006, false, [](NodeReader& r) { refArray(r); });  // vertex textures
    reg.add(0x09067007, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0906700A, false, shaderPassPrograms);
}

}  // namespace pakfs::gbx::chunks
