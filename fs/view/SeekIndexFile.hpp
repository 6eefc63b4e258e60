// SPDX-License-Identifier: GPL-2.0-or-later
// Seek points of large compressed entries kept between mounts, so that the first random read
// in a fresh mount does not wait for a decode from the start. One file per entry under
// $XDG_CACHE_HOME/pakfs/seek (or ~/.cache/pakfs/seek), named after the pak's path and the
// entry; it is used only when the pak's size, modification time and header MD5, the entry's
// place and sizes and the span all match, and the MD5 of its point table proves that table was
// not damaged; each window (deflated, after the table) has its CRC-32 in the table, checked
// when a read resumes at its point, which reads the window from the file then (the points in
// memory are a few dozen bytes each; loading reads only the table, so a first read waits for
// no more than that): a resumed inflate has no checksum of its own, so a wrong window is never
// used. A window that fails its check drops its point (the read resumes at the one before)
// and the file is removed, to be built again by the next mount (SeekPointKeeper).
#pragma once

#include <filesystem>
#include <optional>

#include "archive/pak/PakIndex.hpp"
#include "archive/stream/SeekPoints.hpp"

namespace pakfs::fs {

// The folder of the index files: $XDG_CACHE_HOME/pakfs/seek or ~/.cache/pakfs/seek; nullopt
// when neither $XDG_CACHE_HOME nor $HOME is set (as an absolute path).
std::optional<std::filesystem::path> seekIndexFolder();

// Where the entry's seek points are kept, in seekIndexFolder().
std::optional<std::filesystem::path> seekIndexFile(const archive::PakIndex& pak,
                                                   const archive::PakEntry& entry);

// Adds the points kept in `file` to `into`; false (and nothing added) when the file is missing,
// stale or its table damaged (the windows are checked when used).
bool loadSeekIndex(const std::filesystem::path& file, const archive::PakIndex& pak,
                   const archive::PakEntry& entry, archive::SeekIndex& into);

// Writes the points of `index` to `file` (temp file, then rename). Throws Error.
void saveSeekIndex(const std::filesystem::path& file, const archive::PakIndex& pak,
                   const archive::PakEntry& entry, const archive::SeekIndex& index);

}  // namespace pakfs::fs
