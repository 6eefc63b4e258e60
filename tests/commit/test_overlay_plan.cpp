// SPDX-License-Identifier: GPL-2.0-or-later
// pak commit: the changes of an overlay folder (commit/OverlayLayout.hpp) applied to a pack, by the
// library (commit/OverlayPlan.hpp, archive::writePlan) and by the pak command: the changes listed,
// what is copied as encrypted bytes and what is encoded, the errors, and what an interrupted commit
// leaves behind.
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "archive/entry/EntryKind.hpp"
#include "archive/entry/EntryReader.hpp"
#include "archive/pak/PackList.hpp"
#include "commit/OverlayLayout.hpp"
#include "commit/OverlayPlan.hpp"
#include "common/ShellWord.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "packs/Drives.hpp"
#include "packs/Sources.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/DrivesFixture.hpp"
#include "tests/support/PakEntries.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

void touch(const stdfs::path& p) {
    writeFile(p, Bytes{});
}

// A map file with a chunk no reader knows, skipped by its size.
Bytes gbxFile(std::uint64_t seed) {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    gbx::BodyWriter w;
    w.beginSkippable(0x03043099);
    for (std::uint8_t byte : randomBytes(3000, seed)) w.u8(byte);
    w.endSkippable();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

// The pack the library and command tests start from (and an empty folder, EmptyFolder).
std::map<std::string, Bytes> packFiles() {
    std::map<std::string, Bytes> f;
    f["Config/default.xml"] = bytesOf("<config>\n  <volume>7</volume>\n</config>\n");
    f["Config/extra.txt"] = compressibleText(5000, 21);
    f["Data/r1024.bin"] = randomBytes(1024, 22);
    f["Data/c100k.txt"] = compressibleText(100 * 1024 + 13, 23);
    f["Data/Deep/Er/c1024.txt"] = compressibleText(1024, 24);
    f["Gone/a.txt"] = bytesOf("in a folder the overlay deletes\n");
    f["Gone/Sub/b.txt"] = compressibleText(2000, 25);
    f["Maps/Thing.Challenge.Gbx"] = gbxFile(26);
    f["Media/Sound/s.wav"] = randomBytes(5000, 27);
    f["Media/Sound/t.ogg"] = randomBytes(300, 28);
    f["Media/Texture/a.dds"] = randomBytes(700, 29);
    f["Old/file.txt"] = bytesOf("in a folder a file replaces\n");
    f["Swap"] = bytesOf("a file a folder replaces\n");
    f["root.txt"] = compressibleText(3000, 30);
    return f;
}

archive::PackOptions packOptions(std::uint32_t version) {
    archive::PackOptions o;
    o.version = version;
    o.level = 6;
    if (version >= 6) {
        o.header.authorLogin = "commit_tester";
        o.header.authorNick = "Commit Tester";
        o.header.authorZone = "World|Europe";
        o.header.comment = "a pack to commit to";
        o.header.titleId = "TMStadium";
        o.header.headerFlags = version == 17 ? 3 : 7;
    }
    o.warn = [](const std::string&) {};
    return o;
}

struct Packed {
    std::unique_ptr<TempDir> dir = std::make_unique<TempDir>();
    stdfs::path pak;
    std::map<std::string, Bytes> files;
};

// A pack of `files` named `fileName` in a new temp folder; its overlay folder is named like
// the file without extension.
Packed packInNewFolder(std::uint32_t version, std::map<std::string, Bytes> files,
                       const std::string& fileName, int level = 6) {
    Packed p;
    p.files = std::move(files);
    const stdfs::path src = p.dir->path() / "src";
    stdfs::create_directories(src / "EmptyFolder");
    for (const auto& [path, data] : p.files) writeFile(src / path, data);
    p.pak = p.dir->path() / fileName;
    archive::PackOptions o = packOptions(version);
    o.level = level;
    archive::writePak(src, p.pak, testKey(), o);
    stdfs::remove_all(src);
    return p;
}

std::string pakFileName(std::uint32_t version) {
    return version >= 6 ? "Test.Pack.Gbx" : "Test.pak";
}

using Changes = std::vector<std::pair<char, std::string>>;

Changes changesOf(const archive::ChangePlan& plan) {
    Changes out;
    for (const auto& c : plan.changes) out.emplace_back(c.kind, c.path);
    return out;
}

// The overlay every full test uses: each kind of change once, and things that are no change.
// Returns what the pack holds after the commit.
std::map<std::string, Bytes> makeOverlay(const stdfs::path& up,
                                         std::map<std::string, Bytes> files) {
    files["Config/default.xml"] = bytesOf("<config>\n  <volume>3</volume>\n</config>\n");
    writeFile(up / "Config/default.xml", files["Config/default.xml"]);
    writeFile(up / "Config/extra.txt", files["Config/extra.txt"]);  // the same: no change
    stdfs::create_directories(up / "Data/Deep");  // folders of the pack: they merge
    files["new.txt"] = bytesOf("a new file\n");
    writeFile(up / "new.txt", files["new.txt"]);
    files["New/Nested/Deep/n.bin"] = randomBytes(3000, 40);
    writeFile(up / "New/Nested/Deep/n.bin", files["New/Nested/Deep/n.bin"]);
    touch(up / ".wh.root.txt");
    files.erase("root.txt");
    touch(up / ".wh.Gone");
    files.erase("Gone/a.txt");
    files.erase("Gone/Sub/b.txt");
    touch(up / "Media/Sound/.wh..wh..opq");
    files.erase("Media/Sound/s.wav");
    files.erase("Media/Sound/t.ogg");
    files["Media/Sound/new.ogg"] = randomBytes(4000, 41);
    writeFile(up / "Media/Sound/new.ogg", files["Media/Sound/new.ogg"]);
    files.erase("Old/file.txt");
    files["Old"] = bytesOf("a file where a folder was\n");
    writeFile(up / "Old", files["Old"]);
    files.erase("Swap");
    files["Swap/inner.txt"] = bytesOf("in a folder where a file was\n");
    writeFile(up / "Swap/inner.txt", files["Swap/inner.txt"]);
    return files;
}

const Changes kOverlayChanges = {
    {'M', "Config/default.xml"},
    {'D', "Gone/"},
    {'D', "Gone/Sub/"},
    {'D', "Gone/Sub/b.txt"},
    {'D', "Gone/a.txt"},
    {'A', "Media/Sound/new.ogg"},
    {'D', "Media/Sound/s.wav"},
    {'D', "Media/Sound/t.ogg"},
    {'A', "New/"},
    {'A', "New/Nested/"},
    {'A', "New/Nested/Deep/"},
    {'A', "New/Nested/Deep/n.bin"},
    {'A', "Old"},
    {'D', "Old/"},
    {'D', "Old/file.txt"},
    {'D', "Swap"},
    {'A', "Swap/"},
    {'A', "Swap/inner.txt"},
    {'A', "new.txt"},
    {'D', "root.txt"},
};

// Files of the pack the overlay does not touch (or holds unchanged): copied as they were.
const std::vector<std::string> kUntouched = {"Config/extra.txt",         "Data/r1024.bin",
                                             "Data/c100k.txt",           "Data/Deep/Er/c1024.txt",
                                             "Maps/Thing.Challenge.Gbx", "Media/Texture/a.dds"};

const std::set<std::string> kFoldersAfter = {
    "Config",      "Data",          "Data/Deep", "Data/Deep/Er", "EmptyFolder",     "Maps", "Media",
    "Media/Sound", "Media/Texture", "New",       "New/Nested",   "New/Nested/Deep", "Swap"};

std::map<std::string, Bytes> contents(const std::shared_ptr<const archive::PakIndex>& pak) {
    std::map<std::string, Bytes> out;
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        CHECK(out.emplace(e.path, archive::readEntry(pak, e)).second);
    }
    return out;
}

std::set<std::string> folderPaths(const archive::PakIndex& pak) {
    std::set<std::string> out;
    for (const auto& f : pak.folders()) out.insert(f.path);
    return out;
}

// An entry's slot as stored: its IV and encrypted bytes.
Bytes slotOf(const archive::PakIndex& pak, const archive::PakEntry& e) {
    return pak.file()->readAt(pak.entryOffset(e), std::size_t(e.ivSize() + e.cipherSize()));
}

// The entry at `path` of both packs is the same slot with the same table fields (and metadata
// record).
void checkCopied(const archive::PakIndex& before, const archive::PakIndex& after,
                 const std::string& path) {
    INFO("copied: " << path);
    const archive::PakEntry* a = findEntry(before, path);
    const archive::PakEntry* b = findEntry(after, path);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(slotOf(before, *a) == slotOf(after, *b));
    CHECK(a->flags == b->flags);
    CHECK(a->classId == b->classId);
    CHECK(a->unknown == b->unknown);
    CHECK(a->compressedSize == b->compressedSize);
    CHECK(a->uncompressedSize == b->uncompressedSize);
    auto ma = before.metadata().find(a->index);
    auto mb = after.metadata().find(b->index);
    REQUIRE((ma == before.metadata().end()) == (mb == after.metadata().end()));
    if (ma != before.metadata().end()) CHECK(ma->second == mb->second);
}

void checkHeaderKept(const archive::PakIndex& before, const archive::PakIndex& after) {
    CHECK(after.version() == before.version());
    REQUIRE(before.packHeader().has_value() == after.packHeader().has_value());
    if (!before.packHeader()) return;
    const auto& a = *before.packHeader();
    const auto& b = *after.packHeader();
    CHECK(b.authorLogin == a.authorLogin);
    CHECK(b.authorNick == a.authorNick);
    CHECK(b.authorZone == a.authorZone);
    CHECK(b.comment == a.comment);
    CHECK(b.titleId == a.titleId);
    CHECK(b.decryptFlags == a.decryptFlags);
}

