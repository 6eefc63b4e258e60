// SPDX-License-Identifier: GPL-2.0-or-later
// The class IDs that code outside the chunk readers tests, named once (the chunk readers
// register their own; the class tree and its names are gbx/data/classes.tsv).
#pragma once

#include <cstdint>

namespace pakfs::gbx {

inline constexpr std::uint32_t kClassChallenge = 0x03043000;  // CGameCtnChallenge: a map
inline constexpr std::uint32_t kClassCollector = 0x0301A000;  // CGameCtnCollector (Forever)
// CGameCtnCollector of the later games (GameData engine), which items derive from.
inline constexpr std::uint32_t kClassCollectorGameData = 0x2E001000;
inline constexpr std::uint32_t kClassPlugFile = 0x09020000;  // CPlugFile: any plain file
// TMF's CPlugFileGpuFx (.fx files), an ID ManiaPlanet gave CPlugIconIndex: the class table
// holds the later class there (FORMAT.md §7.3), and the writer keeps this ID for .fx files.
inline constexpr std::uint32_t kClassPlugFileGpuFxForever = 0x09093000;

// The eleven classes whose files the game's version 18 pack leaves in the clear (flag bit 50);
// no file of them is encrypted there (doc/FORMAT.md §3.4): the writer does the same.
inline constexpr std::uint32_t kClassesLeftInClearV18[] = {
    0x09005000,  // CPlugSolid
    0x0900C000,  // CPlugSurface
    0x09011000,  // CPlugBitmap
    0x09024000,  // CPlugFileDds
    0x09026000,  // CPlugShader
    0x09031000,  // CPlugFileWav
    0x09040000,  // CPlugFileGPU
    0x09068000,  // CPlugShaderSprite
    0x09074000,  // CPlugFileVHlsl
    0x09077000,  // CPlugFilePHlsl
    0x090BB000,  // CPlugSolid2Model
};

}  // namespace pakfs::gbx
