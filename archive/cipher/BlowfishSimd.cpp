// SPDX-License-Identifier: GPL-2.0-or-later
// Blowfish's key schedule over Crypto++'s pi tables, and CBC decryption 16 (AVX2) or 32
// (AVX-512) blocks at a time, the CPU's best picked once (PAKFS_BLOWFISH may pick another).
#include "archive/cipher/BlowfishSimd.hpp"

#include <crypto++/blowfish.h>
#include <immintrin.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace pakfs::archive::bfsimd {

namespace {

// Crypto++ keeps its pi tables as private static members. Explicit instantiation is exempt from
// access checks, so this template hands out their addresses without copying the digits.
const std::uint32_t* cryptoppPInit();
const std::uint32_t* cryptoppSInit();
template <const CryptoPP::word32* P, const CryptoPP::word32* S>
struct PiTables {
    friend const std::uint32_t* cryptoppPInit() { return P; }
    friend const std::uint32_t* cryptoppSInit() { return S; }
};
template struct PiTables<CryptoPP::Blowfish::Base::p_init, CryptoPP::Blowfish::Base::s_init>;

inline std::uint32_t f(const Schedule& k, std::uint32_t x) {
    return ((k.s[x >> 24] + k.s[256 + ((x >> 16) & 0xff)]) ^ k.s[512 + ((x >> 8) & 0xff)]) +
           k.s[768 + (x & 0xff)];
}

std::uint64_t loadU64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

void storeU64(std::uint8_t* p, std::uint64_t v) {
    std::memcpy(p, &v, 8);
}

// One block in TrackMania's order: the words are the little-endian halves of the raw bytes
// (this file assumes a little-endian host, as the intrinsics do anyway).
inline std::uint64_t decryptRaw(const Schedule& k, std::uint64_t c) {
    std::uint32_t l = std::uint32_t(c), r = std::uint32_t(c >> 32);
    decryptWords(k, l, r);
    return std::uint64_t(l) | std::uint64_t(r) << 32;
}

// Blocks the vector kernels leave over (fewer than one batch).
void cbcTail(const Schedule& k, std::uint8_t* p, std::size_t blocks, std::uint64_t& prev) {
    for (std::size_t i = 0; i < blocks; ++i, p += 8) {
        std::uint64_t c = loadU64(p);
        storeU64(p, decryptRaw(k, c) ^ prev);
        prev = c;
    }
}

#define PAKFS_AVX2 __attribute__((target("avx2")))
#define PAKFS_AVX512 __attribute__((target("avx512f,avx512bw")))

// ---- AVX2: 8 blocks per pair of registers, two pairs in flight to hide gather latency ----

PAKFS_AVX2 inline __m256i f8(const int* s, __m256i x) {
    const __m256i ff = _mm256_set1_epi32(0xff);
    __m256i a = _mm256_i32gather_epi32(s, _mm256_srli_epi32(x, 24), 4);
    __m256i b = _mm256_i32gather_epi32(s + 256, _mm256_and_si256(_mm256_srli_epi32(x, 16), ff), 4);
    __m256i c = _mm256_i32gather_epi32(s + 512, _mm256_and_si256(_mm256_srli_epi32(x, 8), ff), 4);
    __m256i d = _mm256_i32gather_epi32(s + 768, _mm256_and_si256(x, ff), 4);
    return _mm256_add_epi32(_mm256_xor_si256(_mm256_add_epi32(a, b), c), d);
}

PAKFS_AVX2 inline __m256i evenWords(__m256i x, __m256i y) {
    return _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y), _MM_SHUFFLE(2, 0, 2, 0)));
}

PAKFS_AVX2 inline __m256i oddWords(__m256i x, __m256i y) {
    return _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y), _MM_SHUFFLE(3, 1, 3, 1)));
}

