// SPDX-License-Identifier: GPL-2.0-or-later
// Whole gbx files of engine classes in the shapes the game's files have, for tests and benchmarks.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "common/Bytes.hpp"

namespace pakfs::gbx {

// Whole gbx files of the engine classes that fill the game's packs, written in the layouts the
// chunk readers read (gbx/chunks/plug/*.cpp, gbx/chunks/control/Control.cpp), in the shapes the
// game's own files have. For tests and benchmarks: the project's own files, not the game's data.
namespace engine {

struct SolidSpec {
    std::string treeName = "Box01";
    std::uint32_t vertices = 24;  // of the visual, with one texture coordinate set
    std::uint32_t indices = 36;
    // The surface geometry's box (centre, half size): box[0] - box[3] goes to the cipher.
    std::array<float, 6> box{0, 0, 0, 0.5f, 0.5f, 0.5f};
    std::uint32_t meshTriangles = 0;  // 0: a box shape; else a mesh of this many triangles
    std::uint32_t children = 0;       // empty child trees under the main tree
};

// CPlugSolid -> CPlugTree -> CPlugVisualIndexedTriangles (with its CPlugIndexBuffer inline),
// CPlugShaderApply, CPlugSurface -> CPlugSurfaceGeom.
Bytes solid(const SolidSpec& spec = {});
// CPlugBitmap whose image is an external file (Image/NAME), as the game's .Texture.gbx files.
Bytes bitmap(const std::string& imageName);
// CPlugShaderSprite with one CPlugShaderPass whose vertex program is an external file.
Bytes shaderSprite(const std::string& programName);
// CPlugFontBitmap: character ranges, kerning table, glyphs, one page whose shader samples an
// external texture.
Bytes font(std::uint32_t glyphs);
// CControlStyle with a CFuncEnum of shaders, two CPlugMaterial nodes and an external font.
Bytes controlStyle(std::uint32_t icons);

}  // namespace engine
}  // namespace pakfs::gbx
