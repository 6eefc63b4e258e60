// SPDX-License-Identifier: GPL-2.0-or-later
// What the test programs share: digests, seeded test data, temporary folders, files read and
// written whole, and running the programs.
#pragma once

#include <crypto++/sha.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "common/Bytes.hpp"

namespace pakfs::test {

inline std::string sha256Hex(ByteSpan data) {
    std::uint8_t digest[32];
    CryptoPP::SHA256().CalculateDigest(digest, data.data(), data.size());
    return hexString(digest);
}

// The bytes of a text.
inline Bytes bytesOf(std::string_view s) {
    return Bytes(s.begin(), s.end());
}

// Test data, the same for the same seed.
inline Bytes randomBytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Bytes out(n);
    for (auto& b : out) b = std::uint8_t(rng());
    return out;
}

// Text that compresses well but not trivially: words drawn at random, numbered lines.
inline Bytes compressibleText(std::size_t n, std::uint64_t seed) {
    static const char* const words[] = {"track", "stadium", "nadeo", "block", "checkpoint",
                                        "start", "finish",  "ramp",  "loop",  "boost",
                                        "ghost", "replay",  "pack",  "medal", "author"};
    std::mt19937_64 rng(seed);
    std::string s;
    s.reserve(n + 64);
    for (std::size_t line = 0; s.size() < n; ++line) {
        s += std::to_string(line) + ":";
        for (int w = 0, k = int(rng() % 9) + 3; w < k; ++w)
            s += std::string(" ") + words[rng() % 15];
        s += "\n";
    }
    s.resize(n);
    return Bytes(s.begin(), s.end());
}

// In 64 KiB blocks, not a byte at a time: tests under the sanitizers run unoptimized.
inline Bytes readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    Bytes out;
    std::vector<char> block(1 << 16);
    while (in.read(block.data(), std::streamsize(block.size())) || in.gcount() > 0)
        out.insert(out.end(), block.data(), block.data() + in.gcount());
    return out;
}

inline void writeFile(const std::filesystem::path& p, ByteSpan data) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
}

// Rows of a tab-separated file, skipping lines that start with '#' and the header row.
inline std::vector<std::vector<std::string>> readTsv(const std::filesystem::path& p,
                                                     bool skipHeader = true) {
    std::ifstream in(p);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (first && skipHeader) {
            first = false;
            continue;
        }
        first = false;
        std::vector<std::string> cols;
        std::size_t start = 0;
        while (true) {
            auto tab = line.find('\t', start);
            cols.push_back(
                line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        rows.push_back(std::move(cols));
    }
    return rows;
}

inline Bytes fromHex(const std::string& hex) {
    Bytes out(hex.size() / 2);
    if (!parseHex(hex, out)) throw std::runtime_error("bad hex in test data: " + hex);
    return out;
}

#ifdef PAKFS_SOURCE_DIR
// The project's source tree (sample files).
inline std::filesystem::path sourceDir() {
    return PAKFS_SOURCE_DIR;
}
#endif

// A scratch folder removed at the end of the test.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "pakfs-test-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& s) const { return path_ / s; }

private:
    std::filesystem::path path_;
};

// Runs a command through the shell; returns exit code, stdout and stderr.
struct RunResult {
    int code;
    std::string out;
    std::string err;
};
RunResult run(const std::string& command);

// Starts argv[0] (a path) with argv in a child process, its stderr (and, with `stdoutToo`, its
// stdout; else /dev/null) written to `log`; returns its pid, for the caller to signal and reap.
pid_t spawnLogged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                  bool stdoutToo = true);

}  // namespace pakfs::test
