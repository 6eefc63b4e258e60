// SPDX-License-Identifier: GPL-2.0-or-later
// PackView's reads: through a handle or without one (a pool of decoding states), the whole entry
// from the cache or a streaming reader, and the decoding of an entry whole.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "fs/view/PackView.hpp"
#include "fs/view/PackViewOpenFile.hpp"

namespace pakfs::fs {

namespace {
// Decoding states kept for reads without a handle (readNoHandle): enough for a few files read
// at once, each with a streaming reader of up to 3 MiB.
constexpr std::size_t kPoolStates = 8;
}  // namespace

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

}  // namespace pakfs::fs
