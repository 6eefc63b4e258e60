// SPDX-License-Identifier: GPL-2.0-or-later
// The pak command in a stranger's hands: nothing a user has is replaced unasked (packlist keys,
// extracted files), wrong paths are named as such before any key is looked up, usage errors
// speak as pak, and an interrupted or failing run cleans up and stops with one line.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "archive/pak/PackList.hpp"
#include "archive/pak/PakIndex.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using test::kPak;
using test::namesIn;
using test::q;
using test::readText;
using test::run;
namespace fs = std::filesystem;

namespace {
const std::string kKeyString = "0123456789ABCDEF0123456789ABCDEF";

std::string keyHex() {
    return hexString(archive::keyFromKeyString(kKeyString));
}

// A folder with a packlist naming MyPack and MyPack.pak made from `files`.
void makeMyPackFolder(const test::TempDir& dir, const std::map<std::string, Bytes>& files) {
    for (const auto& [path, data] : files) test::writeFile(dir / "src" / path, data);
    REQUIRE(run(kPak + " packlist add " + q(dir / "packlist.dat") + " MyPack --key-string " +
                kKeyString)
                .code == 0);
    REQUIRE(run(kPak + " pack -q " + q(dir / "src") + " " + q(dir / "MyPack.pak")).code == 0);
}

// Starts `args` with stderr into `errFile`; its pid.
pid_t spawn(const std::vector<std::string>& args, const fs::path& errFile) {
    return test::spawnLogged(args, errFile, false);
}

}  // namespace

TEST_CASE("cli safety: packlist add refuses a name it holds unless --replace, which keeps a .bak",
          "[cli][safety]") {
    test::TempDir dir;
    makeMyPackFolder(dir, {{"a.txt", Bytes(100, 'a')}});
    const Bytes before = test::readFile(dir / "packlist.dat");
    // Names match regardless of case, as the game matches them.
    auto r = run(kPak + " packlist add " + q(dir / "packlist.dat") + " mypack");
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "packlist.dat").string() +
                       ": already has pack \"MyPack\" (key string " + kKeyString +
                       "); nothing changed. Its paks open only with that key: pass --replace to "
                       "give it a new one (the old file is kept as " +
                       (dir / "packlist.dat").string() + ".bak)\n");
    CHECK(test::readFile(dir / "packlist.dat") == before);
    CHECK_FALSE(fs::exists(dir / "packlist.dat.bak"));
    CHECK(run(kPak + " ls " + q(dir / "MyPack.pak")).code == 0);

    const std::string other = "FEDCBA9876543210FEDCBA9876543210";
    r = run(kPak + " packlist add " + q(dir / "packlist.dat") + " MYPACK --replace --key-string " +
            other);
    CHECK(r.code == 0);
    CHECK(r.err == "pak: replacing the key of pack \"MyPack\"; the old file is " +
                       (dir / "packlist.dat").string() + ".bak\n");
    CHECK(r.out == "MyPack\t" + other + "\t" + hexString(archive::keyFromKeyString(other)) + "\n");
    CHECK(test::readFile(dir / "packlist.dat.bak") == before);
    auto list = archive::readPackList(dir / "packlist.dat");
    REQUIRE(list.entries.size() == 1);
    CHECK(list.entries[0].keyString == other);
    CHECK(list.signatureValid);

    // A file name is taken as the pack's name without its extension, and says so.
    r = run(kPak + " packlist add " + q(dir / "packlist.dat") + " Bar.pak --key-string " +
            kKeyString);
    CHECK(r.code == 0);
    CHECK(r.err ==
          "pak: note: pack name \"Bar\" (\"Bar.pak\" is a file name; a pack is named "
          "without its extension)\n");
    CHECK(r.out.rfind("Bar\t", 0) == 0);
    r = run(kPak + " packlist add " + q(dir / "packlist.dat") + " Baz.Pack.Gbx --key-string " +
            kKeyString);
    CHECK(r.code == 0);
    list = archive::readPackList(dir / "packlist.dat");
    REQUIRE(list.entries.size() == 3);
    CHECK(list.entries[1].name == "Bar");
    CHECK(list.entries[2].name == "Baz");
}

