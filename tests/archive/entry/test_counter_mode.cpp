// SPDX-License-Identifier: GPL-2.0-or-later
// Version 6+ files encrypted in counter mode (an encrypted file flagged seekable; doc/FORMAT.md
// §5.4), in packs the test helper lays out itself (tests/support/CounterPack.hpp): exact bytes
// through the library and the pak command, the refusal without --unverified, the labels, and file
// tables whose sizes lie.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/CounterPack.hpp"
#include "tests/support/PakEntries.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using test::kPak;
using test::q;
namespace fs = std::filesystem;

namespace {

const PakKey kCounterPackKey = {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                                0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
const std::string kCounterPackKeyArg = "--key 1032547698badcfe0123456789abcdef";

// The files of every test pack: a stored counter-mode file over several 256-byte segments
// and not a multiple of 8 bytes, a compressed one (zlib, or LZ4 in version 18), a gbx file in
// counter mode, and a plain file in CBC beside them.
struct Contents {
    Bytes notes = test::compressibleText(1000 + 3, 11);
    Bytes config = test::compressibleText(70000, 12);
    Bytes map = [] {
        Bytes b = test::randomBytes(600, 13);
        b[0] = 'G', b[1] = 'B', b[2] = 'X';
        return b;
    }();
    Bytes readme = test::compressibleText(5000, 14);
};

std::vector<test::CounterPackFile> packFiles(const Contents& c, std::uint32_t version) {
    const EntryCodec codec = version >= 18 ? EntryCodec::Lz4 : EntryCodec::Zlib;
    return {{"notes.xml", c.notes},
            {"config.xml", c.config, codec},
            {"Demo.Map.Gbx", c.map},
            {"readme.txt", c.readme, codec, false}};
}

std::string refusal(const fs::path& pak, const std::string& path, const char* stored) {
    return pak.string() + ": " + path + ": encrypted in counter mode (seekable flag) and " +
           stored +
           ": its bytes cannot be verified; pass --unverified (pak) or -o unverified (pakfs) to "
           "read it unverified";
}

const std::string kStoredUnproven =
    "decoded in counter mode (seekable flag) without proof: stored, no checksum covers its bytes";

}  // namespace

TEST_CASE("counter mode: Blowfish::counterXor is the notes' keystream, from any block",
          "[v6][counter][crypto]") {
    for (std::uint32_t version : {17u, 18u}) {
        INFO("version " << version);
        Blowfish cipher(kCounterPackKey, CipherVariant::forPakVersion(version));
        const Bytes plain = test::randomBytes(1000, 21);
        const std::uint64_t iv = 0xFFFFFFFFFFFFFF00ull;  // the counter wraps past 2^64
        Bytes expected = plain;
        test::counterModeEncrypt(expected, iv, cipher);
        Bytes ours = plain;
        cipher.counterXor(ours.data(), ours.size(), iv, 0);
        CHECK(ours == expected);
        // Any block on its own: the slice from body offset 264 (segment 1, block 1).
        Bytes slice(expected.begin() + 264, expected.begin() + 264 + 400);
        cipher.counterXor(slice.data(), slice.size(), iv, 264);
        CHECK(slice == Bytes(plain.begin() + 264, plain.begin() + 264 + 400));
        // The first block is the encryption of iv + 8, the first of segment 1 that of iv + 264.
        std::uint8_t k[8];
        storeLE64(k, iv + 8);
        cipher.encryptBlock(k);
        CHECK(loadLE64(expected.data()) == (loadLE64(plain.data()) ^ loadLE64(k)));
        storeLE64(k, iv + 8 + 256);
        cipher.encryptBlock(k);
        CHECK(loadLE64(expected.data() + 256) == (loadLE64(plain.data() + 256) ^ loadLE64(k)));
    }
}

TEST_CASE("counter mode: the library reads such files only when proven or asked to",
          "[v6][counter]") {
    const Contents c;
    for (std::uint32_t version : {6u, 12u, 14u, 17u, 18u}) {
        INFO("version " << version);
        test::TempDir dir;
        const fs::path path = dir / "Counter.Pack.Gbx";
        test::writeCounterPack(path, version, kCounterPackKey, packFiles(c, version));
        auto pak = PakIndex::open(path, kCounterPackKey);
        CHECK(pak->warnings().empty());  // every checksum of the helper's pack is right
        const PakEntry& notes = test::entryAt(*pak, "notes.xml");
        const PakEntry& config = test::entryAt(*pak, "config.xml");
        const PakEntry& map = test::entryAt(*pak, "Demo.Map.Gbx");
        const PakEntry& readme = test::entryAt(*pak, "readme.txt");
        CHECK(notes.counterMode);
        CHECK(config.counterMode);
        CHECK(map.counterMode);
        CHECK_FALSE(readme.counterMode);
        CHECK_FALSE(pak->nodeReadsMixCipher(map));

        // Stored: nothing proves it.
        CHECK_THROWS_WITH(readEntry(pak, notes),
                          refusal(path, "notes.xml", "stored without a checksum"));
        GbxDecodeOptions allow;
        allow.unverified = true;
        std::vector<std::string> warnings;
        Bytes got;
        readEntry(
            pak, notes, [&](ByteSpan b) { got.insert(got.end(), b.begin(), b.end()); }, allow,
            [&](const std::string& w) { warnings.push_back(w); });
        CHECK(got == c.notes);
        CHECK(warnings ==
              std::vector<std::string>{path.string() + ": notes.xml: " + kStoredUnproven});
        CHECK(readEntry(pak, readme) == c.readme);

        // Compressed: zlib's Adler-32 proves it; LZ4 keeps no checksum.
        if (version < 18) {
            CHECK(readEntry(pak, config) == c.config);
            CHECK(counterModeKind(config) == std::string("counter"));
        } else {
            CHECK_THROWS_WITH(
                readEntry(pak, config),
                refusal(path, "config.xml", "LZ4-compressed, which keeps no checksum"));
            CHECK(readEntry(pak, config, allow) == c.config);
            CHECK(counterModeDetail(config) ==
                  "decoded in counter mode (seekable flag) without proof: LZ4 keeps no checksum");
        }

        // Random access in a stored counter-mode file: any block decrypts on its own.
        {
            PlainEntryReader reader(pak, notes, ReadRequest().allowUnverified(true));
            CHECK(reader.unproven());
            Bytes part(100);
            reader.seek(300);
            REQUIRE(reader.read(part.data(), part.size()) == 100);
            CHECK(part == Bytes(c.notes.begin() + 300, c.notes.begin() + 400));
            reader.seek(5);
            REQUIRE(reader.read(part.data(), 3) == 3);
            CHECK(Bytes(part.begin(), part.begin() + 3) ==
                  Bytes(c.notes.begin() + 5, c.notes.begin() + 8));
            reader.seek(998);
            CHECK(reader.read(part.data(), part.size()) == 5);  // the last bytes
            CHECK(Bytes(part.begin(), part.begin() + 5) == Bytes(c.notes.end() - 5, c.notes.end()));
        }
        CHECK_THROWS_WITH(PlainEntryReader(pak, notes),
                          refusal(path, "notes.xml", "stored without a checksum"));

        // A gbx file in counter mode: no node reads mix its cipher; it reads as a plain file.
        CHECK(isGbxEntry(*pak, map));
        GbxDecode refused = decodeGbxEntryProven(pak, map);
        CHECK(refused.kind == GbxDecodeKind::Refused);
        CHECK(refused.detail == refusal(path, "Demo.Map.Gbx", "stored without a checksum"));
        GbxDecode unverified = decodeGbxEntryProven(pak, map, allow);
        CHECK(unverified.kind == GbxDecodeKind::Unverified);
        CHECK(unverified.bytes == c.map);
        CHECK(unverified.detail == path.string() + ": Demo.Map.Gbx: " + kStoredUnproven);
    }
}

TEST_CASE("counter mode: pak cat, extract, ls and check", "[v6][counter][cli]") {
    const Contents c;
    for (std::uint32_t version : {17u, 18u}) {
        INFO("version " << version);
        test::TempDir dir;
        const fs::path pak = dir / "Counter.Pack.Gbx";
        test::writeCounterPack(pak, version, kCounterPackKey, packFiles(c, version));
        const std::string base = q(pak) + " " + kCounterPackKeyArg;

        auto r = test::run(kPak + " cat " + base + " notes.xml");
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err == "pak: " + refusal(pak, "notes.xml", "stored without a checksum") + "\n");
        r = test::run(kPak + " cat --unverified " + base + " notes.xml");
        CHECK(r.code == 0);
        CHECK(r.out == std::string(c.notes.begin(), c.notes.end()));
        CHECK(r.err == "pak: warning: " + pak.string() + ": notes.xml: " + kStoredUnproven + "\n");
        r = test::run(kPak + " cat --unverified " + base + " Demo.Map.Gbx");
        CHECK(r.code == 0);
        CHECK(r.out == std::string(c.map.begin(), c.map.end()));
        CHECK(r.err ==
              "pak: warning: " + pak.string() + ": Demo.Map.Gbx: " + kStoredUnproven + "\n");

        // extract: the refused files are named, the others written.
        const fs::path out = dir / "out";
        r = test::run(kPak + " extract -q -j 1 " + base + " " + q(out));
        CHECK(r.code == 1);
        std::string expectedErr =
            "pak: " + refusal(pak, "notes.xml", "stored without a checksum") + "\n";
        if (version >= 18)
            expectedErr +=
                "pak: " + refusal(pak, "config.xml", "LZ4-compressed, which keeps no checksum") +
                "\n";
        expectedErr += "pak: " + refusal(pak, "Demo.Map.Gbx", "stored without a checksum") + "\n";
        expectedErr += std::string("pak: ") + (version >= 18 ? "3" : "2") +
                       " of 4 files could not be extracted\n";
        CHECK(r.err == expectedErr);
        CHECK_FALSE(fs::exists(out / "notes.xml"));
        CHECK(test::readFile(out / "readme.txt") == c.readme);
        if (version < 18) CHECK(test::readFile(out / "config.xml") == c.config);
        const fs::path all = dir / "all";
        r = test::run(kPak + " extract -q -j 1 --unverified " + base + " " + q(all));
        CHECK(r.code == 0);
        CHECK(test::readFile(all / "notes.xml") == c.notes);
        CHECK(test::readFile(all / "config.xml") == c.config);
        CHECK(test::readFile(all / "Demo.Map.Gbx") == c.map);
        CHECK(test::readFile(all / "readme.txt") == c.readme);
        std::string warned =
            "pak: warning: " + pak.string() + ": notes.xml: " + kStoredUnproven + "\n";
        if (version >= 18)
            warned += "pak: warning: " + pak.string() +
                      ": config.xml: decoded in counter mode (seekable flag) without proof: LZ4 "
                      "keeps no checksum\n";
        warned += "pak: warning: " + pak.string() + ": Demo.Map.Gbx: " + kStoredUnproven + "\n";
        CHECK(r.err == warned);

        // ls -l: the kind column says it.
        const std::string configKind = version >= 18 ? "counter:unverified" : "counter";
        const std::string flags = "0000000000000044";  // compressed, seekable
        r = test::run(kPak + " ls -l " + base);
        CHECK(r.code == 0);
        auto row = [](std::uint64_t size, std::uint64_t csize, const std::string& flags,
                      const std::string& kind, const std::string& path) {
            char buf[256];
            std::snprintf(buf, sizeof buf, "%10llu %10llu 09041000 %s %-12s %s\n",
                          (unsigned long long)size, (unsigned long long)csize, flags.c_str(),
                          kind.c_str(), path.c_str());
            return std::string(buf);
        };
        auto open = PakIndex::open(pak, kCounterPackKey);
        const PakEntry& config = test::entryAt(*open, "config.xml");
        const PakEntry& readme = test::entryAt(*open, "readme.txt");
        CHECK(
            r.out ==
            row(c.notes.size(), c.notes.size(), "0000000000000040", "counter:unverified",
                "notes.xml") +
                row(c.config.size(), config.compressedSize, flags, configKind, "config.xml") +
                row(c.map.size(), c.map.size(), "0000000000000040", "counter:unverified",
                    "Demo.Map.Gbx") +
                row(c.readme.size(), readme.compressedSize, "0000000000000004", "-", "readme.txt"));
        r = test::run(kPak + " ls --json " + base);
        REQUIRE(r.code == 0);
        auto list = nlohmann::json::parse(r.out);
        REQUIRE(list.size() == 4);
        CHECK(list[0]["counter_mode"] == true);
        CHECK(list[0]["decode"] == "counter:unverified");
        CHECK(list[1]["decode"] == configKind);
        CHECK(list[2]["gbx"] == true);
        CHECK(list[2]["decode"] == "counter:unverified");
        CHECK_FALSE(list[3].contains("counter_mode"));

        // check: one line per counter-mode file; the unverified ones fail the check.
        r = test::run(kPak + " check -q " + base);
        CHECK(r.code == 1);
        std::string configLine =
            version >= 18
                ? "counter:unverified config.xml: decoded in counter mode (seekable flag) "
                  "without proof: LZ4 keeps no checksum\n"
                : "counter       config.xml: decoded in counter mode (seekable flag); zlib's "
                  "Adler-32 and the size prove it\n";
        CHECK(r.out ==
              "counter:unverified notes.xml: " + kStoredUnproven + "\n" + configLine +
                  "counter:unverified Demo.Map.Gbx: " + kStoredUnproven + "\n" +
                  "4 files: 1 plain, 0 gbx (0 parsed, 0 header, 0 exact, 0 verified, 0 refused), "
                  "3 counter mode (" +
                  (version >= 18 ? "0 proven, 3 unverified" : "1 proven, 2 unverified") +
                  "), 0 undecodable\n");
        r = test::run(kPak + " check -q --json " + base);
        CHECK(r.code == 1);
        auto report = nlohmann::json::parse(r.out);
        CHECK(report["counter_mode"]["proven"] == (version >= 18 ? 0 : 1));
        CHECK(report["counter_mode"]["unverified"] == (version >= 18 ? 3 : 2));
        CHECK(report["failed"] == (version >= 18 ? 3 : 2));
        CHECK(report["entries"][0]["decode"] == "counter:unverified");
        CHECK(report["entries"][0]["gbx"] == false);
        CHECK(report["entries"][2]["gbx"] == true);
        CHECK(report["entries"][2]["counter_mode"] == true);
        CHECK_FALSE(report["entries"][3].contains("counter_mode"));
        CHECK(report["entries"][0]["detail"] == kStoredUnproven);
    }
}

