// SPDX-License-Identifier: GPL-2.0-or-later
// The folder walk of pak pack: names checked, what is left out (links unless followed, leaveOut
// files and their temporary files), and links back into the walk refused by device and inode.
#include "archive/write/FolderScan.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "archive/write/PackPlanner.hpp"
#include "archive/write/PlanFolders.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::archive {

namespace {

using plan::FolderTable;

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

}  // namespace

void scanFolder(const stdfs::path& root, PackPlan& plan, const PackOptions& options) {
    FolderScan(plan, options).run(root, plan);
}

}  // namespace pakfs::archive