PAKFS_AVX2 std::size_t cbcAvx2(const Schedule& k, std::uint8_t* p, std::size_t blocks,
                               std::uint64_t& prev) {
    const int* s = reinterpret_cast<const int*>(k.s.data());
    std::size_t done = 0;
    for (; done + 16 <= blocks; done += 16, p += 128) {
        __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
        __m256i v2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 64));
        __m256i v3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 96));
        // Each register holds 4 blocks; split into L and R words (lanes stay in their halves,
        // and the unpack at the end restores the order).
        __m256i a0 = evenWords(v0, v1), b0 = oddWords(v0, v1);
        __m256i a1 = evenWords(v2, v3), b1 = oddWords(v2, v3);
        __m256i pk = _mm256_set1_epi32(int(k.p[17]));
        a0 = _mm256_xor_si256(a0, pk);
        a1 = _mm256_xor_si256(a1, pk);
        for (int i = 16; i > 0; i -= 2) {
            __m256i p1 = _mm256_set1_epi32(int(k.p[i]));
            b0 = _mm256_xor_si256(b0, _mm256_xor_si256(f8(s, a0), p1));
            b1 = _mm256_xor_si256(b1, _mm256_xor_si256(f8(s, a1), p1));
            __m256i p2 = _mm256_set1_epi32(int(k.p[i - 1]));
            a0 = _mm256_xor_si256(a0, _mm256_xor_si256(f8(s, b0), p2));
            a1 = _mm256_xor_si256(a1, _mm256_xor_si256(f8(s, b1), p2));
        }
        pk = _mm256_set1_epi32(int(k.p[0]));
        b0 = _mm256_xor_si256(b0, pk);
        b1 = _mm256_xor_si256(b1, pk);
        // Output words are (R, L) swapped back: the block is (b, a).
        __m256i o0 = _mm256_unpacklo_epi32(b0, a0), o1 = _mm256_unpackhi_epi32(b0, a0);
        __m256i o2 = _mm256_unpacklo_epi32(b1, a1), o3 = _mm256_unpackhi_epi32(b1, a1);
        // CBC: xor each block with the ciphertext block before it (read before any store).
        __m256i x0 = _mm256_blend_epi32(_mm256_permute4x64_epi64(v0, _MM_SHUFFLE(2, 1, 0, 3)),
                                        _mm256_set1_epi64x(std::int64_t(prev)), 0x03);
        __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 24));
        __m256i x2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 56));
        __m256i x3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 88));
        prev = loadU64(p + 120);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_xor_si256(o0, x0));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 32), _mm256_xor_si256(o1, x1));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 64), _mm256_xor_si256(o2, x2));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 96), _mm256_xor_si256(o3, x3));
    }
    return done;
}

// ---- AVX-512: 16 blocks per pair of registers, two pairs in flight ----

// GCC 12 warns about the "undefined" source register of the plain forms of gather, shift and
// align; the masked forms with an explicit zero source compile to the same instructions.
PAKFS_AVX512 inline __m512i gather16(const int* base, __m512i index) {
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xFFFF, index, base, 4);
}

PAKFS_AVX512 inline __m512i byteAt(__m512i x, unsigned shift) {
    return _mm512_and_si512(_mm512_maskz_srli_epi32(0xFFFF, x, shift), _mm512_set1_epi32(0xff));
}

PAKFS_AVX512 inline __m512i f16(const int* s, __m512i x) {
    __m512i a = gather16(s, _mm512_maskz_srli_epi32(0xFFFF, x, 24));
    __m512i b = gather16(s + 256, byteAt(x, 16));
    __m512i c = gather16(s + 512, byteAt(x, 8));
    __m512i d = gather16(s + 768, _mm512_and_si512(x, _mm512_set1_epi32(0xff)));
    return _mm512_add_epi32(_mm512_xor_si512(_mm512_add_epi32(a, b), c), d);
}

