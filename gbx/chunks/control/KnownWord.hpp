// SPDX-License-Identifier: GPL-2.0-or-later
// Internal to the control and card readers: a word no source explains, read under the rule
// doc/FORMAT.md §7.7 gives for layouts read from ManiaPlanet's dedicated.pak alone.
#pragma once

#include <initializer_list>

#include "gbx/chunks/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

// Reads a u32 whose value in every file of dedicated.pak is one of `known`; another value
// stops the reader naming `what` and the offset, as it may be a count, a node reference or a
// form no file shows. The chunk and class are named by the reader around it.
inline std::uint32_t knownWord(NodeReader& r, std::initializer_list<std::uint32_t> known,
                               const std::string& what) {
    std::uint64_t at = r.position();
    std::uint32_t v = r.u32();
    std::string list;
    for (std::uint32_t k : known) {
        if (v == k) return v;
        list += (list.empty() ? "" : " or ") + hex32(k);
    }
    r.fail(what + " at " + num(at) + " is " + hex32(v) + ", only " + list +
           " is known (no source describes it)");
}

}  // namespace pakfs::gbx::chunks
