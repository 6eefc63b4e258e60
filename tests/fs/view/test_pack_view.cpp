// SPDX-License-Identifier: GPL-2.0-or-later
// The file system operations called directly, without the kernel.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "archive/pak/PackList.hpp"
#include "archive/write/PackPlanner.hpp"
#include "archive/write/PakWriter.hpp"
#include "fs/overlay/Overlay.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "packs/Sources.hpp"
#include "tests/support/PakFixture.hpp"
#include "tests/support/Shared.hpp"

using namespace pakfs;
using namespace pakfs::test;

namespace {

// Reads a whole file through open/read/release in pieces of `step` bytes.
Bytes readAll(fs::PackView& f, const std::string& path, std::size_t step = 4096) {
    const fs::View::Ino ino = fs::inoAt(f, path);
    std::uint64_t fh = 0;
    REQUIRE(f.open(ino, O_RDONLY, &fh) == 0);
    Bytes out;
    std::vector<char> buf(step);
    for (;;) {
        long n = f.read(ino, fh, buf.data(), buf.size(), std::int64_t(out.size()));
        REQUIRE(n >= 0);
        if (n == 0) break;
        out.insert(out.end(), buf.begin(), buf.begin() + n);
    }
    REQUIRE(f.release(ino, fh) == 0);
    return out;
}

// The names reading folder `path` lists, in order.
std::vector<std::string> dirNames(fs::PackView& f, const std::string& path) {
    std::vector<std::string> out;
    REQUIRE(
        f.readdir(fs::inoAt(f, path), 0, [&](const char* name, const struct stat&, std::int64_t) {
            out.emplace_back(name);
            return true;
        }) == 0);
    return out;
}

// What opening a folder answers: a listing that stops at once.
int opendir(fs::PackView& f, const std::string& path) {
    return f.readdir(fs::inoAt(f, path), 0,
                     [](const char*, const struct stat&, std::int64_t) { return false; });
}

}  // namespace

