// SPDX-License-Identifier: GPL-2.0-or-later
// An overlay folder read into a change set (files, folders, whiteouts, opaque markers), each
// name checked, what a pak cannot hold refused; the overlay's own names; same-name packs refused.
#include "commit/OverlayLayout.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "commit/OverlayRecord.hpp"

namespace stdfs = std::filesystem;

namespace pakfs::commit {

namespace {

std::string join(const std::string& dir, const std::string& name) {
    return dir.empty() ? name : dir + "/" + name;
}

const char* kindOfNonFile(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device file";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file or folder";
}

void readFolder(const stdfs::path& disk, const std::string& at, archive::ChangeSet& out) {
    for (const auto& name : sortedNames(disk)) {
        const stdfs::path item = disk / name;
        struct stat st {};
        if (::lstat(item.c_str(), &st) != 0)
            throw Error(item.string() + ": " + std::strerror(errno));
        if (name == kOpaqueMarker) {
            out.opaque.emplace(at, item);
            continue;
        }
        if (auto target = whiteoutTarget(name)) {
            if (auto why = archive::unstorableName(*target))
                throw Error(item.string() + ": a whiteout of a name no pak holds (" + *why + ")");
            out.whiteouts.emplace(join(at, *target), item);
            continue;
        }
        if (auto why = unusableName(name))
            throw Error(item.string() + ": " + *why + ", so a pak cannot hold it");
        if (S_ISDIR(st.st_mode)) {
            const std::string path = join(at, name);
            out.folders.push_back(path);
            out.folderSet.insert(path);
            readFolder(item, path, out);
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

}  // namespace

std::shared_ptr<InputFile> openOverlayOwnFile(const stdfs::path& file) {
    std::error_code ec;
    if (!stdfs::exists(stdfs::symlink_status(file, ec))) return nullptr;
    return InputFile::open(file);
}

bool isOverlayOwnName(std::string_view name) {
    return name == kOverlayWorkFolder || name == kOverlayRecordFile || name == kOverlayLockFile ||
           name == kCommitFailedFile || name == kOverlayLogFile;
}

void refuseSameNamePacks(const std::vector<packs::Pack>& packs) {
    for (std::size_t i = 0; i < packs.size(); ++i)
        for (std::size_t j = i + 1; j < packs.size(); ++j)
            if (foldCase(packs[i].name) == foldCase(packs[j].name))
                throw Error(packs[i].pak->name() + " and " + packs[j].pak->name() +
                            ": two packs named " + packs[i].name +
                            " cannot share a writable mount (their changes would share the "
                            "overlay folder " +
                            packs[i].name +
                            "); mount them apart, each with its own overlay folder");
}

std::optional<std::string> unusableName(std::string_view name) {
    if (name == "." || name == "..") return "not a name";
    if (isLayoutName(name))
        return "names starting with " + std::string(kWhiteoutPrefix) +
               " are the overlay's whiteouts";
    return archive::unstorableName(name);
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

archive::ChangeSet readOverlayChanges(const stdfs::path& folder) {
    archive::ChangeSet changes;
    changes.root = folder;
    std::error_code ec;
    if (stdfs::exists(folder, ec)) readFolder(folder, "", changes);
    return changes;
}

stdfs::path overlayFolderOf(const stdfs::path& overlayRoot, const archive::PakIndex& pak) {
    return overlayRoot / archive::packNameOf(pak.name());
}

}  // namespace pakfs::commit
