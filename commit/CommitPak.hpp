// SPDX-License-Identifier: GPL-2.0-or-later
// `pak commit` as a library call, for the CLI and for a writable mount committing at unmount:
// the locks (the overlay folder's and the written pak's), the overlay's record checked under
// them, the plan (commit/OverlayPlan.hpp), the write, and the record afterwards.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "archive/pak/PackList.hpp"
#include "archive/write/PakWriter.hpp"
#include "commit/OverlayPlan.hpp"
#include "common/FileLock.hpp"

namespace pakfs::commit {

// Takes the overlay folder's lock for `holder` ("mount MOUNTPOINT" for a writable mount,
// "commit" for pak commit). Throws Error naming the folder and who holds it: the writable
// mount at MOUNTPOINT ("unmount MOUNTPOINT first") or another pak commit.
FolderLock lockOverlay(const std::filesystem::path& overlayRoot, const std::string& holder);

// The names at the overlay folder's top that are no pack's folder: not one of `packNames`
// (compared as the game compares names, case-insensitively), not recorded in its record, and
// not the layout's own.
std::vector<std::string> strayOverlayNames(const std::filesystem::path& overlayRoot,
                                           const std::vector<std::string>& packNames);

// What every command that writes a pak anew is given (commit, and the edits of PakEdits.hpp).
struct WriteRequest {
    std::filesystem::path pak;  // the pak read
    std::filesystem::path out;  // the pak to write; empty: replace `pak` (in place)
    archive::KeyOptions keys;
    int level = 6;
    int jobs = 0;
    bool dryRun = false;  // plan only: nothing is locked or written
    bool wait = false;    // wait for another writer of the pak instead of refusing
    std::function<void(const std::string&)> warn;
    archive::PackOptions::Progress progress;
};

struct CommitRequest : WriteRequest {
    std::filesystem::path overlay;  // the overlay folder given to the mount
    bool allowEmpty = false;        // write `out` even without changes
    bool force = false;             // apply the changes whatever the overlay's record says
    // The caller holds the overlay's lock already (the mount committing at unmount), and
    // `ownMount` is its mount point, not warned about as a mount that serves the pak.
    bool holdsOverlay = false;
    std::string ownMount;
};

struct CommitResult {
    archive::ChangePlan plan;
    std::filesystem::path packOverlay;  // the pack's folder in the overlay
    bool written = false;               // false: a dry run, or nothing to commit
    std::filesystem::path target;       // the file written (after symbolic links)
    archive::PackResult pack;
    archive::PakKey key;  // the key written with
};

// Replacing a pak a writable mount serves (other than `ownMount`) is refused: that mount's
// changes are made over the pak, and would be refused (or lost) at its commit. Throws Error
// naming the pak and the mount; a mount that was just unmounted is waited for (up to 10 s)
// while its process ends.
void refuseServingMounts(const WriterLock& lock, const std::string& ownMount);

// The reasons kept of the commits at unmount that failed (kCommitFailedFile), one line each,
// saying which mount, when and why; empty when none failed since.
std::vector<std::string> unmountCommitFailures(const std::filesystem::path& overlayRoot);

// The pak at `path` opened to be written anew: its warnings to `warn`; throws Error when its
// key is not known.
std::shared_ptr<const archive::PakIndex> openForWriting(
    const std::filesystem::path& path, const archive::KeyOptions& keys,
    const std::function<void(const std::string&)>& warn);

// Writes `result.plan` with `result.key` to the file `lock` holds (temporary file, fsync,
// rename) and fills in what was written.
void writeChangePlan(CommitResult& result, const WriterLock& lock, int level, int jobs,
                     const std::function<void(const std::string&)>& warn,
                     const archive::PackOptions::Progress& progress);

// Plans and, unless a dry run, writes `request.pak` with the overlay's changes: the overlay
// folder is locked (refused while a writable mount or another commit holds it), then the
// written file (refused while another pak command writes it, or waited for); the pak is read
// and checked against the overlay's record only then, so of two commits racing over one pak
// the second is refused rather than losing the first's changes. An in-place commit marks the
// overlay's record committed. Throws Error naming the file and the reason; nothing is written
// then.
CommitResult commitOverlay(const CommitRequest& request);

// -o commit: after the mount at `mountPoint` ended, commits each served pack's changes in
// `overlayRoot` into its pak in place (as commitOverlay, the caller holding the overlay's
// lock), then empties the pack's folder in the overlay, only once the pak was replaced. One
// log line per pack committed or failed; a failed pack's folder is left as it was, and the
// reason kept in the overlay folder (unmountCommitFailures) until a commit of that pack
// succeeds. Returns false when any failed.
bool commitAtUnmount(const std::vector<packs::Pack>& packs,
                     const std::filesystem::path& overlayRoot, const archive::KeyOptions& keys,
                     const std::string& mountPoint,
                     const std::function<void(const std::string&)>& log);

struct PatchRequest {
    std::string name;  // the patch pack's name (an extension .pak/.Pack.Gbx is dropped)
    std::filesystem::path packsDir;
    std::filesystem::path overlay;
    std::filesystem::path out;       // empty: packsDir/NAME.pak (.Pack.Gbx for version 6+)
    std::filesystem::path packList;  // empty: none; else NAME goes last into it
    archive::KeyOptions keys;
    int level = 6;
    int jobs = 0;
    bool dryRun = false;
    bool wait = false;
    std::function<void(const std::string&)> warn;
};

struct PatchResult {
    archive::ChangePlan plan;
    std::string name;  // the pack's name as the packlist has it
    bool written = false;
    std::filesystem::path target;
    archive::PackResult pack;
    bool listed = false;  // added to the packlist
};

// `pak commit --patch`: the Game drive's added and changed files of a -o drives overlay as a
// new pack that the game loads last (planPatch), under the same locks as commitOverlay
// (the pack written and the packlist edited).
PatchResult commitPatch(const PatchRequest& request);

}  // namespace pakfs::commit
