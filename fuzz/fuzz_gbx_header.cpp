// SPDX-License-Identifier: GPL-2.0-or-later
// The gbx header and reference table, and what is read from the header chunks: a map's facts,
// the thumbnail or icon, written upright (the JPEG flip) and as stored. The first byte picks the
// source: memory (sizes known) or a source that cannot tell what is left (as a pipe would),
// which takes the blind-allocation limits instead of the remaining-size checks.
#include "fuzz/FuzzUtil.hpp"
#include "gbx/Header.hpp"
#include "gbx/MapFacts.hpp"
#include "gbx/pictures/Pictures.hpp"
#include "tests/hostile/Generators.hpp"

using namespace pakfs;

using pakfs::hostile::BlindSource;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    ByteSpan in(data + 1, size - 1);
    pakfs::MemorySource mem(in);
    BlindSource blind(in);
    pakfs::ByteSource& src = data[0] & 1 ? static_cast<pakfs::ByteSource&>(blind) : mem;
    try {
        gbx::GbxHeader h = gbx::readHeader(src);
        for (const auto& c : h.chunks) (void)h.chunkData(c);
        (void)gbx::mapFacts(h);
        try {
            if (auto picture = gbx::findPicture(h)) {
                (void)gbx::storedPicture(*picture);
                (void)gbx::uprightPicture(*picture);
            }
        } catch (const Error&) {
        }
        gbx::readRefTable(src, h);
    } catch (const Error&) {
    }
    return 0;
}
