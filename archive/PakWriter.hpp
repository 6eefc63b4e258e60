// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/GbxEntry.hpp"
#include "archive/PakIndex.hpp"

namespace pakfs::archive {

// The public header of a version 6+ pack as the writer fills it.
struct PackHeaderFields {
    std::string authorLogin, authorNick, authorZone, comment, titleId;
    // Header flags: bit 0 header encrypted with the pack key, bit 1 with the default header
    // key (both: the two xored), bit 2 data private. Retail packs: 7.
    std::uint32_t headerFlags = 7;
};

struct PackOptions {
    std::uint32_t version = 3;  // 3, or 6 to 18 (.Pack.Gbx)
    PackHeaderFields header;    // version 6+
    // Version 6+: files stored in the clear and flagged public (readable without a key).
    std::vector<std::string> publicGlobs;
    int level = 6;  // compression level (zlib 1..9; LZ4 in version 18); 0 stores every entry
    int jobs = 0;   // threads encoding entries (0: one per core); the output is the same for any
    // Deflate in pieces of this many bytes with Z_SYNC_FLUSH, as some other writers do (0: one
    // piece). Readers must cope with both, so tests use it.
    std::size_t syncFlushEvery = 0;
    // gbx files encrypted without the per-node ivXor: in version 3 the game misreads them; in
    // version 6+ they are flagged DontUseDummyWrite, which the game reads right.
    std::vector<std::string> rawGlobs;
    GbxPipelineRules gbxRules;                     // the open skippable-chunk rule, for planning
    std::filesystem::path base;                    // repack: copy unchanged entries from this pak
    std::function<void(const std::string&)> warn;  // warnings (stderr in the CLI)
    // The last line of the error that lists the gbx files a version 3 pak cannot plan: how
    // to go on (empty: kUnplannableAdvice; writePak: pak pack's options).
    std::string unplannableAdvice;
    // Files done, files in all, bytes done, bytes in all.
    std::function<void(std::size_t, std::size_t, std::uint64_t, std::uint64_t)> progress;
};

inline constexpr const char* kUnplannableAdvice =
    "To go on: leave them out, or write a version 6+ pack, where they are flagged "
    "DontUseDummyWrite (node reads do not mix the cipher), which the game reads right.";

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

// The public header of a version 6+ pack as the writer makes it (PACK-V6-NOTES, Layout), with
// the contents checksum left zero.
Bytes packGbxPublicHeader(std::uint32_t version, const PackHeaderFields& h,
                          std::uint32_t headerMaxSize);

// Encrypts plaintext (a multiple of 8 bytes) in place as the game's reader will decode it:
// CBC from `iv`, xoring ivXorPerSegment[k] into the chaining value at the start of segment k.
void encryptSegments(Bytes& data, std::uint64_t iv,
                     const std::vector<std::uint64_t>& ivXorPerSegment, const Blowfish& cipher);

// The flag bits a new encoding of a file sets itself (compression, cipher mode, the per-node
// ivXor switch, public / no-crypt); every other bit of an entry's flags is kept when the file
// is re-encoded. Version 3: the bits the game tests for compression (0x7C).
std::uint64_t encodingFlagBits(std::uint32_t version);

// The pak file table's class ID for a plain file, from its extension.
std::uint32_t classIdForExtension(const std::string& fileName);

}  // namespace pakfs::archive
