// SPDX-License-Identifier: GPL-2.0-or-later
// Planning packs: a folder scanned (FolderScan.cpp) and checked, a base pak's changes, a patch
// pack.
#include "archive/write/PackPlanner.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "archive/entry/EntryReader.hpp"
#include "archive/ops/PakOpener.hpp"
#include "archive/write/FolderScan.hpp"
#include "archive/write/PlanFolders.hpp"
#include "archive/write/WindowsNames.hpp"
#include "common/File.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::archive {

std::optional<std::string> unstorableName(std::string_view name) {
    if (name.empty()) return "an empty name cannot be stored in a pak";
    if (name.find('\\') != std::string_view::npos)
        return "a name with a backslash cannot be stored in a pak";
    if (name.size() > 0x1000) return "name too long for a pak";
    return std::nullopt;
}

namespace {

using plan::baseNameOf;
using plan::CaseClashes;
using plan::FolderTable;
using plan::parentOf;

bool decodesTo(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e,
               const stdfs::path& disk) {
    std::error_code ec;
    auto size = stdfs::file_size(disk, ec);
    if (ec) throw Error(disk.string() + ": " + ec.message());
    if (size != e.uncompressedSize) return false;  // not read at all
    return entryDecodesTo(pak, e, InputFile::open(disk)->readAt(0, std::size_t(size)));
}

// The "/"-joined paths of a plan's folders (parents come first), then of its files.
std::vector<std::string> planPaths(const PackPlan& plan) {
    std::vector<std::string> out;
    out.reserve(plan.folders.size() + plan.files.size());
    for (const auto& f : plan.folders) {
        std::string name = f.name;
        if (!name.empty() && name.back() == '\\') name.pop_back();
        std::replace(name.begin(), name.end(), '\\', '/');
        out.push_back(f.parent < 0 ? name : out[std::size_t(f.parent)] + "/" + name);
    }
    for (const auto& f : plan.files) out.push_back(f.packPath);
    return out;
}

void sortChanges(std::vector<PlanChange>& changes) {
    std::sort(changes.begin(), changes.end(),
              [](const PlanChange& a, const PlanChange& b) { return a.path < b.path; });
}

// `pak pack`: no two names of the tree may differ only in case (folders first, then files, as
// planChanges checks an overlay).
void checkFolderCase(const stdfs::path& root, const PackPlan& plan) {
    std::vector<std::string> folderPaths;
    for (const auto& f : plan.folders) {
        std::string name = f.name.substr(0, f.name.size() - 1);  // without its backslash
        folderPaths.push_back(f.parent < 0 ? name
                                           : folderPaths[std::size_t(f.parent)] + "/" + name);
    }
    std::vector<std::string> filePaths;
    for (const auto& f : plan.files) filePaths.push_back(f.packPath);
    std::sort(filePaths.begin(), filePaths.end());
    std::map<std::string, std::string> folded;
    CaseClashes clashes(root);
    auto check = [&](const std::string& p) {
        auto [it, fresh] = folded.emplace(foldCase(p), p);
        if (!fresh) clashes.add(p, it->second, nullptr);
    };
    for (const auto& p : folderPaths) check(p);
    for (const auto& p : filePaths) check(p);
    clashes.throwIfAny();
}

// The base pak as planChanges sees it: paths of folders and files (views of the index's own
// strings: a pack of 100000 files is not copied again), and folders that exist only as the
// parents of a file named with a path (no folder row).
struct BaseNames {
    std::unordered_set<std::string_view> folders, files;
    std::set<std::string> implied;

