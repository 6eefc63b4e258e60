// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "common/Bytes.hpp"

namespace pakfs::archive {

using PakKey = std::array<std::uint8_t, 16>;
using Md5Digest = std::array<std::uint8_t, 16>;

// Blowfish as TrackMania uses it: 16 rounds, but every 32-bit word of the key and of each block
// is little-endian. Built on Crypto++'s standard (big-endian) Blowfish by byte-swapping every
// 4-byte group on the way in and out.
class Blowfish {
public:
    explicit Blowfish(const PakKey& key) : Blowfish(ByteSpan(key)) {}
    // Any key of 4..56 bytes whose length is a multiple of 4 (the word-swap needs whole words).
    explicit Blowfish(ByteSpan key);
    ~Blowfish();
    Blowfish(const Blowfish&) = delete;
    Blowfish& operator=(const Blowfish&) = delete;

    void encryptBlock(std::uint8_t block[8]) const;
    void decryptBlock(std::uint8_t block[8]) const;

    // CBC over whole 8-byte blocks, in place. `iv` is the chaining value as a little-endian u64
    // and holds the last ciphertext block afterwards.
    void cbcDecrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const;
    void cbcEncrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The game's CalcIVXor: folds bytes into the pending ivXor value.
constexpr std::uint64_t calcIvXor(std::uint64_t ivXor, ByteSpan bytes) {
    for (std::uint8_t b : bytes) ivXor = ((ivXor << 13) | (ivXor >> 51)) ^ std::uint64_t(b | 0xAA);
    return ivXor;
}

Md5Digest md5(ByteSpan data);
Md5Digest md5(std::string_view text);
Md5Digest hmacMd5(ByteSpan key, ByteSpan data);
// Fills `out` from the system's random source (IVs of written packs).
void randomBytes(std::span<std::uint8_t> out);

}  // namespace pakfs::archive
