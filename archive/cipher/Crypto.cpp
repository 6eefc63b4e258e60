// SPDX-License-Identifier: GPL-2.0-or-later
// TrackMania's Blowfish: 16 rounds by Crypto++ or the vector paths, 8 by our own schedule; CBC
// with the version 12+ chaining, counter mode; MD5, HMAC-MD5 and random bytes by Crypto++.
#define CRYPTOPP_ENABLE_NAMESPACE_WEAK 1
#include "archive/cipher/Crypto.hpp"

#include "archive/cipher/BlowfishSimd.hpp"

#include <crypto++/blowfish.h>
#include <crypto++/hmac.h>
#include <crypto++/md5.h>
#include <crypto++/osrng.h>

#include <vector>

namespace pakfs::archive {

namespace {

inline std::uint32_t bswap(std::uint32_t v) {
    return __builtin_bswap32(v);
}

// Reverses the bytes inside every 4-byte group (size is a multiple of 4).
void swapWords(std::uint8_t* p, std::size_t size) {
    for (std::size_t i = 0; i < size; i += 4) {
        std::uint32_t w;
        std::memcpy(&w, p + i, 4);
        w = bswap(w);
        std::memcpy(p + i, &w, 4);
    }
}

}  // namespace

struct Blowfish::Impl {
    CryptoPP::Blowfish::Encryption enc;
    CryptoPP::Blowfish::Decryption dec;
    bfsimd::Schedule schedule;  // our own expansion: vector decryptors, and the 8-round cipher
};

namespace {

inline std::uint32_t feistel(const bfsimd::Schedule& k, std::uint32_t x) {
    return ((k.s[x >> 24] + k.s[256 + ((x >> 16) & 0xff)]) ^ k.s[512 + ((x >> 8) & 0xff)]) +
           k.s[768 + (x & 0xff)];
}

// Blowfish with `rounds` rounds on the words (L, R): P[0..rounds+1] and the S-boxes.
void encryptRounds(const bfsimd::Schedule& k, int rounds, std::uint32_t& l, std::uint32_t& r) {
    for (int i = 0; i < rounds; ++i) {
        l ^= k.p[std::size_t(i)];
        r ^= feistel(k, l);
        std::swap(l, r);
    }
    std::swap(l, r);
    r ^= k.p[std::size_t(rounds)];
    l ^= k.p[std::size_t(rounds + 1)];
}

void decryptRounds(const bfsimd::Schedule& k, int rounds, std::uint32_t& l, std::uint32_t& r) {
    for (int i = rounds + 1; i > 1; --i) {
        l ^= k.p[std::size_t(i)];
        r ^= feistel(k, l);
        std::swap(l, r);
    }
    std::swap(l, r);
    r ^= k.p[1];
    l ^= k.p[0];
}

// The standard key schedule with `rounds` rounds: the key (big-endian words of `key`, repeated)
// goes into P[0..rounds+1], then the cipher itself refills P[0..rounds+1] and the S-boxes.
void expandKeyRounds(bfsimd::Schedule& out, const std::uint8_t* key, std::size_t size, int rounds) {
    std::memcpy(out.p.data(), bfsimd::piP(), sizeof(out.p));
    std::memcpy(out.s.data(), bfsimd::piS(), sizeof(out.s));
    std::size_t at = 0;
    const std::size_t n = std::size_t(rounds + 2);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t w = 0;
        for (int j = 0; j < 4; ++j) w = w << 8 | key[at++ % size];
        out.p[i] ^= w;
    }
    std::uint32_t l = 0, r = 0;
    for (std::size_t i = 0; i < n; i += 2) {
        encryptRounds(out, rounds, l, r);
        out.p[i] = l;
        out.p[i + 1] = r;
    }
    for (std::size_t i = 0; i < out.s.size(); i += 2) {
        encryptRounds(out, rounds, l, r);
        out.s[i] = l;
        out.s[i + 1] = r;
    }
}

// A block as TrackMania stores it: the words are the little-endian halves of the bytes.
inline void loadWords(const std::uint8_t* p, std::uint32_t& l, std::uint32_t& r) {
    l = loadLE32(p);
    r = loadLE32(p + 4);
}
inline void storeWords(std::uint8_t* p, std::uint32_t l, std::uint32_t r) {
    storeLE32(p, l);
    storeLE32(p + 4, r);
}

}  // namespace

