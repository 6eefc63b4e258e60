// SPDX-License-Identifier: GPL-2.0-or-later
// What the strategies reading one plain entry share: its plain bytes, the position, its points.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "archive/pak/PakIndex.hpp"
#include "archive/stream/DecryptStage.hpp"
#include "archive/stream/ReadTuning.hpp"
#include "archive/stream/SeekPoints.hpp"

namespace pakfs::archive {

// One entry's compressed stream (or stored bytes) as PlainEntryReader's strategies take turns on
// it: the decrypt stage they all read through, and how far the output has come.
struct EntryStream {
    EntryStream(const PakIndex& pak, const PakEntry& entry, std::shared_ptr<SeekIndex> index,
                bool recordPoints, const ReadTuning& tuning)
        : pak(pak),
          entry(entry),
          index(std::move(index)),
          recordPoints(recordPoints),
          tuning(tuning),
          stage(pak, entry) {}

    const PakIndex& pak;
    const PakEntry& entry;
    // Seek points looked up (and added to when `recordPoints`); null: none.
    const std::shared_ptr<SeekIndex> index;
    const bool recordPoints;
    const ReadTuning tuning;
    DecryptStage stage;
    std::uint64_t produced = 0;  // output handed on: the position
    std::uint64_t decoded = 0;   // output decoded, skipped bytes included
    // Resumed from a seek point (or started past the zlib header): no trailer to check.
    bool rawInflate = false;

    std::string where() const { return pak.name() + ": " + entry.path; }
    // The compressed bytes left in the stage's chunk, at stage.at() (decrypting the next chunk
    // when it is used up); sets zlibLeft to the compressed bytes not yet read. Only they feed an
    // inflater: the padding after them is not part of the stream.
    std::size_t compressedAvail(std::uint64_t& zlibLeft) {
        if (stage.left() == 0) stage.decryptMore();
        const std::uint64_t consumed = stage.nextOffset();
        zlibLeft = entry.compressedSize > consumed ? entry.compressedSize - consumed : 0;
        return std::size_t(std::min<std::uint64_t>(stage.left(), zlibLeft));
    }
    // Whether the input is used up (feedless inflater: truncated or at its end).
    bool inputEnded(std::size_t avail, std::uint64_t zlibLeft) const {
        return avail == 0 && (zlibLeft == 0 || stage.ended());
    }
    // The point's window, inflated into dst (kInflateWindow bytes); throws Error naming the
    // entry when it is damaged, DamagedWindowError when it was read from an index file (the
    // point is then dropped from the index: resume at the one before).
    void windowOf(const SeekPoint& point, std::uint8_t* dst) const;
    // Sets the output at the point and the stage at its compressed offset; returns the bits of
    // the byte before it still to be fed (its high point.bits bits; 0 when none).
    unsigned startAtPoint(const SeekPoint& point);
};

}  // namespace pakfs::archive
