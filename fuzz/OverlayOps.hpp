// SPDX-License-Identifier: GPL-2.0-or-later
// The operation byte of fuzz_overlay_commit's input, as the target reads it and make_seeds
// writes its seeds: the low 3 bits say what is made, the high 3 bits all set (kAtTop) put it
// at the overlay's top instead of in the pack's folder.
#pragma once

#include <cstdint>

namespace pakfs::fuzz {

// What an operation makes, in the order of their values (0 to 7).
enum OverlayOp : std::uint8_t {
    kMkdir,        // a folder
    kFile,         // a file: small contents, or a base file's
    kWhiteout,     // a whiteout of the last name
    kOpaque,       // a folder with an opaque marker
    kLink,         // a symbolic link
    kRecord,       // the record file at the top, fuzzed text
    kLongName,     // a file, folder or pipe with a name of 200 to 300 bytes
    kSpecialName,  // a file, folder or pipe with a name the layout gives a meaning to
};
inline constexpr std::uint8_t kOpMask = 0x07;
inline constexpr std::uint8_t kAtTop = 0xE0;

}  // namespace pakfs::fuzz
