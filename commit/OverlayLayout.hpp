// SPDX-License-Identifier: GPL-2.0-or-later
// The overlay folder of a writable mount, as it lies on disk: the OCI image-layer convention,
// so any tool can read it.
//
//   DIR/PACK/path/file          a file added, or replacing the pack's file (or folder) there
//   DIR/PACK/path/folder/       a folder added, or merged with the pack's folder there
//   DIR/PACK/path/.wh.NAME      NAME (a file or a whole folder) of the pack is deleted
//   DIR/PACK/path/.wh..wh..opq  the pack's contents of this folder are hidden (it was replaced)
//   DIR/.pakfs-work/            the mount's temp files of copy-ups, emptied at every mount
//   DIR/.pakfs-packs            the record of the paks the changes were made over
//                               (OverlayRecord.hpp)
//   DIR/.pakfs-lock             held by the writable mount using the folder, or by a commit
//                               of its changes (common/FileLock.hpp): one at a time
//
// PACK is the pack's folder under the mount point (its file name without .pak / .Pack.Gbx).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/write/PackPlanner.hpp"
#include "common/File.hpp"
#include "packs/Pack.hpp"

namespace pakfs::commit {

inline constexpr std::string_view kWhiteoutPrefix = ".wh.";
inline constexpr std::string_view kOpaqueMarker = ".wh..wh..opq";

// Whether `name` belongs to the layout (a whiteout or the opaque marker), not to the files.
inline bool isLayoutName(std::string_view name) {
    return name.starts_with(kWhiteoutPrefix);
}

inline std::string whiteoutName(std::string_view name) {
    return std::string(kWhiteoutPrefix) + std::string(name);
}

// The name a whiteout deletes (nullopt: `name` is no whiteout; the opaque marker is none).
inline std::optional<std::string> whiteoutTarget(std::string_view name) {
    if (!isLayoutName(name) || name == kOpaqueMarker) return std::nullopt;
    return std::string(name.substr(kWhiteoutPrefix.size()));
}

// Temp files of copy-ups, inside the overlay folder; emptied at every mount.
inline constexpr const char* kOverlayWorkFolder = ".pakfs-work";

// The overlay folder's lock file, held by the mount or commit using the folder.
inline constexpr const char* kOverlayLockFile = ".pakfs-lock";

// Why the last commit at unmount (-o commit) of a pack failed, one line per pack, until a
// commit of it succeeds: shown by pak commit and by the next mount (CommitWorkflow.hpp).
inline constexpr const char* kCommitFailedFile = ".pakfs-commit-failed";

// The mount's log lines after it went to the background, when there is no syslog.
inline constexpr const char* kOverlayLogFile = ".pakfs-log";

// One of the overlay folder's own files (the record of paks, the failed commits' reasons),
// opened for reading; nullptr when there is none. What is there but no regular file is refused
// (InputFile: a named pipe would block).
std::shared_ptr<InputFile> openOverlayOwnFile(const std::filesystem::path& file);

// Names at the overlay folder's top that are the mount's own, not a pack's: the work folder,
// the record of the paks the changes were made over (OverlayRecord.hpp), the lock file, the
// failed commit's reasons and the log.
bool isOverlayOwnName(std::string_view name);

// Why `name` cannot be a file or folder of a pack (nullopt: it can): names the pak format
// cannot store, and names the layout reserves.
std::optional<std::string> unusableName(std::string_view name);

// The names in an overlay folder, sorted. Throws Error naming the folder when it cannot be
// listed.
std::vector<std::string> sortedNames(const std::filesystem::path& dir);

// What the overlay folder `folder` (a pack's, or a drive's) changes, by pack path (absent:
// nothing). Throws Error naming the path on disk for what a pak cannot hold: symbolic links,
// devices, names it cannot store, a whiteout of a name no pak holds.
archive::ChangeSet readOverlayChanges(const std::filesystem::path& folder);

// A writable mount keeps each pack's changes in the overlay folder named like the pack: two
// packs of one name (compared as the game compares names) would share it. Throws Error naming
// both paks.
void refuseSameNamePacks(const std::vector<packs::Pack>& packs);

// The overlay folder of `pak` under an overlay root given to the mount.
std::filesystem::path overlayFolderOf(const std::filesystem::path& overlayRoot,
                                      const archive::PakIndex& pak);

}  // namespace pakfs::commit
