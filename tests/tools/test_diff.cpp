// SPDX-License-Identifier: GPL-2.0-or-later
// pak diff as a user runs it: the lines, the counts, the JSON, the keys and the exit codes.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "archive/entry/EntryReader.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::kTestKeyHex;
using test::q;
using test::run;
namespace fs = std::filesystem;

namespace {

const std::string kDiffOtherKey = "ffeeddccbbaa99887766554433221100";

// A folder of four text files (all compressed), packed into `pak` with `key`.
void packDiffSource(const fs::path& src, const fs::path& pak, const std::string& key,
                    const std::string& extra = "") {
    if (!fs::exists(src)) {
        test::writeFile(src / "Media/a.txt", test::compressibleText(3000, 1));
        test::writeFile(src / "Media/b.txt", test::compressibleText(3000, 2));
        test::writeFile(src / "Media/c.txt", test::compressibleText(3000, 3));
        test::writeFile(src / "root.xml", test::compressibleText(2000, 4));
    }
    REQUIRE(run(kPak + " pack -q --key " + key + extra + " " + q(src) + " " + q(pak)).code == 0);
}

const archive::PakEntry& diffEntry(const archive::PakIndex& pak, const std::string& path) {
    for (const auto& e : pak.entries())
        if (e.path == path) return e;
    FAIL("no " << path << " in " << pak.name());
    throw std::logic_error("unreachable");
}

std::string diffSummary(const fs::path& a, const fs::path& b, const std::string& counts) {
    return a.string() + " -> " + b.string() + ": " + counts + "\n";
}

}  // namespace

TEST_CASE("diff: the same content is exit 0 and no lines, copied slots are not decoded",
          "[cli][diff]") {
    test::TempDir dir;
    const fs::path a = dir / "A.pak", b = dir / "B.pak", c = dir / "C.pak";
    packDiffSource(dir / "src", a, kTestKeyHex);
    auto r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(a));
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err == diffSummary(a, a,
                               "0 added, 0 deleted, 0 changed, 4 the same content (0 with other "
                               "table fields, 4 found the same without decoding)"));
    // Packed again: the writer's IVs come from the content, so the slots are the same bytes.
    packDiffSource(dir / "src", b, kTestKeyHex);
    r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err.ends_with("4 found the same without decoding)\n"));
    // At another level the compressed bytes differ: decoded, and the same.
    packDiffSource(dir / "src", c, kTestKeyHex, " --level 1");
    r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(c));
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err == diffSummary(a, c,
                               "0 added, 0 deleted, 0 changed, 4 the same content (0 with other "
                               "table fields, 0 found the same without decoding)"));
}

TEST_CASE("diff: a commit that adds, deletes and changes a file names exactly those, exit 1",
          "[cli][diff]") {
    test::TempDir dir;
    const fs::path a = dir / "Pack.pak", b = dir / "out/Pack.pak";
    packDiffSource(dir / "src", a, kTestKeyHex);
    fs::create_directories(b.parent_path());
    const fs::path up = dir / "overlay/Pack";
    test::writeFile(up / "Media/b.txt", test::compressibleText(3100, 20));
    test::writeFile(up / "Media/.wh.c.txt", Bytes{});
    test::writeFile(up / "Media/n.txt", test::compressibleText(500, 21));
    REQUIRE(run(kPak + " commit -q --key " + kTestKeyHex + " " + q(a) + " " + q(dir / "overlay") +
                " " + q(b))
                .code == 0);
    // B has no packlist beside it: it opens with A's key.
    auto r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 1);
    CHECK(r.out == "M Media/b.txt\nD Media/c.txt\nA Media/n.txt\n");
    CHECK(r.err == diffSummary(a, b,
                               "1 added, 1 deleted, 1 changed, 2 the same content (0 with other "
                               "table fields, 2 found the same without decoding)"));
    // --fields changes nothing here: no field differs.
    r = run(kPak + " diff --fields --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 1);
    CHECK(r.out == "M Media/b.txt\nD Media/c.txt\nA Media/n.txt\n");
    // The other way round.
    r = run(kPak + " diff --key " + kTestKeyHex + " " + q(b) + " " + q(a));
    CHECK(r.code == 1);
    CHECK(r.out == "M Media/b.txt\nA Media/c.txt\nD Media/n.txt\n");

    // --json: one object, the same differences, sorted by path.
    r = run(kPak + " diff --json --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 1);
    const auto j = nlohmann::json::parse(r.out);
    const auto want = nlohmann::json::parse(R"({
        "a": ")" + a.string() + R"(", "b": ")" +
                                            b.string() + R"(",
        "files_a": 4, "files_b": 4, "added": 1, "deleted": 1, "changed": 1, "fields_only": 0,
        "same": 2, "not_decoded": 2,
        "differences": [{"path": "Media/b.txt", "change": "changed"},
                        {"path": "Media/c.txt", "change": "deleted"},
                        {"path": "Media/n.txt", "change": "added"}],
        "errors": []})");
    CHECK(j == want);
}