Blowfish::Blowfish(ByteSpan key, CipherVariant variant)
    : variant_(variant), impl_(std::make_unique<Impl>()) {
    if (key.size() % 4 != 0 || key.size() < 4 || key.size() > 56)
        throw Error("Blowfish key length must be a multiple of 4 from 4 to 56 bytes");
    if (variant.rounds != 16 && variant.rounds != 8)
        throw Error("Blowfish: only 8 or 16 rounds are used by paks");
    std::vector<std::uint8_t> swapped(key.begin(), key.end());
    swapWords(swapped.data(), swapped.size());
    if (variant.rounds == 16) {
        impl_->enc.SetKey(swapped.data(), swapped.size());
        impl_->dec.SetKey(swapped.data(), swapped.size());
        bfsimd::expandKey(impl_->schedule, swapped.data(), swapped.size());
    } else {
        expandKeyRounds(impl_->schedule, swapped.data(), swapped.size(), variant.rounds);
    }
}

Blowfish::~Blowfish() = default;

namespace {

// One block either way: the 16-round cipher by Crypto++ (its words big-endian, ours little), a
// variant's other round count by our own schedule.
template <class Rounds, class CryptoPPCipher>
void cryptBlock(std::uint8_t block[8], const bfsimd::Schedule& schedule, int rounds,
                Rounds ownRounds, const CryptoPPCipher& cryptopp) {
    if (rounds != 16) {
        std::uint32_t l, r;
        loadWords(block, l, r);
        ownRounds(schedule, rounds, l, r);
        storeWords(block, l, r);
        return;
    }
    swapWords(block, 8);
    cryptopp.ProcessBlock(block);
    swapWords(block, 8);
}

}  // namespace

void Blowfish::encryptBlock(std::uint8_t block[8]) const {
    cryptBlock(block, impl_->schedule, variant_.rounds, encryptRounds, impl_->enc);
}

void Blowfish::decryptBlock(std::uint8_t block[8]) const {
    cryptBlock(block, impl_->schedule, variant_.rounds, decryptRounds, impl_->dec);
}

namespace {

// Plain CBC decryption with the 16-round cipher: the vector decryptors when the CPU can,
// else Crypto++.
void cbcDecrypt16(const CryptoPP::Blowfish::Decryption& dec, const bfsimd::Schedule& schedule,
                  std::uint8_t* data, std::size_t size, std::uint64_t& iv) {
    // CBC decryption is parallel across blocks: the vector decryptors take it when the CPU can.
    if (bfsimd::cbcDecrypt(bfsimd::activeImpl(), schedule, data, size, iv)) return;
    // In the byte-swapped domain the cipher is standard Blowfish, and the CBC xor commutes with
    // the swap, so one swap of the whole buffer before and after is enough.
    constexpr std::size_t kChunk = 4096;
    std::uint8_t prev[8];
    storeLE64(prev, iv);
    swapWords(prev, 8);
    std::uint8_t cipherCopy[kChunk];
    for (std::size_t done = 0; done < size; done += kChunk) {
        std::size_t n = std::min(kChunk, size - done);
        std::uint8_t* p = data + done;
        swapWords(p, n);
        std::memcpy(cipherCopy, p, n);
        // Decrypt all blocks in one call; then xor with the previous ciphertext blocks.
        dec.AdvancedProcessBlocks(p, nullptr, p, n, 0);
        for (std::size_t i = 0; i < 8; ++i) p[i] ^= prev[i];
        for (std::size_t i = 8; i < n; ++i) p[i] ^= cipherCopy[i - 8];
        std::memcpy(prev, cipherCopy + n - 8, 8);
        swapWords(p, n);
    }
    swapWords(prev, 8);
    iv = loadLE64(prev);
}

}  // namespace

