// SPDX-License-Identifier: GPL-2.0-or-later
// One pack of a mount and the drive the game reads it as.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "archive/pak/PakIndex.hpp"
#include "common/Bytes.hpp"

namespace pakfs::packs {

struct Pack {
    std::string name;  // folder name under the mount point (file name without extension)
    std::shared_ptr<const archive::PakIndex> pak;
};

// The game's two drives: Resource.pak alone is read as "Resource"; every other pack's files
// join in "Game" (doc/FORMAT.md §7.6).
inline constexpr std::string_view kResourceDrive = "Resource";
inline constexpr std::string_view kGameDrive = "Game";

// The drive a pack of this name is read as (the only place that decides it).
inline std::string_view driveOf(std::string_view packName) {
    return foldCase(packName) == foldCase(kResourceDrive) ? kResourceDrive : kGameDrive;
}
inline bool isResourcePack(const Pack& pack) {
    return driveOf(pack.name) == kResourceDrive;
}

}  // namespace pakfs::packs
