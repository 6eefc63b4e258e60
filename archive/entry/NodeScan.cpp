// SPDX-License-Identifier: GPL-2.0-or-later
// The node scan's search: runs that decode window by window folding the node signatures found,
// then a limited discrepancy search over their choice points, the bytes decoded in all bounded.
#include "archive/entry/NodeScan.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "gbx/Classes.hpp"
#include "gbx/Nodes.hpp"

namespace pakfs::archive {

// How the search works.
//
// The cipher state depends on node reads only through the ivXor, which the crypted stream
// applies at its next 256-byte refill. The game's reader refills when the parser asks for a
// byte past what is buffered: for a stored entry at every multiple of 256 of the content, for a
// compressed one at every multiple of 0x400 of the output (the zlib stage then reads 0x100-byte
// steps from the crypted stream, which refills as they need it). A node read whose class ID
// ends at position p therefore lands at the first such boundary B >= p. So the decode goes
// window by window: read up to B, find the node signatures that end at or before B in the
// plaintext decoded so far, decide which of them are real, fold those, and read on.
//
// The decision at a boundary is a choice point: its options are the subsets of the new
// signatures, most node reads first (a real node read always shows its signature; data rarely
// imitates one). A run decodes from the start, taking option 0 at every choice point except the
// one it was told to change. A run fails when zlib reports corrupt data, when a folded node read
// is not followed by a chunk ID of its class (its chunk ID may lie in the next window, so this is
// checked once decoded), or, for compressed entries, when the stream does not end with the right
// Adler-32 exactly at the entry's size. Eight wrong bytes of deflate input rarely make zlib stop
// at once, so a failure does not say where the wrong choice was: after the first run fails, the
// search tries each single change of it (a limited discrepancy search), starting with the choice
// point that folded a node index which a complete node signature later uses again (one of the
// two is data), then from the last window back. So the work is linear in the windows and their
// options: one wrong guess per entry, or up to two imitations within one window, is found;
// entries that need more are refused. Runs are bounded (maxRuns).

namespace {

using gbx::kEndOfNode;
using gbx::kSkipMarker;
constexpr std::size_t kMaxSignaturesPerWindow = 24;

// The class ID of a node read: a class of the class table (low 12 bits zero).
bool nodeClassKnown(const gbx::ClassRegistry& classes, std::uint32_t classId) {
    return (classId & 0xFFF) == 0 && classes.known(classId);
}

// A node's first u32: a chunk ID of its class or of an ancestor, or the end marker.
bool firstChunkFits(const gbx::ClassRegistry& classes, std::uint32_t chunkId,
                    std::uint32_t classId) {
    return chunkId == kEndOfNode ||
           (classes.known(chunkId) && classes.ofClassOrAncestor(chunkId, classId));
}

struct Candidate {
    std::uint64_t at = 0;  // offset of the node index
    std::uint32_t index = 0;
    std::uint32_t classId = 0;
    bool confirmed = false;  // its chunk ID was seen and fits
};

class Run {
public:
    Run(const PipelineSpec& spec, const NodeScanInput& in, const std::vector<std::uint32_t>& told,
        bool zeroTail)
        : spec_(spec),
          in_(in),
          told_(told),
          zeroTail_(zeroTail),
          classes_(gbx::ClassRegistry::builtin()) {}

    // Decodes once; returns true when the decode holds.
    bool go();

    Bytes out;
    std::string failure;
    std::vector<std::uint32_t> optionCounts;  // per choice point reached
    std::vector<std::uint32_t> taken;         // option taken per choice point
    std::size_t nodeReads = 0;
    std::size_t insideSkippable = 0;
    std::vector<std::uint64_t> applied;
    // The first choice point that folded a node index which a later, complete node signature
    // uses again: one of the two is data, and the earlier one is the likelier mistake.
    std::optional<std::size_t> suspect;
    bool tailMatters = false;  // the run failed at the stream's end with an ivXor pending

private:
    bool chunkIdFits(std::uint32_t chunkId, std::uint32_t classId) const {
        return firstChunkFits(classes_, chunkId, classId);
    }
    std::uint32_t at32(std::uint64_t pos) const { return loadLE32(out.data() + pos); }
    void findSkippableChunks(std::uint64_t known);
    bool inSkippableChunk(std::uint64_t pos) const;
    void findSignatures(std::uint64_t known, bool last, std::vector<Candidate>& found);
    bool confirmFolded(std::uint64_t known, bool last);
    std::uint32_t choose(std::uint32_t options);
    bool fail(std::string why) {
        failure = std::move(why);
        return false;
    }

