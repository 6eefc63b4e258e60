// SPDX-License-Identifier: GPL-2.0-or-later
// A gbx entry decoded by parse passes under both skippable-chunk rules, proven by a whole parse,
// zlib's checksum or the node scan, else refused; and the writer's ivXor plan (planGbxEntry).
#include "archive/entry/GbxEntry.hpp"

#include <optional>

#include "archive/codec/Streams.hpp"
#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryPipeline.hpp"
#include "archive/entry/NodeScan.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/Metadata.hpp"
#include "gbx/Classes.hpp"
#include "gbx/GbxFile.hpp"

namespace pakfs::archive {

namespace {

// Plugs CalcIVXor into the reader's node-read hook and notes every node read.
class CipherMixer final : public gbx::ReadObserver {
public:
    struct Read {
        NodeRead read;
        std::int64_t slot = -1;
        bool folded = false;
    };
    CipherMixer(CryptedStream& crypted, const ByteSource& top, bool foldInSkippable, bool perNode)
        : crypted_(crypted), top_(top), foldInSkippable_(foldInSkippable), perNode_(perNode) {}
    void onNodeRead(std::uint32_t classId, bool inSkippableChunk, std::int64_t slot) override {
        const auto& classes = gbx::ClassRegistry::builtin();
        // The cipher input comes from the class tree: a class we do not know leaves the rest of
        // the entry undecodable.
        if (!classes.known(classes.generalize(classId)))
            throw Error("unknown class " + hex32(classId) +
                        ": its place in the class tree decides the cipher state");
        record(classes.ivXorClassInput(classId), inSkippableChunk, slot);
    }
    // A mid-chunk mix folds like a node read's class input and obeys the same skippable rule.
    void onCipherMix(std::uint32_t value, bool inSkippableChunk) override {
        record(value, inSkippableChunk, -1);
    }
    std::vector<Read> reads;
    bool skippableNodes = false;  // a node was read inside a skippable chunk

private:
    void record(std::uint32_t input, bool inSkippableChunk, std::int64_t slot) {
        if (inSkippableChunk) skippableNodes = true;
        Read r{{top_.position(), input}, slot, false};
        r.folded = perNode_ && (!inSkippableChunk || foldInSkippable_);
        if (r.folded) {
            std::uint8_t s[4];
            storeLE32(s, input);
            crypted_.mixIvXor(s);
        }
        reads.push_back(r);
    }

    CryptedStream& crypted_;
    const ByteSource& top_;
    bool foldInSkippable_;
    bool perNode_;
};

// One run of the gbx reader over the pipeline, as far as it gets.
struct ParsePass {
    Bytes bytes;               // what was read, in order
    bool complete = false;     // every chunk read by a known reader, and the rest of the entry
    bool scannable = false;    // stopped in the nodes, after the main node's read: scan from there
    std::string failure;       // why it stopped
    std::uint64_t resume = 0;  // node reads before it are exact (ParseError::resumeOffset)
    std::vector<CipherMixer::Read> reads;
    bool skippableNodes = false;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> unknownSkippable;  // data ranges
    std::uint32_t numNodes = 0;
    std::vector<std::uint32_t> externalSlots;
    std::uint32_t classId = 0;
    std::string checksumFailure;  // complete, compressed: finishing the zlib stream failed
    std::vector<std::uint64_t> applied;
    // The body is LZO-compressed inside the gbx: decompressed, its nodes not read (they are
    // read from memory and never touch the cipher).
    bool bodyInMemory = false;
    std::string format;              // the gbx format, e.g. "BUCR"
    std::uint32_t bodyBytes = 0;     // bodyInMemory: its decompressed size
    std::size_t skippedUnknown = 0;  // unknown skippable chunks skipped by their size