TEST_CASE("diff: a repack that changes only class IDs: F lines, exit 0, 1 with --fields",
          "[cli][diff]") {
    test::TempDir dir;
    const fs::path a = dir / "A.pak", donor = dir / "Donor.pak", b = dir / "B.pak";
    packDiffSource(dir / "src", a, kTestKeyHex);
    // B: the same files, Media/a.txt and root.xml encoded in place of a .dds entry of another
    // pak, whose class ID (09024000) they keep as a commit keeps a replaced file's.
    test::writeFile(dir / "donor/t.dds", test::compressibleText(100, 9));
    packDiffSource(dir / "donor", donor, kTestKeyHex);
    archive::PakKey key{};
    REQUIRE(parseHex(kTestKeyHex, key));
    auto donorPak = archive::PakIndex::open(donor, key);
    REQUIRE(donorPak->entries().size() == 1);
    const archive::PakEntry& dds = donorPak->entries()[0];
    REQUIRE(dds.classId == 0x09024000);
    archive::PackPlan plan;
    plan.folders = {{-1, "Media\\"}};
    for (const auto& [folder, name, asDds] :
         std::vector<std::tuple<int, std::string, bool>>{{0, "a.txt", true},
                                                         {0, "b.txt", false},
                                                         {0, "c.txt", false},
                                                         {-1, "root.xml", true}}) {
        archive::PlanFile f;
        f.folder = folder;
        f.name = name;
        f.packPath = folder < 0 ? name : "Media/" + name;
        f.disk = dir / "src" / f.packPath;
        if (asDds) {
            f.was = &dds;
            f.wasVersion = 3;
        }
        plan.files.push_back(f);
    }
    archive::writePlan(plan, b, key, archive::PackOptions{});
    // Only the class IDs differ (whatever the writer gives .txt and .xml files).
    auto packA = archive::PakIndex::open(a, key);
    const std::string lines = "F Media/a.txt: class " +
                              hex32(diffEntry(*packA, "Media/a.txt").classId) +
                              " -> 09024000\nF root.xml: class " +
                              hex32(diffEntry(*packA, "root.xml").classId) + " -> 09024000\n";
    auto r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 0);
    CHECK(r.out == lines);
    CHECK(r.err == diffSummary(a, b,
                               "0 added, 0 deleted, 0 changed, 4 the same content (2 with other "
                               "table fields, 4 found the same without decoding)"));
    r = run(kPak + " diff --fields --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 1);
    CHECK(r.out == lines);
    r = run(kPak + " diff --json --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["fields_only"] == 2);
    CHECK(j["differences"][0] ==
          nlohmann::json{
              {"path", "Media/a.txt"},
              {"change", "fields"},
              {"fields",
               {{"class_id",
                 {{"a", hex32(diffEntry(*packA, "Media/a.txt").classId)}, {"b", "09024000"}}}}}});
}

TEST_CASE("diff: B under another key needs --key-b, a changed file's other fields on its line",
          "[cli][diff]") {
    test::TempDir dir;
    const fs::path a = dir / "A.pak", b = dir / "B.pak";
    packDiffSource(dir / "src", a, kTestKeyHex);
    packDiffSource(dir / "src", b, kDiffOtherKey);
    // B opens with A's key when nothing gives it one: the wrong key is trouble, exit 2.
    auto r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(b));
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("pak: " + b.string() + ": wrong key or damaged header (", 0) == 0);
    r = run(kPak + " diff --key " + kTestKeyHex + " --key-b " + kDiffOtherKey + " " + q(a) + " " +
            q(b));
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    // Under two keys nothing is the same slot: every file is decoded.
    CHECK(r.err == diffSummary(a, b,
                               "0 added, 0 deleted, 0 changed, 4 the same content (0 with other "
                               "table fields, 0 found the same without decoding)"));
    // --packlist-b: B's key from a packlist (its entry named like B's file).
    const fs::path list = dir / "keys/packlist.dat";
    fs::create_directories(list.parent_path());
    r = run(kPak + " packlist add " + q(list) + " B");  // "B\tKEYSTRING\tKEY\n"
    REQUIRE(r.code == 0);
    const std::string bKey = r.out.substr(r.out.rfind('\t') + 1, 32);
    const fs::path c = dir / "C/B.pak";
    fs::create_directories(c.parent_path());
    test::writeFile(dir / "src2/Media/a.txt", test::compressibleText(3000, 1));
    test::writeFile(dir / "src2/Media/b.txt", test::randomBytes(300, 5));  // stored
    REQUIRE(run(kPak + " pack -q --key " + bKey + " " + q(dir / "src2") + " " + q(c)).code == 0);
    r = run(kPak + " diff --key " + kTestKeyHex + " --packlist-b " + q(list) + " " + q(a) + " " +
            q(c));
    CHECK(r.code == 1);
    // The flags as the writer sets them for a zlib and a stored file.
    archive::PakKey keyA{}, keyC{};
    REQUIRE(parseHex(kTestKeyHex, keyA));
    REQUIRE(parseHex(bKey, keyC));
    const std::uint64_t zlibFlags =
        diffEntry(*archive::PakIndex::open(a, keyA), "Media/b.txt").flags;
    const std::uint64_t storedFlags =
        diffEntry(*archive::PakIndex::open(c, keyC), "Media/b.txt").flags;
    REQUIRE(zlibFlags != storedFlags);
    CHECK(r.out == "M Media/b.txt: flags " + hex64(zlibFlags) + " -> " + hex64(storedFlags) +
                       ", compression zlib -> stored\nD Media/c.txt\nD root.xml\n");
}

