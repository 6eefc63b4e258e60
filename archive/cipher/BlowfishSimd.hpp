// SPDX-License-Identifier: GPL-2.0-or-later
// Blowfish on many blocks at once with AVX2 or AVX-512: the key schedule and the vector CBC paths.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace pakfs::archive::bfsimd {

// The expanded Blowfish key: P-array (encryption order) and the four S-boxes, one after another.
struct alignas(64) Schedule {
    std::array<std::uint32_t, 18> p;
    std::array<std::uint32_t, 4 * 256> s;
};

// Standard Blowfish key schedule over `key` (4..56 bytes, big-endian words as the definition
// reads them). The initial tables are the hexadecimal digits of pi.
void expandKey(Schedule& out, const std::uint8_t* key, std::size_t size);

// The initial P-array and S-boxes (pi digits), as Crypto++ ships them.
const std::uint32_t* piP();
const std::uint32_t* piS();

// One standard Blowfish block as two words (L, R) in place.
void encryptWords(const Schedule& k, std::uint32_t& l, std::uint32_t& r);
void decryptWords(const Schedule& k, std::uint32_t& l, std::uint32_t& r);

enum class Impl { Portable, Avx2, Avx512 };

const char* implName(Impl impl);
bool implAvailable(Impl impl);
// The implementations this CPU can run, portable first.
std::vector<Impl> availableImpls();
// What Blowfish::cbcDecrypt uses: the fastest available, or PAKFS_BLOWFISH=portable|avx2|avx512
// from the environment, or the one forced by forceImpl.
Impl activeImpl();
// Forces an implementation for the whole process (tests, benchmarks); nullopt restores the
// default. Returns false (and changes nothing) when the CPU cannot run it.
bool forceImpl(std::optional<Impl> impl);

// CBC decryption in TrackMania's byte order (little-endian words), in place, over whole 8-byte
// blocks; `iv` is the chaining value and holds the last ciphertext block afterwards. Returns
// false without touching anything for Impl::Portable (the caller's Crypto++ path).
bool cbcDecrypt(Impl impl, const Schedule& k, std::uint8_t* data, std::size_t size,
                std::uint64_t& iv);

}  // namespace pakfs::archive::bfsimd
