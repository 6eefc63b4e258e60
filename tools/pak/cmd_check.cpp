// SPDX-License-Identifier: GPL-2.0-or-later
// pak check: every file of a pak decoded, and how its bytes are proven.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "archive/ops/Check.hpp"
#include "archive/ops/CheckJson.hpp"
#include "archive/ops/HashedNames.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/KeyArgs.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

namespace {

// The text line of a checked entry: how a gbx or counter-mode entry is proven (or why not),
// each plain entry no checksum covers, and each entry that fails; none for a plain entry that
// reads whole and is proven.
void printCheckedLine(const CheckedEntry& e) {
    if (!e.unverified.empty())
        std::printf("plain unverified %s: %s\n", e.path.c_str(), e.unverified.c_str());
    else if (e.incomplete)
        std::printf("not salvaged: %s\n", e.error.c_str());
    else if (!e.error.empty())
        std::printf("undecodable: %s\n", e.error.c_str());
    else if (e.counterMode)
        std::printf("%-13s %s: %s\n", e.decode.c_str(), e.path.c_str(), e.detail.c_str());
    else if (e.decode == gbxDecodeKindName(GbxDecodeKind::Refused))
        std::printf("gbx refused   %s\n", e.detail.c_str());
    else if (!e.decode.empty())
        std::printf("gbx %-9s %s: %s\n", e.decode.c_str(), e.path.c_str(), e.detail.c_str());
}

// The counts, after the entries' lines.
void printCheckSummary(const CheckReport& r) {
    // The counter-mode count only where there are any (version 6+ packs).
    std::string counter;
    if (r.counterProven + r.counterUnverified > 0)
        counter = ", " + std::to_string(r.counterProven + r.counterUnverified) + " counter mode (" +
                  std::to_string(r.counterProven) + " proven, " +
                  std::to_string(r.counterUnverified) + " unverified)";
    // The plain files no checksum covers likewise.
    std::string unverified;
    if (r.plainUnverified > 0)
        unverified = " (" + std::to_string(r.plainUnverified) + " unverified)";
    std::printf(
        "%zu files: %zu plain%s, %zu gbx (%zu parsed, %zu header, %zu exact, %zu verified, "
        "%zu refused)%s, %zu undecodable\n",
        r.files, r.plain, unverified.c_str(), r.gbxTotal(), r.gbxCount(GbxDecodeKind::Parsed),
        r.gbxCount(GbxDecodeKind::Header), r.gbxCount(GbxDecodeKind::Exact),
        r.gbxCount(GbxDecodeKind::Verified), r.gbxCount(GbxDecodeKind::Refused), counter.c_str(),
        r.undecodable());
    if (r.incomplete > 0)
        std::printf("%zu not salvaged (data past the end of the file)\n", r.incomplete);
}

}  // namespace

void addCheckCommands(CLI::App& app, int& exitCode) {
    auto* cmd = app.add_subcommand(
        "check", "Decode every file of a pak and say how it is proven (--refs: check references)");
    cmd->footer(
        "Lines (pak(1): GBX ENTRIES): gbx parsed (every node read to its end), header (LZO body:\n"
        "the header decides), exact (no unseen node read can change a byte), verified (node scan,\n"
        "Adler-32 and size prove it), gbx refused (why); counter (Adler-32 proves it) and\n"
        "counter:unverified (version 6+ counter mode); plain unverified (no checksum covers it);\n"
        "undecodable; then the counts. Exit 1 if any is refused, counter:unverified or fails.");
    auto keys = std::make_shared<KeyOptions>();
    auto pakPath = std::make_shared<std::string>();
    auto refs = std::make_shared<bool>(false);
    cmd->add_option("PAK", *pakPath, "The .pak file (with --refs: the Packs folder)")->required();
    cmd->add_flag("--refs", *refs,
                  "Check references across the drives of a Packs folder: broken ones, "
                  "unreadable files and files hidden by another pack");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json,
                  "One JSON object instead of the lines (keys: see pak(1), also with --refs)");
    auto strict = std::make_shared<bool>(false);
    cmd->add_flag("--strict", *strict,
                  "Exit 1 also when a plain file is unverified: no checksum covers its bytes "
                  "(which files those are: pak(1))");
    auto scan = std::make_shared<ScanArgs>();
    addScanOptions(cmd, *scan);
    auto salvage = std::make_shared<bool>(false);
    cmd->add_flag("--salvage", *salvage,
                  "Check a pak cut short: the files whose bytes are all there are checked as "
                  "usual, each other one gets a \"not salvaged\" line saying where its data "
                  "ends (exit 1)");
    addKeyOptions(cmd, *keys);
    cmd->callback([=, &exitCode] {
        if (*refs) {
            exitCode = checkReferences(*pakPath, *keys, *json);
            return;
        }
        auto pak = openAndWarn(*pakPath, *keys, !scan->hashedNames, scan->names, *salvage);
        const HashedNameCount hashed = countHashedNames(*pak);
        Progress progress(scan->quiet);
        CheckOptions options;
        options.progress = progress.callback();
        if (!*json) options.checked = printCheckedLine;
        CheckReport report = checkPak(pak, options);
        if (*json) {
            std::cout << archive::checkReportJson(pak->name(), report, hashed).dump(2) << "\n";
        } else {
            printCheckSummary(report);
            if (hashed.resolved + hashed.left > 0)
                std::printf(
                    "%zu files stored under a hashed name: %zu named, %zu left as "
                    "hashes\n",
                    hashed.resolved + hashed.left, hashed.resolved, hashed.left);
        }
        if (report.failed > 0 || !pak->metadataError().empty() ||
            (*strict && report.plainUnverified > 0))
            exitCode = kExitBadInput;
    });
}

}  // namespace pakfs::cli
