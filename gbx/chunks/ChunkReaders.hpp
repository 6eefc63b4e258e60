// SPDX-License-Identifier: GPL-2.0-or-later
// Internal: what the chunk readers of gbx/chunks/ share, and the groups the built-in
// ChunkRegistry objects are made of.
#pragma once

#include <initializer_list>

#include "gbx/NodeReader.hpp"

namespace pakfs::gbx::chunks {

// Every group of readers the built-in registries are made of: each reader file defines its
// groups as `void registerNAME(ChunkRegistry& reg)` at the start of a line (a name ending in
// "Header" for header chunks), and the build lists them (ListReaders.cmake): a new reader file
// in a folder of gbx/chunks/ needs no other edit. Helpers inside a reader file take other names.
void registerAll(ChunkRegistry& reg);        // the body chunks' groups
void registerAllHeader(ChunkRegistry& reg);  // the header chunks' groups

// Shapes several groups read.

// u32 count (checked against what is left at `minElementSize` bytes each), then `readOne`
// called that many times; returns the count.
template <class ReadOne>
std::uint32_t countedArray(NodeReader& r, std::uint64_t minElementSize, ReadOne readOne) {
    const std::uint32_t n = r.count(minElementSize);
    for (std::uint32_t i = 0; i < n; ++i) readOne();
    return n;
}

// u32 count, then that many node references; returns the count.
inline std::uint32_t refArray(NodeReader& r) {
    return countedArray(r, 4, [&r] { r.nodeRef(); });
}

// n node references in a row.
inline void nodeRefs(NodeReader& r, int n) {
    for (int i = 0; i < n; ++i) r.nodeRef();
}

// A node reference, noted under `key` when it is not null.
inline void noteRef(NodeReader& r, const std::string& key) {
    NodeRef ref = r.nodeRef();
    if (ref.kind != RefKind::Null) r.note(key, "node " + std::to_string(ref.index));
}

// n floats, skipped (kept by no reader).
inline void floats(NodeReader& r, std::uint32_t n) {
    r.skip(std::uint64_t(n) * 4);
}

// A number as the notes print it.
inline std::string num(std::uint64_t v) {
    return std::to_string(v);
}

// A 3x3 rotation and a translation: 12 floats.
inline void iso4(NodeReader& r) {
    r.skip(48);
}

// A boolean stored in one byte: 0 or 1, anything else refused naming `what` and the offset.
inline bool byteBool(NodeReader& r, const char* what) {
    std::uint8_t b = r.u8();
    if (b > 1)
        r.fail(std::string(what) + ": boolean byte at " + num(r.position() - 1) + " is " + num(b));
    return b != 0;
}

// A chunk's or structure's version, refused above the highest any source describes.
inline std::uint32_t version(NodeReader& r, std::uint32_t highest, const char* what) {
    std::uint32_t v = r.u32();
    if (v > highest)
        r.refuseVersion(std::string(what) + " version " + std::to_string(v) + " not supported (" +
                        std::to_string(highest) + " is the highest any source describes)");
    return v;
}

// A word no source explains, read as the game's own files show it (doc/FORMAT.md §7.7): its
// value in every file is one of `known`; another stops the reader naming `what` and the
// offset, as it may be a count, a node reference or a form no file shows.
inline std::uint32_t knownWord(NodeReader& r, std::initializer_list<std::uint32_t> known,
                               const std::string& what) {
    std::uint64_t at = r.position();
    std::uint32_t v = r.u32();
    std::string list;
    for (std::uint32_t k : known) {
        if (v == k) return v;
        list += (list.empty() ? "" : " or ") + hex32(k);
    }
    r.fail(what + " at " + num(at) + " is " + hex32(v) + ", only " + list +
           " is known (no source describes the chunk)");
}

// A ghost's badge (SBadge), which media entity blocks hold too (chunks/game/Ghost.cpp).
void ghostBadge(NodeReader& r);
// A ghost's inputs and validation fields after the events duration (chunks/game/Ghost.cpp); the
// duration is kept in the node's variable kEventsDurationVar.
void ghostValidationInputs(NodeReader& r);
inline constexpr const char* kEventsDurationVar = "ghost events duration";

}  // namespace pakfs::gbx::chunks
