// SPDX-License-Identifier: GPL-2.0-or-later
// Deletions through the Game drive of a writable -o drives mount: a pack's file or folder there
// cannot be deleted (no patch pack can express it) and the refusal says how to delete it from
// its pack; what the overlay added, and the Resource drive, delete as before. pak commit
// --patch gives the same advice for a whiteout left under Game, and the advice works as written.
// Real mounts through the kernel; skipped when FUSE is not available.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "packs/Drives.hpp"
#include "packs/Sources.hpp"
#include "tests/fs/MountFixture.hpp"
#include "tests/support/DrivesFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> listedNames(const stdfs::path& folder) {
    std::vector<std::string> names;
    for (const auto& e : stdfs::directory_iterator(folder))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Every whiteout under `folder`, relative to it.
std::vector<std::string> whiteoutsUnder(const stdfs::path& folder) {
    std::vector<std::string> found;
    for (const auto& e : stdfs::recursive_directory_iterator(folder))
        if (e.path().filename().string().rfind(".wh.", 0) == 0)
            found.push_back(e.path().lexically_relative(folder).string());
    std::sort(found.begin(), found.end());
    return found;
}

// errno of a failed call, 0 when it succeeded.
int errnoAfter(int rc) {
    return rc == 0 ? 0 : errno;
}

// The advice for deleting `path` of the fixture's Game drive from `pack`, held alone.
std::string deletionSteps(const stdfs::path& packs, const std::string& drivePath,
                          const std::string& pack, const std::string& inPack, bool folder = false) {
    const std::string pak = (packs / (pack + ".pak")).string();
    return drivePath + " comes from pack " + pack + " (" + pak +
           "): to delete it, mount that pack alone writable with a new overlay folder DIR, "
           "delete it there and commit: pakfs " +
           pak + " MOUNTPOINT -o overlay=DIR; rm " + (folder ? "-r " : "") + "MOUNTPOINT/" + pack +
           "/" + inPack + "; fusermount3 -u MOUNTPOINT; pak commit " + pak + " DIR --in-place";
}

const std::string kNeverCommitted =
    "a deletion in the Game drive can never be committed (pak commit --patch only adds and "
    "replaces files); ";

// Unmounts whatever is left at `point` at the end of a test.
struct LeftMountCleaner {
    stdfs::path point;
    ~LeftMountCleaner() {
        for (int i = 0; i < 5 && isMounted(point); ++i)
            run("timeout -s KILL 10 fusermount3 -u -z " + quote(point.string()));
    }
};

}  // namespace

