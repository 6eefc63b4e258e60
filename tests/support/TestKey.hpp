// SPDX-License-Identifier: GPL-2.0-or-later
// The key the tests encrypt their generated paks with: as bytes, as hex, and as pak's --key.
#pragma once

#include <string>

#include "archive/cipher/Crypto.hpp"
#include "common/Bytes.hpp"

namespace pakfs::test {

inline constexpr const char* kTestKeyHex = "00112233445566778899aabbccddeeff";
inline const std::string kKeyArg = std::string("--key ") + kTestKeyHex;

inline archive::PakKey testKey() {
    archive::PakKey k{};
    parseHex(kTestKeyHex, k);
    return k;
}

}  // namespace pakfs::test
