// SPDX-License-Identifier: GPL-2.0-or-later
// pak add, rm and mv as change sets committed by the commit workflow (PakEdits.hpp).
#include "commit/PakEdits.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "commit/OverlayLayout.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"
#include "common/PathPattern.hpp"
#include "common/ShellWord.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::commit {

namespace {

// A path in the pak as given ('/' or '\' between names, no leading or trailing one).
std::string packPathOf(const std::string& given) {
    std::string out;
    std::string name;
    auto flush = [&] {
        if (name.empty()) return;
        if (name == "." || name == "..")
            throw UsageError("\"" + given + "\": a path in a pak has no . or .. in it");
        out += (out.empty() ? "" : "/") + name;
        name.clear();
    };
    for (char c : given) {
        if (c == '/' || c == '\\')
            flush();
        else
            name += c;
    }
    flush();
    if (out.empty()) throw UsageError("\"" + given + "\": not a path in a pak");
    return out;
}

struct Held {
    bool folder = false;
    std::string path;  // as the pak spells it
};

// What the pak holds at `path` (names compared as the game compares them).
std::optional<Held> findInPak(const archive::PakIndex& pak, const std::string& path) {
    const std::string want = foldCase(path);
    for (const auto& e : pak.entries())
        if (foldCase(e.path) == want) return Held{false, e.path};
    for (const auto& f : pak.folders())
        if (foldCase(f.path) == want) return Held{true, f.path};
    // A folder the pak names only inside its files' names.
    for (const auto& e : pak.entries())
        if (foldCase(e.path).starts_with(want + "/"))
            return Held{true, e.path.substr(0, path.size())};
    return std::nullopt;
}

// Paths as the pak spells them: a name the pak holds in another case is the pak's (the game
// would not tell them apart), so an edit replaces or joins it instead of adding a second.
class PakSpelling {
public:
    explicit PakSpelling(const archive::PakIndex& pak) {
        for (const auto& f : pak.folders()) note(f.path);
        for (const auto& e : pak.entries()) note(e.path);
    }
    std::string of(const std::string& path) const {
        std::string out;
        std::size_t start = 0;
        for (;;) {
            const std::size_t slash = path.find('/', start);
            const std::string prefix = path.substr(0, slash);
            auto it = spelled_.find(foldCase(prefix));
            const std::string name =
                path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
            const std::string kept =
                it == spelled_.end() ? name : it->second.substr(it->second.rfind('/') + 1);
            out += (out.empty() ? "" : "/") + kept;
            if (slash == std::string::npos) return out;
            start = slash + 1;
        }
    }

private:
    std::map<std::string, std::string> spelled_;  // folded path -> the pak's spelling
    void note(const std::string& path) {
        for (std::size_t slash = path.find('/'); slash != std::string::npos;
             slash = path.find('/', slash + 1))
            spelled_.emplace(foldCase(path.substr(0, slash)), path.substr(0, slash));
        spelled_.emplace(foldCase(path), path);
    }
};

bool isUnder(const std::string& path, const std::string& folder) {
    return path.size() > folder.size() && path.starts_with(folder) && path[folder.size()] == '/';
}

// The folders above `path` (parents first) join the change set's folders.
void addParents(archive::ChangeSet& changes, const std::string& path) {
    std::vector<std::string> parents;
    for (std::size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1))
        parents.push_back(path.substr(0, slash));
    for (const auto& p : parents)
        if (changes.folderSet.insert(p).second) changes.folders.push_back(p);
}

void addFolder(archive::ChangeSet& changes, const std::string& path) {
    addParents(changes, path);
    if (changes.folderSet.insert(path).second) changes.folders.push_back(path);
}

void addFile(archive::ChangeSet& changes, const std::string& path, const stdfs::path& disk) {
    addParents(changes, path);
    changes.files[path] = disk;
}

// A file or folder on disk that goes into the pak at `path`, its tree with it.
void addFromDisk(archive::ChangeSet& changes, const stdfs::path& disk, const std::string& path) {
    struct stat st {};
    if (::lstat(disk.c_str(), &st) != 0)
        throw Error(disk.string() + ": " +
                    (errno == ENOENT ? std::string("no such file") : std::strerror(errno)));
    if (S_ISLNK(st.st_mode))
        throw Error(disk.string() +
                    ": a symbolic link, which a pak cannot hold (give the file it names)");
    if (S_ISREG(st.st_mode)) {
        addFile(changes, path, disk);
        return;
    }
    if (!S_ISDIR(st.st_mode))
        throw Error(disk.string() + ": not a regular file, which a pak cannot hold");
    addFolder(changes, path);
    for (const auto& name : sortedNames(disk)) addFromDisk(changes, disk / name, path + "/" + name);
}