    explicit BaseNames(const PakIndex& pak) {
        folders.reserve(pak.folders().size());
        files.reserve(pak.entries().size());
        for (const auto& f : pak.folders()) folders.insert(f.path);
        for (const auto& e : pak.entries()) files.insert(e.path);
        for (const auto& e : pak.entries())
            for (std::string p = parentOf(e.path); !p.empty() && !folders.count(p); p = parentOf(p))
                implied.insert(p);
    }
    bool holds(const std::string& p) const {
        return folders.count(p) > 0 || files.count(p) > 0 || implied.count(p) > 0;
    }
};

// A base path is gone when it or a folder above it is whited out or replaced by a file of
// the changes, or when a folder above it is opaque; a base file is also gone under a new
// folder of its name, and a base folder under a new file of its name.
bool hidden(const ChangeSet& changes, const std::string& path, bool folder) {
    if (changes.whiteouts.count(path)) return true;
    if (folder ? changes.files.count(path) > 0 : changes.folderSet.count(path) > 0) return true;
    for (std::string p = parentOf(path);; p = parentOf(p)) {
        if (changes.opaque.count(p) || changes.whiteouts.count(p) || changes.files.count(p))
            return true;
        if (p.empty()) return false;
    }
}

void checkWhiteouts(const BaseNames& base, const ChangeSet& changes) {
    for (const auto& [w, disk] : changes.whiteouts) {
        bool under = false;  // a whiteout inside a folder that is new or opaque hides nothing
        for (std::string p = parentOf(w);; p = parentOf(p)) {
            if (changes.opaque.count(p) ||
                (changes.folderSet.count(p) && !base.folders.count(p) && !base.implied.count(p)))
                under = true;
            if (p.empty()) break;
        }
        if (!base.holds(w) || under)
            throw Error(disk.string() + ": a whiteout of " + w + ", which the pack does not hold");
        if (changes.files.count(w) || changes.folderSet.count(w))
            throw Error(disk.string() + ": " + w + " is both deleted and in the overlay");
    }
}

// A new name must not differ only in case from one the base keeps (the game would see two),
// nor from another name of the changes (folders first, then files, each sorted). Only the
// base's names that fold like one of the changes' are kept (the first in table order), so a
// large pack with a few changes costs no map of all its names.
void checkCase(const PakIndex& pak, const BaseNames& base, const ChangeSet& changes) {
    std::map<std::string, std::optional<std::string>> baseByFolded;
    for (const auto& p : changes.folders) baseByFolded.emplace(foldCase(p), std::nullopt);
    for (const auto& [p, disk] : changes.files) baseByFolded.emplace(foldCase(p), std::nullopt);
    auto noteBase = [&](const std::string& p, bool folder) {
        if (baseByFolded.empty()) return;
        auto it = baseByFolded.find(foldCase(p));
        if (it != baseByFolded.end() && !it->second && !hidden(changes, p, folder)) it->second = p;
    };
    for (const auto& f : pak.folders()) noteBase(f.path, true);
    for (const auto& p : base.implied) noteBase(p, true);
    for (const auto& e : pak.entries()) noteBase(e.path, false);
    std::map<std::string, std::string> foldedChanges;
    CaseClashes clashes(changes.root);
    auto check = [&](const std::string& p) {
        const std::string folded = foldCase(p);
        const auto& kept = baseByFolded.at(folded);
        if (kept && *kept != p) {
            clashes.add(p, *kept, "pack");
            return;
        }
        auto [other, fresh] = foldedChanges.emplace(folded, p);
        if (!fresh && other->second != p) clashes.add(p, other->second, "overlay");
    };
    for (const auto& p : changes.folders) check(p);
    for (const auto& [p, disk] : changes.files) check(p);
    clashes.throwIfAny();
}

// The base's folders that stay, then the new ones.
void planFolders(const PakIndex& pak, const BaseNames& base, const ChangeSet& changes,
                 FolderTable& table, ChangePlan& result) {
    for (const auto& f : pak.folders()) {
        // Under an opaque folder, a folder the changes have again at the same path stays (its
        // base contents are still hidden): it is no change of its own.
        if (hidden(changes, f.path, true) && !changes.folderSet.count(f.path)) {
            result.changes.push_back({'D', f.path + "/"});
            continue;
        }
        std::int32_t parent = -1;
        if (f.parent >= 0) {
            auto found = table.find(pak.folders()[std::size_t(f.parent)].path);
            if (!found)  // a parent after its child: a damaged table
                throw Error(pak.name() + ": folder " + f.path + " comes before its parent");
            parent = *found;
        }
        table.add(f.path, parent, f.name);
    }
    for (const auto& p : changes.folders) {
        if (table.find(p)) continue;
        // Files of the base name this folder in their own names: keep it that way.
        if (base.implied.count(p) && !hidden(changes, p, true)) continue;
        // Under the nearest folder the base has a row for: a folder only named in the names of
        // the base's files has none, so it goes into this folder's name as files name it.
        auto [parent, name] = table.nearest(p);
        table.add(p, parent, name + "\\");
        if (!base.implied.count(p)) result.changes.push_back({'A', p + "/"});
    }
}

// The base's files that stay or change, then the new ones.
void planFiles(const std::shared_ptr<const PakIndex>& pak, const BaseNames& base,
               const ChangeSet& changes, const FolderTable& table, ChangePlan& result) {
    std::set<std::string> placed;
    // Deleted entries by size: a new file with the bytes of one is that file renamed (mv through
    // the mount copies it up under the new name and whites out the old), and keeps its slot.
    std::multimap<std::uint32_t, const PakEntry*> deletedBySize;
    for (const auto& e : pak->entries()) {
        // Under an opaque folder, a file the changes have again at the same path replaces it:
        // changed (or no change when equal), not both deleted and changed.
        if (hidden(changes, e.path, false) && !changes.files.count(e.path)) {
            result.changes.push_back({'D', e.path});
            deletedBySize.emplace(e.uncompressedSize, &e);
            continue;
        }
        PlanFile f;
        f.folder = -1;
        if (e.folder >= 0) {
            auto found = table.find(pak->folders()[std::size_t(e.folder)].path);
            if (!found) throw Error("internal error: no folder for " + e.path);
            f.folder = *found;
        }
        f.name = e.name;
        f.packPath = e.path;
        f.copy = &e;
        if (auto up = changes.files.find(e.path); up != changes.files.end()) {
            placed.insert(e.path);
            if (!decodesTo(pak, e, up->second)) {
                f.copy = nullptr;
                f.disk = up->second;
                f.was = &e;
                f.wasVersion = pak->version();
                result.changes.push_back({'M', e.path});
            }
        }
        result.plan.files.push_back(std::move(f));
    }
    std::map<std::string_view, const PakEntry*> movedFrom;  // only when something moves
    if (!changes.moves.empty())
        for (const auto& e : pak->entries()) movedFrom.emplace(e.path, &e);
    for (const auto& [p, disk] : changes.files) {
        if (placed.count(p)) continue;
        PlanFile f;
        // Under a folder the base only names in its files' names: named the same way.
        std::tie(f.folder, f.name) = table.nearest(p);
        f.packPath = p;
        f.disk = disk;
        std::error_code sizeError;
        if (auto move = changes.moves.find(p); move != changes.moves.end()) {
            auto from = movedFrom.find(move->second);
            if (from == movedFrom.end())
                throw Error(pak->name() + ": " + move->second + " is not in the pak to move");
            f.copy = from->second;
        } else if (const auto size = stdfs::file_size(disk, sizeError);
                   !sizeError && size <= 0xFFFFFFFFu) {
            auto [from, to] = deletedBySize.equal_range(std::uint32_t(size));
            for (auto it = from; it != to && !f.copy; ++it)
                if (decodesTo(pak, *it->second, disk)) f.copy = it->second;
        }
        result.changes.push_back({base.files.count(p) ? 'M' : 'A', p});
        result.plan.files.push_back(std::move(f));
    }
}

}  // namespace

