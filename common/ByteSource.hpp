// SPDX-License-Identifier: GPL-2.0-or-later
// The interface readers take their bytes from, read strictly in file order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/Bytes.hpp"

namespace pakfs {

// What a read past the end says (after the source's name, where it has one).
inline std::string readPastEndMessage(std::uint64_t position, std::size_t wanted,
                                      std::uint64_t left) {
    return "unexpected end of data at offset " + std::to_string(position) + " (wanted " +
           std::to_string(wanted) + " bytes, " + std::to_string(left) + " left)";
}

// Where a reader takes its bytes from (gbx readers, the pak header and metadata readers). The
// pak pipeline implements it over the decrypt and inflate stages, so every read must ask for
// exactly the bytes the format needs, in file order: the moment a byte is first asked for
// decides which cipher state decodes it.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Reads exactly dst.size() bytes or throws TruncatedError.
    virtual void read(std::span<std::uint8_t> dst) = 0;
    // Bytes consumed so far (offset in the gbx file).
    virtual std::uint64_t position() const = 0;
    // Bytes left when the total is known; readers check counts against it before allocating.
    virtual std::optional<std::uint64_t> remaining() const = 0;
};

// A gbx file held in memory.
class MemorySource final : public ByteSource {
public:
    explicit MemorySource(ByteSpan data) : data_(data) {}
    void read(std::span<std::uint8_t> dst) override {
        if (dst.size() > data_.size() - pos_)
            throw TruncatedError(readPastEndMessage(pos_, dst.size(), data_.size() - pos_));
        if (dst.empty()) return;  // an empty span may have a null pointer
        std::memcpy(dst.data(), data_.data() + pos_, dst.size());
        pos_ += dst.size();
    }
    std::uint64_t position() const override { return pos_; }
    std::optional<std::uint64_t> remaining() const override { return data_.size() - pos_; }

private:
    ByteSpan data_;
    std::size_t pos_ = 0;
};

// Passes reads through to another source and appends every byte handed out to `copy`: what was
// read, in order (a gbx entry's content as its parser asked for it, an uncompressed body).
class TeeSource final : public ByteSource {
public:
    TeeSource(ByteSource& inner, Bytes& copy) : inner_(inner), copy_(copy) {}
    void read(std::span<std::uint8_t> dst) override {
        inner_.read(dst);
        copy_.insert(copy_.end(), dst.begin(), dst.end());
    }
    std::uint64_t position() const override { return inner_.position(); }
    std::optional<std::uint64_t> remaining() const override { return inner_.remaining(); }

private:
    ByteSource& inner_;
    Bytes& copy_;
};

}  // namespace pakfs