TEST_CASE("diff: trouble is exit 2: a missing pak, a file that does not decode", "[cli][diff]") {
    test::TempDir dir;
    const fs::path a = dir / "A.pak";
    packDiffSource(dir / "src", a, kTestKeyHex);
    auto r = run(kPak + " diff --key " + kTestKeyHex + " " + q(a) + " " + q(dir / "nothere.pak"));
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "pak: " + (dir / "nothere.pak").string() + ": no such file\n");
    r = run(kPak + " diff --key " + kTestKeyHex + " " + q(dir / "nothere.pak") + " " + q(a));
    CHECK(r.code == 2);
    CHECK(r.err == "pak: " + (dir / "nothere.pak").string() + ": no such file\n");
    // Usage errors are 2 as for every command.
    r = run(kPak + " diff " + q(a));
    CHECK(r.code == 2);

    // A gbx file stored with --raw cannot be decoded exactly: if its slots differ, whether the
    // content does is not known. The other files are still compared.
    Bytes junk = {'G', 'B', 'X', 6, 0, 'B', 'U', 'U', 'R', 0, 0x30, 0x04, 0x03, 0, 0, 0, 0};
    junk.resize(400, 0xEE);
    test::writeFile(dir / "j1/bad.Map.Gbx", junk);
    test::writeFile(dir / "j1/ok.txt", test::compressibleText(500, 3));
    junk[300] = 0xEF;
    test::writeFile(dir / "j2/bad.Map.Gbx", junk);
    test::writeFile(dir / "j2/ok.txt", test::compressibleText(500, 4));
    for (const char* n : {"j1", "j2"})
        REQUIRE(run(kPak + " pack -q --raw '*.Gbx' --key " + kTestKeyHex + " " + q(dir / n) + " " +
                    q(dir / (std::string(n) + ".pak")))
                    .code == 0);
    r = run(kPak + " diff --key " + kTestKeyHex + " " + q(dir / "j1.pak") + " " +
            q(dir / "j2.pak"));
    CHECK(r.code == 2);
    CHECK(r.out == "M ok.txt\n");
    CHECK(r.err.rfind(
              "pak: " + (dir / "j1.pak").string() + ": bad.Map.Gbx: cannot be decoded exactly: ",
              0) == 0);
    CHECK(r.err.ends_with(
        diffSummary(dir / "j1.pak", dir / "j2.pak",
                    "0 added, 0 deleted, 1 changed, 0 the same content (0 with other table "
                    "fields, 0 found the same without decoding), 1 not compared")));
    // Copied byte for byte, it is the same without decoding.
    r = run(kPak + " diff --key " + kTestKeyHex + " " + q(dir / "j1.pak") + " " +
            q(dir / "j1.pak"));
    CHECK(r.code == 0);
}

