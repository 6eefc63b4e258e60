// SPDX-License-Identifier: GPL-2.0-or-later
// Running the pak binary from a test: its path, quoting for the shell, and what it leaves behind.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "tests/support/TestUtil.hpp"

namespace pakfs::test {

#ifdef PAKFS_PAK_BINARY
inline const std::string kPak = PAKFS_PAK_BINARY;
#endif

// `p` in single quotes, for a command line given to run().
inline std::string q(const std::filesystem::path& p) {
    return "'" + p.string() + "'";
}

inline std::string readText(const std::filesystem::path& p) {
    Bytes b = readFile(p);
    return std::string(b.begin(), b.end());
}

// The names in folder `dir` (not below it).
inline std::set<std::string> namesIn(const std::filesystem::path& dir) {
    std::set<std::string> out;
    for (const auto& item : std::filesystem::directory_iterator(dir))
        out.insert(item.path().filename());
    return out;
}

}  // namespace pakfs::test
