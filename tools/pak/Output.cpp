// SPDX-License-Identifier: GPL-2.0-or-later
#include "tools/pak/Output.hpp"

#include <unistd.h>

#include <cstdio>

namespace pakfs::cli {

void warn(const std::string& message) {
    std::fprintf(stderr, "pak: warning: %s\n", message.c_str());
}

bool progressShown(bool quiet) {
    return !quiet && ::isatty(STDERR_FILENO);
}

Progress::Callback Progress::callback() {
    if (!shown_) return {};
    return
        [this](std::size_t done, std::size_t total, std::uint64_t bytes, std::uint64_t totalBytes) {
            if (!line_) line_ = std::make_unique<ProgressLine>(total, totalBytes);
            if (done == total)
                line_->finish(done, bytes);
            else
                line_->update(done, bytes);
        };
}

}  // namespace pakfs::cli
