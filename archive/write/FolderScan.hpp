// SPDX-License-Identifier: GPL-2.0-or-later
// Walking a folder on disk for `pak pack`: its files and folders into a plan, in the order
// planFolder gives, with what is left out (links unless followed, PackOptions::leaveOut, what
// is not a regular file) and the walks that would never end refused.
#pragma once

#include <filesystem>

#include "archive/write/PackOptions.hpp"
#include "archive/write/PackPlan.hpp"

namespace pakfs::archive {

// Adds the folders and files under `root` to `plan` (every name checked with unstorableName;
// warnings through options.warn). Throws Error naming the path for what cannot be packed.
void scanFolder(const std::filesystem::path& root, PackPlan& plan, const PackOptions& options);

}  // namespace pakfs::archive
