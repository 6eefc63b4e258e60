// SPDX-License-Identifier: GPL-2.0-or-later
// readGbx: the header, reference table and body (an LZO body's sizes checked, then inflated),
// the nodes read when asked; readGbxPartial notes the stage and offset where a read stopped.
#include "gbx/GbxFile.hpp"

#include "gbx/Lzo.hpp"
#include "gbx/SourceReader.hpp"

namespace pakfs::gbx {

const char* stageName(ReadStage stage) {
    switch (stage) {
        case ReadStage::Header:
            return "header";
        case ReadStage::RefTable:
            return "reference table";
        case ReadStage::Body:
            return "body";
        case ReadStage::Nodes:
            return "nodes";
        case ReadStage::Done:
            return "done";
    }
    return "?";
}

namespace {

NodeReaderConfig nodeConfig(const GbxFile& f, const ReadOptions& opts, ReadObserver* observer,
                            bool inBody) {
    NodeReaderConfig cfg;
    cfg.classes = opts.classes;
    cfg.chunks = opts.chunks;
    cfg.observer = observer;
    cfg.numNodes = f.header.numNodes;
    for (const auto& e : f.refs.externals) cfg.externalSlots.push_back(e.nodeIndex);
    cfg.maxDepth = opts.maxDepth;
    cfg.offsetName = inBody ? "body offset" : "offset";
    cfg.stopAtUnknownSkippable = opts.stopAtUnknownSkippable;
    // An item model's body reads its models in the order its item type decides; the type is in
    // the header ([G] GameData/CGameItemModel.chunkl, header chunk 000).
    for (const auto& c : f.header.chunks) {
        std::uint32_t id = opts.classes->generalize(c.id);
        if ((id != 0x2E002000 && id != 0x0301C000) || c.size != 4) continue;
        ByteSpan data = f.header.chunkData(c);
        cfg.mainNodeVars[kItemTypeVar] = loadLE32(data.data());
    }
    return cfg;
}

std::uint32_t unfilled(const GbxHeader& h, const NodeReader& nr) {
    // Slot 0 is the main node's; numNodes counts it too.
    std::size_t filled = nr.slotsFilled();
    return h.numNodes > filled ? std::uint32_t(h.numNodes - filled) : 0;
}

void readInto(GbxFile& f, ByteSource& src, ReadObserver* observer, const ReadOptions& opts) {
    f.reached = ReadStage::Header;
    f.header = readHeader(src);
    f.reached = ReadStage::RefTable;
    f.refs = readRefTable(src, f.header);
    f.reached = ReadStage::Body;
    SourceReader r(src);
    f.body.offset = r.position();
    f.body.compressed = f.header.bodyCompressed();
    if (!f.body.compressed) {
        auto left = src.remaining();
        f.body.sizeKnown = left.has_value();
        f.body.uncompressedSize = left.value_or(0);
        if (!opts.readNodes) {
            if (opts.keepBody && left) f.bodyData = r.bytes(*left, "gbx body");
            f.reached = ReadStage::Done;
            return;
        }
        f.reached = ReadStage::Nodes;
        TeeSource tee(src, f.bodyData);
        ByteSource& nodeSrc = opts.keepBody ? static_cast<ByteSource&>(tee) : src;
        NodeReader nr(nodeSrc, nodeConfig(f, opts, observer, false), f.nodes);
        nr.readMainNode(f.header.classId);
        f.nodesComplete = true;
        f.unfilledSlots = unfilled(f.header, nr);
        if (auto after = src.remaining()) f.trailingBytes = *after;
        f.reached = ReadStage::Done;
        return;
    }
    std::uint32_t uncompressed = r.u32();
    std::uint32_t compressed = r.u32();
    f.body.uncompressedSize = uncompressed;
    f.body.compressedSize = compressed;
    f.body.sizeKnown = true;
    r.require(compressed, "compressed gbx body");
    // LZO1X cannot expand data by more than about 255 times.
    if (uncompressed > kMaxBodySize ||
        std::uint64_t(uncompressed) > std::uint64_t(compressed) * 256 + 64)
        throw Error("gbx body claims " + std::to_string(uncompressed) + " bytes from " +
                    std::to_string(compressed) + " compressed bytes");
    Bytes packed = r.bytes(compressed, "compressed gbx body");
    Bytes decompressed = lzoDecompress(packed, uncompressed);
    packed = Bytes();
    if (opts.keepBody) f.bodyData = std::move(decompressed);
    ByteSpan body = opts.keepBody ? ByteSpan(f.bodyData) : ByteSpan(decompressed);
    if (auto after = src.remaining()) f.trailingBytes = *after;
    if (opts.readNodes && opts.readCompressedBodyNodes) {
        f.reached = ReadStage::Nodes;
        MemorySource mem(body);
        NodeReader nr(mem, nodeConfig(f, opts, nullptr, true), f.nodes);
        nr.readMainNode(f.header.classId);
        f.nodesComplete = true;
        f.unfilledSlots = unfilled(f.header, nr);
        f.trailingBytes += *mem.remaining();
    }
    f.reached = ReadStage::Done;
}

}  // namespace

GbxFile readGbx(ByteSource& src, ReadObserver* observer, const ReadOptions& opts) {
    GbxFile f;
    readInto(f, src, observer, opts);
    return f;
}

GbxFile readGbxPartial(ByteSource& src, ReadObserver* observer, const ReadOptions& opts) {
    GbxFile f;
    try {
        readInto(f, src, observer, opts);
    } catch (const ParseError& e) {
        f.failure = ReadFailure{f.reached,         e.what(),      e.offset(),
                                f.body.compressed, e.truncated(), e.resumeOffset()};
    } catch (const TruncatedError& e) {
        f.failure = ReadFailure{f.reached, e.what(), src.position(), false, true, src.position()};
    } catch (const Error& e) {
        f.failure = ReadFailure{f.reached, e.what(), src.position(), false, false, src.position()};
    }
    return f;
}

}  // namespace pakfs::gbx
