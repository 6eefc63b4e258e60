// SPDX-License-Identifier: GPL-2.0-or-later
#define CRYPTOPP_ENABLE_NAMESPACE_WEAK 1
#include "archive/Crypto.hpp"

#include "archive/BlowfishSimd.hpp"

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
    bfsimd::Schedule schedule;  // our own expansion, for the vector decryptors
};

Blowfish::Blowfish(ByteSpan key) : impl_(std::make_unique<Impl>()) {
    if (key.size() % 4 != 0 || key.size() < 4 || key.size() > 56)
        throw Error("Blowfish key length must be a multiple of 4 from 4 to 56 bytes");
    std::vector<std::uint8_t> swapped(key.begin(), key.end());
    swapWords(swapped.data(), swapped.size());
    impl_->enc.SetKey(swapped.data(), swapped.size());
    impl_->dec.SetKey(swapped.data(), swapped.size());
    bfsimd::expandKey(impl_->schedule, swapped.data(), swapped.size());
}

Blowfish::~Blowfish() = default;

void Blowfish::encryptBlock(std::uint8_t block[8]) const {
    swapWords(block, 8);
    impl_->enc.ProcessBlock(block);
    swapWords(block, 8);
}

void Blowfish::decryptBlock(std::uint8_t block[8]) const {
    swapWords(block, 8);
    impl_->dec.ProcessBlock(block);
    swapWords(block, 8);
}

void Blowfish::cbcDecrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const {
    // CBC decryption is parallel across blocks: the vector decryptors take it when the CPU can.
    if (bfsimd::cbcDecrypt(bfsimd::activeImpl(), impl_->schedule, data, size, iv)) return;
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
        impl_->dec.AdvancedProcessBlocks(p, nullptr, p, n, 0);
        for (std::size_t i = 0; i < 8; ++i) p[i] ^= prev[i];
        for (std::size_t i = 8; i < n; ++i) p[i] ^= cipherCopy[i - 8];
        std::memcpy(prev, cipherCopy + n - 8, 8);
        swapWords(p, n);
    }
    swapWords(prev, 8);
    iv = loadLE64(prev);
}

void Blowfish::cbcEncrypt(std::uint8_t* data, std::size_t size, std::uint64_t& iv) const {
    std::uint8_t prev[8];
    storeLE64(prev, iv);
    swapWords(prev, 8);
    swapWords(data, size);
    for (std::size_t i = 0; i < size; i += 8) {
        for (std::size_t k = 0; k < 8; ++k) data[i + k] ^= prev[k];
        impl_->enc.ProcessBlock(data + i);
        std::memcpy(prev, data + i, 8);
    }
    swapWords(data, size);
    swapWords(prev, 8);
    iv = loadLE64(prev);
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
