// SPDX-License-Identifier: GPL-2.0-or-later
// Checking a pak: every entry decoded, and how each one's bytes are proven (or why not).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

// One entry as checked. What is set says how far the check got: `gbx` once it is known whether
// the entry is a gbx file, `decode` (with `detail`) once its bytes are proven or refused,
// `error` when it could not be read at all or (--salvage) its bytes are not all in the file.
struct CheckedEntry {
    std::string path;
    bool incomplete = false;  // not all its bytes in the file: `error` says where its data ends
    std::optional<bool> gbx;
    bool counterMode = false;  // decoded in counter mode (version 6+): `decode` is its kind
    std::string decode;  // a gbx decode kind (gbxDecodeKindName) or counterModeKind; empty: none
    std::string detail;  // with `decode`: how the bytes are proven, or why they are refused
    std::string error;   // empty: none
    // A plain entry that reads whole but whose bytes no checksum covers: why (e.g. "stored, no
    // checksum covers its bytes"); empty otherwise.
    std::string unverified;
};

struct CheckReport {
    std::size_t files = 0;  // entries in the pak
    std::size_t plain = 0;  // plain (not gbx, not counter-mode) entries read whole
    // Of them, those no checksum covers (read as any file; not counted as failed).
    std::size_t plainUnverified = 0;
    std::array<std::size_t, 6> gbx{};  // gbx entries by GbxDecodeKind
    // Counter-mode entries (gbx or not): proven by zlib's Adler-32, or decoded without proof
    // (counted as failed: cat, extract and the mount refuse them without --unverified).
    std::size_t counterProven = 0;
    std::size_t counterUnverified = 0;
    std::size_t failed = 0;             // refused, unverified, undecodable or incomplete
    std::size_t incomplete = 0;         // --salvage: not all bytes in the file
    std::vector<CheckedEntry> entries;  // in the pak's order

    std::size_t gbxCount(GbxDecodeKind kind) const { return gbx[std::size_t(kind)]; }
    std::size_t gbxTotal() const;
    // Entries that failed for a reason other than a refused gbx decode, an unverified counter-
    // mode decode or missing bytes.
    std::size_t undecodable() const;
};

struct CheckOptions {
    // After each entry: entries and bytes done of the totals (called once with zeros for a pak
    // without entries, so that a progress line is finished either way).
    std::function<void(std::size_t, std::size_t, std::uint64_t, std::uint64_t)> progress;
    // Each entry as soon as it is checked (the CLI prints its line then).
    std::function<void(const CheckedEntry&)> checked;
};

// Decodes every entry of `pak` as cat, extract and the mount would, without writing anything.
CheckReport checkPak(const std::shared_ptr<const PakIndex>& pak, const CheckOptions& options = {});

}  // namespace pakfs::archive