TEST_CASE("counter mode: sizes that lie give an error naming the file", "[v6][counter][hostile]") {
    const Contents c;
    test::TempDir dir;
    const fs::path path = dir / "Lies.Pack.Gbx";
    // Listed first, so their lies stay inside the file and reach the reader.
    std::vector<test::CounterPackFile> files = {
        {"long.xml", c.notes, EntryCodec::Stored, true, 4096},
        {"short.xml", c.config, EntryCodec::Zlib, true, 5},
        {"cut.xml", c.config, EntryCodec::Zlib, true, 0, -40},
        {"readme.txt", c.readme, EntryCodec::Zlib, false}};
    test::writeCounterPack(path, 17, kCounterPackKey, files);
    auto pak = PakIndex::open(path, kCounterPackKey);
    GbxDecodeOptions allow;
    allow.unverified = true;
    // A stored file said to be longer than its slot: the v17 slot size bounds it.
    CHECK_THROWS_WITH(readEntry(pak, test::entryAt(*pak, "long.xml"), allow),
                      path.string() +
                          ": long.xml: damaged file table (5112 bytes of IV and data do not fit "
                          "its slot of 1024 bytes)");
    // zlib's stream ends before the size the table gives, or is cut short.
    CHECK_THROWS_WITH(readEntry(pak, test::entryAt(*pak, "short.xml")),
                      Catch::StartsWith(path.string() + ": short.xml: "));
    CHECK_THROWS_WITH(readEntry(pak, test::entryAt(*pak, "cut.xml")),
                      Catch::StartsWith(path.string() + ": cut.xml: "));
    CHECK(readEntry(pak, test::entryAt(*pak, "readme.txt")) == c.readme);
}
