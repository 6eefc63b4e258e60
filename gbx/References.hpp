// SPDX-License-Identifier: GPL-2.0-or-later
// External references of gbx files: where a path points, across the game's drives.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gbx/Header.hpp"

namespace pakfs::gbx {

// The components of a path split on '/' and '\', empty components dropped.
std::vector<std::string> splitRefPath(std::string_view path);

// Where a by-name external reference points, as path components: `folder` (the components of
// the referring file's folder) climbed up refs.ancestorLevel folders, never into its first
// `keep` components, then into the table's folder for ref.folderIndex (0 = that base folder),
// then ref.name. nullopt, with `problem` saying why, when it cannot point anywhere: it climbs
// too high, its folder index is out of range, or it is a by-resource reference.
std::optional<std::vector<std::string>> referenceTarget(std::vector<std::string> folder,
                                                        const RefTable& refs,
                                                        const ExternalRef& ref, std::size_t keep,
                                                        std::string& problem);

}  // namespace pakfs::gbx
