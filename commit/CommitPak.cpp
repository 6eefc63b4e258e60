// SPDX-License-Identifier: GPL-2.0-or-later
// The commit workflow (CommitWorkflow.hpp): locks, record checks, plan, write, record.
#include "commit/CommitPak.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>
#include <thread>

#include "archive/ops/PakOpener.hpp"
#include "commit/OverlayLayout.hpp"
#include "commit/OverlayRecord.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"
#include "common/ShellWord.hpp"
#include "packs/Drives.hpp"
#include "packs/MountPaths.hpp"
#include "packs/Sources.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::commit {

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

// Whether a pakfs is mounted at `point` now (the path as the mount wrote it into the lock).
bool pakfsMountedAt(const std::string& point) {
    std::error_code ec;
    const stdfs::path canonical = stdfs::weakly_canonical(point, ec);
    std::optional<packs::MountEntry> m = packs::mountAt(ec ? point : canonical.string());
    return m && m->type.starts_with("fuse");
}

// A mount that was just unmounted still holds its locks while its process ends (and, with -o
// commit, while it commits): up to 10 s (x 50 ms) are waited for it.
constexpr int kEndingWaitSteps = 200;

// kCommitFailedFile: one line per pack, PACK TAB TEXT.
struct FailureLine {
    std::string pack;
    std::string text;
};

constexpr std::uintmax_t kMaxFailureFileSize = 1 << 20;

std::vector<FailureLine> readFailures(const stdfs::path& overlayRoot) {
    const stdfs::path file = overlayRoot / kCommitFailedFile;
    std::vector<FailureLine> lines;
    auto opened = openOverlayOwnFile(file);
    if (!opened) return lines;
    const std::size_t size =
        std::size_t(std::min<std::uint64_t>(opened->size(), kMaxFailureFileSize));
    const Bytes bytes = opened->readAt(0, size);
    const std::string text(bytes.begin(), bytes.end());
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const std::size_t tab = line.find('\t');
        if (line.empty() || line[0] == '#' || tab == std::string::npos) continue;
        lines.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return lines;
}

