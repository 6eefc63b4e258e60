// SPDX-License-Identifier: GPL-2.0-or-later
// Runs one hostile pack: open, decode, extract into a sandbox, then check that the outcome is a
// clear error or a sanitized result, in bounded time and memory, with nothing written outside
// the target folder.
#pragma once

#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "archive/entry/EntryReader.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/ops/Extract.hpp"
#include "archive/pak/PakIndex.hpp"
#include "tests/hostile/Generators.hpp"

namespace pakfs::hostile {

// See AllocGuard.cpp: 0 = no limit.
extern std::atomic<std::size_t> gAllocLimit;
extern std::atomic<std::size_t> gRefusedAlloc;

// No single allocation of a case may exceed this (the packs are at most a few MiB).
inline constexpr std::size_t kCaseAllocLimit = 256u << 20;
// Wall time of one case, generous for sanitizer builds.
inline constexpr double kCaseSeconds = 10.0;

inline std::atomic<std::size_t> gCases{0};

enum class Scope { All, OneEntry };

struct Outcome {
    bool opened = false;
    std::string error;  // open error
    std::size_t written = 0, failed = 0;
};

class AllocLimit {
public:
    AllocLimit() {
        gRefusedAlloc = 0;
        gAllocLimit = kCaseAllocLimit;
    }
    ~AllocLimit() { gAllocLimit = 0; }
};

// Checks that the sandbox holds only the canary and the target folder, that the target holds
// no links and no temp files, and only files named by safe entry paths.
inline void checkTree(const std::filesystem::path& work, const std::set<std::string>& allowed) {
    namespace fs = std::filesystem;
    for (const auto& e : fs::directory_iterator(work)) {
        std::string n = e.path().filename().string();
        CHECK((n == "case.pak" || n == "sandbox"));
    }
    // Absolute names in the matrix point beside `work`: nothing may appear there.
    for (const auto& e : fs::directory_iterator(work.parent_path()))
        CHECK(e.path().filename() == work.filename());
    const fs::path sandbox = work / "sandbox";
    for (const auto& e : fs::directory_iterator(sandbox)) {
        std::string n = e.path().filename().string();
        CHECK((n == "canary" || n == "out"));
    }
    CHECK(readBytes(sandbox / "canary") == Bytes{'o', 'k'});
    const fs::path target = sandbox / "out";
    if (!fs::exists(target)) return;
    for (auto it = fs::recursive_directory_iterator(target);
         it != fs::recursive_directory_iterator(); ++it) {
        auto st = it->symlink_status();
        std::string rel = fs::relative(it->path(), target).generic_string();
        INFO("extracted " << rel);
        CHECK_FALSE(fs::is_symlink(st));
        CHECK(rel.find(".pak-tmp-") == std::string::npos);
        if (fs::is_regular_file(st)) CHECK(allowed.count(rel) == 1);
    }
}

inline Outcome runCase(const std::filesystem::path& work, const std::string& label, ByteSpan bytes,
                       const archive::PakKey& key, Scope scope = Scope::All,
                       std::size_t entryIndex = 0) {
    namespace fs = std::filesystem;
    ++gCases;
    INFO("case " << label);
    fs::remove_all(work);
    fs::create_directories(work / "sandbox");
    writeBytes(work / "sandbox" / "canary", Bytes{'o', 'k'});
    const fs::path pakPath = work / "case.pak";
    writeBytes(pakPath, bytes);
    const std::string prefix = pakPath.string() + ": ";
    Outcome out;
    auto start = std::chrono::steady_clock::now();
    std::set<std::string> allowed;
    {
        AllocLimit limit;
        try {
            auto pak = archive::PakIndex::open(pakPath, key);
            out.opened = true;
            if (!pak->metadataError().empty())
                CHECK_THAT(pak->metadataError(), Catch::StartsWith(prefix));
            std::vector<const archive::PakEntry*> entries;
            for (const auto& e : pak->entries())
                if (scope == Scope::All || e.index == entryIndex) entries.push_back(&e);
            for (const auto* e : entries)
                if (archive::safeComponents(e->path)) allowed.insert(e->path);
            archive::ExtractOptions options;
            options.jobs = 1;  // exceptions other than Error then reach this thread
            options.error = [&](const std::string& msg) {
                CHECK_THAT(msg, Catch::StartsWith(prefix));
            };
            if (scope == Scope::OneEntry)
                for (const auto* e : entries) {
                    try {
                        // The whole-entry form too (pak cat, the mount's small files).
                        archive::readEntry(pak, *e);
                    } catch (const Error& err) {
                        CHECK_THAT(err.what(), Catch::StartsWith(prefix));
                    }
                }
            auto result = archive::extractEntries(pak, entries, work / "sandbox" / "out", options);
            out.written = result.written;
            out.failed = result.failed;
            CHECK(result.written + result.failed == entries.size());
        } catch (const Error& e) {
            out.error = e.what();
            CHECK_THAT(out.error, Catch::StartsWith(prefix));
        } catch (const std::exception& e) {
            FAIL("not an Error: " << e.what() << " (refused allocation of " << gRefusedAlloc
                                  << " bytes)");
        }
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < kCaseSeconds);
    CHECK(gRefusedAlloc == 0);
    checkTree(work, allowed);
    return out;
}

// A scratch folder for the cases, in memory when /dev/shm is there: every case writes a pack
// and extracts it, and on a disk that costs more than the parsing.
class ScratchDir {
public:
    ScratchDir() {
        std::filesystem::path base = "/dev/shm";
        if (::access(base.c_str(), W_OK) != 0) base = std::filesystem::temp_directory_path();
        std::string tmpl = (base / "pakfs-hostile-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    std::filesystem::path operator/(const std::string& s) const { return path_ / s; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// Prints how many cases a test ran (the matrix size is the sum).
class CaseCount {
public:
    explicit CaseCount(std::string what) : what_(std::move(what)), start_(gCases) {}
    ~CaseCount() {
        std::printf("hostile matrix: %-48s %5zu cases (total %zu)\n", what_.c_str(),
                    gCases - start_, gCases.load());
    }

private:
    std::string what_;
    std::size_t start_;
};

}  // namespace pakfs::hostile