TEST_CASE("diff: the game's pack against a commit of it and a repack with --base",
          "[cli][diff][real-pack]") {
    const fs::path real = test::sharedDir("fixtures/real") / "Resource.pak";
    auto pak = archive::PakIndex::open(real, archive::resolveKey(real, {}));
    const std::string keyHex = hexString(ByteSpan(pak->key().data(), pak->key().size()));
    test::TempDir dir;
    for (const auto& e : pak->entries())
        test::writeFile(dir / "src" / e.path, archive::readEntry(pak, e));
    // --base copies every file as its encrypted bytes with its table fields: nothing differs,
    // nothing is decoded.
    fs::create_directories(dir / "based");
    fs::create_directories(dir / "out");
    auto r = run(kPak + " pack -q --key " + keyHex + " --base " + q(real) + " " + q(dir / "src") +
                 " " + q(dir / "based/Resource.pak"));
    REQUIRE(r.code == 0);
    // Only the record field differs, for the 14 gbx files: it is where a file's record lies
    // in the metadata section, whose records follow the table's order, and the game's pack
    // lists its files in another order than the writer does (both follow the rule).
    r = run(kPak + " diff " + q(real) + " " + q(dir / "based/Resource.pak"));
    CHECK(r.code == 0);
    CHECK(r.err == diffSummary(real, dir / "based/Resource.pak",
                               "0 added, 0 deleted, 0 changed, 27 the same content (14 with "
                               "other table fields, 27 found the same without decoding)"));
    std::size_t recordLines = 0;
    for (std::size_t at = 0; at < r.out.size();) {
        const std::size_t end = r.out.find('\n', at);
        const std::string line = r.out.substr(at, end - at);
        INFO(line);
        CHECK(line.starts_with("F "));
        CHECK(line.find(": record ") != std::string::npos);
        CHECK(line.find(',') == std::string::npos);  // no other field
        ++recordLines;
        at = end + 1;
    }
    CHECK(recordLines == 14);
    // A commit that changes a gbx file's bytes, adds a file and deletes one: those three lines.
    const fs::path up = dir / "overlay/Resource";
    test::writeFile(up / "Media/Text/Added.txt", test::compressibleText(700, 8));
    test::writeFile(up / "Media/Texture/Image/.wh.Light.tga", Bytes{});
    Bytes shader = test::readFile(dir / "src/Media/Text/VHlsl/Common.VHlsl.Txt");
    const std::string extra = "\n// changed\n";
    shader.insert(shader.end(), extra.begin(), extra.end());
    test::writeFile(up / "Media/Text/VHlsl/Common.VHlsl.Txt", shader);
    r = run(kPak + " commit -q --key " + keyHex + " " + q(real) + " " + q(dir / "overlay") + " " +
            q(dir / "out/Resource.pak"));
    REQUIRE(r.code == 0);
    r = run(kPak + " diff " + q(real) + " " + q(dir / "out/Resource.pak"));
    CHECK(r.code == 1);
    CHECK(r.out ==
          "A Media/Text/Added.txt\nM Media/Text/VHlsl/Common.VHlsl.Txt\n"
          "D Media/Texture/Image/Light.tga\n");
    CHECK(r.err == diffSummary(real, dir / "out/Resource.pak",
                               "1 added, 1 deleted, 1 changed, 25 the same content (0 with other "
                               "table fields, 25 found the same without decoding)"));
}
