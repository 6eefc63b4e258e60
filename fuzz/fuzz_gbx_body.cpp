// SPDX-License-Identifier: GPL-2.0-or-later
// A whole gbx file through the body and node reader (uncompressed and LZO bodies), as
// `pak gbx info --nodes` reads it.
#include "fuzz/FuzzUtil.hpp"
#include "gbx/GbxFile.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pakfs::MemorySource src(ByteSpan(data, size));
    gbx::ReadOptions options;
    options.keepBody = true;
    gbx::GbxFile f = gbx::readGbxPartial(src, nullptr, options);
    (void)f;
    return 0;
}