PackPlan planFolder(const stdfs::path& root, const PakKey& key, const PackOptions& options) {
    PackPlan plan;
    scanFolder(root, plan, options);
    checkFolderCase(root, plan);
    if (options.warn)
        if (auto w = windowsNamesWarning(planPaths(plan))) options.warn(*w);
    if (options.base.empty()) return plan;
    // Repack: files whose content an entry of the base decodes to are copied as its original
    // encrypted bytes.
    try {
        plan.base = openPakIndex(options.base, PakKeyInput{key});
    } catch (const Error& e) {
        throw Error(std::string(e.what()) +
                    " (--base is copied as encrypted bytes, so it must use the output's key)");
    }
    if (plan.base->version() != options.version)
        throw Error(options.base.string() + ": a version " + std::to_string(plan.base->version()) +
                    " pak, and the output is version " + std::to_string(options.version) +
                    " (--base is copied as encrypted bytes, so the versions must match)");
    std::map<std::string, const PakEntry*> baseByPath;
    for (const auto& e : plan.base->entries()) baseByPath.emplace(e.path, &e);
    for (auto& f : plan.files)
        if (auto found = baseByPath.find(f.packPath); found != baseByPath.end())
            f.baseCandidate = found->second;
    return plan;
}

ChangePlan planChanges(const std::shared_ptr<const PakIndex>& pak, const ChangeSet& changes) {
    const BaseNames base(*pak);
    checkWhiteouts(base, changes);
    checkCase(*pak, base, changes);

    ChangePlan result;
    result.plan.base = pak;
    result.options.unplannableAdvice = "To go on: remove them from " + changes.root.string() + ".";
    result.plan.files.reserve(pak->entries().size() + changes.files.size());
    FolderTable table(result.plan.folders);
    planFolders(*pak, base, changes, table, result);
    planFiles(pak, base, changes, table, result);
    sortChanges(result.changes);
    if (auto w = windowsNamesWarning(planPaths(result.plan))) result.warnings.push_back(*w);

    PackOptions& o = result.options;
    o.version = pak->version();
    if (const auto& h = pak->packHeader()) {
        o.header.authorLogin = h->authorLogin;
        o.header.authorNick = h->authorNick;
        o.header.authorZone = h->authorZone;
        o.header.comment = h->comment;
        o.header.titleId = h->titleId;
        o.header.headerFlags = h->decryptFlags;
        o.header.usageSubDir = h->usageSubDir;
        o.header.headerMaxSize = h->headerMaxSize.value_or(0);
    }
    return result;
}

