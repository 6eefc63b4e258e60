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

// The command a message suggests, as printed: the text after `lead` up to `end` (empty when
// the message holds no `lead`).
inline std::string suggestedCommand(const std::string& message, const std::string& lead,
                                    const std::string& end = "\n") {
    const std::size_t at = message.find(lead);
    if (at == std::string::npos) return {};
    const std::size_t from = at + lead.size();
    return message.substr(from, message.find(end, from) - from);
}

#ifdef PAKFS_PAK_BINARY
// Runs `command` as a user runs one a message printed: through the shell, from `folder`, with
// the pak and pakfs just built first on PATH.
inline RunResult runAsPrinted(const std::string& command, const std::filesystem::path& folder) {
    const std::string bin = std::filesystem::path(kPak).parent_path().string();
    return run("cd " + q(folder) + " && PATH=" + q(bin) + ":\"$PATH\" && " + command);
}
#endif

// The names in folder `dir` (not below it).
inline std::set<std::string> namesIn(const std::filesystem::path& dir) {
    std::set<std::string> out;
    for (const auto& item : std::filesystem::directory_iterator(dir))
        out.insert(item.path().filename());
    return out;
}

}  // namespace pakfs::test
