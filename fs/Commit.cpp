// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/Commit.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_set>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PackList.hpp"
#include "fs/Drives.hpp"
#include "fs/Overlay.hpp"
#include "fs/OverlayLayout.hpp"
#include "fs/Tree.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::fs {

namespace {

std::string parentOf(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string join(const std::string& dir, const std::string& name) {
    return dir.empty() ? name : dir + "/" + name;
}

// What the overlay folder says, by pack path.
struct OverlayContents {
    std::map<std::string, stdfs::path> files;  // upper files
    std::vector<std::string> folders;          // upper folders, parents first
    std::set<std::string> folderSet;
    std::set<std::string> opaque;     // folders whose pack contents are hidden
    std::set<std::string> whiteouts;  // pack paths deleted
};

const char* kindOfNonFile(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device file";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file or folder";
}

std::vector<std::string> sortedNames(const stdfs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (stdfs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    if (ec) throw Error(dir.string() + ": cannot list the overlay folder: " + ec.message());
    std::sort(names.begin(), names.end());
    return names;
}

void readOverlay(const stdfs::path& disk, const std::string& at, OverlayContents& out) {
    for (const auto& name : sortedNames(disk)) {
        const stdfs::path item = disk / name;
        struct stat st {};
        if (::lstat(item.c_str(), &st) != 0)
            throw Error(item.string() + ": " + std::strerror(errno));
        if (name == kOpaqueMarker) {
            out.opaque.insert(at);
            continue;
        }
        if (isLayoutName(name)) {
            std::string target = name.substr(kWhiteoutPrefix.size());
            if (auto why = archive::unstorableName(target))
                throw Error(item.string() + ": a whiteout of a name no pak holds (" + *why + ")");
            out.whiteouts.insert(join(at, target));
            continue;
        }
        if (auto why = unusableName(name))
            throw Error(item.string() + ": " + *why + ", so a pak cannot hold it");
        if (S_ISDIR(st.st_mode)) {
            const std::string path = join(at, name);
            out.folders.push_back(path);
            out.folderSet.insert(path);
            readOverlay(item, path, out);
        } else if (S_ISREG(st.st_mode)) {
            if (st.st_size > 0xFFFFFFFFll)
                throw Error(item.string() + ": too large for a pak (4 GiB)");
            out.files.emplace(join(at, name), item);
        } else {
            throw Error(item.string() + ": " + kindOfNonFile(st.st_mode) +
                        ", which a pak cannot hold");
        }
    }
}

bool decodesTo(const std::shared_ptr<const archive::PakIndex>& pak, const archive::PakEntry& e,
               const stdfs::path& disk) {
    std::error_code ec;
    auto size = stdfs::file_size(disk, ec);
    if (ec) throw Error(disk.string() + ": " + ec.message());
    if (size != e.uncompressedSize) return false;  // not read at all
    return archive::entryDecodesTo(pak, e, InputFile::open(disk)->readAt(0, std::size_t(size)));
}

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

CommitPlan planCommit(const std::shared_ptr<const archive::PakIndex>& pak,
                      const stdfs::path& packOverlay) {
    OverlayContents upper;
    std::error_code ec;
    if (stdfs::exists(packOverlay, ec)) {
        if (!stdfs::is_directory(packOverlay, ec))
            throw Error(packOverlay.string() + ": not a folder");
        readOverlay(packOverlay, "", upper);
    }

    // The pack as it is: paths of folders and files, and each folder's names case-folded.
    // (Views of the index's own strings: a pack of 100000 files is not copied again.)
    std::unordered_set<std::string_view> lowerFolders, lowerFiles;
    lowerFolders.reserve(pak->folders().size());
    lowerFiles.reserve(pak->entries().size());
    for (const auto& f : pak->folders()) lowerFolders.insert(f.path);
    for (const auto& e : pak->entries()) lowerFiles.insert(e.path);
    auto lowerHas = [&](const std::string& p) {
        return lowerFolders.count(p) > 0 || lowerFiles.count(p) > 0;
    };
    // Folders that exist only as the parents of a file named with a path (no folder row).
    std::set<std::string> impliedFolders;
    for (const auto& e : pak->entries())
        for (std::string p = parentOf(e.path); !p.empty() && !lowerFolders.count(p);
             p = parentOf(p))
            impliedFolders.insert(p);

    // A pack path is gone when it or a folder above it is whited out or replaced by an upper
    // file, or when a folder above it is opaque; a pack file is also gone under an upper folder
    // of its name, and a pack folder under an upper file of its name.
    auto hidden = [&](const std::string& path, bool folder) {
        if (upper.whiteouts.count(path)) return true;
        if (folder ? upper.files.count(path) > 0 : upper.folderSet.count(path) > 0) return true;
        for (std::string p = parentOf(path);; p = parentOf(p)) {
            if (upper.opaque.count(p) || upper.whiteouts.count(p) || upper.files.count(p))
                return true;
            if (p.empty()) return false;
        }
    };

    for (const auto& w : upper.whiteouts) {
        const bool present = lowerHas(w) || impliedFolders.count(w);
        const std::string parent = parentOf(w);
        bool under = false;  // a whiteout inside a folder that is new or opaque hides nothing
        for (std::string p = parent;; p = parentOf(p)) {
            if (upper.opaque.count(p) ||
                (upper.folderSet.count(p) && !lowerFolders.count(p) && !impliedFolders.count(p)))
                under = true;
            if (p.empty()) break;
        }
        const stdfs::path disk =
            packOverlay / parent / whiteoutName(w.substr(parent.empty() ? 0 : parent.size() + 1));
        if (!present || under)
            throw Error(disk.string() + ": a whiteout of " + w + ", which the pack does not hold");
        if (upper.files.count(w) || upper.folderSet.count(w))
            throw Error(disk.string() + ": " + w + " is both deleted and in the overlay");
    }
    // A new name must not differ only in case from one the pack keeps: the game would see two.
    // Only the pack's names that fold like one of the overlay's are kept (the first in table
    // order), so a large pack with a few changes costs no map of all its names.
    std::map<std::string, std::optional<std::string>> lowerByFolded;
    for (const auto& p : upper.folders) lowerByFolded.emplace(foldCase(p), std::nullopt);
    for (const auto& [p, disk] : upper.files) lowerByFolded.emplace(foldCase(p), std::nullopt);
    auto noteLower = [&](const std::string& p, bool folder) {
        if (lowerByFolded.empty()) return;
        auto it = lowerByFolded.find(foldCase(p));
        if (it != lowerByFolded.end() && !it->second && !hidden(p, folder)) it->second = p;
    };
    for (const auto& f : pak->folders()) noteLower(f.path, true);
    for (const auto& p : impliedFolders) noteLower(p, true);
    for (const auto& e : pak->entries()) noteLower(e.path, false);
    // Nor from another name of the overlay (folders first, then files, each sorted).
    std::map<std::string, std::string> foldedUpper;
    auto checkCase = [&](const std::string& p) {
        const std::string folded = foldCase(p);
        const auto& lower = lowerByFolded.at(folded);
        if (lower && *lower != p)
            throw Error((packOverlay / p).string() + ": differs only in case from " + *lower +
                        " in the pack, which the game would not tell apart");
        auto [other, fresh] = foldedUpper.emplace(folded, p);
        if (!fresh && other->second != p)
            throw Error((packOverlay / p).string() + ": differs only in case from " +
                        other->second + " in the overlay, which the game would not tell apart");
    };
    for (const auto& p : upper.folders) checkCase(p);
    for (const auto& [p, disk] : upper.files) checkCase(p);

    CommitPlan result;
    result.plan.base = pak;
    result.options.unplannableAdvice = "To go on: remove them from " + packOverlay.string() + ".";
    result.plan.files.reserve(pak->entries().size() + upper.files.size());
    std::map<std::string, std::int32_t> folderIndex;  // new index by path
    for (std::size_t i = 0; i < pak->folders().size(); ++i) {
        const auto& f = pak->folders()[i];
        // Under an opaque folder, a folder the overlay has again at the same path stays (its
        // pack contents are still hidden): it is no change of its own.
        if (hidden(f.path, true) && !upper.folderSet.count(f.path)) {
            result.changes.push_back({'D', f.path + "/"});
            continue;
        }
        std::int32_t parent = -1;
        if (f.parent >= 0) {
            auto it = folderIndex.find(pak->folders()[std::size_t(f.parent)].path);
            if (it == folderIndex.end())  // a parent after its child: a damaged table
                throw Error(pak->name() + ": folder " + f.path + " comes before its parent");
            parent = it->second;
        }
        folderIndex.emplace(f.path, std::int32_t(result.plan.folders.size()));
        result.plan.folders.push_back({parent, f.name});
    }
    auto folderOf = [&](const std::string& path) -> std::int32_t {
        const std::string p = parentOf(path);
        if (p.empty()) return -1;
        auto it = folderIndex.find(p);
        if (it == folderIndex.end()) throw Error("internal error: no folder for " + path);
        return it->second;
    };
    for (const auto& p : upper.folders) {
        if (folderIndex.count(p)) continue;
        if (impliedFolders.count(p) && !hidden(p, true)) {
            // Files of the pack name this folder in their own names: keep it that way.
            continue;
        }
        // Under the nearest folder the pack has a row for: a folder only named in the names of
        // the pack's files has none, so it goes into this folder's name as files name it.
        std::int32_t parent = -1;
        std::string name = p;
        for (std::string q = parentOf(p); !q.empty(); q = parentOf(q))
            if (auto it = folderIndex.find(q); it != folderIndex.end()) {
                parent = it->second;
                name = p.substr(q.size() + 1);
                break;
            }
        std::replace(name.begin(), name.end(), '/', '\\');
        folderIndex.emplace(p, std::int32_t(result.plan.folders.size()));
        result.plan.folders.push_back({parent, name + "\\"});
        if (!impliedFolders.count(p)) result.changes.push_back({'A', p + "/"});
    }

    std::set<std::string> placed;
    // Deleted entries by size: a new file with the bytes of one is that file renamed (mv through
    // the mount copies it up under the new name and whites out the old), and keeps its slot.
    std::multimap<std::uint32_t, const archive::PakEntry*> deletedBySize;
    for (const auto& e : pak->entries()) {
        // Under an opaque folder, a file the overlay has again at the same path replaces it:
        // changed (or no change when equal), not both deleted and changed.
        if (hidden(e.path, false) && !upper.files.count(e.path)) {
            result.changes.push_back({'D', e.path});
            deletedBySize.emplace(e.uncompressedSize, &e);
            continue;
        }
        archive::PlanFile f;
        f.folder = -1;
        if (e.folder >= 0) {
            auto it = folderIndex.find(pak->folders()[std::size_t(e.folder)].path);
            if (it == folderIndex.end()) throw Error("internal error: no folder for " + e.path);
            f.folder = it->second;
        }
        f.name = e.name;
        f.packPath = e.path;
        if (auto up = upper.files.find(e.path); up != upper.files.end()) {
            placed.insert(e.path);
            if (decodesTo(pak, e, up->second)) {
                f.copy = &e;
            } else {
                f.disk = up->second;
                f.was = &e;
                f.wasVersion = pak->version();
                result.changes.push_back({'M', e.path});
            }
        } else {
            f.copy = &e;
        }
        result.plan.files.push_back(std::move(f));
    }
    for (const auto& [p, disk] : upper.files) {
        if (placed.count(p)) continue;
        archive::PlanFile f;
        const std::string parent = parentOf(p);
        if (!parent.empty() && !folderIndex.count(parent)) {
            // Under a folder the pack only names in its files' names: name it the same way.
            f.folder = -1;
            for (std::string q = parent; !q.empty(); q = parentOf(q))
                if (folderIndex.count(q)) {
                    f.folder = folderIndex[q];
                    f.name = p.substr(q.size() + 1);
                    break;
                }
            if (f.name.empty()) f.name = p;
            std::replace(f.name.begin(), f.name.end(), '/', '\\');
        } else {
            f.folder = folderOf(p);
            f.name = p.substr(parent.empty() ? 0 : parent.size() + 1);
        }
        f.packPath = p;
        f.disk = disk;
        std::error_code sizeError;
        const auto size = stdfs::file_size(disk, sizeError);
        if (!sizeError && size <= 0xFFFFFFFFu) {
            auto [from, to] = deletedBySize.equal_range(std::uint32_t(size));
            for (auto it = from; it != to && !f.copy; ++it)
                if (decodesTo(pak, *it->second, disk)) f.copy = it->second;
        }
        result.changes.push_back({lowerFiles.count(p) ? 'M' : 'A', p});
        result.plan.files.push_back(std::move(f));
    }
    std::sort(result.changes.begin(), result.changes.end(),
              [](const CommitChange& a, const CommitChange& b) { return a.path < b.path; });

    archive::PackOptions& o = result.options;
    o.version = pak->version();
    if (const auto& h = pak->packHeader()) {
        o.header.authorLogin = h->authorLogin;
        o.header.authorNick = h->authorNick;
        o.header.authorZone = h->authorZone;
        o.header.comment = h->comment;
        o.header.titleId = h->titleId;
        o.header.headerFlags = h->decryptFlags;
    }
    return result;
}

CommitPlan planPatch(const std::vector<Pack>& packs, const stdfs::path& overlayRoot) {
    // Only the drives of a -o drives mount, and its work folder, belong in its overlay folder.
    for (const auto& name : sortedNames(overlayRoot))
        if (name != kResourceDrive && name != kGameDrive && !isOverlayOwnName(name))
            throw Error((overlayRoot / name).string() +
                        ": not a drive (Game, Resource): --patch takes the overlay folder of a "
                        "-o drives mount");
    const stdfs::path resource = overlayRoot / std::string(kResourceDrive);
    if (auto first = firstUnder(resource))
        throw Error(first->string() +
                    ": changes to the Resource drive cannot go into a patch pack (the game loads "
                    "Resource.pak on its own): commit them with pak commit Resource.pak " +
                    overlayRoot.string() + " --in-place");
    std::error_code ec;
    const stdfs::path game = overlayRoot / std::string(kGameDrive);
    OverlayContents upper;
    if (stdfs::exists(game, ec)) readOverlay(game, "", upper);
    auto refuse = [&](const std::string& path) {
        throw Error((game / path).string() +
                    ": a patch pack cannot delete (a pack loaded later only adds and replaces "
                    "files); commit into the pack that holds it instead");
    };
    for (const auto& w : upper.whiteouts) {
        const std::string parent = parentOf(w);
        refuse(join(parent, whiteoutName(w.substr(parent.empty() ? 0 : parent.size() + 1))));
    }
    for (const auto& o : upper.opaque) refuse(join(o, std::string(kOpaqueMarker)));

    Drives drives(packs);
    CommitPlan result;
    result.options.unplannableAdvice = "To go on: remove them from " + game.string() + ".";
    // Case-insensitive names, as the game compares them: two overlay names for one path refused.
    // Folders first, then files, as planCommit does.
    std::map<std::string, std::string> folded;
    auto checkCase = [&](const std::string& p) {
        auto [it, fresh] = folded.emplace(foldCase(p), p);
        if (!fresh)
            throw Error((game / p).string() + ": differs only in case from " + it->second +
                        " in the overlay, which the game would not tell apart");
    };
    for (const auto& p : upper.folders) checkCase(p);
    for (const auto& [p, disk] : upper.files) checkCase(p);
    std::map<std::string, std::int32_t> folderIndex;
    std::function<std::int32_t(const std::string&)> folderFor = [&](const std::string& dir) {
        if (dir.empty()) return std::int32_t(-1);
        if (auto it = folderIndex.find(dir); it != folderIndex.end()) return it->second;
        const std::int32_t parent = folderFor(parentOf(dir));
        const std::string name =
            dir.substr(dir.rfind('/') == std::string::npos ? 0 : dir.rfind('/') + 1);
        result.plan.folders.push_back({parent, name + "\\"});
        const auto index = std::int32_t(result.plan.folders.size() - 1);
        folderIndex.emplace(dir, index);
        return index;
    };
    for (const auto& [p, disk] : upper.files) {
        const DriveFile* shown = drives.find(std::string(kGameDrive) + "/" + p);
        if (shown) {
            const auto& pak = drives.packs()[std::size_t(shown->pack)].pak;
            bool same = false;
            try {
                same = decodesTo(pak, *shown->entry, disk);
            } catch (const Error&) {
                same = false;  // what cannot be decoded is replaced
            }
            if (same) continue;
        }
        archive::PlanFile f;
        f.folder = folderFor(parentOf(p));
        f.name = p.substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1);
        f.packPath = p;
        f.disk = disk;
        if (shown) {
            f.was = shown->entry;
            f.wasVersion = drives.packs()[std::size_t(shown->pack)].pak->version();
        }
        result.plan.files.push_back(std::move(f));
        result.changes.push_back({shown ? 'M' : 'A', p});
    }
    std::sort(result.changes.begin(), result.changes.end(),
              [](const CommitChange& a, const CommitChange& b) { return a.path < b.path; });
    // The version of the packs it joins (the last Game pack's), version 3 for none.
    result.options.version = 3;
    for (const auto& pack : packs)
        if (!isResourcePack(pack)) result.options.version = pack.pak->version();
    return result;
}

}  // namespace pakfs::fs