std::string where(const EditRequest& request, const std::string& path) {
    return request.pak.string() + ":" + path;
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// One item of `pak add`: where it is on disk, and its path in the pak (as the pak spells it).
struct AddedItem {
    stdfs::path disk;
    std::string path;
};

// The item on disk that puts something at `path` (it, one under it, or one above it).
stdfs::path diskItemAt(const std::vector<AddedItem>& items, const std::string& path) {
    for (const auto& item : items) {
        if (foldCase(item.path) == foldCase(path)) return item.disk;
        if (isUnder(foldCase(path), foldCase(item.path)))
            return item.disk / path.substr(item.path.size() + 1);
    }
    for (const auto& item : items)
        if (isUnder(foldCase(item.path), foldCase(path))) return item.disk;
    return items.empty() ? stdfs::path() : items.front().disk;
}

// `pak add` replaces what the pak holds at a path by its like only: a folder replaced by a
// file loses every file in it, as a file replaced by a folder is lost (cp refuses both).
void refuseKindChanges(const EditRequest& request, const archive::PakIndex& pak,
                       const archive::ChangeSet& changes, const std::vector<AddedItem>& items) {
    // The way out as a command to run as printed.
    const auto how = [&](const std::string& held) {
        return " (first run: pak rm " + shellWord(request.pak.string()) + " " + shellWord(held) +
               archive::keyOptionWords(request.keys) + ", or pass --force to replace it)";
    };
    for (const auto& [path, disk] : changes.files) {
        const auto held = findInPak(pak, path);
        if (!held || !held->folder) continue;
        std::size_t files = 0;
        for (const auto& e : pak.entries())
            if (isUnder(foldCase(e.path), foldCase(held->path))) ++files;
        throw Error(disk.string() + ": a file, but " + where(request, held->path) +
                    " is a folder (" + plural(files, "file", "files") +
                    " in it): pak add replaces no folder by a file" + how(held->path));
    }
    for (const auto& folder : changes.folders) {
        const auto held = findInPak(pak, folder);
        if (!held || held->folder) continue;
        const stdfs::path disk = diskItemAt(items, folder);
        std::error_code ec;
        const bool diskFolder = stdfs::is_directory(stdfs::symlink_status(disk, ec));
        throw Error(disk.string() + ": " +
                    (diskFolder ? "a folder" : "goes in under " + folder + "/, as in a folder") +
                    ", but " + where(request, held->path) +
                    " is a file: pak add replaces no file by a folder" + how(held->path));
    }
}

// The edit's change set, planned over the pak read under the lock, written unless a dry run.
CommitResult commitEdit(
    const EditRequest& request,
    const std::function<archive::ChangeSet(const std::shared_ptr<const archive::PakIndex>&)>&
        changesOf) {
    const bool inPlace = request.out.empty();
    if (!request.dryRun) archive::refuseMsKeyForWriting(request.keys);
    std::optional<WriterLock> lock;
    if (!request.dryRun) {
        lock.emplace(WriterLock::acquire(inPlace ? request.pak : request.out, request.wait));
        refuseServingMounts(*lock, "");
    }
    const auto pak = openForWriting(request.pak, request.keys, request.warn);
    CommitResult result;
    result.key = pak->key();
    result.plan = archive::planChanges(pak, changesOf(pak));
    for (const auto& w : result.plan.warnings)
        if (request.warn) request.warn(w);
    if (request.dryRun || result.plan.changes.empty()) return result;
    writeChangePlan(result, *lock, request.level, request.jobs, request.warn, request.progress);
    return result;
}

}  // namespace

CommitResult addToPak(const EditRequest& request, const std::vector<stdfs::path>& items,
                      const std::string& as, bool force) {
    if (items.empty()) throw UsageError("give at least one FILE or folder to add");
    if (!as.empty() && items.size() != 1)
        throw UsageError("--as names where one FILE goes in the pak: give one FILE with it");
    const std::string asPath = as.empty() ? std::string() : packPathOf(as);
    return commitEdit(request, [&](const std::shared_ptr<const archive::PakIndex>& pak) {
        archive::ChangeSet added;
        std::vector<AddedItem> itemPaths;
        for (const auto& item : items) {
            const std::string name = stdfs::path(item).lexically_normal().filename().string();
            if (asPath.empty() && (name.empty() || name == "." || name == ".."))
                throw UsageError(item.string() + ": give a file or folder by its name");
            addFromDisk(added, item, asPath.empty() ? name : asPath);
            itemPaths.push_back({item, asPath.empty() ? name : asPath});
        }
        // Again with the pak's spelling of the names it holds.
        const PakSpelling spelling(*pak);
        archive::ChangeSet changes;
        changes.root = items[0].has_parent_path() ? items[0].parent_path() : stdfs::path(".");
        for (const auto& folder : added.folders) addFolder(changes, spelling.of(folder));
        for (const auto& [path, disk] : added.files) addFile(changes, spelling.of(path), disk);
        for (auto& item : itemPaths) item.path = spelling.of(item.path);
        if (!force) refuseKindChanges(request, *pak, changes, itemPaths);
        return changes;
    });
}