archive::PackResult writeCommit(const archive::ChangePlan& plan, const stdfs::path& out) {
    archive::PackOptions o = plan.options;
    o.level = 6;
    o.warn = [](const std::string&) {};
    return archive::writePlan(plan.plan, out, testKey(), o);
}

}  // namespace

TEST_CASE("commit: adds, changes, deletes, opaque folder and replacements, in versions 3, 17, 18",
          "[commit]") {
    const std::uint32_t version = GENERATE(3u, 17u, 18u);
    INFO("version " << version);
    Packed p = packInNewFolder(version, packFiles(), pakFileName(version));
    auto pak = archive::PakIndex::open(p.pak, testKey());
    REQUIRE(pak->version() == version);
    const stdfs::path overlay = p.dir->path() / "overlay";
    const stdfs::path up = overlay / "Test";
    CHECK(commit::overlayFolderOf(overlay, *pak) == up);
    const auto expected = makeOverlay(up, p.files);

    archive::ChangePlan plan = commit::planCommit(pak, up);
    CHECK(changesOf(plan) == kOverlayChanges);
    CHECK(plan.options.version == version);
    if (version >= 6) {
        CHECK(plan.options.header.authorLogin == "commit_tester");
        CHECK(plan.options.header.authorNick == "Commit Tester");
        CHECK(plan.options.header.authorZone == "World|Europe");
        CHECK(plan.options.header.comment == "a pack to commit to");
        CHECK(plan.options.header.titleId == "TMStadium");
        CHECK(plan.options.header.headerFlags == (version == 17 ? 3u : 7u));
    }
    // Copied: the untouched files, and the one the overlay holds unchanged; the rest from disk.
    std::set<std::string> copied, encoded;
    for (const auto& f : plan.plan.files) {
        CHECK((f.copy != nullptr) != !f.disk.empty());
        (f.copy ? copied : encoded).insert(f.packPath);
    }
    CHECK(copied == std::set<std::string>(kUntouched.begin(), kUntouched.end()));
    CHECK(encoded == std::set<std::string>{"Config/default.xml", "Media/Sound/new.ogg",
                                           "New/Nested/Deep/n.bin", "Old", "Swap/inner.txt",
                                           "new.txt"});
    CHECK(plan.plan.base == pak);

    const stdfs::path out = p.dir->path() / ("Out" + pakFileName(version).substr(4));
    archive::PackResult r = writeCommit(plan, out);
    CHECK(r.files == 12);
    CHECK(r.folders == kFoldersAfter.size());
    CHECK(r.copiedFromBase == 6);

    auto after = archive::PakIndex::open(out, testKey());
    CHECK(after->warnings().empty());
    checkHeaderKept(*pak, *after);
    CHECK(folderPaths(*after) == kFoldersAfter);
    CHECK(contents(after) == expected);
    for (const auto& path : kUntouched) checkCopied(*pak, *after, path);
    if (version == 3) {  // the gbx file's metadata record came along
        const archive::PakEntry* map = findEntry(*after, "Maps/Thing.Challenge.Gbx");
        REQUIRE(map);
        CHECK(after->metadata().count(map->index) == 1);
    }
    // The pack and its overlay are as they were.
    CHECK(contents(archive::PakIndex::open(p.pak, testKey())) == p.files);
    CHECK(readFile(up / "Config/extra.txt") == p.files.at("Config/extra.txt"));
}

TEST_CASE("commit: no overlay folder, or one with only unchanged files, copies every entry",
          "[commit]") {
    const std::uint32_t version = GENERATE(3u, 18u);
    INFO("version " << version);
    Packed p = packInNewFolder(version, packFiles(), pakFileName(version));
    auto pak = archive::PakIndex::open(p.pak, testKey());
    const stdfs::path overlay = p.dir->path() / "overlay";
    const stdfs::path up = overlay / "Test";
    for (int way = 0; way < 3; ++way) {
        INFO("way " << way);
        if (way == 1) stdfs::create_directories(up);  // an empty folder
        if (way == 2) {
            // Every file again with its content, and every folder: all merge.
            for (const auto& [path, data] : p.files) writeFile(up / path, data);
            stdfs::create_directories(up / "EmptyFolder");
        }
        archive::ChangePlan plan = commit::planCommit(pak, up);
        CHECK(plan.changes.empty());
        for (const auto& f : plan.plan.files) CHECK(f.copy != nullptr);
        const stdfs::path out = p.dir->path() / ("Same" + std::to_string(way));
        archive::PackResult r = writeCommit(plan, out);
        CHECK(r.files == p.files.size());
        CHECK(r.copiedFromBase == p.files.size());
        auto after = archive::PakIndex::open(out, testKey());
        checkHeaderKept(*pak, *after);
        // The same folders and files in the same order, every slot as it was.
        REQUIRE(after->folders().size() == pak->folders().size());
        for (std::size_t i = 0; i < pak->folders().size(); ++i) {
            CHECK(after->folders()[i].path == pak->folders()[i].path);
            CHECK(after->folders()[i].parent == pak->folders()[i].parent);
        }
        REQUIRE(after->entries().size() == pak->entries().size());
        for (std::size_t i = 0; i < pak->entries().size(); ++i)
            CHECK(after->entries()[i].path == pak->entries()[i].path);
        for (const auto& [path, data] : p.files) checkCopied(*pak, *after, path);
        CHECK(contents(after) == p.files);
    }
}

TEST_CASE("commit: an opaque folder keeps what the overlay has again at the same paths",
          "[commit]") {
    Packed p = packInNewFolder(3, packFiles(), "Test.pak");
    auto pak = archive::PakIndex::open(p.pak, testKey());
    const stdfs::path up = p.dir->path() / "overlay/Test";
    touch(up / "Data/.wh..wh..opq");
    writeFile(up / "Data/r1024.bin", p.files.at("Data/r1024.bin"));  // the same content
    const Bytes changed = compressibleText(100 * 1024, 50);
    writeFile(up / "Data/c100k.txt", changed);
    stdfs::create_directories(up / "Data/Deep");  // again, but empty
    archive::ChangePlan plan = commit::planCommit(pak, up);
    // Not "D Data/c100k.txt" and "M Data/c100k.txt", nor "D Data/Deep/" and "A Data/Deep/".
    CHECK(changesOf(plan) == Changes{{'D', "Data/Deep/Er/"},
                                     {'D', "Data/Deep/Er/c1024.txt"},
                                     {'M', "Data/c100k.txt"}});
    auto expected = p.files;
    expected.erase("Data/Deep/Er/c1024.txt");
    expected["Data/c100k.txt"] = changed;
    const stdfs::path out = p.dir->path() / "Out.pak";
    archive::PackResult r = writeCommit(plan, out);
    CHECK(r.copiedFromBase == p.files.size() - 2);
    auto after = archive::PakIndex::open(out, testKey());
    CHECK(contents(after) == expected);
    CHECK(folderPaths(*after) == std::set<std::string>{"Config", "Data", "Data/Deep", "EmptyFolder",
                                                       "Gone", "Gone/Sub", "Maps", "Media",
                                                       "Media/Sound", "Media/Texture", "Old"});
    checkCopied(*pak, *after, "Data/r1024.bin");

    // A name that differs only in case from one the overlay deletes is no clash.
    const stdfs::path up2 = p.dir->path() / "overlay2/Test";
    touch(up2 / ".wh.root.txt");
    writeFile(up2 / "ROOT.txt", bytesOf("upper case\n"));
    plan = commit::planCommit(pak, up2);
    CHECK(changesOf(plan) == Changes{{'A', "ROOT.txt"}, {'D', "root.txt"}});
}

