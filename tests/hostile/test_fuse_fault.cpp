// SPDX-License-Identifier: GPL-2.0-or-later
// The mount under fault, through the kernel with the pakfs binary: many concurrent readers at
// random offsets, a pack truncated while mounted (EIO, no crash), SIGTERM in the middle of
// reads (clean unmount). Skipped when FUSE or the binary is not available.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "tests/hostile/Generators.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::hostile;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

const std::string kPakfs = (fs::path(PAKFS_PAK_BINARY).parent_path() / "pakfs").string();

void skipUnlessFuse() {
    const char* reason = nullptr;
    if (::access("/dev/fuse", R_OK | W_OK) != 0)
        reason = "/dev/fuse is missing or not usable";
    else if (test::run("command -v fusermount3").code != 0)
        reason = "fusermount3 is not installed";
    else if (!fs::exists(kPakfs))
        reason = "the pakfs binary was not built";
    if (reason) {
        std::printf("SKIPPED: %s\n", reason);
        std::fflush(stdout);
        std::_Exit(test::kSkipExitCode);
    }
}

bool isMounted(const fs::path& mountpoint) {
    std::ifstream in("/proc/self/mounts");
    std::string device, dir, rest;
    while (in >> device >> dir && std::getline(in, rest))
        if (dir == mountpoint.string()) return true;
    return false;
}

// A pack with large stored and compressed files (many segments and seek points), small ones
// and gbx entries; returns the contents by path.
std::map<std::string, Bytes> faultPack(const fs::path& dir, const fs::path& pak) {
    std::map<std::string, Bytes> files;
    std::mt19937_64 rng(99);
    Bytes rnd(2 * 1024 * 1024 + 333);
    for (auto& b : rnd) b = std::uint8_t(rng());
    files["Media/random.bin"] = rnd;
    std::string text;
    while (text.size() < 3 * 1024 * 1024)
        text += "line " + std::to_string(rng() % 100000) + " of compressible text\n";
    files["Media/text.txt"] = Bytes(text.begin(), text.end());
    files["Tracks/A01.Challenge.Gbx"] = sampleMap(1, 900);
    files["Tracks/A02.Challenge.Gbx"] = sampleMap(2, 40);
    files["small.txt"] = Bytes(1000, 's');
    fs::path tree = dir / "tree";
    for (const auto& [p, data] : files) writeBytes(tree / p, data);
    archive::PackOptions o;
    o.level = 6;
    archive::writePak(tree, pak, test::testKey(), o);
    return files;
}

// pakfs in the foreground in a child process; unmounted and reaped at the end.
class Mount {
public:
    Mount(const fs::path& pak, const fs::path& mountpoint, const fs::path& errFile)
        : mountpoint_(mountpoint) {
        fs::create_directories(mountpoint_);
        std::vector<std::string> argv{
            kPakfs, "-f", "--key", hexString(test::testKey()), pak.string(), mountpoint_.string()};
        pid_ = ::fork();
        if (pid_ == 0) {
            int fd = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                ::dup2(fd, 1);
                ::dup2(fd, 2);
            }
            std::vector<char*> cargv;
            for (auto& a : argv) cargv.push_back(a.data());
            cargv.push_back(nullptr);
            ::execv(cargv[0], cargv.data());
            ::_exit(127);
        }
    }
    ~Mount() {
        if (pid_ > 0) {
            if (isMounted(mountpoint_)) test::run("fusermount3 -u '" + mountpoint_.string() + "'");
            if (waitExit(10s) == kTimedOut) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, nullptr, 0);
            }
        }
        if (isMounted(mountpoint_)) test::run("fusermount3 -uz '" + mountpoint_.string() + "'");
    }
    Mount(const Mount&) = delete;
    Mount& operator=(const Mount&) = delete;

    bool waitMounted() {
        auto end = std::chrono::steady_clock::now() + 10s;
        while (std::chrono::steady_clock::now() < end) {
            if (isMounted(mountpoint_)) return true;
            if (!alive()) return false;
            std::this_thread::sleep_for(20ms);
        }
        return false;
    }
    bool alive() {
        if (pid_ <= 0) return false;
        if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
            pid_ = -1;
            return false;
        }
        return true;
    }
    static constexpr int kTimedOut = -1000;
    int waitExit(std::chrono::milliseconds timeout) {
        auto end = std::chrono::steady_clock::now() + timeout;
        while (alive()) {
            if (std::chrono::steady_clock::now() > end) return kTimedOut;
            std::this_thread::sleep_for(20ms);
        }
        return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
    }
    pid_t pid() const { return pid_; }
    const fs::path& path() const { return mountpoint_; }

private:
    fs::path mountpoint_;
    pid_t pid_ = -1;
    int status_ = 0;
};

struct Mounted {
    test::TempDir dir;
    fs::path pak = dir / "Fault.pak";
    std::map<std::string, Bytes> files = faultPack(dir.path(), pak);
    std::unique_ptr<Mount> mount;

