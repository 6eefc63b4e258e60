// SPDX-License-Identifier: GPL-2.0-or-later
// The overlay folder of a writable mount, as it lies on disk: the OCI image-layer convention,
// so any tool can read it.
//
//   DIR/PACK/path/file          a file added, or replacing the pack's file (or folder) there
//   DIR/PACK/path/folder/       a folder added, or merged with the pack's folder there
//   DIR/PACK/path/.wh.NAME      NAME (a file or a whole folder) of the pack is deleted
//   DIR/PACK/path/.wh..wh..opq  the pack's contents of this folder are hidden (it was replaced)
//
// PACK is the pack's folder under the mount point (its file name without .pak / .Pack.Gbx).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace pakfs::archive {
class PakIndex;
}

namespace pakfs::fs {

inline constexpr std::string_view kWhiteoutPrefix = ".wh.";
inline constexpr std::string_view kOpaqueMarker = ".wh..wh..opq";

// Whether `name` belongs to the layout (a whiteout or the opaque marker), not to the files.
inline bool isLayoutName(std::string_view name) {
    return name.starts_with(kWhiteoutPrefix);
}

inline std::string whiteoutName(std::string_view name) {
    return std::string(kWhiteoutPrefix) + std::string(name);
}

// Why `name` cannot be a file or folder of a pack (nullopt: it can): names the pak format
// cannot store, and names the layout reserves.
std::optional<std::string> unusableName(std::string_view name);

// The overlay folder of `pak` under an overlay root given to the mount.
std::filesystem::path overlayFolderOf(const std::filesystem::path& overlayRoot,
                                      const archive::PakIndex& pak);

}  // namespace pakfs::fs
