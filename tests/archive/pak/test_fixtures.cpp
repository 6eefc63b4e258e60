// SPDX-License-Identifier: GPL-2.0-or-later
// Packs written by another tool list and extract exactly as their manifests say.
#include <catch2/catch.hpp>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

const char* kPaks[] = {"tmpak_a_mixed", "tmpak_b_deep", "tmpak_c_rootfiles", "tmpak_d_metadata",
                       "tmpak_e_short3rd_noivxor"};

PakKey manifestKey(const std::filesystem::path& manifest) {
    std::ifstream in(manifest);
    std::string line;
    std::getline(in, line);
    REQUIRE(line.rfind("# key ", 0) == 0);
    PakKey key{};
    REQUIRE(parseHex(line.substr(6, 32), key));
    return key;
}

}  // namespace

TEST_CASE("tmpaktool fixtures: every entry lists and extracts as the manifest says",
          "[fixtures][pak]") {
    auto dir = test::sharedDir("fixtures/tmpaktool");
    for (const char* name : kPaks) {
        INFO(name);
        auto manifest = dir / (std::string(name) + ".manifest.tsv");
        auto rows = test::readTsv(manifest, false);
        auto pak = PakIndex::open(dir / (std::string(name) + ".pak"), manifestKey(manifest));
        REQUIRE(pak->entries().size() == rows.size());
        CHECK(pak->metadataError().empty());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& r = rows[i];
            const PakEntry& e = pak->entries()[i];
            INFO(r[0]);
            CHECK(e.path == r[0]);
            CHECK(e.uncompressedSize == std::stoul(r[1]));
            char cls[9];
            std::snprintf(cls, sizeof cls, "%08x", e.classId);
            CHECK(std::string(cls) == r[3]);
            char flags[17];
            std::snprintf(flags, sizeof flags, "%016llx", (unsigned long long)e.flags);
            CHECK(std::string(flags) == r[4]);
            CHECK(e.compressed() == (r[5] == "compressed"));
            CHECK_FALSE(isGbxEntry(*pak, e));
            Bytes content = readEntry(pak, e);
            CHECK(content.size() == e.uncompressedSize);
            CHECK(test::sha256Hex(content) == r[2]);
        }
    }
}

TEST_CASE("tmpaktool fixtures: header fields and header ivXor", "[fixtures][pak]") {
    auto dir = test::sharedDir("fixtures/tmpaktool");
    struct Expect {
        const char* name;
        std::uint64_t ivXor;
    } expects[] = {{"tmpak_a_mixed", 0x7f02a81d60aa},
                   {"tmpak_b_deep", 0x7782a81d60aa},
                   {"tmpak_c_rootfiles", 0x7782a81f40aa},
                   {"tmpak_d_metadata", 0x7782a81f40aa},
                   {"tmpak_e_short3rd_noivxor", 0}};
    for (const auto& x : expects) {
        INFO(x.name);
        auto manifest = dir / (std::string(x.name) + ".manifest.tsv");
        auto pak = PakIndex::open(dir / (std::string(x.name) + ".pak"), manifestKey(manifest));
        CHECK(pak->headerIvXor() == x.ivXor);
        // The table file lists the header fields as "# name<TAB>value".
        std::ifstream in(dir / (std::string(x.name) + ".table.tsv"));
        std::string line;
        int fields = 0;
        while (std::getline(in, line)) {
            if (line.rfind("# md5\t", 0) == 0) {
                CHECK(hexString(pak->headerMd5()) == line.substr(6));
                ++fields;
            } else if (line.rfind("# dataOffset\t", 0) == 0) {
                CHECK(pak->dataOffset() == std::stoul(line.substr(13), nullptr, 16));
                ++fields;
            } else if (line.rfind("# metaDataOffset\t", 0) == 0) {
                CHECK(pak->metaDataOffset() == std::stoul(line.substr(17), nullptr, 16));
                ++fields;
            }
        }
        CHECK(fields == 3);
    }
}

TEST_CASE("tmpaktool fixtures: metadata records", "[fixtures][pak][metadata]") {
    auto dir = test::sharedDir("fixtures/tmpaktool");
    auto manifest = dir / "tmpak_d_metadata.manifest.tsv";
    auto pak = PakIndex::open(dir / "tmpak_d_metadata.pak", manifestKey(manifest));
    auto rows = test::readTsv(dir / "tmpak_d_metadata.metadata.tsv", false);
    REQUIRE(rows.size() == 13);
    REQUIRE(pak->metadata().size() == rows.size());
    for (const auto& r : rows) {
        std::uint32_t index = std::stoul(r[0]);
        REQUIRE(pak->metadata().count(index) == 1);
        CHECK(hexString(pak->metadata().at(index)) == r[2]);
    }
}

TEST_CASE("tmpaktool fixtures: a wrong key is reported as such", "[fixtures][pak][errors]") {
    auto dir = test::sharedDir("fixtures/tmpaktool");
    PakKey wrong{};
    wrong[0] = 1;
    CHECK_THROWS_WITH(
        PakIndex::open(dir / "tmpak_a_mixed.pak", wrong),
        Catch::StartsWith((dir / "tmpak_a_mixed.pak").string() + ": wrong key or damaged header"));
}
