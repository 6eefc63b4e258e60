// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/entry/Check.hpp"

#include <numeric>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"

namespace pakfs::archive {

std::size_t CheckReport::gbxTotal() const {
    return std::accumulate(gbx.begin(), gbx.end(), std::size_t(0));
}

std::size_t CheckReport::undecodable() const {
    return failed - gbxCount(GbxDecodeKind::Refused) - counterUnverified - incomplete;
}

namespace {

// Reads `e` whole, only to show that it decodes to its size.
void readToEnd(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e,
               const GbxDecodeOptions& options = {}) {
    std::uint64_t n = 0;
    readEntry(
        pak, e, [&](ByteSpan b) { n += b.size(); }, options);
    if (n != e.uncompressedSize) throw Error(pak->name() + ": " + e.path + ": size mismatch");
}

// Checks one whole entry into `item`, counting it in `r`; throws when it cannot be read.
void checkEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e, CheckReport& r,
                CheckedEntry& item) {
    if (e.counterMode) {
        GbxDecodeOptions allow;
        allow.unverified = true;  // decoded to show that it decodes; proof is the kind
        readToEnd(pak, e, allow);
        const bool proven = counterModeProven(e);
        ++(proven ? r.counterProven : r.counterUnverified);
        if (!proven) ++r.failed;
        item.gbx = isGbxEntry(*pak, e);
        item.counterMode = true;
        item.decode = counterModeKind(e);
        item.detail = counterModeDetail(e);
        return;
    }
    item.gbx = isGbxEntry(*pak, e);
    if (*item.gbx) {
        GbxDecode d = decodeGbxEntryProven(pak, e);
        ++r.gbx[std::size_t(d.kind)];
        item.decode = gbxDecodeKindName(d.kind);
        item.detail = d.detail;
        if (d.kind == GbxDecodeKind::Refused) ++r.failed;
    } else {
        readToEnd(pak, e);
        ++r.plain;
    }
}

}  // namespace

CheckReport checkPak(const std::shared_ptr<const PakIndex>& pak, const CheckOptions& options) {
    CheckReport r;
    r.files = pak->entries().size();
    std::uint64_t totalBytes = 0, bytesDone = 0;
    for (const auto& e : pak->entries()) totalBytes += e.uncompressedSize;
    std::size_t done = 0;
    for (const auto& e : pak->entries()) {
        CheckedEntry item;
        item.path = e.path;
        if (!pak->whole(e)) {
            ++r.failed;
            ++r.incomplete;
            item.incomplete = true;
            item.error = pak->incompleteMessage(e);
        } else {
            try {
                checkEntry(pak, e, r, item);
            } catch (const Error& err) {
                ++r.failed;
                item.error = err.what();
            }
            bytesDone += e.uncompressedSize;
        }
        if (options.checked) options.checked(item);
        r.entries.push_back(std::move(item));
        if (options.progress) options.progress(++done, r.files, bytesDone, totalBytes);
    }
    if (r.files == 0 && options.progress) options.progress(0, 0, 0, 0);
    return r;
}

}  // namespace pakfs::archive