TEST_CASE("commit: what a pak cannot hold is an error naming the overlay path, nothing written",
          "[commit][cli]") {
    Packed p = packInNewFolder(3, packFiles(), "Test.pak");
    auto pak = archive::PakIndex::open(p.pak, testKey());
    const Bytes before = readFile(p.pak);
    struct Case {
        std::string what;
        std::function<stdfs::path(const stdfs::path& up)> make;  // returns the path named
        std::string reason;
    };
    const std::vector<Case> cases = {
        {"symbolic link",
         [](const stdfs::path& up) {
             stdfs::create_directories(up / "Config");
             stdfs::create_symlink("default.xml", up / "Config/link.xml");
             return up / "Config/link.xml";
         },
         ": a symbolic link, which a pak cannot hold"},
        {"symbolic link to a folder",
         [](const stdfs::path& up) {
             stdfs::create_directories(up);
             stdfs::create_directory_symlink("/tmp", up / "Linked");
             return up / "Linked";
         },
         ": a symbolic link, which a pak cannot hold"},
        {"named pipe",
         [](const stdfs::path& up) {
             stdfs::create_directories(up / "Data");
             REQUIRE(::mkfifo((up / "Data/pipe").c_str(), 0644) == 0);
             return up / "Data/pipe";
         },
         ": a named pipe, which a pak cannot hold"},
        {"socket",
         [](const stdfs::path& up) {
             stdfs::create_directories(up);
             const std::string at = (up / "sock").string();
             int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
             REQUIRE(s >= 0);
             sockaddr_un addr{};
             addr.sun_family = AF_UNIX;
             REQUIRE(at.size() < sizeof addr.sun_path);
             std::memcpy(addr.sun_path, at.c_str(), at.size() + 1);
             REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
             ::close(s);
             return up / "sock";
         },
         ": a socket, which a pak cannot hold"},
        {"backslash in a file name",
         [](const stdfs::path& up) {
             writeFile(up / "Data/a\\b.txt", bytesOf("x"));
             return up / "Data/a\\b.txt";
         },
         ": a name with a backslash cannot be stored in a pak, so a pak cannot hold it"},
        {"backslash in a folder name",
         [](const stdfs::path& up) {
             writeFile(up / "x\\y/f.txt", bytesOf("x"));
             return up / "x\\y";
         },
         ": a name with a backslash cannot be stored in a pak, so a pak cannot hold it"},
        {"whiteout of a file the pack does not hold",
         [](const stdfs::path& up) {
             touch(up / "Data/.wh.missing.bin");
             return up / "Data/.wh.missing.bin";
         },
         ": a whiteout of Data/missing.bin, which the pack does not hold"},
        {"whiteout of a folder the pack does not hold",
         [](const stdfs::path& up) {
             touch(up / ".wh.Nowhere");
             return up / ".wh.Nowhere";
         },
         ": a whiteout of Nowhere, which the pack does not hold"},
        {"whiteout in a new folder",
         [](const stdfs::path& up) {
             touch(up / "Brand/.wh.x.txt");
             return up / "Brand/.wh.x.txt";
         },
         ": a whiteout of Brand/x.txt, which the pack does not hold"},
        {"whiteout in an opaque folder",
         [](const stdfs::path& up) {
             touch(up / "Data/.wh..wh..opq");
             touch(up / "Data/.wh.r1024.bin");
             return up / "Data/.wh.r1024.bin";
         },
         ": a whiteout of Data/r1024.bin, which the pack does not hold"},
        {"whiteout of no name",
         [](const stdfs::path& up) {
             touch(up / ".wh.");
             return up / ".wh.";
         },
         ": a whiteout of a name no pak holds (an empty name cannot be stored in a pak)"},
        {"deleted and present",
         [](const stdfs::path& up) {
             touch(up / ".wh.root.txt");
             writeFile(up / "root.txt", bytesOf("again"));
             return up / ".wh.root.txt";
         },
         ": root.txt is both deleted and in the overlay"},
        {"folder name differing in case",
         [](const stdfs::path& up) {
             writeFile(up / "config/new.txt", bytesOf("x"));
             return up / "config";
         },
         ": differs only in case from Config in the pack, which the game would not tell apart"},
        {"file name differing in case",
         [](const stdfs::path& up) {
             writeFile(up / "Config/Default.xml", bytesOf("x"));
             return up / "Config/Default.xml";
         },
         ": differs only in case from Config/default.xml in the pack, which the game would not "
         "tell apart"},
        {"two new file names differing in case",
         [](const stdfs::path& up) {
             writeFile(up / "Foo.txt", bytesOf("x"));
             writeFile(up / "foo.txt", bytesOf("y"));
             return up / "foo.txt";
         },
         ": differs only in case from Foo.txt in the overlay, which the game would not tell "
         "apart"},
        {"two new folder names differing in case",
         [](const stdfs::path& up) {
             writeFile(up / "Newdir/a.txt", bytesOf("x"));
             writeFile(up / "NEWDIR/b.txt", bytesOf("y"));
             return up / "Newdir";
         },
         ": differs only in case from NEWDIR in the overlay, which the game would not tell "
         "apart"},
        {"pack folder that is a file",
         [](const stdfs::path& up) {
             writeFile(up, bytesOf("x"));
             return up;
         },
         ": not a folder"},
    };
    int n = 0;
    for (const auto& c : cases) {
        INFO(c.what);
        const stdfs::path overlay = p.dir->path() / ("overlay" + std::to_string(n++));
        const stdfs::path named = c.make(overlay / "Test");
        const std::string message = named.string() + c.reason;
        try {
            commit::planCommit(pak, overlay / "Test");
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()) == message);
        }
        const stdfs::path out = p.dir->path() / "Out.pak";
        auto r = run(kPak + " commit -q " + q(p.pak) + " " + q(overlay) + " " + q(out) + " --key " +
                     kTestKeyHex);
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + message + "\n");
        CHECK(r.out.empty());
        CHECK(!stdfs::exists(stdfs::symlink_status(out)));
        r = run(kPak + " commit -q " + q(p.pak) + " " + q(overlay) + " --in-place --key " +
                kTestKeyHex);
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + message + "\n");
    }
    // A device file, where this user may make one.
    const stdfs::path overlay = p.dir->path() / "overlay-dev";
    stdfs::create_directories(overlay / "Test");
    if (::mknod((overlay / "Test/null").c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0) {
        const std::string message =
            (overlay / "Test/null").string() + ": a device file, which a pak cannot hold";
        try {
            commit::planCommit(pak, overlay / "Test");
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()) == message);
        }
        auto r = run(kPak + " commit -q " + q(p.pak) + " " + q(overlay) + " " +
                     q(p.dir->path() / "Out.pak") + " --key " + kTestKeyHex);
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + message + "\n");
    } else {
        WARN("mknod not permitted here: the device file case is not run");
    }
    // Nothing was written beside the pack, and the pack is as it was.
    for (const auto& name : namesIn(p.dir->path())) {
        INFO(name);
        CHECK((name == "Test.pak" || name.rfind("overlay", 0) == 0));
    }
    CHECK(readFile(p.pak) == before);
}

TEST_CASE("commit: pak commit --dry-run lists the changes, --json, OUT and --in-place",
          "[commit][cli]") {
    Packed p = packInNewFolder(3, packFiles(), "Test.pak");
    const Bytes before = readFile(p.pak);
    const stdfs::path overlay = p.dir->path() / "overlay";
    const auto expected = makeOverlay(overlay / "Test", p.files);
    const std::string key = " --key " + std::string(kTestKeyHex);
    const stdfs::path out = p.dir->path() / "Out.pak";
    const std::string args = q(p.pak) + " " + q(overlay) + " ";

    // --dry-run: one line per change, a count on stderr, nothing written.
    std::string lines;
    for (const auto& [kind, path] : kOverlayChanges)
        lines += std::string(1, kind) + " " + path + "\n";
    for (const std::string flag : {"--dry-run", "-n"}) {
        auto r = run(kPak + " commit " + flag + " " + args + q(out) + key);
        CHECK(r.code == 0);
        CHECK(r.out == lines);
        CHECK(r.err == p.pak.string() + ": 20 changes from " + (overlay / "Test").string() + "\n");
        CHECK(!stdfs::exists(out));
    }
    CHECK(lines.rfind("M Config/default.xml\nD Gone/\nD Gone/Sub/\n", 0) == 0);
    auto r = run(kPak + " commit -n " + args + "--in-place" + key);
    CHECK(r.code == 0);
    CHECK(r.out == lines);
    CHECK(readFile(p.pak) == before);
    r = run(kPak + " commit -n " + args + key);  // OUT is not needed to list
    CHECK(r.code == 0);
    CHECK(r.out == lines);
    r = run(kPak + " commit --dry-run --json " + args + q(out) + key);
    CHECK(r.code == 0);
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& [kind, path] : kOverlayChanges)
        changes.push_back({{"change", std::string(1, kind)}, {"path", path}});
    CHECK(nlohmann::json::parse(r.out) == nlohmann::json{{"pak", p.pak.string()},
                                                         {"overlay", (overlay / "Test").string()},
                                                         {"changes", changes}});
    CHECK(!stdfs::exists(out));

    // To OUT, with the summary as JSON.
    r = run(kPak + " commit --json " + args + q(out) + key);
    CHECK(r.code == 0);
    CHECK(nlohmann::json::parse(r.out) == nlohmann::json{{"out", out.string()},
                                                         {"files", 12},
                                                         {"folders", 13},
                                                         {"copied", 6},
                                                         {"encoded", 6},
                                                         {"changes", 20}});
    CHECK(readFile(p.pak) == before);
    auto pak = archive::PakIndex::open(p.pak, testKey());
    auto after = archive::PakIndex::open(out, testKey());
    CHECK(contents(after) == expected);
    for (const auto& path : kUntouched) checkCopied(*pak, *after, path);
    r = run(kPak + " check -q " + q(out) + key);
    CHECK(r.code == 0);

    // OUT and --in-place together, or neither: usage errors, nothing written.
    stdfs::remove(out);
    r = run(kPak + " commit " + args + q(out) + " --in-place" + key);
    CHECK(r.code == 2);
    CHECK(r.err == "pak: give OUT or --in-place, not both (pak commit --help)\n");
    r = run(kPak + " commit " + args + key);
    CHECK(r.code == 2);
    CHECK(r.err == "pak: give OUT, or --in-place to replace PAK (pak commit --help)\n");
    r = run(kPak + " commit " + q(p.pak) + " " + q(p.dir->path() / "nowhere") + " " + q(out) + key);
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (p.dir->path() / "nowhere").string() + ": no such folder\n");
    CHECK(!stdfs::exists(out));
    CHECK(readFile(p.pak) == before);

    // --in-place: PAK replaced (keeping its mode), no temporary file left, and it checks clean.
    stdfs::permissions(p.pak, stdfs::perms::owner_read | stdfs::perms::owner_write);
    r = run(kPak + " commit -q " + args + "--in-place" + key);
    CHECK(stdfs::status(p.pak).permissions() ==
          (stdfs::perms::owner_read | stdfs::perms::owner_write));
    CHECK(r.code == 0);
    CHECK(r.err == p.pak.string() +
                       ": 12 files in 13 folders (6 copied as they were, 6 encoded), 20 changes\n");
    CHECK(namesIn(p.dir->path()) == std::set<std::string>{"Test.pak", "overlay"});
    auto replaced = archive::PakIndex::open(p.pak, testKey());
    CHECK(contents(replaced) == expected);
    for (const auto& path : kUntouched) checkCopied(*pak, *replaced, path);
    r = run(kPak + " check " + q(p.pak) + key);
    CHECK(r.code == 0);
    CHECK(r.out.find("\n12 files: ") != std::string::npos);
    CHECK(r.out.find("0 undecodable\n") != std::string::npos);
}

