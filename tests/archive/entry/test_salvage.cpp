// SPDX-License-Identifier: GPL-2.0-or-later
// Packs cut short: what --salvage reads of them (the whole files, proven as usual), what it
// names as lost and why, and the messages for stubs too short to hold a header.
#include <catch2/catch.hpp>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using test::kPak;
using test::q;
using test::run;
namespace fs = std::filesystem;

namespace {

// The first `n` bytes of `from`, written to `to`.
void cutCopy(const fs::path& from, const fs::path& to, std::uint64_t n) {
    Bytes whole = test::readFile(from);
    REQUIRE(n <= whole.size());
    test::writeFile(to, ByteSpan(whole).first(std::size_t(n)));
}

// Where an entry's bytes end, as its file table row says.
std::uint64_t entryEnd(const PakIndex& pak, const PakEntry& e) {
    return pak.entryOffset(e) + e.ivSize() + e.cipherSize();
}

std::vector<std::string> wholePaths(const PakIndex& pak) {
    std::vector<std::string> out;
    for (const auto& e : pak.entries())
        if (pak.whole(e)) out.push_back(e.path);
    return out;
}

// The error opening the index of `p` (with --salvage or without) gives, or "" when there is none.
std::string openIndexError(const fs::path& p, bool salvage) {
    try {
        PakIndex::open(p, PakKeyInput{test::testKey()}, salvage);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("salvage: a pack cut at several points, versions 3 and 6 to 18", "[pak][salvage]") {
    test::TempDir tree, dir;
    const Bytes a = test::compressibleText(5000, 1), b = test::randomBytes(3000, 2),
                c = test::compressibleText(2000, 3);
    test::writeFile(tree / "a.txt", a);
    test::writeFile(tree / "b.bin", b);
    test::writeFile(tree / "d/c.txt", c);
    const std::uint32_t version =
        GENERATE(3u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u);
    INFO("version " << version);
    PackOptions opts;
    opts.version = version;
    const fs::path full = dir / "full.pak";
    writePak(tree.path(), full, test::testKey(), opts);
    auto intact = PakIndex::open(full, test::testKey());
    REQUIRE(intact->entries().size() == 3);
    const auto& es = intact->entries();
    REQUIRE(es[0].path == "a.txt");
    REQUIRE(es[1].path == "b.bin");
    REQUIRE(es[2].path == "d/c.txt");
    const std::uint64_t end0 = entryEnd(*intact, es[0]), end1 = entryEnd(*intact, es[1]),
                        end2 = entryEnd(*intact, es[2]);
    REQUIRE(end0 < end1);
    REQUIRE(end1 < end2);
    const fs::path cut = dir / "cut.pak";
    const std::string name = cut.string();
    auto pastEnd = [](std::uint64_t end, std::uint64_t size) {
        return "data runs past the end of the file (ends at " + std::to_string(end) + ", file is " +
               std::to_string(size) + " bytes)";
    };

    SECTION("cut at the end of the first file, and one byte before the end of the second") {
        for (std::uint64_t n : {end0, end1 - 1}) {
            INFO("cut at " << n);
            cutCopy(full, cut, n);
            CHECK(openIndexError(cut, false) ==
                  name + ": cut short or damaged file table: b.bin: " + pastEnd(end1, n) +
                      "; --salvage reads the files that are whole");
            auto pak = PakIndex::open(cut, PakKeyInput{test::testKey()}, true);
            CHECK(wholePaths(*pak) == std::vector<std::string>{"a.txt"});
            CHECK(readEntry(pak, pak->entries()[0]) == a);
            REQUIRE(pak->incomplete().size() == 2);
            CHECK(pak->incompleteMessage(pak->entries()[1]) ==
                  name + ": b.bin: " + pastEnd(end1, n));
            CHECK(pak->incompleteMessage(pak->entries()[2]) ==
                  name + ": d/c.txt: " + pastEnd(end2, n));
            CHECK(pak->incompleteMessage(pak->entries()[0]).empty());
            // What is not whole is never read as if it were.
            CHECK_THROWS_AS(readEntry(pak, pak->entries()[1]), Error);
        }
    }
    SECTION("cut at the end of the second file") {
        cutCopy(full, cut, end1);
        auto pak = PakIndex::open(cut, PakKeyInput{test::testKey()}, true);
        CHECK(wholePaths(*pak) == std::vector<std::string>{"a.txt", "b.bin"});
        CHECK(readEntry(pak, pak->entries()[0]) == a);
        CHECK(readEntry(pak, pak->entries()[1]) == b);
        CHECK(pak->incomplete() == std::map<std::uint32_t, std::string>{{2, pastEnd(end2, end1)}});
    }
    SECTION("cut where the data starts: the file table lists, no file is whole") {
        const std::uint64_t n = intact->dataOffset();
        cutCopy(full, cut, n);
        auto pak = PakIndex::open(cut, PakKeyInput{test::testKey()}, true);
        CHECK(wholePaths(*pak).empty());
        CHECK(pak->incomplete().size() == 3);
        CHECK(pak->incompleteMessage(pak->entries()[0]) == name + ": a.txt: " + pastEnd(end0, n));
    }
    if (version >= 6) {
        SECTION("cut between the header and the data start") {
            const std::uint64_t n = intact->dataOffset() - 1;
            cutCopy(full, cut, n);
            CHECK(openIndexError(cut, false) ==
                  name + ": cut short: its file data starts at byte " +
                      std::to_string(intact->dataOffset()) + " and the file is " +
                      std::to_string(n) + " bytes (--salvage lists what its file table holds)");
            auto pak = PakIndex::open(cut, PakKeyInput{test::testKey()}, true);
            CHECK(wholePaths(*pak).empty());
            CHECK(pak->incomplete().size() == 3);
        }
    }
    SECTION("cut inside the file table: nothing can be salvaged, with or without --salvage") {
        const std::uint64_t tableStart = version >= 6 ? intact->packHeader()->size + 8 : 0x14;
        const std::uint64_t n = tableStart + 90;
        REQUIRE(n < intact->dataOffset());
        cutCopy(full, cut, n);
        const std::string expected =
            name + ": not a pak file (too short: " + std::to_string(n) +
            " bytes, which end inside its header and file table; its file data starts at byte " +
            std::to_string(intact->dataOffset()) +
            "): nothing can be salvaged without the whole file table";
        CHECK(openIndexError(cut, true) == expected);
        CHECK(openIndexError(cut, false) == expected);
    }
    SECTION("a whole pack opened with salvage is the pack") {
        auto pak = PakIndex::open(full, PakKeyInput{test::testKey()}, true);
        CHECK(wholePaths(*pak) == std::vector<std::string>{"a.txt", "b.bin", "d/c.txt"});
        CHECK(pak->incomplete().empty());
        CHECK(readEntry(pak, pak->entries()[2]) == c);
    }
}

TEST_CASE("salvage: a wrong key on a pack cut inside its file table is still a wrong key",
          "[pak][salvage]") {
    test::TempDir tree, dir;
    test::writeFile(tree / "a.txt", test::compressibleText(3000, 4));
    writePak(tree.path(), dir / "full.pak", test::testKey(), {});
    cutCopy(dir / "full.pak", dir / "cut.pak", 120);
    PakKey wrong = test::testKey();
    wrong[0] ^= 1;
    CHECK_THROWS_WITH(
        PakIndex::open(dir / "cut.pak", PakKeyInput{wrong}, true),
        Catch::StartsWith((dir / "cut.pak").string() + ": wrong key or damaged header ("));
}

TEST_CASE("cli: ls, extract and check --salvage on a cut pak, and stubs", "[cli][salvage]") {
    test::TempDir dir;
    const fs::path src = test::sourceDir() / "sample/tree";
    const std::string keyArg = std::string(" --key ") + test::kTestKeyHex;
    const std::uint32_t version = GENERATE(3u, 18u);
    INFO("version " << version);
    const fs::path full = dir / "full.pak";
    auto r = run(kPak + " pack -q --version " + std::to_string(version) + keyArg + " " + q(src) +
                 " " + q(full));
    REQUIRE(r.code == 0);
    auto intact = PakIndex::open(full, test::testKey());
    REQUIRE(intact->entries().size() == 7);
    const PakEntry& challenge = intact->entries()[5];
    const PakEntry& solid = intact->entries()[6];
    REQUIRE(challenge.path == "Tracks/Demo.Challenge.Gbx");
    REQUIRE(solid.path == "Tracks/Demo.Solid.Gbx");
    // Cut after the map: every file but the last is whole.
    const std::uint64_t n = entryEnd(*intact, challenge);
    const std::uint64_t solidEnd = entryEnd(*intact, solid);
    REQUIRE(n < solidEnd);
    const fs::path cut = dir / "cut.pak";
    cutCopy(full, cut, n);
    const std::string lost = "not salvaged: " + cut.string() +
                             ": Tracks/Demo.Solid.Gbx: data runs past the end of the file (ends "
                             "at " +
                             std::to_string(solidEnd) + ", file is " + std::to_string(n) +
                             " bytes)\n";
    // Version 3 keeps its metadata section after the data: cut off too, and said so.
    const std::string metadataWarning =
        version == 3 ? "pak: warning: " + cut.string() + ": metadata: offset " +
                           std::to_string(intact->metaDataOffset()) + " is outside the file\n"
                     : "";
    const std::string checksumWarnings =
        version == 3 ? ""
                     : "pak: warning: " + cut.string() +
                           ": contents checksum (SHA-256) does not match: the file was changed "
                           "or damaged after it was written\npak: warning: " +
                           cut.string() +
                           ": MD5 of the gbx headers section to the end of the file does not "
                           "match (the game refuses such a pack)\n";

    r = run(kPak + " ls" + keyArg + " " + q(cut));
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.ends_with("pak: " + cut.string() +
                          ": cut short or damaged file table: Tracks/Demo.Solid.Gbx: data runs "
                          "past the end of the file (ends at " +
                          std::to_string(solidEnd) + ", file is " + std::to_string(n) +
                          " bytes); --salvage reads the files that are whole\n"));

    r = run(kPak + " ls --salvage -l" + keyArg + " " + q(cut));
    CHECK(r.code == 1);
    CHECK(r.err == checksumWarnings + metadataWarning + "pak: " + lost);
    std::vector<std::string> lines;
    for (std::size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(r.out.substr(at, nl - at));
    REQUIRE(lines.size() == 6);
    CHECK(lines[0].ends_with(" Config/default.xml"));
    CHECK(lines[5].ends_with(" gbx:exact    Tracks/Demo.Challenge.Gbx"));

    const fs::path out = dir / "out";
    r = run(kPak + " extract -q --salvage" + keyArg + " " + q(cut) + " " + q(out));
    CHECK(r.code == 1);
    CHECK(r.err == checksumWarnings + metadataWarning + "pak: " + lost +
                       "pak: 1 of 7 files could not be extracted\n");
    for (const char* path :
         {"Config/default.xml", "Media/noise.bin", "Media/Texts/readme.txt",
          "Media/Texts/tracks.txt", "Scripts/Modes/Race.Script.txt", "Tracks/Demo.Challenge.Gbx"}) {
        INFO(path);
        CHECK(test::readFile(out / path) == test::readFile(src / path));
    }
    CHECK_FALSE(fs::exists(out / "Tracks/Demo.Solid.Gbx"));

    r = run(kPak + " check -q --salvage" + keyArg + " " + q(cut));
    CHECK(r.code == 1);
    // Version 3 keeps no checksum of its stored files; in version 18 the slot MD5 of each
    // whole file still matches (the contents checksum does not).
    const std::string unverified =
        version == 3 ? "plain unverified Media/noise.bin: stored, no checksum covers its bytes\n"
                       "plain unverified Scripts/Modes/Race.Script.txt: stored, no checksum "
                       "covers its bytes\n"
                     : "";
    CHECK(r.out ==
          unverified +
              "gbx exact     Tracks/Demo.Challenge.Gbx: read to the end by known chunk readers, "
              "every node slot filled, except 3 unknown skippable chunks skipped by size with no "
              "node signature in the data: no node read the reader did not see can change a "
              "byte" +
              std::string(version == 3 ? "; Adler-32 and size match" : " (no checksum)") + "\n" +
              lost + "7 files: 5 plain" + (version == 3 ? " (2 unverified)" : "") +
              ", 1 gbx (0 parsed, 0 header, 1 exact, 0 verified, 0 refused), 0 "
              "undecodable\n1 not salvaged (data past the end of the file)\n");

    // cat: a whole file of the cut pak is written as it is, the cut one is refused, by name.
    r = run(kPak + " cat" + keyArg + " " + q(cut) + " Config/default.xml");
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.ends_with("; --salvage reads the files that are whole\n"));
    r = run(kPak + " cat --salvage" + keyArg + " " + q(cut) + " Config/default.xml");
    CHECK(r.code == 0);
    CHECK(r.err == checksumWarnings + metadataWarning);
    const Bytes config = test::readFile(src / "Config/default.xml");
    CHECK(r.out == std::string(config.begin(), config.end()));
    r = run(kPak + " cat --salvage" + keyArg + " " + q(cut) + " Tracks/Demo.Solid.Gbx");
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err == checksumWarnings + metadataWarning + "pak: " + lost);

    // info: the header fields, and the files left out named.
    r = run(kPak + " info --salvage" + keyArg + " " + q(cut));
    CHECK(r.code == 1);
    CHECK(r.out.starts_with("file: " + cut.string() + "\nversion: " + std::to_string(version) +
                            "\n"));
    CHECK(r.err.ends_with("pak: " + lost));

    // The whole pak: --salvage changes nothing.
    r = run(kPak + " info --salvage" + keyArg + " " + q(full));
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == run(kPak + " info" + keyArg + " " + q(full)).out);
    r = run(kPak + " ls --salvage" + keyArg + " " + q(full));
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "Config/default.xml\nMedia/noise.bin\nMedia/Texts/readme.txt\nMedia/Texts/"
          "tracks.txt\nScripts/Modes/Race.Script.txt\nTracks/Demo.Challenge.Gbx\nTracks/"
          "Demo.Solid.Gbx\n");

    // A stub shorter than its version's header: named as such, with or without --salvage, and
    // before any key is looked up (no key given, no packlist beside it).
    const std::uint64_t stubSize = version == 3 ? 50 : 100;
    cutCopy(full, dir / "stub.pak", stubSize);
    const std::string stubError = "pak: " + (dir / "stub.pak").string() +
                                  ": not a pak file (too short: " + std::to_string(stubSize) +
                                  " bytes, " +
                                  (version == 3 ? "and a version 3 header takes at least 84)\n"
                                                : "which end inside the version 18 header)\n");
    for (const std::string& cmd :
         std::vector<std::string>{"ls", "ls --salvage", "check --salvage", "extract --salvage"}) {
        INFO(cmd);
        r = run(kPak + " " + cmd + " " + q(dir / "stub.pak") +
                (cmd.starts_with("extract") ? " " + q(dir / "x") : ""));
        CHECK(r.code == 1);
        CHECK(r.err == stubError);
    }
}
