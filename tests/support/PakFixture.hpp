// SPDX-License-Identifier: GPL-2.0-or-later
// Synthetic packs for the pakfs tests, built with the archive writer.
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <random>
#include <string>

#include "archive/entry/EntryReader.hpp"
#include "archive/write/PakWriter.hpp"
#include "fs/view/PackView.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

namespace pakfs::test {

struct TestPack {
    std::unique_ptr<TempDir> dir = std::make_unique<TempDir>();
    std::filesystem::path source;
    std::filesystem::path pak;
    std::map<std::string, Bytes> files;  // path inside the pack -> content

    const Bytes& file(const std::string& path) const { return files.at(path); }
};

// The small files every test pack holds; sizes around the cipher block and segment sizes.
inline std::map<std::string, Bytes> smallFiles() {
    std::map<std::string, Bytes> f;
    std::string readme = "A test pack.\nIt holds text, random and compressible files.\n";
    f["Text/readme.txt"] = Bytes(readme.begin(), readme.end());
    f["Text/empty.txt"] = {};
    f["Text/one.txt"] = {'x'};
    f["Data/r255.bin"] = randomBytes(255, 1);
    f["Data/r256.bin"] = randomBytes(256, 2);
    f["Data/r1024.bin"] = randomBytes(1024, 3);
    f["Data/Deep/Er/c1024.txt"] = compressibleText(1024, 4);
    f["Data/c100k.txt"] = compressibleText(100 * 1024 + 13, 5);
    f["root.txt"] = compressibleText(3000, 6);
    return f;
}

// Large files: one stored (random) and one compressed, both several MiB.
inline void addLargeFiles(std::map<std::string, Bytes>& f) {
    f["Media/random3m.bin"] = randomBytes(3 * 1024 * 1024 + 77, 7);
    f["Media/compress6m.txt"] = compressibleText(6 * 1024 * 1024 + 5, 8);
}

inline TestPack makeTestPack(std::map<std::string, Bytes> files, const std::string& name = "Test",
                             const archive::PakKey& key = testKey()) {
    TestPack t;
    t.source = t.dir->path() / "src";
    t.files = std::move(files);
    std::filesystem::create_directories(t.source / "EmptyFolder");
    for (const auto& [path, data] : t.files) writeFile(t.source / path, data);
    t.pak = t.dir->path() / (name + ".pak");
    archive::PackOptions options;
    options.level = 6;
    archive::writePak(t.source, t.pak, key, options);
    return t;
}

inline TestPack makeTestPack(bool large = false) {
    auto f = smallFiles();
    if (large) addLargeFiles(f);
    return makeTestPack(std::move(f));
}

inline std::unique_ptr<fs::PackView> mountDirect(const TestPack& t,
                                                 fs::PackViewOptions options = {},
                                                 std::vector<std::string>* log = nullptr) {
    if (log) options.log = [log](const std::string& line) { log->push_back(line); };
    std::vector<packs::Pack> packs{{"Test", archive::PakIndex::open(t.pak, testKey())}};
    return std::make_unique<fs::PackView>(std::move(packs), options);
}

// The extended attribute `name` of the file at `path`, or "errno N".
inline std::string xattr(fs::PackView& f, const std::string& path, const char* name) {
    const fs::View::Ino ino = fs::inoAt(f, path);
    long n = f.getxattr(ino, name, nullptr, 0);
    if (n < 0) return "errno " + std::to_string(-n);
    std::string v(std::size_t(n), '\0');
    REQUIRE(f.getxattr(ino, name, v.data(), v.size()) == n);
    return v;
}

// Every entry of the pak (made with the test key) read whole, by path.
inline std::map<std::string, Bytes> contentsOf(const std::filesystem::path& pak) {
    auto index = archive::PakIndex::open(pak, testKey());
    std::map<std::string, Bytes> out;
    for (const auto& e : index->entries()) out[e.path] = archive::readEntry(index, e);
    return out;
}

}  // namespace pakfs::test
