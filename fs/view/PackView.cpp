// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/view/PackView.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "gbx/Classes.hpp"
#include "gbx/MapFacts.hpp"

namespace pakfs::fs {

namespace {
// Decoded bytes kept behind a streaming reader: the kernel's readahead sends neighbouring
// requests out of order (even with one FUSE thread), and these serve them without restarting.
constexpr std::size_t kRecentKeep = 1 << 20;
constexpr blksize_t kBlockSize = 512;
constexpr blksize_t kPreferredIo = 128 * 1024;
// Decoding states kept for reads without a handle (readNoHandle): enough for a few files read
// at once, each with a streaming reader of up to 3 MiB.
constexpr std::size_t kPoolStates = 8;
}  // namespace

struct PackView::OpenFile {
    const Node* node = nullptr;
    std::mutex mutex;
    bool failed = false;
    EntryCache::Data whole;
    std::unique_ptr<archive::PlainEntryReader> reader;
    Bytes recent;  // the bytes just before the reader's position
    std::uint64_t recentStart = 0;
    // The offsets read without restarting the decoder; readNoHandle picks states by them.
    std::atomic<std::uint64_t> nearFrom{0}, nearTo{kRecentKeep};

    void appendRecent(const std::uint8_t* p, std::size_t n) {
        recent.insert(recent.end(), p, p + n);
        if (recent.size() > 2 * kRecentKeep) {
            std::size_t drop = recent.size() - kRecentKeep;
            recent.erase(recent.begin(), recent.begin() + std::ptrdiff_t(drop));
            recentStart += drop;
        }
    }
};

PackView::PackView(std::vector<Pack> packs, PackViewOptions options,
                   const std::function<void(const std::string&)>& warn)
    : options_(std::move(options)),
      drives_(options_.drives ? std::make_unique<Drives>(std::move(packs)) : nullptr),
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

const Drives& PackView::drives() const {
    // Only references need the merged view outside -o drives: built on first use, as it
    // takes about as much time and memory as the tree.
    std::call_once(drivesOnce_, [&] {
        if (!drives_) drives_ = std::make_unique<Drives>(tree_.packs());
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

long PackView::readHandle(std::uint64_t fh, char* buf, std::size_t size, std::int64_t offset) {
    std::shared_ptr<OpenFile> of;
    {
        std::lock_guard lock(handlesMutex_);
        auto it = handles_.find(fh);
        if (it == handles_.end()) return -EBADF;
        of = it->second;
    }
    if (offset == 0) readAhead_->after(*of->node);
    return readFrom(*of, buf, size, offset);
}

long PackView::readNoHandle(const Node& node, char* buf, std::size_t size, std::int64_t offset) {
    if (node.dir) return -EISDIR;
    if (offset == 0) readAhead_->after(node);
    if (offset == 0 && size >= node.size() && node.size() > 0) return readAllInto(node, buf, size);
    std::shared_ptr<OpenFile> of;
    {
        // The state of this file that serves `offset` without restarting (a sequential
        // reader's next request, also while the previous one is still being answered: it
        // waits for it, as with one open file), else a new one.
        std::lock_guard lock(poolMutex_);
        for (auto it = pool_.begin(); it != pool_.end(); ++it) {
            const OpenFile& o = **it;
            if (o.node == &node && std::uint64_t(offset) >= o.nearFrom &&
                std::uint64_t(offset) <= o.nearTo) {
                of = *it;
                std::rotate(pool_.begin(), it, it + 1);
                break;
            }
        }
        if (!of) {
            of = std::make_shared<OpenFile>();
            of->node = &node;
            pool_.insert(pool_.begin(), of);
            if (pool_.size() > kPoolStates) pool_.pop_back();  // kept alive while in use
        }
    }
    long n = readFrom(*of, buf, size, offset);
    if (n < 0) {
        std::lock_guard lock(poolMutex_);
        std::erase(pool_, of);
    }
    return n;
}

long PackView::readAllInto(const Node& node, char* buf, std::size_t size) {
    // Most small files come in one request. Decoded straight into the reply and not kept:
    // the kernel keeps the pages, a second copy here would only take memory.
    readAhead_->unqueue(node);
    // Decoded ahead: decodeWhole checked its size against the file table.
    if (auto cached = cache_.take(node.ino)) {
        std::memcpy(buf, cached->data(), cached->size());
        return long(cached->size());
    }
    try {
        // From the start to the end, so zlib's checksum is checked before the reply.
        if (auto got = decodePlain(node, reinterpret_cast<std::uint8_t*>(buf), size)) {
            checkDecodedSize(node, *got);
            return long(*got);
        }
        Bytes data = decodeWhole(node);  // a gbx entry
        std::memcpy(buf, data.data(), data.size());
        return long(data.size());
    } catch (const std::exception& e) {
        logOnce(node, e.what());
        return -EIO;
    }
}

long PackView::readFrom(OpenFile& of, char* buf, std::size_t size, std::int64_t offset) {
    if (offset < 0) return -EINVAL;
    const Node& node = *of.node;
    if (std::uint64_t(offset) >= node.size() || size == 0) return 0;
    size = std::size_t(std::min<std::uint64_t>(size, node.size() - std::uint64_t(offset)));

    std::lock_guard lock(of.mutex);
    if (of.failed) return -EIO;
    try {
        // Small files first: decodeWhole learns their kind from their content.
        if (node.size() <= options_.wholeEntryLimit || kindOf(node) == EntryKind::Gbx) {
            long n = readWhole(of, buf, size, std::uint64_t(offset));
            of.nearFrom = 0;
            of.nearTo = ~std::uint64_t(0);
            return n;
        }
        long n = readStreaming(of, buf, size, std::uint64_t(offset));
        of.nearFrom = of.recentStart;
        of.nearTo = of.reader->position() + kRecentKeep;
        return n;
    } catch (const std::exception& e) {
        // The decoder's state is unknown after an error: this handle stays failed.
        of.failed = true;
        of.reader.reset();
        logOnce(node, e.what());
        return -EIO;
    }
}

long PackView::readWhole(OpenFile& of, char* buf, std::size_t size, std::uint64_t offset) {
    const Node& node = *of.node;
    if (!of.whole) {
        readAhead_->unqueue(node);
        of.whole = cache_.getOrLoad(node.ino, [&] { return decodeWhole(node); });
    }
    std::memcpy(buf, of.whole->data() + offset, size);
    return long(size);
}

std::optional<std::size_t> PackView::decodePlain(const Node& node, std::uint8_t* dst,
                                                 std::size_t size) const {
    EntryKind kind = node.kind.load();
    // Gbx entries do not decode as plain ones: a name saying gbx asks the exact rule first.
    if (kind == EntryKind::Unknown && foldCase(node.name).ends_with(".gbx")) kind = kindOf(node);
    if (kind == EntryKind::Gbx) return std::nullopt;
    const auto& pak = tree_.packOf(node).pak;
    archive::PlainEntryReader reader(pak, *node.entry,
                                     archive::ReadRequest()
                                         .allowUnverified(options_.unverified)
                                         .withTuning(options_.readTuning));
    std::size_t got = reader.read(dst, std::min<std::size_t>(3, size));
    if (kind == EntryKind::Unknown) {
        const bool gbx = archive::isGbxEntryHead(*pak, *node.entry, {dst, got});
        node.kind.store(gbx ? EntryKind::Gbx : EntryKind::Plain);
        if (gbx) return std::nullopt;
    }
    if (got < size) got += reader.read(dst + got, size - got);
    if (reader.unproven()) logUnproven(node);
    return got;
}

Bytes PackView::decodeWhole(const Node& node) const {
    // Plain entries decode from the start, so that zlib's checksum is checked before any byte
    // is handed out. A large entry's kind is asked first: the file table's size of a gbx entry
    // is not allocated.
    if (node.kind.load() != EntryKind::Gbx &&
        (node.size() <= options_.wholeEntryLimit || kindOf(node) == EntryKind::Plain)) {
        Bytes out(node.size());
        if (auto got = decodePlain(node, out.data(), out.size())) {
            out.resize(*got);
            checkDecodedSize(node, out.size());
            return out;
        }
    }
    // A gbx entry (decodePlain or kindOf said so).
    archive::GbxDecodeOptions gbx;
    gbx.unverified = options_.unverified;
    Bytes out = archive::decodeGbxEntry(tree_.packOf(node).pak, *node.entry, gbx,
                                        [&](const std::string& w) {
                                            if (!node.errorLogged.exchange(true) && options_.log)
                                                options_.log("warning: " + w);
                                        });
    out.shrink_to_fit();  // the cache counts capacity
    checkDecodedSize(node, out.size());
    return out;
}

void PackView::checkDecodedSize(const Node& node, std::uint64_t decoded) const {
    if (decoded != node.size())
        throw Error(tree_.packOf(node).pak->name() + ": " + node.entry->path + ": decoded " +
                    std::to_string(decoded) + " bytes, the file table says " +
                    std::to_string(node.size()));
}

void PackView::settleReadAhead() {
    readAhead_->settle();
}

long PackView::readStreaming(OpenFile& of, char* buf, std::size_t size, std::uint64_t offset) {
    const Node& node = *of.node;
    if (!of.reader) {
        // Entries whose points come from the background pass or an index file: readers only
        // look them up, and one reading from the start streams through ISA-L, not zlib.
        const bool pointsByPass =
            options_.seekIndexFileMin > 0 && node.size() >= options_.seekIndexFileMin;
        of.reader = std::make_unique<archive::PlainEntryReader>(
            tree_.packOf(node).pak, *node.entry,
            archive::ReadRequest::points(
                seekPoints_->indexFor(node),
                pointsByPass ? archive::PointUse::LookUp : archive::PointUse::Record)
                .allowUnverified(options_.unverified)
                .withTuning(options_.readTuning));
        if (of.reader->unproven()) logUnproven(node);
    }
    archive::PlainEntryReader& reader = *of.reader;
    auto* dst = reinterpret_cast<std::uint8_t*>(buf);
    std::size_t done = 0;
    std::uint64_t recentEnd = of.recentStart + of.recent.size();
    if (offset >= of.recentStart && offset < recentEnd) {
        done = std::size_t(std::min<std::uint64_t>(size, recentEnd - offset));
        std::memcpy(dst, of.recent.data() + (offset - of.recentStart), done);
    }
    while (done < size) {
        std::uint64_t pos = offset + done;
        if (pos != reader.position()) {
            if (pos > reader.position() && pos - reader.position() <= kRecentKeep &&
                !reader.seekResumesNearer(pos)) {
                // A short jump ahead: keep the bytes jumped over, a read for them may follow.
                // (With a seek point between here and there, resuming at it decodes less: a
                // random read landing a few hundred KiB ahead took 4 ms instead of 1.)
                Bytes gap(std::size_t(pos - reader.position()));
                std::size_t got = reader.read(gap.data(), gap.size());
                of.appendRecent(gap.data(), got);
                if (got < gap.size()) break;
            } else {
                reader.seek(pos);
                // A reader that jumps: points will be wanted. Queued after this seek, which
                // has both cores when it decodes from the start (decryption beside ISA-L).
                seekPoints_->startPass(node);
                of.recent.clear();
                of.recentStart = reader.position();
            }
        }
        std::size_t got = reader.read(dst + done, size - done);
        if (got == 0) break;
        of.appendRecent(dst + done, got);
        done += got;
    }
    return long(done);
}

std::vector<std::pair<const char*, std::string>> PackView::mapAttributes(const Node& node) const {
    std::vector<std::pair<const char*, std::string>> out;
    const archive::PakEntry& e = *node.entry;
    // The file table's class, as user.gbx.class gives it: only maps decode their header here.
    if (!gbx::isMapClass(e.classId)) return out;
    try {
        if (kindOf(node) != EntryKind::Gbx) return out;
        const gbx::GbxHeader header = archive::readGbxEntryRefs(tree_.packOf(node).pak, e).header;
        auto facts = gbx::mapFacts(header);
        if (!facts) return out;
        if (facts->title) out.emplace_back(kXattrMapTitle, *facts->title);
        if (facts->author) out.emplace_back(kXattrMapAuthor, *facts->author);
        if (facts->environment) out.emplace_back(kXattrMapEnvironment, *facts->environment);
        if (facts->thumbnail)
            out.emplace_back(kXattrMapThumbnail, gbx::describePicture(*facts->thumbnail));
        if (!facts->thumbnailProblem.empty()) logOnce(node, facts->thumbnailProblem);
    } catch (const std::exception& err) {
        logOnce(node, err.what());
    }
    return out;
}

std::string PackView::xattrValue(const Node& node, std::string_view name, bool* found) const {
    *found = true;
    const archive::PakEntry& e = *node.entry;
    if (name.rfind("user.gbx.map.", 0) == 0) {
        for (auto& [attr, value] : mapAttributes(node))
            if (name == attr) return std::move(value);
        *found = false;
        return {};
    }
    if (name == kXattrClassId) return hex32(e.classId);
    if (name == kXattrFlags) return hex64(e.flags);
    if (name == kXattrCompressedSize) return std::to_string(e.compressedSize);
    if (name == kXattrCipher && e.counterMode) return archive::counterModeKind(e);
    if (name == kXattrGbxClass) {
        EntryKind kind = EntryKind::Unknown;
        try {
            kind = kindOf(node);
        } catch (const std::exception&) {
        }
        if (kind == EntryKind::Gbx) {
            std::string_view className = gbx::ClassRegistry::builtin().name(e.classId);
            return className.empty() ? hex32(e.classId) : std::string(className);
        }
    }
    if (name == kXattrGbxDecode) {
        EntryKind kind = EntryKind::Unknown;
        try {
            kind = kindOf(node);
        } catch (const std::exception&) {
        }
        if (kind == EntryKind::Gbx) {
            archive::GbxDecodeOptions gbx;
            gbx.unverified = options_.unverified;
            return archive::gbxDecodeKindName(
                archive::decodeGbxEntryProven(tree_.packOf(node).pak, e, gbx).kind);
        }
    }
    bool gbxEntry = false;
    try {
        gbxEntry = name == kXattrGbxRefs && kindOf(node) == EntryKind::Gbx;
    } catch (const std::exception&) {
    }
    if (gbxEntry) {
        const auto& pak = tree_.packOf(node).pak;
        // A file hidden by another pack still resolves from where its own pack puts it.
        std::string where =
            drives()
                .drivePathOf(node.pack, e)
                .value_or(std::string(driveOf(tree_.packOf(node).name)) + "/" + e.path);
        try {
            std::string lines;
            for (const auto& r :
                 resolveReferences(drives(), where, archive::readGbxEntryRefs(pak, e).refs))
                lines += r.unknown ? "resource " + std::to_string(r.ref.resourceIndex) +
                                         " (not resolved)\n"
                         : r.resolved ? *r.resolved + (r.exists ? "\n" : " (missing)\n")
                                      : "- (missing)\n";
            return lines;
        } catch (const Error& err) {
            logOnce(node, err.what());
        }
    }
    *found = false;
    return {};
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

long PackView::getxattr(Ino ino, std::string_view name, char* value, std::size_t size) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    if (node->dir) return -ENODATA;
    bool found = false;
    std::string v = xattrValue(*node, name, &found);
    if (!found) return -ENODATA;
    if (size == 0 || !value) return long(v.size());
    if (size < v.size()) return -ERANGE;
    std::memcpy(value, v.data(), v.size());
    return long(v.size());
}

long PackView::listxattr(Ino ino, char* list, std::size_t size) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    std::string names;
    if (!node->dir) {
        for (const char* name : {kXattrClassId, kXattrFlags, kXattrCompressedSize, kXattrCipher,
                                 kXattrGbxClass, kXattrGbxRefs}) {
            bool found = false;
            xattrValue(*node, name, &found);
            if (found) names.append(name).push_back('\0');
        }
        // Every gbx entry has one; its value costs a decode, so it is not made here.
        if (names.find(kXattrGbxClass) != std::string::npos)
            names.append(kXattrGbxDecode).push_back('\0');
        for (const auto& [name, value] : mapAttributes(*node)) names.append(name).push_back('\0');
    }
    if (size == 0 || !list) return long(names.size());
    if (size < names.size()) return -ERANGE;
    std::memcpy(list, names.data(), names.size());
    return long(names.size());
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
    if (path.size() <= kGameDrive.size() || path.compare(0, kGameDrive.size(), kGameDrive) != 0 ||
        path[kGameDrive.size()] != '/')
        return {};
    return "a deletion in the Game drive can never be committed (pak commit --patch only adds "
           "and replaces files); " +
           drives().deletionAdvice(path);
}

}  // namespace pakfs::fs
