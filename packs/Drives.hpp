// SPDX-License-Identifier: GPL-2.0-or-later
// The game's view of packs: files merged into drives, and gbx references resolved in them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/ShellWord.hpp"
#include "gbx/Header.hpp"
#include "packs/Pack.hpp"

namespace pakfs::packs {

struct DriveFile {
    std::string path;  // "Resource/..." or "Game/...", as the pack spells it
    int pack = -1;     // index into Drives::packs()
    const archive::PakEntry* entry = nullptr;
};

// A file that another pack's file with the same drive path replaced.
struct ShadowedFile {
    std::string path;
    std::string hiddenPack;  // the pack whose file is not visible
    std::string winnerPack;  // the pack whose file is
};

// Resource.pak makes the Resource drive; every other pack is merged into the Game drive in
// load order (packlist.dat order, then packs it does not list, by name). When two packs hold
// the same path (compared case-insensitively), the pack loaded LATER wins, as a later layer
// replaces an earlier one; the hidden files are listed in shadowed().
class Drives {
public:
    explicit Drives(std::vector<Pack> packs);
    Drives(const Drives&) = delete;
    Drives& operator=(const Drives&) = delete;

    const std::vector<Pack>& packs() const { return packs_; }
    // A file by drive path ("Game/Media/x.dds"), case-insensitively; nullptr if absent.
    const DriveFile* find(std::string_view drivePath) const;
    // Whether a folder exists in a drive ("Game/Media"), case-insensitively.
    bool hasFolder(std::string_view drivePath) const;
    // Resource drive files in the order resource indexes use (Resource.pak's file table).
    const std::vector<const DriveFile*>& resources() const { return resources_; }
    // The drive path of a pack's entry, if that entry is the visible one.
    std::optional<std::string> drivePathOf(int pack, const archive::PakEntry& entry) const;
    std::vector<const DriveFile*> files() const;  // every visible file, sorted by path
    const std::vector<ShadowedFile>& shadowed() const { return shadowed_; }

    // A pack that holds a drive path, and how it spells the path.
    struct Holder {
        int pack = -1;     // index into packs()
        std::string path;  // "Game/Media/x.dds"
    };
    // The packs that hold `drivePath` (case-insensitively), a file or a folder, in load order:
    // for a file, the packs whose file it hides, then the one whose file shows.
    std::vector<Holder> holders(std::string_view drivePath) const;
    // How to delete `drivePath` of the Game drive, which a patch pack cannot (a pack loaded
    // later only adds and replaces files): the packs that hold it and the commands that delete
    // it from the first of them, paths quoted for a shell. "" when no pack holds it.
    std::string deletionAdvice(std::string_view drivePath) const;

private:
    std::vector<Pack> packs_;
    std::vector<DriveFile> files_;
    std::map<std::string, std::size_t> byKey_;  // folded path -> index into files_
    // Folded folder paths, with the packs that hold each (a pack's folder table included).
    std::map<std::string, std::vector<Holder>> folders_;
    // Folded file paths held by more than one pack: the packs whose file is hidden.
    std::map<std::string, std::vector<Holder>> hidden_;
    std::vector<const DriveFile*> resources_;
    std::vector<ShadowedFile> shadowed_;
};

// Orders packs as the game loads them: Resource first, then the order of packlist.dat (if
// given), then the packs it does not list by name.
std::vector<Pack> orderPacks(std::vector<Pack> packs,
                             const std::vector<std::string>& packListOrder);

// Pack names in the order of the packlist.dat of each folder among `sources` (for orderPacks).
std::vector<std::string> packListOrder(const std::vector<std::filesystem::path>& sources,
                                       std::vector<std::string>* warnings = nullptr);

struct ResolvedReference {
    gbx::ExternalRef ref;
    std::optional<std::string> resolved;  // drive path, or nullopt when it cannot point anywhere
    bool exists = false;
    std::string problem;  // why `resolved` is null (ancestor level too deep, resource index)
    // A reference by resource index: which file it names is not known, so it is neither
    // resolved nor counted as missing.
    bool unknown = false;
};

// Resolves a gbx file's external references. `fileDrivePath` is the gbx file's own drive path
// ("Game/Tracks/a.Challenge.Gbx"): go up ancestorLevel folders from its folder, then into the
// reference table's folder (depth-first index, 0 = that base folder). References by resource
// index are not resolved (ResolvedReference::unknown): which file they name is not known.
std::vector<ResolvedReference> resolveReferences(const Drives& drives,
                                                 std::string_view fileDrivePath,
                                                 const gbx::RefTable& refs);

// The same for a gbx file outside any pack: names are looked up on disk next to `file`
// (case-insensitively).
std::vector<ResolvedReference> resolveReferencesOnDisk(const std::filesystem::path& file,
                                                       const gbx::RefTable& refs);

}  // namespace pakfs::packs
