// SPDX-License-Identifier: GPL-2.0-or-later
// What the strategies reading one plain entry share.
#include "archive/stream/EntryStream.hpp"

namespace pakfs::archive {

void EntryStream::windowOf(const SeekPoint& point, std::uint8_t* dst) const {
    if (point.windowSize > kInflateWindow)
        throw Error(where() + ": damaged seek point (window of " +
                    std::to_string(point.windowSize) + " bytes)");
    try {
        point.windowBytes(dst);
    } catch (const DamagedWindowError& e) {
        // A window read from an index file (damaged or changed on disk since it was loaded):
        // the point is dropped and the seek resumes at the one before (PlainEntryReader::seek).
        // One in memory has no such excuse: an error.
        if (point.windowFile && index && index->drop(&point))
            throw DamagedWindowError(where() + ": " + e.what());
        throw Error(where() + ": " + e.what());
    } catch (const Error& e) {
        throw Error(where() + ": " + e.what());
    }
}

unsigned EntryStream::startAtPoint(const SeekPoint& point) {
    produced = point.out;
    if (!point.bits) {
        stage.startAt(point.in);
        return 0;
    }
    stage.startAt(point.in - 1);
    stage.decryptMore();
    if (stage.left() == 0) throw TruncatedError(where() + ": data ends early");
    const unsigned byte = *stage.at();
    stage.consume(1);
    return byte >> (8 - point.bits);
}

}  // namespace pakfs::archive
