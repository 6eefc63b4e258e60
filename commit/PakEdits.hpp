// SPDX-License-Identifier: GPL-2.0-or-later
// One-step edits of a pak without a mount (`pak add`, `pak rm`, `pak mv`): each a change set
// planned as `pak commit` plans an overlay's (archive::planChanges) and written by the commit
// workflow (commit/CommitPak.hpp) under the same lock: in place or to OUT, untouched entries
// copied as their encrypted bytes, a replaced file keeping its class ID and flags, a moved one
// its slot.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "commit/CommitPak.hpp"

namespace pakfs::commit {

using EditRequest = WriteRequest;

// `pak add`: each of `items` (a file, or a folder with its tree) at the pak's top level under
// its own name, or, for one item, at the pack path `as` (a folder's tree under it). A file the
// pak holds at a path is replaced by a file; a folder it holds is merged with a folder. A folder
// replaced by a file, or a file by a folder (also one above an added path), throws Error naming
// both (the item on disk, the path in the pak) unless `force`. Throws Error naming the path for
// what a pak cannot hold (symbolic links, devices, names it cannot store) and UsageError for
// `as` with several items.
CommitResult addToPak(const EditRequest& request, const std::vector<std::filesystem::path>& items,
                      const std::string& as, bool force = false);

// `pak rm`: the files or folders (with everything in them) at `paths`, each a path or a glob
// pattern (common/PathPattern.hpp). Throws Error naming a path the pak does not hold or a
// pattern that matches nothing.
CommitResult removeFromPak(const EditRequest& request, const std::vector<std::string>& paths);

// `pak mv`: the file or folder at `from` moved to `to` (a path the pak does not hold yet, in a
// folder it holds or that is made); each file keeps its slot (its encrypted bytes, class ID,
// flags and metadata record).
CommitResult moveInPak(const EditRequest& request, const std::string& from, const std::string& to);

}  // namespace pakfs::commit
