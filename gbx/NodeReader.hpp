// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a gbx body node by node with the chunk readers, as the game reads it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/ByteSource.hpp"
#include "common/Error.hpp"
#include "gbx/Classes.hpp"
#include "gbx/Nodes.hpp"
#include "gbx/ReadObserver.hpp"
#include "gbx/SourceReader.hpp"

namespace pakfs::gbx {

class NodeReader;
using ChunkReadFn = void (*)(NodeReader&);

struct ChunkDef {
    std::uint32_t id = 0;    // generalized chunk ID
    bool skippable = false;  // stored with "PIKS" + size after the chunk ID
    ChunkReadFn read = nullptr;
};

// The chunk readers known to the reader, by generalized chunk ID, and the body readers of the
// classes whose nodes are not chunked, by generalized class ID.
class ChunkRegistry {
public:
    static const ChunkRegistry& builtin();        // body chunks
    static const ChunkRegistry& builtinHeader();  // header (user data) chunks
    void add(std::uint32_t id, bool skippable, ChunkReadFn read);
    const ChunkDef* find(std::uint32_t generalizedId) const;
    std::size_t size() const { return defs_.size(); }
    std::vector<std::uint32_t> ids() const;
    // A class whose node body is its fields, with no chunk IDs and no end marker (the game's
    // class-specific archive, e.g. CPlugPrefab): `read` reads the whole body of such a node.
    void addClassBody(std::uint32_t classId, ChunkReadFn read);
    const ChunkDef* findClassBody(std::uint32_t generalizedClassId) const;
    std::vector<std::uint32_t> classBodyIds() const;

private:
    std::unordered_map<std::uint32_t, ChunkDef> defs_;
    std::unordered_map<std::uint32_t, ChunkDef> bodies_;
};

// A problem met while reading nodes, with the offset where it happened. The message names the
// class, the chunk and the offset already.
class ParseError : public Error {
public:
    ParseError(const std::string& msg, std::uint64_t offset, bool truncated,
               std::optional<std::uint64_t> resumeOffset = std::nullopt)
        : Error(msg),
          offset_(offset),
          truncated_(truncated),
          resumeOffset_(resumeOffset.value_or(offset)) {}
    std::uint64_t offset() const { return offset_; }
    bool truncated() const { return truncated_; }
    // Where what was read stops being trustworthy: the start of the chunk that failed, or of
    // the outermost skippable chunk around it. Node reads before it were read exactly.
    std::uint64_t resumeOffset() const { return resumeOffset_; }

private:
    std::uint64_t offset_;
    bool truncated_;
    std::uint64_t resumeOffset_;
};

struct NodeReaderConfig {
    const ClassRegistry* classes = &ClassRegistry::builtin();
    const ChunkRegistry* chunks = &ChunkRegistry::builtin();
    ReadObserver* observer = nullptr;  // null: nobody is told about node reads
    std::uint32_t numNodes = 0;
    std::vector<std::uint32_t> externalSlots;  // node indexes taken by the reference table
    std::uint32_t maxDepth = 64;               // node nesting
    std::string offsetName = "offset";         // "offset" or "body offset" in messages
    // An unknown skippable chunk stops the reader (ParseError at the chunk) instead of being
    // skipped by size: for a pipeline where node reads inside it may mix the cipher.
    bool stopAtUnknownSkippable = false;
    // Per-node values (NodeReader::var) the main node starts with: what its body chunks need
    // from the header (e.g. kItemTypeVar).
    std::map<std::string, std::int64_t> mainNodeVars;
};

// The item type of a CGameItemModel, from its header chunk 2E002000 or body chunk 2E002015.
inline constexpr const char* kItemTypeVar = "item type";

// The seed's ReadNode: chunk loop, node references, lookback strings and primitives, reading
// exactly the bytes the format takes, in order, straight from the source.
class NodeReader {
public:
    NodeReader(ByteSource& src, NodeReaderConfig config, std::vector<Node>& nodes);

    // Reads the main node (slot 0): tells the observer, then runs the chunk loop.
    std::size_t readMainNode(std::uint32_t classId);
    // Reads the data of one chunk (no chunk ID or "PIKS" before it) with def, as the only chunk
    // of a new node of classId. Header chunks are read this way, one reader per chunk.
    void readDetachedChunk(std::uint32_t classId, std::uint32_t chunkId, const ChunkDef& def);

