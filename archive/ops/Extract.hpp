// SPDX-License-Identifier: GPL-2.0-or-later
// `pak extract`: entries written under a folder, each to a temporary file renamed into place, with
// safe path components.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// Splits a pak path into components that are safe to create under a target folder: no empty,
// "." or ".." parts, no NUL, not absolute. Returns nullopt (with the reason) otherwise.
std::optional<std::vector<std::string>> safeComponents(const std::string& path,
                                                       std::string* reason = nullptr);

struct ExtractOptions {
    unsigned jobs = 1;
    bool progress = false;                          // a progress line on stderr
    std::function<void(const std::string&)> error;  // one line per failed entry
    GbxDecodeOptions gbx;                           // --unverified
    std::function<void(const std::string&)> warn;   // one line per unverified entry
    // Replace files already in the target folder; off: they are kept and counted.
    bool overwrite = false;
    std::string targetName;  // the target folder as the user named it, for messages
};

struct ExtractResult {
    std::size_t written = 0;
    std::size_t failed = 0;         // files
    std::size_t failedFolders = 0;  // folders of the pak (empty ones too) not created
    std::uint64_t bytes = 0;
    std::size_t kept = 0;   // files already there, kept (overwrite off)
    std::string firstKept;  // the first of them, as targetName/path
    // The failure of the target folder (full disk, read-only, I/O error) the run stopped at;
    // empty when it ran to the end. notDone: entries not written because of it.
    std::string stoppedBy;
    std::size_t notDone = 0;
};

// Extracts entries under `dir`, each to a temp file renamed into place. Creates folders
// through directory handles without following symlinks, so nothing lands outside `dir`.
// A failing entry is reported and skipped; the others carry on. A failure of the target
// itself (ENOSPC, EDQUOT, EROFS, EIO, no file descriptors) stops the run at the first.
// `folders` are created too (so empty folders of the pak appear), safely, like the files' folders.
ExtractResult extractEntries(const std::shared_ptr<const PakIndex>& pak,
                             const std::vector<const PakEntry*>& entries,
                             const std::filesystem::path& dir, const ExtractOptions& options,
                             const std::vector<const PakFolder*>& folders = {});

}  // namespace pakfs::archive
