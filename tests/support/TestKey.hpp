// SPDX-License-Identifier: GPL-2.0-or-later
// The key the tests encrypt their generated paks with: as bytes, as hex, and as pak's --key.
#pragma once

#include <string>

#include "archive/cipher/Crypto.hpp"
#include "common/Bytes.hpp"

namespace pakfs::test {

// One literal, so that no file builds the argument at start-up from the hex (GCC's array
// bounds check misreads that concatenation in some files).
inline constexpr char kKeyArgText[] = "--key 00112233445566778899aabbccddeeff";
inline constexpr const char* kTestKeyHex = kKeyArgText + 6;
inline const std::string kKeyArg = kKeyArgText;

inline archive::PakKey testKey() {
    archive::PakKey k{};
    parseHex(kTestKeyHex, k);
    return k;
}

}  // namespace pakfs::test
