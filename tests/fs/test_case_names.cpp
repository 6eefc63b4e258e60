// SPDX-License-Identifier: GPL-2.0-or-later
// Names that differ only in case, as the game compares them (without regard to case), through
// real mounts: the drives' view merges them with or without icase, showing one spelling; a
// writable mount renames a name to another spelling of itself, and pak commit writes it; a new
// name beside another spelling of it is refused as it is made.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

#include "archive/pak/PackList.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/fs/OverlayFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

std::vector<std::string> caseNamesIn(const stdfs::path& folder) {
    std::vector<std::string> names;
    for (const auto& e : stdfs::directory_iterator(folder))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string caseText(const stdfs::path& file) {
    const Bytes b = readFile(file);
    return std::string(b.begin(), b.end());
}

// A Packs folder whose two Game packs spell two folders and a file differently: Stadium
// (loaded first) "Tracks/Sub" and "Same.txt", Common (loaded last) "tracks/sub" and "SAME.txt".
struct CasePacks {
    TempDir dir;
    stdfs::path packs = dir / "Packs";

    CasePacks() {
        archive::PackList list;
        list.salt = 77;
        const char* names[] = {"Resource", "Stadium", "Common"};
        for (const char* n : names) list.entries.push_back({0, n, std::string(32, 'K')});
        stdfs::create_directories(packs);
        archive::writePackList(packs / "packlist.dat", list);
        const stdfs::path src = dir / "src";
        writeFile(src / "Resource/Shaders/x.fx", bytesOf("fx"));
        writeFile(src / "Stadium/Tracks/a.txt", bytesOf("stadium a"));
        writeFile(src / "Stadium/Tracks/Same.txt", bytesOf("stadium same"));
        writeFile(src / "Stadium/Tracks/Sub/x.txt", bytesOf("stadium x"));
        writeFile(src / "Common/tracks/b.txt", bytesOf("common b"));
        writeFile(src / "Common/tracks/SAME.txt", bytesOf("common same"));
        writeFile(src / "Common/tracks/sub/y.txt", bytesOf("common y"));
        for (const auto& e : list.entries)
            archive::writePak(src / e.name, packs / (e.name + ".pak"), e.key(), {});
    }
};

}  // namespace

TEST_CASE(
    "case names: -o drives merges folders and files that differ only in case, with or "
    "without icase, in the spelling of the last pack that holds them",
    "[mount][drives]") {
    skipUnlessFuse();
    CasePacks p;
    for (const std::string options : {"drives", "drives,icase"}) {
        INFO(options);
        TempDir dir;
        Mount m({"-o", options, p.packs.string()}, dir / "mnt", dir);
        INFO(m.errors());
        REQUIRE(m.waitMounted());
        const stdfs::path game = m.path() / "Game";
        // One folder, spelled as Common (loaded last) spells it; the file of Common wins and
        // shows in its spelling, the folders' files of both packs in it.
        CHECK(caseNamesIn(game) == std::vector<std::string>{"tracks"});
        CHECK(caseNamesIn(game / "tracks") ==
              std::vector<std::string>{"SAME.txt", "a.txt", "b.txt", "sub"});
        CHECK(caseNamesIn(game / "tracks/sub") == std::vector<std::string>{"x.txt", "y.txt"});
        CHECK(caseText(game / "tracks/SAME.txt") == "common same");
        CHECK(caseText(game / "tracks/a.txt") == "stadium a");
        CHECK(caseText(game / "tracks/sub/x.txt") == "stadium x");
        struct stat st;
        // Lookups of another spelling find it with icase only.
        const bool icase = options.find("icase") != std::string::npos;
        CHECK((::stat((game / "Tracks/Sub/y.txt").c_str(), &st) == 0) == icase);
        CHECK((::stat((game / "TRACKS/same.TXT").c_str(), &st) == 0) == icase);
        if (icase) CHECK(caseText(game / "TRACKS/same.TXT") == "common same");
        // Nothing was left out or renamed.
        CHECK(m.errors().find("name taken") == std::string::npos);
    }
}

namespace {

// errno of a failed call, 0 when it succeeded.
int caseErrno(int rc) {
    return rc == 0 ? 0 : errno;
}

// The entries of a pak (made with the test key), by path.
std::map<std::string, Bytes> caseCommitted(const OverlayMount& m, const stdfs::path& out) {
    auto r = run(kPak + " commit -q" + keyArg() + quote(m.pack.pak.string()) + " " +
                 quote(m.overlay.string()) + " " + quote(out.string()));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    return contentsOf(out);
}

}  // namespace

