// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/NodeScan.hpp"

#include <algorithm>
#include <bit>
#include <unordered_set>

#include "gbx/Classes.hpp"

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
// imitates one). A run decodes from the start, taking option 0 at every choice point past the
// ones it was told. A run fails when zlib reports corrupt data, when a folded node read is not
// followed by a chunk ID of its class (its chunk ID may lie in the next window, so this is
// checked once decoded), or, for compressed entries, when the stream does not end with the
// right Adler-32 exactly at the entry's size. After a failure the next run changes the last
// choice point that still has options (depth first): a wrong choice mostly shows within the
// window after it, so the search stays within one refill's window in practice. Runs are
// bounded (maxRuns), so a hostile entry costs a bounded number of decodes.

namespace {

constexpr std::uint32_t kEndOfNode = 0xFACADE01;
constexpr std::uint32_t kSkipMarker = 0x534B4950;  // "PIKS"
constexpr std::size_t kMaxSignaturesPerWindow = 10;

struct Candidate {
    std::uint64_t at = 0;  // offset of the node index
    std::uint32_t index = 0;
    std::uint32_t classId = 0;
    bool confirmed = false;  // its chunk ID was seen and fits
};

class Run {
public:
    Run(const PipelineSpec& spec, const NodeScanInput& in, const std::vector<std::uint32_t>& told)
        : spec_(spec), in_(in), told_(told), classes_(gbx::ClassRegistry::builtin()) {}

    // Decodes once; returns true when the decode holds.
    bool go();

    Bytes out;
    std::string failure;
    std::vector<std::uint32_t> optionCounts;  // per choice point reached
    std::vector<std::uint32_t> taken;         // option taken per choice point
    std::size_t nodeReads = 0;
    std::size_t insideSkippable = 0;
    std::vector<std::uint64_t> applied;

private:
    bool chunkIdFits(std::uint32_t chunkId, std::uint32_t classId) const {
        return chunkId == kEndOfNode ||
               (classes_.known(chunkId) && classes_.ofClassOrAncestor(chunkId, classId));
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
    const gbx::ClassRegistry& classes_;
    std::unordered_set<std::uint32_t> taken_;
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
        if (index >= in_.numNodes || taken_.count(index)) continue;
        std::uint32_t classId = at32(x + 4);
        if ((classId & 0xFFF) != 0 || !classes_.known(classId)) continue;
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

// The options at a choice point: subsets of the signatures (as bit masks), most node reads
// first, then the ones that keep earlier signatures; never two reads of one node index.
std::vector<std::uint32_t> optionsFor(const std::vector<Candidate>& c) {
    std::vector<std::uint32_t> masks;
    const std::uint32_t all = (1u << c.size()) - 1;
    for (std::uint32_t m = 0; m <= all; ++m) {
        bool clash = false;
        for (std::size_t i = 0; i < c.size() && !clash; ++i)
            for (std::size_t j = i + 1; j < c.size() && !clash; ++j)
                clash = (m >> i & 1) && (m >> j & 1) && c[i].index == c[j].index;
        if (!clash) masks.push_back(m);
    }
    // Equal counts: keep the earlier signatures (bit i is signature i).
    auto keepsEarlier = [n = c.size()](std::uint32_t m) {
        std::uint32_t r = 0;
        for (std::size_t i = 0; i < n; ++i) r |= (m >> i & 1) << (n - 1 - i);
        return r;
    };
    std::stable_sort(masks.begin(), masks.end(), [&](std::uint32_t a, std::uint32_t b) {
        int pa = std::popcount(a), pb = std::popcount(b);
        if (pa != pb) return pa > pb;
        return keepsEarlier(a) > keepsEarlier(b);
    });
    return masks;
}

bool Run::go() {
    try {
        ReadPipeline pipe(spec_);
        gbx::ByteSource& top = pipe.top();
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
                ++nodeReads;
                if (!found[i].confirmed) unconfirmed_.push_back(found[i]);
            }
        }
        if (!confirmFolded(pos, true)) return false;
        if (in_.verifyChecksum && pipe.zlib()) {
            // Segments after the last byte the game reads: whether the pending ivXor was
            // applied to them when they were written is not known; both are tried.
            if (pipe.crypted().pendingIvXor() != 0 && choose(2) == 1)
                pipe.crypted().setPendingIvXor(0);
            pipe.zlib()->finish();
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
        if ((classId & 0xFFF) != 0 || !classes.known(classId)) continue;
        std::uint32_t chunkId = loadLE32(bytes.data() + x + 8);
        if (chunkId == kEndOfNode ||
            (classes.known(chunkId) && classes.ofClassOrAncestor(chunkId, classId)))
            return true;
    }
    return false;
}

NodeScanResult scanDecode(const PipelineSpec& spec, const NodeScanInput& input) {
    NodeScanResult result;
    std::vector<std::uint32_t> told;
    std::string lastFailure;
    while (result.runs < input.maxRuns) {
        Run run(spec, input, told);
        ++result.runs;
        if (run.go()) {
            result.ok = true;
            result.bytes = std::move(run.out);
            result.nodeReads = run.nodeReads;
            result.insideSkippable = run.insideSkippable;
            result.applied = std::move(run.applied);
            return result;
        }
        if (lastFailure.empty()) lastFailure = run.failure;
        // Depth first: the last choice point with an option left takes its next one.
        std::size_t k = run.optionCounts.size();
        while (k > 0 && run.taken[k - 1] + 1 >= run.optionCounts[k - 1]) --k;
        if (k == 0) {
            result.failure =
                "no way of folding the node reads found decodes it (first try: " + lastFailure +
                ")";
            return result;
        }
        told.assign(run.taken.begin(), run.taken.begin() + std::ptrdiff_t(k));
        ++told[k - 1];
    }
    result.failure = "no decode found in " + std::to_string(input.maxRuns) +
                     " tries (first try: " + lastFailure + ")";
    return result;
}

}  // namespace pakfs::archive
