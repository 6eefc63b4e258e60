// SPDX-License-Identifier: GPL-2.0-or-later
// Version 18's LZ4 block stream. Input: a u32 declared size (taken modulo 1 MiB), then the
// stream. The whole-buffer decoder and the pipeline's stage must agree: the same bytes, or both
// an error.
#include <cstdlib>

#include "archive/codec/Lz4.hpp"
#include "fuzz/FuzzUtil.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4 || size > (1 << 20)) return 0;
    const std::uint64_t declared = loadLE32(data) % (1u << 20);
    ByteSpan stream(data + 4, size - 4);
    std::optional<Bytes> whole;
    try {
        whole = archive::lz4PackDecompress(stream, declared, "fuzz");
    } catch (const Error&) {
    }
    std::optional<Bytes> staged;
    try {
        pakfs::MemorySource in(stream);
        archive::Lz4Stage stage(in, stream.size(), declared, "fuzz");
        if (*stage.remaining() < declared) throw Error("cannot give the declared size");
        Bytes out(static_cast<std::size_t>(declared));
        stage.read(out);
        stage.finish();
        staged = std::move(out);
    } catch (const Error&) {
    }
    if (whole.has_value() != staged.has_value() || (whole && *whole != *staged)) std::abort();
    return 0;
}
