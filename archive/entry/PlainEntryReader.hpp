// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a plain entry's bytes (stored, zlib, LZ4, counter mode) and the tuning of its strategies.
#pragma once

#include <zlib.h>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "archive/entry/SeekPoints.hpp"
#include "archive/entry/SpareBuffer.hpp"
#include "archive/pak/PakIndex.hpp"

struct inflate_state;  // ISA-L (isa-l/igzip_lib.h)

namespace pakfs::archive {

// zlib entries up to this many bytes (64 MiB by default) that are read from their start inflate
// whole with libdeflate; larger ones stream through ISA-L. Tests lower it to reach the streaming
// path with small entries. Returns the previous limit; readers created after the call use it.
std::uint64_t setWholeInflateLimit(std::uint64_t bytes);
// A mount's reader sent from an entry's start at least this far into a zlib entry (16 MiB by
// default) decodes on two cores (SpeculativeInflate.hpp). Tests lower it; returns the previous.
std::uint64_t setTwoCoresMin(std::uint64_t bytes);
// Tests: such a reader waits for the other thread's guess of a block start instead of going on
// alone when it has none yet (so that the two-core path runs however busy the machine), and for
// its points to be in the index before it reads on.
void setTwoCoresWait(bool wait);
// The CPUs the mount's readers count on: with fewer than two they neither decrypt ahead on
// another thread nor decode on two cores (the threads would take turns on one CPU: a first read
// took 1.1x the sequential decode). By default (0) availableCpus() (common/Cpus.hpp). Tests set
// it; returns the previous value.
int setUsableCpus(int cpus);
// What readers count on now (see setUsableCpus).
int usableCpus();

// Version 6+ entries encrypted in counter mode (PakEntry::counterMode). Nothing in the file
// table covers their plaintext (the v14+ slot MD5 covers the ciphertext), so only zlib's
// Adler-32 proves a decode; stored and LZ4 ones are read only when unverified bytes are asked
// for (--unverified, -o unverified).
bool counterModeProven(const PakEntry& entry);
// The kind `pak ls -l`, `pak check` and the mount's user.pak.cipher show: "counter" (zlib's
// Adler-32 proves it) or "counter:unverified".
const char* counterModeKind(const PakEntry& entry);
// How a counter-mode entry's bytes stand, for a line after "pak: path: ".
std::string counterModeDetail(const PakEntry& entry);

// Reads a plain (non-gbx) entry: bulk CBC and large inflate steps, no parser, no ivXor.
// Sequential reads stream; seek() jumps, using `index` for compressed entries (and adding
// points to it as it decodes). A read that reaches the end of a stream decoded from its start
// also checks zlib's checksum, so a damaged entry is an error, never wrong bytes (not a reader
// that resumed at a seek point, or that was sent into the entry before its first read).
// Inflaters: a zlib entry read from its start without an index decodes whole with libdeflate
// up to setWholeInflateLimit's size and streams through ISA-L above it (also with an index it
// does not record into); seeks, readers recording seek points and everything either of them
// rejects use zlib (whose errors are the ones reported).
// Construction does no I/O; the inflate state and buffers are reused from the last reader that
// the thread destroyed, since extraction opens one reader per entry. One per open file.
class PlainEntryReader {
public:
    // `recordPoints` false: `index` is only looked up (another pass fills it), and a read from
    // the start may stream through ISA-L as without an index.
    // `unverified`: a counter-mode entry nothing proves is read (see unproven()) instead of
    // refused with an Error naming the pak, the entry and the options that read it.
    PlainEntryReader(std::shared_ptr<const PakIndex> pak, const PakEntry& entry,
                     std::shared_ptr<SeekIndex> index = nullptr, bool recordPoints = true,
                     bool unverified = false);
    ~PlainEntryReader();
    PlainEntryReader(const PlainEntryReader&) = delete;
    PlainEntryReader& operator=(const PlainEntryReader&) = delete;

