// SPDX-License-Identifier: GPL-2.0-or-later
// Little-endian fields of a pak's header and metadata, every length checked before allocation.
#pragma once

#include <string>

#include "common/ByteSource.hpp"
#include "common/LittleEndian.hpp"

namespace pakfs::archive {

// Little-endian fields from a ByteSource, with every length checked against what is left
// before anything is allocated. Optionally keeps a copy of all bytes read (header MD5).
class FieldReader : public LittleEndianFields<FieldReader> {
public:
    FieldReader(ByteSource& source, std::string context, Bytes* record = nullptr)
        : source_(source), context_(std::move(context)), record_(record) {}

    void read(std::span<std::uint8_t> dst) {
        source_.read(dst);
        if (record_) record_->insert(record_->end(), dst.begin(), dst.end());
    }
    void bytes(std::span<std::uint8_t> dst) { read(dst); }
    // u32 length + bytes; the length must fit in what is left and under maxLength.
    std::string string(std::uint32_t maxLength = 0x10000) {
        std::uint64_t at = source_.position();
        std::uint32_t n = u32();
        if (n > maxLength) fail("string length " + std::to_string(n) + " is absurd", at);
        checkLeft(n, at);
        std::string s(n, '\0');
        bytes({reinterpret_cast<std::uint8_t*>(s.data()), n});
        return s;
    }
    // Checks that `count` items of at least `minItemSize` bytes can still follow.
    void checkCount(std::uint64_t count, std::uint64_t minItemSize, const char* what) {
        auto left = source_.remaining();
        if (left && count * minItemSize > *left)
            fail(std::string(what) + " count " + std::to_string(count) +
                     " does not fit in the remaining " + std::to_string(*left) + " bytes",
                 source_.position());
    }
    void checkLeft(std::uint64_t n, std::uint64_t at) {
        auto left = source_.remaining();
        if (left && n > *left)
            fail("length " + std::to_string(n) + " runs past the end of the data", at);
    }
    [[noreturn]] void fail(const std::string& what, std::uint64_t at) const {
        throw Error(context_ + ": " + what + " (at offset " + std::to_string(at) + ")");
    }
    std::uint64_t position() const { return source_.position(); }
    ByteSource& source() { return source_; }

private:
    ByteSource& source_;
    std::string context_;
    Bytes* record_;
};

}  // namespace pakfs::archive
