// SPDX-License-Identifier: GPL-2.0-or-later
// Planning a pack to write, before any byte of it is written: from a folder (`pak pack`,
// with --base), from a base pak and a set of changes (`pak commit`), or as a patch pack
// over the packs a game loads (`pak commit --patch`). Plans are checked whole here, so a
// refused change writes nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "archive/pak/PakIndex.hpp"
#include "archive/write/PackOptions.hpp"
#include "archive/write/PackPlan.hpp"

namespace pakfs::archive {

// What is to change in a pack, by "/"-joined pack path, each with where it is on disk (for
// its bytes, and for messages). commit/OverlayLayout.hpp reads one from an overlay folder.
struct ChangeSet {
    std::filesystem::path root;                          // the changes' folder on disk
    std::map<std::string, std::filesystem::path> files;  // added, or replacing what is there
    std::vector<std::string> folders;                    // added or merged, parents first
    std::set<std::string> folderSet;                     // the same folders, to look up
    // Folders whose base contents are hidden (replaced), with the marker that says so.
    std::map<std::string, std::filesystem::path> opaque;
    // Paths deleted (a file or a whole folder), with the whiteout that says so.
    std::map<std::string, std::filesystem::path> whiteouts;
    // Files the base holds, taken under a new path (pak mv), by new path: each keeps its slot
    // without being decoded. Each is in `files` too (no disk path), so every check sees it.
    std::map<std::string, std::string> moves;
};

// One line of what a plan changes.
struct PlanChange {
    char kind;         // 'A' added, 'M' changed, 'D' deleted
    std::string path;  // "/"-joined in the pack; a folder's ends in '/'
};

// A plan with what it changes, and the options (version, header fields) to write it with.
struct ChangePlan {
    PackPlan plan;
    std::vector<PlanChange> changes;  // sorted by path
    PackOptions options;
    // What the pack would hold that the game may not read (names the game on Windows cannot
    // open: windowsNamesWarning), for the frontend to show before anything is written.
    std::vector<std::string> warnings;
};

// `pak pack`: the folder tree under `root`: folders in depth-first pre-order, files at the
// root first, then each folder's in folder order (the order the game's own packs use). Names
// the game on Windows cannot open get one warning (options.warn: windowsNamesWarning). With
// options.base (opened with `key`, of the same version), files whose path the base holds get
// it as their base candidate. Throws Error listing every name that differs only in case from
// another (the game would see one).
PackPlan planFolder(const std::filesystem::path& root, const PakKey& key,
                    const PackOptions& options);

// `pak commit`: `base` with `changes` applied. Entries the changes do not touch are copied as
// their encrypted slots; a changed file whose content is the base's is no change; a new file
// with the bytes of a deleted one is that file renamed and keeps its slot. Throws Error naming
// the path on disk for what a pak cannot express: a whiteout of what the base does not hold,
// a path both deleted and changed, names that differ only in case from another (one Error
// lists every one).
ChangePlan planChanges(const std::shared_ptr<const PakIndex>& base, const ChangeSet& changes);

// A file a patch pack would replace: the entry a game's merged view shows at a path.
struct ShownEntry {
    std::shared_ptr<const PakIndex> pak;
    const PakEntry* entry = nullptr;
};
using ShownEntryLookup = std::function<std::optional<ShownEntry>(const std::string& packPath)>;

// `pak commit --patch`: a pack of its own with the files `changes` adds or changes in a merged
// view (`shown`: what the view holds at a path), of `version`. Files equal to what the view
// shows are no change. Throws Error naming the path on disk for deletions (whiteouts, opaque
// folders), which a pack loaded later cannot express, and for two names differing only in case.
ChangePlan planPatch(const ChangeSet& changes, const ShownEntryLookup& shown,
                     std::uint32_t version);

}  // namespace pakfs::archive
