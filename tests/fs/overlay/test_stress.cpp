// SPDX-License-Identifier: GPL-2.0-or-later
// The writable mount under xfstests' file system exercisers, built from
// ../shared/tools/xfstests: fsx (random reads, writes, truncations, mapped reads and writes on
// one file, every byte checked against its own copy) on a new file and on a file of the pack,
// and fsstress (processes doing tree operations) in a folder. Then a remount and `pak commit`
// must hold the bytes the mount showed.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <vector>

#include "tests/fs/OverlayFixture.hpp"

using namespace pakfs;
using namespace pakfs::test;
namespace stdfs = std::filesystem;

namespace {

const stdfs::path kExercisers = "/tmp/xfstests-bin";

// fsx and fsstress, built once into kExercisers by the shared folder's script (which installs
// xfslibs-dev when it is missing). Skips the test, with the reason, when they cannot be had.
void needExercisers() {
    const stdfs::path source = sharedDir("tools/xfstests");
    auto built = [] {
        return ::access((kExercisers / "fsx").c_str(), X_OK) == 0 &&
               ::access((kExercisers / "fsstress").c_str(), X_OK) == 0;
    };
    if (built()) return;
    auto r = run("bash " + quote((source / "build.sh").string()));
    if (r.code != 0 || !built()) {
        std::printf("SKIPPED: %s/build.sh could not build fsx and fsstress (exit %d): %s\n",
                    source.string().c_str(), r.code, r.err.c_str());
        std::fflush(stdout);
        std::_Exit(kSkipExitCode);
    }
}

// The SHA-256 of a file, read in large pieces (fsstress leaves files of megabytes).
std::string fileSha256(const stdfs::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    CryptoPP::SHA256 sha;
    std::vector<char> buf(1 << 20);
    while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0)
        sha.Update(reinterpret_cast<const std::uint8_t*>(buf.data()), std::size_t(in.gcount()));
    REQUIRE(in.eof());
    std::uint8_t digest[32];
    sha.Final(digest);
    return hexString(digest);
}

// The SHA-256 of every file under `root` by relative path, and every folder ("<dir>").
std::map<std::string, std::string> hashes(const stdfs::path& root, bool folders) {
    std::map<std::string, std::string> out;
    for (auto it = stdfs::recursive_directory_iterator(root);
         it != stdfs::recursive_directory_iterator(); ++it) {
        const std::string rel = stdfs::relative(it->path(), root).string();
        if (it->is_directory()) {
            if (folders) out[rel + "/"] = "<dir>";
        } else {
            out[rel] = fileSha256(it->path());
        }
    }
    return out;
}

}  // namespace

TEST_CASE(
    "pakfs overlay: fsx on a new file and on a file of the pack (mapped reads and writes "
    "included), fsstress in a folder, then a remount and pak commit hold the bytes the mount "
    "showed",
    "[mount][overlay][stress]") {
    skipUnlessFuse();
    needExercisers();
    OverlayMount m;
    const stdfs::path logs = m.dir / "logs";
    stdfs::create_directories(logs);
    auto exercise = [&](const std::string& command) {
        auto r = run("timeout 300 " + command);
        INFO(command << "\nexit " << r.code << "\n" << r.out << r.err << m.mount->errors());
        REQUIRE(r.code == 0);
    };
    const std::string fsx =
        (kExercisers / "fsx").string() + " -q -N 3000 -P " + quote(logs.string());
    const Bytes packed = m.pack.file("Data/c100k.txt");
    REQUIRE(readFile(m / "Data/c100k.txt") == packed);

    // A new file, at most 256 KiB; then the pack's file, kept (-k): fsx reads it first as its
    // own copy, and its size bounds the file.
    exercise(fsx + " -S 1 " + quote((m / "Text/fsx-new.bin").string()));
    exercise(fsx + " -S 7 -k " + quote((m / "Data/c100k.txt").string()));
    exercise((kExercisers / "fsstress").string() + " -d " + quote((m / "Stress").string()) +
             " -n 500 -p 4 -s 11");

    const auto seen = hashes(m.mount->path() / "Test", true);
    REQUIRE(seen.count("Text/fsx-new.bin"));
    REQUIRE(seen.count("Stress/"));
    // The pack's file was copied up and changed there; the pack's other files are untouched.
    CHECK(seen.at("Data/c100k.txt") != sha256Hex(packed));
    CHECK(sha256Hex(readFile(m.overlay / "Test/Data/c100k.txt")) == seen.at("Data/c100k.txt"));
    CHECK(seen.at("Data/r1024.bin") == sha256Hex(m.pack.file("Data/r1024.bin")));
    CHECK(stdfs::is_empty(m.overlay / ".pakfs-work"));

    m.remount();
    CHECK(hashes(m.mount->path() / "Test", true) == seen);
    m.mount.reset();

    const stdfs::path out = m.dir / "Out.pak";
    auto r = run(kPak + " commit -q" + keyArg() + quote(m.pack.pak.string()) + " " +
                 quote(m.overlay.string()) + " " + quote(out.string()));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    r = run(kPak + " extract -q" + keyArg() + quote(out.string()) + " " +
            quote((m.dir / "x").string()));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    // pak extract writes files only.
    auto files = seen;
    std::erase_if(files, [](const auto& kv) { return kv.second == "<dir>"; });
    CHECK(hashes(m.dir / "x", false) == files);
}
