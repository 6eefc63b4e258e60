// SPDX-License-Identifier: GPL-2.0-or-later
// checkPak: every whole entry decoded and counted by its proof: a gbx entry by its decode's kind,
// a plain one by the checksum covering it (Adler-32, slot MD5, contents checksum) or why none.
#include "archive/ops/Check.hpp"

#define CRYPTOPP_ENABLE_NAMESPACE_WEAK 1
#include <crypto++/md5.h>

#include <numeric>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
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

// Version 14+: whether the entry's slot (its IV, data and zero padding to a multiple of 64;
// the row's slot size from version 17) has the MD5 its file table row gives (doc/FORMAT.md
// §3.2). A slot that does not fit in the file does not.
bool slotMd5Matches(const PakIndex& pak, const PakEntry& e) {
    if (!e.slotMd5) return false;
    const std::uint64_t size =
        e.slotSize ? *e.slotSize : (e.ivSize() + e.cipherSize() + 63) & ~std::uint64_t(63);
    const std::uint64_t at = pak.entryOffset(e), fileSize = pak.file()->size();
    if (at > fileSize || size > fileSize - at) return false;
    CryptoPP::Weak::MD5 hash;
    Bytes buf;
    for (std::uint64_t done = 0; done < size;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(1 << 20, size - done));
        buf = pak.file()->readAt(at + done, n);
        hash.Update(buf.data(), n);
        done += n;
    }
    Md5Digest d;
    hash.Final(d.data());
    return d == *e.slotMd5;
}

// Why no checksum covers the bytes of a plain entry (not gbx, not counter mode) read whole from
// its start; empty when one does: zlib's Adler-32 (`adlerChecked`: the stream ended with it),
// else (version 14+) the slot's MD5, else (version 6+, no slot MD5) the contents checksum.
// Where a slot has an MD5, it decides: a commit copies unchanged slots with their MD5s under
// a new contents checksum without reading them through (doc/FORMAT.md §3.3), so a slot damaged
// in its base fails only its MD5. An empty entry has no bytes to cover.
std::string plainUnverifiedReason(const PakIndex& pak, const PakEntry& e, bool adlerChecked) {
    if (e.uncompressedSize == 0 || adlerChecked) return "";
    if (pak.version() >= 6 && (e.slotMd5 ? slotMd5Matches(pak, e) : pak.contentsChecksumMatches()))
        return "";
    std::string why = e.codec == EntryCodec::Zlib  ? "its zlib stream has no end (no Adler-32)"
                      : e.codec == EntryCodec::Lz4 ? "LZ4-compressed"
                                                   : "stored";
    why += ", no checksum covers its bytes";
    if (pak.version() >= 6)
        why += !e.slotMd5                      ? " (the contents checksum does not match)"
               : pak.contentsChecksumMatches() ? " (its slot MD5 does not match)"
                                               : " (neither the contents checksum nor its slot "
                                                 "MD5 matches)";
    return why;
}

// Reads a plain entry whole, only to show that it decodes to its size; returns why no
// checksum covers its bytes (plainUnverifiedReason).
std::string readPlainToEnd(const std::shared_ptr<const PakIndex>& pak, const PakEntry& e) {
    PlainEntryReader reader(pak, e);
    std::vector<std::uint8_t> buf(
        std::size_t(std::min<std::uint64_t>(e.uncompressedSize, 1 << 18)));
    std::uint64_t n = 0;
    while (reader.position() < reader.size()) {
        const std::size_t got = reader.read(buf.data(), buf.size());
        if (got == 0) break;
        n += got;
    }
    if (n != e.uncompressedSize) throw Error(pak->name() + ": " + e.path + ": size mismatch");
    return plainUnverifiedReason(*pak, e, reader.adlerChecked());
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
        item.unverified = readPlainToEnd(pak, e);
        ++r.plain;
        if (!item.unverified.empty()) ++r.plainUnverified;
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