    // Positions the reader at `offset` (<= size). Cheap for stored entries; for compressed
    // ones it resumes at the nearest seek point at or before `offset`, or keeps decoding from
    // the current position when that is nearer, and decodes forward to `offset`.
    void seek(std::uint64_t offset);
    // Fills dst with the next bytes; returns fewer only at the end of the entry.
    std::size_t read(std::uint8_t* dst, std::size_t n);
    std::uint64_t position() const { return produced_; }
    // Whether a seek to `offset`, ahead of the position, would resume at a seek point past the
    // position (nearer than decoding on from here).
    bool seekResumesNearer(std::uint64_t offset) const;
    std::uint64_t size() const { return entry_.uncompressedSize; }
    // Whether the bytes come from a counter-mode decode nothing proves (only when constructed
    // with `unverified`): callers say so (counterModeDetail).
    bool unproven() const { return entry_.counterMode && !counterModeProven(entry_); }
    // Whether a compressed entry was decoded from its start to the end of its zlib stream, so
    // that the stream's Adler-32 was checked (not for a stream that stops without an end, nor
    // for a reader resumed at a seek point).
    bool adlerChecked() const { return adlerChecked_; }
    // Bytes decoded so far, including skipped ones (for tests and statistics).
    std::uint64_t decodedBytes() const { return decoded_; }
    // Whether ISA-L is streaming this entry (for tests): it starts with the first read and is
    // left for zlib on a seek or on anything it does not accept.
    bool streamsWithIsal() const { return isal_ != nullptr; }

private:
    void startCipherAt(std::uint64_t plainOffset);
    void decryptMore();
    // `n` bytes of ciphertext at `offset` decrypted into buf + 8 (buf's first 8 bytes take the
    // chaining block); not for version 12+ mixed chaining. Safe on another thread.
    void decryptAt(std::uint8_t* buf, std::uint64_t offset, std::size_t n) const;
    // Pipelined readers: the next chunk from the pieces decrypted ahead (Ahead), its size;
    // dropAhead forgets them (after a jump), stopAhead ends the thread.
    std::size_t takeAhead();
    // Starts the thread decrypting ahead once; false when this reader decrypts on its own
    // (not pipelined, or no memory for the pieces).
    bool startAhead();
    // Claims the next piece ahead and decrypts it (the lock is let go meanwhile).
    void decryptNext(std::unique_lock<std::mutex>& lock);
    // Gives the thread decrypting ahead work for when it has nothing to decrypt, a step per
    // call until it returns false (replacing any it had).
    void giveIdleWork(std::function<bool()> work);
    // Ends the idle work decodeOnTwoCores gave the thread decrypting ahead, waiting for a step
    // that runs.
    void takeBackIdleWork();
    // Waits until that thread has done its idle work (tests: setTwoCoresWait).
    void waitIdleWork();
    void dropAhead();
    void stopAhead();
    void aheadLoop();
    struct AheadPiece;
    void decryptPiece(AheadPiece& piece) const;
    // zlib from `point` (nullptr: the entry's start); a point whose window in an index file is
    // damaged is dropped and the one before it taken (windowOf).
    void restartInflate(const SeekPoint* point);
    // Starts ISA-L at `point` (raw deflate, its window as the dictionary); false leaves zlib in
    // charge.
    bool resumeIsal(std::shared_ptr<const SeekPoint> point);
    // The point's window, inflated into dst (kInflateWindow bytes); throws Error naming the
    // entry when it is damaged.
    void windowOf(const SeekPoint& point, std::uint8_t* dst) const;
    void skip(std::uint64_t n);
    // A reader at the start of a zlib entry sent far into it: decodes on two cores
    // (SpeculativeInflate.hpp) and leaves the reader at a proven seek point before `offset`,
    // or at `offset`; false when it did not apply or gave up (the reader is then somewhere
    // before `offset`, in a valid state).
    bool decodeOnTwoCores(std::uint64_t offset);
    // ISA-L on until the compressed stream is taken up to byte `limit` or the output reaches
    // `until`, in steps of up to kIsalStep bytes written to `out`, the output sliding through
    // `window`; false when ISA-L gave up (zlib took over).
    bool isalUpTo(std::uint64_t limit, std::uint64_t until, std::uint8_t* window,
                  std::uint8_t* out);
    // Whether ISA-L stands between two deflate blocks, the next starting at stream bit `bit`.
    bool isalStopsAt(std::uint64_t bit) const;
    std::size_t inflateSome(std::uint8_t* dst, std::size_t n);
    void maybeRecordPoint();
    void checkTrailer();
    // Fast path for a zlib entry read from its start: the whole stream decrypted and inflated
    // in one call (libdeflate); false leaves the zlib path in charge (and its errors).
    bool decodeWhole();
    // Streaming fast path for zlib entries too large for decodeWhole, read from their start.
    void startIsal();
    std::size_t isalSome(std::uint8_t* dst, std::size_t n);
    void isalTrailer();
    // Gives the ISA-L state back; `resume` then decodes again with zlib up to where ISA-L got,
    // so that zlib accepts exactly what it always did and reports what is wrong in its words.
    void leaveIsal(bool resume);
    // Offset in the entry's plaintext (the compressed stream) of the next byte to hand on.
    std::uint64_t nextPlainOffset() const;
    // The compressed bytes left in the current chunk, at chunkAt() (decrypting the next chunk
    // when it is used up); returns how many, and sets zlibLeft to the compressed bytes not yet
    // read. feedZlib hands them to zlib.
    std::size_t compressedAvail(std::uint64_t& zlibLeft);
    std::size_t feedZlib(std::uint64_t& zlibLeft);
    // Version 12+ chaining: brings chainIv_ to the chaining value of the ciphertext block at
    // `offset` (computed from the ciphertext alone, from the IV when going back).
    void advanceChainTo(std::uint64_t offset);
    std::size_t chunkLeft() const { return chunkLen_ - chunkPos_; }
    // The chunk's bytes: the piece decrypted ahead being read (in place), else chunk_.
    std::uint8_t* chunkBase();
    // Null before any chunk was decrypted (an entry of no ciphertext has none).
    std::uint8_t* chunkAt() {
        std::uint8_t* base = chunkBase();
        return base ? base + 8 + chunkPos_ : nullptr;
    }
    std::string where() const;