TEST_CASE("commit: pak commit --in-place with no changes leaves PAK byte-identical",
          "[commit][cli]") {
    Packed p = packInNewFolder(18, packFiles(), "Test.Pack.Gbx");
    const Bytes before = readFile(p.pak);
    const auto mtime = stdfs::last_write_time(p.pak);
    const std::string key = " --key " + std::string(kTestKeyHex);
    const stdfs::path overlay = p.dir->path() / "overlay";
    stdfs::create_directories(overlay);
    for (int way = 0; way < 3; ++way) {
        INFO("way " << way);
        if (way == 1) stdfs::create_directories(overlay / "Test/Data/Deep");
        if (way == 2) writeFile(overlay / "Test/Config/extra.txt", p.files.at("Config/extra.txt"));
        auto r = run(kPak + " commit " + q(p.pak) + " " + q(overlay) + " --in-place" + key);
        CHECK(r.code == 0);
        CHECK(r.out.empty());
        CHECK(r.err == p.pak.string() + ": nothing to commit: " + (overlay / "Test").string() +
                           " holds no changes for it; left as it is\n");
        CHECK(readFile(p.pak) == before);
        CHECK(stdfs::last_write_time(p.pak) == mtime);
        CHECK(namesIn(p.dir->path()) == std::set<std::string>{"Test.Pack.Gbx", "overlay"});
    }
}

TEST_CASE("commit: pak commit killed with SIGKILL leaves PAK as it was and OUT absent or whole",
          "[commit][cli][kill]") {
    // 30 files of 256 KiB (half random, half text), each changed in the overlay so that all of
    // them are encoded.
    std::map<std::string, Bytes> files;
    std::map<std::string, Bytes> changed;
    for (int i = 0; i < 30; ++i) {
        const std::string path =
            "Big/" + std::to_string(i / 10) + "/f" + std::to_string(i) + ".bin";
        Bytes a = randomBytes(128 << 10, 100 + std::uint64_t(i));
        Bytes b = compressibleText(128 << 10, 200 + std::uint64_t(i));
        a.insert(a.end(), b.begin(), b.end());
        files[path] = a;
        a[0] ^= 0xFF;
        a[a.size() - 1] ^= 0xFF;
        changed[path] = std::move(a);
    }
    files["small.txt"] = bytesOf("untouched\n");
    Packed p = packInNewFolder(3, files, "Test.pak", 1);
    files.clear();
    const stdfs::path overlay = p.dir->path() / "overlay";
    for (const auto& [path, data] : changed) writeFile(overlay / "Test" / path, data);
    changed["small.txt"] = p.files.at("small.txt");
    p.files.clear();
    const Bytes original = readFile(p.pak);
    const stdfs::path out = p.dir->path() / "Out.pak";

    // -j 1: one entry encoded at a time, so the temporary file grows through the whole run.
    const std::vector<std::string> toOut = {
        kPak,           "commit",         "-q",         "-j",    "1",        "--level", "1",
        p.pak.string(), overlay.string(), out.string(), "--key", kTestKeyHex};
    const std::vector<std::string> inPlace = {
        kPak,           "commit",         "-q",         "-j",    "1",        "--level", "1",
        p.pak.string(), overlay.string(), "--in-place", "--key", kTestKeyHex};
    // Forks and runs pak with these arguments, its output thrown away.
    auto spawn = [](const std::vector<std::string>& args) {
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        pid_t pid = ::fork();
        if (pid == 0) {
            int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        REQUIRE(pid > 0);
        return pid;
    };
    // A whole pak that holds the committed files.
    auto checkCommitted = [&](const stdfs::path& path) {
        auto pak = archive::PakIndex::open(path, testKey());
        REQUIRE(pak->entries().size() == changed.size());
        for (const auto& e : pak->entries()) {
            INFO(e.path);
            auto want = changed.find(e.path);
            REQUIRE(want != changed.end());
            CHECK(archive::readEntry(pak, e) == want->second);
        }
    };
    // Temporary files a killed run left beside its output (AtomicOutputFile names them
    // .NAME.tmp-XXXXXX); every other name there is one the test made, or the lock file of
    // the file written (.NAME.pakfs-lock), which a killed run leaves and no one holds.
    std::size_t leftTemps = 0;
    auto sweep = [&](const stdfs::path& dest) {
        const std::string prefix = "." + dest.filename().string() + ".tmp-";
        for (const auto& name : namesIn(p.dir->path())) {
            if (name == "Test.pak" || name == "overlay") continue;
            if (name.ends_with(".pakfs-lock")) continue;
            INFO(name);
            CHECK(name != out.filename().string());
            CHECK(name.rfind(prefix, 0) == 0);
            ++leftTemps;
            stdfs::remove(p.dir->path() / name);
        }
    };
    // The size of the temporary file a run writes for `dest`, or -1 while there is none.
    auto tempSize = [&](const stdfs::path& dest) -> std::intmax_t {
        const std::string prefix = "." + dest.filename().string() + ".tmp-";
        for (const auto& name : namesIn(p.dir->path())) {
            struct stat st {};
            if (name.rfind(prefix, 0) == 0 && ::stat((p.dir->path() / name).c_str(), &st) == 0)
                return st.st_size;
        }
        return -1;
    };
    // Runs a commit and kills it with SIGKILL once its temporary file for `dest` holds `bytes`
    // (at once when `bytes` is below 0); whether it was killed (not finished first). Points of
    // the run by what it has written, not by time, so a slow or busy machine moves none.
    auto killAt = [&](const std::vector<std::string>& args, const stdfs::path& dest,
                      std::intmax_t bytes) {
        pid_t pid = spawn(args);
        int status = 0;
        pid_t done = 0;
        while (bytes >= 0 && (done = ::waitpid(pid, &status, WNOHANG)) == 0 &&
               tempSize(dest) < bytes)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (done == 0) {
            ::kill(pid, SIGKILL);
            REQUIRE(::waitpid(pid, &status, 0) == pid);
        }
        if (WIFSIGNALED(status)) {
            CHECK(WTERMSIG(status) == SIGKILL);
            return true;
        }
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);  // finished before the kill
        return false;
    };

    // One whole run: the size of its output places the kills.
    REQUIRE_FALSE(killAt(toOut, out, std::numeric_limits<std::intmax_t>::max()));
    REQUIRE(stdfs::exists(out));
    checkCommitted(out);
    const std::intmax_t size = std::intmax_t(stdfs::file_size(out));
    stdfs::remove(out);
    sweep(out);
    CHECK(leftTemps == 0);

    // To OUT, killed at 10 points: at once, when the temporary file appears, and when it holds
    // 1/9 to 8/9 of the output. PAK as it was, OUT absent or whole.
    int killed = 0;
    for (int i = 0; i < 10; ++i) {
        const std::intmax_t at = i == 0 ? -1 : size * (i - 1) / 9;
        INFO("to OUT, killed at " << at << " bytes of " << size);
        killed += killAt(toOut, out, at);
        CHECK(readFile(p.pak) == original);
        if (stdfs::exists(out)) {
            checkCommitted(out);
            stdfs::remove(out);
        }
        sweep(out);
    }
    CHECK(killed >= 9);
    // --in-place, killed at 4 points (1/5 to 4/5 of the output): PAK as it was (or, had it
    // finished, the committed pak).
    int inPlaceKilled = 0;
    for (int i = 1; i < 5; ++i) {
        const std::intmax_t at = size * i / 5;
        INFO("--in-place, killed at " << at << " bytes of " << size);
        inPlaceKilled += killAt(inPlace, p.pak, at);
        if (readFile(p.pak) != original) {
            checkCommitted(p.pak);
            writeFile(p.pak, original);
        }
        CHECK(!stdfs::exists(out));
        sweep(p.pak);
    }
    CHECK(inPlaceKilled >= 3);
    CHECK(leftTemps >= std::size_t(killed + inPlaceKilled - 1));  // every kill but the first
}

