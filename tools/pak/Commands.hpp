// SPDX-License-Identifier: GPL-2.0-or-later
// The pak command's subcommand groups and the helpers they share.
#pragma once

#include <CLI/CLI.hpp>

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "commit/CommitPak.hpp"

namespace pakfs::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

// Each group registers its subcommands on the app. A subcommand's callback does its work and
// stores its exit code in `exitCode`; errors with input are thrown as pakfs::Error and printed
// by main as "pak: <message>" with exit code 1, an option given wrong as pakfs::UsageError
// (exit code 2).
void addInspectCommands(CLI::App& app, int& exitCode);   // info ls cat
void addExtractCommands(CLI::App& app, int& exitCode);   // extract
void addPackCommands(CLI::App& app, int& exitCode);      // pack
void addCheckCommands(CLI::App& app, int& exitCode);     // check
void addPacklistCommands(CLI::App& app, int& exitCode);  // packlist ls/add
void addGbxCommands(CLI::App& app, int& exitCode);       // gbx info
void addRefsCommands(CLI::App& app, int& exitCode);      // gbx refs (after addGbxCommands)
void addCommitCommands(CLI::App& app, int& exitCode);    // commit
void addDiffCommands(CLI::App& app, int& exitCode);      // diff
void addEditCommands(CLI::App& app, int& exitCode);      // add rm mv

// Opens a pak through the one opener (archive::openPak) with the key the options name (or the
// packlist beside it), reading the --names files first; key and metadata warnings go to stderr.
// resolveNames: version 6+ hashed names shown as the real ones the pack's gbx files give (the
// default; false for --hashed-names, which does not go with --names: UsageError).
// nameLists: --names files.
// salvage: --salvage (see archive::PakIndex::open).
// A file that is no pak, or too short for one, is named as such before any key is looked up.
std::shared_ptr<const archive::PakIndex> openAndWarn(const std::string& path,
                                                     const archive::KeyOptions& keys,
                                                     bool resolveNames = true,
                                                     const std::vector<std::string>& nameLists = {},
                                                     bool salvage = false);
// Paks read together (pak diff's A and B), each opened by openAndWarn with resolveNames false
// and no lists: copies whose hashed names are resolved with the references of all of them
// (archive::resolveNamesTogether), then the --names lists'.
std::vector<std::shared_ptr<const archive::PakIndex>> nameTogether(
    std::vector<std::shared_ptr<const archive::PakIndex>> paks, bool resolveNames,
    const std::vector<std::string>& nameLists);
// A gbx file on disk, read whole (at most 1 GiB); errors name the file and the reason.
Bytes readGbxFileOnDisk(const std::string& path);

// The entry at `path` inside the pak: exact match first, then ignoring case, then (a file shown
// under its real name) its stored hashed path ignoring case; null if none.
const archive::PakEntry* findEntry(const archive::PakIndex& pak, const std::string& path);

// --salvage: an entry whose bytes are not all in the file is named on stderr with the reason
// and left out; returns whether it was.
bool leftOut(const archive::PakIndex& pak, const archive::PakEntry& e);

// After writing the pak `out` with `key`: when no packlist.dat beside it gives that key to its
// pack name (as pak and the game find keys), says so on stderr with the commands that open it
// (--key) or add the entry (pak packlist add, with `keyString` when it is known).
void adviseHowItOpens(const std::filesystem::path& out, const archive::PakKey& key,
                      const std::optional<std::string>& keyString);

// The key string of the packlist entry `pakPath` was opened with, when that entry gives `key`.
std::optional<std::string> keyStringOf(const std::filesystem::path& pakPath,
                                       const archive::KeyOptions& keys, const archive::PakKey& key);

// What a planned commit or edit changes, one "K PATH" line each on stdout and the count on
// stderr (`what`: the pak, `from`: the overlay folder the changes come from, or with
// `fromOverlay` false the edit making them, "pak add"), or one JSON object {pak, overlay (only
// from an overlay), changes}.
void printChanges(const archive::ChangePlan& plan, const std::string& what, const std::string& from,
                  bool json, bool fromOverlay = true);

// The summary of a commit or edit that wrote `given` (named with the file its links lead to),
// on stderr, or as JSON {out, files, folders, copied, encoded, changes} on stdout.
void printWritten(const commit::CommitResult& result, const std::string& given, bool json);
// pak commit --patch: the changes (dry run) or the patch pack written (`packList`: where it
// was listed).
void printPatch(const commit::PatchResult& result, const std::string& overlay,
                const std::string& packList, bool dryRun, bool json);

// pak check --refs PACKSDIR: every gbx file's references resolved, as text or (json) one JSON
// object; returns the exit code.
int checkReferences(const std::string& packsDir, const archive::KeyOptions& keys, bool json);

}  // namespace pakfs::cli
