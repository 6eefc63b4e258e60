// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a plain (non-gbx) entry's bytes: the coordinator that picks a strategy per read.
#pragma once

#include <cstdint>
#include <memory>

#include "archive/pak/PakIndex.hpp"
#include "archive/stream/EntryStream.hpp"
#include "archive/stream/IsalInflate.hpp"
#include "archive/stream/ReadTuning.hpp"
#include "archive/stream/SeekPoints.hpp"
#include "archive/stream/WholeInflate.hpp"
#include "archive/stream/ZlibInflate.hpp"

namespace pakfs::archive {

class ReadPipeline;

// What a reader does with its seek index: adds points to it as it decodes (a pass that builds
// them), or only looks them up (another pass fills it).
enum class PointUse { Record, LookUp };

// What a caller asks of a PlainEntryReader.
struct ReadRequest {
    // Seek points to resume at; null: none (the CLI's readers).
    std::shared_ptr<SeekIndex> index;
    // false: `index` is only looked up, and a read from the start may stream through ISA-L as
    // without an index.
    bool recordPoints = true;
    // A counter-mode entry nothing proves is read (see unproven()) instead of refused with an
    // Error naming the pak, the entry and the options that read it.
    bool unverified = false;
    ReadTuning tuning;

    static ReadRequest points(std::shared_ptr<SeekIndex> index, PointUse use = PointUse::Record) {
        ReadRequest r;
        r.index = std::move(index);
        r.recordPoints = use == PointUse::Record;
        return r;
    }
    ReadRequest& allowUnverified(bool on) {
        unverified = on;
        return *this;
    }
    ReadRequest& withTuning(const ReadTuning& knobs) {
        tuning = knobs;
        return *this;
    }
};

// The strategy decoding a reader's bytes (PlainEntryReader::strategy).
enum class ReadStrategy {
    Stored,    // no compression: the decrypt stage's bytes as they are
    Lz4,       // the game's LZ4 stages, read from the start (no seek points)
    Whole,     // libdeflate, the whole entry at the first read (WholeInflate.hpp)
    Streamed,  // ISA-L, from the start or from a seek point (IsalInflate.hpp)
    Zlib,      // zlib: records and resumes at seek points, takes over from the others
};
const char* readStrategyName(ReadStrategy strategy);

// Reads a plain (non-gbx) entry: bulk decryption (DecryptStage, shared by every strategy) and
// large inflate steps, no parser, no ivXor. Sequential reads stream; seek() jumps, using the
// index for compressed entries (and adding points to it as it decodes). A read that reaches the
// end of a stream decoded from its start also checks zlib's checksum, so a damaged entry is an
// error, never wrong bytes (not a reader that resumed at a seek point, or that was sent into
// the entry before its first read).
// Strategies for a zlib entry: read from its start without an index it decodes whole with
// libdeflate up to ReadTuning::wholeInflateLimit and streams through ISA-L above it (also with
// an index it does not record into); sent far in before its first read with such an index, it
// decodes on two cores (TwoCoreFirstRead.hpp); seeks, readers recording seek points and
// everything the others reject use zlib (whose errors are the ones reported).
// Construction does no I/O; the inflate states and buffers are reused from the last reader that
// the thread destroyed, since extraction opens one reader per entry. One per open file.
class PlainEntryReader {
public:
    PlainEntryReader(std::shared_ptr<const PakIndex> pak, const PakEntry& entry,
                     ReadRequest request = {});
    ~PlainEntryReader();
    PlainEntryReader(const PlainEntryReader&) = delete;
    PlainEntryReader& operator=(const PlainEntryReader&) = delete;

    // Positions the reader at `offset` (<= size). Cheap for stored entries; for compressed
    // ones it resumes at the nearest seek point at or before `offset`, or keeps decoding from
    // the current position when that is nearer, and decodes forward to `offset`.
    void seek(std::uint64_t offset);
    // Fills dst with the next bytes; returns fewer only at the end of the entry.
    std::size_t read(std::uint8_t* dst, std::size_t n);
    std::uint64_t position() const { return s_.produced; }
    // Whether a seek to `offset`, ahead of the position, would resume at a seek point past the
    // position (nearer than decoding on from here).
    bool seekResumesNearer(std::uint64_t offset) const;
    std::uint64_t size() const { return entry_.uncompressedSize; }
    // Whether the bytes come from a counter-mode decode nothing proves (only when constructed
    // with `unverified`): callers say so (counterModeDetail).
    bool unproven() const;
    // Whether a compressed entry was decoded from its start to the end of its zlib stream, so
    // that the stream's Adler-32 was checked (not for a stream that stops without an end, nor
    // for a reader resumed at a seek point).
    bool adlerChecked() const { return adlerChecked_; }
    // Bytes decoded so far, including skipped ones (for tests and statistics).
    std::uint64_t decodedBytes() const { return s_.decoded; }
    // The strategy decoding now (for tests): a zlib entry's is decided at its first read and
    // changes on a seek or on anything a faster one rejects.
    ReadStrategy strategy() const;
    // Whether ISA-L is streaming this entry (for tests).
    bool streamsWithIsal() const { return isal_.active(); }
    // Whether a first read far in was decoded on two cores (a guessed block start proven).
    bool decodedOnTwoCores() const { return onTwoCores_; }
    // The decrypt stage's mode (for tests).
    CipherMode cipherMode() const { return s_.stage.mode(); }

private:
    // The inflater for a zlib entry's first read from its start.
    void chooseFirstInflater();
    void startIsal();
    // Gives ISA-L up; `resume` then decodes again with zlib up to where ISA-L got, so that zlib
    // accepts exactly what it always did and reports what is wrong in its words.
    void leaveIsal(bool resume);
    bool resumeIsal(std::shared_ptr<const SeekPoint> point);
    // Whether a seek to `offset` sends a reader at the entry's start far enough in to decode on
    // two cores, and does so (TwoCoreFirstRead).
    void decodeOnTwoCores(std::uint64_t offset);
    std::size_t readLz4(std::uint8_t* dst, std::size_t n);
    std::size_t readInflated(std::uint8_t* dst, std::size_t n);
    std::size_t readStored(std::uint8_t* dst, std::size_t n);
    void seekCompressed(std::uint64_t offset);
    void skip(std::uint64_t n);

    std::shared_ptr<const PakIndex> pak_;
    const PakEntry& entry_;
    EntryStream s_;
    std::unique_ptr<ReadPipeline> lz4_;  // LZ4 entries: the stages, read from the start
    WholeInflate whole_;
    ZlibInflate zlib_;
    IsalInflate isal_;
    bool wholeTried_ = false;
    bool seeked_ = false;       // a compressed entry was seeked
    bool isalRefused_ = false;  // ISA-L rejected something: zlib decodes from then on
    bool adlerChecked_ = false;
    bool onTwoCores_ = false;
};

// The whole content of an entry by the plain reader: no gbx pipeline, no node reads mixed into
// the cipher (right for plain files and for gbx files whose node reads do not mix it).
// `unverified`: as ReadRequest's.
Bytes readPlainEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     bool unverified = false);

}  // namespace pakfs::archive
