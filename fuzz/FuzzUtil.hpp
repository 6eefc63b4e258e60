// SPDX-License-Identifier: GPL-2.0-or-later
// Shared by the fuzz targets: the fixed key, a scratch file for APIs that open a path, the
// reader that turns fuzz bytes into choices, and the rule that input problems must surface as
// pakfs::Error (anything else escapes and is a crash).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "archive/cipher/Crypto.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "common/Bytes.hpp"
#include "common/Error.hpp"

namespace pakfs::fuzz {

// The fuzz bytes taken in order as choices; past their end, zeros and empty strings.
class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    bool done() const { return at_ >= size_; }
    std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
    std::string bytes(std::size_t n) {
        n = std::min(n, size_ - std::min(at_, size_));
        std::string s(reinterpret_cast<const char*>(data_ + at_), n);
        at_ += n;
        return s;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

inline archive::PakKey fuzzKey() {
    archive::PakKey k{};
    for (int i = 0; i < 16; ++i) k[std::size_t(i)] = std::uint8_t(0x3C + i * 7);
    return k;
}

// A file in /dev/shm (or /tmp) rewritten for every input, for APIs that open a path; removed
// at exit (libFuzzer ends with exit()).
inline const std::string& scratchPath() {
    // Never destroyed: the exit handler still needs it after static destructors ran.
    static const std::string* path = [] {
        const char* dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        auto* p = new std::string(std::string(dir) + "/pakfs-fuzz-" + std::to_string(::getpid()) +
                                  ".pak");
        std::atexit([] { ::unlink(scratchPath().c_str()); });
        return p;
    }();
    return *path;
}

inline void writeScratch(ByteSpan data) {
    int fd = ::open(scratchPath().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) std::abort();
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n <= 0) std::abort();
        done += std::size_t(n);
    }
    ::close(fd);
}

// Opens the scratch file as a pak with `key` and decodes up to 16 of its entries; any Error
// (the expected outcome of most inputs) is swallowed, anything else is a finding.
inline void openAndDecodeScratch(const archive::PakKey& key) {
    try {
        auto pak = archive::PakIndex::open(scratchPath(), key);
        std::size_t n = 0;
        for (const auto& e : pak->entries()) {
            if (++n > 16) break;
            try {
                archive::readEntry(pak, e);
            } catch (const Error&) {
            }
        }
    } catch (const Error&) {
    }
}

}  // namespace pakfs::fuzz
