// SPDX-License-Identifier: GPL-2.0-or-later
// diffPaks: entries paired by folded path, their contents compared by slot bytes when key and
// cipher agree (else by SHA-256 of the decoded bytes), and the table fields that differ.
#include "archive/ops/Diff.hpp"

#include <crypto++/sha.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "archive/entry/EntryReader.hpp"

namespace pakfs::archive {

std::size_t DiffReport::withOtherFields() const {
    return std::size_t(std::count_if(entries.begin(), entries.end(),
                                     [](const EntryDiff& d) { return !d.fields.empty(); }));
}

bool sameSlot(const PakIndex& a, const PakEntry& ea, const PakIndex& b, const PakEntry& eb) {
    if (ea.encrypted != eb.encrypted || ea.counterMode != eb.counterMode ||
        ea.noNodeIvXor != eb.noNodeIvXor || ea.codec != eb.codec ||
        ea.uncompressedSize != eb.uncompressedSize || ea.compressedSize != eb.compressedSize)
        return false;
    // The same ciphertext decrypts to the same bytes only under the same key and cipher
    // (rounds, chaining): then the same bytes go through the same stages.
    if (ea.encrypted && (!a.hasKey() || !b.hasKey() || a.key() != b.key() ||
                         !(a.cipher().variant() == b.cipher().variant())))
        return false;
    const std::uint64_t size = ea.ivSize() + ea.cipherSize();
    const std::uint64_t atA = a.entryOffset(ea), atB = b.entryOffset(eb);
    if (atA > a.file()->size() || size > a.file()->size() - atA || atB > b.file()->size() ||
        size > b.file()->size() - atB)
        return false;
    // A small first piece: slots of different content differ from their IV on.
    Bytes x, y;
    for (std::uint64_t done = 0, piece = 4096; done < size; done += piece, piece = 1 << 20) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(piece, size - done));
        x = a.file()->readAt(atA + done, n);
        y = b.file()->readAt(atB + done, n);
        if (std::memcmp(x.data(), y.data(), n) != 0) return false;
        if (n < piece) break;
    }
    return true;
}

namespace {

using Digest = std::array<std::uint8_t, CryptoPP::SHA256::DIGESTSIZE>;

// SHA-256 of the entry's content as cat gives it (proven, or an Error naming pak and file).
Digest contentDigest(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e) {
    CryptoPP::SHA256 sha;
    readEntry(pak, e, [&](ByteSpan bytes) { sha.Update(bytes.data(), bytes.size()); });
    Digest d;
    sha.Final(d.data());
    return d;
}

// The table fields of two entries of the same path that differ.
std::vector<FieldChange> fieldChanges(const PakEntry& ea, const PakEntry& eb) {
    std::vector<FieldChange> out;
    auto add = [&](DiffField field, std::uint64_t a, std::uint64_t b) {
        FieldChange c;
        c.field = field;
        c.a = a;
        c.b = b;
        out.push_back(std::move(c));
    };
    if (ea.path != eb.path) {
        add(DiffField::Path, 0, 0);
        out.back().pathA = ea.path;
        out.back().pathB = eb.path;
    }
    if (ea.classId != eb.classId) add(DiffField::ClassId, ea.classId, eb.classId);
    if (ea.flags != eb.flags) add(DiffField::Flags, ea.flags, eb.flags);
    if (ea.unknown != eb.unknown) add(DiffField::Record, ea.unknown, eb.unknown);
    if (ea.codec != eb.codec)
        add(DiffField::Compression, std::uint64_t(ea.codec), std::uint64_t(eb.codec));
    return out;
}

// The entries of a pak by path folded as the game compares paths; a path given twice keeps
// its entries in table order, matched in that order.
std::map<std::string, std::vector<const PakEntry*>> byPath(const PakIndex& pak) {
    std::map<std::string, std::vector<const PakEntry*>> out;
    for (const auto& e : pak.entries()) out[foldCase(e.path)].push_back(&e);
    return out;
}

}  // namespace

DiffReport diffPaks(const std::shared_ptr<const PakIndex>& a,
                    const std::shared_ptr<const PakIndex>& b, const DiffOptions& options) {
    DiffReport r;
    r.filesA = a->entries().size();
    r.filesB = b->entries().size();
    const auto inA = byPath(*a), inB = byPath(*b);

    // Pairs of entries of the same path, and the files only one pak has.
    std::vector<std::pair<const PakEntry*, const PakEntry*>> pairs;
    for (const auto& [path, listA] : inA) {
        auto it = inB.find(path);
        const std::size_t both = it == inB.end() ? 0 : std::min(listA.size(), it->second.size());
        for (std::size_t i = 0; i < listA.size(); ++i) {
            if (i < both)
                pairs.emplace_back(listA[i], it->second[i]);
            else
                r.entries.push_back({DiffKind::Deleted, listA[i]->path, {}});
        }
    }
    for (const auto& [path, listB] : inB) {
        auto it = inA.find(path);
        const std::size_t skip = it == inA.end() ? 0 : it->second.size();
        for (std::size_t i = skip; i < listB.size(); ++i)
            r.entries.push_back({DiffKind::Added, listB[i]->path, {}});
    }
    r.added = std::size_t(std::count_if(r.entries.begin(), r.entries.end(), [](const EntryDiff& d) {
        return d.kind == DiffKind::Added;
    }));
    r.deleted = r.entries.size() - r.added;

    std::uint64_t totalBytes = 0, bytesDone = 0;
    for (const auto& [ea, eb] : pairs) totalBytes += ea->uncompressedSize;
    std::size_t done = 0;
    for (const auto& [ea, eb] : pairs) {
        std::vector<FieldChange> fields = fieldChanges(*ea, *eb);
        bool differs = true;  // sizes that differ: a decode gives exactly its size, or fails
        bool compared = true;
        if (ea->uncompressedSize == eb->uncompressedSize) {
            if (sameSlot(*a, *ea, *b, *eb)) {
                differs = false;
                ++r.notDecoded;
            } else {
                try {
                    const Digest inA = contentDigest(a, *ea);  // A's trouble first
                    differs = inA != contentDigest(b, *eb);
                } catch (const Error& err) {
                    r.errors.push_back(err.what());
                    compared = false;
                }
            }
        }
        if (!compared) {
            // Named in errors only: whether its bytes differ is not known.
        } else if (differs) {
            ++r.changed;
            r.entries.push_back({DiffKind::Changed, eb->path, std::move(fields)});
        } else {
            ++r.same;
            if (!fields.empty()) {
                ++r.fieldsOnly;
                r.entries.push_back({DiffKind::Fields, eb->path, std::move(fields)});
            }
        }
        bytesDone += ea->uncompressedSize;
        if (options.progress) options.progress(++done, pairs.size(), bytesDone, totalBytes);
    }
    if (pairs.empty() && options.progress) options.progress(0, 0, 0, 0);
    std::stable_sort(r.entries.begin(), r.entries.end(),
                     [](const EntryDiff& x, const EntryDiff& y) { return x.path < y.path; });
    return r;
}

}  // namespace pakfs::archive
