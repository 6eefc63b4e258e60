// SPDX-License-Identifier: GPL-2.0-or-later
// `pak commit`: a pack with the changes of an overlay folder (OverlayLayout.hpp) applied.
// Entries the overlay does not touch keep their encrypted bytes; files it adds or changes are
// encoded as `pak pack` does.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "archive/write/PakWriter.hpp"
#include "fs/OverlayLayout.hpp"
#include "fs/Tree.hpp"

namespace pakfs::fs {

struct CommitChange {
    char kind;         // 'A' added, 'M' changed, 'D' deleted
    std::string path;  // "/"-joined in the pack; a folder's ends in '/'
};

struct CommitPlan {
    archive::PackPlan plan;
    std::vector<CommitChange> changes;  // sorted by path
    // The pack's version, key, header fields and flags, for writePlan.
    archive::PackOptions options;
};

// Plans `pak` with the changes in `packOverlay` (the pack's own folder in the overlay; absent:
// no changes). A changed file whose content is the pack's is no change. Throws Error naming the
// overlay path and the reason for anything a pak cannot hold (symbolic links, devices, names
// it cannot store, a whiteout of what the pack does not hold, a name that differs only in case
// from one the pack holds): nothing is written then.
CommitPlan planCommit(const std::shared_ptr<const archive::PakIndex>& pak,
                      const std::filesystem::path& packOverlay);

// A patch pack for the game's merged view (pakfs -o drives): the files `overlayRoot/Game` adds
// or changes in the Game drive of `packs` (the packs of a Packs folder, in load order), as a
// pack of their own that, loaded last, replaces them. Files equal to what the drive shows are no
// change. Throws Error naming the overlay path for what a patch pack cannot express: deletions
// (whiteouts, opaque folders) and changes to the Resource drive (Resource.pak: commit that
// pack itself), besides what planCommit refuses.
CommitPlan planPatch(const std::vector<Pack>& packs, const std::filesystem::path& overlayRoot);

}  // namespace pakfs::fs
