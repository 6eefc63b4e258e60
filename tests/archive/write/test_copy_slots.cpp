// SPDX-License-Identifier: GPL-2.0-or-later
// A commit copies the base's unchanged slots: the pak it writes is byte for byte the pak
// `pak pack` makes of the changed tree, and every slot MD5 (version 14+) holds, whether the
// base's MD5 was reused or (a base whose contents checksum fails) computed anew; a base opened
// as pak commit opens it (its contents checksum left out) passes a damaged slot on with the
// MD5 that shows it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "archive/ops/Check.hpp"
#include "archive/ops/PakOpener.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

const PakKey kCopySlotsKey = {0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87,
                              0x98, 0xA9, 0xBA, 0xCB, 0xDC, 0xED, 0xFE, 0x0F};

// The tree every test packs: Data/b.bin holds `changed`, the other files are the same each time.
void writeTreeWithChanged(const std::filesystem::path& root, const Bytes& changed) {
    test::writeFile(root / "Data/a.bin", test::randomBytes(300000, 1));
    test::writeFile(root / "Data/b.bin", changed);
    test::writeFile(root / "Data/c.txt", test::compressibleText(100000, 3));
    test::writeFile(root / "Data/small.txt", test::compressibleText(100, 4));
    test::writeFile(root / "z.bin", test::randomBytes(70000, 5));
}

PackOptions optionsFor(std::uint32_t version) {
    PackOptions o;
    o.version = version;
    o.jobs = 1;
    return o;
}

// Where two files' bytes first differ (the size of the shorter when one is the other's start),
// or -1: a failure names an offset rather than printing megabytes.
std::int64_t firstDifference(const Bytes& a, const Bytes& b) {
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    if (ia == a.end() && ib == b.end()) return -1;
    return std::int64_t(ia - a.begin());
}

const PakEntry* entryNamed(const PakIndex& pak, const std::string& path) {
    for (const auto& e : pak.entries())
        if (e.path == path) return &e;
    FAIL("no entry " << path);
    return nullptr;
}

// Every slot MD5 of a version 14+ pak holds over the slot as stored.
void checkSlotMd5s(const PakIndex& pak) {
    for (const auto& e : pak.entries()) {
        INFO(e.path);
        REQUIRE(e.slotMd5);
        const std::uint64_t size =
            e.slotSize ? *e.slotSize : (e.ivSize() + e.cipherSize() + 63) & ~std::uint64_t(63);
        CHECK(md5(pak.file()->readAt(pak.entryOffset(e), std::size_t(size))) == *e.slotMd5);
    }
}

// The base packed from one tree and the other tree packed fresh, in `dir`; with `damaged`,
// the base damaged in the padding after that file's slot: no decoded byte changes, but the
// contents checksum and that slot's MD5 fail. Returns where in its slot the byte is.
std::uint64_t makeBaseAndFresh(const test::TempDir& dir, std::uint32_t version,
                               const std::string& damaged = "") {
    writeTreeWithChanged(dir / "a", test::randomBytes(200000, 2));
    writeTreeWithChanged(dir / "b", test::randomBytes(250000, 6));
    writePak(dir / "a", dir / "base.pak", kCopySlotsKey, optionsFor(version));
    writePak(dir / "b", dir / "fresh.pak", kCopySlotsKey, optionsFor(version));
    if (damaged.empty()) return 0;
    auto pak = PakIndex::open(dir / "base.pak", kCopySlotsKey);
    const PakEntry* e = entryNamed(*pak, damaged);
    const std::uint64_t used = e->ivSize() + e->cipherSize();
    REQUIRE(used % 64 != 0);
    Bytes bytes = test::readFile(dir / "base.pak");
    bytes[std::size_t(pak->entryOffset(*e) + used)] ^= 0x5A;
    test::writeFile(dir / "base.pak", bytes);
    return used;
}

// The base committed with the one changed file into commit.pak.
void commitChange(const test::TempDir& dir, const std::shared_ptr<const PakIndex>& base) {
    test::writeFile(dir / "change/Data/b.bin", test::randomBytes(250000, 6));
    ChangeSet changes;
    changes.root = dir / "change";
    changes.files["Data/b.bin"] = dir / "change/Data/b.bin";
    ChangePlan plan = planChanges(base, changes);
    REQUIRE(plan.changes.size() == 1);
    plan.options.jobs = 1;
    writePlan(plan.plan, dir / "commit.pak", kCopySlotsKey, plan.options);
}

// The base packed from one tree, the other tree packed fresh, and the base committed with the
// one changed file: the commit must be the fresh pak. `contents`: how the base is opened (pak
// commit leaves the contents checksum out where every slot MD5 is sealed, version 14+).
void commitMatchesFreshPack(std::uint32_t version, bool damageBase,
                            PakIndex::ContentsCheck contents = PakIndex::ContentsCheck::Whole) {
    INFO("version " << version << (damageBase ? ", base damaged in a slot's padding" : "")
                    << (contents == PakIndex::ContentsCheck::Whole ? ""
                                                                   : ", opened as commit does"));
    test::TempDir dir;
    makeBaseAndFresh(dir, version, damageBase ? "Data/small.txt" : "");
    auto base = PakIndex::open(dir / "base.pak", PakKeyInput{kCopySlotsKey}, false, {}, contents);
    if (damageBase) CHECK_FALSE(base->contentsChecksumMatches());
    if (contents == PakIndex::ContentsCheck::UnlessSlotsSealed) {
        CHECK(base->contentsChecked() == (version >= 6 && version < 14));
        if (version >= 14) CHECK(base->slotMd5sSealed());
    }
    commitChange(dir, base);
    CHECK(firstDifference(test::readFile(dir / "commit.pak"), test::readFile(dir / "fresh.pak")) ==
          -1);
    auto out = PakIndex::open(dir / "commit.pak", kCopySlotsKey);
    CHECK(out->warnings().empty());
    if (version >= 14) checkSlotMd5s(*out);
}

}  // namespace

