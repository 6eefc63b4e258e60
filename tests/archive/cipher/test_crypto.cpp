// SPDX-License-Identifier: GPL-2.0-or-later
// Blowfish as TrackMania uses it (standard and little-endian vectors, key lengths, CBC and its
// chaining), 128 CalcIVXor vectors, and packlist.dat read from a reference file and written back.
#include <catch2/catch.hpp>

#include "archive/cipher/Crypto.hpp"
#include "archive/pak/PackList.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using pakfs::test::fromHex;

namespace {
// Standard Blowfish equals the little-endian variant with every 4-byte group reversed.
Bytes swap32(Bytes b) {
    for (std::size_t i = 0; i + 4 <= b.size(); i += 4)
        std::reverse(b.begin() + i, b.begin() + i + 4);
    return b;
}
Bytes standardEncrypt(const Bytes& key, const Bytes& plain) {
    Blowfish bf(ByteSpan(swap32(key)));
    Bytes block = swap32(plain);
    bf.encryptBlock(block.data());
    return swap32(block);
}
}  // namespace

TEST_CASE("Blowfish: standard ECB vectors through the byte-order swap", "[crypto][vectors]") {
    auto rows = test::readTsv(test::sharedDir("vectors") / "blowfish-ecb.tsv");
    REQUIRE(rows.size() == 34);
    for (const auto& r : rows) {
        INFO("key " << r[0]);
        CHECK(hexString(standardEncrypt(fromHex(r[0]), fromHex(r[1])), true) == r[2]);
        Blowfish bf(ByteSpan(swap32(fromHex(r[0]))));
        Bytes block = swap32(fromHex(r[2]));
        bf.decryptBlock(block.data());
        CHECK(hexString(swap32(block), true) == r[1]);
    }
}

TEST_CASE("Blowfish: variable key lengths (multiples of 4)", "[crypto][vectors]") {
    auto rows = test::readTsv(test::sharedDir("vectors") / "blowfish-setkey.tsv");
    int checked = 0;
    for (const auto& r : rows) {
        Bytes key = fromHex(r[0]);
        if (key.size() % 4 != 0) continue;
        INFO("key " << r[0]);
        CHECK(hexString(standardEncrypt(key, fromHex(r[1])), true) == r[2]);
        ++checked;
    }
    CHECK(checked == 6);
}

TEST_CASE("Blowfish: TrackMania little-endian vectors", "[crypto][vectors]") {
    auto rows = test::readTsv(test::sharedDir("vectors") / "blowfish-nadeo-le-derived.tsv");
    REQUIRE(rows.size() == 4);
    for (const auto& r : rows) {
        Blowfish bf(ByteSpan(fromHex(r[0])));
        Bytes block = fromHex(r[1]);
        bf.encryptBlock(block.data());
        CHECK(hexString(block, true) == r[2]);
        bf.decryptBlock(block.data());
        CHECK(hexString(block, true) == r[1]);
    }
}

TEST_CASE("Blowfish-CBC: standard CBC vectors decrypt through the swap", "[crypto][vectors]") {
    auto rows = test::readTsv(test::sharedDir("vectors") / "remania-blowfish-cbc.tsv");
    REQUIRE(rows.size() == 4);
    for (const auto& r : rows) {
        Bytes key(r[1].begin(), r[1].end());
        Blowfish bf(ByteSpan(swap32(key)));
        Bytes data = swap32(fromHex(r[3]));
        std::uint64_t iv = loadLE64(swap32(fromHex(r[2])).data());
        bf.cbcDecrypt(data.data(), data.size(), iv);
        data = swap32(data);
        CHECK(std::string(data.begin(), data.end()) == r[4]);
        // And back: encryption restores the ciphertext.
        Bytes again = swap32(data);
        std::uint64_t iv2 = loadLE64(swap32(fromHex(r[2])).data());
        bf.cbcEncrypt(again.data(), again.size(), iv2);
        CHECK(hexString(swap32(again), true) == r[3]);
    }
}

