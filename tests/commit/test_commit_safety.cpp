// SPDX-License-Identifier: GPL-2.0-or-later
// pak commit keeps what the game knows of the files it touches (class IDs, flags), knows the
// pak its overlay was made over, says when there is nothing to commit, and says how a pak
// written under a new name opens.
#include <catch2/catch.hpp>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PakWriter.hpp"
#include "commit/OverlayRecord.hpp"
#include "packs/Sources.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/PakEntries.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

const std::string kKeyString = "0123456789ABCDEF0123456789ABCDEF";

// DIR/NAME.pak of `files` with a packlist entry for NAME.
stdfs::path packWithListEntry(const TempDir& dir, const std::string& name,
                              const std::map<std::string, Bytes>& files) {
    const stdfs::path src = dir / ("src-" + name);
    for (const auto& [path, data] : files) writeFile(src / path, data);
    REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " " + name + " --key-string " +
                kKeyString)
                .code == 0);
    const stdfs::path pak = dir / (name + ".pak");
    auto r = run(kPak + " pack -q " + q(src) + " " + q(pak));
    REQUIRE(r.code == 0);
    stdfs::remove_all(src);
    return pak;
}

// What the writable mount records for `pak` in `overlayRoot` (as pakfs -o overlay does).
void recordMount(const stdfs::path& overlayRoot, const stdfs::path& pak) {
    auto loaded = packs::loadSources({pak}, {});
    for (const auto& w : commit::recordMountedPacks(overlayRoot, loaded.packs)) FAIL(w);
}

}  // namespace

TEST_CASE("commit safety: an edited shader keeps its class ID and flags, a renamed font its entry",
          "[commit][real-pack][fixtures]") {
    const stdfs::path real = sharedDir("fixtures/real") / "Resource.pak";
    auto pak = archive::PakIndex::open(real, archive::resolveKey(real, {}));
    const std::string keyHex = hexString(pak->key());
    const archive::PakEntry* shader = findEntry(*pak, "Media/Text/Vsh/Sprites.vsh.txt");
    const archive::PakEntry* font = findEntry(*pak, "Media/Font/Arial.Font.Gbx");
    REQUIRE(shader);
    REQUIRE(font);
    REQUIRE(shader->classId == 0x09042000);  // CPlugFileVsh
    REQUIRE(shader->flags == 0x54000000ffdfff82ull);
    REQUIRE(font->flags == 0x0000000004000006ull);

    TempDir dir;
    const stdfs::path up = dir / "overlay/Resource";
    Bytes edited = archive::readEntry(pak, *shader);
    const std::string extra = "// edited\n";
    edited.insert(edited.end(), extra.begin(), extra.end());
    writeFile(up / "Media/Text/Vsh/Sprites.vsh.txt", edited);
    const Bytes fontBytes = archive::readEntry(pak, *font);
    writeFile(up / "Media/Font/Renamed.Font.Gbx", fontBytes);  // mv through the mount
    writeFile(up / "Media/Font/.wh.Arial.Font.Gbx", Bytes{});
    // A new shader gets the class the end of its name gives, as pak pack does.
    writeFile(up / "Media/Text/Vsh/New.vsh.txt", bytesOf("new\n"));

    auto r = run(kPak + " commit -q " + q(real) + " " + q(dir / "overlay") + " " +
                 q(dir / "Resource.pak") + " --key " + keyHex);
    REQUIRE(r.code == 0);
    auto after = archive::PakIndex::open(dir / "Resource.pak", pak->key());
    const archive::PakEntry* s = findEntry(*after, "Media/Text/Vsh/Sprites.vsh.txt");
    REQUIRE(s);
    CHECK(archive::readEntry(after, *s) == edited);
    CHECK(s->classId == 0x09042000);
    // Every bit but the compression field (0x7C) is the old entry's; the new encoding is zlib.
    CHECK(s->compressed());
    CHECK(s->flags == 0x54000000ffdfff86ull);
    const archive::PakEntry* f = findEntry(*after, "Media/Font/Renamed.Font.Gbx");
    REQUIRE(f);
    CHECK(findEntry(*after, "Media/Font/Arial.Font.Gbx") == nullptr);
    CHECK(archive::readEntry(after, *f) == fontBytes);
    CHECK(f->classId == font->classId);
    CHECK(f->flags == font->flags);
    CHECK(f->compressedSize == font->compressedSize);
    const archive::PakEntry* n = findEntry(*after, "Media/Text/Vsh/New.vsh.txt");
    REQUIRE(n);
    CHECK(n->classId == 0x09042000);  // CPlugFileVsh, from .vsh.txt (not .txt's class)
    // Only the bit the game sets on every file (0x02), besides the compression field.
    CHECK((n->flags & ~std::uint64_t(0x7C)) == 0x02);
}

