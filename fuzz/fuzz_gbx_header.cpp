// SPDX-License-Identifier: GPL-2.0-or-later
// The gbx header and reference table. The first byte picks the source: memory (sizes known)
// or a source that cannot tell what is left (as a pipe would), which takes the blind-allocation
// limits instead of the remaining-size checks.
#include "fuzz/FuzzUtil.hpp"
#include "gbx/Header.hpp"

using namespace pakfs;

namespace {

class BlindSource final : public gbx::ByteSource {
public:
    explicit BlindSource(ByteSpan data) : mem_(data) {}
    void read(std::span<std::uint8_t> dst) override { mem_.read(dst); }
    std::uint64_t position() const override { return mem_.position(); }
    std::optional<std::uint64_t> remaining() const override { return std::nullopt; }

private:
    gbx::MemorySource mem_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    ByteSpan in(data + 1, size - 1);
    gbx::MemorySource mem(in);
    BlindSource blind(in);
    gbx::ByteSource& src = data[0] & 1 ? static_cast<gbx::ByteSource&>(blind) : mem;
    try {
        gbx::GbxHeader h = gbx::readHeader(src);
        for (const auto& c : h.chunks) (void)h.chunkData(c);
        gbx::readRefTable(src, h);
    } catch (const Error&) {
    }
    return 0;
}
