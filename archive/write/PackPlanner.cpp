// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/write/PackPlanner.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_set>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PakOpener.hpp"
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

std::string parentOf(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string baseNameOf(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The one builder of a plan's folder table: each folder by its "/"-joined path, after its
// parent.
class FolderTable {
public:
    explicit FolderTable(std::vector<PlanFolder>& folders) : folders_(folders) {}

    std::int32_t add(const std::string& path, std::int32_t parent, std::string name) {
        const auto index = std::int32_t(folders_.size());
        folders_.push_back({parent, std::move(name)});
        byPath_.emplace(path, index);
        return index;
    }
    const std::int32_t* find(const std::string& path) const {
        auto it = byPath_.find(path);
        return it == byPath_.end() ? nullptr : &it->second;
    }
    // The index of folder `dir` ("": the root), added with every folder above it it lacks.
    std::int32_t ensure(const std::string& dir) {
        if (dir.empty()) return -1;
        if (auto found = find(dir)) return *found;
        const std::int32_t parent = ensure(parentOf(dir));
        return add(dir, parent, baseNameOf(dir) + "\\");
    }
    // Where `path` goes without adding folders: under the nearest folder above it the table
    // has, named by the rest of its path (a pak may name folders only in its files' names).
    std::pair<std::int32_t, std::string> nearest(const std::string& path) const {
        std::int32_t parent = -1;
        std::string name = path;
        for (std::string q = parentOf(path); !q.empty(); q = parentOf(q))
            if (auto found = find(q)) {
                parent = *found;
                name = path.substr(q.size() + 1);
                break;
            }
        std::replace(name.begin(), name.end(), '/', '\\');
        return {parent, name};
    }

private:
    std::vector<PlanFolder>& folders_;
    std::map<std::string, std::int32_t> byPath_;
};

// Names that differ only in case from another, which the game (it ignores case) would take
// for one: gathered so that one Error names every one. A name inside a folder already named is
// left out (renaming that folder settles it).
class CaseClashes {
public:
    explicit CaseClashes(stdfs::path root) : root_(std::move(root)) {}

    // `path` differs only in case from `other`, a name in the `where` ("pack", "overlay"; null:
    // the same tree).
    void add(const std::string& path, const std::string& other, const char* where) {
        for (std::string p = parentOf(path); !p.empty(); p = parentOf(p))
            if (named_.count(p)) return;
        named_.insert(path);
        lines_.push_back((root_ / path).string() + ": differs only in case from " + other +
                         (where ? std::string(" in the ") + where : std::string()));
    }
    void throwIfAny() const {
        const std::string why = ", which the game would not tell apart";
        if (lines_.empty()) return;
        if (lines_.size() == 1) throw Error(lines_.front() + why);
        std::string m = root_.string() + ": " + std::to_string(lines_.size()) +
                        " names differ only in case from another" + why + ":";
        for (const auto& line : lines_) m += "\n  " + line;
        throw Error(m);
    }

private:
    stdfs::path root_;
    std::set<std::string> named_;
    std::vector<std::string> lines_;
};

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

void checkName(const stdfs::path& disk, const std::string& name) {
    if (auto why = unstorableName(name)) throw Error(disk.string() + ": " + *why);
}

// A file or folder by device and inode.
struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    bool operator==(const FileId&) const = default;
    auto operator<=>(const FileId&) const = default;
};

FileId idOf(const struct stat& st) {
    return {st.st_dev, st.st_ino};
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

std::string sysReason() {
    return std::strerror(errno);
}

// What pak pack never packs though it may be in the folder (PackOptions::leaveOut): each file
// by device and inode where it exists, and by its folder and name (for one not written yet), with
// its temporary files (.NAME.tmp-XXXXXX, as AtomicOutputFile names them).
class LeftOutFiles {
public:
    explicit LeftOutFiles(const std::vector<stdfs::path>& paths) {
        for (const auto& p : paths) {
            add(p);
            // A link is written through: its target and the target's folder count too.
            std::error_code ec;
            if (stdfs::is_symlink(p, ec))
                if (auto target = stdfs::weakly_canonical(p, ec); !ec) add(target);
        }
    }
    // Whether the entry `name` of the folder `folder` is one (`st`: what it is, if known).
    bool has(const FileId& folder, const std::string& name, const struct stat* st) const {
        if (st && S_ISREG(st->st_mode) && files_.count(idOf(*st))) return true;
        for (const auto& [dir, n] : names_)
            if (dir == folder && (name == n || isTemporary(name, n))) return true;
        return false;
    }

private:
    std::set<FileId> files_;
    std::vector<std::pair<FileId, std::string>> names_;

    void add(const stdfs::path& p) {
        struct stat st;
        if (::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) files_.insert(idOf(st));
        const stdfs::path dir = p.has_parent_path() ? p.parent_path() : stdfs::path(".");
        if (::stat(dir.c_str(), &st) == 0) names_.emplace_back(idOf(st), p.filename().string());
    }
    static bool isTemporary(const std::string& name, const std::string& of) {
        const std::string start = "." + of + ".tmp-";
        return name.size() == start.size() + 6 && name.compare(0, start.size(), start) == 0;
    }
};

// The names of the links left out, in one line: the first few, then how many more.
std::string linksLeftOutWarning(const std::vector<std::string>& links) {
    constexpr std::size_t kShown = 8;
    const bool one = links.size() == 1;
    std::string line = std::to_string(links.size()) + " symbolic link" + (one ? "" : "s") +
                       " left out (pass -L to follow " + (one ? "it" : "them") + "): ";
    for (std::size_t i = 0; i < links.size() && i < kShown; ++i) line += (i ? ", " : "") + links[i];
    if (links.size() > kShown) line += " and " + std::to_string(links.size() - kShown) + " more";
    return line;
}

// The files and folders under `root`, in the order planFolder gives. Symbolic links are left
// out unless options.followLinks; followed, a link to a folder that holds it is refused (the
// walk would never end), found by device and inode.
class FolderScan {
public:
    FolderScan(PackPlan& plan, const PackOptions& options)
        : options_(options), leftOut_(options.leaveOut), table_(plan.folders) {}

    void run(const stdfs::path& root, PackPlan& plan);

private:
    struct Sub {
        stdfs::path disk;
        std::string name;
        FileId id;
        bool link;
    };

    // What the link `disk` names, or an error naming the link.
    struct stat follow(const stdfs::path& disk) const;
    void walk(const stdfs::path& dir, const FileId& dirId, std::int32_t folderIndex,
              const std::string& prefix);
    // One name of the folder `dirId` being walked: a file planned, a folder put in `subdirs`,
    // or something left out.
    void scanItem(const stdfs::directory_entry& item, const FileId& dirId, std::int32_t folderIndex,
                  const std::string& prefix, std::vector<Sub>& subdirs);
    // Refuses a folder that is one the walk is in (a link to it, or a bind mount).
    void refuseLoop(const Sub& sub) const;

    const PackOptions& options_;
    LeftOutFiles leftOut_;
    FolderTable table_;
    std::vector<std::vector<PlanFile>> filesByFolder_ = std::vector<std::vector<PlanFile>>(1);
    std::vector<std::pair<FileId, stdfs::path>> ancestors_;  // the folders the walk is in
    std::vector<std::string> linksLeftOut_;
};

void FolderScan::run(const stdfs::path& root, PackPlan& plan) {
    struct stat st;
    if (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw Error(root.string() + ": not a folder");
    walk(root, idOf(st), -1, "");
    if (!linksLeftOut_.empty() && options_.warn) options_.warn(linksLeftOutWarning(linksLeftOut_));
    for (auto& group : filesByFolder_)
        for (auto& f : group) plan.files.push_back(std::move(f));
}

struct stat FolderScan::follow(const stdfs::path& disk) const {
    struct stat st;
    if (::stat(disk.c_str(), &st) == 0) return st;
    const int err = errno;
    std::error_code ec;
    const std::string target = stdfs::read_symlink(disk, ec).string();
    if (err == ENOENT)
        throw Error(disk.string() + ": a symbolic link to " + target +
                    ", which does not exist (remove it, or pack without -L)");
    if (err == ELOOP)
        throw Error(disk.string() + ": a symbolic link to " + target +
                    " that leads back to itself through links (remove it, or pack without "
                    "-L)");
    errno = err;
    throw Error(disk.string() + ": cannot follow the symbolic link to " + target + ": " +
                sysReason());
}

void FolderScan::walk(const stdfs::path& dir, const FileId& dirId, std::int32_t folderIndex,
                      const std::string& prefix) {
    ancestors_.emplace_back(dirId, dir);
    std::vector<stdfs::directory_entry> items;
    std::error_code ec;
    for (stdfs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        items.push_back(*it);
    if (ec) throw Error(dir.string() + ": cannot list folder: " + ec.message());
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
        return a.path().filename().string() < b.path().filename().string();
    });
    std::vector<Sub> subdirs;
    for (const auto& item : items) scanItem(item, dirId, folderIndex, prefix, subdirs);
    for (const auto& sub : subdirs) {
        refuseLoop(sub);
        checkName(sub.disk, sub.name);
        const std::string path = prefix + sub.name;
        filesByFolder_.emplace_back();
        walk(sub.disk, sub.id, table_.add(path, folderIndex, sub.name + "\\"), path + "/");
    }
    ancestors_.pop_back();
}

void FolderScan::scanItem(const stdfs::directory_entry& item, const FileId& dirId,
                          std::int32_t folderIndex, const std::string& prefix,
                          std::vector<Sub>& subdirs) {
    const std::string name = item.path().filename().string();
    struct stat st;
    if (::lstat(item.path().c_str(), &st) != 0) {
        if (errno == ENOENT) return;  // gone since the listing
        throw Error(item.path().string() + ": cannot look at it: " + sysReason());
    }
    const bool link = S_ISLNK(st.st_mode);
    if (leftOut_.has(dirId, name, link ? nullptr : &st)) return;
    if (link) {
        if (!options_.followLinks) {
            linksLeftOut_.push_back(prefix + name);
            return;
        }
        st = follow(item.path());
        if (leftOut_.has(dirId, name, &st)) return;
    }
    if (S_ISDIR(st.st_mode)) {
        subdirs.push_back({item.path(), name, idOf(st), link});
    } else if (S_ISREG(st.st_mode)) {
        checkName(item.path(), name);
        if (foldCase(name) == "packlist.dat" && options_.warn)
            options_.warn(item.path().string() + " is packed (as " + prefix + name +
                          "): a packlist.dat holds keys");
        filesByFolder_[std::size_t(folderIndex + 1)].push_back(
            {folderIndex, name, prefix + name, item.path()});
    } else if (options_.warn) {
        options_.warn(item.path().string() + ": not a regular file, left out");
    }
}

void FolderScan::refuseLoop(const Sub& sub) const {
    for (const auto& [id, where] : ancestors_)
        if (id == sub.id)
            throw Error(sub.link ? sub.disk.string() + ": a symbolic link to " + where.string() +
                                       ", a folder that holds it: following it would "
                                       "never end (remove it, or pack without -L)"
                                 : sub.disk.string() + ": the folder " + where.string() +
                                       " again, inside itself: packing it would never "
                                       "end");
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
    FolderScan(plan, options).run(root, plan);
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