TEST_CASE("cli safety: extract keeps files already in DIR unless --overwrite", "[cli][safety]") {
    test::TempDir dir;
    makeMyPackFolder(dir, {{"Folder/a.txt", Bytes(1000, 'a')},
                           {"b.txt", Bytes(10, 'b')},
                           {"big.bin", test::randomBytes(3 << 20, 5)}});
    test::writeFile(dir / "out/Folder/a.txt", Bytes{'e', 'd', 'i', 't'});
    test::writeFile(dir / "out/big.bin", Bytes{'m', 'i', 'n', 'e'});
    auto r = run(kPak + " extract -q -j 1 " + q(dir / "MyPack.pak") + " " + q(dir / "out"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: 2 files already in " + (dir / "out").string() +
                       " kept as they were (the first: " + (dir / "out").string() +
                       "/big.bin); --overwrite replaces them\n");
    CHECK(test::readFile(dir / "out/Folder/a.txt") == Bytes{'e', 'd', 'i', 't'});
    CHECK(test::readFile(dir / "out/big.bin") == Bytes{'m', 'i', 'n', 'e'});
    CHECK(test::readFile(dir / "out/b.txt") == Bytes(10, 'b'));
    CHECK(namesIn(dir / "out") == std::set<std::string>{"Folder", "b.txt", "big.bin"});

    r = run(kPak + " extract -q --overwrite " + q(dir / "MyPack.pak") + " " + q(dir / "out"));
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(test::readFile(dir / "out/Folder/a.txt") == Bytes(1000, 'a'));
    CHECK(test::readFile(dir / "out/big.bin") == test::randomBytes(3 << 20, 5));
    CHECK(namesIn(dir / "out") == std::set<std::string>{"Folder", "b.txt", "big.bin"});
}

TEST_CASE("cli safety: extract PATH ignores case as cat does, and an unmatched PATH makes no DIR",
          "[cli][safety]") {
    test::TempDir dir;
    makeMyPackFolder(dir, {{"Folder/a.txt", Bytes(1000, 'a')}, {"b.txt", Bytes(10, 'b')}});
    auto r =
        run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "out") + " folder/A.TXT");
    CHECK(r.code == 0);
    CHECK(test::readFile(dir / "out/Folder/a.txt") == Bytes(1000, 'a'));
    CHECK_FALSE(fs::exists(dir / "out/b.txt"));
    r = run(kPak + " extract -q " + q(dir / "MyPack.pak") + " " + q(dir / "none") + " nothere");
    CHECK(r.code == 1);
    CHECK(r.err ==
          "pak: " + (dir / "MyPack.pak").string() + ": no file or folder \"nothere\" in the pak\n");
    CHECK_FALSE(fs::exists(dir / "none"));
}

TEST_CASE("cli safety: wrong paths are named as such before any key is looked up",
          "[cli][safety]") {
    test::TempDir dir;
    test::writeFile(dir / "README.md", Bytes(200, 'x'));
    test::writeFile(dir / "stub.pak", Bytes(5, 'N'));
    fs::create_directories(dir / "SomeFolder");
    auto r = run(kPak + " ls " + q(dir / "nothere.pak"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "nothere.pak").string() + ": no such file\n");
    r = run(kPak + " ls " + q(dir / "README.md"));
    CHECK(r.code == 1);
    CHECK(r.err ==
          "pak: " + (dir / "README.md").string() + ": not a pak file (no \"NadeoPak\" magic)\n");
    r = run(kPak + " check " + q(dir / "SomeFolder"));
    CHECK(r.code == 1);
    CHECK(r.err == "pak: " + (dir / "SomeFolder").string() + ": is a folder, not a file\n");
    r = run(kPak + " info " + q(dir / "stub.pak"));
    CHECK(r.code == 1);
    CHECK(r.err.find((dir / "stub.pak").string() + ": not a pak file (too short") !=
          std::string::npos);
}

