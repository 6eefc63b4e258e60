// SPDX-License-Identifier: GPL-2.0-or-later
// What a pack to write holds: its folders and files, and where each file's bytes come from.
// PackPlanner.hpp makes plans; PakWriter.hpp writes them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

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
// another class), its unexplained table field (6+; version 3 writes it from the metadata
// section) and, in a pak of the same kind (3, or 6+), every
// flag bit that does not describe the encoding (encodingFlagBits; version 3 adds kFlagV3Game):
// what the game knows of the file stays as it was.
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

}  // namespace pakfs::archive
