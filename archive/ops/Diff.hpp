// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing two paks: the files one has and the other not, and those whose content or file
// table fields differ.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// A file table field compared between the two paks.
enum class DiffField : std::uint8_t {
    Path,         // the same path but another spelling (paths match without regard to case)
    ClassId,      // PakEntry::classId
    Flags,        // PakEntry::flags (their meaning differs between version 3 and 6+)
    Record,       // PakEntry::unknown: the field after the name (doc/FORMAT.md §2.3)
    Compression,  // PakEntry::codec: stored, zlib or LZ4
};

struct FieldChange {
    DiffField field;
    std::uint64_t a = 0, b = 0;  // the values; for Compression an EntryCodec
    std::string pathA, pathB;    // for Path
};

enum class DiffKind : std::uint8_t {
    Added,    // only in B
    Deleted,  // only in A
    Changed,  // in both, the decoded bytes differ (`fields` may list more)
    Fields,   // in both, the same bytes, but `fields` differ
};

struct EntryDiff {
    DiffKind kind;
    std::string path;  // B's, or A's for a deleted file
    std::vector<FieldChange> fields;
};

struct DiffReport {
    std::size_t filesA = 0, filesB = 0;
    std::vector<EntryDiff> entries;  // one per file that differs, sorted by path
    std::size_t added = 0, deleted = 0, changed = 0, fieldsOnly = 0;
    std::size_t same = 0;        // in both with the same bytes (whatever their fields)
    std::size_t notDecoded = 0;  // of those, found the same without decoding (sameSlot)
    // Files in both that could not be compared (one of them does not decode): a message
    // naming the pak and the file each.
    std::vector<std::string> errors;

    bool contentDiffers() const { return added + deleted + changed > 0; }
    // Files in both whose fields differ, their bytes changed or not.
    std::size_t withOtherFields() const;
};

struct DiffOptions {
    // After each file: files and bytes done of the totals (as CheckOptions::progress).
    std::function<void(std::size_t, std::size_t, std::uint64_t, std::uint64_t)> progress;
};

// Whether two entries decode to the same bytes for certain without decoding them: the same
// key and cipher (or both in the clear), the same encoding (codec, sizes, cipher mode,
// DontUseDummyWrite) and the same slot bytes (IV and data), wherever each slot lies.
bool sameSlot(const PakIndex& a, const PakEntry& ea, const PakIndex& b, const PakEntry& eb);

// Compares the files of `a` and `b`, matched by path without regard to case (as the game
// finds them): content by the SHA-256 of the decoded bytes (cat's, proven; entries sameSlot
// finds equal are not decoded), and the table fields of each file in both.
DiffReport diffPaks(const std::shared_ptr<const PakIndex>& a,
                    const std::shared_ptr<const PakIndex>& b, const DiffOptions& options = {});

}  // namespace pakfs::archive