    Mounted() {
        skipUnlessFuse();
        mount = std::make_unique<Mount>(pak, dir / "mnt", dir / "pakfs.err");
        INFO(errors());
        REQUIRE(mount->waitMounted());
    }
    fs::path operator/(const std::string& p) const { return mount->path() / "Fault" / p; }
    std::string errors() const {
        Bytes b = readBytes(dir / "pakfs.err");
        return std::string(b.begin(), b.end());
    }
};

// pread until n bytes or an error; returns the bytes, or sets err to errno.
Bytes preadAll(int fd, std::uint64_t off, std::size_t n, int& err) {
    Bytes out(n);
    std::size_t done = 0;
    err = 0;
    while (done < n) {
        ssize_t got = ::pread(fd, out.data() + done, n - done, off_t(off + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            err = errno;
            break;
        }
        if (got == 0) break;
        done += std::size_t(got);
    }
    out.resize(done);
    return out;
}

}  // namespace

TEST_CASE("pakfs under fault: 16 concurrent readers at random offsets", "[hostile][mount]") {
    Mounted m;
    std::vector<std::string> paths;
    for (const auto& [p, _] : m.files) paths.push_back(p);
    std::atomic<std::size_t> reads{0}, wrong{0}, errors{0};
    auto until = std::chrono::steady_clock::now() + 3s;
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(std::uint64_t(t) * 7919 + 1);
            while (std::chrono::steady_clock::now() < until) {
                const std::string& p = paths[rng() % paths.size()];
                const Bytes& want = m.files.at(p);
                // Half the readers bypass the page cache, so their reads reach pakfs each time.
                int fd = ::open((m / p).c_str(), O_RDONLY | (t % 2 ? O_DIRECT : 0));
                if (fd < 0) {
                    ++errors;
                    continue;
                }
                for (int k = 0; k < 8; ++k) {
                    std::uint64_t off = want.empty() ? 0 : rng() % want.size();
                    std::size_t n = std::size_t(1 + rng() % (128 * 1024));
                    int err = 0;
                    Bytes got = preadAll(fd, off, n, err);
                    std::size_t expect = std::size_t(std::min<std::uint64_t>(n, want.size() - off));
                    ++reads;
                    if (err != 0)
                        ++errors;
                    else if (got.size() != expect ||
                             !std::equal(got.begin(), got.end(), want.begin() + off))
                        ++wrong;
                }
                ::close(fd);
            }
        });
    for (auto& t : threads) t.join();
    INFO(m.errors());
    std::printf("pakfs under fault: %zu random reads by 16 threads in 3 s\n", reads.load());
    CHECK(reads > 16);
    CHECK(wrong == 0);
    CHECK(errors == 0);
    CHECK(m.mount->alive());
}

TEST_CASE("pakfs under fault: a pack truncated while mounted gives EIO, not a crash",
          "[hostile][mount]") {
    Mounted m;
    auto index = archive::PakIndex::open(m.pak, test::testKey());
    // Cut in the middle of the data: files before the cut still read, the others fail.
    std::uint64_t cut = index->dataOffset() + (fs::file_size(m.pak) - index->dataOffset()) / 3;
    fs::resize_file(m.pak, cut);
    std::size_t eio = 0, good = 0;
    for (const auto& [p, want] : m.files) {
        INFO(p);
        int fd = ::open((m / p).c_str(), O_RDONLY);
        if (fd < 0) {
            CHECK(errno == EIO);
            ++eio;
            continue;
        }
        int err = 0;
        Bytes got = preadAll(fd, 0, want.size() + 1, err);
        ::close(fd);
        if (err != 0) {
            CHECK(err == EIO);
            ++eio;
        } else {
            CHECK(got == want);  // never wrong bytes
            ++good;
        }
    }
    INFO(m.errors());
    CHECK(eio >= 1);
    CHECK(m.mount->alive());
    CHECK(isMounted(m.mount->path()));
    CHECK(fs::is_directory(m / ""));
    REQUIRE(test::run("fusermount3 -u '" + m.mount->path().string() + "'").code == 0);
    CHECK(m.mount->waitExit(10s) == 0);
}

TEST_CASE("pakfs under fault: SIGTERM during reads unmounts cleanly", "[hostile][mount]") {
    Mounted m;
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> reads{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(std::uint64_t(t) + 5);
            Bytes buf(64 * 1024);
            while (!stop) {
                int fd = ::open((m / "Media/text.txt").c_str(), O_RDONLY);
                if (fd < 0) {
                    std::this_thread::sleep_for(5ms);
                    continue;
                }
                for (int k = 0; k < 16 && !stop; ++k)
                    if (::pread(fd, buf.data(), buf.size(), off_t(rng() % (3 << 20))) > 0) ++reads;
                ::close(fd);
            }
        });
    // Let the readers get going, then stop pakfs in the middle of them.
    auto until = std::chrono::steady_clock::now() + 5s;
    while (reads < 50 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(10ms);
    CHECK(reads >= 50);
    REQUIRE(::kill(m.mount->pid(), SIGTERM) == 0);
    int code = m.mount->waitExit(10s);
    stop = true;
    for (auto& t : threads) t.join();
    INFO(m.errors());
    CHECK(code == 0);
    CHECK_FALSE(isMounted(m.mount->path()));
}