void Blowfish::cbcDecrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const {
    if (variant_.rounds != 16) {
        for (std::size_t i = 0; i + 8 <= size; i += 8) {
            std::uint64_t c = loadLE64(data + i);
            decryptBlock(data + i);
            storeLE64(data + i, loadLE64(data + i) ^ iv);
            iv = variant_.mixedChaining ? mixedNextIv(iv, c) : c;
        }
        return;
    }
    if (!variant_.mixedChaining) {
        cbcDecrypt16(impl_->dec, impl_->schedule, data, size, iv);
        return;
    }
    // The v12+ chain needs only the ciphertext, so it is computed first; plain CBC then does
    // the (parallel) decryption, which xors block i with ciphertext block i-1 where the chain
    // wants chainIv[i]: one more xor with both puts that right.
    constexpr std::size_t kBlocks = 512;
    std::uint64_t fix[kBlocks];
    for (std::size_t done = 0; done < size; done += kBlocks * 8) {
        std::size_t n = std::min(kBlocks * 8, size - done);
        std::uint8_t* p = data + done;
        std::uint64_t chain = iv, prevCipher = iv;
        for (std::size_t b = 0; b * 8 < n; ++b) {
            std::uint64_t c = loadLE64(p + b * 8);
            fix[b] = chain ^ prevCipher;
            chain = mixedNextIv(chain, c);
            prevCipher = c;
        }
        std::uint64_t plainIv = iv;
        cbcDecrypt16(impl_->dec, impl_->schedule, p, n, plainIv);
        for (std::size_t b = 0; b * 8 < n; ++b) storeLE64(p + b * 8, loadLE64(p + b * 8) ^ fix[b]);
        iv = chain;
    }
}

void Blowfish::cbcEncrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const {
    if (variant_.rounds == 16 && !variant_.mixedChaining) {
        // Plain CBC with Crypto++: one swap of the whole buffer before and after (the xor
        // commutes with the swap), not one per block.
        std::uint8_t prev[8];
        storeLE64(prev, iv);
        swapWords(prev, 8);
        swapWords(data, size);
        for (std::size_t i = 0; i + 8 <= size; i += 8) {
            for (std::size_t k = 0; k < 8; ++k) data[i + k] ^= prev[k];
            impl_->enc.ProcessBlock(data + i);
            std::memcpy(prev, data + i, 8);
        }
        swapWords(data, size);
        swapWords(prev, 8);
        iv = loadLE64(prev);
        return;
    }
    for (std::size_t i = 0; i + 8 <= size; i += 8) {
        storeLE64(data + i, loadLE64(data + i) ^ iv);
        encryptBlock(data + i);
        std::uint64_t c = loadLE64(data + i);
        iv = variant_.mixedChaining ? mixedNextIv(iv, c) : c;
    }
}

void Blowfish::counterXor(std::uint8_t* data, std::size_t size, std::uint64_t iv,
                          std::uint64_t offset) const {
    for (std::size_t i = 0; i + 8 <= size; i += 8) {
        const std::uint64_t o = offset + i;
        std::uint8_t key[8];
        storeLE64(key, iv + 8 + 256 * (o / 256) + (o % 256) / 8);
        encryptBlock(key);
        for (std::size_t k = 0; k < 8; ++k) data[i + k] ^= key[k];
    }
}

Md5Digest md5(ByteSpan data) {
    Md5Digest out;
    CryptoPP::Weak::MD5 h;
    h.CalculateDigest(out.data(), data.data(), data.size());
    return out;
}

Md5Digest md5(std::string_view text) {
    return md5(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Md5Digest hmacMd5(ByteSpan key, ByteSpan data) {
    Md5Digest out;
    CryptoPP::HMAC<CryptoPP::Weak::MD5> mac(key.data(), key.size());
    mac.CalculateDigest(out.data(), data.data(), data.size());
    return out;
}

void randomBytes(std::span<std::uint8_t> out) {
    static thread_local CryptoPP::AutoSeededRandomPool rng;
    rng.GenerateBlock(out.data(), out.size());
}

}  // namespace pakfs::archive
