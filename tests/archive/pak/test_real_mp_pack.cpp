// SPDX-License-Identifier: GPL-2.0-or-later
// ManiaPlanet's own version 18 pack (../shared/fixtures/real-mp/dedicated.pak): which gbx files'
// node reads fold into the cipher, the flag bits the game sets (doc/FORMAT.md §3.4, §5.3), and
// what pakfs writes when the pack's files are packed again.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/ops/HashedNames.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using pakfs::test::q;

namespace {

// The base key the fixture's README gives (the project ships no game's keys), as hex.
std::string fixtureBaseKeyHex() {
    const Bytes readme = test::readFile(test::sharedDir("fixtures/real-mp") / "README.md");
    const std::string text(readme.begin(), readme.end());
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("base key of pack[^`]*`([0-9A-Fa-f]{32})`")));
    return m[1];
}

std::filesystem::path fixturePack() {
    return test::sharedDir("fixtures/real-mp") / "dedicated.pak";
}

PakKey fixtureKey() {
    return keyFromBaseKey(parseKeyOption(fixtureBaseKeyHex(), "--base-key"));
}

std::shared_ptr<const PakIndex> openFixture() {
    auto pak = PakIndex::open(fixturePack(), PakKeyInput{fixtureKey()});
    REQUIRE(pak->version() == 18);
    REQUIRE(pak->entries().size() == 997);
    return pak;
}

// Whether an entry's slot (IV, data, padding to its slot size) has the MD5 its row gives.
bool slotMd5Valid(const PakIndex& pak, const PakEntry& e) {
    if (!e.slotMd5 || !e.slotSize) return false;
    return md5(pak.file()->readAt(pak.entryOffset(e), *e.slotSize)) == *e.slotMd5;
}

constexpr std::uint64_t kNameBits = kFlagHashedName | kFlagPublished;

}  // namespace

TEST_CASE("ManiaPlanet's pack: node reads fold in every gbx file encrypted in CBC",
          "[real-mp][fixtures][folds]") {
    auto pak = openFixture();
    GbxDecodeOptions withoutFolds;
    withoutFolds.perNodeIvXor = false;
    std::size_t parsed = 0, foldsOnly = 0, compressedParsed = 0, compressedFoldsOnly = 0;
    for (const auto& e : pak->entries()) {
        if (!isGbxEntry(*pak, e)) continue;
        INFO(e.path);
        const GbxDecode d = decodeGbxEntryProven(pak, e);
        if (d.kind == GbxDecodeKind::Parsed) {
            ++parsed;
            // Every file that parses whole is one the rule folds: encrypted in CBC, no
            // DontUseDummyWrite; its flags hold nothing but a name bit (0x1 or 0x2) and, for an
            // LZ4 file, the compression bit (0x4).
            CHECK(pak->nodeReadsMixCipher(e));
            CHECK((e.flags & ~(kNameBits | kFlagZlib)) == 0);
            const bool compressed = (e.flags & kFlagZlib) != 0;
            compressedParsed += compressed;
            const GbxDecode w = decodeGbxEntryProven(pak, e, withoutFolds);
            if (w.kind == GbxDecodeKind::Refused) {
                ++foldsOnly;
                compressedFoldsOnly += compressed;
            } else
                CHECK(w.bytes == d.bytes);  // no fold reached a later segment
        } else if (pak->nodeReadsMixCipher(e) && d.kind == GbxDecodeKind::Refused) {
            // No file the fold rule refuses reads whole without folds (that would be a file
            // of this kind whose node reads do not fold).
            CHECK(decodeGbxEntryProven(pak, e, withoutFolds).kind == GbxDecodeKind::Refused);
        }
    }
    // Stored and LZ4-compressed files alike parse whole, most of them only with their node
    // reads folded (doc/FORMAT.md 5.3 gives the counts).
    CHECK(parsed >= 462);
    CHECK(foldsOnly >= 377);
    CHECK(compressedParsed >= 77);
    CHECK(compressedFoldsOnly >= 25);
}

TEST_CASE("ManiaPlanet's pack: the flag bits follow the rules FORMAT.md gives",
          "[real-mp][fixtures][game-fields]") {
    auto pak = openFixture();
    std::set<std::uint32_t> clearClasses, cryptedClasses;
    std::size_t stored = 0;
    for (const auto& e : pak->entries()) {
        INFO(e.path << " " << std::hex << e.flags);
        // Bit 0 on a hashed name, bit 1 on any other: exactly one of them.
        CHECK((e.flags & kNameBits) == (looksHashed(e.name) ? kFlagHashedName : kFlagPublished));
        // Bits 2..5: 0x04 on a compressed file (LZ4), nothing on a stored one.
        CHECK((e.flags & kFlagsCompressionMaskV6) == (e.compressed() ? 0x04u : 0u));
        // In the clear by bit 50 only (never bit 49), and seekable exactly when stored so.
        CHECK((e.flags & kFlagPublicFile) == 0);
        CHECK(e.encrypted == ((e.flags & kFlagForceNoCrypt) == 0));
        CHECK(((e.flags & kFlagSeekable) != 0) == (!e.encrypted && !e.compressed()));
        CHECK_FALSE(e.counterMode);
        (e.encrypted ? cryptedClasses : clearClasses).insert(e.classId);
        if (!e.compressed()) ++stored;
        // No stored file is larger than 2646 bytes.
        if (!e.compressed()) CHECK(e.uncompressedSize <= 2646u);
    }
    // The class decides what is left in the clear: no class is both.
    for (std::uint32_t c : clearClasses) CHECK(cryptedClasses.count(c) == 0);
    CHECK(stored == 805);
    // The record field: where a file's record lies in the gbx headers section, FFFFFFFF for
    // the 971 files without one.
    std::size_t noRecord = 0;
    for (const auto& e : pak->entries()) noRecord += e.unknown == 0xFFFFFFFFu;
    CHECK(noRecord == 971);
    REQUIRE(pak->packHeader());
    CHECK(pak->packHeader()->headerMaxSize == 1048576u);
}

