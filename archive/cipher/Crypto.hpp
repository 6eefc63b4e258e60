// SPDX-License-Identifier: GPL-2.0-or-later
// Blowfish as TrackMania uses it, the game's CalcIVXor, and what each pak version changes in
// the cipher.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "common/Bytes.hpp"

namespace pakfs::archive {

using PakKey = std::array<std::uint8_t, 16>;
using Md5Digest = std::array<std::uint8_t, 16>;

// What a pak version changes in the cipher (doc/FORMAT.md §3.4, §5.1, §5.2).
struct CipherVariant {
    // 16, or 8 from version 18: the key then fills P[0..9] only, and the key schedule runs the
    // 8-round cipher too. The game reverses P[0..9] and calls its encryption function to
    // decrypt, which is the same as an 8-round decryption.
    int rounds = 16;
    // Version 12+: the chaining value moves on as (iv >> 47) ^ (iv * 9) ^ cipherBlock instead
    // of being the cipher block. The game's formula; the threshold 12 is one reader's (assumed).
    bool mixedChaining = false;

    static CipherVariant forPakVersion(std::uint32_t version) {
        return CipherVariant{version >= 18 ? 8 : 16, version >= 12};
    }
    bool operator==(const CipherVariant&) const = default;
};

// The next chaining value under the v12+ rule.
constexpr std::uint64_t mixedNextIv(std::uint64_t iv, std::uint64_t cipherBlock) {
    return (iv >> 47) ^ (iv * 9) ^ cipherBlock;
}

// Blowfish as TrackMania uses it: every 32-bit word of the key and of each block is
// little-endian. 16 rounds are built on Crypto++'s standard (big-endian) Blowfish by
// byte-swapping every 4-byte group on the way in and out; 8 rounds use a portable
// implementation of the same schedule with fewer rounds.
class Blowfish {
public:
    explicit Blowfish(const PakKey& key, CipherVariant variant = {})
        : Blowfish(ByteSpan(key), variant) {}
    // Any key of 4..56 bytes whose length is a multiple of 4 (the word-swap needs whole words).
    explicit Blowfish(ByteSpan key, CipherVariant variant = {});
    ~Blowfish();
    Blowfish(const Blowfish&) = delete;
    Blowfish& operator=(const Blowfish&) = delete;

    void encryptBlock(std::uint8_t block[8]) const;
    void decryptBlock(std::uint8_t block[8]) const;

    // CBC over whole 8-byte blocks, in place. `iv` is the chaining value as a little-endian u64
    // and holds the next chaining value afterwards (the last ciphertext block, or the v12+ mix).
    void cbcDecrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const;
    void cbcEncrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const;
    // Version 6+ counter mode (an encrypted file flagged seekable; doc/FORMAT.md §5.4), in
    // place over whole 8-byte blocks that start at body offset `offset` (a multiple of 8): the
    // block at offset o is xored with the encryption of the little-endian u64
    // iv + 8 + 256 * (o / 256) + (o % 256) / 8. No chaining: the same call encrypts.
    void counterXor(std::uint8_t* data, std::size_t size, std::uint64_t iv,
                    std::uint64_t offset) const;

    const CipherVariant& variant() const { return variant_; }

private:
    struct Impl;
    CipherVariant variant_;
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