TEST_CASE(
    "commit: runs of untouched entries between changed ones: the same pak for any -j, read back "
    "exact",
    "[commit][parallel]") {
    const std::uint32_t version = GENERATE(3u, 17u);
    INFO("version " << version);
    // 200 files; every 37th changed, two deleted, one added: runs of copied slots (copied
    // file to file in version 3) between files encoded on the workers.
    std::map<std::string, Bytes> files;
    for (int i = 0; i < 200; ++i)
        files["D" + std::to_string(i % 7) + "/f" + std::to_string(i) + ".txt"] =
            i % 5 == 0 ? randomBytes(std::size_t(300 + i * 97), std::uint64_t(i))
                       : compressibleText(std::size_t(100 + i * 211), std::uint64_t(i));
    Packed p = packInNewFolder(version, files, pakFileName(version));
    const stdfs::path up = p.dir->path() / "overlay" / "Test";
    std::map<std::string, Bytes> want = p.files;
    int n = 0;
    for (auto& [path, data] : want) {
        if (n++ % 37 != 5) continue;
        data = compressibleText(data.size() + 1000, std::uint64_t(n) + 999);
        writeFile(up / path, data);
    }
    writeFile(up / "D3" / ".wh.f10.txt", {});
    writeFile(up / "D4" / ".wh.f11.txt", {});
    want.erase("D3/f10.txt");
    want.erase("D4/f11.txt");
    want["D0/new.txt"] = bytesOf("added\n");
    writeFile(up / "D0/new.txt", want["D0/new.txt"]);

    auto pak = archive::PakIndex::open(p.pak, testKey());
    const archive::ChangePlan plan = commit::planCommit(pak, up);
    std::size_t copies = 0;
    for (const auto& f : plan.plan.files) copies += f.copy != nullptr;
    CHECK(copies == 200 - 6 - 2);
    std::vector<Bytes> written;
    for (int jobs : {1, 4}) {
        archive::PackOptions o = plan.options;
        o.level = 6;
        o.jobs = jobs;
        o.warn = [](const std::string&) {};
        const stdfs::path out = p.dir->path() / ("Out" + std::to_string(jobs) + ".pak");
        archive::writePlan(plan.plan, out, testKey(), o);
        written.push_back(readFile(out));
        auto result = archive::PakIndex::open(out, testKey());
        std::map<std::string, Bytes> got;
        for (const auto& e : result->entries()) got[e.path] = archive::readEntry(result, e);
        CHECK(got == want);
        // Untouched entries keep their encrypted bytes.
        for (const auto& e : result->entries()) {
            const archive::PakEntry* before = nullptr;
            for (const auto& b : pak->entries())
                if (b.path == e.path) before = &b;
            if (!before || (p.files.count(e.path) && want.at(e.path) != p.files.at(e.path)))
                continue;
            INFO(e.path);
            CHECK(result->file()->readAt(result->entryOffset(e),
                                         std::size_t(e.ivSize() + e.cipherSize())) ==
                  pak->file()->readAt(pak->entryOffset(*before),
                                      std::size_t(before->ivSize() + before->cipherSize())));
        }
    }
    CHECK(written[0] == written[1]);
}

TEST_CASE("commit: a folder the pack names only in its files' names keeps that form", "[commit]") {
    // A pack whose file is named "A\\B\\c.txt" in the root: folders A and A/B have no row.
    Packed p;
    writeFile(p.dir->path() / "c.txt", bytesOf("c\n"));
    archive::PackPlan written;
    written.files.push_back({-1, "A\\B\\c.txt", "A/B/c.txt", p.dir->path() / "c.txt"});
    written.files.push_back({-1, "top.txt", "top.txt", p.dir->path() / "c.txt"});
    p.pak = p.dir->path() / "Test.pak";
    archive::writePlan(written, p.pak, testKey(), packOptions(3));
    auto pak = archive::PakIndex::open(p.pak, testKey());
    REQUIRE(pak->folders().empty());
    REQUIRE(pak->entries()[0].path == "A/B/c.txt");

    const stdfs::path up = p.dir->path() / "overlay/Test";
    writeFile(up / "A/B/g.txt", bytesOf("g\n"));
    writeFile(up / "A/B/New/f.txt", bytesOf("f\n"));
    archive::ChangePlan plan = commit::planCommit(pak, up);
    CHECK(changesOf(plan) ==
          Changes{{'A', "A/B/New/"}, {'A', "A/B/New/f.txt"}, {'A', "A/B/g.txt"}});
    REQUIRE(plan.plan.folders.size() == 1);
    CHECK(plan.plan.folders[0].parent == -1);
    CHECK(plan.plan.folders[0].name == "A\\B\\New\\");
    const stdfs::path out = p.dir->path() / "Out.pak";
    writeCommit(plan, out);
    auto after = archive::PakIndex::open(out, testKey());
    CHECK(contents(after) == std::map<std::string, Bytes>{{"A/B/c.txt", bytesOf("c\n")},
                                                          {"top.txt", bytesOf("c\n")},
                                                          {"A/B/g.txt", bytesOf("g\n")},
                                                          {"A/B/New/f.txt", bytesOf("f\n")}});
    const archive::PakEntry* g = findEntry(*after, "A/B/g.txt");
    REQUIRE(g);
    CHECK(g->folder == -1);
    CHECK(g->name == "A\\B\\g.txt");
    checkCopied(*pak, *after, "A/B/c.txt");
    checkCopied(*pak, *after, "top.txt");
}

TEST_CASE("commit: a file of the pack that cannot be decoded is replaced, or copied as it is",
          "[commit]") {
    Packed p = packInNewFolder(3, packFiles(), "Test.pak");
    {
        auto pak = archive::PakIndex::open(p.pak, testKey());
        const archive::PakEntry* e = findEntry(*pak, "Data/c100k.txt");
        REQUIRE(e);
        REQUIRE(e->compressed());
        // One byte of its ciphertext flipped: the zlib stream no longer decodes.
        Bytes all = readFile(p.pak);
        all[std::size_t(pak->entryOffset(*e) + 8 + e->cipherSize() / 2)] ^= 0x5A;
        writeFile(p.pak, all);
    }
    auto pak = archive::PakIndex::open(p.pak, testKey());
    const archive::PakEntry* damaged = findEntry(*pak, "Data/c100k.txt");
    REQUIRE_THROWS_AS(archive::readEntry(pak, *damaged), Error);

    // Untouched, it is copied as it is.
    const stdfs::path up = p.dir->path() / "overlay/Test";
    writeFile(up / "new.txt", bytesOf("new\n"));
    archive::ChangePlan plan = commit::planCommit(pak, up);
    CHECK(changesOf(plan) == Changes{{'A', "new.txt"}});
    writeCommit(plan, p.dir->path() / "Copied.pak");
    auto copied = archive::PakIndex::open(p.dir->path() / "Copied.pak", testKey());
    checkCopied(*pak, *copied, "Data/c100k.txt");

    // Replaced by a file of the same size, it is changed (its old bytes cannot be compared).
    const Bytes replacement = compressibleText(damaged->uncompressedSize, 60);
    writeFile(up / "Data/c100k.txt", replacement);
    plan = commit::planCommit(pak, up);
    CHECK(changesOf(plan) == Changes{{'M', "Data/c100k.txt"}, {'A', "new.txt"}});
    writeCommit(plan, p.dir->path() / "Replaced.pak");
    auto replaced = archive::PakIndex::open(p.dir->path() / "Replaced.pak", testKey());
    auto expected = p.files;
    expected["Data/c100k.txt"] = replacement;
    expected["new.txt"] = bytesOf("new\n");
    CHECK(contents(replaced) == expected);
}

namespace {

// Every file of a Packs folder's drives as the game sees them (packs::Drives), by drive path as
// the winning pack spells it.
std::map<std::string, Bytes> driveFiles(const stdfs::path& packsDir) {
    packs::LoadedSources loaded = packs::loadSources({packsDir}, {});
    CHECK(loaded.warnings.empty());
    packs::Drives drives(
        packs::orderPacks(std::move(loaded.packs), packs::packListOrder({packsDir})));
    std::map<std::string, Bytes> out;
    for (const packs::DriveFile* f : drives.files())
        out[f->path] = archive::readEntry(drives.packs()[std::size_t(f->pack)].pak, *f->entry);
    return out;
}

std::vector<packs::Pack> packsOf(const stdfs::path& packsDir) {
    packs::LoadedSources loaded = packs::loadSources({packsDir}, {});
    return packs::orderPacks(std::move(loaded.packs), packs::packListOrder({packsDir}));
}

// The overlay of a -o drives mount over test::PacksFolder (Resource; Stadium, then Common in
// the Game drive): one file changed, two added, and three that are no change.
void makeDrivesOverlay(const stdfs::path& overlay) {
    stdfs::create_directories(overlay / ".pakfs-work");
    const stdfs::path game = overlay / "Game";
    writeFile(game / "Stadium/Media/Texture/Road.dds", Bytes(300, 'R'));  // Common's: changed
    writeFile(game / "Shared.txt", bytesOf("com"));  // shared.TXT, as Common (loaded last) has it
    writeFile(game / "Stadium/Media/Solid/Road.Solid.Gbx", gbxWithRefs());  // a gbx file, as is
    writeFile(game / "New/Deep/n.bin", randomBytes(3000, 70));
    writeFile(game / "Stadium/Media/notes.txt", bytesOf("notes\n"));
    stdfs::create_directories(game / "Empty");  // a folder alone is nothing a patch can add
}

const Changes kPatchChanges = {{'A', "New/Deep/n.bin"},
                               {'M', "Stadium/Media/Texture/Road.dds"},
                               {'A', "Stadium/Media/notes.txt"}};

std::string lineList(const Changes& changes) {
    std::string out;
    for (const auto& [kind, path] : changes) out += std::string(1, kind) + " " + path + "\n";
    return out;
}

}  // namespace

