// SPDX-License-Identifier: GPL-2.0-or-later
// The commit workflow (CommitWorkflow.hpp): locks, record checks, plan, write, record.
#include "commit/CommitPak.hpp"

#include <unistd.h>

#include <chrono>
#include <optional>
#include <thread>

#include "archive/ops/PakOpener.hpp"
#include "commit/OverlayLayout.hpp"
#include "commit/OverlayRecord.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"
#include "packs/Drives.hpp"
#include "packs/MountPaths.hpp"
#include "packs/Sources.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::fs {

namespace {

constexpr std::string_view kMountHolder = "mount ";

void warnOf(const std::function<void(const std::string&)>& warn, const std::string& line) {
    if (warn) warn(line);
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace

void warnServingMounts(const WriterLock& lock, const std::string& ownMount,
                       const std::function<void(const std::string&)>& warn) {
    for (const auto& mount : lock.servingMounts())
        if (mount != ownMount)
            warnOf(warn, lock.target().string() + " is served by the writable mount at " + mount +
                             ": it keeps showing the old pak until it is mounted again, and "
                             "pak commit refuses the changes made there over the old pak");
}

std::shared_ptr<const archive::PakIndex> openForWriting(
    const stdfs::path& path, const archive::KeyOptions& keys,
    const std::function<void(const std::string&)>& warn) {
    archive::OpenedPak opened = archive::openPak(path, keys);
    for (const auto& w : opened.warnings) warnOf(warn, w);
    if (!opened.pak->metadataError().empty()) warnOf(warn, opened.pak->metadataError());
    if (!opened.pak->hasKey())
        throw Error(path.string() + ": the pack key is needed to write it (--key, --base-key)");
    return opened.pak;
}

void writeChangePlan(CommitResult& result, const WriterLock& lock, int level, int jobs,
                     const std::function<void(const std::string&)>& warn,
                     const archive::PackOptions::Progress& progress) {
    archive::PackOptions options = result.plan.options;
    options.level = level;
    options.jobs = jobs;
    options.warn = warn;
    options.progress = progress;
    result.pack = archive::writePlan(result.plan.plan, lock.target(), result.key, options);
    result.target = lock.target();
    result.written = true;
}

namespace {

// Whether a pakfs is mounted at `point` now (the path as the mount wrote it into the lock).
bool pakfsMountedAt(const std::string& point) {
    std::error_code ec;
    const stdfs::path canonical = stdfs::weakly_canonical(point, ec);
    std::optional<MountEntry> m = mountAt(ec ? point : canonical.string());
    return m && m->type.starts_with("fuse");
}

}  // namespace

FolderLock lockOverlay(const stdfs::path& overlayRoot, const std::string& holder) {
    const std::string self = holder + " (pid " + std::to_string(::getpid()) + ")";
    // A mount that was just unmounted still holds the lock while its process ends (and, with
    // -o commit, while it commits): "fusermount3 -u MOUNT; pak commit ..." waits for that (up to
    // 10 s) instead of being refused; a mount that is still mounted is refused at once.
    constexpr int kEndingWaitSteps = 200;  // x 50 ms: 10 s
    for (int step = 0;; ++step) {
        std::string heldBy;
        FolderLock lock = FolderLock::tryAcquire(overlayRoot / kOverlayLockFile, self, heldBy);
        if (lock.taken()) return lock;
        if (!heldBy.starts_with(kMountHolder))
            throw Error(overlayRoot.string() + ": in use by another pak command (" + heldBy +
                        "); try again when it is done");
        std::string mount = heldBy.substr(kMountHolder.size());
        const std::size_t pidAt = mount.rfind(" (pid ");
        // This process's own lock cannot end by waiting.
        const bool ours = pidAt != std::string::npos &&
                          mount.substr(pidAt) == " (pid " + std::to_string(::getpid()) + ")";
        mount = mount.substr(0, pidAt);
        if (ours || pakfsMountedAt(mount) || step == kEndingWaitSteps)
            throw Error(overlayRoot.string() + ": the writable mount at " + mount +
                        " is using this overlay folder: unmount " + mount +
                        " first (fusermount3 -u " + mount + ")");
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

std::vector<std::string> strayOverlayNames(const stdfs::path& overlayRoot,
                                           const std::vector<std::string>& packNames) {
    std::vector<std::string> known;
    for (const auto& n : packNames) known.push_back(foldCase(n));
    for (const auto& r : readOverlayRecords(overlayRoot)) known.push_back(foldCase(r.pack));
    std::vector<std::string> stray;
    for (const auto& name : sortedNames(overlayRoot)) {
        if (isOverlayOwnName(name)) continue;
        bool isPack = false;
        for (const auto& k : known) isPack = isPack || k == foldCase(name);
        if (!isPack) stray.push_back(name);
    }
    return stray;
}

CommitResult commitOverlay(const CommitRequest& request) {
    const bool inPlace = request.out.empty();
    const stdfs::path& overlay = request.overlay;
    std::error_code ec;
    if (!stdfs::is_directory(overlay, ec))
        throw Error(overlay.string() + (stdfs::exists(overlay, ec)
                                            ? ": not a folder (OVERLAY is the folder given to the "
                                              "mount as -o overlay=)"
                                            : ": no such folder"));
    if (!request.dryRun) archive::refuseMsKeyForWriting(request.keys);
    // The overlay first, then the file written: every writer takes them in this order.
    FolderLock overlayLock;
    std::optional<WriterLock> writerLock;
    if (!request.dryRun) {
        if (!request.holdsOverlay) overlayLock = lockOverlay(overlay, "commit");
        writerLock.emplace(WriterLock::acquire(inPlace ? request.pak : request.out, request.wait));
    }
    // Read only now: a commit that held the lock before has finished with it.
    const auto pak = openForWriting(request.pak, request.keys, request.warn);
    CommitResult result;
    result.key = pak->key();
    result.packOverlay = overlayFolderOf(overlay, *pak);
    const std::string packName = archive::packNameOf(pak->name());
    if (!stdfs::exists(stdfs::symlink_status(result.packOverlay, ec))) {
        // The likeliest mistake: an extracted tree given as the overlay folder itself.
        const std::vector<std::string> stray = strayOverlayNames(overlay, {packName});
        if (!stray.empty())
            throw Error(overlay.string() + ": holds no folder " + packName + " for " +
                        request.pak.string() + ", but " + joined(stray) +
                        ", which no pack's folder is: an overlay folder keeps each pack's changes "
                        "in a folder named like the pack (" +
                        (overlay / packName).string() + "/...); move them there");
    }
    if (!request.force) checkOverlayRecord(overlay, packName, *pak, request.pak.string());
    result.plan = planCommit(pak, result.packOverlay);
    for (const auto& w : result.plan.warnings) warnOf(request.warn, w);
    if (request.dryRun) return result;
    if (result.plan.changes.empty() && (inPlace || !request.allowEmpty)) return result;
    if (inPlace) warnServingMounts(*writerLock, request.ownMount, request.warn);
    writeChangePlan(result, *writerLock, request.level, request.jobs, request.warn,
                    request.progress);
    // The overlay's changes are in the pak now: a second commit says so.
    if (inPlace)
        markCommitted(overlay, packName,
                      *archive::openPakIndex(result.target, archive::PakKeyInput{pak->key()}),
                      request.pak.string());
    return result;
}

bool commitAtUnmount(const std::vector<Pack>& packs, const stdfs::path& overlayRoot,
                     const archive::KeyOptions& keys, const std::string& mountPoint,
                     const std::function<void(const std::string&)>& log) {
    bool allDone = true;
    for (const auto& pack : packs) {
        const stdfs::path folder = overlayRoot / pack.name;
        std::error_code ec;
        if (!stdfs::is_directory(folder, ec) || stdfs::is_empty(folder, ec)) continue;
        CommitRequest request;
        request.pak = pack.pak->name();
        request.overlay = overlayRoot;
        request.keys = keys;
        request.holdsOverlay = true;
        request.ownMount = mountPoint;
        request.warn = [&](const std::string& line) { warnOf(log, "-o commit: warning: " + line); };
        try {
            const CommitResult r = commitOverlay(request);
            if (!r.written) continue;
            const std::string done = "-o commit: " + r.target.string() + ": " +
                                     std::to_string(r.plan.changes.size()) +
                                     " changes committed from " + folder.string();
            // The pak holds the changes now: only then are they taken out of the overlay.
            try {
                for (const auto& item : stdfs::directory_iterator(folder)) stdfs::remove_all(item);
                warnOf(log, done + " (emptied)");
            } catch (const std::exception& e) {
                allDone = false;
                warnOf(log, done + ", but the folder could not be emptied (" + e.what() +
                                "): its record says committed, so pak commit refuses it again");
            }
        } catch (const std::exception& e) {
            allDone = false;
            warnOf(log, std::string("-o commit: not committed, ") + folder.string() +
                            " left as it was: " + e.what());
        }
    }
    return allDone;
}

PatchResult commitPatch(const PatchRequest& request) {
    PatchResult result;
    // As `pak packlist add` names a pack: its file name without the extension.
    result.name = archive::packNameOf(request.name);
    if (result.name.empty() || request.name.find_first_of("/\\") != std::string::npos)
        throw UsageError("--patch takes a pack name (no folder), got \"" + request.name + "\"");
    std::error_code ec;
    if (!stdfs::is_directory(request.packsDir, ec))
        throw Error(request.packsDir.string() +
                    ": not a folder (with --patch, give the Packs folder)");
    if (!stdfs::is_directory(request.overlay, ec))
        throw Error(request.overlay.string() + ": no such folder");
    // A pack of that name (as the game compares names: case-insensitively), also one that
    // cannot be opened and so is left out of the packs below, would be overwritten.
    if (auto existing = archive::findPackFile(request.packsDir, result.name))
        throw Error(existing->string() + ": a pack named " + result.name +
                    " is already in the folder; a patch pack must be new (or commit into that "
                    "pack)");
    FolderLock overlayLock;
    std::optional<WriterLock> outLock, listLock;
    if (!request.dryRun) overlayLock = lockOverlay(request.overlay, "commit");
    // The folder's packs, with the keys of its packlist (or --packlist, when it exists yet).
    archive::KeyOptions readKeys;
    if (!request.packList.empty() && stdfs::exists(request.packList, ec))
        readKeys.packList = request.packList;
    LoadedSources loaded = loadSources({request.packsDir}, readKeys);
    for (const auto& w : loaded.warnings) warnOf(request.warn, w);
    auto packs = orderPacks(std::move(loaded.packs), packListOrder({request.packsDir}));
    result.plan = planPatch(packs, request.overlay);
    for (const auto& w : result.plan.warnings) warnOf(request.warn, w);
    const std::string ext = result.plan.options.version >= 6 ? ".Pack.Gbx" : ".pak";
    const stdfs::path out =
        request.out.empty() ? request.packsDir / (result.name + ext) : request.out;
    result.target = out;
    if (request.dryRun) return result;
    if (result.plan.changes.empty())
        throw Error(request.overlay.string() + ": no added or changed files for a patch pack");
    outLock.emplace(WriterLock::acquire(out, request.wait));
    if (!request.packList.empty())
        listLock.emplace(WriterLock::acquire(request.packList, request.wait));
    // The key: given, or the packlist's entry for NAME, made with a new key string if none.
    std::optional<archive::PackList> list;
    std::optional<archive::PakKey> key;
    archive::KeyOptions given = request.keys;
    given.packList.clear();  // the packlist's entry for NAME is read below
    if (!given.keyHex.empty() || !given.keyFile.empty() || !given.baseKeyHex.empty())
        key = archive::resolveKey(out, given);
    if (!request.packList.empty()) {
        list = archive::readPackListOrNew(request.packList);
        bool added = false;
        const archive::PackListEntry& entry = list->putLast(result.name, added);
        if (key && !added && entry.key() != *key)
            throw Error(request.packList.string() + ": its entry for " + result.name +
                        " has another key than the one given");
        if (key && added)
            throw UsageError("--packlist makes the key of a new entry: give no --key with it");
        key = entry.key();
    }
    if (!key) key = archive::resolveKey(out, request.keys);
    warnServingMounts(*outLock, "", request.warn);
    archive::PackOptions options = result.plan.options;
    options.level = request.level;
    options.jobs = request.jobs;
    options.warn = request.warn;
    result.pack = archive::writePlan(result.plan.plan, outLock->target(), *key, options);
    result.target = outLock->target();
    result.written = true;
    if (list) {
        archive::writePackList(listLock->target(), *list);
        result.listed = true;
    } else if (request.out.empty()) {
        // The folder's packlist is left as it is: say when it lists the patch before other
        // packs, whose files then win over it.
        try {
            if (auto found = archive::findPackList(request.packsDir)) {
                const std::string after =
                    joined(archive::readPackList(*found).namesAfter(result.name));
                if (!after.empty())
                    warnOf(request.warn, found->string() + " lists " + result.name + " before " +
                                             after +
                                             ": the game loads it earlier, so their files win "
                                             "over its; --packlist " +
                                             found->string() + " moves it last");
            }
        } catch (const Error&) {
            // A packlist that cannot be read was reported when the packs were opened.
        }
    }
    return result;
}

}  // namespace pakfs::fs
