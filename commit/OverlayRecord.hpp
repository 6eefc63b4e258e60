// SPDX-License-Identifier: GPL-2.0-or-later
// Which pak each pack folder of an overlay was made over: a text file at the overlay folder's
// top (kOverlayRecordFile), written by the writable mount and by `pak commit --in-place`, read by
// `pak commit`, so that changes made over one pak are not applied to another unasked.
//
//   # comment lines
//   PACK <TAB> mounted|committed <TAB> STAMP <TAB> PAK PATH
//
// STAMP changes whenever the pak's contents do: the header MD5 of a version 3 pak (it covers
// the file table, so every entry's size and place), the contents checksum (SHA-256) of a
// version 6+ pack.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "packs/Pack.hpp"

namespace pakfs::commit {

inline constexpr const char* kOverlayRecordFile = ".pakfs-packs";

struct OverlayRecord {
    std::string pack;   // the pack's folder name in the overlay
    std::string state;  // "mounted": made over the pak; "committed": written into it in place
    std::string stamp;
    std::string pakPath;
};

// The stamp of a pak's contents (see above).
std::string pakStamp(const archive::PakIndex& pak);

// The records of `overlayRoot` (none when it has no record file). Throws Error naming the file
// and line for a line it cannot read.
std::vector<OverlayRecord> readOverlayRecords(const std::filesystem::path& overlayRoot);

// Replaces the record file (temporary file, fsync, rename).
void writeOverlayRecords(const std::filesystem::path& overlayRoot,
                         const std::vector<OverlayRecord>& records);

// The writable mount: records each pack it serves whose folder in the overlay is empty or
// absent, or that has no record yet. Returns one warning per pack recorded over another pak
// (its changes are shown over this one, and `pak commit` will refuse them).
std::vector<std::string> recordMountedPacks(const std::filesystem::path& overlayRoot,
                                            const std::vector<packs::Pack>& packs);

// `pak commit`: throws Error when the overlay records `pak` (by its pack name) as another pak,
// or as already committed into it, with what to do; nothing when it has no record of it.
void checkOverlayRecord(const std::filesystem::path& overlayRoot, const std::string& packName,
                        const archive::PakIndex& pak, const std::string& pakPath);

// After `pak commit --in-place`: the pack's changes are in `pak` now.
void markCommitted(const std::filesystem::path& overlayRoot, const std::string& packName,
                   const archive::PakIndex& pak, const std::string& pakPath);

}  // namespace pakfs::commit