TEST_CASE(
    "case names: mv to a new spelling of a file or folder renames it, with or without "
    "icase, and pak commit writes the rename",
    "[mount][overlay][commit]") {
    for (const std::string options : {"", "icase"}) {
        INFO("-o " << options);
        OverlayMount m(options.empty() ? std::vector<std::string>{}
                                       : std::vector<std::string>{"-o", options});
        // A file and a folder (with a folder inside) of the pack, and a file the overlay made.
        m.sh("mv Text/readme.txt Text/README.txt");
        // With icase DEEP is the folder itself, so mv would move Deep into it: -T says not to.
        m.sh(std::string("mv ") + (options.empty() ? "" : "-T ") + "Data/Deep Data/DEEP");
        m.sh("echo new > Text/new.txt && mv Text/new.txt Text/New.txt");
        CHECK(caseNamesIn(m / "Text") ==
              std::vector<std::string>{"New.txt", "README.txt", "empty.txt", "one.txt"});
        CHECK(caseNamesIn(m / "Data") ==
              std::vector<std::string>{"DEEP", "c100k.txt", "r1024.bin", "r255.bin", "r256.bin"});
        CHECK(caseNamesIn(m / "Data/DEEP") == std::vector<std::string>{"Er"});
        CHECK(readFile(m / "Text/README.txt") == m.pack.file("Text/readme.txt"));
        CHECK(readFile(m / "Data/DEEP/Er/c1024.txt") == m.pack.file("Data/Deep/Er/c1024.txt"));
        CHECK(caseText(m / "Text/New.txt") == "new\n");
        // Back again, and again: each spelling shows once.
        m.sh("mv Text/one.txt Text/ONE.txt && mv Text/ONE.txt Text/one.txt");
        CHECK(caseNamesIn(m / "Text") ==
              std::vector<std::string>{"New.txt", "README.txt", "empty.txt", "one.txt"});
        if (!options.empty()) {
            // Any spelling finds the overlay's names too, and reads and writes the same bytes
            // (another spelling is an inode of its own to the kernel, which keeps nothing of it).
            CHECK(readFile(m / "Text/readme.txt") == m.pack.file("Text/readme.txt"));
            CHECK(readFile(m / "data/deep/er/C1024.TXT") == m.pack.file("Data/Deep/Er/c1024.txt"));
            m.sh("printf more >> Text/new.TXT");
            CHECK(caseText(m / "Text/New.txt") == "new\nmore");
            m.sh("truncate -s 4 Text/New.txt");
            CHECK(caseText(m / "Text/NEW.txt") == "new\n");
        }
        const auto seen = snapshot(m.mount->path() / "Test");
        m.remount();
        CHECK(snapshot(m.mount->path() / "Test") == seen);
        m.mount.reset();

        // The pak holds the new spellings only, with the same bytes.
        const auto out = caseCommitted(m, m.dir / "Out.pak");
        auto expected = m.pack.files;
        expected["Text/README.txt"] = expected.at("Text/readme.txt");
        expected.erase("Text/readme.txt");
        expected["Data/DEEP/Er/c1024.txt"] = expected.at("Data/Deep/Er/c1024.txt");
        expected.erase("Data/Deep/Er/c1024.txt");
        expected["Text/New.txt"] = bytesOf("new\n");
        CHECK(out == expected);
    }
}

TEST_CASE(
    "case names: a new name that differs only in case from one the pack or the overlay "
    "holds is refused with EEXIST and a log line, and the overlay commits",
    "[mount][overlay][commit]") {
    for (const std::string options : {"", "icase"}) {
        INFO("-o " << options);
        OverlayMount m(options.empty() ? std::vector<std::string>{}
                                       : std::vector<std::string>{"-o", options});
        const bool icase = !options.empty();
        const std::string folder = "Test/Text";
        auto refused = [&](const char* op, const std::string& name, const std::string& twin) {
            return std::string("pakfs: ") + op + " " + folder + "/" + name + ": " + folder + "/" +
                   twin +
                   " is there, and the game compares names without regard to case, so a pak "
                   "cannot hold both: rename " +
                   twin + " instead\n";
        };
        std::string log;
        // create(2) and mkdir(2) beside a name of the pack. With icase the kernel finds the
        // pack's name itself: the file is there (EEXIST from O_EXCL, no log line).
        CHECK(
            caseErrno(::open((m / "Text/README.TXT").c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644) < 0
                          ? -1
                          : 0) == EEXIST);
        if (!icase) log += refused("create", "README.TXT", "readme.txt");
        CHECK(caseErrno(::mkdir((m / "Text/EMPTY.txt").c_str(), 0755)) == EEXIST);
        if (!icase) log += refused("mkdir", "EMPTY.txt", "empty.txt");
        // Beside a name the overlay made (with icase the kernel finds it, as above).
        m.sh("echo n > Text/New.txt && mkdir Text/Made");
        CHECK(caseErrno(::open((m / "Text/NEW.txt").c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644) < 0
                            ? -1
                            : 0) == EEXIST);
        if (!icase) log += refused("create", "NEW.txt", "New.txt");
        CHECK(caseErrno(::mkdir((m / "Text/MADE").c_str(), 0755)) == EEXIST);
        if (!icase) log += refused("mkdir", "MADE", "Made");
        // rename(2) to a new spelling of another name.
        CHECK(caseErrno(::rename((m / "root.txt").c_str(), (m / "Text/NEW.TXT").c_str())) ==
              EEXIST);
        log += refused("rename", "NEW.TXT", "New.txt");
        // With icase the new spelling finds the pack's file: replacing it is refused too.
        CHECK(caseErrno(::rename((m / "Text/New.txt").c_str(), (m / "Text/ONE.txt").c_str())) ==
              EEXIST);
        log += refused("rename", "ONE.txt", "one.txt");
        CHECK(m.mount->errors() == log);
        CHECK(caseNamesIn(m / "Text") ==
              std::vector<std::string>{"Made", "New.txt", "empty.txt", "one.txt", "readme.txt"});
        m.mount.reset();
        const auto out = caseCommitted(m, m.dir / "Out.pak");
        CHECK(out.count("Text/readme.txt") == 1);
        CHECK(out.count("Text/README.TXT") == 0);
    }
}
