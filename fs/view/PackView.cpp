// SPDX-License-Identifier: GPL-2.0-or-later
// PackView: the tree's files by inode, their handles, and the view's state (the reads are in
// PackViewRead.cpp, the extended attributes in PackViewXattrs.cpp).
#include "fs/view/PackView.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "fs/view/PackViewOpenFile.hpp"

namespace pakfs::fs {

namespace {
constexpr blksize_t kBlockSize = 512;
constexpr blksize_t kPreferredIo = 128 * 1024;
}  // namespace

PackView::PackView(std::vector<packs::Pack> packs, PackViewOptions options,
                   const std::function<void(const std::string&)>& warn)
    : options_(std::move(options)),
      drives_(options_.drives ? std::make_unique<packs::Drives>(std::move(packs)) : nullptr),
      tree_(options_.drives ? Tree(*drives_, options_.icase, warn)
                            : Tree(std::move(packs), options_.icase, warn)),
      cache_(options_.cacheBytes) {
    if (options_.wholeEntryLimit == 0)
        options_.wholeEntryLimit = std::min<std::uint64_t>(1 << 20, options_.cacheBytes / 8);
    seekPoints_ = std::make_unique<SeekPointKeeper>(
        SeekPointKeeper::Limits{options_.seekSpan, options_.seekPointsPerEntry,
                                std::size_t(options_.seekMemory /
                                            std::max<std::size_t>(options_.seekIndexedEntries, 1)),
                                options_.seekIndexedEntries, options_.seekIndexFileMin},
        tree_, [this](const Node& node, const std::string& message) { logOnce(node, message); },
        [this](const Node& node, const std::string& message) {
            if (options_.log) options_.log("warning: " + tree_.pathOf(node) + ": " + message);
        });
    readAhead_ = std::make_unique<ReadAhead>(
        ReadAhead::Limits{options_.readAheadFiles, options_.readAheadBytes,
                          options_.wholeEntryLimit},
        [this](const Node& node) { return cache_.contains(node.ino); },
        [this](const Node& node) {
            EntryCache::Data data = cache_.getOrLoad(node.ino, [&] { return decodeWhole(node); });
            // After the cache has it: a request for this file that waits for the decode is
            // answered before the store, which may wait for the pages that request holds.
            if (storeAhead_ && storeAhead_(node, *data)) cache_.take(node.ino);
        });
}

PackView::~PackView() = default;

const packs::Drives& PackView::drives() const {
    // Only references need the merged view outside -o drives: built on first use, as it
    // takes about as much time and memory as the tree.
    std::call_once(drivesOnce_, [&] {
        if (!drives_) drives_ = std::make_unique<packs::Drives>(tree_.packs());
    });
    return *drives_;
}

void PackView::fillStat(const Node& node, struct stat* st) const {
    std::memset(st, 0, sizeof *st);
    st->st_ino = node.ino;
    st->st_uid = options_.uid;
    st->st_gid = options_.gid;
    st->st_mtime = st->st_atime = st->st_ctime = time_t(node.mtime);
    st->st_blksize = kPreferredIo;
    if (node.dir) {
        st->st_mode = S_IFDIR | (0555 & ~options_.umask);
        st->st_nlink = 2 + node.subdirs;
        st->st_size = off_t(4096);
    } else {
        st->st_mode = S_IFREG | (0444 & ~options_.umask);
        st->st_nlink = 1;
        st->st_size = off_t(node.size());
    }
    st->st_blocks = blkcnt_t((std::uint64_t(st->st_size) + kBlockSize - 1) / kBlockSize);
}

std::size_t PackView::openFiles() const {
    std::lock_guard lock(handlesMutex_);
    return handles_.size();
}

EntryKind PackView::kindOf(const Node& node) const {
    EntryKind kind = node.kind.load();
    if (kind != EntryKind::Unknown) return kind;
    kind = archive::isGbxEntry(*tree_.packOf(node).pak, *node.entry) ? EntryKind::Gbx
                                                                     : EntryKind::Plain;
    node.kind.store(kind);
    return kind;
}

void PackView::logOnce(const Node& node, const std::string& message) const {
    if (node.errorLogged.exchange(true) || !options_.log) return;
    options_.log("cannot read " + tree_.pathOf(node) + ": " + message);
}

void PackView::logUnproven(const Node& node) const {
    if (node.errorLogged.exchange(true) || !options_.log) return;
    options_.log("warning: " + tree_.packOf(node).pak->name() + ": " + node.entry->path + ": " +
                 archive::counterModeDetail(*node.entry));
}

void PackView::settleIndexing() {
    seekPoints_->settle();
}

std::size_t PackView::seekPoints() const {
    return seekPoints_->count();
}

std::size_t PackView::seekPointBytes() const {
    return seekPoints_->memoryBytes();
}

int PackView::statfs(struct statvfs* st) {
    std::memset(st, 0, sizeof *st);
    st->f_bsize = kPreferredIo;
    st->f_frsize = kBlockSize;
    st->f_blocks = fsblkcnt_t((tree_.totalBytes() + kBlockSize - 1) / kBlockSize);
    st->f_files = fsfilcnt_t(tree_.nodeCount());
    st->f_namemax = 255;
    st->f_flag = ST_RDONLY | ST_NOSUID | ST_NODEV;
    return 0;
}

int PackView::lookup(Ino parent, std::string_view name, struct stat* st) {
    const Node* dir = tree_.byIno(parent);
    if (!dir) return -ENOENT;
    if (!dir->dir) return -ENOTDIR;
    const Node* node = tree_.child(*dir, name);
    if (!node) return -ENOENT;
    fillStat(*node, st);
    return 0;
}

int PackView::getattr(Ino ino, struct stat* st) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    fillStat(*node, st);
    return 0;
}

