// SPDX-License-Identifier: GPL-2.0-or-later
// The pack the game wrote (TrackMania United Forever's Resource.pak, ../shared/fixtures/real):
// what pakfs returns of it, and how it proves each gbx file. The bytes are checked against a
// decode made here without the pipeline (plain Blowfish-CBC and zlib), where one applies.
#include <zlib.h>
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "gbx/Classes.hpp"
#include "gbx/GbxFile.hpp"
#include "tests/support/NodeSummary.hpp"
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

TEST_CASE("game's pack: plain files exact, every gbx file parsed whole and proven",
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
        REQUIRE(d.kind == GbxDecodeKind::Parsed);
        ++kinds[e.compressed() ? "gbx compressed" : "gbx stored"];
        REQUIRE(d.bytes.size() == e.uncompressedSize);
        CHECK(readEntry(pak, e) == d.bytes);
        // The node scan alone, with no chunk reader: what proved these files before the readers.
        GbxDecodeOptions scanOnly;
        scanOnly.scanOnly = true;
        scanOnly.unverified = true;
        GbxDecode scanned = decodeGbxEntryProven(pak, e, scanOnly);
        if (e.compressed()) {
            CHECK(d.detail ==
                  "parsed by known chunk readers to the end, every node slot filled; "
                  "Adler-32 and size match");
            // The parsed decode equals the scan's, which zlib's Adler-32 proves; the trailer is
            // read here outside the pipeline (it lies outside the 8 bytes an ivXor changes).
            REQUIRE(scanned.kind == GbxDecodeKind::Verified);
            CHECK(scanned.bytes == d.bytes);
            std::uint64_t t = e.compressedSize - 4;
            REQUIRE(t % 256 >= 8);
            CHECK(adler(d.bytes) == (std::uint32_t(cbc[t]) << 24 | std::uint32_t(cbc[t + 1]) << 16 |
                                     std::uint32_t(cbc[t + 2]) << 8 | cbc[t + 3]));
        } else {
            CHECK(d.detail ==
                  "parsed by known chunk readers to the end, every node slot filled "
                  "(no checksum: the parse is the proof)");
            // Plain CBC is the truth for the first segment and bytes 8..255 of every later one;
            // the scan's best decode (all it could give before) agrees with the parse.
            for (std::size_t i = 0; i < d.bytes.size(); ++i)
                if (i < 256 || i % 256 >= 8) REQUIRE(d.bytes[i] == cbc[i]);
            CHECK(scanned.bytes == d.bytes);
        }
    }
    CHECK(kinds ==
          std::map<std::string, int>{{"plain", 13}, {"gbx compressed", 5}, {"gbx stored", 9}});
}

