// SPDX-License-Identifier: GPL-2.0-or-later
// The ManiaPlanet pack of ../shared/fixtures/real-mp and its base key, read from that folder's
// README (the project holds no game's keys).
#pragma once

#include <filesystem>
#include <regex>
#include <string>

#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

namespace pakfs::test {

// dedicated.pak (the test is skipped, with the reason, when the fixtures are absent).
inline std::filesystem::path dedicatedPak() {
    return sharedDir("fixtures/real-mp") / "dedicated.pak";
}

// The base key the README gives for pack "dedicated": the first 32 hex digits in backquotes
// after the words "base key". Fails the test when the README says no such thing.
inline std::string dedicatedBaseKey() {
    const Bytes b = readFile(sharedDir("fixtures/real-mp") / "README.md");
    const std::string text(b.begin(), b.end());
    std::smatch m;
    static const std::regex kKey("base key[^`]*`([0-9A-Fa-f]{32})`");
    if (!std::regex_search(text, m, kKey))
        throw std::runtime_error("fixtures/real-mp/README.md gives no base key in backquotes");
    return m[1].str();
}

}  // namespace pakfs::test
