// SPDX-License-Identifier: GPL-2.0-or-later
// The vector Blowfish: pi tables and key schedule against Crypto++, every implementation's CBC
// decryption, the chaining value across calls, round trips, and forcing a missing one refused.
#include <catch2/catch.hpp>

#include <random>

#include "archive/cipher/BlowfishSimd.hpp"
#include "archive/cipher/Crypto.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

Bytes randomData(std::mt19937& rng, std::size_t n) {
    Bytes b(n);
    for (auto& x : b) x = std::uint8_t(rng());
    return b;
}

Bytes randomKey(std::mt19937& rng) {
    return randomData(rng, 4 * (1 + rng() % 14));
}

// Restores the default implementation however a test ends.
struct ForceGuard {
    ~ForceGuard() { bfsimd::forceImpl(std::nullopt); }
};

Bytes decryptWith(bfsimd::Impl impl, const Blowfish& bf, Bytes data, std::uint64_t& iv) {
    REQUIRE(bfsimd::forceImpl(impl));
    bf.cbcDecrypt(data.data(), data.size(), iv);
    return data;
}

// Pi in base 2^32 by Machin's formula, 16 atan(1/5) - 4 atan(1/239), to check the initial
// tables independently of where they come from. Limb 0 is the integer part.
using Fixed = std::vector<std::uint32_t>;

void divide(Fixed& x, std::uint32_t d) {
    std::uint64_t rem = 0;
    for (auto& limb : x) {
        std::uint64_t cur = rem << 32 | limb;
        limb = std::uint32_t(cur / d);
        rem = cur % d;
    }
}

void multiply(Fixed& x, std::uint32_t m) {
    std::uint64_t carry = 0;
    for (std::size_t i = x.size(); i-- > 0;) {
        std::uint64_t cur = std::uint64_t(x[i]) * m + carry;
        x[i] = std::uint32_t(cur);
        carry = cur >> 32;
    }
}

void addTo(Fixed& x, const Fixed& y, bool subtract) {
    std::int64_t carry = 0;
    for (std::size_t i = x.size(); i-- > 0;) {
        std::int64_t cur = std::int64_t(x[i]) + (subtract ? -std::int64_t(y[i]) : y[i]) + carry;
        x[i] = std::uint32_t(cur);
        carry = cur >> 32;
    }
}

Fixed arctanInverse(std::uint32_t n, std::size_t limbs) {
    Fixed sum(limbs), power(limbs), term(limbs);
    power[0] = 1;
    divide(power, n);
    for (std::uint32_t k = 0;; ++k) {
        term = power;
        divide(term, 2 * k + 1);
        if (std::all_of(term.begin(), term.end(), [](std::uint32_t v) { return v == 0; })) break;
        addTo(sum, term, k % 2 == 1);
        divide(power, n * n);
    }
    return sum;
}

}  // namespace

TEST_CASE("Blowfish SIMD: the initial tables are the hex digits of pi", "[crypto][simd]") {
    const std::size_t limbs = 1 + 18 + 1024 + 4;  // integer part, tables, guard limbs
    Fixed a = arctanInverse(5, limbs), b = arctanInverse(239, limbs);
    multiply(a, 16);
    multiply(b, 4);
    addTo(a, b, true);
    REQUIRE(a[0] == 3);
    REQUIRE(a[1] == 0x243F6A88u);
    for (std::size_t i = 0; i < 18; ++i) CHECK(bfsimd::piP()[i] == a[1 + i]);
    for (std::size_t i = 0; i < 1024; ++i) CHECK(bfsimd::piS()[i] == a[19 + i]);
}

TEST_CASE("Blowfish SIMD: own key schedule matches Crypto++", "[crypto][simd]") {
    std::mt19937 rng(7);
    for (int round = 0; round < 40; ++round) {
        Bytes key = randomKey(rng);
        Blowfish bf{ByteSpan(key)};
        // Blowfish takes the game's key; the standard schedule sees it word-swapped.
        Bytes swapped = key;
        for (std::size_t i = 0; i < swapped.size(); i += 4)
            std::reverse(swapped.begin() + long(i), swapped.begin() + long(i) + 4);
        auto schedule = std::make_unique<bfsimd::Schedule>();
        bfsimd::expandKey(*schedule, swapped.data(), swapped.size());
        for (int n = 0; n < 8; ++n) {
            Bytes block = randomData(rng, 8);
            std::uint32_t l = loadLE32(block.data()), r = loadLE32(block.data() + 4);
            Bytes enc = block;
            bf.encryptBlock(enc.data());
            bfsimd::encryptWords(*schedule, l, r);
            INFO("key size " << key.size());
            CHECK(loadLE32(enc.data()) == l);
            CHECK(loadLE32(enc.data() + 4) == r);
            bfsimd::decryptWords(*schedule, l, r);
            CHECK(l == loadLE32(block.data()));
            CHECK(r == loadLE32(block.data() + 4));
        }
    }
}

