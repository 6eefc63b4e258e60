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

}  // namespace pakfs::gbx