    // --- primitives for chunk readers ---
    std::uint8_t u8() { return in_.u8(); }
    std::uint16_t u16() { return in_.u16(); }
    std::uint32_t u32() { return in_.u32(); }
    std::int32_t i32() { return in_.i32(); }
    std::uint64_t u64() { return in_.u64(); }
    float f32() { return in_.f32(); }
    bool boolean();  // u32 0 or 1
    void skip(std::uint64_t n) { in_.skip(n, "chunk data"); }
    void vec2() { skip(8); }
    void vec3() { skip(12); }
    void color() { skip(12); }
    void u128() { skip(16); }
    std::string string(std::string_view what = "string") { return in_.string(what); }
    Bytes bytes(std::uint64_t n, std::string_view what) { return in_.bytes(n, what); }
    // u32 count, checked against what is left assuming each element takes minElementSize bytes.
    std::uint32_t count(std::uint64_t minElementSize = 1) {
        return in_.count(minElementSize, "array elements");
    }
    // u32 count then count * elementSize bytes skipped.
    std::uint32_t skipArray(std::uint64_t elementSize);
    // After a chunk skipped by size, which may have stored strings the reader never saw, a
    // string stored after it cannot be found by its index: it reads as a text saying so.
    std::string lookback();
    // A lookback string whose index u32 the caller already read (the version must be known).
    std::string lookbackFromIndex(std::uint32_t index);
    // A lookback string the caller decides by: one a skipped chunk hides is an error.
    std::string decidingLookback(const char* decides);
    void meta(std::string* id = nullptr, std::string* collection = nullptr,
              std::string* author = nullptr);
    void fileRef();
    NodeRef nodeRef();
    // A node reference whose index u32 the caller already read at `offset` (a field that holds
    // either a reference or another value, told apart by the word).
    NodeRef nodeRefFromIndex(std::uint32_t index, std::uint64_t offset);
    // A node stored without an index ("direct node"): u32 class ID (-1 = none) then ReadNode.
    NodeRef directNode();
    // The body of a node of classId archived inline by its owner: no index, no class ID and no
    // ReadNode (so no node-read ivXor), just its chunk loop (e.g. CPlugIndexBuffer in 0906A001)
    // or its class body.
    void inlineNode(std::uint32_t classId);
    // A structure stored as a u32 class ID (-1 = none) then its fields, read by its class's body
    // reader (GBX.NET's meta pointers, SMetaPtr): no index, no chunk IDs, no ReadNode. The
    // caller has read the class ID (to check it is one the owner may hold). A class without a
    // body reader stops the read.
    NodeRef metaNode(std::uint32_t classId);
    // A value the game mixes into the cipher's ivXor in the middle of a chunk.
    void mixIntoCipher(std::uint32_t value);
    // Slots of the node table filled so far (read nodes and external references).
    std::size_t slotsFilled() const { return slots_.size(); }
    // ReadChunk(id) inside the current chunk (e.g. 03043013 reads 0304301F's layout).
    void readChunk(std::uint32_t chunkId);
    // Runs fn with a fresh lookback string list and index-less node references.
    void encapsulated(const std::function<void()>& fn);
    // Consumes the rest of the current skippable chunk (for versions nobody documented).
    void skipRestOfChunk();
    // For a non-skippable chunk whose end is only known by reading past it (a u32 that is not
    // more data is the next chunk ID): hands that u32 to the chunk loop, which uses it instead
    // of reading one. Must be the chunk reader's last read. The bytes are consumed in the same
    // order as when the loop reads them, so observer positions do not change.
    void handBackChunkId(std::uint32_t id);

    // --- context for chunk readers ---
    // As stored; in a class body (ChunkRegistry::addClassBody), the node's class ID.
    std::uint32_t chunkId() const { return frames_.back().chunkId; }
    std::uint32_t generalChunkId() const;
    Node& node() { return nodes_[frames_.back().node]; }
    // Per-node integers a later chunk needs from an earlier one (e.g. a version).
    std::int64_t& var(const std::string& key) { return frames_.back().vars[key]; }
    bool hasVar(const std::string& key) const { return frames_.back().vars.count(key) != 0; }
    void note(const std::string& key, std::string value);
    [[noreturn]] void fail(const std::string& msg) const;
    // As fail, for a version of the chunk above what the sources describe. In a skippable
    // chunk, before the reader has read a node, a reference or a cipher mix, the chunk is then
    // skipped by its size as an unknown one (the proofs treat it so), not a stop.
    [[noreturn]] void refuseVersion(const std::string& msg) const;
    std::uint64_t position() const { return in_.position(); }
    const ClassRegistry& classes() const { return *cfg_.classes; }

private:
    struct Frame {
        std::size_t node = kNoNode;
        std::uint32_t chunkId = 0;
        std::uint64_t chunkEnd = 0;                // for skippable chunks
        bool inSkippable = false;                  // the current chunk is skippable
        bool inChunkLoop = false;                  // false for header (detached) chunks
        bool classBody = false;                    // a node read by its class body reader
        std::optional<std::uint32_t> nextChunkId;  // handed back by the chunk reader
        std::uint64_t handBackPosition = 0;        // where it was handed back
        std::map<std::string, std::int64_t> vars;
    };
    struct Lookback {
        bool haveVersion = false;
        std::uint32_t version = 0;
        std::vector<std::string> strings;
        // How many strings were stored when a chunk was first skipped by size (SIZE_MAX: none
        // was): the strings numbered after it are shifted by what it stored.
        std::size_t knownUpTo = SIZE_MAX;
    };
    // `size` bytes of a chunk were skipped: the list may miss strings from here on (8 bytes or
    // more: starting the strings takes a version and an index, storing one an index and length).
    void markSkippedChunk(std::uint64_t size);

    // readNode: the game calls ReadNode for it (the node-read ivXor); false for inline bodies.
    std::size_t startNode(std::uint32_t classId, std::int64_t slot, bool readNode = true);
    void chunkLoop(std::size_t node);
    void classBody(std::size_t node, const ChunkDef& body);
    bool endsAtChunkIdZero(std::uint32_t classId) const;
    void readKnownChunk(const ChunkDef& def, std::uint32_t storedId);
    std::string where() const;
    std::uint64_t resumeOffset(std::uint64_t innermost) const;
    [[noreturn]] void rethrow(const std::exception& e, std::uint64_t chunkOffset) const;

    SourceReader in_;
    NodeReaderConfig cfg_;
    std::vector<Node>& nodes_;
    // slot -> node (kNoNode for external slots)
    std::unordered_map<std::uint32_t, std::size_t> slots_;
    std::vector<Frame> frames_;
    std::vector<Lookback> lookback_;
    bool lastLookbackHidden_ = false;  // the last lookback string read was one a skip hid
    std::uint32_t encapsulation_ = 0;
    std::uint32_t skippableDepth_ = 0;
    std::uint64_t cipherMixes_ = 0;  // mixIntoCipher calls so far
};

}  // namespace pakfs::gbx
