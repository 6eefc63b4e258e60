// SPDX-License-Identifier: GPL-2.0-or-later
// The ../shared fixtures folder for the tests that need it, and the skip when it is absent.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace pakfs::test {

// ctest treats this exit code as "skipped" (SKIP_RETURN_CODE on every discovered test).
inline constexpr int kSkipExitCode = 77;

// The ../shared folder (fixtures, vectors) beside the checkout. Tests that need it call this;
// when it is absent the test reports SKIPPED with the reason instead of passing silently.
inline std::filesystem::path sharedDir(const std::string& sub = {}) {
    std::filesystem::path dir = PAKFS_SHARED_DIR;
    if (const char* env = std::getenv("PAKFS_SHARED_DIR")) dir = env;
    std::filesystem::path full = sub.empty() ? dir : dir / sub;
    if (!std::filesystem::exists(full)) {
        std::printf("SKIPPED: %s is absent (the shared fixtures are not beside the checkout)\n",
                    full.string().c_str());
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
    return full;
}

}  // namespace pakfs::test