TEST_CASE("commit: unchanged slots copied file to file, the same pak as packed fresh",
          "[commit][write]") {
    for (std::uint32_t version : {3u, 6u, 13u, 14u, 16u, 17u, 18u}) {
        commitMatchesFreshPack(version, false);
        commitMatchesFreshPack(version, false, PakIndex::ContentsCheck::UnlessSlotsSealed);
    }
}

TEST_CASE("commit: a base whose contents checksum fails has its slot MD5s computed anew",
          "[commit][write]") {
    for (std::uint32_t version : {14u, 17u, 18u}) commitMatchesFreshPack(version, true);
}

TEST_CASE(
    "commit: a base opened without its contents checksum passes a damaged slot on with the "
    "MD5 that fails it",
    "[commit][write]") {
    for (std::uint32_t version : {14u, 17u, 18u}) {
        INFO("version " << version);
        test::TempDir dir;
        // z.bin: random bytes, stored, so only its slot MD5 can cover them.
        const std::uint64_t inSlot = makeBaseAndFresh(dir, version, "z.bin");
        // Opened whole, the base shows the damage: its checksum and z.bin's MD5 fail, so
        // nothing covers z.bin.
        auto whole = openPakIndex(dir / "base.pak", PakKeyInput{kCopySlotsKey});
        CHECK_FALSE(whole->contentsChecksumMatches());
        const CheckReport baseReport = checkPak(whole);
        // As pak commit opens it: the header MD5 and every slot's layout hold, so the checksum
        // is left out and the damage is not seen; every slot MD5 is kept.
        PakOpenOptions asCommit;
        asCommit.contents = PakIndex::ContentsCheck::UnlessSlotsSealed;
        auto base = openPakIndex(dir / "base.pak", PakKeyInput{kCopySlotsKey}, asCommit);
        CHECK_FALSE(base->contentsChecked());
        CHECK(base->slotMd5sSealed());
        CHECK(base->warnings().empty());
        commitChange(dir, base);
        // The commit is the fresh pak but for the damaged byte, copied as it is, and the
        // contents checksum over it.
        auto out = openPakIndex(dir / "commit.pak", PakKeyInput{kCopySlotsKey});
        const std::size_t at = std::size_t(out->entryOffset(*entryNamed(*out, "z.bin")) + inSlot);
        Bytes got = test::readFile(dir / "commit.pak");
        Bytes want = test::readFile(dir / "fresh.pak");
        REQUIRE(got.size() == want.size());
        CHECK(got[at] == (want[at] ^ 0x5A));
        got[at] = want[at];
        std::copy(want.begin() + 12, want.begin() + 44, got.begin() + 12);
        CHECK(firstDifference(got, want) == -1);
        // Its own checksum holds; z.bin's kept MD5 does not, so the commit claims no more than
        // the base did: nothing covers z.bin, and every other file is covered.
        CHECK(out->contentsChecksumMatches());
        CHECK(out->warnings().empty());
        const CheckReport report = checkPak(out);
        REQUIRE(report.entries.size() == baseReport.entries.size());
        for (std::size_t i = 0; i < report.entries.size(); ++i) {
            const CheckedEntry& e = report.entries[i];
            INFO(e.path);
            CHECK(e.error.empty());
            CHECK(baseReport.entries[i].error.empty());
            if (e.path == "z.bin") {
                CHECK(e.unverified ==
                      "stored, no checksum covers its bytes (its slot MD5 does not match)");
                CHECK(baseReport.entries[i].unverified ==
                      "stored, no checksum covers its bytes (neither the contents checksum nor "
                      "its slot MD5 matches)");
            } else {
                CHECK(e.unverified.empty());
                CHECK(baseReport.entries[i].unverified.empty());
            }
        }
        CHECK(report.plainUnverified == 1);
        CHECK(baseReport.plainUnverified == 1);
    }
}

TEST_CASE("commit: a base without slot MD5s is opened with its contents checksum",
          "[commit][write]") {
    for (std::uint32_t version : {6u, 13u}) {
        INFO("version " << version);
        test::TempDir dir;
        makeBaseAndFresh(dir, version, "Data/small.txt");
        PakOpenOptions asCommit;
        asCommit.contents = PakIndex::ContentsCheck::UnlessSlotsSealed;
        auto base = openPakIndex(dir / "base.pak", PakKeyInput{kCopySlotsKey}, asCommit);
        CHECK(base->contentsChecked());
        CHECK_FALSE(base->contentsChecksumMatches());
        REQUIRE(base->warnings().size() == 1);
        CHECK(base->warnings()[0] == (dir / "base.pak").string() +
                                         ": contents checksum (SHA-256) does not match: the file "
                                         "was changed or damaged after it was written");
    }
}
