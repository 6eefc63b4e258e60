// SPDX-License-Identifier: GPL-2.0-or-later
// Writes a pak for a test and hands back the warnings the writer gave (a gbx file planned from
// the node scan warns), for the tests that assert there are none, or exactly which.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "archive/write/PakWriter.hpp"

namespace pakfs::test {

inline std::vector<std::string> packWarnings(const std::filesystem::path& tree,
                                             const std::filesystem::path& pak,
                                             const archive::PakKey& key,
                                             archive::PackOptions options) {
    std::vector<std::string> warnings;
    options.warn = [&](const std::string& w) { warnings.push_back(w); };
    archive::writePak(tree, pak, key, options);
    return warnings;
}

}  // namespace pakfs::test