TEST_CASE("Blowfish SIMD: every implementation decrypts like Crypto++", "[crypto][simd]") {
    ForceGuard guard;
    auto impls = bfsimd::availableImpls();
    for (auto impl : impls) INFO("available: " << bfsimd::implName(impl));
    REQUIRE(impls.front() == bfsimd::Impl::Portable);
    std::mt19937 rng(11);
    std::vector<std::size_t> blockCounts;
    for (std::size_t n = 0; n <= 80; ++n) blockCounts.push_back(n);
    for (std::size_t n : {127, 128, 129, 255, 256, 257, 511, 513, 4095, 4097, 32768 + 31})
        blockCounts.push_back(n);
    blockCounts.push_back((1 << 17) + 5);  // 1 MiB + 5 blocks
    for (std::size_t blocks : blockCounts) {
        Bytes key = randomKey(rng);
        Blowfish bf{ByteSpan(key)};
        // Data at every alignment within a cache line's first bytes.
        std::size_t shift = rng() % 9;
        Bytes raw = randomData(rng, blocks * 8 + shift);
        Bytes data(raw.begin() + long(shift), raw.end());
        std::uint64_t iv0 = (std::uint64_t(rng()) << 32) | rng();
        std::uint64_t ivRef = iv0;
        Bytes expect = decryptWith(bfsimd::Impl::Portable, bf, data, ivRef);
        for (auto impl : impls) {
            INFO(bfsimd::implName(impl) << ", " << blocks << " blocks, shift " << shift);
            std::uint64_t iv = iv0;
            REQUIRE(bfsimd::forceImpl(impl));
            Bytes buf = raw;
            bf.cbcDecrypt(buf.data() + shift, blocks * 8, iv);
            CHECK(std::equal(expect.begin(), expect.end(), buf.begin() + long(shift)));
            CHECK(std::equal(raw.begin(), raw.begin() + long(shift), buf.begin()));
            CHECK(iv == ivRef);
        }
    }
}

TEST_CASE("Blowfish SIMD: chained calls carry the chaining value", "[crypto][simd]") {
    ForceGuard guard;
    std::mt19937 rng(13);
    for (auto impl : bfsimd::availableImpls()) {
        for (int round = 0; round < 20; ++round) {
            Bytes key = randomKey(rng);
            Blowfish bf{ByteSpan(key)};
            Bytes data = randomData(rng, 8 * (rng() % 3000));
            std::uint64_t iv0 = (std::uint64_t(rng()) << 32) | rng();
            std::uint64_t ivRef = iv0;
            Bytes expect = decryptWith(bfsimd::Impl::Portable, bf, data, ivRef);
            REQUIRE(bfsimd::forceImpl(impl));
            std::uint64_t iv = iv0;
            std::size_t at = 0;
            while (at < data.size()) {
                std::size_t n = std::min<std::size_t>(8 * (rng() % 70), data.size() - at);
                bf.cbcDecrypt(data.data() + at, n, iv);
                at += n;
            }
            INFO(bfsimd::implName(impl) << ", " << data.size() << " bytes");
            CHECK(data == expect);
            CHECK(iv == ivRef);
        }
    }
}

TEST_CASE("Blowfish SIMD: encryption round-trips through every decryptor", "[crypto][simd]") {
    ForceGuard guard;
    std::mt19937 rng(17);
    Bytes key = randomKey(rng);
    Blowfish bf{ByteSpan(key)};
    Bytes plain = randomData(rng, 8 * 1001);
    for (auto impl : bfsimd::availableImpls()) {
        INFO(bfsimd::implName(impl));
        Bytes data = plain;
        std::uint64_t iv = 0x0123456789ABCDEFull, iv2 = iv;
        bf.cbcEncrypt(data.data(), data.size(), iv);
        REQUIRE(bfsimd::forceImpl(impl));
        bf.cbcDecrypt(data.data(), data.size(), iv2);
        CHECK(data == plain);
        CHECK(iv == iv2);
    }
}

TEST_CASE("Blowfish SIMD: forcing an unavailable implementation is refused", "[crypto][simd]") {
    ForceGuard guard;
    for (auto impl : {bfsimd::Impl::Portable, bfsimd::Impl::Avx2, bfsimd::Impl::Avx512}) {
        bool ok = bfsimd::forceImpl(impl);
        CHECK(ok == bfsimd::implAvailable(impl));
        if (ok) CHECK(bfsimd::activeImpl() == impl);
    }
}