TEST_CASE("cli safety: usage errors start with pak: and name an unknown command", "[cli][safety]") {
    auto r = run(kPak + " bogus");
    CHECK(r.code == 2);
    CHECK(r.err.rfind("pak: unknown command \"bogus\" (commands: info, ls, cat, extract, pack, "
                      "check, packlist, gbx, commit, diff, add, rm, mv; pak --help)\n",
                      0) == 0);
    r = run(kPak + " ls");
    CHECK(r.code == 2);
    CHECK(r.err.rfind("pak: ", 0) == 0);
    CHECK(r.err.find("PAK is required") != std::string::npos);
    r = run(kPak + " ls --frobnicate x.pak");
    CHECK(r.code == 2);
    CHECK(r.err.rfind("pak: ", 0) == 0);
    CHECK(r.err.find("(pak ls --help)") != std::string::npos);
    r = run(kPak);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("pak: ", 0) == 0);
}

TEST_CASE("cli safety: SIGINT or SIGTERM during pak pack removes the temporary file, says so",
          "[cli][safety][signal]") {
    const int sig = GENERATE(SIGINT, SIGTERM);
    test::TempDir dir;
    // Large enough that the run is still writing when the signal comes.
    for (int i = 0; i < 6; ++i)
        test::writeFile(dir / "src" / ("r" + std::to_string(i) + ".bin"),
                        test::randomBytes(16 << 20, std::uint64_t(i)));
    REQUIRE(
        run(kPak + " packlist add " + q(dir / "packlist.dat") + " Big --key-string " + kKeyString)
            .code == 0);
    test::writeFile(dir / "Big.pak", Bytes{'o', 'l', 'd'});  // what the user had
    const fs::path err = dir / "err.txt";
    pid_t pid = spawn({kPak, "pack", "-q", "--level", "9", "-j", "1", (dir / "src").string(),
                       (dir / "Big.pak").string()},
                      err);
    // The temporary file appears when the writer starts.
    auto tempFile = [&]() -> std::string {
        for (const auto& n : namesIn(dir.path()))
            if (n.rfind(".Big.pak.tmp-", 0) == 0) return n;
        return {};
    };
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200000 && tempFile().empty(); ++i) {
        if ((done = ::waitpid(pid, &status, WNOHANG)) != 0) break;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    REQUIRE(done == 0);
    const std::string temp = tempFile();
    REQUIRE_FALSE(temp.empty());
    ::kill(pid, sig);
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(readText(err) == "pak: interrupted: " + (dir / "Big.pak").string() +
                               " left as it was (its unfinished temporary file " +
                               (dir / temp).string() + " removed)\n");
    // The lock file goes with the interrupted command (no mount marked it).
    CHECK(namesIn(dir.path()) ==
          std::set<std::string>{"Big.pak", "err.txt", "packlist.dat", "src"});
    CHECK(test::readFile(dir / "Big.pak") == Bytes{'o', 'l', 'd'});
}

