// SPDX-License-Identifier: GPL-2.0-or-later
// The read-only pack view: a View (View.hpp) over a Tree, each method returning 0 (or a byte
// count) or a negative errno. Nothing here knows about FUSE, so tests call the methods
// directly. Thread-safe: every open file has its own decoding state.
#pragma once

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "archive/stream/ReadTuning.hpp"
#include "archive/stream/SeekPoints.hpp"
#include "fs/view/EntryCache.hpp"
#include "fs/view/ReadAhead.hpp"
#include "fs/view/SeekPointKeeper.hpp"
#include "fs/view/Tree.hpp"
#include "fs/view/View.hpp"
#include "packs/Drives.hpp"

namespace pakfs::fs {

struct PackViewOptions {
    bool icase = false;
    // The game's view: /Resource and /Game with the packs merged (packs must come in load
    // order, see orderPacks) instead of one folder per pack.
    bool drives = false;
    // Whole decoded entries kept in memory (small entries and gbx entries).
    std::uint64_t cacheBytes = 64ull << 20;
    // Plain entries up to this size are decoded whole through the cache; larger ones stream.
    // 0 = min(1 MiB, cacheBytes / 8).
    std::uint64_t wholeEntryLimit = 0;
    // Seek points in large compressed entries: at least this far apart (and at deflate block
    // ends: about 300 KiB apart in libdeflate's level-6 text), at most this many per entry, for
    // at most this many entries at a time (least recently used dropped first), their windows
    // deflated and within seekMemory bytes in all (seekMemory / seekIndexedEntries per entry;
    // an entry that would need more keeps every other point). Defaults: a point at every block
    // end of entries up to 256 MiB (about 6 MiB of points per 256 MiB of text), at most 32 MiB
    // in all (an entry dropped from memory finds its points again in its index file, see
    // seekIndexFileMin).
    std::uint64_t seekSpan = 64ull << 10;
    std::size_t seekPointsPerEntry = 4096;
    std::uint64_t seekMemory = 32ull << 20;
    std::size_t seekIndexedEntries = 2;
    // Compressed entries at least this large get their seek points from an index file under
    // $XDG_CACHE_HOME, or from a background pass started by the first read that jumps in the
    // entry (0: neither; readers record points as they decode).
    std::uint64_t seekIndexFileMin = 8ull << 20;
    // Reading a file from its start has worker threads decode the small files after it in
    // its folder (and hand them to the store, see setStoreAhead), so that a folder copied
    // file by file finds them decoded: decoding runs beside the reader instead of between its
    // requests. At most this many files and bytes ahead; 0 files turns it off. 64 rather than
    // 16: with files stored in the kernel, the window moves on only when a read reaches
    // pakfs (--scale 0.25 copy: 2.36-2.54 s against 2.64-3.33 s).
    std::size_t readAheadFiles = 64;
    std::uint64_t readAheadBytes = 4ull << 20;
    // Serve a stored gbx file that cannot be proven as the node scan's best decode, and a
    // counter-mode file nothing proves (one log line each), instead of EIO.
    bool unverified = false;
    // The plain entry readers' strategy knobs (defaults: the mount's).
    archive::ReadTuning readTuning;
    uid_t uid = 0;
    gid_t gid = 0;
    mode_t umask = 0;  // taken off the modes (0555 folders, 0444 files)
    // One line per problem (undecodable entry); called from any thread.
    std::function<void(const std::string&)> log;
};

// Names of the extended attributes of file entries.
inline constexpr const char* kXattrClassId = "user.pak.class_id";
inline constexpr const char* kXattrFlags = "user.pak.flags";
inline constexpr const char* kXattrCompressedSize = "user.pak.compressed_size";
// Version 6+ files encrypted in counter mode only: "counter" or "counter:unverified"
// (archive::counterModeKind).
inline constexpr const char* kXattrCipher = "user.pak.cipher";
inline constexpr const char* kXattrGbxClass = "user.gbx.class";
// gbx entries: one line per external reference, the drive path it resolves to ("-" when it
// points nowhere), with " (missing)" when no such file is in the drives.
inline constexpr const char* kXattrGbxRefs = "user.gbx.refs";
// gbx entries: how the bytes the mount serves are proven, as pak check names it (parsed,
// header, exact, verified, unverified under -o unverified, refused).
inline constexpr const char* kXattrGbxDecode = "user.gbx.decode";
// Maps (user.gbx.class CGameCtnChallenge), from their header, each only when the header says:
// the title (the map's name as stored), the author's login, the environment (collection) and
// the thumbnail's format, size and bytes ("jpeg 256x256, 9916 bytes"; gbx/pictures/Pictures.hpp).
inline constexpr const char* kXattrMapTitle = "user.gbx.map.title";
inline constexpr const char* kXattrMapAuthor = "user.gbx.map.author";
inline constexpr const char* kXattrMapEnvironment = "user.gbx.map.environment";
inline constexpr const char* kXattrMapThumbnail = "user.gbx.map.thumbnail";

// The read-only pack view: the packs' files as the tree lays them out, decoded on demand.
class PackView : public View {
public:
    PackView(std::vector<packs::Pack> packs, PackViewOptions options,
             const std::function<void(const std::string&)>& warn = {});
    ~PackView();
    PackView(const PackView&) = delete;
    PackView& operator=(const PackView&) = delete;