void writeFailures(const stdfs::path& overlayRoot, const std::vector<FailureLine>& lines) {
    const stdfs::path file = overlayRoot / kCommitFailedFile;
    if (lines.empty()) {
        std::error_code ec;
        stdfs::remove(file, ec);
        return;
    }
    std::string text =
        "# Why the commit at unmount (pakfs -o commit) of each pack failed: pack, reason.\n"
        "# Removed once a commit of the pack succeeds (see pakfs(1), -o commit).\n";
    for (const auto& l : lines) text += l.pack + "\t" + l.text + "\n";
    AtomicOutputFile out(file);
    out.write({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    out.commit();
}

// One line of text: control characters (a newline in a name) shown as '?'.
std::string oneLine(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20) c = '?';
    return text;
}

void noteUnmountCommitFailed(const stdfs::path& overlayRoot, const std::string& pack,
                             const std::string& mountPoint, const std::string& reason) {
    std::vector<FailureLine> lines = readFailures(overlayRoot);
    std::erase_if(lines, [&](const FailureLine& l) { return foldCase(l.pack) == foldCase(pack); });
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    char when[32] = "?";
    if (::gmtime_r(&now, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    lines.push_back({oneLine(pack), oneLine("the commit at the unmount of " + mountPoint +
                                            " (-o commit) on " + when + " failed: " + reason)});
    writeFailures(overlayRoot, lines);
}

void clearUnmountCommitFailed(const stdfs::path& overlayRoot, const std::string& pack) {
    std::vector<FailureLine> lines = readFailures(overlayRoot);
    if (std::erase_if(lines,
                      [&](const FailureLine& l) { return foldCase(l.pack) == foldCase(pack); }))
        writeFailures(overlayRoot, lines);
}

}  // namespace

void refuseServingMounts(const WriterLock& lock, const std::string& ownMount) {
    for (int step = 0;; ++step) {
        std::vector<std::string> others;
        for (const auto& mount : lock.servingMounts())
            if (mount != ownMount) others.push_back(mount);
        if (others.empty()) return;
        bool live = false;
        for (const auto& mount : others) live = live || pakfsMountedAt(mount);
        if (live || step == kEndingWaitSteps) {
            const std::string& mount = others.front();
            throw Error(lock.target().string() + " is served by the writable mount at " + mount +
                        ", whose changes are made over it: unmount " + mount +
                        " first (fusermount3 -u " + shellWord(mount) + ")");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

std::vector<std::string> unmountCommitFailures(const stdfs::path& overlayRoot) {
    std::vector<std::string> out;
    for (const auto& l : readFailures(overlayRoot))
        out.push_back((overlayRoot / kCommitFailedFile).string() + ": " + l.text);
    return out;
}

std::shared_ptr<const archive::PakIndex> openForWriting(
    const stdfs::path& path, const archive::KeyOptions& keys,
    const std::function<void(const std::string&)>& warn) {
    // Its unchanged slots are copied with their MD5s: the contents checksum is checked only
    // when those do not seal every slot (PakIndex::ContentsCheck).
    archive::PakOpenOptions options;
    options.contents = archive::PakIndex::ContentsCheck::UnlessSlotsSealed;
    archive::OpenedPak opened = archive::openPak(path, keys, options);
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

FolderLock lockOverlay(const stdfs::path& overlayRoot, const std::string& holder) {
    const std::string self = holder + " (pid " + std::to_string(::getpid()) + ")";
    // "fusermount3 -u MOUNT; pak commit ..." waits for the mount's end instead of being
    // refused; a mount that is still mounted is refused at once.
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
                        " first (fusermount3 -u " + shellWord(mount) + ")");
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
    // A commit at unmount that failed: the user meets its reason here.
    if (!request.holdsOverlay)
        for (const auto& line : unmountCommitFailures(overlay)) warnOf(request.warn, line);
    // The overlay first, then the file written: every writer takes them in this order.
    FolderLock overlayLock;
    std::optional<WriterLock> writerLock;
    if (!request.dryRun) {
        if (!request.holdsOverlay) overlayLock = lockOverlay(overlay, "commit");
        writerLock.emplace(WriterLock::acquire(inPlace ? request.pak : request.out, request.wait));
        refuseServingMounts(*writerLock, request.ownMount);
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
    if (result.plan.changes.empty() && (inPlace || !request.allowEmpty)) {
        if (inPlace) clearUnmountCommitFailed(overlay, packName);  // nothing left to commit
        return result;
    }
    writeChangePlan(result, *writerLock, request.level, request.jobs, request.warn,
                    request.progress);
    // The overlay's changes are in the pak now: a second commit says so.
    if (inPlace) {
        // Its stamp is in the header: neither names nor another pass over the file are needed.
        archive::PakOpenOptions stampOnly;
        stampOnly.resolveNames = false;
        stampOnly.contents = archive::PakIndex::ContentsCheck::UnlessSlotsSealed;
        markCommitted(
            overlay, packName,
            *archive::openPakIndex(result.target, archive::PakKeyInput{pak->key()}, stampOnly),
            request.pak.string());
        clearUnmountCommitFailed(overlay, packName);
    }
    return result;
}

bool commitAtUnmount(const std::vector<packs::Pack>& packs, const stdfs::path& overlayRoot,
                     const archive::KeyOptions& keys, const std::string& mountPoint,
                     const std::function<void(const std::string&)>& log) {
    bool allDone = true;
    // Kept where the user meets it: pak commit and the next mount of the overlay print it.
    const auto keepFailure = [&](const std::string& pack, const std::string& why) {
        try {
            noteUnmountCommitFailed(overlayRoot, pack, mountPoint, why);
        } catch (const std::exception& e) {
            warnOf(log, "-o commit: cannot keep the reason in " +
                            (overlayRoot / kCommitFailedFile).string() + ": " + e.what());
        }
    };
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
                                     (r.plan.changes.size() == 1 ? " change" : " changes") +
                                     " committed from " + folder.string();
            // The pak holds the changes now: only then are they taken out of the overlay.
            try {
                for (const auto& item : stdfs::directory_iterator(folder)) stdfs::remove_all(item);
                warnOf(log, done + " (emptied)");
            } catch (const std::exception& e) {
                allDone = false;
                const std::string why = "the changes were committed, but " + folder.string() +
                                        " could not be emptied (" + e.what() +
                                        "): its record says committed, so pak commit refuses it "
                                        "again";
                warnOf(log, done + ", but the folder could not be emptied (" + e.what() +
                                "): its record says committed, so pak commit refuses it again");
                keepFailure(pack.name, why);
            }
        } catch (const std::exception& e) {
            allDone = false;
            const std::string why = folder.string() + " left as it was: " + e.what();
            warnOf(log, "-o commit: not committed, " + why);
            keepFailure(pack.name, why);
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
    packs::LoadedSources loaded = packs::loadSources({request.packsDir}, readKeys);
    for (const auto& w : loaded.warnings) warnOf(request.warn, w);
    auto packs =
        packs::orderPacks(std::move(loaded.packs), packs::packListOrder({request.packsDir}));
    result.plan = planPatch(packs, request.overlay, archive::keyOptionWords(request.keys));
    for (const auto& w : result.plan.warnings) warnOf(request.warn, w);
    const std::string ext = result.plan.options.version >= 6 ? ".Pack.Gbx" : ".pak";
    const stdfs::path out =
        request.out.empty() ? request.packsDir / (result.name + ext) : request.out;
    result.target = out;
    if (request.dryRun) return result;
    // Nothing to patch (the Resource drive's changes committed into its pak, say): nothing is
    // written, and the caller says so.
    if (result.plan.changes.empty()) return result;
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
    refuseServingMounts(*outLock, "");
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

}  // namespace pakfs::commit