TEST_CASE("CBC: chaining value after a call continues the stream", "[crypto]") {
    PakKey key{};
    for (int i = 0; i < 16; ++i) key[std::size_t(i)] = std::uint8_t(i * 7 + 1);
    Blowfish bf(key);
    Bytes plain(4096);
    for (std::size_t i = 0; i < plain.size(); ++i) plain[i] = std::uint8_t(i * 31 + 5);
    Bytes whole = plain;
    std::uint64_t iv = 0x1122334455667788;
    bf.cbcEncrypt(whole.data(), whole.size(), iv);
    Bytes parts = plain;
    std::uint64_t iv2 = 0x1122334455667788;
    for (std::size_t at = 0; at < parts.size(); at += 256)
        bf.cbcEncrypt(parts.data() + at, 256, iv2);
    CHECK(whole == parts);
    CHECK(iv == iv2);
    std::uint64_t iv3 = 0x1122334455667788;
    bf.cbcDecrypt(whole.data(), whole.size(), iv3);
    CHECK(whole == plain);
}

TEST_CASE("CalcIVXor: 128 vectors", "[crypto][vectors]") {
    auto rows = test::readTsv(test::sharedDir("vectors") / "ivxor.tsv");
    REQUIRE(rows.size() == 128);
    for (const auto& r : rows) {
        std::uint64_t start = std::stoull(r[0], nullptr, 16);
        std::uint64_t expected = std::stoull(r[2], nullptr, 16);
        CHECK(calcIvXor(start, ByteSpan(reinterpret_cast<const std::uint8_t*>(r[1].data()),
                                        r[1].size())) == expected);
    }
}

TEST_CASE("packlist.dat: names, key strings and keys of the reference file",
          "[packlist][vectors]") {
    auto dir = test::sharedDir("vectors");
    PackList list = readPackList(dir / "packlist-remania.dat");
    auto rows = test::readTsv(dir / "packlist-remania.tsv");
    REQUIRE(list.entries.size() == rows.size());
    CHECK(list.salt == 374512307u);
    CHECK_FALSE(list.signatureValid);  // the reference file is synthetic, not signed
    CHECK(list.trailingBytes == 34);   // the uncounted bytes before the last 16
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        CHECK(list.entries[i].name == r[3]);
        ByteSpan ks(reinterpret_cast<const std::uint8_t*>(list.entries[i].keyString.data()), 32);
        CHECK(hexString(ks, true) == r[7]);
        CHECK(hexString(list.entries[i].key(), true) == r[9]);
    }
}

TEST_CASE("packlist.dat: write, sign and read back", "[packlist]") {
    PackList list;
    list.salt = 123456789;
    list.entries.push_back({0, "Resource", "0123456789ABCDEF0123456789ABCDEF"});
    list.entries.push_back({1, "Stadium", "FEDCBA9876543210FEDCBA9876543210"});
    Bytes data = serializePackList(list);
    PackList back = parsePackList(data, "mem");
    CHECK(back.signatureValid);
    CHECK(back.trailingBytes == 0);
    REQUIRE(back.entries.size() == 2);
    CHECK(back.entries[1].name == "Stadium");
    CHECK(back.entries[1].keyString == "FEDCBA9876543210FEDCBA9876543210");
    CHECK(back.find("stadium") == &back.entries[1]);
    CHECK(back.entries[0].key() == md5(std::string("0123456789ABCDEF0123456789ABCDEFNadeoPak")));
    data[12] ^= 1;  // a flipped byte breaks the signature (a warning, not a refusal)
    CHECK_FALSE(parsePackList(data, "mem").signatureValid);
    CHECK_THROWS_WITH(parsePackList(ByteSpan(data).subspan(0, 20), "short.dat"),
                      Catch::Contains("short.dat: too short"));
}