TEST_CASE("drive deletions: a pack's file or folder in the Game drive is refused with EPERM",
          "[mount][drives][overlay]") {
    skipUnlessFuse();
    PacksFolder f;
    TempDir dir;
    const stdfs::path ov = dir / "ov";
    stdfs::create_directories(ov);
    Mount m({"-o", "drives,overlay=" + ov.string(), f.packs.string()}, dir / "mnt", dir);
    INFO(m.errors());
    REQUIRE(m.waitMounted());
    const stdfs::path game = m.path() / "Game";

    // unlink(2): EPERM, the file still there, one log line naming it, its pack, what to do.
    const stdfs::path road = game / "Stadium/Media/Texture/Road.dds";
    CHECK(errnoAfter(::unlink(road.c_str())) == EPERM);
    std::string log = "pakfs: unlink Game/Stadium/Media/Texture/Road.dds: " + kNeverCommitted +
                      deletionSteps(f.packs, "Game/Stadium/Media/Texture/Road.dds", "Common",
                                    "Stadium/Media/Texture/Road.dds") +
                      "\n";
    CHECK(m.errors() == log);
    CHECK(listedNames(game / "Stadium/Media/Texture") == std::vector<std::string>{"Road.dds"});
    CHECK(readFile(road) == Bytes(300, 'r'));

    // rm(1) says so and exits 1; a file two packs hold names both, the hidden one first.
    auto r = run("rm " + quote((game / "shared.TXT").string()) + " </dev/null");
    CHECK(r.code == 1);
    CHECK(r.err.find("Operation not permitted") != std::string::npos);
    const std::string pakS = (f.packs / "Stadium.pak").string(),
                      pakC = (f.packs / "Common.pak").string();
    log += "pakfs: unlink Game/shared.TXT: " + kNeverCommitted +
           "Game/shared.TXT comes from packs Stadium (" + pakS + ") and Common (" + pakC +
           "): to delete it, mount each of them (Stadium first) alone writable with a new "
           "overlay folder DIR, delete it there and commit: pakfs " +
           pakS + " MOUNTPOINT -o overlay=DIR; rm MOUNTPOINT/Stadium/Shared.txt; fusermount3 -u " +
           "MOUNTPOINT; pak commit " + pakS + " DIR --in-place\n";
    CHECK(m.errors() == log);
    CHECK(readFile(game / "shared.TXT") == Bytes{'c', 'o', 'm'});

    // Moving a pack's file away would leave a whiteout: refused too, both names as they were.
    CHECK(errnoAfter(::rename(road.c_str(), (game / "moved.dds").c_str())) == EPERM);
    log += "pakfs: rename Game/Stadium/Media/Texture/Road.dds: " + kNeverCommitted +
           deletionSteps(f.packs, "Game/Stadium/Media/Texture/Road.dds", "Common",
                         "Stadium/Media/Texture/Road.dds") +
           "\n";
    CHECK(m.errors() == log);
    CHECK_FALSE(stdfs::exists(game / "moved.dds"));
    // rm -r of a pack's folder: each file refused, the folder not empty.
    const std::string gbxLine =
        "pakfs: unlink Game/Stadium/Media/Solid/Road.Solid.Gbx: " + kNeverCommitted +
        deletionSteps(f.packs, "Game/Stadium/Media/Solid/Road.Solid.Gbx", "Stadium",
                      "Stadium/Media/Solid/Road.Solid.Gbx") +
        "\n";
    r = run("rm -r " + quote((game / "Stadium/Media/Solid").string()) + " </dev/null");
    CHECK(r.code == 1);
    CHECK(readFile(game / "Stadium/Media/Solid/Road.Solid.Gbx") == gbxWithRefs());
    log += gbxLine;
    CHECK(m.errors() == log);
    // A changed file is still a pack's file: changing it works, deleting it does not.
    writeFile(game / "Stadium/Media/Solid/Road.Solid.Gbx", Bytes{'n', 'e', 'w'});
    CHECK(errnoAfter(::unlink((game / "Stadium/Media/Solid/Road.Solid.Gbx").c_str())) == EPERM);
    CHECK(readFile(game / "Stadium/Media/Solid/Road.Solid.Gbx") == Bytes{'n', 'e', 'w'});
    log += gbxLine;

    // What the overlay added is deleted, renamed and moved over a pack's file (a change, as
    // an editor saves) freely.
    writeFile(game / "added.txt", Bytes{'a'});
    CHECK(errnoAfter(::rename((game / "added.txt").c_str(), (game / "renamed.txt").c_str())) == 0);
    CHECK(errnoAfter(::unlink((game / "renamed.txt").c_str())) == 0);
    REQUIRE(stdfs::create_directories(game / "NewFolder/Inner"));
    CHECK(run("rm -r " + quote((game / "NewFolder").string()) + " </dev/null").code == 0);
    writeFile(game / "Stadium/Media/Texture/Road.dds.tmp", Bytes{'s', 'a', 'v', 'e', 'd'});
    CHECK(errnoAfter(
              ::rename((game / "Stadium/Media/Texture/Road.dds.tmp").c_str(), road.c_str())) == 0);
    CHECK(readFile(road) == Bytes{'s', 'a', 'v', 'e', 'd'});
    CHECK(listedNames(game) == std::vector<std::string>{"Stadium", "shared.TXT"});

    // The Resource drive is Resource.pak alone: its deletions go into that pak, as before.
    CHECK(run("rm " + quote((m.path() / "Resource/Shaders/x.fx").string()) + " </dev/null").code ==
          0);
    CHECK_FALSE(stdfs::exists(m.path() / "Resource/Shaders/x.fx"));
    CHECK(m.errors() == log);  // nothing more logged

    REQUIRE(run("fusermount3 -u " + quote(m.path().string())).code == 0);
    CHECK(m.waitExit(10s) == 0);
    CHECK(whiteoutsUnder(ov) == std::vector<std::string>{"Resource/Shaders/.wh.x.fx"});
    r = run(kPak + " commit -n " + quote((f.packs / "Resource.pak").string()) + " " +
            quote(ov.string()));
    CHECK(r.code == 0);
    CHECK(r.out == "D Shaders/x.fx\n");
    r = run(kPak + " commit --patch Patch -n " + quote(f.packs.string()) + " " +
            quote((ov).string()));
    CHECK(r.err == "pak: " + (ov / "Resource/Shaders/.wh.x.fx").string() +
                       ": changes to the Resource drive cannot go into a patch pack (the game "
                       "loads Resource.pak on its own): commit them with pak commit " +
                       (f.packs / "Resource.pak").string() + " " + ov.string() + " --in-place\n");
    // The advice as printed works, and the same --patch then goes through: the Resource
    // drive's changes are in Resource.pak, only the Game drive's are left for the patch.
    r = run(kPak + " commit -q " + (f.packs / "Resource.pak").string() + " " + ov.string() +
            " --in-place");
    CHECK(r.code == 0);
    r = run(kPak + " commit --patch Patch -n " + quote(f.packs.string()) + " " +
            quote(ov.string()));
    CHECK(r.code == 0);
    CHECK(r.err.find("Resource drive") == std::string::npos);
    CHECK(r.out.find("Shaders") == std::string::npos);
}