TEST_CASE("commit --patch: what a drives overlay adds or changes, as a new pack loaded last",
          "[commit][cli]") {
    PacksFolder f;
    const stdfs::path packs = f.packs;
    const stdfs::path overlay = f.dir / "overlay";
    makeDrivesOverlay(overlay);
    const auto driveBefore = driveFiles(packs);
    REQUIRE(driveBefore.at("Game/shared.TXT") == bytesOf("com"));
    const Bytes listBefore = readFile(packs / "packlist.dat");
    const std::string listLsBefore = run(kPak + " packlist ls " + q(packs / "packlist.dat")).out;
    const stdfs::path patch = packs / "Patch.pak";

    // The library: the changes, files from disk in folders of their own, version 3 as the packs.
    archive::ChangePlan plan = commit::planPatch(packsOf(packs), overlay);
    CHECK(changesOf(plan) == kPatchChanges);
    CHECK(plan.options.version == 3);
    CHECK(plan.plan.base == nullptr);
    std::set<std::string> encoded;
    for (const auto& file : plan.plan.files) {
        CHECK(file.copy == nullptr);
        encoded.insert(file.packPath);
    }
    CHECK(encoded == std::set<std::string>{"New/Deep/n.bin", "Stadium/Media/Texture/Road.dds",
                                           "Stadium/Media/notes.txt"});
    CHECK(plan.plan.folders.size() == 5);

    // --dry-run: the lines, a count naming the pack it would write; nothing written.
    const std::string args = "Patch " + q(packs) + " " + q(overlay);
    for (const std::string flag : {"--dry-run", "-n"}) {
        auto r = run(kPak + " commit --patch " + args + " " + flag);
        CHECK(r.code == 0);
        CHECK(r.out == lineList(kPatchChanges));
        CHECK(r.err == patch.string() + ": 3 changes from " + (overlay / "Game").string() + "\n");
    }
    auto r = run(kPak + " commit --patch " + args + " -n --json");
    CHECK(r.code == 0);
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& [kind, path] : kPatchChanges)
        changes.push_back({{"change", std::string(1, kind)}, {"path", path}});
    CHECK(nlohmann::json::parse(r.out) == nlohmann::json{{"pak", patch.string()},
                                                         {"overlay", (overlay / "Game").string()},
                                                         {"changes", changes}});
    CHECK(namesIn(packs) ==
          std::set<std::string>{"Common.pak", "Resource.pak", "Stadium.pak", "packlist.dat"});
    CHECK(readFile(packs / "packlist.dat") == listBefore);

    // The patch, added last to the packlist with a new key string.
    r = run(kPak + " commit --patch " + args + " --packlist " + q(packs / "packlist.dat"));
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err == patch.string() + ": patch pack of 3 files in 5 folders, listed last in " +
                       (packs / "packlist.dat").string() + "\n");
    CHECK(namesIn(packs) == std::set<std::string>{"Common.pak", "Patch.pak", "Resource.pak",
                                                  "Stadium.pak", "packlist.dat"});
    const archive::PackList list = archive::readPackList(packs / "packlist.dat");
    CHECK(list.signatureValid);
    CHECK(list.salt == 4242);
    REQUIRE(list.entries.size() == 4);
    CHECK(list.entries[0].name == "Resource");
    CHECK(list.entries[1].name == "Stadium");
    CHECK(list.entries[2].name == "Common");
    CHECK(list.entries[3].name == "Patch");
    const std::string keyString = list.entries[3].keyString;
    CHECK(keyString.size() == 32);
    CHECK(keyString.find_first_not_of("0123456789ABCDEF") == std::string::npos);
    r = run(kPak + " packlist ls " + q(packs / "packlist.dat"));
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    // The old lines as they were, the header counting one more pack, the patch's line last.
    const std::string oldEntries = listLsBefore.substr(listLsBefore.find('\n') + 1);
    CHECK(r.out == "# version 1, 4 packs, salt 4242, signature valid\n" + oldEntries + "Patch\t" +
                       keyString + "\t" + hexString(archive::keyFromKeyString(keyString)) + "\n");

    // The pack: its files with the overlay's bytes, its key from the packlist entry.
    auto pak = archive::PakIndex::open(patch, archive::keyFromKeyString(keyString));
    CHECK(pak->version() == 3);
    CHECK(pak->warnings().empty());
    CHECK(contents(pak) == std::map<std::string, Bytes>{
                               {"New/Deep/n.bin", readFile(overlay / "Game/New/Deep/n.bin")},
                               {"Stadium/Media/Texture/Road.dds", Bytes(300, 'R')},
                               {"Stadium/Media/notes.txt", bytesOf("notes\n")}});
    CHECK(folderPaths(*pak) == std::set<std::string>{"New", "New/Deep", "Stadium", "Stadium/Media",
                                                     "Stadium/Media/Texture"});
    r = run(kPak + " check " + q(patch));  // the key from the packlist beside it
    CHECK(r.code == 0);
    CHECK(r.out ==
          "plain unverified New/Deep/n.bin: stored, no checksum covers its bytes\n"
          "plain unverified Stadium/Media/notes.txt: stored, no checksum covers its bytes\n"
          "3 files: 3 plain (2 unverified), 0 gbx (0 parsed, 0 header, 0 exact, 0 verified, 0 "
          "refused), 0 undecodable\n");
    r = run(kPak + " cat " + q(patch) + " Stadium/Media/notes.txt");
    CHECK(r.code == 0);
    CHECK(r.out == "notes\n");

    // The game's view: the overlay's bytes where it changed files, the old bytes elsewhere.
    auto expected = driveBefore;
    expected["Game/Stadium/Media/Texture/Road.dds"] = Bytes(300, 'R');
    expected["Game/New/Deep/n.bin"] = readFile(overlay / "Game/New/Deep/n.bin");
    expected["Game/Stadium/Media/notes.txt"] = bytesOf("notes\n");
    CHECK(driveFiles(packs) == expected);

    // Again: the overlay now equals the drive (no changes), and Patch is taken.
    r = run(kPak + " commit --patch " + args + " -n");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + patch.string() +
                       ": a pack named Patch is already in the folder; a patch pack must be new "
                       "(or commit into that pack)\n");
    r = run(kPak + " commit --patch Patch2 " + q(packs) + " " + q(overlay) + " -n");
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err == (packs / "Patch2.pak").string() + ": 0 changes from " +
                       (overlay / "Game").string() + "\n");
    // A name given with its extension is the pack's name without it, as packlist add has it.
    r = run(kPak + " commit --patch Patch2.pak " + q(packs) + " " + q(overlay) + " -n");
    CHECK(r.code == 0);
    CHECK(r.err == (packs / "Patch2.pak").string() + ": 0 changes from " +
                       (overlay / "Game").string() + "\n");
    r = run(kPak + " commit --patch Patch2 " + q(packs) + " " + q(overlay) + " --packlist " +
            q(packs / "packlist.dat"));
    CHECK(r.code == 0);
    CHECK(r.err == (packs / "Patch2.pak").string() +
                       ": nothing to patch: " + (overlay / "Game").string() +
                       " holds no added or changed files; nothing written\n");
    CHECK(!stdfs::exists(packs / "Patch2.pak"));
    CHECK(archive::readPackList(packs / "packlist.dat").entries.size() == 4);
}