    // Whether the open skippable-chunk rule cannot change a byte read so far: no node read by
    // a known reader inside a skippable chunk, and no node signature in the data of the
    // unknown ones it skipped (the first node read in one would show whatever the rule, as
    // nothing before it differs). `decoded` holds the entry's bytes up to the reader's stop.
    bool noSkippableNodes(ByteSpan decoded) const {
        if (skippableNodes) return false;
        for (const auto& [b, e] : unknownSkippable)
            if (hasNodeSignature(decoded, b, e, numNodes)) return false;
        return true;
    }

    NodeScanInput scanInput(bool foldInSkippable, bool verify) const {
        NodeScanInput in;
        in.start = complete ? bytes.size() : resume;
        in.numNodes = numNodes;
        in.slotsTaken = externalSlots;
        in.foldInSkippable = foldInSkippable;
        in.verifyChecksum = verify;
        for (const auto& r : reads) {
            if (r.read.position > in.start) continue;
            if (r.folded) in.exact.push_back(r.read);
            if (r.slot >= 0) in.slotsTaken.push_back(std::uint32_t(r.slot));
        }
        return in;
    }
};

ParsePass parsePass(const PipelineSpec& spec, bool foldInSkippable, bool perNode = true,
                    bool scanOnly = false) {
    ParsePass r;
    ReadPipeline pipe(spec);
    // Every byte the parser asks for: the entry's content is exactly what was read.
    TeeSource recorder(pipe.top(), r.bytes);
    CipherMixer mixer(pipe.crypted(), pipe.top(), foldInSkippable, perNode);
    gbx::ReadOptions options;
    options.readCompressedBodyNodes = false;  // read from memory: they never touch the cipher
    // Under the fold rule the reader cannot skip a chunk it does not know by size.
    options.stopAtUnknownSkippable = foldInSkippable;
    static const gbx::ChunkRegistry noChunks;
    if (scanOnly) options.chunks = &noChunks;
    gbx::GbxFile file = gbx::readGbxPartial(recorder, &mixer, options);
    r.reads = std::move(mixer.reads);
    r.skippableNodes = mixer.skippableNodes;
    r.numNodes = file.header.numNodes;
    r.classId = file.header.classId;
    for (const auto& e : file.refs.externals) r.externalSlots.push_back(e.nodeIndex);
    r.format = file.header.format;
    r.bodyInMemory = file.body.compressed;
    r.bodyBytes = file.body.uncompressedSize;
    for (const auto& n : file.nodes)
        for (const auto& c : n.chunks)
            if (c.skippable && !c.known)
                r.unknownSkippable.emplace_back(c.offset + 12, c.offset + 12 + c.size);
    r.skippedUnknown = r.unknownSkippable.size();
    if (file.failure) {
        r.failure = file.failure->message;
        r.resume = file.failure->resumeOffset;
        // The main node's read is the first: without it the scan would miss its fold.
        r.scannable = file.failure->stage == gbx::ReadStage::Nodes && !file.failure->inBody &&
                      !r.reads.empty() && r.reads.front().read.position <= r.resume;
        return r;
    }
    // A parse proves the bytes only when it ends exactly at the entry's end with every node
    // slot filled, as in every file the game writes; otherwise the scan goes on from its end.
    std::string unproven;
    if (r.bytes.size() != spec.size)
        unproven = "the gbx data ends at " + std::to_string(r.bytes.size()) + " of " +
                   std::to_string(spec.size) + " bytes";
    else if (file.unfilledSlots)
        unproven = std::to_string(file.unfilledSlots) + " of the " + std::to_string(r.numNodes) +
                   " node slots were never filled";
    if (!unproven.empty()) {
        r.failure = "read whole, but " + unproven;
        r.resume = r.bytes.size();
        r.scannable = !r.reads.empty();
        return r;
    }
    // What follows the gbx data is part of the entry. The size is untrusted: take it in
    // pieces, so a size the data cannot back ends in an error instead of one huge allocation.
    try {
        if (r.bytes.size() > spec.size) throw Error("gbx data runs past the entry's size");
        std::uint64_t left = spec.size - r.bytes.size();
        Bytes rest(std::size_t(std::min<std::uint64_t>(left, 64 * 1024)));
        while (left > 0) {
            std::size_t n = std::size_t(std::min<std::uint64_t>(left, rest.size()));
            recorder.read({rest.data(), n});
            left -= n;
        }
    } catch (const Error& e) {
        r.failure = e.what();
        return r;
    }
    r.complete = true;
    try {
        if (pipe.zlib()) pipe.zlib()->finish();
        if (pipe.lz4()) pipe.lz4()->finish();
    } catch (const Error& e) {
        r.checksumFailure = e.what();
    }
    r.applied = pipe.crypted().appliedIvXor();
    return r;
}

// A decode under one skippable-chunk rule.
struct Attempt {
    bool ok = false;      // compressed: proven by the checksum; stored: a decode exists
    bool parsed = false;  // from the reader alone
    Bytes bytes;
    std::string failure;
    std::size_t scannedNodeReads = 0;
    std::size_t signaturesInSkippable = 0;  // node signatures the scan saw in skippable chunks
    std::uint64_t exactUpTo = 0;            // node reads before this were read exactly
};

Attempt attempt(const PipelineSpec& spec, ParsePass& pass, bool fold) {
    Attempt a;
    a.exactUpTo = pass.complete ? spec.size : pass.resume;
    if (pass.complete && pass.checksumFailure.empty()) {
        a.ok = a.parsed = true;
        a.bytes = std::move(pass.bytes);
        return a;
    }
    if (spec.lz4 && !pass.checksumFailure.empty()) {
        a.failure = pass.checksumFailure;
        return a;
    }
    if (!pass.complete && (!pass.scannable || spec.lz4)) {
        // LZ4 keeps no checksum, and the scan's windows are zlib's and the cipher's.
        a.failure = spec.lz4 ? "LZ4 keeps no checksum to verify a scan (" + pass.failure + ")"
                             : pass.failure;
        return a;
    }
    // Past the reader's stop, or a parsed entry whose stream did not end right with the
    // pending ivXor on its last segments: the scan decodes (and verifies) from the start.
    NodeScanResult scan = scanDecode(spec, pass.scanInput(fold, spec.compressed));
    a.ok = scan.ok;
    a.parsed = pass.complete;
    a.bytes = std::move(scan.bytes);
    a.scannedNodeReads = scan.nodeReads;
    a.signaturesInSkippable = scan.insideSkippable;
    a.failure = pass.complete ? pass.checksumFailure
                              : pass.failure + "; scan: " + (scan.ok ? "ok" : scan.failure);
    return a;
}

// Whether the first segment refill that a node read the reader did not see could change comes
// after the entry's last segment (stored entries).
bool exactByConstruction(std::uint64_t size, std::uint64_t exactUpTo) {
    if (size <= kSegmentSize) return true;
    std::uint64_t lastSegment = (size - 1) / kSegmentSize;
    std::uint64_t firstUncertain = (exactUpTo + 8 + kSegmentSize - 1) / kSegmentSize;
    return firstUncertain > lastSegment;
}

GbxDecode refused(const std::string& where, const std::string& why) {
    GbxDecode d;
    d.detail = where + ": " + why;
    return d;
}

// An LZO body: no node read reaches the cipher, so nothing after the reference table can
// change a byte. A checksum that fails is damage: no scan can mend it.
GbxDecode decodeLzoBody(const PipelineSpec& spec, ParsePass& pass) {
    if (!pass.checksumFailure.empty())
        return refused(spec.name, "cannot be decoded exactly: " + pass.checksumFailure);
    GbxDecode d;
    d.kind = GbxDecodeKind::Header;
    d.bytes = std::move(pass.bytes);
    d.detail = "header and reference table read; the body (format " + pass.format +
               ") is LZO-compressed inside the gbx: the game reads its nodes from memory, so "
               "no node read reaches the pak's cipher and no byte depends on them (the "
               "body's nodes were not read; its LZO stream decompresses to its stated " +
               std::to_string(pass.bodyBytes) +
               " bytes, and the gbx data ends at the entry's end)" +
               (spec.compressed ? "; Adler-32 and size match" : "; no checksum");
    return d;
}

// Read whole, with no node read inside a skippable chunk: the open rule cannot matter.
GbxDecode decodeReadWhole(const PipelineSpec& spec, ParsePass& pass) {
    Attempt a = attempt(spec, pass, false);
    if (!a.ok) return refused(spec.name, "cannot be decoded exactly: " + a.failure);
    GbxDecode d;
    d.bytes = std::move(a.bytes);
    if (pass.skippedUnknown > 0) {
        // Chunks skipped by size were not read: what proves them is that their data holds
        // no node read, not a parse.
        d.kind = GbxDecodeKind::Exact;
        d.detail = "read to the end by known chunk readers, every node slot filled, except " +
                   std::to_string(pass.skippedUnknown) + " unknown skippable chunk" +
                   (pass.skippedUnknown == 1 ? "" : "s") +
                   " skipped by size with no node signature in the data: no node read the "
                   "reader did not see can change a byte" +
                   (spec.compressed ? "; Adler-32 and size match" : " (no checksum)");
        return d;
    }
    d.kind = GbxDecodeKind::Parsed;
    d.detail =
        std::string("parsed by known chunk readers to the end, every node slot filled") +
        (spec.compressed ? "; Adler-32 and size match" : " (no checksum: the parse is the proof)");
    return d;
}

// A compressed entry proven by its checksum, decoded by `won`; `rule` is the skippable-chunk
// rule the checksum picked, if it had to.
GbxDecode provenByChecksum(GbxDecodeKind kind, Attempt& won, std::optional<bool> rule) {
    GbxDecode d;
    d.kind = kind;
    d.skippableRule = rule;
    d.scannedNodeReads = won.scannedNodeReads;
    d.detail = std::string(kind == GbxDecodeKind::Parsed ? "parsed" : "scanned") + ", " +
               std::to_string(won.scannedNodeReads) + " node reads found; Adler-32 and size match" +
               (!rule   ? ""
                : *rule ? " (nodes in skippable chunks fold)"
                        : " (nodes in skippable chunks do not fold)");
    d.bytes = std::move(won.bytes);
    return d;
}

// A compressed entry decoded under both skippable-chunk rules: the checksum decides.
GbxDecode pickByChecksum(const PipelineSpec& spec, Attempt& nf, Attempt& f) {
    if (nf.ok && f.ok && nf.bytes != f.bytes)
        return refused(spec.name,
                       "cannot be decoded exactly: both skippable-chunk rules decode to a "
                       "valid Adler-32 with different bytes");
    if (!nf.ok && !f.ok)
        return refused(spec.name,
                       "cannot be decoded exactly: no decode matches the Adler-32 and size (" +
                           nf.failure + ")");
    GbxDecodeKind kind =
        nf.parsed && f.parsed && nf.ok && f.ok ? GbxDecodeKind::Parsed : GbxDecodeKind::Verified;
    return provenByChecksum(kind, nf.ok ? nf : f,
                            nf.ok != f.ok ? std::optional(f.ok) : std::nullopt);
}

// A stored entry decoded under both skippable-chunk rules: with no checksum, only a parse or
// the segment layout can prove it; else refused, or written unverified when asked for.
GbxDecode pickStored(const PipelineSpec& spec, const GbxDecodeOptions& options,
                     const ParsePass& noFold, const Attempt& nf, const Attempt& f) {
    GbxDecode d;
    if (nf.ok && f.ok && nf.parsed && f.parsed && nf.bytes == f.bytes) {
        d.kind = GbxDecodeKind::Parsed;
        d.bytes = nf.bytes;
        d.detail =
            "parsed by known chunk readers to the end, every node slot filled; both "
            "skippable-chunk rules agree (no checksum: the parse is the proof)";
        return d;
    }
    const Attempt& best = nf.ok ? nf : f;
    // Exact only where both rules agree too: a node read inside a skippable chunk before the
    // reader's stop may already have changed a segment under one of them.
    if (nf.ok && f.ok && nf.bytes == f.bytes && !spec.lz4 &&
        exactByConstruction(spec.size, std::min(nf.exactUpTo, f.exactUpTo))) {
        d.kind = GbxDecodeKind::Exact;
        d.bytes = best.bytes;
        d.detail = "no node read the reader did not see can change a byte";
        return d;
    }
    std::string why = nf.parsed && f.ok && nf.ok
                          ? "stored gbx entry whose bytes depend on whether node reads inside "
                            "skippable chunks mix the cipher: cannot be verified"
                          : "stored gbx entry with chunks no reader knows: cannot be verified (" +
                                noFold.failure + ")";
    if (!options.unverified || !best.ok) return refused(spec.name, why);
    d.kind = GbxDecodeKind::Unverified;
    d.bytes = best.bytes;
    d.scannedNodeReads = best.scannedNodeReads;
    d.detail = spec.name + ": " + why + "; written unverified (" +
               std::to_string(best.scannedNodeReads) + " node reads found by the scan)";
    return d;
}

GbxDecode decodeProven(const PipelineSpec& spec, const GbxDecodeOptions& options) {
    ParsePass noFold = parsePass(spec, false, options.perNodeIvXor, options.scanOnly);
    if (!options.perNodeIvXor) {  // diagnosis: the reader alone, without node folds
        if (!noFold.complete)
            return refused(spec.name, "cannot be decoded exactly: " + noFold.failure);
        GbxDecode d;
        d.kind = GbxDecodeKind::Parsed;
        d.bytes = std::move(noFold.bytes);
        return d;
    }
    if (!noFold.complete && !noFold.scannable)
        return refused(spec.name, "cannot be decoded exactly: " + noFold.failure);
    if (noFold.complete && noFold.bodyInMemory) return decodeLzoBody(spec, noFold);
    if (noFold.complete && noFold.noSkippableNodes(noFold.bytes))
        return decodeReadWhole(spec, noFold);
    Attempt nf = attempt(spec, noFold, false);
    // No node signature inside any skippable chunk (none seen by the scan, none in the chunks
    // the reader skipped): the other rule decodes the same bytes, no need to try it.
    if (spec.compressed && nf.ok && nf.signaturesInSkippable == 0 &&
        noFold.noSkippableNodes(nf.bytes))
        return provenByChecksum(GbxDecodeKind::Verified, nf, std::nullopt);
    ParsePass foldPass = parsePass(spec, true, true, options.scanOnly);
    Attempt f = attempt(spec, foldPass, true);
    if (spec.compressed) return pickByChecksum(spec, nf, f);
    return pickStored(spec, options, noFold, nf, f);
}

}  // namespace

const char* gbxDecodeKindName(GbxDecodeKind kind) {
    switch (kind) {
        case GbxDecodeKind::Parsed:
            return "parsed";
        case GbxDecodeKind::Header:
            return "header";
        case GbxDecodeKind::Exact:
            return "exact";
        case GbxDecodeKind::Verified:
            return "verified";
        case GbxDecodeKind::Unverified:
            return "unverified";
        case GbxDecodeKind::Refused:
            return "refused";
    }
    return "?";
}

GbxDecode decodeGbxEntryProven(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                               const GbxDecodeOptions& options) {
    const std::string where = pak->name() + ": " + entry.path;
    if (!pak->nodeReadsMixCipher(entry)) {
        // Nothing the reader reads can change the cipher: the plain reader's bytes are the
        // game's (zlib's checksum is checked on the way when there is one).
        GbxDecode d;
        try {
            d.bytes = readPlainEntry(pak, entry, options.unverified);
        } catch (const Error& e) {
            d.detail =
                std::string(e.what()).rfind(where, 0) == 0 ? e.what() : where + ": " + e.what();
            return d;
        }
        if (entry.counterMode) {
            const bool proven = counterModeProven(entry);
            d.kind = proven ? GbxDecodeKind::Exact : GbxDecodeKind::Unverified;
            d.detail = proven ? counterModeDetail(entry) : where + ": " + counterModeDetail(entry);
            return d;
        }
        d.kind = GbxDecodeKind::Exact;
        d.detail = entry.encrypted ? "node reads do not mix the cipher (DontUseDummyWrite)"
                                   : "stored in the clear: no cipher for node reads to mix";
        return d;
    }
    try {
        PipelineSpec spec = entryPipelineSpec(*pak, entry);
        return decodeProven(spec, options);
    } catch (const Error& e) {
        GbxDecode d;
        d.detail = std::string(e.what()).rfind(where, 0) == 0 ? e.what() : where + ": " + e.what();
        return d;
    }
}

Bytes decodeGbxEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     const GbxDecodeOptions& options,
                     const std::function<void(const std::string&)>& warn) {
    GbxDecode d = decodeGbxEntryProven(pak, entry, options);
    if (d.kind == GbxDecodeKind::Refused) throw Error(d.detail);
    if (d.kind == GbxDecodeKind::Unverified && warn) warn(d.detail);
    return std::move(d.bytes);
}

