// SPDX-License-Identifier: GPL-2.0-or-later
// A progress line on a terminal's stderr, for the long commands.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace pakfs {

// A progress line on stderr for a terminal: files and bytes done of the total, and the rate
// (from half a second on), redrawn at most ten times a second. Safe to update from several threads.
class ProgressLine {
public:
    ProgressLine(std::size_t files, std::uint64_t bytes)
        : files_(files), bytes_(bytes), start_(Clock::now()) {}

    void update(std::size_t files, std::uint64_t bytes) {
        std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
        if (!lock) return;  // another thread is drawing it
        auto now = Clock::now();
        if (now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        draw(files, bytes, now);
    }
    // The final line, with a newline.
    void finish(std::size_t files, std::uint64_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        draw(files, bytes, Clock::now());
        std::fputc('\n', stderr);
    }

    // The line's text after `seconds`: "F/N files, B/T MB" and, once a rate means something,
    // ", R MB/s". A rate over less than half a second says nothing (the first files may come
    // from the page cache in microseconds), so until then the line shows none.
    static std::string text(std::size_t files, std::size_t totalFiles, std::uint64_t bytes,
                            std::uint64_t totalBytes, double seconds) {
        char line[128];
        int n = std::snprintf(line, sizeof line, "%zu/%zu files, %.1f/%.1f MB", files, totalFiles,
                              double(bytes) / 1e6, double(totalBytes) / 1e6);
        if (seconds >= kRateAfterSeconds && n > 0 && std::size_t(n) < sizeof line)
            std::snprintf(line + n, sizeof line - std::size_t(n), ", %.1f MB/s",
                          double(bytes) / 1e6 / seconds);
        return line;
    }
    static constexpr double kRateAfterSeconds = 0.5;

private:
    using Clock = std::chrono::steady_clock;
    void draw(std::size_t files, std::uint64_t bytes, Clock::time_point now) {
        const double s = std::chrono::duration<double>(now - start_).count();
        std::fprintf(stderr, "\r%s   ", text(files, files_, bytes, bytes_, s).c_str());
        std::fflush(stderr);
    }
    std::size_t files_;
    std::uint64_t bytes_;
    Clock::time_point start_;
    Clock::time_point last_{};
    std::mutex mutex_;
};

}  // namespace pakfs