TEST_CASE("commit --patch: version 18 packs, the key of an existing entry or given, OUT",
          "[commit][cli]") {
    TempDir dir;
    const stdfs::path packs = dir / "Packs";
    stdfs::create_directories(packs);
    archive::PackList list;
    list.salt = 77;
    // Patch has an entry already (its pack was deleted, say), before Base: it is moved last.
    const std::string patchKeyString = "0123456789ABCDEF0123456789ABCDEF";
    list.entries = {{0, "Resource", std::string(32, 'R')},
                    {0, "Patch", patchKeyString},
                    {0, "Base", std::string(32, 'B')}};
    archive::writePackList(packs / "packlist.dat", list);
    writeFile(dir / "src/Resource/r.txt", bytesOf("resource\n"));
    writeFile(dir / "src/Base/a.txt", bytesOf("old a\n"));
    writeFile(dir / "src/Base/Sub/b.txt", bytesOf("b\n"));
    for (const auto& e : list.entries)
        if (e.name != "Patch")
            archive::writePak(dir / "src" / e.name, packs / (e.name + ".Pack.Gbx"), e.key(),
                              packOptions(18));
    const stdfs::path overlay = dir / "overlay";
    writeFile(overlay / "Game/a.txt", bytesOf("new a\n"));
    writeFile(overlay / "Game/Sub/b.txt", bytesOf("b\n"));  // no change

    // The version is the packs': a .Pack.Gbx of version 18.
    archive::ChangePlan plan = commit::planPatch(packsOf(packs), overlay);
    CHECK(changesOf(plan) == Changes{{'M', "a.txt"}});
    CHECK(plan.options.version == 18);

    // A --key that is not the entry's, or one for a new entry: refused, nothing written.
    const std::string args =
        q(packs) + " " + q(overlay) + " --packlist " + q(packs / "packlist.dat");
    const Bytes listBefore = readFile(packs / "packlist.dat");
    auto r = run(kPak + " commit --patch Patch " + args + " --key " + kTestKeyHex);
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (packs / "packlist.dat").string() +
                       ": its entry for Patch has another key than the one given\n");
    r = run(kPak + " commit --patch Other " + args + " --key " + kTestKeyHex);
    CHECK(r.code == 2);
    CHECK(r.err ==
          "pak: --packlist makes the key of a new entry: give no --key with it (pak commit "
          "--help)\n");
    CHECK(readFile(packs / "packlist.dat") == listBefore);
    CHECK(namesIn(packs) ==
          std::set<std::string>{"Base.Pack.Gbx", "Resource.Pack.Gbx", "packlist.dat"});

    // No --packlist and no key: the key of the entry for Patch in the packlist beside the
    // pack written (as for pak pack), which is left as it is, with a warning: Base, listed
    // after Patch, wins over it.
    const stdfs::path patch = packs / "Patch.Pack.Gbx";
    r = run(kPak + " commit --patch Patch " + q(packs) + " " + q(overlay));
    CHECK(r.code == 0);
    const std::string listPath = (packs / "packlist.dat").string();
    CHECK(r.err == "pak: warning: " + listPath +
                       " lists Patch before Base: the game loads it earlier, so their files win "
                       "over its; --packlist " +
                       listPath + " moves it last\n" + patch.string() +
                       ": patch pack of 1 file in 0 folders\n");
    CHECK(driveFiles(packs).at("Game/a.txt") == bytesOf("old a\n"));
    auto pak = archive::PakIndex::open(patch, archive::keyFromKeyString(patchKeyString));
    CHECK(pak->version() == 18);
    CHECK(contents(pak) == std::map<std::string, Bytes>{{"a.txt", bytesOf("new a\n")}});
    pak.reset();
    CHECK(readFile(packs / "packlist.dat") == listBefore);
    stdfs::remove(patch);
    // To OUT elsewhere: a key is needed there (none beside it), or given.
    const stdfs::path out = dir / "Out.Pack.Gbx";
    r = run(kPak + " commit --patch Patch " + q(packs) + " " + q(overlay) + " " + q(out));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + out.string() +
                       ": no key given and no packlist.dat beside it (use --key, --key-file or "
                       "--packlist)\n");
    r = run(kPak + " commit --patch Patch " + q(packs) + " " + q(overlay) + " " + q(out) +
            " --key " + kTestKeyHex);
    CHECK(r.code == 0);
    CHECK(r.err == out.string() + ": patch pack of 1 file in 0 folders\n");
    CHECK(contents(archive::PakIndex::open(out, testKey())) ==
          std::map<std::string, Bytes>{{"a.txt", bytesOf("new a\n")}});

    // With --packlist: PACKS/Patch.Pack.Gbx with the entry's key, the entry moved last.
    r = run(kPak + " commit --patch Patch " + args);
    CHECK(r.code == 0);
    CHECK(r.err == patch.string() + ": patch pack of 1 file in 0 folders, listed last in " +
                       (packs / "packlist.dat").string() + "\n");
    const archive::PackList after = archive::readPackList(packs / "packlist.dat");
    CHECK(after.signatureValid);
    CHECK(after.salt == 77);
    REQUIRE(after.entries.size() == 3);
    CHECK(after.entries[0].name == "Resource");
    CHECK(after.entries[1].name == "Base");
    CHECK(after.entries[2].name == "Patch");
    CHECK(after.entries[2].keyString == patchKeyString);
    CHECK(readFile(patch) != Bytes{});
    CHECK(contents(archive::PakIndex::open(patch, archive::keyFromKeyString(patchKeyString))) ==
          std::map<std::string, Bytes>{{"a.txt", bytesOf("new a\n")}});
    CHECK(driveFiles(packs) ==
          std::map<std::string, Bytes>{{"Game/Sub/b.txt", bytesOf("b\n")},
                                       {"Game/a.txt", bytesOf("new a\n")},
                                       {"Resource/r.txt", bytesOf("resource\n")}});
}

TEST_CASE("commit --patch: what a patch pack cannot express is an error naming the path",
          "[commit][cli]") {
    PacksFolder f;
    const stdfs::path packs = f.packs;
    const std::set<std::string> names = namesIn(packs);
    const Bytes listBefore = readFile(packs / "packlist.dat");
    // Which packs hold the path deleted, and how to delete it from the first of them.
    auto deletes = [&](const std::string& marker, const std::string& drivePath,
                       const std::string& holders, const std::string& pack,
                       const std::string& inPack, bool folder) {
        const std::string pak = (packs / (pack + ".pak")).string();
        const bool one = holders.find(" and ") == std::string::npos;
        return std::string(": a patch pack cannot ") +
               (marker.ends_with(".wh..wh..opq") ? "hide the files of a folder" : "delete") +
               " (a pack loaded later only adds and replaces files): remove OVERLAY/Game/" +
               marker + "; " + drivePath + " comes from " + (one ? "pack " : "packs ") + holders +
               ": to delete it, mount " +
               (one ? "that pack" : "each of them (" + pack + " first)") +
               " alone writable with a new overlay folder DIR, delete it there and commit: "
               "pakfs " +
               pak + " MOUNTPOINT -o overlay=DIR; rm " + (folder ? "-r " : "") + "MOUNTPOINT/" +
               pack + "/" + inPack + "; fusermount3 -u MOUNTPOINT; pak commit " + pak +
               " DIR --in-place";
    };
    const std::string stadium = "Stadium (" + (packs / "Stadium.pak").string() + ")",
                      common = "Common (" + (packs / "Common.pak").string() + ")";
    struct Case {
        std::string what;
        // Makes the overlay in the folder given; returns the path the error names.
        std::function<stdfs::path(const stdfs::path& ov)> make;
        std::string reason;
        bool overlayRootInReason = false;  // the reason ends naming the overlay folder
    };
    // The pak's path as the command was given it: the advice runs as printed.
    const std::string resource =
        ": changes to the Resource drive cannot go into a patch pack (the game loads "
        "Resource.pak on its own): commit them with pak commit " +
        (packs / "Resource.pak").string() + " ";
    const std::vector<Case> cases = {
        {"whiteout",
         [](const stdfs::path& ov) {
             writeFile(ov / "Game/new.txt", bytesOf("new\n"));
             touch(ov / "Game/.wh.shared.TXT");
             return ov / "Game/.wh.shared.TXT";
         },
         deletes(".wh.shared.TXT", "Game/shared.TXT", stadium + " and " + common, "Stadium",
                 "Shared.txt", false)},
        {"whiteout of a folder",
         [](const stdfs::path& ov) {
             touch(ov / "Game/Stadium/Media/.wh.Solid");
             return ov / "Game/Stadium/Media/.wh.Solid";
         },
         deletes("Stadium/Media/.wh.Solid", "Game/Stadium/Media/Solid", stadium, "Stadium",
                 "Stadium/Media/Solid", true)},
        {"opaque folder",
         [](const stdfs::path& ov) {
             touch(ov / "Game/Stadium/Media/.wh..wh..opq");
             writeFile(ov / "Game/Stadium/Media/x.txt", bytesOf("x\n"));
             return ov / "Game/Stadium/Media/.wh..wh..opq";
         },
         deletes("Stadium/Media/.wh..wh..opq", "Game/Stadium/Media", stadium + " and " + common,
                 "Stadium", "Stadium/Media", true)},
        {"Resource file changed",
         [](const stdfs::path& ov) {
             writeFile(ov / "Game/new.txt", bytesOf("new\n"));
             writeFile(ov / "Resource/Media/Texture/A.dds", Bytes(100, 'A'));
             return ov / "Resource/Media/Texture/A.dds";
         },
         resource, true},
        {"Resource file deleted",
         [](const stdfs::path& ov) {
             touch(ov / "Resource/Shaders/.wh.x.fx");
             return ov / "Resource/Shaders/.wh.x.fx";
         },
         resource, true},
        {"Resource folder added",
         [](const stdfs::path& ov) {
             stdfs::create_directories(ov / "Resource/Media/New");
             return ov / "Resource/Media/New";
         },
         resource, true},
        {"a pack's folder, not a drive",
         [](const stdfs::path& ov) {
             writeFile(ov / "Stadium/x.txt", bytesOf("x\n"));
             return ov / "Stadium";
         },
         ": not a drive (Game, Resource): --patch takes the overlay folder of a -o drives mount"},
        {"two names differing in case",
         [](const stdfs::path& ov) {
             writeFile(ov / "Game/New/a.txt", bytesOf("a\n"));
             writeFile(ov / "Game/NEW/b.txt", bytesOf("b\n"));
             return ov / "Game/New";
         },
         ": differs only in case from NEW in the overlay, which the game would not tell apart"},
        {"two file names differing in case",
         [](const stdfs::path& ov) {
             writeFile(ov / "Game/a.txt", bytesOf("a\n"));
             writeFile(ov / "Game/A.txt", bytesOf("b\n"));
             return ov / "Game/a.txt";
         },
         ": differs only in case from A.txt in the overlay, which the game would not tell "
         "apart"},
        {"symbolic link",
         [](const stdfs::path& ov) {
             stdfs::create_directories(ov / "Game");
             stdfs::create_symlink("/etc/passwd", ov / "Game/link");
             return ov / "Game/link";
         },
         ": a symbolic link, which a pak cannot hold"},
    };
    int n = 0;
    for (const auto& c : cases) {
        INFO(c.what);
        const stdfs::path overlay = f.dir / ("overlay" + std::to_string(n++));
        const stdfs::path named = c.make(overlay);
        std::string message =
            named.string() + c.reason +
            (c.overlayRootInReason ? overlay.string() + " --in-place" : std::string());
        if (auto at = message.find("OVERLAY/"); at != std::string::npos)
            message.replace(at, 7, overlay.string());
        try {
            commit::planPatch(packsOf(packs), overlay);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()) == message);
        }
        // The key options given go into the pak commit it suggests, to run as printed.
        const std::string packlist = " --packlist " + shellWord((packs / "packlist.dat").string());
        for (const std::string& extra : std::vector<std::string>{" -n", packlist}) {
            auto r = run(kPak + " commit --patch Patch " + q(packs) + " " + q(overlay) + extra);
            CHECK(r.code == 1);
            CHECK(r.out.empty());
            CHECK(r.err == "pak: " + message +
                               (c.overlayRootInReason && extra == packlist ? packlist : "") + "\n");
        }
    }

    // Errors of the command: names, folders, options.
    const stdfs::path overlay = f.dir / "overlay-ok";
    writeFile(overlay / "Game/new.txt", bytesOf("new\n"));
    const std::string ok = q(packs) + " " + q(overlay);
    auto fails = [&](const std::string& args, const std::string& message) {
        INFO(args);
        auto r = run(kPak + " commit " + args);
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err == "pak: " + message + "\n");
    };
    const std::string taken =
        " is already in the folder; a patch pack must be new (or commit into that pack)";
    fails("--patch Common " + ok,
          (packs / "Common.pak").string() + ": a pack named Common" + taken);
    fails("--patch common " + ok + " -n",
          (packs / "Common.pak").string() + ": a pack named common" + taken);
    // Options given wrong: usage errors (exit 2).
    auto usage = [&](const std::string& args, const std::string& message) {
        INFO(args);
        auto r = run(kPak + " commit " + args);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "pak: " + message + " (pak commit --help)\n");
    };
    usage("--patch a/b " + ok, "--patch takes a pack name (no folder), got \"a/b\"");
    usage("--patch 'a\\b' " + ok, "--patch takes a pack name (no folder), got \"a\\b\"");
    usage("--patch Patch " + ok + " --in-place",
          "--in-place does not go with --patch (a patch pack is a new pack)");
    fails("--patch Patch " + q(packs / "Common.pak") + " " + q(overlay),
          (packs / "Common.pak").string() + ": not a folder (with --patch, give the Packs folder)");
    fails("--patch Patch " + q(packs) + " " + q(f.dir / "nowhere"),
          (f.dir / "nowhere").string() + ": no such folder");
    // Without --packlist, the key comes from the packlist beside OUT: none for a new name.
    fails("--patch Patch " + ok, (packs / "packlist.dat").string() +
                                     ": has no entry for pack \"Patch\" (" +
                                     (packs / "Patch.pak").string() + ")");
    // No changes: an empty overlay, one with only a work folder and a Game drive as it is.
    const stdfs::path same = f.dir / "overlay-same";
    stdfs::create_directories(same / ".pakfs-work");
    stdfs::create_directories(same / "Resource");
    writeFile(same / "Game/shared.TXT", bytesOf("com"));
    auto r = run(kPak + " commit --patch Patch " + q(packs) + " " + q(same) + " -n");
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err ==
          (packs / "Patch.pak").string() + ": 0 changes from " + (same / "Game").string() + "\n");
    r = run(kPak + " commit --patch Patch " + q(packs) + " " + q(same) + " --packlist " +
            q(packs / "packlist.dat"));
    CHECK(r.code == 0);
    CHECK(r.err == (packs / "Patch.pak").string() +
                       ": nothing to patch: " + (same / "Game").string() +
                       " holds no added or changed files; nothing written\n");
    CHECK(namesIn(packs) == names);
    CHECK(readFile(packs / "packlist.dat") == listBefore);

    // A pack of that name the folder holds but cannot open (no key for it) is still taken.
    writeFile(packs / "Broken.pak", randomBytes(2000, 71));
    fails("--patch broken " + ok + " -n",
          (packs / "Broken.pak").string() + ": a pack named broken" + taken);
    CHECK(readFile(packs / "packlist.dat") == listBefore);
}

