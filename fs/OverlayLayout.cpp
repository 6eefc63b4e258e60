// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/OverlayLayout.hpp"

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"

namespace pakfs::fs {

std::optional<std::string> unusableName(std::string_view name) {
    if (name == "." || name == "..") return "not a name";
    if (isLayoutName(name))
        return "names starting with " + std::string(kWhiteoutPrefix) +
               " are the overlay's whiteouts";
    return archive::unstorableName(name);
}

std::filesystem::path overlayFolderOf(const std::filesystem::path& overlayRoot,
                                      const archive::PakIndex& pak) {
    return overlayRoot / archive::packNameOf(pak.name());
}

}  // namespace pakfs::fs
