// SPDX-License-Identifier: GPL-2.0-or-later
// `pak commit`: the changes of an overlay folder (OverlayLayout.hpp), planned as a pack by
// archive/write/PackPlanner.hpp. What is here is what an overlay folder says; what a pack
// makes of it is the planner's.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "archive/write/PackPlanner.hpp"
#include "packs/Pack.hpp"

namespace pakfs::commit {

// Plans `pak` with the changes in `packOverlay` (the pack's own folder in the overlay; absent:
// no changes), as archive::planChanges does. Throws Error naming the overlay path and the
// reason for anything a pak cannot hold (symbolic links, devices, names it cannot store, a
// whiteout of what the pack does not hold, a name that differs only in case from one the pack
// holds): nothing is written then.
archive::ChangePlan planCommit(const std::shared_ptr<const archive::PakIndex>& pak,
                               const std::filesystem::path& packOverlay);

// A patch pack for the game's merged view (pakfs -o drives): the files `overlayRoot/Game` adds
// or changes in the Game drive of `packs` (the packs of a Packs folder, in load order), as a
// pack of their own that, loaded last, replaces them (archive::planPatch). Throws Error naming
// the overlay path for what a patch pack cannot express: deletions (whiteouts, opaque folders)
// and changes to the Resource drive (Resource.pak: commit that pack itself), besides what
// planCommit refuses. `keyWords` (archive::keyOptionWords) go into the pak commit it suggests.
archive::ChangePlan planPatch(const std::vector<packs::Pack>& packs,
                              const std::filesystem::path& overlayRoot,
                              const std::string& keyWords = {});

}  // namespace pakfs::commit