TEST_CASE("game's pack: each engine class reader pinned on the game's files",
          "[real-pack][fixtures]") {
    auto pak = openRealPack();
    // Per file: the classes of its nodes in the order they are read (inline bodies included)
    // and values the readers note.
    struct Want {
        std::vector<std::string> classes;
        std::vector<std::pair<std::string, std::string>> values;  // (node:key, value)
    };
    const std::vector<std::string> solid = {
        "CPlugSolid",       "CPlugTree",        "CPlugVisualIndexedTriangles",
        "CPlugIndexBuffer", "CPlugShaderApply", "CPlugSurface",
        "CPlugSurfaceGeom"};
    const std::map<std::string, Want> want = {
        {"Media/Texture/Arrow.Texture.gbx", {{"CPlugBitmap"}, {{"0:image", "node 1"}}}},
        {"Media/Solid/Field.Solid.Gbx",
         {solid,
          {{"0:tree", "node 1"},
           {"1:name", "Box01"},
           {"1:visual", "node 2"},
           {"2:vertices", "24"},
           {"3:indices", "36"},
           {"6:shape", "box"}}}},
        {"Media/Shader/Default.ShaderSprite.Gbx",
         {{"CPlugShaderSprite", "CPlugShaderPass"}, {{"0:passes", "1"}}}},
        {"Media/Font/Arial.Font.Gbx",
         {{"CPlugFontBitmap", "CPlugShaderApply", "CPlugBitmapApply"},
          {{"0:characters", "1856"},
           {"0:kerning pairs", "99"},
           {"0:glyphs", "319"},
           {"0:pages", "1"},
           {"1:bitmap addresses", "1"},
           {"2:bitmap", "node 3"}}}},
        {"Media/ControlStyle/Default.ControlStyle.Gbx",
         {{"CControlStyle", "CFuncEnum", "CPlugShaderApply", "CPlugShaderApply", "CPlugShaderApply",
           "CPlugShaderApply", "CPlugMaterial", "CPlugShaderApply", "CPlugMaterial",
           "CPlugShaderApply"},
          {{"0:font", "node 6"},
           {"0:button icons", "node 1"},
           {"0:focus material", "node 7"},
           {"0:focus material read-only", "node 9"},
           {"1:values", "6"},
           {"6:device shaders", "1"}}}},
    };
    std::size_t seen = 0;
    for (const auto& e : pak->entries()) {
        auto it = want.find(e.path);
        if (it == want.end()) continue;
        INFO(e.path);
        ++seen;
        Bytes bytes = decodeGbxEntry(pak, e);
        pakfs::MemorySource src(bytes);
        gbx::GbxFile f = gbx::readGbx(src);
        CHECK(f.nodesComplete);
        CHECK(f.trailingBytes == 0);
        CHECK(f.unfilledSlots == 0);
        test::NodeSummary got = test::summarize(f);
        CHECK(got.allNodesComplete);
        CHECK(got.allChunksKnown);
        CHECK(got.classes == it->second.classes);
        for (const auto& [k, v] : it->second.values) {
            INFO(k);
            CHECK(got.values[k] == v);
        }
    }
    CHECK(seen == want.size());
}

TEST_CASE("game's pack: pak check reports every gbx entry parsed and the counts",
          "[real-pack][cli]") {
    auto dir = test::sharedDir("fixtures/real");
    std::string command = PAKFS_PAK_BINARY;
    command += " check '";
    command += (dir / "Resource.pak").string();
    command += "'";
    auto r = test::run(command);
    CHECK(r.code == 0);
    CHECK(r.out.find("gbx parsed    Media/Texture/Arrow.Texture.gbx: parsed by known chunk "
                     "readers to the end, every node slot filled (no checksum: the parse is the "
                     "proof)\n") != std::string::npos);
    CHECK(r.out.find("gbx parsed    Media/Font/Arial.Font.Gbx: parsed by known chunk readers to "
                     "the end, every node slot filled; Adler-32 and size match\n") !=
          std::string::npos);
    CHECK(r.out.find("gbx refused") == std::string::npos);
    // Its four stored plain files have no checksum (version 3 keeps none of a file's bytes):
    // each is named, counted, and the pack still checks clean.
    for (const char* path :
         {"Media/Texture/Image/NoBitmap.dds", "Media/Text/Vsh/SpritesOrtho.vsh.txt",
          "Media/Text/Vsh/Sprites.vsh.txt", "Media/Text/Vsh/Projector1.vsh.txt"})
        CHECK(r.out.find(std::string("plain unverified ") + path +
                         ": stored, no checksum covers its bytes\n") != std::string::npos);
    CHECK(r.out.find("\n27 files: 13 plain (4 unverified), 14 gbx (14 parsed, 0 header, 0 exact, 0 "
                     "verified, 0 refused), 0 undecodable\n") != std::string::npos);
    // --strict counts them as failures.
    r = test::run(command + " --strict -q");
    CHECK(r.code == 1);
    CHECK(
        r.out.ends_with("\n27 files: 13 plain (4 unverified), 14 gbx (14 parsed, 0 header, 0 "
                        "exact, 0 verified, 0 refused), 0 undecodable\n"));
}

