// SPDX-License-Identifier: GPL-2.0-or-later
// planCommit: one pack's overlay folder planned over its pak; planPatch: a -o drives overlay's
// Game drive as a patch pack, with Resource changes, deletions and hidden folders refused.
#include "commit/OverlayPlan.hpp"

#include <optional>

#include "commit/OverlayLayout.hpp"
#include "commit/OverlayRecord.hpp"
#include "common/Bytes.hpp"
#include "packs/Drives.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::commit {

namespace {

// The first thing in `dir` in name order, depth first: a file (or whiteout) when there is
// one, else the first folder; nullopt when `dir` is absent or empty.
std::optional<stdfs::path> firstUnder(const stdfs::path& dir) {
    std::error_code ec;
    if (!stdfs::is_directory(stdfs::symlink_status(dir, ec))) {
        if (stdfs::exists(stdfs::symlink_status(dir, ec))) return dir;
        return std::nullopt;
    }
    std::optional<stdfs::path> folder;
    for (const auto& name : sortedNames(dir)) {
        const stdfs::path item = dir / name;
        if (!stdfs::is_directory(stdfs::symlink_status(item, ec))) return item;
        auto inner = firstUnder(item);
        if (inner && !stdfs::is_directory(stdfs::symlink_status(*inner, ec))) return inner;
        if (!folder) folder = inner ? inner : item;
    }
    return folder;
}

}  // namespace

archive::ChangePlan planCommit(const std::shared_ptr<const archive::PakIndex>& pak,
                               const stdfs::path& packOverlay) {
    std::error_code ec;
    if (stdfs::exists(packOverlay, ec) && !stdfs::is_directory(packOverlay, ec))
        throw Error(packOverlay.string() + ": not a folder");
    return archive::planChanges(pak, readOverlayChanges(packOverlay));
}

archive::ChangePlan planPatch(const std::vector<packs::Pack>& packs, const stdfs::path& overlayRoot,
                              const std::string& keyWords) {
    // Only the drives of a -o drives mount, and its own names, belong in its overlay folder.
    for (const auto& name : sortedNames(overlayRoot))
        if (name != packs::kResourceDrive && name != packs::kGameDrive && !isOverlayOwnName(name))
            throw Error((overlayRoot / name).string() +
                        ": not a drive (Game, Resource): --patch takes the overlay folder of a "
                        "-o drives mount");
    const stdfs::path resource = overlayRoot / std::string(packs::kResourceDrive);
    if (auto first = firstUnder(resource)) {
        const packs::Pack* pak = nullptr;
        for (const auto& pack : packs)
            if (packs::isResourcePack(pack)) pak = &pack;
        // Committed into Resource.pak already (as the advice below says), and that pak
        // unchanged since: nothing of the drive is left for the patch.
        bool committed = false;
        for (const auto& r : readOverlayRecords(overlayRoot))
            committed = committed || (pak && foldCase(r.pack) == foldCase(packs::kResourceDrive) &&
                                      r.state == "committed" && r.stamp == pakStamp(*pak->pak));
        if (!committed)
            throw Error(first->string() +
                        ": changes to the Resource drive cannot go into a patch pack (the game "
                        "loads Resource.pak on its own): commit them with pak commit " +
                        shellWord(pak ? pak->pak->name() : std::string("Resource.pak")) + " " +
                        shellWord(overlayRoot.string()) + " --in-place" + keyWords);
    }
    const archive::ChangeSet changes =
        readOverlayChanges(overlayRoot / std::string(packs::kGameDrive));
    const packs::Drives drives(packs);
    // A pack loaded later only adds and replaces files: a deletion (from a mount older than the
    // refusal at rm time) can only be made in the pack that holds the file.
    auto refuse = [&](const stdfs::path& marker, const std::string& path, const char* what) {
        const std::string drivePath =
            std::string(packs::kGameDrive) + (path.empty() ? "" : "/" + path);
        const std::string advice = drives.deletionAdvice(drivePath);
        throw Error(marker.string() + ": a patch pack cannot " + what +
                    " (a pack loaded later only adds and replaces files): remove " +
                    marker.string() +
                    (advice.empty() ? ", no pack holds " + drivePath : "; " + advice));
    };
    for (const auto& [path, marker] : changes.whiteouts) refuse(marker, path, "delete");
    for (const auto& [path, marker] : changes.opaque)
        refuse(marker, path, "hide the files of a folder");
    auto shown = [&](const std::string& path) -> std::optional<archive::ShownEntry> {
        const packs::DriveFile* file = drives.find(std::string(packs::kGameDrive) + "/" + path);
        if (!file) return std::nullopt;
        return archive::ShownEntry{drives.packs()[std::size_t(file->pack)].pak, file->entry};
    };
    // The version of the packs it joins (the last Game pack's), version 3 for none.
    std::uint32_t version = 3;
    for (const auto& pack : packs)
        if (!packs::isResourcePack(pack)) version = pack.pak->version();
    return archive::planPatch(changes, shown, version);
}

}  // namespace pakfs::commit
