// SPDX-License-Identifier: GPL-2.0-or-later
// The pack the game wrote (TrackMania United Forever's Resource.pak, ../shared/fixtures/real):
// what pakfs returns of it, and how it proves each gbx file. The bytes are checked against a
// decode made here without the pipeline (plain Blowfish-CBC and zlib), where one applies.
#include <zlib.h>
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "archive/EntryReader.hpp"
#include "archive/GbxEntry.hpp"
#include "archive/PackList.hpp"
#include "archive/PakIndex.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

std::shared_ptr<const PakIndex> openRealPack() {
    auto path = test::sharedDir("fixtures/real") / "Resource.pak";
    return PakIndex::open(path, resolveKey(path, {}));
}

// The entry's stored bytes decrypted as plain CBC: exact wherever no ivXor applies (the first
// segment, and bytes 8..255 of every later one).
Bytes plainCbc(const PakIndex& pak, const PakEntry& e) {
    Bytes data = pak.file()->readAt(pak.entryOffset(e), 8 + e.cipherSize());
    std::uint64_t iv = loadLE64(data.data());
    Bytes body(data.begin() + 8, data.end());
    pak.cipher().cbcDecrypt(body.data(), body.size(), iv);
    return body;
}

std::uint32_t adler(const Bytes& b) {
    return std::uint32_t(adler32(adler32(0, nullptr, 0), b.data(), uInt(b.size())));
}

}  // namespace

TEST_CASE("game's pack: plain files, one-segment gbx files exact, compressed gbx proven",
          "[real-pack][fixtures]") {
    auto pak = openRealPack();
    REQUIRE(pak->entries().size() == 27);
    std::map<std::string, int> kinds;
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        Bytes cbc = plainCbc(*pak, e);
        if (!isGbxEntry(*pak, e)) {
            ++kinds["plain"];
            Bytes want(e.uncompressedSize);
            if (e.compressed()) {
                uLongf n = uLongf(want.size());
                REQUIRE(uncompress(want.data(), &n, cbc.data(), uLong(e.compressedSize)) == Z_OK);
                REQUIRE(n == want.size());
            } else {
                std::copy_n(cbc.begin(), want.size(), want.begin());
            }
            CHECK(readEntry(pak, e) == want);
            continue;
        }
        GbxDecode d = decodeGbxEntryProven(pak, e);
        ++kinds[gbxDecodeKindName(d.kind)];
        if (d.kind == GbxDecodeKind::Exact) {
            // The 7 .Texture.gbx files: one segment, so plain CBC is the whole truth.
            CHECK(e.path.find(".Texture.") != std::string::npos);
            CHECK_FALSE(e.compressed());
            REQUIRE(e.uncompressedSize <= 256);
            CHECK(d.bytes == Bytes(cbc.begin(), cbc.begin() + e.uncompressedSize));
        } else if (d.kind == GbxDecodeKind::Verified) {
            CHECK(e.compressed());
            CHECK(d.bytes.size() == e.uncompressedSize);
            // The zlib trailer, read here outside the pipeline: it lies outside the 8 bytes
            // that an ivXor changes in each of these entries, so plain CBC shows it as stored.
            std::uint64_t t = e.compressedSize - 4;
            REQUIRE(t % 256 >= 8);
            CHECK(adler(d.bytes) == (std::uint32_t(cbc[t]) << 24 | std::uint32_t(cbc[t + 1]) << 16 |
                                     std::uint32_t(cbc[t + 2]) << 8 | cbc[t + 3]));
            CHECK(std::string(d.bytes.begin(), d.bytes.begin() + 3) == "GBX");
            CHECK(readEntry(pak, e) == d.bytes);
        } else {
            CHECK(d.kind == GbxDecodeKind::Refused);
            CHECK(d.bytes.empty());
            CHECK_FALSE(e.compressed());
            CHECK(d.detail.find(": stored gbx entry with chunks no reader knows: cannot be "
                                "verified (unknown chunk ") != std::string::npos);
            CHECK_THROWS_WITH(readEntry(pak, e), d.detail);
        }
    }
    CHECK(kinds ==
          std::map<std::string, int>{{"plain", 13}, {"exact", 7}, {"verified", 5}, {"refused", 2}});
}

