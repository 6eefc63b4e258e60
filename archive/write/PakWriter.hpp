// SPDX-License-Identifier: GPL-2.0-or-later
// Writing a pak: from a folder (`pak pack`) or a plan (`pak commit`), to a temporary file renamed
// into place.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/pak/PakIndex.hpp"
#include "archive/write/PackOptions.hpp"
#include "archive/write/PackPlan.hpp"

namespace pakfs::archive {

// Builds a pak (version 3, or 6 to 18 with options.version) from a folder tree (planned by
// planFolder, PackPlanner.hpp); writes to a temp file and renames it into place. `output` and
// its temporary files are never packed, though they are in the tree.
PackResult writePak(const std::filesystem::path& sourceDir, const std::filesystem::path& output,
                    const PakKey& key, const PackOptions& options);

// Refuses an `output` that is a folder (or a link to one), before any file is read: the pak
// to write is a file in it.
void checkPackOutput(const std::filesystem::path& output);

// Writes the pack a plan describes (options.base is not read: the plan says what is copied).
// The output goes to a temp file in its folder, fsynced and renamed into place: an
// interrupted or failed write leaves `output` as it was.
PackResult writePlan(const PackPlan& plan, const std::filesystem::path& output, const PakKey& key,
                     const PackOptions& options);

// The public header of a version 6+ pack as the writer makes it (doc/FORMAT.md §3.1), with
// the contents checksum left zero.
Bytes packGbxPublicHeader(std::uint32_t version, const PackHeaderFields& h,
                          std::uint32_t headerMaxSize);

}  // namespace pakfs::archive