TEST_CASE("game's pack: pak check --json and pak ls --json carry how each gbx file decodes",
          "[real-pack][cli]") {
    auto dir = test::sharedDir("fixtures/real");
    std::string pak = PAKFS_PAK_BINARY;
    std::string target = "'" + (dir / "Resource.pak").string() + "'";
    auto r = test::run(pak + " check --json " + target);
    CHECK(r.code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["files"] == 27);
    CHECK(j["plain"] == 13);
    CHECK(j["plain_unverified"] == 4);
    CHECK(j["gbx"] ==
          nlohmann::json{
              {"parsed", 14}, {"header", 0}, {"exact", 0}, {"verified", 0}, {"refused", 0}});
    CHECK(j["failed"] == 0);
    std::map<std::string, std::string> decode;
    for (const auto& e : j["entries"])
        if (e["gbx"] == true) decode[e["path"]] = e["decode"];
    CHECK(decode["Media/Font/Arial.Font.Gbx"] == "parsed");
    CHECK(decode["Media/Shader/Default.ShaderSprite.Gbx"] == "parsed");
    r = test::run(pak + " ls --json " + target);
    CHECK(r.code == 0);
    std::map<std::string, int> kinds;
    for (const auto& e : nlohmann::json::parse(r.out))
        ++kinds[e.contains("decode") ? e["decode"].get<std::string>() : "plain"];
    CHECK(kinds == std::map<std::string, int>{{"plain", 13}, {"parsed", 14}});
}

TEST_CASE(
    "game's pack: pak pack of its files, with and without --base, reads back parsed and "
    "byte-identical",
    "[real-pack][cli]") {
    auto real = openRealPack();
    test::TempDir dir;
    for (const auto& e : real->entries()) test::writeFile(dir / "src" / e.path, readEntry(real, e));
    std::string pakBin = PAKFS_PAK_BINARY;
    std::string keyHex = hexString(ByteSpan(real->key().data(), real->key().size()));
    std::string original = (test::sharedDir("fixtures/real") / "Resource.pak").string();
    for (bool base : {false, true}) {
        INFO("--base: " << base);
        std::string out = (dir / (base ? "based.pak" : "new.pak")).string();
        auto r =
            test::run(pakBin + " pack -q '" + (dir / "src").string() + "' '" + out + "' --key " +
                      keyHex + (base ? " --base '" + original + "'" : "") + " 2>&1");
        CHECK(r.code == 0);
        CHECK(r.out.find("warning") == std::string::npos);  // planned by the readers
        auto pak = PakIndex::open(out, real->key());
        REQUIRE(pak->entries().size() == 27);
        std::size_t parsed = 0;
        for (const auto& e : pak->entries()) {
            INFO(e.path);
            if (isGbxEntry(*pak, e)) {
                GbxDecode d = decodeGbxEntryProven(pak, e);
                CHECK(d.kind == GbxDecodeKind::Parsed);
                parsed += d.kind == GbxDecodeKind::Parsed;
            }
            CHECK(readEntry(pak, e) == test::readFile(dir / "src" / e.path));
        }
        CHECK(parsed == 14);
    }
}

TEST_CASE("game's pack: references by resource index are not resolved", "[real-pack][cli]") {
    // The font's node 3 is read as a bitmap (0907E008) and the control style's node 6 as a font
    // (0701701B); Resource.pak's file table holds a shader at index 24 and a DDS image at 5, so
    // the file-table mapping is wrong: pak says it does not know.
    auto dir = test::sharedDir("fixtures/real");
    std::string pak = PAKFS_PAK_BINARY;
    std::string target = "'" + (dir / "Resource.pak").string();
    auto r = test::run(pak + " gbx refs " + target + ":Media/Font/Arial.Font.Gbx'");
    CHECK(r.code == 0);
    CHECK(r.out ==
          "node 3\tresource #24\t-> (not resolved: resource index 24: which file it names is not "
          "known (not Resource.pak's file table order))\tUNKNOWN\n");
    r = test::run(pak + " gbx refs --json " + target +
                  ":Media/ControlStyle/Default.ControlStyle.Gbx'");
    CHECK(r.code == 0);
    CHECK(nlohmann::json::parse(r.out) == nlohmann::json::array({{{"node_index", 6},
                                                                  {"resource_index", 5},
                                                                  {"resolved", nullptr},
                                                                  {"exists", false},
                                                                  {"unknown", true}}}));
}
