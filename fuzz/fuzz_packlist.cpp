// SPDX-License-Identifier: GPL-2.0-or-later
// packlist.dat.
#include "archive/pak/PackList.hpp"
#include "fuzz/FuzzUtil.hpp"

using namespace pakfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        archive::PackList list = archive::parsePackList(ByteSpan(data, size), "packlist.dat");
        for (const auto& e : list.entries) (void)e.key();
        (void)list.find("a");
    } catch (const Error&) {
    }
    return 0;
}