    std::shared_ptr<const PakIndex> pak_;
    const PakEntry& entry_;
    std::shared_ptr<SeekIndex> index_;
    const Blowfish* cipher_ = nullptr;        // null: the entry is stored in the clear
    std::optional<std::uint64_t> counterIv_;  // counter mode: the slot's IV, once read
    std::uint64_t chainIv_ = 0;               // version 12+: chaining value at chainAt_
    std::uint64_t chainAt_ = 0;
    bool chainKnown_ = false;
    // Version 12+: chaining values every kChainMarkSpan bytes of ciphertext walked so far, so a
    // seek back does not walk from the IV again.
    std::vector<std::uint64_t> chainMarks_;
    std::unique_ptr<class ReadPipeline> lz4_;  // LZ4 entries: the stages, read from the start
    std::uint64_t cipherOffset_ = 0;           // ciphertext bytes decrypted so far (block aligned)
    std::uint64_t cipherSize_ = 0;
    SpareBuffer chunk_;            // the chaining block, then the decrypted chunk
    std::size_t chunkLen_ = 0;     // decrypted bytes in chunk_ after the chaining block
    std::size_t chunkPos_ = 0;     // of them, handed on
    std::size_t nextChunk_ = 0;    // ciphertext to decrypt in the next step
    std::size_t pendingSkip_ = 0;  // bytes of the next decrypted chunk before the start point
    std::uint64_t produced_ = 0;
    std::uint64_t decoded_ = 0;
    z_stream* z_ = nullptr;  // compressed entries only
    bool zlibEnded_ = false;
    bool rawInflate_ = false;                // resumed from a seek point: no zlib header or trailer
    std::unique_ptr<std::uint8_t[]> whole_;  // the whole content, when decodeWhole ran
    bool wholeTried_ = false;
    bool recordPoints_ = true;
    bool seeked_ = false;            // a compressed entry was seeked: zlib from then on
    inflate_state* isal_ = nullptr;  // while ISA-L streams the entry
    // The point ISA-L resumed at (null: it started at the beginning); zlib restarts there
    // when ISA-L rejects something.
    std::shared_ptr<const SeekPoint> resumedFrom_;
    struct Ahead;
    std::unique_ptr<Ahead> ahead_;  // the chunks ahead, decrypted on another thread
    bool pipelined_ = false;
    bool isalRefused_ = false;  // ISA-L rejected something: zlib decodes from then on
    bool adlerChecked_ = false;
};

// The game's pipeline for an entry (Streams.hpp): its ciphertext, cipher, IV and codec.
struct PipelineSpec entryPipelineSpec(const PakIndex& pak, const PakEntry& entry);

// Whether the entry's content starts with "GBX" (decodes only its first segment).
bool isGbxEntry(const PakIndex& pak, const PakEntry& entry);

// The entry-kind decision of a reader that has the entry's first bytes (`head`, up to 3, as a
// plain read gave them): not "GBX" is plain, without a read of the first segment; "GBX" is
// gbx when isGbxEntry's exact rule says so (the "GBX" comes out of the first segment).
bool isGbxEntryHead(const PakIndex& pak, const PakEntry& entry, ByteSpan head);

// The whole content of an entry by the plain reader: no gbx pipeline, no node reads mixed into
// the cipher (right for plain files and for gbx files whose node reads do not mix it).
// `unverified`: as PlainEntryReader's.
Bytes readPlainEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     bool unverified = false);

}  // namespace pakfs::archive
