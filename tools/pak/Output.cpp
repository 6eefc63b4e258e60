// SPDX-License-Identifier: GPL-2.0-or-later
// Warnings, the progress line, and how a path shows in a line of output.
#include "tools/pak/Output.hpp"

#include <algorithm>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/Error.hpp"

namespace pakfs::cli {

std::string shownPath(const std::string& path) {
    const auto control = [](unsigned char c) { return c < 0x20 || c == 0x7F; };
    if (std::none_of(path.begin(), path.end(), [&](char c) { return control(c); })) return path;
    std::string out = "$'";
    for (char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\\' || c == '\'')
            out += std::string("\\") + ch;
        else if (control(c)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else
            out += ch;
    }
    return out + "'";
}

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
