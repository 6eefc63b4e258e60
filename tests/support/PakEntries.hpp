// SPDX-License-Identifier: GPL-2.0-or-later
// A pak's entry found by its path: findEntry when a test asks whether it is there, entryAt
// when the test needs it there.
#pragma once

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "archive/pak/PakIndex.hpp"

namespace pakfs::test {

// The entry of `pak` at `path`, or nullptr when it holds none.
inline const archive::PakEntry* findEntry(const archive::PakIndex& pak, const std::string& path) {
    for (const auto& e : pak.entries())
        if (e.path == path) return &e;
    return nullptr;
}

// The entry of `pak` at `path`; a test failure when it holds none.
inline const archive::PakEntry& entryAt(const archive::PakIndex& pak, const std::string& path) {
    if (const archive::PakEntry* e = findEntry(pak, path)) return *e;
    FAIL("no entry " << path);
    throw std::logic_error("unreachable");
}

}  // namespace pakfs::test
