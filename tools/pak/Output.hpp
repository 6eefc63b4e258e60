// SPDX-License-Identifier: GPL-2.0-or-later
// What the pak commands print on stderr besides errors: warnings and the progress line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/Bytes.hpp"
#include "common/Progress.hpp"

namespace pakfs::cli {

// "pak: warning: <message>" on stderr.
void warn(const std::string& message);

// A path as a line of output shows it: as it is, unless it holds a control character (a
// newline would split the line), then as the shell's $'...' form ($'a\nb.txt'), which a shell
// reads back as the path.
std::string shownPath(const std::string& path);

// Writes all of `data` to `fd`; throws Error "<what>: write error: <reason>".
void writeAll(int fd, ByteSpan data, const std::string& what);

// Whether a command draws a progress line: on a terminal, unless -q was given.
bool progressShown(bool quiet);

// The progress line of a command whose library call reports entries and bytes done of the
// totals (PackOptions::progress, CheckOptions::progress): made on the first report, finished
// when every entry is done.
class Progress {
public:
    using Callback = std::function<void(std::size_t, std::size_t, std::uint64_t, std::uint64_t)>;
    explicit Progress(bool quiet) : shown_(progressShown(quiet)) {}
    Progress(const Progress&) = delete;  // the callback points at this one
    Progress& operator=(const Progress&) = delete;
    // The callback to hand to the library, valid while this object lives; empty when no line
    // is shown (the library then does not count bytes for it).
    Callback callback();

private:
    bool shown_;
    std::unique_ptr<ProgressLine> line_;
};

}  // namespace pakfs::cli