PAKFS_AVX512 std::size_t cbcAvx512(const Schedule& k, std::uint8_t* p, std::size_t blocks,
                                   std::uint64_t& prev) {
    const int* s = reinterpret_cast<const int*>(k.s.data());
    const __m512i even =
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    const __m512i mixLo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i mixHi = _mm512_add_epi32(mixLo, _mm512_set1_epi32(8));
    std::size_t done = 0;
    for (; done + 32 <= blocks; done += 32, p += 256) {
        __m512i v0 = _mm512_loadu_si512(p);
        __m512i v1 = _mm512_loadu_si512(p + 64);
        __m512i v2 = _mm512_loadu_si512(p + 128);
        __m512i v3 = _mm512_loadu_si512(p + 192);
        __m512i a0 = _mm512_permutex2var_epi32(v0, even, v1);
        __m512i b0 = _mm512_permutex2var_epi32(v0, odd, v1);
        __m512i a1 = _mm512_permutex2var_epi32(v2, even, v3);
        __m512i b1 = _mm512_permutex2var_epi32(v2, odd, v3);
        __m512i pk = _mm512_set1_epi32(int(k.p[17]));
        a0 = _mm512_xor_si512(a0, pk);
        a1 = _mm512_xor_si512(a1, pk);
        for (int i = 16; i > 0; i -= 2) {
            __m512i p1 = _mm512_set1_epi32(int(k.p[i]));
            b0 = _mm512_xor_si512(b0, _mm512_xor_si512(f16(s, a0), p1));
            b1 = _mm512_xor_si512(b1, _mm512_xor_si512(f16(s, a1), p1));
            __m512i p2 = _mm512_set1_epi32(int(k.p[i - 1]));
            a0 = _mm512_xor_si512(a0, _mm512_xor_si512(f16(s, b0), p2));
            a1 = _mm512_xor_si512(a1, _mm512_xor_si512(f16(s, b1), p2));
        }
        pk = _mm512_set1_epi32(int(k.p[0]));
        b0 = _mm512_xor_si512(b0, pk);
        b1 = _mm512_xor_si512(b1, pk);
        __m512i o0 = _mm512_permutex2var_epi32(b0, mixLo, a0);
        __m512i o1 = _mm512_permutex2var_epi32(b0, mixHi, a0);
        __m512i o2 = _mm512_permutex2var_epi32(b1, mixLo, a1);
        __m512i o3 = _mm512_permutex2var_epi32(b1, mixHi, a1);
        __m512i x0 = _mm512_maskz_alignr_epi64(0xFF, v0, _mm512_set1_epi64(std::int64_t(prev)), 7);
        __m512i x1 = _mm512_loadu_si512(p + 56);
        __m512i x2 = _mm512_loadu_si512(p + 120);
        __m512i x3 = _mm512_loadu_si512(p + 184);
        prev = loadU64(p + 248);
        _mm512_storeu_si512(p, _mm512_xor_si512(o0, x0));
        _mm512_storeu_si512(p + 64, _mm512_xor_si512(o1, x1));
        _mm512_storeu_si512(p + 128, _mm512_xor_si512(o2, x2));
        _mm512_storeu_si512(p + 192, _mm512_xor_si512(o3, x3));
    }
    return done;
}

Impl detect() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        return Impl::Avx512;
    if (__builtin_cpu_supports("avx2")) return Impl::Avx2;
    return Impl::Portable;
}

Impl defaultImpl() {
    static const Impl chosen = [] {
        Impl best = detect();
        if (const char* env = std::getenv("PAKFS_BLOWFISH")) {
            std::string_view want(env);
            for (Impl i : {Impl::Portable, Impl::Avx2, Impl::Avx512})
                if (want == implName(i) && implAvailable(i)) return i;
        }
        return best;
    }();
    return chosen;
}

std::atomic<int> forced{-1};

}  // namespace

const std::uint32_t* piP() {
    return cryptoppPInit();
}

const std::uint32_t* piS() {
    return cryptoppSInit();
}

void encryptWords(const Schedule& k, std::uint32_t& l, std::uint32_t& r) {
    std::uint32_t a = l ^ k.p[0], b = r;
    for (int i = 1; i < 17; i += 2) {
        b ^= f(k, a) ^ k.p[i];
        a ^= f(k, b) ^ k.p[i + 1];
    }
    l = b ^ k.p[17];
    r = a;
}

