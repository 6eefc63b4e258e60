// SPDX-License-Identifier: GPL-2.0-or-later
// How a pak is written: what `pak pack`, `pak commit` and the encoder of each entry share,
// and the counts a write gives back.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "archive/entry/GbxEntry.hpp"

namespace pakfs::archive {

// The public header of a version 6+ pack as the writer fills it.
struct PackHeaderFields {
    std::string authorLogin, authorNick, authorZone, comment, titleId;
    // Header flags: bit 0 header encrypted with the pack key, bit 1 with the default header
    // key (both: the two xored), bit 2 data private. Retail packs: 7.
    std::uint32_t headerFlags = 7;
    // Version 9+: the usage folder (the game's data pack: ":data:"); a commit keeps its base's.
    std::string usageSubDir;
    // Version 15+: where the data starts when the header fits below it (a commit keeps its
    // base's); 0: the writer's rule (doc/FORMAT.md §3.2).
    std::uint32_t headerMaxSize = 0;
};

struct PackOptions {
    std::uint32_t version = 3;  // 3, or 6 to 18 (.Pack.Gbx)
    PackHeaderFields header;    // version 6+
    // Version 6+: files stored in the clear and flagged public (readable without a key).
    std::vector<std::string> publicGlobs;
    int level = 6;  // compression level (zlib 1..9; LZ4 in version 18); 0 stores every entry
    int jobs = 0;   // threads encoding entries (0: availableCpus()); the output is the same for any
    // Deflate in pieces of this many bytes with Z_SYNC_FLUSH, as some other writers do (0: one
    // piece). Readers must cope with both, so tests use it.
    std::size_t syncFlushEvery = 0;
    // gbx files encrypted without the per-node ivXor: in version 3 the game misreads them; in
    // version 6+ they are flagged DontUseDummyWrite, which the game reads right.
    std::vector<std::string> rawGlobs;
    GbxPipelineRules gbxRules;   // the open skippable-chunk rule, for planning
    std::filesystem::path base;  // repack: copy unchanged entries from this pak
    // pak pack (planFolder): symbolic links in the folder are followed (else left out, all
    // named in one warning). A link to a folder that holds it is an error, as is a dangling one.
    bool followLinks = false;
    // pak pack (planFolder): files never packed though they are in the folder, each with its
    // temporary files (.NAME.tmp-XXXXXX beside it): the packlist.dat holding the key. writePak
    // adds the pak it writes.
    std::vector<std::filesystem::path> leaveOut;
    std::function<void(const std::string&)> warn;  // warnings (stderr in the CLI)
    // The last line of the error that lists the gbx files a version 3 pak cannot plan: how
    // to go on (empty: kUnplannableAdvice; writePak: pak pack's options).
    std::string unplannableAdvice;
    // Files done, files in all, bytes done, bytes in all.
    using Progress = std::function<void(std::size_t, std::size_t, std::uint64_t, std::uint64_t)>;
    Progress progress;
};

inline constexpr const char* kUnplannableAdvice =
    "To go on: leave them out, or write a version 6+ pack, where they are flagged "
    "DontUseDummyWrite (node reads do not mix the cipher), which the game reads right.";

// What writing a pak did: the counts of its summary line.
struct PackResult {
    std::size_t files = 0;
    std::size_t folders = 0;
    std::size_t compressed = 0;
    std::size_t copiedFromBase = 0;
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
};

}  // namespace pakfs::archive