int PackView::locate(Ino ino, Ino* parent, std::string* name) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    *parent = node->parent ? node->parent->ino : node->ino;
    name->assign(node->name);
    return 0;
}

int PackView::readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    if (!node->dir) return -ENOTDIR;
    if (offset < 0) return -EINVAL;
    struct stat st;
    if (offset == 0) {
        fillStat(*node, &st);
        if (!fill(".", st, 1)) return 0;
    }
    if (offset <= 1) {
        fillStat(node->parent ? *node->parent : *node, &st);
        if (!fill("..", st, 2)) return 0;
    }
    for (std::size_t i = std::size_t(std::max<std::int64_t>(offset, 2) - 2);
         i < node->children.size(); ++i) {
        const Node* child = node->children[i];
        fillStat(*child, &st);
        // Names in the tree are NUL-terminated.
        if (!fill(child->name.data(), st, std::int64_t(i) + 3)) break;
    }
    return 0;
}

int PackView::open(Ino ino, int flags, std::uint64_t* fh) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC)) return -EROFS;
    if (node->dir) return -EISDIR;
    auto of = std::make_shared<OpenFile>();
    of->node = node;
    std::lock_guard lock(handlesMutex_);
    *fh = nextHandle_++;
    handles_.emplace(*fh, std::move(of));
    return 0;
}

long PackView::read(Ino ino, std::uint64_t fh, char* buf, std::size_t size, std::int64_t offset) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    return fh ? readHandle(fh, buf, size, offset) : readNoHandle(*node, buf, size, offset);
}

int PackView::release(Ino ino, std::uint64_t fh) {
    if (!tree_.byIno(ino)) return -ENOENT;
    if (!fh) return 0;
    std::lock_guard lock(handlesMutex_);
    return handles_.erase(fh) ? 0 : -EBADF;
}

int PackView::access(Ino ino, int mask) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    if (mask & W_OK) return -EROFS;
    if ((mask & X_OK) && !node->dir) return -EACCES;
    return 0;
}

std::string PackView::whyNotDeletable(Ino ino) {
    const Node* node = tree_.byIno(ino);
    if (!options_.drives || !node) return {};
    // The Resource drive is Resource.pak alone: its deletions are committed into it.
    const std::string path = tree_.pathOf(*node).substr(1);  // "Game/..."
    if (path.size() <= packs::kGameDrive.size() ||
        path.compare(0, packs::kGameDrive.size(), packs::kGameDrive) != 0 ||
        path[packs::kGameDrive.size()] != '/')
        return {};
    return "a deletion in the Game drive can never be committed (pak commit --patch only adds "
           "and replaces files); " +
           drives().deletionAdvice(path);
}

}  // namespace pakfs::fs
