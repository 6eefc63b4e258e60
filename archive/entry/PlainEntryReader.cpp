// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a plain entry's bytes: the coordinator that picks a strategy per read.
#include "archive/entry/PlainEntryReader.hpp"

#include <algorithm>
#include <cstring>

#include "archive/codec/Streams.hpp"
#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryPipeline.hpp"
#include "archive/stream/DecryptAhead.hpp"
#include "archive/stream/TwoCoreFirstRead.hpp"

namespace pakfs::archive {

namespace {

constexpr std::size_t kSkipBuffer = 64 * 1024;
constexpr std::size_t kOutBuffer = 256 * 1024;  // readPlainEntry's first buffer

}  // namespace

const char* readStrategyName(ReadStrategy strategy) {
    switch (strategy) {
        case ReadStrategy::Stored:
            return "stored";
        case ReadStrategy::Lz4:
            return "lz4";
        case ReadStrategy::Whole:
            return "whole";
        case ReadStrategy::Streamed:
            return "streamed";
        case ReadStrategy::Zlib:
            return "zlib";
    }
    return "?";
}

PlainEntryReader::PlainEntryReader(std::shared_ptr<const PakIndex> pak, const PakEntry& entry,
                                   ReadRequest request)
    : pak_(std::move(pak)),
      entry_(entry),
      s_(*pak_, entry, std::move(request.index), request.recordPoints, request.tuning),
      zlib_(s_),
      isal_(s_, [this] { leaveIsal(true); }) {
    if (entry_.counterMode) checkCounterModeRead(*pak_, entry_, request.unverified);
    if (entry_.codec == EntryCodec::Lz4) {
        // LZ4 goes through the game's stages from the start (no seek points).
        lz4_ = std::make_unique<ReadPipeline>(entryPipelineSpec(*pak_, entry_));
        return;
    }
    if (entry_.compressed())
        zlib_.restart(nullptr);
    else
        s_.stage.startAt(0);
}

PlainEntryReader::~PlainEntryReader() = default;

bool PlainEntryReader::unproven() const {
    return entry_.counterMode && !counterModeProven(entry_);
}

ReadStrategy PlainEntryReader::strategy() const {
    if (lz4_) return ReadStrategy::Lz4;
    if (!entry_.compressed()) return ReadStrategy::Stored;
    if (whole_.done()) return ReadStrategy::Whole;
    return isal_.active() ? ReadStrategy::Streamed : ReadStrategy::Zlib;
}

void PlainEntryReader::chooseFirstInflater() {
    if (!s_.index) {
        // A whole decode holds the entry in memory: only for readers without an index (the
        // CLI's), never the mount's.
        wholeTried_ = true;
        if (whole_.decode(*pak_, entry_, s_.tuning.wholeInflateLimit)) {
            adlerChecked_ = true;  // libdeflate checks it
            return;
        }
        if (!seeked_ && entry_.uncompressedSize > s_.tuning.wholeInflateLimit) startIsal();
    } else if (!s_.recordPoints) {
        startIsal();
    }
}

void PlainEntryReader::startIsal() {
    // The mount's readers (with an index) decrypt ahead on another thread (DecryptAhead) while
    // ISA-L inflates: a first read far into a large entry then takes the longer of the two
    // instead of their sum. The CLI's stay on one thread (extract runs -j of them).
    if (isal_.start(!seeked_)) s_.stage.setPipelined(s_.index != nullptr && s_.tuning.cpus() >= 2);
}

void PlainEntryReader::leaveIsal(bool resume) {
    if (!isal_.active()) return;
    const std::shared_ptr<const SeekPoint> from = isal_.leave();
    if (!resume) return;
    isalRefused_ = true;  // zlib from now on: it reports what ISA-L did not take
    const std::uint64_t at = s_.produced;
    zlib_.restart(from.get());  // its window read again: if damaged since, from one before
    skip(at - s_.produced);
}

bool PlainEntryReader::resumeIsal(std::shared_ptr<const SeekPoint> point) {
    return isal_.resume(std::move(point));
}

std::size_t PlainEntryReader::read(std::uint8_t* dst, std::size_t n) {
    n = std::size_t(std::min<std::uint64_t>(n, entry_.uncompressedSize - s_.produced));
    if (n == 0) return 0;
    if (!whole_.done() && !wholeTried_ && s_.produced == 0 && !s_.rawInflate && !isal_.active() &&
        !isalRefused_ && entry_.codec == EntryCodec::Zlib)
        chooseFirstInflater();
    if (whole_.done()) {
        std::memcpy(dst, whole_.bytes() + s_.produced, n);
        s_.produced += n;
        s_.decoded += n;
        return n;
    }
    std::size_t done = 0;
    if (lz4_)
        done = readLz4(dst, n);
    else if (entry_.compressed())
        done = readInflated(dst, n);
    else
        done = readStored(dst, n);
    s_.decoded += done;
    return done;
}

std::size_t PlainEntryReader::readLz4(std::uint8_t* dst, std::size_t n) {
    lz4_->top().read({dst, n});
    s_.produced += n;
    if (s_.produced == entry_.uncompressedSize) lz4_->lz4()->finish();
    return n;
}

std::size_t PlainEntryReader::readInflated(std::uint8_t* dst, std::size_t n) {
    std::size_t done = 0;
    if (isal_.active()) done = isal_.read(dst, n);  // less when it left the rest to zlib
    if (done < n) done += zlib_.read(dst + done, n - done);
    if (s_.produced == entry_.uncompressedSize && !s_.rawInflate) {
        if (isal_.active())
            isal_.checkTrailer();
        else
            zlib_.checkTrailer();
        // ISA-L (ISAL_ZLIB) and zlib check the Adler-32 as they reach the stream's end.
        adlerChecked_ = !s_.rawInflate && (isal_.active() ? isal_.finished() : zlib_.ended());
    }
    return done;
}

std::size_t PlainEntryReader::readStored(std::uint8_t* dst, std::size_t n) {
    DecryptStage& stage = s_.stage;
    std::size_t done = 0;
    while (done < n) {
        if (stage.left() == 0) {
            stage.decryptMore();
            if (stage.left() == 0) throw TruncatedError(s_.where() + ": data ends early");
        }
        const std::size_t k = std::min(n - done, stage.left());
        std::memcpy(dst + done, stage.at(), k);
        stage.consume(k);
        done += k;
    }
    s_.produced += done;
    return done;
}

void PlainEntryReader::decodeOnTwoCores(std::uint64_t offset) {
    if (entry_.codec != EntryCodec::Zlib || !s_.index || s_.recordPoints || s_.produced != 0 ||
        isalRefused_ || whole_.done() || s_.rawInflate || isal_.active() ||
        offset < s_.tuning.twoCoresMin || entry_.uncompressedSize == 0)
        return;
    // Version 12+ chaining is walked in order from the entry's start.
    if (s_.stage.mode() == CipherMode::MixedCbc) return;
    TwoCoreFirstRead firstRead(s_, offset);
    if (!firstRead.worthIt()) return;
    startIsal();
    if (!isal_.active() || !s_.stage.pipelined()) return;
    DecryptAhead* ahead = s_.stage.startAhead();
    if (!ahead || !ahead->threaded()) return;
    const std::shared_ptr<const SeekPoint> best = firstRead.run(s_, isal_, *ahead);
    if (!best) return;
    onTwoCores_ = true;
    if (best->out <= s_.produced) return;
    leaveIsal(false);
    if (!resumeIsal(best)) zlib_.restart(best.get());
}

void PlainEntryReader::skip(std::uint64_t n) {
    std::uint8_t scratch[kSkipBuffer];
    while (n > 0) {
        const std::size_t got =
            read(scratch, std::size_t(std::min<std::uint64_t>(n, sizeof scratch)));
        if (got == 0) throw TruncatedError(s_.where() + ": data ends early");
        n -= got;
    }
}

bool PlainEntryReader::seekResumesNearer(std::uint64_t offset) const {
    if (!s_.index || offset <= s_.produced || whole_.done() || lz4_ || !entry_.compressed())
        return false;
    const std::shared_ptr<const SeekPoint> point = s_.index->before(offset);
    return point && point->out > s_.produced;
}

void PlainEntryReader::seek(std::uint64_t offset) {
    offset = std::min<std::uint64_t>(offset, entry_.uncompressedSize);
    if (offset == s_.produced) return;
    if (whole_.done()) {
        s_.produced = offset;
        return;
    }
    if (lz4_) {
        if (offset < s_.produced) {
            lz4_ = std::make_unique<ReadPipeline>(entryPipelineSpec(*pak_, entry_));
            s_.produced = 0;
        }
        skip(offset - s_.produced);
        return;
    }
    if (!entry_.compressed()) {
        s_.produced = offset;
        s_.stage.startAt(offset);
        return;
    }
    seekCompressed(offset);
}

void PlainEntryReader::seekCompressed(std::uint64_t offset) {
    seeked_ = true;
    for (;;) {
        const std::shared_ptr<const SeekPoint> point =
            s_.index ? s_.index->before(offset) : nullptr;
        // A reader that records points decodes with zlib from the start of an ISA-L stream
        // (whose state cannot be saved); one that only looks points up goes on with ISA-L.
        const bool keepGoing = offset > s_.produced && (!point || point->out <= s_.produced) &&
                               !(isal_.active() && s_.recordPoints && !isal_.resumed());
        try {
            if (!keepGoing) {
                leaveIsal(false);
                // Readers that record points need zlib's state at block ends; the others
                // resume through ISA-L, about twice zlib's speed (zlib takes over on anything
                // it rejects).
                if (!point || s_.recordPoints || isalRefused_ || !resumeIsal(point))
                    zlib_.restart(point.get());
            } else {
                decodeOnTwoCores(offset);
            }
            break;
        } catch (const DamagedWindowError&) {
            // ISA-L's point had a damaged window and is gone from the index (windowOf; zlib's
            // restart passes over such points itself): from the start, and again from the point
            // before it. Each turn drops a point, so this ends.
            leaveIsal(false);
            zlib_.restart(nullptr);
        }
    }
    skip(offset - s_.produced);
}

Bytes readPlainEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     bool unverified) {
    PlainEntryReader reader(pak, entry, ReadRequest().allowUnverified(unverified));
    // The size is untrusted: grow with what the data gives.
    Bytes out(std::size_t(std::min<std::uint64_t>(entry.uncompressedSize, kOutBuffer)));
    std::size_t have = 0;
    while (reader.position() < reader.size()) {
        if (have == out.size())
            out.resize(std::size_t(
                std::min<std::uint64_t>(entry.uncompressedSize, std::uint64_t(out.size()) * 2)));
        have += reader.read(out.data() + have, out.size() - have);
    }
    out.resize(have);
    return out;
}

}  // namespace pakfs::archive
