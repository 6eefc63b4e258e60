// SPDX-License-Identifier: GPL-2.0-or-later
#include "tools/pak/Output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/Error.hpp"

namespace pakfs::cli {

void warn(const std::string& message) {
    std::fprintf(stderr, "pak: warning: %s\n", message.c_str());
}

void writeAll(int fd, ByteSpan data, const std::string& what) {
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    while (n > 0) {
        ssize_t put = ::write(fd, p, n);
        if (put < 0) {
            if (errno == EINTR) continue;
            throw Error(what + ": write error: " + std::strerror(errno));
        }
        p += put;
        n -= std::size_t(put);
    }
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
