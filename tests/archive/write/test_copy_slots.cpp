// SPDX-License-Identifier: GPL-2.0-or-later
// A commit copies the base's unchanged slots file to file: the pak it writes is byte for byte
// the pak `pak pack` makes of the changed tree, and every slot MD5 (version 14+) holds, whether
// the base's MD5 was reused or (a base whose contents checksum fails) computed anew.
#include <catch2/catch.hpp>

#include "archive/pak/PakIndex.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;

namespace {

const PakKey kKey = {0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87,
                     0x98, 0xA9, 0xBA, 0xCB, 0xDC, 0xED, 0xFE, 0x0F};

void makeTree(const std::filesystem::path& root, const Bytes& changed) {
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

// The base packed from one tree, the other tree packed fresh, and the base committed with the
// one changed file: the commit must be the fresh pak.
void commitMatchesFreshPack(std::uint32_t version, bool damageBase) {
    INFO("version " << version << (damageBase ? ", base damaged in a slot's padding" : ""));
    test::TempDir dir;
    makeTree(dir / "a", test::randomBytes(200000, 2));
    const Bytes changed = test::randomBytes(250000, 6);
    makeTree(dir / "b", changed);
    writePak(dir / "a", dir / "base.pak", kKey, optionsFor(version));
    writePak(dir / "b", dir / "fresh.pak", kKey, optionsFor(version));
    if (damageBase) {
        // A byte of the padding after small.txt's slot: no decoded byte changes, but the
        // contents checksum and that slot's MD5 fail, so no base MD5 may be reused.
        auto pak = PakIndex::open(dir / "base.pak", kKey);
        const PakEntry* small = nullptr;
        for (const auto& e : pak->entries())
            if (e.path == "Data/small.txt") small = &e;
        REQUIRE(small);
        const std::uint64_t used = small->ivSize() + small->cipherSize();
        REQUIRE(used % 64 != 0);
        Bytes bytes = test::readFile(dir / "base.pak");
        bytes[std::size_t(pak->entryOffset(*small) + used)] ^= 0x5A;
        test::writeFile(dir / "base.pak", bytes);
    }
    auto base = PakIndex::open(dir / "base.pak", kKey);
    if (damageBase) CHECK_FALSE(base->contentsChecksumMatches());
    test::writeFile(dir / "change/Data/b.bin", changed);
    ChangeSet changes;
    changes.root = dir / "change";
    changes.files["Data/b.bin"] = dir / "change/Data/b.bin";
    ChangePlan plan = planChanges(base, changes);
    REQUIRE(plan.changes.size() == 1);
    plan.options.jobs = 1;
    writePlan(plan.plan, dir / "commit.pak", kKey, plan.options);
    CHECK(test::readFile(dir / "commit.pak") == test::readFile(dir / "fresh.pak"));
    auto out = PakIndex::open(dir / "commit.pak", kKey);
    CHECK(out->warnings().empty());
    if (version >= 14) checkSlotMd5s(*out);
}

}  // namespace

TEST_CASE("commit: unchanged slots copied file to file, the same pak as packed fresh",
          "[commit][write]") {
    for (std::uint32_t version : {3u, 6u, 13u, 14u, 16u, 17u, 18u})
        commitMatchesFreshPack(version, false);
}

TEST_CASE("commit: a base whose contents checksum fails has its slot MD5s computed anew",
          "[commit][write]") {
    for (std::uint32_t version : {14u, 17u, 18u}) commitMatchesFreshPack(version, true);
}