TEST_CASE(
    "commit safety: a re-encoded file keeps every flag bit that does not describe the "
    "encoding",
    "[commit]") {
    const std::uint32_t version = GENERATE(3u, 17u);
    CHECK(archive::encodingFlagBits(3) == 0x7Cull);
    CHECK(archive::encodingFlagBits(17) == 0x000600010000007Cull);
    TempDir dir;
    writeFile(dir / "a.txt", compressibleText(5000, 1));
    // The entry it replaces, as another writer could have made it: published (bit 1), user
    // data (bits 33..48), a compression field and, in version 6+, public and seekable bits that
    // the new encoding decides.
    archive::PakEntry was;
    was.classId = 0x09042000;
    was.unknown = 77;
    was.flags = version >= 6 ? 0x0001ABCC00000002ull | 0x40 | (1ull << 49) | (1ull << 32) | 0x08
                             : 0x54000000ffdfff82ull | 0x10;
    archive::PackPlan plan;
    archive::PlanFile f;
    f.name = "a.txt";
    f.packPath = "a.txt";
    f.disk = dir / "a.txt";
    f.was = &was;
    f.wasVersion = version;
    plan.files.push_back(f);
    archive::PackOptions o;
    o.version = version;
    o.jobs = 1;
    const archive::PakKey key = archive::keyFromKeyString(kKeyString);
    archive::writePlan(plan, dir / "out.pak", key, o);
    auto out = archive::PakIndex::open(dir / "out.pak", key);
    REQUIRE(out->entries().size() == 1);
    const auto& e = out->entries()[0];
    CHECK(archive::readEntry(out, e) == compressibleText(5000, 1));
    CHECK(e.classId == 0x09042000);
    // Version 3 writes the field where the game's writer puts a file's metadata record
    // (none: FFFFFFFF); 6+ keeps it.
    CHECK(e.unknown == (version >= 6 ? 77u : 0xFFFFFFFFu));
    CHECK(e.compressed());
    CHECK(e.encrypted);
    CHECK(e.flags == (version >= 6 ? 0x0001ABCC00000006ull : 0x54000000ffdfff86ull));
}

TEST_CASE(
    "commit safety: the overlay knows its pak, says when there is nothing to commit, and that it "
    "was committed in place",
    "[commit]") {
    TempDir dir;
    const stdfs::path a =
        packWithListEntry(dir, "Alpha", {{"x.txt", bytesOf("x\n")}, {"y.txt", bytesOf("y\n")}});
    const stdfs::path ov = dir / "ov";
    stdfs::create_directories(ov);
    recordMount(ov, a);
    // The record names the pack, its state, its stamp and its path.
    auto records = commit::readOverlayRecords(ov);
    REQUIRE(records.size() == 1);
    CHECK(records[0].pack == "Alpha");
    CHECK(records[0].state == "mounted");
    CHECK(records[0].stamp ==
          "v3:md5:" +
              hexString(archive::PakIndex::open(a, archive::resolveKey(a, {}))->headerMd5()));
    CHECK(records[0].pakPath == a.string());

    // No changes: nothing to commit, nothing written, exit 0.
    auto r = run(kPak + " commit " + q(a) + " " + q(ov) + " " + q(dir / "Out.pak"));
    CHECK(r.code == 0);
    CHECK(r.err == a.string() + ": nothing to commit: " + (ov / "Alpha").string() +
                       " holds no changes for it; nothing written (--allow-empty writes OUT "
                       "anyway)\n");
    CHECK_FALSE(stdfs::exists(dir / "Out.pak"));

    // Changes made over Alpha, committed onto another pak of the same pack name: refused.
    writeFile(ov / "Alpha/x.txt", bytesOf("changed\n"));
    stdfs::create_directories(dir / "other");
    const stdfs::path other = dir / "other/Alpha.pak";
    {
        TempDir d2;
        const stdfs::path b = packWithListEntry(d2, "Alpha", {{"x.txt", bytesOf("x\n")}});
        stdfs::copy_file(b, other);
        stdfs::copy_file(d2 / "packlist.dat", dir / "other/packlist.dat");
    }
    const std::string otherStamp =
        "v3:md5:" +
        hexString(archive::PakIndex::open(other, archive::resolveKey(other, {}))->headerMd5());
    r = run(kPak + " commit " + q(other) + " " + q(ov) + " " + q(dir / "other/Out.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (ov / "Alpha").string() + ": these changes were made over " +
                       a.string() + " (stamp " + records[0].stamp + "), and " + other.string() +
                       " is another pak (stamp " + otherStamp +
                       "): pass --force to apply them to it anyway\n");
    CHECK_FALSE(stdfs::exists(dir / "other/Out.pak"));
    r = run(kPak + " commit -n " + q(other) + " " + q(ov));  // --dry-run checks the same
    CHECK(r.code == 1);
    r = run(kPak + " commit -q --force " + q(other) + " " + q(ov) + " " + q(dir / "other/Out.pak"));
    CHECK(r.code == 0);

    // In place: the record says committed, and a second commit explains itself.
    const stdfs::path aCopy = dir / "keep.pak";
    stdfs::copy_file(a, aCopy);
    r = run(kPak + " commit -q " + q(a) + " " + q(ov) + " --in-place");
    REQUIRE(r.code == 0);
    records = commit::readOverlayRecords(ov);
    REQUIRE(records.size() == 1);
    CHECK(records[0].state == "committed");
    const std::string newStamp =
        "v3:md5:" + hexString(archive::PakIndex::open(a, archive::resolveKey(a, {}))->headerMd5());
    CHECK(records[0].stamp == newStamp);
    r = run(kPak + " commit " + q(a) + " " + q(ov) + " --in-place");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (ov / "Alpha").string() + ": these changes were committed into " +
                       a.string() + " already (pak commit --in-place), which " + a.string() +
                       " is. Empty or remove the folder to make new changes, or pass --force to "
                       "apply them again\n");
    // The mount over the committed pak: the record stays, with a warning; emptied, it starts
    // afresh.
    auto loaded = packs::loadSources({a}, {});
    auto warnings = commit::recordMountedPacks(ov, loaded.packs);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == (ov / "Alpha").string() + ": these changes are committed into " +
                             a.string() +
                             " already; pak commit will refuse them (empty the folder to make new "
                             "changes over the pack)");
    stdfs::remove_all(ov / "Alpha");
    CHECK(commit::recordMountedPacks(ov, loaded.packs).empty());
    records = commit::readOverlayRecords(ov);
    REQUIRE(records.size() == 1);
    CHECK(records[0].state == "mounted");
    CHECK(records[0].stamp == newStamp);
}