CommitResult removeFromPak(const EditRequest& request, const std::vector<std::string>& paths) {
    if (paths.empty()) throw UsageError("give at least one PATH to remove");
    return commitEdit(request, [&](const std::shared_ptr<const archive::PakIndex>& pak) {
        archive::ChangeSet changes;
        changes.root = request.pak;
        // What a pattern may name: each file, each folder, and each folder the pak names only
        // inside its files' names.
        std::set<std::string> held;
        for (const auto& f : pak->folders()) held.insert(f.path);
        for (const auto& e : pak->entries()) {
            held.insert(e.path);
            for (std::size_t slash = e.path.find('/'); slash != std::string::npos;
                 slash = e.path.find('/', slash + 1))
                held.insert(e.path.substr(0, slash));
        }
        std::vector<std::string> gone;
        for (const auto& given : paths) {
            packPathOf(given);  // no . or ..
            const PathPattern pattern(given);
            bool any = false;
            for (const auto& path : held)
                if (pattern.matches(path)) {
                    gone.push_back(path);
                    any = true;
                }
            if (!any)
                throw Error(where(request, given) + (pattern.isGlob()
                                                         ? ": nothing in the pak matches it"
                                                         : ": no such file or folder in the pak"));
        }
        // A folder left empty by the removal goes too (parents first, so each is checked
        // with what is under it gone): pak rm of a folder's last file is no rmdir away from
        // it. A folder that was empty before is the pak's, and stays.
        const auto removed = [&](const std::string& path) {
            for (const auto& g : gone)
                if (path == g || isUnder(path, g)) return true;
            return false;
        };
        for (bool more = true; more;) {
            more = false;
            for (const auto& f : pak->folders()) {
                if (removed(f.path)) continue;
                bool emptied = false, keeps = false;
                for (const auto& e : pak->entries())
                    if (isUnder(e.path, f.path)) (removed(e.path) ? emptied : keeps) = true;
                for (const auto& sub : pak->folders())
                    if (isUnder(sub.path, f.path) && !removed(sub.path)) keeps = true;
                for (const auto& g : gone) emptied = emptied || isUnder(g, f.path);
                if (emptied && !keeps) {
                    gone.push_back(f.path);
                    more = true;
                }
            }
        }
        // A path inside a folder also removed goes with it.
        std::sort(gone.begin(), gone.end());
        for (const auto& p : gone) {
            bool inside = false;
            for (const auto& [w, disk] : changes.whiteouts) inside = inside || isUnder(p, w);
            if (!inside) changes.whiteouts[p] = where(request, p);
        }
        return changes;
    });
}

CommitResult moveInPak(const EditRequest& request, const std::string& from, const std::string& to) {
    const std::string givenTo = packPathOf(to);
    return commitEdit(request, [&](const std::shared_ptr<const archive::PakIndex>& pak) {
        const auto held = findInPak(*pak, packPathOf(from));
        if (!held) throw Error(where(request, from) + ": no such file or folder in the pak");
        // A new spelling of the same name (readme.txt to README.txt) is a rename: the game
        // compares names without regard to case, so it is the one path the pak holds.
        const bool caseOnly = foldCase(givenTo) == foldCase(held->path);
        if (const auto there = findInPak(*pak, givenTo); there && !caseOnly)
            throw Error(where(request, there->path) + " is there already: first run: pak rm " +
                        shellWord(request.pak.string()) + " " + shellWord(there->path) +
                        archive::keyOptionWords(request.keys) + ", or move " + held->path +
                        " elsewhere");
        if (foldCase(givenTo).starts_with(foldCase(held->path) + "/"))
            throw Error(where(request, givenTo) + ": inside " + held->path +
                        ", which cannot move into itself");
        archive::ChangeSet changes;
        changes.root = request.pak;
        changes.whiteouts[held->path] = where(request, held->path);
        // Into folders the pak holds, as it spells them; its own name as given.
        const std::size_t slash = givenTo.rfind('/');
        const std::string toPath =
            slash == std::string::npos
                ? givenTo
                : PakSpelling(*pak).of(givenTo.substr(0, slash)) + givenTo.substr(slash);
        if (toPath == held->path)
            throw Error(where(request, givenTo) + ": that is " + held->path +
                        " as the pak spells it already (its folders keep their spelling): "
                        "nothing to move");
        // Each file moved keeps its slot: the planner takes it from the base, undecoded.
        const auto moved = [&](const std::string& path) {
            return toPath + path.substr(held->path.size());
        };
        if (held->folder) {
            addFolder(changes, toPath);
            for (const auto& f : pak->folders())
                if (isUnder(f.path, held->path)) addFolder(changes, moved(f.path));
        }
        for (const auto& e : pak->entries()) {
            if (e.path != held->path && !isUnder(e.path, held->path)) continue;
            addFile(changes, moved(e.path), stdfs::path());
            changes.moves[moved(e.path)] = e.path;
        }
        return changes;
    });
}

}  // namespace pakfs::commit
