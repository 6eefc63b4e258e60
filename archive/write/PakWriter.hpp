// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/pak/PakIndex.hpp"
#include "archive/write/PackOptions.hpp"

namespace pakfs::archive {

struct PackResult {
    std::size_t files = 0;
    std::size_t folders = 0;
    std::size_t compressed = 0;
    std::size_t copiedFromBase = 0;
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
};

// A folder of the pack to write: `parent` indexes PackPlan::folders (-1 = the root) and must
// come before it.
struct PlanFolder {
    std::int32_t parent = -1;
    std::string name;  // with trailing backslash, as the pak stores it
};

// A file of the pack to write. Its bytes are the encrypted slot of `copy` (an entry of
// PackPlan::base, never decoded), or else the content of `disk`, which is still copied from
// `baseCandidate` when that entry decodes to exactly the same bytes (--base). A file encoded
// anew in place of an entry (`was`, else the base candidate: pak commit of a changed file, a
// patch replacing a file) keeps that entry's class ID (unless the content is a gbx file of
// another class), its unexplained table field and, in a pak of the same kind (3, or 6+), every
// flag bit that does not describe the encoding (encodingFlagBits): what the game knows of the
// file stays as it was.
struct PlanFile {
    std::int32_t folder = -1;
    std::string name;      // as the pak stores it
    std::string packPath;  // "/"-joined, for messages and globs
    std::filesystem::path disk;
    const PakEntry* copy = nullptr;
    const PakEntry* baseCandidate = nullptr;
    const PakEntry* was = nullptr;
    std::uint32_t wasVersion = 0;  // the version of the pak `was` is of
};

struct PackPlan {
    std::vector<PlanFolder> folders;
    std::vector<PlanFile> files;
    std::shared_ptr<const PakIndex> base;  // the pak `copy` and `baseCandidate` entries are of
};

// Why a file or folder name cannot be stored in a pak (nullopt: it can).
std::optional<std::string> unstorableName(std::string_view name);

// Builds a pak (version 3, or 6 to 18 with options.version) from a folder tree; writes to a
// temp file and renames it into place.
PackResult writePak(const std::filesystem::path& sourceDir, const std::filesystem::path& output,
                    const PakKey& key, const PackOptions& options);

// Writes the pack a plan describes (options.base is not read: the plan says what is copied).
// The output goes to a temp file in its folder, fsynced and renamed into place: an
// interrupted or failed write leaves `output` as it was.
PackResult writePlan(const PackPlan& plan, const std::filesystem::path& output, const PakKey& key,
                     const PackOptions& options);

// The public header of a version 6+ pack as the writer makes it (doc/FORMAT.md §3.1), with
// the contents checksum left zero.
Bytes packGbxPublicHeader(std::uint32_t version, const PackHeaderFields& h,
                          std::uint32_t headerMaxSize);

}  // namespace pakfs::archive