    const PipelineSpec& spec_;
    const NodeScanInput& in_;
    const std::vector<std::uint32_t>& told_;
    bool zeroTail_;
    const gbx::ClassRegistry& classes_;
    std::unordered_set<std::uint32_t> taken_;
    std::unordered_map<std::uint32_t, std::size_t> foldedAt_;         // index -> choice point
    std::vector<std::pair<std::uint64_t, std::uint64_t>> skippable_;  // [begin, end)
    std::vector<Candidate> unconfirmed_;                              // folded, chunk ID unseen
    std::uint64_t signatureCursor_ = 0;
    std::uint64_t skippableCursor_ = 0;
};

void Run::findSkippableChunks(std::uint64_t known) {
    // chunk ID, "PIKS", u32 size: the data after it is one skippable chunk.
    for (; skippableCursor_ + 12 <= known; ++skippableCursor_) {
        std::uint64_t y = skippableCursor_;
        if (at32(y + 4) != kSkipMarker || !classes_.known(at32(y))) continue;
        std::uint64_t begin = y + 12;
        std::uint64_t end = begin + at32(y + 8);
        if (end <= spec_.size) skippable_.emplace_back(begin, end);
    }
}

bool Run::inSkippableChunk(std::uint64_t pos) const {
    for (const auto& [b, e] : skippable_)
        if (pos >= b && pos < e) return true;
    return false;
}

void Run::findSignatures(std::uint64_t known, bool last, std::vector<Candidate>& found) {
    for (; signatureCursor_ + 8 <= known; ++signatureCursor_) {
        std::uint64_t x = signatureCursor_;
        std::uint32_t index = at32(x);
        if (index >= in_.numNodes) continue;
        std::uint32_t classId = at32(x + 4);
        if (!nodeClassKnown(classes_, classId)) continue;
        if (taken_.count(index)) {
            auto by = foldedAt_.find(index);
            if (!suspect && by != foldedAt_.end() && x + 12 <= known &&
                chunkIdFits(at32(x + 8), classId))
                suspect = by->second;
            continue;
        }
        Candidate c{x, index, classId, false};
        if (x + 12 <= known) {
            if (!chunkIdFits(at32(x + 8), classId)) continue;
            c.confirmed = true;
        } else if (last) {
            continue;  // no room left for its chunk ID
        }
        if (inSkippableChunk(x)) {
            ++insideSkippable;
            if (!in_.foldInSkippable) continue;
        }
        found.push_back(c);
    }
}

bool Run::confirmFolded(std::uint64_t known, bool last) {
    for (auto it = unconfirmed_.begin(); it != unconfirmed_.end();) {
        if (it->at + 12 <= known) {
            if (!chunkIdFits(at32(it->at + 8), it->classId))
                return fail("node read at " + std::to_string(it->at) + " (" +
                            gbx::describeClass(it->classId) +
                            ") is not followed by a chunk ID of its class");
            it = unconfirmed_.erase(it);
        } else if (last) {
            return fail("node read at " + std::to_string(it->at) + " has no chunk ID");
        } else {
            ++it;
        }
    }
    return true;
}

std::uint32_t Run::choose(std::uint32_t options) {
    std::size_t k = optionCounts.size();
    std::uint32_t pick = k < told_.size() ? told_[k] : 0;
    optionCounts.push_back(options);
    taken.push_back(pick);
    return pick;
}

// The options at a choice point, as bit masks over the signatures (bit i = signature i is a
// node read): all of them first, then all but one (the later ones dropped first), then all but
// two, then none; never two reads of one node index. A window holds few real node reads that
// data imitates, so dropping more than two is left out to keep the options few.
std::vector<std::uint32_t> optionsFor(const std::vector<Candidate>& c) {
    const std::size_t n = c.size();
    const std::uint32_t all = n >= 32 ? ~0u : (1u << n) - 1;
    std::vector<std::uint32_t> masks;
    auto add = [&](std::uint32_t m) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j)
                if ((m >> i & 1) && (m >> j & 1) && c[i].index == c[j].index) return;
        if (std::find(masks.begin(), masks.end(), m) == masks.end()) masks.push_back(m);
    };
    add(all);
    for (std::size_t i = n; i-- > 0;) add(all & ~(1u << i));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = i; j-- > 0;) add(all & ~(1u << i) & ~(1u << j));
    add(0);
    return masks;
}

