// SPDX-License-Identifier: GPL-2.0-or-later
// The pak header and file table. The input is the header plaintext (from the MD5 field on);
// the harness writes the MD5 the reader will compute and encrypts the input with the fixed key
// and the folder ivXor, so the fuzzer reaches the parser instead of the MD5 check. Every entry
// the index accepts is then decoded.
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "fuzz/FuzzUtil.hpp"
#include "tests/hostile/Generators.hpp"

using namespace pakfs;

namespace {

// Where the reader stops reading the header: after the file table (or 0 if it cannot tell).
std::size_t headerEnd(ByteSpan p) {
    std::uint64_t at = 0;
    hostile::PakModel::folderNamesOf(p, &at);
    if (at == 0 || at + 4 > p.size()) return 0;
    std::uint32_t files = loadLE32(p.data() + at);
    at += 4;
    for (std::uint32_t i = 0; i < files; ++i) {
        if (at + 8 > p.size()) return 0;
        std::uint64_t len = loadLE32(p.data() + at + 4);
        at += 8 + len + 4 * 5 + 8;
        if (at > p.size()) return 0;
    }
    return std::size_t(at);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > (1 << 20)) return 0;
    const archive::PakKey key = fuzz::fuzzKey();
    Bytes plain(data, data + size);
    if (std::size_t end = headerEnd(plain); end >= 16) {
        std::fill(plain.begin(), plain.begin() + 16, 0);
        archive::Md5Digest d = archive::md5(ByteSpan(plain).first(end));
        std::copy(d.begin(), d.end(), plain.begin());
    }
    std::uint64_t listEnd = 0;
    auto names = hostile::PakModel::folderNamesOf(plain, &listEnd);
    fuzz::writeScratch(hostile::PakModel::wrapHeader(plain, listEnd, names, key, 0, {}));
    fuzz::openAndDecodeScratch(key);
    return 0;
}
