// SPDX-License-Identifier: GPL-2.0-or-later
// SourceReader's checked reads: counts and lengths against what is left (or a blind-allocation
// cap when the source cannot tell), strings, byte blocks and skips.
#include "gbx/SourceReader.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace pakfs::gbx {

void SourceReader::require(std::uint64_t n, std::string_view what) const {
    auto left = src_->remaining();
    if (left ? n > *left : n > kMaxBlindAllocation)
        throw TruncatedError(std::string(what) + " at offset " + std::to_string(position()) +
                             " needs " + std::to_string(n) + " bytes but " +
                             (left ? "only " + std::to_string(*left) + " are left"
                                   : "that is more than a reader allocates blindly"));
}

std::uint32_t SourceReader::count(std::uint64_t minElementSize, std::string_view what) {
    std::uint32_t n = u32();
    auto left = src_->remaining();
    if (left && std::uint64_t(n) * minElementSize > *left)
        throw TruncatedError("count " + std::to_string(n) + " of " + std::string(what) +
                             " at offset " + std::to_string(position() - 4) + " needs at least " +
                             std::to_string(std::uint64_t(n) * minElementSize) +
                             " bytes but only " + std::to_string(*left) + " are left");
    return n;
}

Bytes SourceReader::bytes(std::uint64_t n, std::string_view what) {
    require(n, what);
    Bytes out(n);
    src_->read(out);
    return out;
}

std::string SourceReader::string(std::string_view what) {
    std::uint32_t len = u32();
    require(len, what);
    std::string s(len, '\0');
    src_->read({reinterpret_cast<std::uint8_t*>(s.data()), s.size()});
    return s;
}

void SourceReader::skip(std::uint64_t n, std::string_view what) {
    if (auto left = src_->remaining(); left && n > *left) require(n, what);
    std::array<std::uint8_t, 4096> buf;
    while (n > 0) {
        std::size_t step = std::size_t(std::min<std::uint64_t>(n, buf.size()));
        src_->read({buf.data(), step});
        n -= step;
    }
}

}  // namespace pakfs::gbx
