// SPDX-License-Identifier: GPL-2.0-or-later
// archive::checkPak: every entry decoded, counted by how its bytes are proven, and each
// entry's outcome (what pak check prints).
#include <catch2/catch.hpp>

#include "archive/ops/Check.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/support/SampleGbx.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace fs = std::filesystem;

namespace {

// "GBX" then garbage: stored with --raw, it cannot be proven when read back.
Bytes junkGbx() {
    Bytes junk = {'G', 'B', 'X', 6, 0, 'B', 'U', 'U', 'R', 0, 0x30, 0x04, 0x03, 0, 0, 0, 0};
    junk.resize(400, 0xEE);
    return junk;
}

const CheckedEntry& checkedEntry(const CheckReport& r, const std::string& path) {
    for (const auto& e : r.entries)
        if (e.path == path) return e;
    FAIL("no entry " << path);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("check: counts and labels of plain, parsed and refused entries", "[pak][check]") {
    test::TempDir tree, dir;
    test::writeFile(tree / "a.txt", test::compressibleText(3000, 1));
    test::writeFile(tree / "Empty.Map.Gbx", test::emptyMap().build());
    test::writeFile(tree / "bad.Map.Gbx", junkGbx());
    PackOptions opts;
    opts.rawGlobs = {"bad.Map.Gbx"};
    opts.warn = [](const std::string&) {};
    const fs::path pakPath = dir / "p.pak";
    writePak(tree.path(), pakPath, test::testKey(), opts);
    auto pak = PakIndex::open(pakPath, test::testKey());

    std::vector<std::string> seen;
    std::vector<std::size_t> progress;
    CheckOptions options;
    options.checked = [&](const CheckedEntry& e) { seen.push_back(e.path); };
    options.progress = [&](std::size_t done, std::size_t total, std::uint64_t, std::uint64_t) {
        CHECK(total == 3);
        progress.push_back(done);
    };
    const CheckReport r = checkPak(pak, options);

    CHECK(r.files == 3);
    CHECK(r.plain == 1);
    CHECK(r.gbxCount(GbxDecodeKind::Parsed) == 1);
    CHECK(r.gbxCount(GbxDecodeKind::Refused) == 1);
    CHECK(r.gbxTotal() == 2);
    CHECK(r.counterProven == 0);
    CHECK(r.counterUnverified == 0);
    CHECK(r.failed == 1);
    CHECK(r.incomplete == 0);
    CHECK(r.undecodable() == 0);
    // Every entry in the pak's order, reported as it is checked.
    std::vector<std::string> order;
    for (const auto& e : pak->entries()) order.push_back(e.path);
    CHECK(seen == order);
    REQUIRE(r.entries.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) CHECK(r.entries[i].path == order[i]);
    CHECK(progress == std::vector<std::size_t>{1, 2, 3});

    const CheckedEntry& plain = checkedEntry(r, "a.txt");
    CHECK(plain.gbx == false);
    CHECK(plain.decode.empty());
    CHECK(plain.error.empty());
    const CheckedEntry& parsed = checkedEntry(r, "Empty.Map.Gbx");
    CHECK(parsed.gbx == true);
    CHECK(parsed.decode == "parsed");
    CHECK(parsed.detail ==
          "parsed by known chunk readers to the end, every node slot filled (no checksum: the "
          "parse is the proof)");
    const CheckedEntry& refused = checkedEntry(r, "bad.Map.Gbx");
    CHECK(refused.gbx == true);
    CHECK(refused.decode == "refused");
    CHECK(refused.detail.rfind(pakPath.string() + ": bad.Map.Gbx: cannot be decoded exactly: ",
                               0) == 0);
    CHECK(refused.error.empty());
    CHECK_FALSE(refused.counterMode);
}

TEST_CASE("check: a pak cut short counts the entries not all in the file",
          "[pak][check][salvage]") {
    test::TempDir tree, dir;
    test::writeFile(tree / "a.txt", test::compressibleText(3000, 1));
    test::writeFile(tree / "b.bin", test::randomBytes(2000, 2));
    const fs::path full = dir / "full.pak", cut = dir / "cut.pak";
    writePak(tree.path(), full, test::testKey(), PackOptions{});
    auto intact = PakIndex::open(full, test::testKey());
    REQUIRE(intact->entries().size() == 2);
    REQUIRE(intact->entries()[0].path == "a.txt");
    const auto& first = intact->entries()[0];
    const std::uint64_t end = intact->entryOffset(first) + first.ivSize() + first.cipherSize();
    const Bytes whole = test::readFile(full);
    test::writeFile(cut, ByteSpan(whole).first(std::size_t(end)));
    auto pak = PakIndex::open(cut, PakKeyInput{test::testKey()}, true);

    const CheckReport r = checkPak(pak);
    CHECK(r.files == 2);
    CHECK(r.plain == 1);
    CHECK(r.gbxTotal() == 0);
    CHECK(r.failed == 1);
    CHECK(r.incomplete == 1);
    CHECK(r.undecodable() == 0);
    REQUIRE(r.entries.size() == 2);
    CHECK_FALSE(r.entries[0].incomplete);
    CHECK(r.entries[1].incomplete);
    CHECK_FALSE(r.entries[1].gbx.has_value());
    CHECK(r.entries[1].error == pak->incompleteMessage(pak->entries()[1]));
    CHECK(r.entries[1].error.find("b.bin: data runs past the end of the file") !=
          std::string::npos);
}

TEST_CASE("check: a pak without entries reports nothing and finishes its progress",
          "[pak][check]") {
    test::TempDir tree, dir;
    fs::create_directories(tree / "empty");
    const fs::path pakPath = dir / "p.pak";
    writePak(tree.path(), pakPath, test::testKey(), PackOptions{});
    auto pak = PakIndex::open(pakPath, test::testKey());
    REQUIRE(pak->entries().empty());
    std::vector<std::size_t> calls;
    CheckOptions options;
    options.progress = [&](std::size_t done, std::size_t total, std::uint64_t, std::uint64_t) {
        calls.push_back(done);
        calls.push_back(total);
    };
    const CheckReport r = checkPak(pak, options);
    CHECK(r.files == 0);
    CHECK(r.failed == 0);
    CHECK(r.entries.empty());
    CHECK(calls == std::vector<std::size_t>{0, 0});
}