ChangePlan planPatch(const ChangeSet& changes, const ShownEntryLookup& shown,
                     std::uint32_t version) {
    // A pack loaded later only adds and replaces files.
    auto refuse = [](const stdfs::path& disk) {
        throw Error(disk.string() +
                    ": a patch pack cannot delete (a pack loaded later only adds and replaces "
                    "files); commit into the pack that holds it instead");
    };
    for (const auto& [w, disk] : changes.whiteouts) refuse(disk);
    for (const auto& [o, disk] : changes.opaque) refuse(disk);

    ChangePlan result;
    result.options.unplannableAdvice = "To go on: remove them from " + changes.root.string() + ".";
    // Case-insensitive names, as the game compares them: two names for one path refused.
    // Folders first, then files, as planChanges does.
    std::map<std::string, std::string> folded;
    CaseClashes clashes(changes.root);
    auto checkCase = [&](const std::string& p) {
        auto [it, fresh] = folded.emplace(foldCase(p), p);
        if (!fresh) clashes.add(p, it->second, "overlay");
    };
    for (const auto& p : changes.folders) checkCase(p);
    for (const auto& [p, disk] : changes.files) checkCase(p);
    clashes.throwIfAny();
    FolderTable table(result.plan.folders);
    for (const auto& [p, disk] : changes.files) {
        const std::optional<ShownEntry> was = shown(p);
        if (was) {
            bool same = false;
            try {
                same = decodesTo(was->pak, *was->entry, disk);
            } catch (const Error&) {
                same = false;  // what cannot be decoded is replaced
            }
            if (same) continue;
        }
        PlanFile f;
        f.folder = table.ensure(parentOf(p));
        f.name = baseNameOf(p);
        f.packPath = p;
        f.disk = disk;
        if (was) {
            f.was = was->entry;
            f.wasVersion = was->pak->version();
        }
        result.plan.files.push_back(std::move(f));
        result.changes.push_back({was ? 'M' : 'A', p});
    }
    sortChanges(result.changes);
    if (auto w = windowsNamesWarning(planPaths(result.plan))) result.warnings.push_back(*w);
    result.options.version = version;
    return result;
}

}  // namespace pakfs::archive