GbxEntryRefs readGbxEntryRefs(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry) {
    const std::string where = pak->name() + ": " + entry.path;
    try {
        ReadPipeline pipeline(entryPipelineSpec(*pak, entry));
        GbxEntryRefs out;
        out.header = gbx::readHeader(pipeline.top());
        out.refs = gbx::readRefTable(pipeline.top(), out.header);
        return out;
    } catch (const Error& e) {
        throw Error(where + ": " + e.what());
    }
}

GbxEncoding planGbxEntry(ByteSpan content, ByteSpan payload, bool compressed,
                         const std::string& packPath, const GbxPipelineRules& rules, bool lz4) {
    // The simulation reads plaintext through the same stages the game's reader uses, so the
    // segment refills happen at the same moments and record the ivXor each one applies.
    Bytes padded(payload.begin(), payload.end());
    padded.resize(roundUp8(padded.size()), 0);
    PipelineSpec spec{ByteRange(ByteSpan(padded))};
    spec.compressed = compressed && !lz4;
    spec.lz4 = lz4 && compressed;
    spec.compressedSize = payload.size();
    spec.size = content.size();
    spec.name = packPath;
    const bool fold = rules.nodesInSkippableChunksMixIvXor;
    ParsePass pass = parsePass(spec, fold);
    if (!pass.complete && (!pass.scannable || spec.lz4))
        throw Error(packPath + ": cannot be decoded exactly: " + pass.failure);
    GbxEncoding plan;
    plan.classId = pass.classId;
    Bytes seen;
    if (pass.complete) {
        plan.ivXorPerSegment = pass.applied;
        plan.needsChecksum = !pass.noSkippableNodes(pass.bytes);
        seen = std::move(pass.bytes);
    } else {
        NodeScanResult scan = scanDecode(spec, pass.scanInput(fold, false));
        if (!scan.ok) throw Error(packPath + ": cannot be planned: " + scan.failure);
        plan.ivXorPerSegment = std::move(scan.applied);
        plan.scanned = true;
        plan.scannedNodeReads = scan.nodeReads;
        plan.needsChecksum = true;
        seen = std::move(scan.bytes);
    }
    if (!std::equal(seen.begin(), seen.end(), content.begin(), content.end()))
        throw Error(packPath + ": internal error: the simulated read differs from the file");
    // Segments the reader never refills (zlib padding) keep a zero ivXor.
    MemorySource header(content);
    plan.metadata = readDatalessGbx(header, packPath);
    return plan;
}

}  // namespace pakfs::archive