TEST_CASE("ManiaPlanet's pack packed again: name bits, stored small files, header size",
          "[real-mp][fixtures][game-fields]") {
    auto game = openFixture();
    test::TempDir dir;
    // What extracts today (files refused by the readers are left out; exit status 1), under
    // the names the pack stores, as the game's pack is compared by them.
    test::run(test::kPak + " extract -q --hashed-names --base-key " + fixtureBaseKeyHex() + " " +
              q(fixturePack()) + " " + q(dir / "out"));
    PackOptions options;
    options.version = 18;
    options.jobs = 2;
    writePak(dir / "out", dir / "new.pak", game->key(), options);
    auto ours = PakIndex::open(dir / "new.pak", PakKeyInput{game->key()});
    REQUIRE(ours->warnings().empty());
    REQUIRE(ours->packHeader());
    CHECK(ours->packHeader()->headerMaxSize == 1048576u);
    CHECK(ours->dataOffset() == 1048576u);
    std::map<std::string, const PakEntry*> gameByPath;
    for (const auto& e : game->entries()) gameByPath.emplace(e.path, &e);
    REQUIRE(ours->entries().size() >= 400);
    std::size_t sameChoice = 0;
    for (const auto& e : ours->entries()) {
        INFO(e.path);
        auto found = gameByPath.find(e.path);
        REQUIRE(found != gameByPath.end());
        const PakEntry& g = *found->second;
        CHECK((e.flags & kNameBits) == (g.flags & kNameBits));
        // A gbx file's class is its header's; a plain file under a hashed name has no end of
        // name to give one (CPlugFile).
        const bool gbxFile = isGbxEntry(*ours, e);
        if (gbxFile) CHECK(e.classId == g.classId);
        if (!gbxFile && looksHashed(e.name)) CHECK(e.classId == kClassPlugFile);
        // Version 18 leaves the classes the game leaves in the clear so, with its flags.
        if (leftInClearByGame(e.classId)) {
            CHECK_FALSE(e.encrypted);
            CHECK_FALSE(g.encrypted);
            if (e.compressed() == g.compressed()) CHECK(e.flags == g.flags);
        }
        // No gbx headers section, so no record: FFFFFFFF, as the game's 971 files without one.
        CHECK(e.unknown == 0xFFFFFFFFu);
        CHECK(slotMd5Valid(*ours, e));
        // Files up to 2 KiB stored; larger ones compressed when LZ4 saves space.
        if (e.uncompressedSize <= kGameStoredUpTo) CHECK_FALSE(e.compressed());
        if (e.compressed() == g.compressed()) ++sameChoice;
    }
    // The game's choice is not a function of size alone (FORMAT.md §6.5): most agree.
    CHECK(sameChoice * 10 >= ours->entries().size() * 8);
}

TEST_CASE("ManiaPlanet's pack committed with a file added: its header fields and slots kept",
          "[real-mp][fixtures][commit]") {
    auto game = openFixture();
    test::TempDir dir;
    test::writeFile(dir / "change/Added/notes.txt", test::compressibleText(5000, 7));
    ChangeSet changes;
    changes.root = dir / "change";
    changes.folders = {"Added"};
    changes.folderSet = {"Added"};
    changes.files["Added/notes.txt"] = dir / "change/Added/notes.txt";
    ChangePlan plan = planChanges(game, changes);
    REQUIRE_FALSE(plan.changes.empty());
    CHECK(plan.changes.back().kind == 'A');
    CHECK(plan.changes.back().path == "Added/notes.txt");
    writePlan(plan.plan, dir / "out.pak", game->key(), plan.options);
    auto out = PakIndex::open(dir / "out.pak", PakKeyInput{game->key()});
    CHECK(out->warnings().empty());
    REQUIRE(out->packHeader());
    CHECK(out->packHeader()->usageSubDir == ":data:");
    CHECK(out->packHeader()->headerMaxSize == 1048576u);
    REQUIRE(out->entries().size() == 998);
    std::map<std::string, const PakEntry*> gameByPath;
    for (const auto& e : game->entries()) gameByPath.emplace(e.path, &e);
    for (const auto& e : out->entries()) {
        INFO(e.path);
        CHECK(slotMd5Valid(*out, e));
        auto found = gameByPath.find(e.path);
        if (found == gameByPath.end()) {
            CHECK(e.path == "Added/notes.txt");
            CHECK(e.flags == (kFlagPublished | 0x04));
            continue;
        }
        // Copied as it was: its IV and data, flags and record field; the base's MD5 where its
        // slot is the one the writer lays out (else computed anew, and valid above).
        const PakEntry& g = *found->second;
        CHECK(e.flags == g.flags);
        CHECK(e.unknown == g.unknown);
        const std::size_t used = std::size_t(g.ivSize() + g.cipherSize());
        CHECK(out->file()->readAt(out->entryOffset(e), used) ==
              game->file()->readAt(game->entryOffset(g), used));
        if (*g.slotSize == ((used + 63) & ~std::size_t(63))) CHECK(*e.slotMd5 == *g.slotMd5);
    }
}