// Last in this file: without ../shared the test ends the program (reported as skipped).
TEST_CASE("commit: the game's pack with one plain file changed and one deleted checks clean",
          "[commit][real-pack][fixtures]") {
    const stdfs::path real = sharedDir("fixtures/real") / "Resource.pak";
    auto pak = archive::PakIndex::open(real, archive::resolveKey(real, {}));
    const std::string keyHex = hexString(ByteSpan(pak->key().data(), pak->key().size()));
    std::vector<const archive::PakEntry*> plain;
    for (const auto& e : pak->entries())
        if (!archive::isGbxEntry(*pak, e)) plain.push_back(&e);
    REQUIRE(plain.size() >= 2);
    const archive::PakEntry& change = *plain.front();
    const archive::PakEntry& remove = *plain.back();
    TempDir dir;
    const stdfs::path up = dir / "overlay/Resource";
    Bytes changedBytes = archive::readEntry(pak, change);
    const std::string extra = "\nchanged by pak commit\n";
    changedBytes.insert(changedBytes.end(), extra.begin(), extra.end());
    writeFile(up / change.path, changedBytes);
    const stdfs::path removePath(remove.path);
    touch(up / removePath.parent_path() / (".wh." + removePath.filename().string()));

    auto r = run(kPak + " commit -n " + q(real) + " " + q(dir / "overlay") + " " +
                 q(dir / "Resource.pak") + " --key " + keyHex);
    CHECK(r.code == 0);
    CHECK(r.out == (change.path < remove.path ? "M " + change.path + "\nD " + remove.path + "\n"
                                              : "D " + remove.path + "\nM " + change.path + "\n"));
    r = run(kPak + " commit -q " + q(real) + " " + q(dir / "overlay") + " " +
            q(dir / "Resource.pak") + " --key " + keyHex);
    CHECK(r.code == 0);
    // Written under the name of a pack with no packlist beside it: how it opens is said.
    CHECK(r.err == (dir / "Resource.pak").string() + ": 26 files in " +
                       std::to_string(pak->folders().size()) +
                       " folders (25 copied as they were, 1 encoded), 2 changes\npak: note: " +
                       (dir / "Resource.pak").string() +
                       " is not opened by name (there is no packlist.dat beside it): open it "
                       "with --key " +
                       keyHex + " (e.g. pak check " + (dir / "Resource.pak").string() + " --key " +
                       keyHex + "), or add its entry: pak packlist add " +
                       (dir / "packlist.dat").string() + " Resource --key-string " +
                       "087480148E51B70DD83AF2D86F974FEF\n");
    r = run(kPak + " check " + q(dir / "Resource.pak") + " --key " + keyHex);
    CHECK(r.code == 0);
    CHECK(r.out.find("gbx refused") == std::string::npos);
    CHECK(r.out.find("\n26 files: 12 plain (4 unverified), 14 gbx (14 parsed, 0 header, 0 exact, 0 "
                     "verified, 0 refused), 0 undecodable\n") != std::string::npos);

    auto after = archive::PakIndex::open(dir / "Resource.pak", pak->key());
    REQUIRE(after->entries().size() == 26);
    CHECK(after->version() == 3);
    CHECK(findEntry(*after, remove.path) == nullptr);
    for (const auto& e : pak->entries()) {
        if (e.path == change.path || e.path == remove.path) continue;
        checkCopied(*pak, *after, e.path);
    }
    const archive::PakEntry* c = findEntry(*after, change.path);
    REQUIRE(c);
    CHECK(archive::readEntry(after, *c) == changedBytes);
    CHECK(c->classId == change.classId);
}

TEST_CASE("commit: every gbx file a version 3 pak cannot plan is named in one run, nothing written",
          "[commit][cli]") {
    Packed p = packInNewFolder(3, packFiles(), "Test.pak");
    const Bytes before = readFile(p.pak);
    const stdfs::path overlay = p.dir->path() / "overlay";
    // Not a gbx past its first bytes; a map cut in its header; a good change beside them.
    Bytes junk = {'G', 'B', 'X', 6, 0, 'B', 'U', 'U', 'R', 0, 0x30, 0x04, 0x03, 0, 0, 0, 0};
    junk.resize(400, 0xEE);
    writeFile(overlay / "Test/Maps/Junk.Map.Gbx", junk);
    Bytes cut = gbxFile(40);
    cut.resize(20);
    writeFile(overlay / "Test/Maps/Thing.Challenge.Gbx", cut);
    writeFile(overlay / "Test/Config/default.xml", bytesOf("<config/>\n"));
    const stdfs::path out = p.dir->path() / "Out.pak";
    auto r = run(kPak + " commit -q " + q(p.pak) + " " + q(overlay) + " " + q(out) + " --key " +
                 kTestKeyHex);
    CHECK(r.code == 1);
    // In the order of the pak written: the changed file where the pack holds it, the added
    // one after.
    CHECK(r.err ==
          "pak: 2 gbx files cannot be planned for a version 3 pak, so nothing was written:\n"
          "  Maps/Thing.Challenge.Gbx: cannot be decoded exactly: <memory>: unexpected end of "
          "data at offset 17 (wanted 4 bytes, 3 left)\n"
          "  Maps/Junk.Map.Gbx: cannot be decoded exactly: count 4008636142 of external "
          "references at offset 21 needs at least 48103633704 bytes but only 375 are left\n"
          "To go on: remove them from " +
              (overlay / "Test").string() + ".\n");
    CHECK(namesIn(p.dir->path()) == std::set<std::string>{"Test.pak", "overlay"});
    r = run(kPak + " commit -q --in-place " + q(p.pak) + " " + q(overlay) + " --key " +
            kTestKeyHex);
    CHECK(r.code == 1);
    CHECK(r.err.rfind("pak: 2 gbx files cannot be planned for a version 3 pak", 0) == 0);
    CHECK(readFile(p.pak) == before);
    CHECK(namesIn(p.dir->path()) == std::set<std::string>{"Test.pak", "overlay"});
}
