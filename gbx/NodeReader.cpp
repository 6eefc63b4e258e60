// SPDX-License-Identifier: GPL-2.0-or-later
// The chunk registry, and NodeReader: a node's chunk loop (known, skippable or refused chunks),
// node references and their slots, lookback strings, each node read reported to the observer.
#include "gbx/NodeReader.hpp"

#include <algorithm>

namespace pakfs::gbx {

// --- ChunkRegistry ---

namespace {
// What refuseVersion throws: a skippable chunk's reading catches it.
class UnsupportedVersion : public Error {
public:
    using Error::Error;
};
}  // namespace

void ChunkRegistry::add(std::uint32_t id, bool skippable, ChunkReadFn read) {
    if (!defs_.emplace(id, ChunkDef{id, skippable, read}).second)
        throw Error("chunk " + hex32(id) + " registered twice");
}

const ChunkDef* ChunkRegistry::find(std::uint32_t generalizedId) const {
    auto it = defs_.find(generalizedId);
    return it == defs_.end() ? nullptr : &it->second;
}

std::vector<std::uint32_t> ChunkRegistry::ids() const {
    std::vector<std::uint32_t> out;
    for (const auto& [id, def] : defs_) out.push_back(id);
    std::sort(out.begin(), out.end());
    return out;
}

void ChunkRegistry::addClassBody(std::uint32_t classId, ChunkReadFn read) {
    if (!bodies_.emplace(classId, ChunkDef{classId, false, read}).second)
        throw Error("class body " + hex32(classId) + " registered twice");
}

const ChunkDef* ChunkRegistry::findClassBody(std::uint32_t generalizedClassId) const {
    auto it = bodies_.find(generalizedClassId);
    return it == bodies_.end() ? nullptr : &it->second;
}

std::vector<std::uint32_t> ChunkRegistry::classBodyIds() const {
    std::vector<std::uint32_t> out;
    for (const auto& [id, def] : bodies_) out.push_back(id);
    std::sort(out.begin(), out.end());
    return out;
}

// --- NodeReader ---

namespace {

// Decrements a counter when a scope ends, also when an error leaves it.
struct CountGuard {
    explicit CountGuard(std::uint32_t& c) : c_(c) { ++c_; }
    ~CountGuard() { --c_; }
    CountGuard(const CountGuard&) = delete;
    CountGuard& operator=(const CountGuard&) = delete;
    std::uint32_t& c_;
};

}  // namespace

bool NodeReader::endsAtChunkIdZero(std::uint32_t classId) const {
    // CHmsItem (06003000): a chunk ID of 0 ends it like the end marker, so an empty item held
    // inline by a CSceneMobil is a single 0 ([G] Engines/Hms/CHmsItem.cs, OnRawChunkIdRead).
    return (cfg_.classes->generalize(classId) & 0xFFFFF000) == 0x06003000;
}

NodeReader::NodeReader(ByteSource& src, NodeReaderConfig config, std::vector<Node>& nodes)
    : in_(src), cfg_(std::move(config)), nodes_(nodes) {
    for (std::uint32_t slot : cfg_.externalSlots) slots_[slot] = kNoNode;
    lookback_.emplace_back();
}

std::size_t NodeReader::readMainNode(std::uint32_t classId) {
    return startNode(classId, 0);
}

void NodeReader::readDetachedChunk(std::uint32_t classId, std::uint32_t chunkId,
                                   const ChunkDef& def) {
    Node n;
    n.classId = classId;
    nodes_.push_back(std::move(n));
    std::size_t id = nodes_.size() - 1;
    ChunkRecord rec;
    rec.id = chunkId;
    rec.offset = in_.position();
    nodes_[id].chunks.push_back(std::move(rec));
    Frame frame;
    frame.node = id;
    frame.chunkId = chunkId;
    if (auto left = in_.remaining()) frame.chunkEnd = in_.position() + *left;
    frames_.push_back(std::move(frame));
    try {
        def.read(*this);
    } catch (const ParseError&) {
        throw;
    } catch (const std::exception& e) {
        rethrow(e, rec.offset);
    }
    nodes_[id].chunks.back().known = true;
    nodes_[id].complete = true;
    if (frames_.back().nextChunkId) fail("a header chunk cannot hand back a chunk ID");
    frames_.pop_back();
}

std::size_t NodeReader::startNode(std::uint32_t classId, std::int64_t slot, bool readNode) {
    std::size_t parent = frames_.empty() ? kNoNode : frames_.back().node;
    std::uint32_t depth = parent == kNoNode ? 0 : nodes_[parent].depth + 1;
    if (!frames_.empty() && frames_.back().nextChunkId)
        fail("node read after the next chunk ID was handed back");
    if (depth > cfg_.maxDepth)
        throw Error("nodes nest deeper than " + std::to_string(cfg_.maxDepth) + " levels");
    Node n;
    n.classId = classId;
    n.slot = slot;
    n.parent = parent;
    n.depth = depth;
    n.inSkippableChunk = skippableDepth_ > 0;
    nodes_.push_back(std::move(n));
    std::size_t id = nodes_.size() - 1;
    // The node is in the list before it is read: a reference to it from inside is a back-reference.
    if (slot >= 0) slots_[std::uint32_t(slot)] = id;
    if (readNode && cfg_.observer) cfg_.observer->onNodeRead(classId, skippableDepth_ > 0, slot);
    if (const ChunkDef* body = cfg_.chunks->findClassBody(cfg_.classes->generalize(classId)))
        classBody(id, *body);
    else
        chunkLoop(id);
    return id;
}

void NodeReader::classBody(std::size_t node, const ChunkDef& body) {
    // One record stands for the whole body, so its node references are listed as a chunk's.
    ChunkRecord rec;
    rec.id = nodes_[node].classId;
    rec.offset = in_.position();
    rec.known = true;
    rec.classBody = true;
    nodes_[node].chunks.push_back(std::move(rec));
    Frame frame;
    frame.node = node;
    frame.chunkId = nodes_[node].classId;
    frame.classBody = true;
    if (frames_.empty()) frame.vars = cfg_.mainNodeVars;
    frames_.push_back(std::move(frame));
    try {
        body.read(*this);
    } catch (const ParseError&) {
        throw;
    } catch (const std::exception& e) {
        rethrow(e, nodes_[node].chunks.back().offset);
    }
    nodes_[node].complete = true;
    frames_.pop_back();
}

void NodeReader::chunkLoop(std::size_t node) {
    Frame frame;
    frame.node = node;
    frame.inChunkLoop = true;
    if (frames_.empty()) frame.vars = cfg_.mainNodeVars;
    frames_.push_back(std::move(frame));
    while (true) {
        std::uint64_t offset = 0;
        std::uint32_t id = 0;
        if (auto handed = frames_.back().nextChunkId) {
            // The previous chunk's reader already read this chunk's ID.
            if (in_.position() != frames_.back().handBackPosition)
                throw ParseError(
                    where() + ": its reader read on after handing back chunk ID " + hex32(*handed),
                    in_.position(), false);
            id = *handed;
            offset = in_.position() - 4;
            frames_.back().nextChunkId.reset();
        } else {
            offset = in_.position();
            id = in_.u32();
        }
        if (id == kEndOfNode || (id == 0 && endsAtChunkIdZero(nodes_[node].classId))) {
            nodes_[node].complete = true;
            break;
        }
        ChunkRecord rec;
        rec.id = id;
        rec.offset = offset;
        nodes_[node].chunks.push_back(std::move(rec));
        frames_.back().chunkId = id;
        frames_.back().chunkEnd = 0;
        frames_.back().inSkippable = false;
        const ChunkDef* def = cfg_.chunks->find(cfg_.classes->generalize(id));
        try {
            if (def) {
                readKnownChunk(*def, id);
                continue;
            }
            std::uint32_t marker = in_.u32();
            if (marker != kSkipMarker)
                throw ParseError("unknown chunk " + hex32(id) + " of " +
                                     describeClass(nodes_[node].classId, *cfg_.classes) + " at " +
                                     cfg_.offsetName + " " + std::to_string(offset) +
                                     " is not skippable (" + hex32(marker) +
                                     " follows, not \"PIKS\"): cannot read further",
                                 offset, false, resumeOffset(offset));
            if (cfg_.stopAtUnknownSkippable)
                throw ParseError("unknown skippable chunk " + hex32(id) + " of " +
                                     describeClass(nodes_[node].classId, *cfg_.classes) + " at " +
                                     cfg_.offsetName + " " + std::to_string(offset) +
                                     ": the node reads inside it are not known",
                                 offset, false, resumeOffset(offset));
            std::uint32_t size = in_.u32();
            auto& chunk = nodes_[node].chunks.back();
            chunk.skippable = true;
            chunk.size = size;
            in_.skip(size, "skipped chunk");
            markSkippedChunk(size);
        } catch (const ParseError&) {
            throw;
        } catch (const std::exception& e) {
            rethrow(e, offset);
        }
    }
    frames_.pop_back();
}

void NodeReader::readKnownChunk(const ChunkDef& def, std::uint32_t storedId) {
    std::size_t node = frames_.back().node;
    nodes_[node].chunks.back().known = true;
    if (!def.skippable) {
        def.read(*this);
        return;
    }
    std::uint32_t marker = in_.u32();
    if (marker != kSkipMarker)
        fail("chunk " + hex32(storedId) + " is skippable but " + hex32(marker) +
             " follows it, not \"PIKS\"");
    std::uint32_t size = in_.u32();
    in_.require(size, "skippable chunk");
    std::uint64_t start = in_.position();
    {
        auto& chunk = nodes_[node].chunks.back();
        chunk.skippable = true;
        chunk.size = size;
    }
    frames_.back().chunkEnd = start + size;
    frames_.back().inSkippable = true;
    const std::size_t nodesBefore = nodes_.size();
    const std::uint64_t mixesBefore = cipherMixes_;
    try {
        CountGuard guard(skippableDepth_);
        def.read(*this);
    } catch (const UnsupportedVersion&) {
        // A later version of a skippable chunk: nothing it holds was taken into the nodes yet,
        // so it is skipped by its size, as an unknown skippable chunk is.
        auto& chunk = nodes_[node].chunks.back();
        if (cfg_.stopAtUnknownSkippable || nodes_.size() != nodesBefore || !chunk.refs.empty() ||
            cipherMixes_ != mixesBefore || in_.position() > start + size)
            throw;
        chunk.known = false;
        in_.skip(start + size - in_.position(), "skipped chunk");
        markSkippedChunk(size);
        return;
    }
    std::uint64_t used = in_.position() - start;
    if (used != size)
        fail("chunk " + hex32(storedId) + " holds " + std::to_string(size) +
             " bytes but its reader took " + std::to_string(used));
}

std::string NodeReader::where() const {
    const Frame& f = frames_.back();
    const Node& n = nodes_[f.node];
    std::uint64_t offset = n.chunks.empty() ? 0 : n.chunks.back().offset;
    if (f.classBody)
        return "body of " + describeClass(n.classId, *cfg_.classes) + " (no chunk IDs, at " +
               cfg_.offsetName + " " + std::to_string(offset) + ")";
    return "chunk " + hex32(f.chunkId) + " of " + describeClass(n.classId, *cfg_.classes) +
           " (chunk at " + cfg_.offsetName + " " + std::to_string(offset) + ")";
}

std::uint64_t NodeReader::resumeOffset(std::uint64_t innermost) const {
    // A skippable chunk is one unit: its size was read before anything in it.
    for (const Frame& f : frames_)
        if (f.inSkippable && !nodes_[f.node].chunks.empty())
            return std::min(innermost, nodes_[f.node].chunks.back().offset);
    return innermost;
}

void NodeReader::rethrow(const std::exception& e, std::uint64_t chunkOffset) const {
    bool truncated = dynamic_cast<const TruncatedError*>(&e) != nullptr;
    std::uint64_t innermost = chunkOffset;
    if (!frames_.empty() && !nodes_[frames_.back().node].chunks.empty())
        innermost = std::min(innermost, nodes_[frames_.back().node].chunks.back().offset);
    throw ParseError(where() + ": " + e.what() + " (stopped at " + cfg_.offsetName + " " +
                         std::to_string(in_.position()) + ")",
                     in_.position(), truncated, resumeOffset(innermost));
}

std::uint32_t NodeReader::generalChunkId() const {
    return cfg_.classes->generalize(frames_.back().chunkId);
}

void NodeReader::fail(const std::string& msg) const {
    throw Error(msg);
}

void NodeReader::refuseVersion(const std::string& msg) const {
    throw UnsupportedVersion(msg);
}

void NodeReader::note(const std::string& key, std::string value) {
    node().values.emplace_back(key, std::move(value));
}

bool NodeReader::boolean() {
    std::uint32_t v = in_.u32();
    if (v > 1) fail("bool at " + std::to_string(in_.position() - 4) + " is " + std::to_string(v));
    return v != 0;
}

std::uint32_t NodeReader::skipArray(std::uint64_t elementSize) {
    std::uint32_t n = count(elementSize);
    skip(std::uint64_t(n) * elementSize);
    return n;
}

std::string NodeReader::lookback() {
    Lookback& st = lookback_.back();
    if (!st.haveVersion) {
        // A chunk skipped before this may have read the version word already; then this word
        // is an index, which is 3 only for the global ID 3, and anything else stops below.
        st.version = in_.u32();
        st.haveVersion = true;
        if (st.version != 3)
            fail("lookback string version " + std::to_string(st.version) + " not supported");
    }
    return lookbackFromIndex(in_.u32());
}

std::string NodeReader::lookbackFromIndex(std::uint32_t index) {
    Lookback& st = lookback_.back();
    if (!st.haveVersion) fail("lookback string index read before the lookback version");
    std::uint32_t kind = index & 0xC0000000;
    std::uint32_t low = index & 0x3FFFFFFF;
    lastLookbackHidden_ = false;
    if (kind == 0) return "#" + std::to_string(low);  // an ID from the game's global table
    if (low == 0x3FFFFFFF) return {};                 // unassigned (both stored forms)
    if (low == 0) {
        st.strings.push_back(in_.string("lookback string"));
        return st.strings.back();
    }
    if (low > st.knownUpTo) {
        lastLookbackHidden_ = true;
        return "(lookback string " + std::to_string(low) +
               ", not known: numbered after a chunk skipped by size)";
    }
    if (low > st.strings.size())
        fail("lookback string index " + std::to_string(low) + " but only " +
             std::to_string(st.strings.size()) + " strings were stored");
    return st.strings[low - 1];
}

std::string NodeReader::decidingLookback(const char* decides) {
    std::string s = lookback();
    if (lastLookbackHidden_)
        fail(std::string("what ") + decides +
             " depends on a lookback string numbered after a chunk skipped by size");
    return s;
}

void NodeReader::markSkippedChunk(std::uint64_t size) {
    if (size < 8) return;
    Lookback& st = lookback_.back();
    st.knownUpTo = std::min(st.knownUpTo, st.strings.size());
}

void NodeReader::meta(std::string* id, std::string* collection, std::string* author) {
    std::string a = lookback();
    std::string b = lookback();
    std::string c = lookback();
    if (id) *id = std::move(a);
    if (collection) *collection = std::move(b);
    if (author) *author = std::move(c);
}

void NodeReader::fileRef() {
    std::uint8_t version = in_.u8();
    if (version >= 3) skip(32);
    std::string path = in_.string("file reference path");
    // From version 3 on the locator URL is stored even when the path is empty.
    if ((!path.empty() && version >= 1) || version >= 3) in_.string("locator URL");
}

NodeRef NodeReader::nodeRef() {
    if (encapsulation_ > 0) return directNode();
    std::uint64_t offset = in_.position();
    return nodeRefFromIndex(in_.u32(), offset);
}

NodeRef NodeReader::nodeRefFromIndex(std::uint32_t index, std::uint64_t offset) {
    if (encapsulation_ > 0) fail("a node index read inside an encapsulated part");
    NodeRef ref;
    if (index != 0xFFFFFFFF) {
        ref.index = index;
        if (index >= cfg_.numNodes)
            fail("node index " + std::to_string(index) + " at " + cfg_.offsetName + " " +
                 std::to_string(offset) + " is not below numNodes " +
                 std::to_string(cfg_.numNodes));
        if (auto it = slots_.find(index); it != slots_.end()) {
            ref.kind = it->second == kNoNode ? RefKind::External : RefKind::Back;
            ref.node = it->second;
        } else {
            std::uint32_t classId = in_.u32();
            ref.node = startNode(classId, index);
            ref.kind = RefKind::New;
        }
    }
    nodes_[frames_.back().node].chunks.back().refs.push_back(ref);
    return ref;
}

NodeRef NodeReader::directNode() {
    std::uint32_t classId = in_.u32();
    NodeRef ref;
    if (classId != 0xFFFFFFFF) {
        ref.node = startNode(classId, -1);
        ref.kind = RefKind::New;
    }
    nodes_[frames_.back().node].chunks.back().refs.push_back(ref);
    return ref;
}

void NodeReader::inlineNode(std::uint32_t classId) {
    // Listed with the chunk's references, as a node without an index, so the tree shows it.
    NodeRef ref;
    ref.node = startNode(classId, -1, false);
    ref.kind = RefKind::New;
    nodes_[frames_.back().node].chunks.back().refs.push_back(ref);
}

NodeRef NodeReader::metaNode(std::uint32_t classId) {
    std::uint64_t offset = in_.position() - 4;
    if (classId == 0xFFFFFFFF) {
        NodeRef ref;
        nodes_[frames_.back().node].chunks.back().refs.push_back(ref);
        return ref;
    }
    if (!cfg_.chunks->findClassBody(cfg_.classes->generalize(classId)))
        fail("structure of class " + describeClass(classId, *cfg_.classes) + " at " +
             cfg_.offsetName + " " + std::to_string(offset) +
             ": no source gives the layout of its fields");
    NodeRef ref;
    ref.node = startNode(classId, -1, false);
    ref.kind = RefKind::New;
    nodes_[frames_.back().node].chunks.back().refs.push_back(ref);
    return ref;
}

void NodeReader::mixIntoCipher(std::uint32_t value) {
    ++cipherMixes_;
    if (cfg_.observer) cfg_.observer->onCipherMix(value, skippableDepth_ > 0);
}

void NodeReader::readChunk(std::uint32_t chunkId) {
    const ChunkDef* def = cfg_.chunks->find(cfg_.classes->generalize(chunkId));
    if (!def) fail("no reader for chunk " + hex32(chunkId));
    def->read(*this);
}

void NodeReader::encapsulated(const std::function<void()>& fn) {
    lookback_.emplace_back();
    CountGuard guard(encapsulation_);
    fn();
    lookback_.pop_back();
}

void NodeReader::skipRestOfChunk() {
    std::uint64_t end = frames_.back().chunkEnd;
    if (end == 0 || end < in_.position()) fail("not inside a skippable chunk");
    const std::uint64_t skipped = end - in_.position();
    skip(skipped);
    markSkippedChunk(skipped);
}

void NodeReader::handBackChunkId(std::uint32_t id) {
    Frame& f = frames_.back();
    if (!f.inChunkLoop) fail("only a chunk of a node's chunk loop can hand back a chunk ID");
    // A skippable chunk's end is known from its size: reading past it is an error.
    if (f.inSkippable) fail("a skippable chunk cannot hand back a chunk ID");
    if (f.nextChunkId) fail("a chunk ID was handed back twice");
    f.nextChunkId = id;
    f.handBackPosition = in_.position();
}

}  // namespace pakfs::gbx
