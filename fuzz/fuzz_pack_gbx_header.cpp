// SPDX-License-Identifier: GPL-2.0-or-later
// The public header of version 6+ packs (.Pack.Gbx), as `pak info` reads it. The first byte
// picks the version (6 to 18); the rest follows the magic and version in the file.
#include "archive/pak/PakIndex.hpp"
#include "common/File.hpp"
#include "fuzz/FuzzUtil.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    Bytes file;
    ByteWriter w(file);
    w.bytes(std::string_view("NadeoPak"));
    w.u32(6 + data[0] % 13);
    w.bytes(ByteSpan(data + 1, size - 1));
    fuzz::writeScratch(file);
    try {
        auto in = pakfs::InputFile::open(fuzz::scratchPath());
        archive::PackGbxHeader h = archive::readPackGbxHeader(*in);
        (void)h.includedPacks.size();
    } catch (const Error&) {
    }
    return 0;
}