bool Run::go() {
    try {
        ReadPipeline pipe(spec_);
        ByteSource& top = pipe.top();
        const std::uint64_t step = spec_.compressed ? 0x400 : kSegmentSize;
        const std::uint64_t size = spec_.size;
        out.reserve(std::size_t(std::min<std::uint64_t>(size, spec_.range.size() * 64 + 4096)));
        for (std::uint32_t s : in_.slotsTaken) taken_.insert(s);
        signatureCursor_ = skippableCursor_ = in_.start;
        std::size_t exactNext = 0;
        std::uint64_t pos = 0;
        while (pos < size) {
            const std::uint64_t boundary = std::min(size, (pos / step + 1) * step);
            const bool last = boundary == size;
            out.resize(std::size_t(boundary));
            top.read({out.data() + pos, std::size_t(boundary - pos)});
            pos = boundary;
            if (!confirmFolded(pos, last)) return false;
            findSkippableChunks(pos);
            std::vector<Candidate> found;
            findSignatures(pos, last, found);
            // Node reads before `start` came from the reader: they fold as they are.
            for (; exactNext < in_.exact.size() && in_.exact[exactNext].position <= pos;
                 ++exactNext) {
                std::uint8_t b[4];
                storeLE32(b, in_.exact[exactNext].classInput);
                pipe.crypted().mixIvXor(b);
            }
            if (found.empty()) continue;
            if (found.size() > kMaxSignaturesPerWindow)
                return fail(std::to_string(found.size()) + " node signatures before offset " +
                            std::to_string(pos) + ": too many to search");
            std::vector<std::uint32_t> options = optionsFor(found);
            std::uint32_t pick = choose(std::uint32_t(options.size()));
            std::uint32_t mask = options.at(pick);
            for (std::size_t i = 0; i < found.size(); ++i) {
                if (!(mask >> i & 1)) continue;
                std::uint8_t b[4];
                storeLE32(b, classes_.ivXorClassInput(found[i].classId));
                pipe.crypted().mixIvXor(b);
                taken_.insert(found[i].index);
                foldedAt_[found[i].index] = optionCounts.size() - 1;
                ++nodeReads;
                if (!found[i].confirmed) unconfirmed_.push_back(found[i]);
            }
        }
        if (!confirmFolded(pos, true)) return false;
        if (in_.verifyChecksum && pipe.zlib()) {
            // Segments after the last byte the game reads: whether the pending ivXor was
            // applied to them when they were written is not known; both are tried.
            tailMatters = pipe.crypted().pendingIvXor() != 0;
            if (zeroTail_) pipe.crypted().setPendingIvXor(0);
            pipe.zlib()->finish();
            tailMatters = false;
        }
        applied = pipe.crypted().appliedIvXor();
        return true;
    } catch (const Error& e) {
        return fail(e.what());
    }
}

}  // namespace

bool hasNodeSignature(ByteSpan bytes, std::uint64_t begin, std::uint64_t end,
                      std::uint32_t numNodes) {
    const auto& classes = gbx::ClassRegistry::builtin();
    end = std::min<std::uint64_t>(end, bytes.size() >= 12 ? bytes.size() - 11 : 0);
    for (std::uint64_t x = begin; x < end; ++x) {
        if (loadLE32(bytes.data() + x) >= numNodes) continue;
        std::uint32_t classId = loadLE32(bytes.data() + x + 4);
        if (nodeClassKnown(classes, classId) &&
            firstChunkFits(classes, loadLE32(bytes.data() + x + 8), classId))
            return true;
    }
    return false;
}

NodeScanResult scanDecode(const PipelineSpec& spec, const NodeScanInput& input) {
    NodeScanResult result;
    std::string firstFailure;
    // One decode along `told`; a run that fails only at the stream's end, with an ivXor
    // pending for segments the game never refills, is tried again with that ivXor dropped.
    auto tryPath = [&](const std::vector<std::uint32_t>& told) {
        std::optional<Run> run;
        for (bool zeroTail : {false, true}) {
            run.emplace(spec, input, told, zeroTail);
            ++result.runs;
            if (run->go()) {
                result.ok = true;
                result.bytes = std::move(run->out);
                result.nodeReads = run->nodeReads;
                result.insideSkippable = run->insideSkippable;
                result.applied = std::move(run->applied);
                break;
            }
            if (firstFailure.empty()) firstFailure = run->failure;
            if (!run->tailMatters) break;
        }
        return std::move(*run);
    };
    // Every run decodes the entry from its start: bound the bytes decoded in all (a large
    // hostile entry must not cost hundreds of full decodes).
    const std::size_t maxRuns = std::min<std::size_t>(
        input.maxRuns, std::max<std::uint64_t>(4, (std::uint64_t(512) << 20) / (spec.size + 1)));
    Run first = tryPath({});
    if (result.ok) return result;
    // Then every path that differs from it at one choice point (a limited discrepancy search):
    // the choice point of a node index read twice first, then from the last to the first.
    std::vector<std::size_t> order;
    if (first.suspect) order.push_back(*first.suspect);
    for (std::size_t k = first.optionCounts.size(); k-- > 0;)
        if (!first.suspect || k != *first.suspect) order.push_back(k);
    for (std::size_t k : order) {
        for (std::uint32_t o = 1; o < first.optionCounts[k]; ++o) {
            if (result.runs >= maxRuns) {
                result.failure = "no decode found in " + std::to_string(maxRuns) +
                                 " tries (first try: " + firstFailure + ")";
                return result;
            }
            std::vector<std::uint32_t> told(k + 1, 0);
            told[k] = o;
            tryPath(told);
            if (result.ok) return result;
        }
    }
    result.failure =
        "no way of folding the node reads found decodes it (first try: " + firstFailure + ")";
    return result;
}

}  // namespace pakfs::archive