TEST_CASE(
    "drive deletions: pak commit --patch names the pack of a whiteout under Game, and "
    "its advice works as written",
    "[mount][drives][commit]") {
    skipUnlessFuse();
    PacksFolder f;
    TempDir dir;
    // A whiteout an older pakfs left under Game.
    const stdfs::path ov = dir / "ov";
    writeFile(ov / "Game/new.txt", Bytes{'n'});
    const stdfs::path whiteout = ov / "Game/Stadium/Media/Texture/.wh.Road.dds";
    writeFile(whiteout, Bytes{});
    auto r =
        run(kPak + " commit --patch Patch " + quote(f.packs.string()) + " " + quote(ov.string()));
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    const std::string steps = deletionSteps(f.packs, "Game/Stadium/Media/Texture/Road.dds",
                                            "Common", "Stadium/Media/Texture/Road.dds");
    CHECK(r.err == "pak: " + whiteout.string() +
                       ": a patch pack cannot delete (a pack loaded later only adds and replaces "
                       "files): remove " +
                       whiteout.string() + "; " + steps + "\n");
    // A folder's whiteout names the folder's packs, to be removed with rm -r.
    stdfs::remove(whiteout);
    const stdfs::path folderWhiteout = ov / "Game/Stadium/Media/.wh.Solid";
    writeFile(folderWhiteout, Bytes{});
    r = run(kPak + " commit --patch Patch -n " + quote(f.packs.string()) + " " +
            quote(ov.string()));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + folderWhiteout.string() +
                       ": a patch pack cannot delete (a pack loaded later only adds and replaces "
                       "files): remove " +
                       folderWhiteout.string() + "; " +
                       deletionSteps(f.packs, "Game/Stadium/Media/Solid", "Stadium",
                                     "Stadium/Media/Solid", true) +
                       "\n");
    stdfs::remove(folderWhiteout);
    // An opaque marker: the packs' files of that folder hidden.
    const stdfs::path opaque = ov / "Game/Stadium/Media/Texture/.wh..wh..opq";
    writeFile(opaque, Bytes{});
    r = run(kPak + " commit --patch Patch -n " + quote(f.packs.string()) + " " +
            quote(ov.string()));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + opaque.string() +
                       ": a patch pack cannot hide the files of a folder (a pack loaded later "
                       "only adds and replaces files): remove " +
                       opaque.string() + "; " +
                       deletionSteps(f.packs, "Game/Stadium/Media/Texture", "Common",
                                     "Stadium/Media/Texture", true) +
                       "\n");
    stdfs::remove(opaque);
    stdfs::remove(ov / "Game/Stadium/Media/Texture");
    writeFile(whiteout, Bytes{});

    // Done as it says: the whiteout removed, the pack mounted alone with a new overlay folder,
    // the file deleted there, unmounted, committed in place.
    REQUIRE(steps.find("delete it there and commit: ") != std::string::npos);
    std::string commands = steps.substr(steps.find("delete it there and commit: ") + 28);
    const stdfs::path mnt = dir / "mnt", single = dir / "single";
    stdfs::create_directories(mnt);
    stdfs::create_directories(single);
    LeftMountCleaner unmounter{mnt};
    auto replace = [](std::string text, const std::string& from, const std::string& to) {
        for (std::size_t at = text.find(from); at != std::string::npos;
             at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
        return text;
    };
    commands = replace(replace(commands, "MOUNTPOINT", mnt.string()), "DIR", single.string());
    stdfs::remove(whiteout);
    std::size_t start = 0;
    for (std::size_t end = 0; start <= commands.size(); start = end + 2) {
        end = commands.find("; ", start);
        if (end == std::string::npos) end = commands.size();
        std::string command = commands.substr(start, end - start);
        command =
            replace(replace(command, "pakfs ", kPakfs + " "), "pak commit ", kPak + " commit ");
        INFO(command);
        r = run("timeout -s KILL 20 " + command + " </dev/null");
        INFO(r.err);
        REQUIRE(r.code == 0);
        if (command.rfind(kPakfs, 0) == 0) {
            // In the background once mounted: wait for it.
            for (int i = 0; i < 500 && !isMounted(mnt); ++i) std::this_thread::sleep_for(20ms);
            REQUIRE(isMounted(mnt));
        }
        if (command.rfind("fusermount3", 0) == 0)
            for (int i = 0; i < 500 && isMounted(mnt); ++i) std::this_thread::sleep_for(20ms);
    }
    // Common.pak no longer holds it, and the Game drive no longer shows it.
    const archive::PackList list = archive::readPackList(f.packs / "packlist.dat");
    const archive::PakKey key = list.entries[2].key();
    REQUIRE(list.entries[2].name == "Common");
    auto common = archive::PakIndex::open(f.packs / "Common.pak", key);
    std::vector<std::string> paths;
    for (const auto& e : common->entries()) paths.push_back(e.path);
    CHECK(paths == std::vector<std::string>{"shared.TXT"});
    auto loaded = packs::loadSources({f.packs}, {});
    packs::Drives drives(
        packs::orderPacks(std::move(loaded.packs), packs::packListOrder({f.packs})));
    CHECK(drives.find("Game/Stadium/Media/Texture/Road.dds") == nullptr);
    CHECK(drives.find("Game/Stadium/Media/Solid/Road.Solid.Gbx") != nullptr);
    // And the patch of what is left goes through.
    r = run(kPak + " commit --patch Patch -n " + quote(f.packs.string()) + " " +
            quote(ov.string()));
    CHECK(r.code == 0);
    CHECK(r.out == "A new.txt\n");
}