TEST_CASE("pakfs: getattr gives sizes, types, modes and the pack's time without decoding", "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    struct stat st;
    REQUIRE(f->getattr(fs::inoAt(*f, "/"), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK(st.st_ino == 1);
    REQUIRE(f->getattr(fs::inoAt(*f, "/Test"), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK((st.st_mode & 0777) == 0555);
    for (const auto& [path, data] : t.files) {
        INFO(path);
        REQUIRE(f->getattr(fs::inoAt(*f, "/Test/" + path), &st) == 0);
        CHECK(S_ISREG(st.st_mode));
        CHECK((st.st_mode & 0777) == 0444);
        CHECK(std::uint64_t(st.st_size) == data.size());
        CHECK(st.st_nlink == 1);
        CHECK(st.st_mtime == f->tree().packs()[0].pak->file()->mtime());
    }
    REQUIRE(f->getattr(fs::inoAt(*f, "/Test/EmptyFolder"), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    REQUIRE(f->getattr(fs::inoAt(*f, "/Test/Data/"), &st) == 0);
    CHECK(st.st_nlink == 3);  // ".", its entry in the parent, "Deep"
    CHECK(f->getattr(fs::inoAt(*f, "/Test/missing"), &st) == -ENOENT);
    // Case matters by default.
    CHECK(f->getattr(fs::inoAt(*f, "/Test/text/readme.txt"), &st) == -ENOENT);
    CHECK(f->getattr(fs::inoAt(*f, "/Test/Text/readme.txt/x"), &st) == -ENOENT);
    // Nothing was decoded to answer.
    CHECK(f->cacheStats().misses == 0);
}

TEST_CASE("pakfs: inode numbers are stable across mounts and unique", "[fs]") {
    TestPack t = makeTestPack();
    auto a = mountDirect(t);
    auto b = mountDirect(t);
    std::set<ino_t> seen;
    for (const auto& [path, data] : t.files) {
        struct stat sa, sb;
        REQUIRE(a->getattr(fs::inoAt(*a, "/Test/" + path), &sa) == 0);
        REQUIRE(b->getattr(fs::inoAt(*b, "/Test/" + path), &sb) == 0);
        CHECK(sa.st_ino == sb.st_ino);
        CHECK(seen.insert(sa.st_ino).second);
    }
}

TEST_CASE("pakfs: readdir lists dot entries and children in name order with attributes", "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    CHECK(dirNames(*f, "/") == std::vector<std::string>{".", "..", "Test"});
    CHECK(dirNames(*f, "/Test") ==
          std::vector<std::string>{".", "..", "Data", "EmptyFolder", "Text", "root.txt"});
    CHECK(dirNames(*f, "/Test/Text") ==
          std::vector<std::string>{".", "..", "empty.txt", "one.txt", "readme.txt"});
    CHECK(dirNames(*f, "/Test/EmptyFolder") == std::vector<std::string>{".", ".."});
    std::map<std::string, off_t> sizes;
    REQUIRE(f->readdir(fs::inoAt(*f, "/Test/Data"), 0,
                       [&](const char* entry, const struct stat& st, std::int64_t) {
                           const std::string name = entry;
                           sizes[name] = st.st_size;
                           struct stat direct;
                           if (name != "." && name != "..") {
                               REQUIRE(f->getattr(fs::inoAt(*f, "/Test/Data/" + name), &direct) ==
                                       0);
                               CHECK(direct.st_ino == st.st_ino);
                               CHECK(direct.st_mode == st.st_mode);
                           }
                           return true;
                       }) == 0);
    CHECK(sizes["r255.bin"] == 255);
    CHECK(sizes["c100k.txt"] == 100 * 1024 + 13);
    // The filler asking to stop is honoured.
    int calls = 0;
    REQUIRE(f->readdir(
                fs::inoAt(*f, "/Test/Data"), 0,
                [&](const char*, const struct stat&, std::int64_t) { return ++calls < 2; }) == 0);
    CHECK(calls == 2);
    CHECK(f->readdir(fs::inoAt(*f, "/Test/root.txt"), 0,
                     [](const char*, const struct stat&, std::int64_t) { return true; }) ==
          -ENOTDIR);
    CHECK(f->readdir(fs::inoAt(*f, "/nope"), 0, [](const char*, const struct stat&, std::int64_t) {
        return true;
    }) == -ENOENT);
    CHECK(opendir(*f, "/Test/Data") == 0);
    CHECK(opendir(*f, "/Test/root.txt") == -ENOTDIR);
}

TEST_CASE("pakfs: readdir resumes at the offset it handed out", "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    std::vector<std::string> all = dirNames(*f, "/Test/Data");
    // One entry per call, as a kernel with a tiny buffer would ask.
    std::vector<std::string> pieces;
    std::int64_t offset = 0;
    for (;;) {
        std::int64_t next = -1;
        REQUIRE(f->readdir(fs::inoAt(*f, "/Test/Data"), offset,
                           [&](const char* name, const struct stat&, std::int64_t n) {
                               if (next >= 0) return false;
                               pieces.emplace_back(name);
                               next = n;
                               return true;
                           }) == 0);
        if (next < 0) break;
        CHECK(next > offset);
        offset = next;
    }
    CHECK(pieces == all);
    CHECK(f->readdir(fs::inoAt(*f, "/Test/Data"), -1,
                     [](const char*, const struct stat&, std::int64_t) { return true; }) ==
          -EINVAL);
}

TEST_CASE("pakfs: reads without a handle give the same bytes, also interleaved", "[fs]") {
    TestPack t = makeTestPack(true);
    auto f = mountDirect(t);
    std::vector<std::string> paths;
    for (const auto& [path, data] : t.files) paths.push_back(path);
    // Every file in pieces of 64 KiB, all files read in turn, so that states are reused,
    // evicted and recreated.
    std::map<std::string, Bytes> got;
    std::vector<char> buf(65536);
    bool more = true;
    while (more) {
        more = false;
        for (const auto& path : paths) {
            Bytes& out = got[path];
            long n = f->read(fs::inoAt(*f, "/Test/" + path), 0, buf.data(), buf.size(),
                             std::int64_t(out.size()));
            REQUIRE(n >= 0);
            out.insert(out.end(), buf.begin(), buf.begin() + n);
            if (n > 0) more = true;
        }
    }
    for (const auto& path : paths) CHECK(got[path] == t.file(path));
    // Two readers of one file at different places at once.
    const Bytes& data = t.file("Media/compress6m.txt");
    for (std::uint64_t off = 0; off < 1 << 20; off += buf.size()) {
        for (std::uint64_t at : {off, data.size() - (1 << 20) + off}) {
            REQUIRE(f->read(fs::inoAt(*f, "/Test/Media/compress6m.txt"), 0, buf.data(), buf.size(),
                            std::int64_t(at)) == long(buf.size()));
            CHECK(std::equal(buf.begin(), buf.end(), data.begin() + std::ptrdiff_t(at)));
        }
    }
    char c;
    CHECK(f->read(fs::inoAt(*f, "/Test/nope"), 0, &c, 1, 0) == -ENOENT);
    CHECK(f->read(fs::inoAt(*f, "/Test/Data"), 0, &c, 1, 0) == -EISDIR);
    CHECK(f->read(fs::inoAt(*f, "/Test/root.txt"), 0, &c, 1, -1) == -EINVAL);
    CHECK(f->read(fs::inoAt(*f, "/Test/root.txt"), 0, &c, 1, 1 << 30) == 0);
}

TEST_CASE("pakfs: a whole file read in one request without a handle is not kept", "[fs]") {
    TestPack t = makeTestPack();
    fs::PackViewOptions options;
    options.readAheadFiles = 0;  // the cache holds only what the reads put there
    auto f = mountDirect(t, options);
    std::vector<char> buf(1 << 20);
    for (const auto& [path, data] : t.files) {
        INFO(path);
        long n = f->read(fs::inoAt(*f, "/Test/" + path), 0, buf.data(), buf.size(), 0);
        REQUIRE(n == long(data.size()));
        CHECK(Bytes(buf.begin(), buf.begin() + n) == data);
    }
    CHECK(f->cacheStats().entries == 0);
    // An entry the cache holds is served from it.
    CHECK(readAll(*f, "/Test/Data/r1024.bin") == t.file("Data/r1024.bin"));
    auto hits = f->cacheStats().hits;
    REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/r1024.bin"), 0, buf.data(), buf.size(), 0) == 1024);
    CHECK(f->cacheStats().hits == hits + 1);
}

TEST_CASE("pakfs: every file reads back byte for byte, in pieces of many sizes", "[fs]") {
    TestPack t = makeTestPack(true);
    auto f = mountDirect(t);
    for (const auto& [path, data] : t.files) {
        INFO(path);
        CHECK(readAll(*f, "/Test/" + path, 4096) == data);
        if (data.size() < 200000) CHECK(readAll(*f, "/Test/" + path, 7) == data);
    }
    CHECK(readAll(*f, "/Test/Media/compress6m.txt", 128 * 1024 + 1) ==
          t.file("Media/compress6m.txt"));
}

TEST_CASE("pakfs: reads at odd offsets, past the end and in any order", "[fs]") {
    TestPack t = makeTestPack(true);
    auto f = mountDirect(t);
    std::mt19937_64 rng(42);
    for (const std::string path : {"Data/r1024.bin", "Data/c100k.txt", "Media/random3m.bin",
                                   "Media/compress6m.txt", "root.txt"}) {
        INFO(path);
        const Bytes& data = t.file(path);
        const fs::View::Ino ino = fs::inoAt(*f, "/Test/" + path);
        std::uint64_t fh = 0;
        REQUIRE(f->open(ino, O_RDONLY, &fh) == 0);
        for (int i = 0; i < 40; ++i) {
            std::uint64_t off = rng() % (data.size() + 10);
            std::size_t n = std::size_t(rng() % 70000) + 1;
            Bytes buf(n);
            long got = f->read(ino, fh, reinterpret_cast<char*>(buf.data()), n, std::int64_t(off));
            std::size_t want = off >= data.size() ? 0 : std::min<std::size_t>(n, data.size() - off);
            REQUIRE(got == long(want));
            CHECK(std::equal(buf.begin(), buf.begin() + got, data.begin() + std::ptrdiff_t(off)));
        }
        char c;
        CHECK(f->read(ino, fh, &c, 1, std::int64_t(data.size())) == 0);
        CHECK(f->read(ino, fh, &c, 1, -1) == -EINVAL);
        CHECK(f->release(ino, fh) == 0);
    }
    // Reading the empty file.
    const fs::View::Ino empty = fs::inoAt(*f, "/Test/Text/empty.txt");
    std::uint64_t fh = 0;
    REQUIRE(f->open(empty, O_RDONLY, &fh) == 0);
    char c;
    CHECK(f->read(empty, fh, &c, 1, 0) == 0);
    CHECK(f->release(empty, fh) == 0);
    CHECK(f->release(empty, fh) == -EBADF);
    CHECK(f->read(empty, fh, &c, 1, 0) == -EBADF);
}

TEST_CASE("pakfs: several open files of one entry keep their own positions", "[fs]") {
    TestPack t = makeTestPack(true);
    auto f = mountDirect(t);
    const Bytes& data = t.file("Media/compress6m.txt");
    const fs::View::Ino ino = fs::inoAt(*f, "/Test/Media/compress6m.txt");
    std::uint64_t a = 0, b = 0;
    REQUIRE(f->open(ino, O_RDONLY, &a) == 0);
    REQUIRE(f->open(ino, O_RDONLY, &b) == 0);
    CHECK(f->openFiles() == 2);
    Bytes bytes(65536);
    char* buf = reinterpret_cast<char*>(bytes.data());
    for (std::uint64_t off = 0; off < 2 * 1024 * 1024; off += bytes.size()) {
        std::uint64_t offB = data.size() - 2 * 1024 * 1024 + off;
        REQUIRE(f->read(ino, a, buf, bytes.size(), std::int64_t(off)) == long(bytes.size()));
        CHECK(std::equal(bytes.begin(), bytes.end(), data.begin() + std::ptrdiff_t(off)));
        REQUIRE(f->read(ino, b, buf, bytes.size(), std::int64_t(offB)) == long(bytes.size()));
        CHECK(std::equal(bytes.begin(), bytes.end(), data.begin() + std::ptrdiff_t(offB)));
    }
    f->release(ino, a);
    f->release(ino, b);
    CHECK(f->openFiles() == 0);
}

TEST_CASE("pakfs: out-of-order neighbouring reads are served without restarting the decoder",
          "[fs]") {
    TestPack t = makeTestPack(true);
    fs::PackViewOptions options;
    options.seekIndexedEntries = 0;  // no seek points: a restart would decode from the start
    auto f = mountDirect(t, options);
    const Bytes& data = t.file("Media/compress6m.txt");
    const fs::View::Ino ino = fs::inoAt(*f, "/Test/Media/compress6m.txt");
    std::uint64_t fh = 0;
    REQUIRE(f->open(ino, O_RDONLY, &fh) == 0);
    Bytes bytes(131072);
    char* buf = reinterpret_cast<char*>(bytes.data());
    // The order kernel readahead with several threads produces: 1, 0, 3, 2, ...
    for (std::uint64_t pair = 0; pair < 16; pair += 2) {
        for (std::uint64_t k : {pair + 1, pair}) {
            std::uint64_t off = (k + 20) * bytes.size();
            REQUIRE(f->read(ino, fh, buf, bytes.size(), std::int64_t(off)) == long(bytes.size()));
            CHECK(std::equal(bytes.begin(), bytes.end(), data.begin() + std::ptrdiff_t(off)));
        }
    }
    f->release(ino, fh);
}

TEST_CASE("pakfs: writes and write opens get EROFS", "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    std::uint64_t fh = 0;
    CHECK(f->open(fs::inoAt(*f, "/Test/root.txt"), O_WRONLY, &fh) == -EROFS);
    CHECK(f->open(fs::inoAt(*f, "/Test/root.txt"), O_RDWR, &fh) == -EROFS);
    CHECK(f->open(fs::inoAt(*f, "/Test/root.txt"), O_RDONLY | O_TRUNC, &fh) == -EROFS);
    CHECK(f->open(fs::inoAt(*f, "/Test/missing.txt"), O_RDONLY, &fh) == -ENOENT);
    CHECK(f->open(fs::inoAt(*f, "/Test/Data"), O_RDONLY, &fh) == -EISDIR);
    CHECK(f->access(fs::inoAt(*f, "/Test/root.txt"), W_OK) == -EROFS);
    CHECK(f->access(fs::inoAt(*f, "/Test/root.txt"), R_OK) == 0);
    CHECK(f->access(fs::inoAt(*f, "/Test/root.txt"), X_OK) == -EACCES);
    CHECK(f->access(fs::inoAt(*f, "/Test/Data"), X_OK) == 0);
    CHECK(f->access(fs::inoAt(*f, "/Test/nope"), R_OK) == -ENOENT);
    CHECK(fs::PackView::readOnly() == -EROFS);
    CHECK(f->openFiles() == 0);
}

TEST_CASE("pakfs: extended attributes come from the file table", "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    auto pak = f->tree().packs()[0].pak;
    const archive::PakEntry* entry = nullptr;
    for (const auto& e : pak->entries())
        if (e.path == "Data/c100k.txt") entry = &e;
    REQUIRE(entry);
    const std::string path = "/Test/Data/c100k.txt";
    CHECK(xattr(*f, path, fs::kXattrClassId) == "09041000");        // a .txt file
    CHECK(xattr(*f, path, fs::kXattrFlags) == "0000000000000006");  // zlib, 0x02
    CHECK(xattr(*f, path, fs::kXattrCompressedSize) == std::to_string(entry->compressedSize));
    CHECK(xattr(*f, path, fs::kXattrGbxClass) == "errno " + std::to_string(ENODATA));  // not gbx
    CHECK(xattr(*f, path, "user.other") == "errno " + std::to_string(ENODATA));
    CHECK(xattr(*f, "/Test/Data", fs::kXattrClassId) == "errno " + std::to_string(ENODATA));
    CHECK(xattr(*f, "/Test/nope", fs::kXattrClassId) == "errno " + std::to_string(ENOENT));
    const fs::View::Ino ino = fs::inoAt(*f, path);
    char small[4];
    CHECK(f->getxattr(ino, fs::kXattrClassId, small, sizeof small) == -ERANGE);

    long n = f->listxattr(ino, nullptr, 0);
    REQUIRE(n > 0);
    std::string list(std::size_t(n), '\0');
    REQUIRE(f->listxattr(ino, list.data(), list.size()) == n);
    CHECK(list == std::string("user.pak.class_id\0user.pak.flags\0user.pak.compressed_size\0", n));
    CHECK(f->listxattr(ino, small, sizeof small) == -ERANGE);
    CHECK(f->listxattr(fs::inoAt(*f, "/Test/Data"), nullptr, 0) == 0);
}

TEST_CASE("pakfs: gbx entries show their class and are decoded whole through the cache", "[fs]") {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    gbx::BodyWriter w;
    w.beginSkippable(0x03043099);  // an unknown skippable chunk: the reader skips it by size
    for (std::uint8_t byte : randomBytes(3000, 9)) w.u8(byte);
    w.endSkippable();
    w.endNode();
    b.body = w.bytes();
    Bytes gbxFile = b.build();
    auto files = smallFiles();
    files["Maps/Thing.Challenge.Gbx"] = gbxFile;
    TestPack t = makeTestPack(files);

    std::vector<std::string> log;
    auto f = mountDirect(t, {}, &log);
    const std::string path = "/Test/Maps/Thing.Challenge.Gbx";
    CHECK(xattr(*f, path, fs::kXattrGbxClass) == "CGameCtnChallenge");
    CHECK(xattr(*f, path, fs::kXattrClassId) == "03043000");
    const fs::View::Ino ino = fs::inoAt(*f, path);
    long n = f->listxattr(ino, nullptr, 0);
    CHECK(n == long(std::string("user.pak.class_id user.pak.flags user.pak.compressed_size "
                                "user.gbx.class user.gbx.refs user.gbx.decode ")
                        .size()));
    // No external references: an empty list.
    CHECK(xattr(*f, path, fs::kXattrGbxRefs) == "");
    // Read to the end, but its one chunk was skipped by size, not read: exact, not parsed.
    CHECK(xattr(*f, path, fs::kXattrGbxDecode) == "exact");
    // Read in odd pieces from the end backwards: the whole entry is decoded once.
    std::uint64_t fh = 0;
    REQUIRE(f->open(ino, O_RDONLY, &fh) == 0);
    Bytes got(gbxFile.size());
    for (std::size_t end = got.size(); end > 0;) {
        std::size_t start = end > 333 ? end - 333 : 0;
        REQUIRE(f->read(ino, fh, reinterpret_cast<char*>(got.data() + start), end - start,
                        std::int64_t(start)) == long(end - start));
        end = start;
    }
    f->release(ino, fh);
    CHECK(got == gbxFile);
    CHECK(readAll(*f, path) == gbxFile);
    CHECK(f->cacheStats().misses == 1);
    CHECK(log.empty());
}

TEST_CASE("pakfs: a file's kind comes from its content whatever its name says", "[fs]") {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    gbx::BodyWriter w;
    w.beginSkippable(0x03043099);
    for (std::uint8_t byte : randomBytes(3000, 11)) w.u8(byte);
    w.endSkippable();
    w.endNode();
    b.body = w.bytes();
    const Bytes gbxFile = b.build();
    auto files = smallFiles();
    files["Odd/gbx-named.txt"] = gbxFile;  // a gbx file under another name
    auto text = [](const std::string& v) { return Bytes(v.begin(), v.end()); };
    files["Odd/a-first.txt"] = text("read first, so that the worker decodes the others\n");
    files["Odd/plain.Map.Gbx"] = text("not a gbx file at all\n");  // and the opposite
    files["Odd/short.gbx"] = text("GB");
    TestPack t = makeTestPack(files);
    std::vector<std::string> log;
    // Each read in one request (decoded straight into the reply), through a handle in pieces
    // (decoded whole through the cache), and ahead by the worker.
    for (int way = 0; way < 3; ++way) {
        fs::PackViewOptions options;
        options.readAheadFiles = way == 2 ? 8 : 0;
        auto f = mountDirect(t, options, &log);
        std::vector<char> buf(1 << 16);
        if (way == 2) {
            REQUIRE(f->read(fs::inoAt(*f, "/Test/Odd/a-first.txt"), 0, buf.data(), buf.size(), 0) >
                    0);
            f->settleReadAhead();
        }
        for (const char* name : {"gbx-named.txt", "plain.Map.Gbx", "short.gbx"}) {
            INFO(name << " way " << way);
            const std::string path = std::string("/Test/Odd/") + name;
            const Bytes& want = t.file(std::string("Odd/") + name);
            if (way == 1) {
                CHECK(readAll(*f, path, 1000) == want);
            } else {
                long n = f->read(fs::inoAt(*f, path), 0, buf.data(), buf.size(), 0);
                REQUIRE(n == long(want.size()));
                CHECK(Bytes(buf.begin(), buf.begin() + n) == want);
            }
        }
        CHECK(xattr(*f, "/Test/Odd/gbx-named.txt", fs::kXattrGbxClass) == "CGameCtnChallenge");
        CHECK(xattr(*f, "/Test/Odd/plain.Map.Gbx", fs::kXattrGbxClass) ==
              "errno " + std::to_string(ENODATA));
    }
    CHECK(log.empty());
}

TEST_CASE("pakfs: a damaged entry reads as EIO with one log line, never as wrong bytes", "[fs]") {
    TestPack t = makeTestPack();
    std::uint64_t at = 0;
    {
        auto pak = archive::PakIndex::open(t.pak, testKey());
        for (const auto& e : pak->entries())
            if (e.path == "Data/c100k.txt") {
                REQUIRE(e.compressed());
                at = pak->entryOffset(e) + 8 + e.compressedSize / 2;
            }
    }
    REQUIRE(at > 0);
    // Flip bytes in the middle of the compressed data.
    Bytes raw = readFile(t.pak);
    for (std::size_t i = 0; i < 16; ++i) raw[at + i] ^= 0x5A;
    writeFile(t.pak, raw);

    std::vector<std::string> log;
    auto f = mountDirect(t, {}, &log);
    const fs::View::Ino ino = fs::inoAt(*f, "/Test/Data/c100k.txt");
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::uint64_t fh = 0;
        REQUIRE(f->open(ino, O_RDONLY, &fh) == 0);
        std::vector<char> buf(200000);
        CHECK(f->read(ino, fh, buf.data(), buf.size(), 0) == -EIO);
        CHECK(f->read(ino, fh, buf.data(), 10, 0) == -EIO);
        f->release(ino, fh);
    }
    // Without a handle: in pieces, and whole in one request.
    std::vector<char> buf(200000);
    for (int attempt = 0; attempt < 2; ++attempt) {
        CHECK(f->read(fs::inoAt(*f, "/Test/Data/c100k.txt"), 0, buf.data(), 4096, 0) == -EIO);
        CHECK(f->read(fs::inoAt(*f, "/Test/Data/c100k.txt"), 0, buf.data(), buf.size(), 0) == -EIO);
    }
    REQUIRE(log.size() == 1);
    CHECK(log[0].find("/Test/Data/c100k.txt") != std::string::npos);
    // The other entries are unaffected.
    CHECK(readAll(*f, "/Test/Data/r1024.bin") == t.file("Data/r1024.bin"));
}

namespace {
// Changes one byte of an entry's plaintext (the compressed stream for compressed entries) and
// encrypts it again, so only that byte differs: the way to reach zlib's checksum exactly.
void changePlainByte(const TestPack& t, const std::string& path, std::uint64_t at) {
    auto pak = archive::PakIndex::open(t.pak, testKey());
    const archive::PakEntry* entry = nullptr;
    for (const auto& e : pak->entries())
        if (e.path == path) entry = &e;
    REQUIRE(entry);
    Bytes raw = readFile(t.pak);
    std::uint64_t start = pak->entryOffset(*entry);
    std::uint64_t iv = loadLE64(raw.data() + start);
    std::uint64_t ivEnc = iv;
    std::uint8_t* data = raw.data() + start + 8;
    std::size_t n = std::size_t(entry->cipherSize());
    archive::Blowfish cipher(testKey());
    cipher.cbcDecrypt(data, n, iv);
    data[at] ^= 0x01;
    cipher.cbcEncrypt(data, n, ivEnc);
    writeFile(t.pak, raw);
}
}  // namespace

TEST_CASE("pakfs: a bad zlib checksum gives EIO, before any byte for whole entries", "[fs]") {
    TestPack t = makeTestPack(true);
    std::uint64_t smallSize = 0, largeSize = 0;
    {
        auto pak = archive::PakIndex::open(t.pak, testKey());
        for (const auto& e : pak->entries()) {
            if (e.path == "Data/c100k.txt") smallSize = e.compressedSize;
            if (e.path == "Media/compress6m.txt") largeSize = e.compressedSize;
        }
    }
    // The last byte of each stream is the low byte of its Adler-32.
    changePlainByte(t, "Data/c100k.txt", smallSize - 1);
    changePlainByte(t, "Media/compress6m.txt", largeSize - 1);
    std::vector<std::string> log;
    auto f = mountDirect(t, {}, &log);

    const fs::View::Ino small = fs::inoAt(*f, "/Test/Data/c100k.txt");
    std::uint64_t fh = 0;
    REQUIRE(f->open(small, O_RDONLY, &fh) == 0);
    char c;
    CHECK(f->read(small, fh, &c, 1, 0) == -EIO);
    f->release(small, fh);

    // A large entry streams: the bytes before the end are right, the read that reaches the
    // end fails, so a copy of the file fails too.
    const Bytes& want = t.file("Media/compress6m.txt");
    const fs::View::Ino large = fs::inoAt(*f, "/Test/Media/compress6m.txt");
    REQUIRE(f->open(large, O_RDONLY, &fh) == 0);
    Bytes buf(1 << 20);
    std::uint64_t off = 0;
    long n = 0;
    while ((n = f->read(large, fh, reinterpret_cast<char*>(buf.data()), buf.size(),
                        std::int64_t(off))) > 0) {
        REQUIRE(std::equal(buf.begin(), buf.begin() + n, want.begin() + std::ptrdiff_t(off)));
        off += std::uint64_t(n);
    }
    CHECK(n == -EIO);
    CHECK(off < want.size());
    f->release(large, fh);
    CHECK(log.size() == 2);
    CHECK(readAll(*f, "/Test/Data/r1024.bin") == t.file("Data/r1024.bin"));
}

TEST_CASE("pakfs: reading a file from its start decodes the small files after it ahead", "[fs]") {
    TestPack t = makeTestPack();
    fs::PackViewOptions options;
    options.readAheadFiles = 2;
    auto f = mountDirect(t, options);
    std::vector<char> buf(1 << 20);
    auto readWhole = [&](const std::string& path) {
        long n = f->read(fs::inoAt(*f, "/Test/" + path), 0, buf.data(), buf.size(), 0);
        REQUIRE(n >= 0);
        return Bytes(buf.begin(), buf.begin() + n);
    };
    // Data holds Deep/, c100k.txt, r1024.bin, r255.bin and r256.bin, in name order.
    CHECK(readWhole("Data/c100k.txt") == t.file("Data/c100k.txt"));
    f->settleReadAhead();
    auto stats = f->cacheStats();
    CHECK(stats.entries == 2);  // r1024.bin and r255.bin, decoded by the worker
    CHECK(stats.misses == 2);
    CHECK(stats.hits == 0);
    // The next read takes its file from the cache, which lets it go (the kernel keeps pages).
    CHECK(readWhole("Data/r1024.bin") == t.file("Data/r1024.bin"));
    f->settleReadAhead();
    stats = f->cacheStats();
    CHECK(stats.hits == 1);
    CHECK(stats.misses == 3);   // r256.bin joined
    CHECK(stats.entries == 2);  // r255.bin and r256.bin
    CHECK(readWhole("Data/r255.bin") == t.file("Data/r255.bin"));
    CHECK(readWhole("Data/r256.bin") == t.file("Data/r256.bin"));
    f->settleReadAhead();
    stats = f->cacheStats();
    CHECK(stats.hits == 3);
    CHECK(stats.misses == 3);
    CHECK(stats.entries == 0);
    CHECK(stats.bytes == 0);
    // Read in pieces through a handle, the file stays cached for the next piece.
    CHECK(readAll(*f, "/Test/Text/empty.txt").empty());
    f->settleReadAhead();
    CHECK(f->cacheStats().entries == 2);  // one.txt and readme.txt
    CHECK(readAll(*f, "/Test/Text/one.txt", 1) == t.file("Text/one.txt"));
    CHECK(readAll(*f, "/Test/Text/readme.txt", 7) == t.file("Text/readme.txt"));
    f->settleReadAhead();
    CHECK(f->cacheStats().misses == 5);
    CHECK(f->cacheStats().hits == 5);  // one lookup per open file
}

TEST_CASE("pakfs: files decoded ahead are handed to the store with their exact bytes", "[fs]") {
    TestPack t = makeTestPack();
    fs::PackViewOptions options;
    options.readAheadFiles = 2;
    auto f = mountDirect(t, options);
    std::mutex lock;
    std::map<std::string, Bytes> stored;
    f->setStoreAhead([&](const fs::Node& node, const Bytes& content) {
        std::lock_guard g(lock);
        CHECK(stored.emplace(f->tree().pathOf(node), content).second);  // once each
        return f->tree().pathOf(node) == "/Test/Data/r1024.bin";        // the kernel took only this
    });
    std::vector<char> buf(1 << 20);
    REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/c100k.txt"), 0, buf.data(), buf.size(), 0) ==
            long(t.file("Data/c100k.txt").size()));
    f->settleReadAhead();
    REQUIRE(stored.size() == 2);
    CHECK(stored["/Test/Data/r1024.bin"] == t.file("Data/r1024.bin"));
    CHECK(stored["/Test/Data/r255.bin"] == t.file("Data/r255.bin"));
    // What the kernel took is not kept twice; what it refused waits in the cache for its read.
    CHECK(f->cacheStats().entries == 1);
    // A read not from the start decodes nothing ahead.
    REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/r256.bin"), 0, buf.data(), 10, 5) == 10);
    f->settleReadAhead();
    CHECK(stored.size() == 2);
    const auto hits = f->cacheStats().hits;
    REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/r255.bin"), 0, buf.data(), buf.size(), 0) == 255);
    CHECK(Bytes(buf.begin(), buf.begin() + 255) == t.file("Data/r255.bin"));
    CHECK(f->cacheStats().hits == hits + 1);  // from the cache, not decoded again
    f->settleReadAhead();
    f->setStoreAhead({});
}

TEST_CASE("pakfs: read-ahead stops at its byte limit, at folders' ends, and when off", "[fs]") {
    TestPack t = makeTestPack();
    std::vector<char> buf(1 << 20);
    {
        fs::PackViewOptions options;
        options.readAheadBytes = 1024 + 255;  // r1024.bin and r255.bin; r256.bin would pass it
        auto f = mountDirect(t, options);
        REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/c100k.txt"), 0, buf.data(), buf.size(), 0) > 0);
        f->settleReadAhead();
        CHECK(f->cacheStats().entries == 2);
        // The last file of a folder has nothing after it.
        REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/r256.bin"), 0, buf.data(), buf.size(), 0) == 256);
        REQUIRE(f->read(fs::inoAt(*f, "/Test/root.txt"), 0, buf.data(), buf.size(), 0) == 3000);
        f->settleReadAhead();
        CHECK(f->cacheStats().misses == 2);
    }
    {
        fs::PackViewOptions options;
        options.readAheadFiles = 0;
        auto f = mountDirect(t, options);
        REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/c100k.txt"), 0, buf.data(), buf.size(), 0) > 0);
        f->settleReadAhead();
        CHECK(f->cacheStats().entries == 0);
        CHECK(f->cacheStats().misses == 0);
    }
}

TEST_CASE("pakfs: a file that fails to decode ahead gives EIO and one log line when read", "[fs]") {
    auto files = smallFiles();
    files["Data/c2000.txt"] = compressibleText(2000, 10);
    TestPack t = makeTestPack(files);
    std::uint64_t size = 0;
    {
        auto pak = archive::PakIndex::open(t.pak, testKey());
        for (const auto& e : pak->entries())
            if (e.path == "Data/c2000.txt") size = e.compressedSize;
    }
    REQUIRE(size > 0);
    changePlainByte(t, "Data/c2000.txt", size - 1);  // its Adler-32
    std::vector<std::string> log;
    auto f = mountDirect(t, {}, &log);
    std::vector<char> buf(1 << 20);
    REQUIRE(f->read(fs::inoAt(*f, "/Test/Data/c100k.txt"), 0, buf.data(), buf.size(), 0) > 0);
    f->settleReadAhead();
    CHECK(log.empty());  // the worker says nothing: the file may never be read
    auto stats = f->cacheStats();
    CHECK(stats.entries == 3);  // r1024.bin, r255.bin, r256.bin
    CHECK(f->read(fs::inoAt(*f, "/Test/Data/c2000.txt"), 0, buf.data(), buf.size(), 0) == -EIO);
    REQUIRE(log.size() == 1);
    CHECK(log[0].find("/Test/Data/c2000.txt") != std::string::npos);
    CHECK(f->read(fs::inoAt(*f, "/Test/Data/r1024.bin"), 0, buf.data(), buf.size(), 0) == 1024);
    CHECK(Bytes(buf.begin(), buf.begin() + 1024) == t.file("Data/r1024.bin"));
}

TEST_CASE("pakfs: icase makes lookups case-insensitive and keeps names distinct", "[fs]") {
    // A pak with two names that differ only in case, as other tools write them (pak pack
    // refuses them): README_.txt packed, then renamed in the plan.
    TestPack t = makeTestPack(smallFiles());
    writeFile(t.source / "Text/README_.txt", Bytes{'u', 'p'});
    archive::PackOptions packOptions;
    archive::PackPlan plan = archive::planFolder(t.source, testKey(), packOptions);
    for (auto& file : plan.files)
        if (file.packPath == "Text/README_.txt") {
            file.name = "README.txt";
            file.packPath = "Text/README.txt";
        }
    archive::writePlan(plan, t.pak, testKey(), packOptions);
    t.files["Text/README.txt"] = Bytes{'u', 'p'};
    fs::PackViewOptions options;
    options.icase = true;
    auto f = mountDirect(t, options);
    struct stat st;
    REQUIRE(f->getattr(fs::inoAt(*f, "/TEST/data/DEEP/er/C1024.TXT"), &st) == 0);
    CHECK(std::uint64_t(st.st_size) == 1024);
    CHECK(readAll(*f, "/test/DATA/r255.BIN") == t.file("Data/r255.bin"));
    // Both readme files stay reachable: the second one gets a numbered name.
    auto listed = dirNames(*f, "/Test/Text");
    CHECK(listed.size() == 2 + 4);
    bool numbered = std::any_of(listed.begin(), listed.end(), [](const std::string& n) {
        return n.find(" (2)") != std::string::npos;
    });
    CHECK(numbered);
    std::set<std::string> contents;
    for (const auto& n : listed) {
        if (n == "." || n == "..") continue;
        Bytes b = readAll(*f, "/Test/Text/" + n);
        contents.insert(std::string(b.begin(), b.end()));
    }
    CHECK(contents.count("up") == 1);
    CHECK(contents.count(std::string(t.file("Text/readme.txt").begin(),
                                     t.file("Text/readme.txt").end())) == 1);

    // Without icase both names are there as they are.
    auto exact = mountDirect(t);
    CHECK(exact->getattr(fs::inoAt(*exact, "/Test/Text/README.txt"), &st) == 0);
    CHECK(st.st_size == 2);
    CHECK(exact->getattr(fs::inoAt(*exact, "/TEST/Text/README.txt"), &st) == -ENOENT);
}

TEST_CASE("pakfs: the whole-entry cache stays within its bounds", "[fs]") {
    TestPack t = makeTestPack();
    fs::PackViewOptions options;
    options.cacheBytes = 1500;
    options.wholeEntryLimit = 4096;
    auto f = mountDirect(t, options);
    for (int round = 0; round < 3; ++round)
        for (const std::string path : {"Data/r255.bin", "Data/r256.bin", "Data/r1024.bin",
                                       "Data/Deep/Er/c1024.txt", "Text/readme.txt", "root.txt"}) {
            INFO(path);
            CHECK(readAll(*f, "/Test/" + path) == t.file(path));
            CHECK(f->cacheStats().bytes <= options.cacheBytes);
        }
    auto stats = f->cacheStats();
    CHECK(stats.peakBytes <= options.cacheBytes);
    CHECK(stats.evictions > 0);
    CHECK(stats.misses > 6);  // evicted entries were decoded again
    // root.txt (3000 bytes) is larger than the whole cache: read fine but never kept.
    CHECK(stats.entries <= 3);
}

TEST_CASE("pakfs: cache hits serve repeated reads without decoding again", "[fs]") {
    TestPack t = makeTestPack();
    fs::PackViewOptions options;
    options.readAheadFiles = 0;  // only r1024.bin is decoded
    auto f = mountDirect(t, options);
    for (int i = 0; i < 5; ++i)
        CHECK(readAll(*f, "/Test/Data/r1024.bin") == t.file("Data/r1024.bin"));
    auto stats = f->cacheStats();
    CHECK(stats.misses == 1);
    CHECK(stats.hits == 4);
}

TEST_CASE("pakfs: 8 threads read at random offsets at once", "[fs]") {
    TestPack t = makeTestPack(true);
    fs::PackViewOptions options;
    options.seekSpan = 256 * 1024;
    auto f = mountDirect(t, options);
    std::vector<std::string> paths;
    for (const auto& [path, data] : t.files) paths.push_back(path);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < 8; ++k) {
        threads.emplace_back([&, k] {
            std::mt19937_64 rng(std::uint64_t(k) * 7919);
            for (int i = 0; i < 60; ++i) {
                const std::string& path =
                    i % 3 == 0 ? paths[rng() % paths.size()] : std::string("Media/compress6m.txt");
                const Bytes& data = t.file(path);
                const fs::View::Ino ino = fs::inoAt(*f, "/Test/" + path);
                std::uint64_t fh = 0;
                if (f->open(ino, O_RDONLY, &fh) != 0) {
                    ++failures;
                    continue;
                }
                std::uint64_t off = data.empty() ? 0 : rng() % data.size();
                Bytes buf(std::size_t(rng() % 100000) + 1);
                long n = f->read(ino, fh, reinterpret_cast<char*>(buf.data()), buf.size(),
                                 std::int64_t(off));
                std::size_t want =
                    data.empty() ? 0 : std::min<std::size_t>(buf.size(), data.size() - off);
                if (n != long(want) ||
                    !std::equal(buf.begin(), buf.begin() + n, data.begin() + std::ptrdiff_t(off)))
                    ++failures;
                f->release(ino, fh);
            }
        });
    }
    for (auto& th : threads) th.join();
    CHECK(failures == 0);
    CHECK(f->openFiles() == 0);
}

TEST_CASE("pakfs: statfs describes a read-only file system", "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    struct statvfs st;
    REQUIRE(f->statfs(&st) == 0);
    CHECK((st.f_flag & ST_RDONLY) != 0);
    CHECK(st.f_bfree == 0);
    CHECK(st.f_files == f->tree().nodeCount());
    CHECK(st.f_namemax == 255);
    std::uint64_t total = 0;
    for (const auto& [path, data] : t.files) total += data.size();
    CHECK(st.f_blocks * st.f_frsize >= total);
}

TEST_CASE("pakfs: inoAt walks lookups, and inode 0 answers ENOENT in the pack view and the overlay",
          "[fs]") {
    TestPack t = makeTestPack();
    auto f = mountDirect(t);
    CHECK(fs::inoAt(*f, "/") == fs::View::kRootIno);
    struct stat st;
    REQUIRE(f->lookup(fs::inoAt(*f, "/Test/Text"), "one.txt", &st) == 0);
    CHECK(fs::inoAt(*f, "/Test/Text/one.txt") == st.st_ino);
    CHECK(fs::inoAt(*f, "/Test/Text/") == fs::inoAt(*f, "/Test/Text"));
    for (const char* path : {"", "Test", "/Test//Text", "/Test/Text/one.txt/x", "/Test/nope",
                             "/Test/.", "/Test/..", "/Test/Text/one.txt//"}) {
        INFO(path);
        CHECK(fs::inoAt(*f, path) == 0);
    }

    TempDir dir;
    fs::Overlay overlay(*f, fs::OverlayOptions{dir.path(), 0, 0, 0, {}});
    CHECK(fs::inoAt(overlay, "/Test/Text/one.txt") == fs::inoAt(*f, "/Test/Text/one.txt"));
    CHECK(fs::inoAt(overlay, "/Test/nope") == 0);
    for (fs::View* view : {static_cast<fs::View*>(f.get()), static_cast<fs::View*>(&overlay)}) {
        fs::View& v = *view;
        INFO((view == &overlay ? "overlay" : "pack view"));
        std::uint64_t fh = 7;
        std::string name;
        fs::View::Ino parent = 0;
        char buf[64];
        CHECK(v.lookup(0, "Test", &st) == -ENOENT);
        CHECK(v.getattr(0, &st) == -ENOENT);
        CHECK(v.locate(0, &parent, &name) == -ENOENT);
        CHECK(v.readdir(0, 0, [](const char*, const struct stat&, std::int64_t) { return true; }) ==
              -ENOENT);
        CHECK(v.open(0, O_RDONLY, &fh) == -ENOENT);
        CHECK(fh == 7);
        CHECK(v.read(0, 0, buf, sizeof buf, 0) == -ENOENT);
        CHECK(v.release(0, 0) == -ENOENT);
        CHECK(v.getxattr(0, fs::kXattrClassId, buf, sizeof buf) == -ENOENT);
        CHECK(v.listxattr(0, buf, sizeof buf) == -ENOENT);
        CHECK(v.access(0, R_OK) == -ENOENT);
    }
    // The overlay's changes too, and none of them leaves anything in its folder.
    const fs::View::Ino text = fs::inoAt(overlay, "/Test/Text");
    struct stat attr {};
    attr.st_uid = 12345;
    std::uint64_t fh = 0;
    CHECK(overlay.open(0, O_RDWR, &fh) == -ENOENT);
    CHECK(overlay.write(0, 0, "x", 1, 0) == -ENOENT);
    CHECK(overlay.setattr(0, attr, fs::View::kSetSize, 0, &st) == -ENOENT);
    CHECK(overlay.setattr(0, attr, fs::View::kSetUid, 0, &st) == -ENOENT);
    CHECK(overlay.setattr(0, attr, fs::View::kSetMode, 0, &st) == -ENOENT);
    CHECK(overlay.fsync(0, 0, false) == -ENOENT);
    CHECK(overlay.create(0, "new.txt", 0644, O_RDWR, &st, &fh) == -ENOENT);
    CHECK(overlay.mkdir(0, "New", 0755, &st) == -ENOENT);
    CHECK(overlay.unlink(0, "one.txt") == -ENOENT);
    CHECK(overlay.rmdir(0, "Text") == -ENOENT);
    CHECK(overlay.rename(0, "one.txt", text, "two.txt", 0) == -ENOENT);
    CHECK(overlay.rename(text, "one.txt", 0, "two.txt", 0) == -ENOENT);
    std::vector<std::string> left;
    for (const auto& item : std::filesystem::recursive_directory_iterator(dir.path()))
        left.push_back(std::filesystem::relative(item.path(), dir.path()).string());
    CHECK(left == std::vector<std::string>{commit::kOverlayWorkFolder});
    CHECK(overlay.access(fs::inoAt(overlay, "/Test/Text/one.txt"), R_OK) == 0);
}

TEST_CASE("pakfs: unsafe and duplicate pack names are handled", "[fs]") {
    TestPack a = makeTestPack();
    std::vector<packs::Pack> packs{{"Test", archive::PakIndex::open(a.pak, testKey())},
                                   {"Test", archive::PakIndex::open(a.pak, testKey())}};
    std::vector<std::string> warnings;
    fs::PackView f(std::move(packs), {}, [&](const std::string& w) { warnings.push_back(w); });
    CHECK(dirNames(f, "/") == std::vector<std::string>{".", "..", "Test", "Test (2)"});
    CHECK(warnings.size() == 1);
    CHECK(readAll(f, "/Test (2)/Data/r256.bin") == a.file("Data/r256.bin"));
}

TEST_CASE("pakfs: sources: pak files, Packs folders with packlist.dat, wrong keys", "[fs]") {
    TempDir dir;
    auto packs = dir / "Packs";
    std::filesystem::create_directories(packs);
    archive::PackList list;
    const std::string keyA = "0123456789abcdef0123456789abcdef",
                      keyB = "fedcba9876543210fedcba9876543210";
    list.entries.push_back({0, "Alpha", keyA});
    list.entries.push_back({0, "Beta", keyB});
    archive::writePackList(packs / "packlist.dat", list);
    TestPack alpha = makeTestPack(smallFiles(), "Alpha", archive::keyFromKeyString(keyA));
    TestPack beta = makeTestPack(smallFiles(), "Beta", archive::keyFromKeyString(keyB));
    TestPack gamma = makeTestPack(smallFiles(), "Gamma", testKey());  // not in the list
    std::filesystem::copy_file(alpha.pak, packs / "Alpha.pak");
    std::filesystem::copy_file(beta.pak, packs / "Beta.pak");
    std::filesystem::copy_file(gamma.pak, packs / "Gamma.pak");
    writeFile(packs / "readme.txt", Bytes{'x'});

    auto loaded = packs::loadSources({packs}, {});
    REQUIRE(loaded.packs.size() == 2);
    CHECK(loaded.packs[0].name == "Alpha");
    CHECK(loaded.packs[1].name == "Beta");
    REQUIRE(loaded.warnings.size() == 1);
    CHECK(loaded.warnings[0].find("Gamma") != std::string::npos);

    fs::PackView f(std::move(loaded.packs), {});
    CHECK(dirNames(f, "/") == std::vector<std::string>{".", "..", "Alpha", "Beta"});
    CHECK(readAll(f, "/Beta/Data/r256.bin") == beta.file("Data/r256.bin"));

    // A single pak with the wrong key stops everything, naming the file.
    archive::KeyOptions wrong;
    wrong.keyHex = "ffffffffffffffffffffffffffffffff";
    try {
        packs::loadSources({alpha.pak}, wrong);
        FAIL("a wrong key was accepted");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("Alpha.pak") != std::string::npos);
    }
    archive::KeyOptions right;
    right.keyHex = kTestKeyHex;
    CHECK(packs::loadSources({gamma.pak}, right).packs.size() == 1);
    CHECK_THROWS_AS(packs::loadSources({dir / "absent.pak"}, right), Error);
    auto emptyDir = dir / "Empty";
    std::filesystem::create_directories(emptyDir);
    CHECK_THROWS_AS(packs::loadSources({emptyDir}, right), Error);
}

TEST_CASE("pakfs: -o salvage shows the whole files of a pack cut short", "[fs][salvage]") {
    const Bytes a = compressibleText(4000, 11), b = randomBytes(2000, 12);
    TestPack t = makeTestPack({{"a.txt", a}, {"Sub/b.bin", b}}, "Cut");
    auto intact = archive::PakIndex::open(t.pak, testKey());
    REQUIRE(intact->entries().size() == 2);
    const archive::PakEntry& last = intact->entries()[1];
    REQUIRE(last.path == "Sub/b.bin");
    const std::uint64_t end = intact->entryOffset(last) + last.ivSize() + last.cipherSize();
    const Bytes whole = readFile(t.pak);
    const auto cut = t.dir->path() / "Cut.pak";
    writeFile(cut, ByteSpan(whole).first(std::size_t(end - 1)));
    archive::KeyOptions right;
    right.keyHex = kTestKeyHex;
    // Without salvage the pack is refused; with it, the file cut off is named and left out.
    CHECK_THROWS_WITH(packs::loadSources({cut}, right),
                      cut.string() +
                          ": cut short or damaged file table: Sub/b.bin: data runs past the end "
                          "of the file (ends at " +
                          std::to_string(end) + ", file is " + std::to_string(end - 1) +
                          " bytes); --salvage reads the files that are whole");
    auto loaded = packs::loadSources({cut}, right, false, {}, true);
    REQUIRE(loaded.packs.size() == 1);
    CHECK(loaded.warnings == std::vector<std::string>{"not salvaged: " + cut.string() +
                                                      ": Sub/b.bin: data runs past the end of "
                                                      "the file (ends at " +
                                                      std::to_string(end) + ", file is " +
                                                      std::to_string(end - 1) + " bytes)"});
    fs::PackView f(std::move(loaded.packs), {});
    CHECK(dirNames(f, "/Cut") ==
          std::vector<std::string>{".", "..", "EmptyFolder", "Sub", "a.txt"});
    CHECK(dirNames(f, "/Cut/Sub") == std::vector<std::string>{".", ".."});
    CHECK(readAll(f, "/Cut/a.txt") == a);
}

// A pack of one 3 MiB compressible big.txt, options that give it seek points from a
// background pass kept in an index file, and $XDG_CACHE_HOME in `dir` while it lives.
struct BigEntryPack {
    TempDir dir;
    TestPack t;
    fs::PackViewOptions options;
    explicit BigEntryPack(std::uint64_t seed) {
        ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
        std::map<std::string, Bytes> files;
        files["big.txt"] = compressibleText(3 * 1024 * 1024 + 5, seed);
        t = makeTestPack(files);
        options.seekIndexFileMin = 1 << 20;
        options.seekSpan = 128 * 1024;
    }
    ~BigEntryPack() { ::unsetenv("XDG_CACHE_HOME"); }
    BigEntryPack(const BigEntryPack&) = delete;
    BigEntryPack& operator=(const BigEntryPack&) = delete;
};

TEST_CASE("pakfs: a large entry read through from its start starts no seek-point pass",
          "[fs][seek]") {
    BigEntryPack big(4);
    TempDir& dir = big.dir;
    TestPack& t = big.t;
    const fs::PackViewOptions& options = big.options;
    std::vector<packs::Pack> packs{{"Test", archive::PakIndex::open(t.pak, testKey())}};
    fs::PackView f(std::move(packs), options);
    // Read through in 128 KiB requests, as cp does: decoded once, no pass, no points.
    CHECK(readAll(f, "/Test/big.txt", 128 * 1024) == t.file("big.txt"));
    f.settleIndexing();
    CHECK(f.seekPoints() == 0);
    CHECK_FALSE(std::filesystem::exists(dir / "cache/pakfs/seek"));
    // A read that jumps back starts the pass, which builds and saves them.
    const fs::View::Ino ino = fs::inoAt(f, "/Test/big.txt");
    std::uint64_t fh = 0;
    REQUIRE(f.open(ino, O_RDONLY, &fh) == 0);
    std::vector<char> buf(4096);
    REQUIRE(f.read(ino, fh, buf.data(), buf.size(), 3 * 1024 * 1024 - 4096) == 4096);
    REQUIRE(f.read(ino, fh, buf.data(), buf.size(), 5000) == 4096);
    CHECK(std::equal(buf.begin(), buf.end(), t.file("big.txt").begin() + 5000));
    f.settleIndexing();
    CHECK(f.seekPoints() > 6);  // one per deflate block of about 300 KiB
    CHECK(std::filesystem::exists(dir / "cache/pakfs/seek"));
    REQUIRE(f.release(ino, fh) == 0);
}

TEST_CASE("pakfs: seek points of a large entry come from a background pass, then an index file",
          "[fs][seek]") {
    BigEntryPack big(3);
    TempDir& dir = big.dir;
    TestPack& t = big.t;
    const fs::PackViewOptions& options = big.options;
    auto mount = [&] {
        std::vector<packs::Pack> packs{{"Test", archive::PakIndex::open(t.pak, testKey())}};
        return std::make_unique<fs::PackView>(std::move(packs), options);
    };
    auto readAt = [&](fs::PackView& f, std::uint64_t fh, std::uint64_t at) {
        std::vector<char> buf(4096);
        long n =
            f.read(fs::inoAt(f, "/Test/big.txt"), fh, buf.data(), buf.size(), std::int64_t(at));
        REQUIRE(n == 4096);
        CHECK(std::equal(buf.begin(), buf.end(), t.file("big.txt").begin() + std::ptrdiff_t(at)));
    };
    {
        // First mount: opening the file starts the pass; its points serve any reader.
        auto f = mount();
        std::uint64_t fh = 0;
        REQUIRE(f->open(fs::inoAt(*f, "/Test/big.txt"), O_RDONLY, &fh) == 0);
        readAt(*f, fh, 2 * 1024 * 1024);
        f->settleIndexing();
        CHECK(f->seekPoints() > 6);
        REQUIRE(f->release(fs::inoAt(*f, "/Test/big.txt"), fh) == 0);
    }
    std::vector<std::filesystem::path> saved;
    for (const auto& item : std::filesystem::directory_iterator(dir / "cache/pakfs/seek"))
        saved.push_back(item.path());
    REQUIRE(saved.size() == 1);
    std::size_t pointsFirst = 0;
    {
        // A fresh mount has them from the file before any decoding.
        auto f = mount();
        std::uint64_t fh = 0;
        REQUIRE(f->open(fs::inoAt(*f, "/Test/big.txt"), O_RDONLY, &fh) == 0);
        readAt(*f, fh, 1234567);
        pointsFirst = f->seekPoints();
        CHECK(pointsFirst > 6);
        f->settleIndexing();
        CHECK(f->seekPoints() == pointsFirst);  // no second pass was needed
        REQUIRE(f->release(fs::inoAt(*f, "/Test/big.txt"), fh) == 0);
    }
    // An index file whose point table is damaged is not used (its MD5 says so): the pass runs
    // again and rewrites it.
    const Bytes good = readFile(saved[0]);
    Bytes damaged = good;
    damaged[100] ^= 1;
    writeFile(saved[0], damaged);
    {
        auto f = mount();
        std::uint64_t fh = 0;
        REQUIRE(f->open(fs::inoAt(*f, "/Test/big.txt"), O_RDONLY, &fh) == 0);
        readAt(*f, fh, 3 * 1024 * 1024 - 4096);
        f->settleIndexing();
        REQUIRE(f->release(fs::inoAt(*f, "/Test/big.txt"), fh) == 0);
    }
    CHECK(readFile(saved[0]) == good);
    // Damaged windows (every one here; the table is sound, so the file loads): found when a read
    // resumes at a point, which is dropped, the read decodes from the point before (here the
    // start) with exact bytes, and the file is removed; the next mount builds it again.
    {
        const std::size_t tableEnd = 68 + 4 + 30 * std::size_t(loadLE32(good.data() + 68)) + 16;
        REQUIRE(tableEnd < good.size());
        damaged = good;
        for (std::size_t i = tableEnd; i < damaged.size(); ++i) damaged[i] ^= 0x55;
        writeFile(saved[0], damaged);
        std::vector<std::string> logged;
        fs::PackViewOptions logging = options;
        logging.log = [&](const std::string& line) { logged.push_back(line); };
        std::vector<packs::Pack> packs{{"Test", archive::PakIndex::open(t.pak, testKey())}};
        auto f = std::make_unique<fs::PackView>(std::move(packs), logging);
        std::uint64_t fh = 0;
        REQUIRE(f->open(fs::inoAt(*f, "/Test/big.txt"), O_RDONLY, &fh) == 0);
        readAt(*f, fh, 2 * 1024 * 1024 + 999);
        CHECK_FALSE(std::filesystem::exists(saved[0]));
        // One line, a warning that says what it cost (the read itself went well).
        REQUIRE(logged.size() == 1);
        CHECK(logged[0] == "warning: /Test/big.txt: damaged seek point window in " +
                               saved[0].string() +
                               ": its point is dropped (reads resume at an earlier one or the "
                               "start) and the file removed (built again by the next mount)");
        CHECK(f->seekPoints() < pointsFirst);
        readAt(*f, fh, 1024 * 1024 + 5);
        f->settleIndexing();
        REQUIRE(f->release(fs::inoAt(*f, "/Test/big.txt"), fh) == 0);
    }
    {
        auto f = mount();
        std::uint64_t fh = 0;
        REQUIRE(f->open(fs::inoAt(*f, "/Test/big.txt"), O_RDONLY, &fh) == 0);
        readAt(*f, fh, 2 * 1024 * 1024 + 999);
        f->settleIndexing();
        CHECK(f->seekPoints() == pointsFirst);
        REQUIRE(f->release(fs::inoAt(*f, "/Test/big.txt"), fh) == 0);
    }
    CHECK(readFile(saved[0]) == good);
    // A pak changed since (another modification time): the file is stale and not used.
    std::filesystem::last_write_time(
        t.pak, std::filesystem::last_write_time(t.pak) + std::chrono::seconds(10));
    {
        auto f = mount();
        std::uint64_t fh = 0;
        REQUIRE(f->open(fs::inoAt(*f, "/Test/big.txt"), O_RDONLY, &fh) == 0);
        CHECK(f->seekPoints() < pointsFirst);
        readAt(*f, fh, 100);
        f->settleIndexing();
        REQUIRE(f->release(fs::inoAt(*f, "/Test/big.txt"), fh) == 0);
    }
}

TEST_CASE("pakfs: user.gbx.decode says how each gbx file's bytes are proven, as pak check does",
          "[fs][fixtures]") {
    auto assets = sharedDir("fixtures/assets");
    auto gbxDir = sharedDir("fixtures/gbx");
    // An LZO body (its readers stop after 3 of its 88 nodes, which the label does not use), an
    // uncompressed body with unknown skippable chunks, a map read whole, and a gbx file no
    // plan could be made for, stored with --raw.
    std::map<std::string, Bytes> files;
    files["Ground.Solid.Gbx"] = readFile(assets / "Solids~1_TrackMania_Sunrise~Ground.Solid.Gbx");
    files["DemoRaceB1.Challenge.Gbx"] = readFile(gbxDir / "DemoRaceB1.Challenge.Gbx");
    files["BaseValley.Map.Gbx"] = readFile(gbxDir / "BaseValley.Map.Gbx");
    gbx::GbxBuilder empty;
    empty.classId = 0x03043000;
    gbx::BodyWriter w;
    w.endNode();
    empty.body = w.bytes();
    files["Empty.Map.Gbx"] = empty.build();
    Bytes junk = {'G', 'B', 'X', 6, 0, 'B', 'U', 'U', 'R', 0, 0x30, 0x04, 0x03, 0, 0, 0, 0};
    junk.resize(400, 0xEE);
    files["Junk.Map.Gbx"] = junk;
    TestPack t;
    t.source = t.dir->path() / "src";
    t.files = files;
    for (const auto& [path, data] : t.files) writeFile(t.source / path, data);
    t.pak = t.dir->path() / "Test.pak";
    archive::PackOptions options;
    options.rawGlobs = {"Junk.Map.Gbx"};
    options.warn = [](const std::string&) {};
    archive::writePak(t.source, t.pak, testKey(), options);

    std::vector<std::string> log;
    auto f = mountDirect(t, {}, &log);
    const std::map<std::string, std::string> want = {{"Ground.Solid.Gbx", "header"},
                                                     {"DemoRaceB1.Challenge.Gbx", "header"},
                                                     {"BaseValley.Map.Gbx", "exact"},
                                                     {"Empty.Map.Gbx", "parsed"},
                                                     {"Junk.Map.Gbx", "refused"}};
    for (const auto& [name, kind] : want) {
        INFO(name);
        const std::string path = "/Test/" + name;
        CHECK(xattr(*f, path, fs::kXattrGbxDecode) == kind);
        const fs::View::Ino ino = fs::inoAt(*f, path);
        long n = f->listxattr(ino, nullptr, 0);
        REQUIRE(n > 0);
        std::string list(std::size_t(n), '\0');
        REQUIRE(f->listxattr(ino, list.data(), list.size()) == n);
        CHECK(list.find(std::string(fs::kXattrGbxDecode) + '\0') != std::string::npos);
        if (kind != "refused") CHECK(readAll(*f, path) == files.at(name));
    }
}