TEST_CASE(
    "game's pack: the two stored multi-segment gbx files are refused, and --unverified "
    "gives the scan's decode",
    "[real-pack][fixtures]") {
    auto pak = openRealPack();
    const std::map<std::string, std::string> refused = {
        {"Media/Shader/Default.ShaderSprite.Gbx",
         "0900200E of CPlugShaderSprite (09068000) at "
         "offset 86"},
        {"Media/ControlStyle/Default.ControlStyle.Gbx",
         "07017000 of CControlStyle (07017000) at "
         "offset 81"}};
    for (const auto& e : pak->entries()) {
        auto it = refused.find(e.path);
        if (it == refused.end()) continue;
        INFO(e.path);
        GbxDecode d = decodeGbxEntryProven(pak, e);
        REQUIRE(d.kind == GbxDecodeKind::Refused);
        std::string want = pak->name();
        want += ": ";
        want += e.path;
        want +=
            ": stored gbx entry with chunks no reader knows: cannot be verified (unknown chunk ";
        want += it->second;
        want += " is not skippable (FFFFFFFF follows, not \"PIKS\"): cannot read further)";
        CHECK(d.detail == want);
        GbxDecodeOptions o;
        o.unverified = true;
        GbxDecode u = decodeGbxEntryProven(pak, e, o);
        REQUIRE(u.kind == GbxDecodeKind::Unverified);
        REQUIRE(u.bytes.size() == e.uncompressedSize);
        CHECK(u.detail.find("written unverified") != std::string::npos);
        // Only the first 8 bytes of segments after the first can differ from plain CBC.
        Bytes cbc = plainCbc(*pak, e);
        for (std::size_t i = 0; i < u.bytes.size(); ++i)
            if (i < 256 || i % 256 >= 8) REQUIRE(u.bytes[i] == cbc[i]);
    }
}

TEST_CASE("game's pack: pak check reports every gbx entry and the counts", "[real-pack][cli]") {
    auto dir = test::sharedDir("fixtures/real");
    std::string command = PAKFS_PAK_BINARY;
    command += " check '";
    command += (dir / "Resource.pak").string();
    command += "'";
    auto r = test::run(command);
    CHECK(r.code == 1);
    CHECK(r.out.find("gbx exact     Media/Texture/Arrow.Texture.gbx: ") != std::string::npos);
    CHECK(r.out.find("gbx verified  Media/Font/Arial.Font.Gbx: scanned, ") != std::string::npos);
    CHECK(r.out.find("gbx refused   ") != std::string::npos);
    CHECK(r.out.find("\n27 files: 13 plain, 14 gbx (0 parsed, 7 exact, 5 verified, 2 refused), 0 "
                     "undecodable\n") != std::string::npos);
}

TEST_CASE("game's pack: pak check --json and pak ls --json carry how each gbx file decodes",
          "[real-pack][cli]") {
    auto dir = test::sharedDir("fixtures/real");
    std::string pak = PAKFS_PAK_BINARY;
    std::string target = "'" + (dir / "Resource.pak").string() + "'";
    auto r = test::run(pak + " check --json " + target);
    CHECK(r.code == 1);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["files"] == 27);
    CHECK(j["plain"] == 13);
    CHECK(j["gbx"] == nlohmann::json{{"parsed", 0}, {"exact", 7}, {"verified", 5}, {"refused", 2}});
    CHECK(j["failed"] == 2);
    std::map<std::string, std::string> decode;
    for (const auto& e : j["entries"])
        if (e["gbx"] == true) decode[e["path"]] = e["decode"];
    CHECK(decode["Media/Font/Arial.Font.Gbx"] == "verified");
    CHECK(decode["Media/Texture/Arrow.Texture.gbx"] == "exact");
    CHECK(decode["Media/Shader/Default.ShaderSprite.Gbx"] == "refused");
    r = test::run(pak + " ls --json " + target);
    CHECK(r.code == 0);
    std::map<std::string, int> kinds;
    for (const auto& e : nlohmann::json::parse(r.out))
        ++kinds[e.contains("decode") ? e["decode"].get<std::string>() : "plain"];
    CHECK(kinds ==
          std::map<std::string, int>{{"plain", 13}, {"exact", 7}, {"verified", 5}, {"refused", 2}});
}