TEST_CASE("cli safety: extract into a full file system stops at the first write error",
          "[cli][safety]") {
    test::TempDir dir;
    std::map<std::string, Bytes> files;
    for (int i = 0; i < 300; ++i)
        files["F/f" + std::to_string(1000 + i) + ".bin"] = test::randomBytes(16 << 10, 7);
    makeMyPackFolder(dir, files);
    fs::create_directories(dir / "full");
    auto m = run("mount -t tmpfs -o size=1m pakfs-test " + q(dir / "full"));
    if (m.code != 0) {
        std::printf("SKIPPED: cannot mount a small tmpfs to fill: %s\n", m.err.c_str());
        std::fflush(stdout);
        std::_Exit(77);
    }
    struct Unmount {
        fs::path p;
        ~Unmount() { run("umount -l '" + p.string() + "'"); }
    } unmount{dir / "full"};
    auto r = run(kPak + " extract -q -j 1 " + q(dir / "MyPack.pak") + " " + q(dir / "full"));
    CHECK(r.code == 1);
    // One line: the first failure and the count; no line per file.
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(": write error: No space left on device; stopped: ") != std::string::npos);
    CHECK(r.err.find(" files extracted, ") != std::string::npos);
    // What was written is whole; the file that did not fit is not there.
    std::size_t whole = 0;
    for (const auto& item : fs::recursive_directory_iterator(dir / "full"))
        if (item.is_regular_file()) {
            INFO(item.path());
            CHECK(test::readFile(item.path()) == test::randomBytes(16 << 10, 7));
            ++whole;
        }
    CHECK(r.err.find(": stopped: " + std::to_string(whole) + " files extracted, " +
                     std::to_string(300 - whole) + " not\n") == std::string::npos);
    CHECK(r.err.find("; stopped: " + std::to_string(whole) + " files extracted, " +
                     std::to_string(300 - whole) + " not\n") != std::string::npos);
}

TEST_CASE("cli safety: SIGINT or kill -9 during pak extract leaves every file absent or complete",
          "[cli][safety][signal]") {
    const int sig = GENERATE(SIGINT, SIGKILL);
    // Entries over the whole-buffer limit are streamed, and small ones come whole: both kinds
    // are being written at some point of the run. One pack for both signals.
    struct SignalPack {
        test::TempDir dir;
        std::map<std::string, Bytes> files;
        SignalPack() {
            // Over the whole-buffer limit (so it streams), cheap to make and to deflate: one
            // random 16 KiB block over and over (inside deflate's window).
            const Bytes block = test::randomBytes(16 << 10, 40);
            Bytes big;
            big.reserve(66 << 20);
            while (big.size() < (66u << 20)) big.insert(big.end(), block.begin(), block.end());
            files["big0.txt"] = std::move(big);
            for (int i = 0; i < 200; ++i)
                files["Small/s" + std::to_string(i) + ".bin"] =
                    test::randomBytes(20000, std::uint64_t(i));
            makeMyPackFolder(dir, files);
        }
    };
    static const SignalPack pack;
    const test::TempDir& dir = pack.dir;
    const std::map<std::string, Bytes>& files = pack.files;
    test::TempDir work;
    const fs::path out = work / "out";
    const fs::path err = work / "err.txt";
    // Killed at several points: once the first small file is out, and once the first big one is.
    for (const char* after : {"Small/s0.bin", "big0.txt"}) {
        INFO("signal " << sig << " after " << after);
        fs::remove_all(out);
        pid_t pid = spawn(
            {kPak, "extract", "-q", "-j", "1", (dir / "MyPack.pak").string(), out.string()}, err);
        int status = 0;
        pid_t done = 0;
        for (int i = 0; i < 400000 && !fs::exists(out / after); ++i) {
            if ((done = ::waitpid(pid, &status, WNOHANG)) != 0) break;
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
        if (done == 0) {
            ::kill(pid, sig);
            REQUIRE(::waitpid(pid, &status, 0) == pid);
        }
        if (WIFSIGNALED(status)) {
            CHECK(WTERMSIG(status) == sig);
            if (sig == SIGINT)
                CHECK(readText(err) == "pak: interrupted: every file is as it was or complete\n");
        } else {
            CHECK(WEXITSTATUS(status) == 0);  // finished first
        }
        // Whatever is there is whole, under its own name: no temporary or partial file.
        std::size_t whole = 0;
        for (const auto& item : fs::recursive_directory_iterator(out)) {
            if (!item.is_regular_file()) continue;
            const std::string rel = fs::relative(item.path(), out).string();
            INFO(rel);
            REQUIRE(files.count(rel) == 1);
            CHECK(test::readFile(item.path()) == files.at(rel));
            ++whole;
        }
        CHECK(whole >= 1);
    }
}