TEST_CASE("commit safety: a damaged record is an error naming the file and line", "[commit]") {
    TempDir dir;
    writeFile(dir / ".pakfs-packs", bytesOf("# comment\nAlpha\tlost\tv3:md5:00\t/x.pak\n"));
    try {
        commit::readOverlayRecords(dir.path());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) ==
              (dir / ".pakfs-packs").string() +
                  ": line 2: not PACK, mounted|committed, STAMP and PAK separated by tabs");
    }
}

TEST_CASE("commit safety: a pak written under a new name says how it opens", "[commit]") {
    TempDir dir;
    const stdfs::path a = packWithListEntry(dir, "Alpha", {{"x.txt", bytesOf("x\n")}});
    writeFile(dir / "ov/Alpha/x.txt", bytesOf("changed\n"));
    const std::string keyHex = hexString(archive::keyFromKeyString(kKeyString));
    auto r = run(kPak + " commit -q " + q(a) + " " + q(dir / "ov") + " " + q(dir / "Beta.pak"));
    CHECK(r.code == 0);
    CHECK(r.err == (dir / "Beta.pak").string() +
                       ": 1 file in 0 folders (0 copied as they were, 1 encoded), 1 change\n"
                       "pak: note: " +
                       (dir / "Beta.pak").string() + " is not opened by name (" +
                       (dir / "packlist.dat").string() +
                       " has no entry for pack Beta): open it with --key " + keyHex +
                       " (e.g. pak check " + (dir / "Beta.pak").string() + " --key " + keyHex +
                       "), or add its entry: pak packlist add " + (dir / "packlist.dat").string() +
                       " Beta --key-string " + kKeyString + "\n");
    // The command it prints works.
    r = run(kPak + " packlist add " + q(dir / "packlist.dat") + " Beta --key-string " + kKeyString);
    CHECK(r.code == 0);
    r = run(kPak + " cat " + q(dir / "Beta.pak") + " x.txt");
    CHECK(r.code == 0);
    CHECK(r.out == "changed\n");
    // Listed now: no note.
    writeFile(dir / "ov/Alpha/y.txt", bytesOf("new\n"));
    r = run(kPak + " commit -q " + q(a) + " " + q(dir / "ov") + " " + q(dir / "Beta.pak"));
    CHECK(r.code == 0);
    CHECK(r.err.find("note") == std::string::npos);
}