void decryptWords(const Schedule& k, std::uint32_t& l, std::uint32_t& r) {
    std::uint32_t a = l ^ k.p[17], b = r;
    for (int i = 16; i > 0; i -= 2) {
        b ^= f(k, a) ^ k.p[i];
        a ^= f(k, b) ^ k.p[i - 1];
    }
    l = b ^ k.p[0];
    r = a;
}

void expandKey(Schedule& out, const std::uint8_t* key, std::size_t size) {
    const std::uint32_t* p = piP();
    std::size_t at = 0;
    for (std::size_t i = 0; i < 18; ++i) {
        std::uint32_t w = 0;
        for (int j = 0; j < 4; ++j) w = w << 8 | key[at++ % size];
        out.p[i] = p[i] ^ w;
    }
    std::memcpy(out.s.data(), piS(), sizeof(out.s));
    std::uint32_t l = 0, r = 0;
    for (std::size_t i = 0; i < 18; i += 2) {
        encryptWords(out, l, r);
        out.p[i] = l;
        out.p[i + 1] = r;
    }
    for (std::size_t i = 0; i < out.s.size(); i += 2) {
        encryptWords(out, l, r);
        out.s[i] = l;
        out.s[i + 1] = r;
    }
}

const char* implName(Impl impl) {
    switch (impl) {
        case Impl::Portable:
            return "portable";
        case Impl::Avx2:
            return "avx2";
        case Impl::Avx512:
            return "avx512";
    }
    return "?";
}

bool implAvailable(Impl impl) {
    switch (impl) {
        case Impl::Portable:
            return true;
        case Impl::Avx2:
            return detect() != Impl::Portable;
        case Impl::Avx512:
            return detect() == Impl::Avx512;
    }
    return false;
}

std::vector<Impl> availableImpls() {
    std::vector<Impl> out;
    for (Impl i : {Impl::Portable, Impl::Avx2, Impl::Avx512})
        if (implAvailable(i)) out.push_back(i);
    return out;
}

Impl activeImpl() {
    int f = forced.load(std::memory_order_relaxed);
    return f >= 0 ? Impl(f) : defaultImpl();
}

bool forceImpl(std::optional<Impl> impl) {
    if (impl && !implAvailable(*impl)) return false;
    forced.store(impl ? int(*impl) : -1, std::memory_order_relaxed);
    return true;
}

bool cbcDecrypt(Impl impl, const Schedule& k, std::uint8_t* data, std::size_t size,
                std::uint64_t& iv) {
    if (impl == Impl::Portable) return false;
    std::size_t blocks = size / 8, done = 0;
    const std::size_t batch = impl == Impl::Avx512 ? 32 : 16;
    auto kernel = [&](std::uint8_t* p, std::size_t n, std::uint64_t& prev) {
        return impl == Impl::Avx512 ? cbcAvx512(k, p, n, prev) : cbcAvx2(k, p, n, prev);
    };
    done = kernel(data, blocks, iv);
    // Most entries end in a partial batch, which the scalar code would take at a fifth of the
    // speed: from a quarter batch on, one more batch over a copy padded with zeros. A block
    // decrypts from itself and the one before, so the padding changes none of the real blocks.
    const std::size_t rest = blocks - done;
    if (rest >= batch / 4) {
        alignas(64) std::uint8_t pad[32 * 8] = {};
        std::uint8_t* p = data + done * 8;
        std::memcpy(pad, p, rest * 8);
        const std::uint64_t last = loadU64(p + (rest - 1) * 8);
        kernel(pad, batch, iv);
        std::memcpy(p, pad, rest * 8);
        iv = last;
        done = blocks;
    }
    cbcTail(k, data + done * 8, blocks - done, iv);
    return true;
}

}  // namespace pakfs::archive::bfsimd