    // The View, by the tree's inode numbers (a path reaches one through inoAt). open hands out
    // a handle with its own decoding state; a read without one (fh 0, for a mount that does not
    // open files) uses states kept per file between reads, a few at a time.
    Ino inoLimit() const override { return tree_.nodeCount(); }
    int lookup(Ino parent, std::string_view name, struct stat* st) override;
    int getattr(Ino ino, struct stat* st) override;
    int locate(Ino ino, Ino* parent, std::string* name) override;
    // ".", ".." and every child in name order from entry `offset` (entry i has offset i, the
    // next i + 1).
    int readdir(Ino ino, std::int64_t offset, const FillDirAt& fill) override;
    int open(Ino ino, int flags, std::uint64_t* fh) override;
    // Bytes read (0 at or past the end) or a negative errno.
    long read(Ino ino, std::uint64_t fh, char* buf, std::size_t size, std::int64_t offset) override;
    int release(Ino ino, std::uint64_t fh) override;
    // Value length (value == nullptr or size == 0: the length needed) or a negative errno.
    long getxattr(Ino ino, std::string_view name, char* value, std::size_t size) override;
    long listxattr(Ino ino, char* list, std::size_t size) override;
    int statfs(struct statvfs* st) override;
    int access(Ino ino, int mask) override;
    // With -o drives, a file or folder of the Game drive: a deletion there could never be
    // committed (a patch pack only adds and replaces files), and which pack holds it is the
    // drive's business. The line says which packs hold it and how to delete it from them.
    std::string whyNotDeletable(Ino ino) override;

    // Files decoded ahead (see PackViewOptions::readAheadFiles) are also handed to `store`, called
    // on the read-ahead thread: the mount pushes them into the kernel's page cache, so that
    // reading them costs no request at all. Set before the first read.
    // Returns whether the kernel took them: the cache then lets them go (the kernel has them).
    using StoreAhead = std::function<bool(const Node& node, const Bytes& content)>;
    void setStoreAhead(StoreAhead store) { storeAhead_ = std::move(store); }

    // What every operation that would change something returns.
    static int readOnly() { return -EROFS; }

    const Tree& tree() const { return tree_; }
    const PackViewOptions& options() const { return options_; }
    EntryCache::Stats cacheStats() const { return cache_.stats(); }
    std::size_t openFiles() const;
    // Seek points held now, over all entries.
    std::size_t seekPoints() const;
    // Memory the seek points take now, over all entries.
    std::size_t seekPointBytes() const;
    // Waits until the read-ahead worker has nothing left to do (for tests).
    void settleReadAhead();
    // Waits until the seek-point passes queued so far are done and saved (for tests).
    void settleIndexing();

private:
    struct OpenFile;
    void fillStat(const Node& node, struct stat* st) const;
    long readHandle(std::uint64_t fh, char* buf, std::size_t size, std::int64_t offset);
    long readNoHandle(const Node& node, char* buf, std::size_t size, std::int64_t offset);
    EntryKind kindOf(const Node& node) const;  // may throw
    long readAllInto(const Node& node, char* buf, std::size_t size);
    // The whole decoded file, checked against the file table's size.
    Bytes decodeWhole(const Node& node) const;
    // Decodes `node` from its start into dst (at most `size` bytes) if it is a plain entry;
    // nullopt for a gbx entry. An unknown kind comes from the first bytes decoded, without
    // kindOf's separate read of the first segment, unless the name ends in .gbx.
    std::optional<std::size_t> decodePlain(const Node& node, std::uint8_t* dst,
                                           std::size_t size) const;
    // Throws Error naming the file when `decoded` is not the file table's size.
    void checkDecodedSize(const Node& node, std::uint64_t decoded) const;
    long readFrom(OpenFile& of, char* buf, std::size_t size, std::int64_t offset);
    long readWhole(OpenFile& of, char* buf, std::size_t size, std::uint64_t offset);
    long readStreaming(OpenFile& of, char* buf, std::size_t size, std::uint64_t offset);
    void logOnce(const Node& node, const std::string& message) const;
    // The log line for a counter-mode file served unverified (once per file).
    void logUnproven(const Node& node) const;
    std::string xattrValue(const Node& node, std::string_view name, bool* found) const;
    // The user.gbx.map.* attributes of a map entry (name, value), from its header alone; none
    // for other entries and for a map whose header cannot be read (logged).
    std::vector<std::pair<const char*, std::string>> mapAttributes(const Node& node) const;

    const packs::Drives& drives() const;

    PackViewOptions options_;
    // The merged view, also used to resolve references; with -o drives built first, else on
    // first use.
    mutable std::unique_ptr<packs::Drives> drives_;
    mutable std::once_flag drivesOnce_;
    Tree tree_;
    EntryCache cache_;

    mutable std::mutex handlesMutex_;
    std::unordered_map<std::uint64_t, std::shared_ptr<OpenFile>> handles_;
    std::uint64_t nextHandle_ = 1;

    std::mutex poolMutex_;
    std::vector<std::shared_ptr<OpenFile>> pool_;  // most recently used first

    StoreAhead storeAhead_;
    // The small files after one read from its start (PackViewOptions::readAheadFiles); after what
    // it uses, so its workers stop first.
    std::unique_ptr<ReadAhead> readAhead_;

    // Seek points of large compressed entries (after what it uses: its pass stops first).
    std::unique_ptr<SeekPointKeeper> seekPoints_;
};

}  // namespace pakfs::fs
