// SPDX-License-Identifier: GPL-2.0-or-later
// pakbench: the measuring half of bench/run.sh. Generates synthetic packs and measures what the
// shell cannot: the single-core limit (Crypto++ Blowfish-CBC and zlib inflate of a pack's own
// bytes), the vector decryptors against Crypto++, random-read latency, and mount readiness.
// Prints "key=value" lines for the script to read.
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "archive/cipher/BlowfishSimd.hpp"
#include "archive/cipher/Crypto.hpp"
#include "archive/entry/EntryKind.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/PlainEntryReader.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/PakWriter.hpp"
#include "fs/view/PackView.hpp"
#include "gbx/testing/EngineBuilder.hpp"
#include "gbx/testing/GbxBuilder.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace stdfs = std::filesystem;
using pakfs::archive::bfsimd::Impl;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// xorshift64*: fast and reproducible; the content only has to look like game files to zlib.
struct Rng {
    std::uint64_t s;
    explicit Rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    double unit() { return double(next() >> 11) / double(1ull << 53); }
    std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
};

const char* const kWords[] = {"<block",     "name=",    "\"Stadium", "Road",  "Turbo",
                              "Checkpoint", "</block>", "pos=",      "dir=",  "Platform",
                              "Loop",       "<map",     "author",    "Nadeo", "skin",
                              "=\"0\"",     "=\"1\"",   "Finish",    "Start", "Grass",
                              "Dirt",       "\n",       "\t",        "  ",    "version"};

// Markup-like text: compresses about 4:1 like the game's XML and scripts.
void fillText(Rng& rng, std::uint8_t* p, std::size_t n) {
    std::size_t at = 0;
    char num[24];
    while (at < n) {
        const char* w;
        std::size_t len;
        if (rng.below(4) == 0) {
            len = std::size_t(std::snprintf(num, sizeof num, " %u", unsigned(rng.below(100000))));
            w = num;
        } else {
            w = kWords[rng.below(std::size(kWords))];
            len = std::strlen(w);
        }
        len = std::min(len, n - at);
        std::memcpy(p + at, w, len);
        at += len;
    }
}

// Fixed-size records with a few random fields: compresses about 2:1 (meshes, textures).
void fillRecords(Rng& rng, std::uint8_t* p, std::size_t n) {
    std::uint8_t rec[32];
    for (std::size_t i = 0; i < sizeof rec; ++i) rec[i] = std::uint8_t(i * 7);
    for (std::size_t at = 0; at < n; at += sizeof rec) {
        std::uint64_t r = rng.next();
        std::memcpy(rec + 4, &r, 6);
        rec[20] = std::uint8_t(rng.below(4));
        std::memcpy(p + at, rec, std::min(sizeof rec, n - at));
    }
}

// Incompressible (sounds, JPEGs): stored without zlib by the writer.
void fillRandom(Rng& rng, std::uint8_t* p, std::size_t n) {
    for (std::size_t at = 0; at < n; at += 8) {
        std::uint64_t r = rng.next();
        std::memcpy(p + at, &r, std::min<std::size_t>(8, n - at));
    }
}

void writeBytes(const stdfs::path& path, const Bytes& data) {
    stdfs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    if (!out) throw Error(path.string() + ": cannot write");
}

PakKey benchKey() {
    PakKey k;
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = std::uint8_t(0x5A ^ (i * 37));
    return k;
}

std::string keyHex() {
    return hexString(benchKey());
}

void pack(const stdfs::path& src, const stdfs::path& out, int level) {
    PackOptions opts;
    opts.level = level;
    auto t0 = Clock::now();
    PackResult r = writePak(src, out, benchKey(), opts);
    std::fprintf(stderr, "%s: %zu files, %llu bytes in, %llu out, %.1f s\n", out.c_str(), r.files,
                 (unsigned long long)r.bytesIn, (unsigned long long)r.bytesOut, since(t0));
}

// many.pak: `entries` files of mixed sizes (log-uniform within three classes) and kinds in
// two levels of folders; big.pak: one compressible entry of 512 MiB * scale.
int makePacks(const stdfs::path& dir, double scale, std::size_t entries, int level) {
    stdfs::create_directories(dir);
    Rng rng(2024);
    stdfs::path src = dir / "src-many";
    stdfs::remove_all(src);
    auto logUniform = [&](double lo, double hi) {
        return std::size_t(std::exp(std::log(lo) + rng.unit() * (std::log(hi) - std::log(lo))));
    };
    Bytes buf;
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < entries; ++i) {
        double cls = rng.unit();
        std::size_t size = cls < 0.70   ? logUniform(100, 4096)
                           : cls < 0.95 ? logUniform(4096, 65536)
                                        : logUniform(65536, 262144);
        size = std::max<std::size_t>(1, std::size_t(double(size) * scale));
        buf.resize(size);
        double kind = rng.unit();
        const char* ext;
        if (kind < 0.6) {
            fillText(rng, buf.data(), size);
            ext = ".xml";
        } else if (kind < 0.85) {
            fillRecords(rng, buf.data(), size);
            ext = ".dds";
        } else {
            fillRandom(rng, buf.data(), size);
            ext = ".ogg";
        }
        char name[96];
        std::snprintf(name, sizeof name, "d%02zu/s%02zu/f%06zu%s", i % 97, (i / 97) % 11, i, ext);
        writeBytes(src / name, buf);
        total += size;
        if (i % 10000 == 9999) std::fprintf(stderr, "\rsource files: %zu", i + 1);
    }
    std::fprintf(stderr, "\rsource files: %zu, %.1f MiB\n", entries, double(total) / 1048576);
    pack(src, dir / "many.pak", level);
    stdfs::remove_all(src);

    src = dir / "src-big";
    stdfs::remove_all(src);
    buf.resize(std::max<std::size_t>(4096, std::size_t(double(512u << 20) * scale)) & ~7ull);
    fillText(rng, buf.data(), buf.size());
    writeBytes(src / "Media" / "big.xml", buf);
    buf = Bytes();
    pack(src, dir / "big.pak", level);
    stdfs::remove_all(src);
    std::printf("key=%s\n", keyHex().c_str());
    return 0;
}

// A zlib stream inflated whole by ISA-L into `out`, which it must fill exactly (header and
// Adler-32 checked, as zlib does).
bool isalInflateWhole(const std::uint8_t* in, std::size_t n, Bytes& out) {
    inflate_state st;
    isal_inflate_init(&st);
    st.crc_flag = ISAL_ZLIB;
    st.next_in = const_cast<std::uint8_t*>(in);
    st.avail_in = std::uint32_t(n);
    st.next_out = out.data();
    st.avail_out = std::uint32_t(out.size());
    return isal_inflate(&st) == ISAL_DECOMP_OK && st.block_state == ISAL_BLOCK_FINISH &&
           st.avail_out == 0;
}

// The limit: every plain entry's ciphertext decrypted by Crypto++ (and by the vector path, to
// compare), and its zlib stream inflated, one core, from memory.
int limit(const stdfs::path& pakPath) {
    auto pak = PakIndex::open(pakPath, benchKey());
    Impl best = bfsimd::availableImpls().back();
    double tCpp = 0, tSimd = 0, tInflate = 0, tLibdeflate = 0, tIsal = 0;
    libdeflate_decompressor* deflater = nullptr;
    std::uint64_t outBytes = 0, cipherBytes = 0, entries = 0;
    Bytes a, b, out;
    for (const PakEntry& e : pak->entries()) {
        if (isGbxEntry(*pak, e)) continue;
        std::uint64_t at = pak->entryOffset(e);
        std::uint64_t iv0 = loadLE64(pak->file()->readAt(at, 8).data());
        a.resize(e.cipherSize());
        pak->file()->readAt(at + 8, a.data(), a.size());
        b = a;
        std::uint64_t iv = iv0;
        bfsimd::forceImpl(Impl::Portable);
        auto t0 = Clock::now();
        pak->cipher().cbcDecrypt(a.data(), a.size(), iv);
        tCpp += since(t0);
        iv = iv0;
        bfsimd::forceImpl(best);
        t0 = Clock::now();
        pak->cipher().cbcDecrypt(b.data(), b.size(), iv);
        tSimd += since(t0);
        if (a != b) throw Error(e.path + ": vector and Crypto++ decryption differ");
        if (e.compressed()) {
            out.resize(e.uncompressedSize);
            t0 = Clock::now();
            z_stream z{};
            inflateInit(&z);
            z.next_in = a.data();
            z.avail_in = e.compressedSize;
            z.next_out = out.data();
            z.avail_out = unsigned(out.size());
            int rc = inflate(&z, Z_FINISH);
            inflateEnd(&z);
            tInflate += since(t0);
            if (rc != Z_STREAM_END) throw Error(e.path + ": inflate failed");
            // The whole-buffer inflaters the plain reader could use, on the same bytes.
            if (!deflater) deflater = libdeflate_alloc_decompressor();
            std::size_t made = 0;
            t0 = Clock::now();
            auto lr = libdeflate_zlib_decompress(deflater, a.data(), e.compressedSize, out.data(),
                                                 out.size(), &made);
            tLibdeflate += since(t0);
            if (lr != LIBDEFLATE_SUCCESS || made != out.size())
                throw Error(e.path + ": libdeflate failed");
            t0 = Clock::now();
            const bool isalDone = isalInflateWhole(a.data(), e.compressedSize, out);
            tIsal += since(t0);
            if (!isalDone) throw Error(e.path + ": ISA-L inflate failed");
        }
        outBytes += e.uncompressedSize;
        cipherBytes += a.size();
        ++entries;
    }
    bfsimd::forceImpl(std::nullopt);
    std::printf("entries=%llu\nout_bytes=%llu\ncipher_bytes=%llu\n", (unsigned long long)entries,
                (unsigned long long)outBytes, (unsigned long long)cipherBytes);
    if (deflater) libdeflate_free_decompressor(deflater);
    std::printf("decrypt_cryptopp_s=%.6f\ndecrypt_simd_s=%.6f\ninflate_s=%.6f\n", tCpp, tSimd,
                tInflate);
    std::printf("inflate_libdeflate_s=%.6f\ninflate_isal_s=%.6f\n", tLibdeflate, tIsal);
    std::printf("simd_impl=%s\n", bfsimd::implName(best));
    return 0;
}

// Blowfish-CBC over one buffer in the bulk path's 256 KiB steps, best of `runs`, per
// implementation.
int cipher(std::size_t mib, int runs) {
    Rng rng(7);
    Bytes key(16), data(mib << 20);
    fillRandom(rng, key.data(), key.size());
    fillRandom(rng, data.data(), data.size());
    Blowfish bf{ByteSpan(key)};
    Bytes ref;
    for (Impl impl : bfsimd::availableImpls()) {
        bfsimd::forceImpl(impl);
        double best = 1e9;
        Bytes buf;
        for (int r = 0; r < runs; ++r) {
            buf = data;
            std::uint64_t iv = 42;
            auto t0 = Clock::now();
            for (std::size_t at = 0; at < buf.size(); at += 256 * 1024)
                bf.cbcDecrypt(buf.data() + at, std::min<std::size_t>(256 * 1024, buf.size() - at),
                              iv);
            best = std::min(best, since(t0));
        }
        if (ref.empty()) ref = buf;
        if (buf != ref) throw Error(std::string(bfsimd::implName(impl)) + " differs");
        std::printf("cipher_%s_mbps=%.1f\n", bfsimd::implName(impl),
                    double(data.size()) / best / 1e6);
    }
    bfsimd::forceImpl(std::nullopt);
    return 0;
}

void printLatencies(const char* prefix, std::vector<double> us) {
    if (us.empty()) return;
    double first = us.front();
    std::sort(us.begin(), us.end());
    std::printf("%s_count=%zu\n%s_first_ms=%.3f\n%s_median_ms=%.3f\n%s_p99_ms=%.3f\n", prefix,
                us.size(), prefix, first / 1000, prefix, us[us.size() / 2] / 1000, prefix,
                us[std::min(us.size() - 1, us.size() * 99 / 100)] / 1000);
}

// Random 4 KiB reads of one file (through the mount), one open descriptor.
int randRead(const stdfs::path& file, std::size_t count, std::size_t size, double firstAt) {
    int fd = ::open(file.c_str(), O_RDONLY);
    if (fd < 0) throw Error(file.string() + ": cannot open");
    struct stat st;
    ::fstat(fd, &st);
    std::uint64_t fileSize = std::uint64_t(st.st_size);
    Rng rng(99);
    std::vector<char> buf(size);
    std::vector<double> us;
    for (std::size_t i = 0; i < count; ++i) {
        std::uint64_t off = rng.below(fileSize > size ? fileSize - size : 1);
        // The first read where asked (a fraction of the file), 4 KiB aligned.
        if (i == 0 && firstAt >= 0)
            off = std::min<std::uint64_t>(std::uint64_t(double(fileSize) * firstAt),
                                          fileSize > size ? fileSize - size : 0) &
                  ~std::uint64_t(4095);
        if (i == 0) std::printf("randread_first_offset=%llu\n", (unsigned long long)off);
        auto t0 = Clock::now();
        ssize_t got = ::pread(fd, buf.data(), size, off_t(off));
        us.push_back(since(t0) * 1e6);
        if (got != ssize_t(std::min<std::uint64_t>(size, fileSize - off)))
            throw Error(file.string() + ": short read");
    }
    ::close(fd);
    printLatencies("randread", us);
    return 0;
}

// The entry the read benchmarks use: the largest of the pak.
const PakEntry& largestEntry(const PakIndex& pak) {
    const PakEntry* biggest = nullptr;
    for (const PakEntry& e : pak.entries())
        if (!biggest || e.uncompressedSize > biggest->uncompressedSize) biggest = &e;
    if (!biggest) throw Error(pak.name() + ": empty");
    return *biggest;
}

// A sequential decode of the largest entry up to `offset`, as `pak cat` decodes (the reader
// without seek points), from the page cache into a buffer: the time a first read that decodes
// from the start compares with.
int seqRead(const stdfs::path& pakPath, std::uint64_t offset, int runs) {
    auto pak = PakIndex::open(pakPath, benchKey());
    const PakEntry* biggest = &largestEntry(*pak);
    offset = std::min<std::uint64_t>(offset, biggest->uncompressedSize);
    std::vector<double> ms;
    Bytes buf(256 * 1024);
    for (int r = 0; r < runs; ++r) {
        auto t0 = Clock::now();
        PlainEntryReader reader(pak, *biggest);
        for (std::uint64_t left = offset; left > 0;) {
            std::size_t got =
                reader.read(buf.data(), std::size_t(std::min<std::uint64_t>(left, buf.size())));
            if (got == 0) throw Error(pakPath.string() + ": short read");
            left -= got;
        }
        ms.push_back(since(t0) * 1000);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("seqread_ms=%.1f\n", ms[ms.size() / 2]);
    return 0;
}

// The first 4 KiB read at `offset` of the largest entry through the file system's operations in
// this process (no kernel): a fresh view each run and an empty seek folder (XDG_CACHE_HOME is
// pointed at a temporary one), as the mount's first read of a fresh mount; the background pass
// it starts is stopped with the view.
int firstRead(const stdfs::path& pakPath, std::uint64_t offset, int runs) {
    auto pak = PakIndex::open(pakPath, benchKey());
    const PakEntry* biggest = &largestEntry(*pak);
    offset = std::min<std::uint64_t>(offset, biggest->uncompressedSize - 4096) & ~4095ull;
    char tmpl[] = "/tmp/pakbench-cache-XXXXXX";
    if (!::mkdtemp(tmpl)) throw Error("cannot make a temporary folder");
    const stdfs::path cache = tmpl;
    ::setenv("XDG_CACHE_HOME", cache.c_str(), 1);
    std::vector<double> ms;
    std::vector<char> buf(4096);
    const std::string path = "/p/" + biggest->path;
    for (int r = 0; r < runs; ++r) {
        fs::PackView fsys({packs::Pack{"p", pak}}, fs::PackViewOptions{});
        const fs::View::Ino ino = fs::inoAt(fsys, path);
        std::uint64_t fh = 0;
        if (fsys.open(ino, O_RDONLY, &fh) != 0) throw Error(path + ": cannot open");
        auto t0 = Clock::now();
        long got = fsys.read(ino, fh, buf.data(), buf.size(), std::int64_t(offset));
        ms.push_back(since(t0) * 1000);
        if (got != 4096) throw Error(path + ": short read");
        fsys.release(ino, fh);
    }
    stdfs::remove_all(cache);
    std::sort(ms.begin(), ms.end());
    std::printf("firstread_offset=%llu\nfirstread_ms=%.1f\n", (unsigned long long)offset,
                ms[ms.size() / 2]);
    return 0;
}

// The same reads through the file system's operations in this process (no kernel), with the
// default seek points or none: the mount has no switch for them.
int fsRead(const stdfs::path& pakPath, std::size_t count, bool seekPoints) {
    auto pak = PakIndex::open(pakPath, benchKey());
    const PakEntry* biggest = &largestEntry(*pak);
    fs::PackViewOptions opts;
    if (!seekPoints) opts.seekPointsPerEntry = 0;
    fs::PackView fsys({packs::Pack{"p", pak}}, opts);
    std::uint64_t fh = 0;
    std::string path = "/p/" + biggest->path;
    const fs::View::Ino ino = fs::inoAt(fsys, path);
    if (fsys.open(ino, O_RDONLY, &fh) != 0) throw Error(path + ": cannot open");
    Rng rng(99);
    std::vector<char> buf(4096);
    std::vector<double> us;
    std::uint64_t size = biggest->uncompressedSize;
    for (std::size_t i = 0; i < count; ++i) {
        std::uint64_t off = rng.below(size - 4096);
        auto t0 = Clock::now();
        long got = fsys.read(ino, fh, buf.data(), buf.size(), std::int64_t(off));
        us.push_back(since(t0) * 1e6);
        if (got != 4096) throw Error(path + ": short read");
    }
    fsys.release(ino, fh);
    printLatencies(seekPoints ? "fsread_seek" : "fsread_noseek", us);
    if (seekPoints) {
        // The points of the whole entry, once the background pass is done.
        fsys.settleIndexing();
        std::printf("fsread_seek_points=%zu\nfsread_seek_bytes=%zu\nfsread_size=%llu\n",
                    fsys.seekPoints(), fsys.seekPointBytes(), (unsigned long long)size);
    }
    return 0;
}

// Starts a mount program (foreground) and waits until `ready` exists; prints the time and the
// program's pid and peak RSS so far. The program keeps running.
int mount(const stdfs::path& ready, char** argv) {
    auto t0 = Clock::now();
    pid_t pid = ::fork();
    if (pid == 0) {
        // Not our stdout: the script reads it to the end, and the program outlives us.
        int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) ::dup2(null, STDOUT_FILENO);
        ::execv(argv[0], argv);
        _exit(127);
    }
    struct stat st;
    while (::stat(ready.c_str(), &st) != 0) {
        int status;
        if (::waitpid(pid, &status, WNOHANG) == pid) throw Error("mount program exited");
        if (since(t0) > 120) throw Error("mount not ready after 120 s");
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    double t = since(t0);
    std::printf("mount_s=%.4f\npid=%d\n", t, int(pid));
    return 0;
}

// A challenge whose nodes the reader knows: `pairs` times a collector list and a parameters
// node inside chunk 03043011 (two node reads each), between runs of text in unknown skippable
// chunks, so that node reads land all over the entry.
Bytes benchMap(Rng& rng, int pairs) {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    b.numNodes = std::uint32_t(2 * pairs + 1);
    gbx::BodyWriter w;
    for (int i = 0; i < pairs; ++i) {
        w.beginSkippable(0x03043099);
        Bytes text(64 + rng.next() % 900);
        fillText(rng, text.data(), text.size());
        w.raw(text);
        w.endSkippable();
        w.chunk(0x03043011);
        w.newNode(std::uint32_t(1 + 2 * i), 0x0301B000);
        w.chunk(0x0301B000);
        w.u32(0);
        w.endNode();
        w.newNode(std::uint32_t(2 + 2 * i), 0x0305B000);
        w.chunk(0x0305B001);
        for (int k = 0; k < 4; ++k) w.string("tip");
        w.endNode();
        w.u32(8);
    }
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

// Engine-class files in the game's shapes (solids with and without meshes, fonts, control
// styles, shader sprites, bitmaps), written by the project's own builder.
Bytes benchEngineFile(Rng& rng, std::size_t i) {
    switch (i % 8) {
        case 0:
            return gbx::engine::font(64 + std::uint32_t(rng.next() % 256));
        case 1:
            return gbx::engine::controlStyle(2 + std::uint32_t(rng.next() % 8));
        case 2:
            return gbx::engine::shaderSprite("Sprites.vsh.txt");
        default: {
            gbx::engine::SolidSpec s;
            s.treeName = "Part" + std::to_string(i);
            s.vertices = 8 + std::uint32_t(rng.next() % 400);
            s.indices = 6 + std::uint32_t(rng.next() % 600);
            s.children = std::uint32_t(rng.next() % 4);
            s.meshTriangles = i % 2 ? std::uint32_t(rng.next() % 200) : 0;
            s.box = {float(rng.next() % 100), 0, 0, 0.5f, 1, 1};
            return gbx::engine::solid(s);
        }
    }
}

// The same gbx entries decoded through the chunk readers and through the node scan alone:
// maps (engine false) or engine-class files (engine true).
int gbxScan(const stdfs::path& dir, std::size_t files, int runs, bool engine) {
    Rng rng(7);
    const std::string name = engine ? "gbxengine" : "gbxscan";
    stdfs::remove_all(dir / name);
    for (std::size_t i = 0; i < files; ++i)
        writeBytes(dir / name / ("m" + std::to_string(i) + ".Gbx"),
                   engine ? benchEngineFile(rng, i) : benchMap(rng, 4 + int(i % 16)));
    archive::PackOptions o;
    o.level = 9;
    archive::writePak(dir / name, dir / (name + ".pak"), benchKey(), o);
    auto pak = archive::PakIndex::open(dir / (name + ".pak"), benchKey());
    // Entries the scan alone cannot decode (a CPlugSurfaceGeom mix it does not know of lands
    // on a later segment) are counted and left out of both timings.
    std::vector<const archive::PakEntry*> timed;
    std::size_t scanFails = 0;
    for (const auto& e : pak->entries()) {
        archive::GbxDecodeOptions d;
        d.scanOnly = true;
        if (archive::decodeGbxEntryProven(pak, e, d).kind == archive::GbxDecodeKind::Refused)
            ++scanFails;
        else
            timed.push_back(&e);
    }
    std::uint64_t bytes = 0;
    auto pass = [&](bool scanOnly) {
        archive::GbxDecodeOptions d;
        d.scanOnly = scanOnly;
        double best = 1e9;
        for (int r = 0; r < runs; ++r) {
            auto t0 = Clock::now();
            bytes = 0;
            for (const auto* e : timed) {
                archive::GbxDecode got = archive::decodeGbxEntryProven(pak, *e, d);
                // Without readers, an entry whose zlib stream ends before any node read can
                // matter is exact; every other one must be proven by the scan. With them, a
                // map is read to the end but for its unknown skippable chunks (exact), an
                // engine file whole (parsed).
                bool ok = scanOnly ? got.kind == archive::GbxDecodeKind::Verified ||
                                         got.kind == archive::GbxDecodeKind::Exact
                                   : got.kind == (engine ? archive::GbxDecodeKind::Parsed
                                                         : archive::GbxDecodeKind::Exact);
                if (!ok)
                    throw Error(e->path + ": decoded as " + gbxDecodeKindName(got.kind) + ": " +
                                got.detail);
                bytes += got.bytes.size();
            }
            best = std::min(best, since(t0));
        }
        return best;
    };
    double tParse = pass(false);
    double tScan = pass(true);
    const char* p = name.c_str();
    std::printf(
        "%s_entries=%zu\n%s_scan_fails=%zu\n%s_bytes=%llu\n%s_parse_s=%.6f\n%s_scan_s=%.6f\n", p,
        timed.size(), p, scanFails, p, (unsigned long long)bytes, p, tParse, p, tScan);
    return 0;
}

// How fast each CPU this process may run on is right now at the first read's own work: 4 MiB
// of Blowfish-CBC decryption and 8 MiB of text inflated by ISA-L, pinned to each CPU in turn,
// best of three. A first read that needs both CPUs is bounded by the slower one, while a
// sequential decode runs on the faster: on a shared machine the two can differ for minutes
// (a loop of multiplications alone does not show it: loads and stores do).
int cpuSpeed() {
    Rng rng(11);
    Bytes key(16), cipherText(4 << 20), text(8 << 20);
    fillRandom(rng, key.data(), key.size());
    fillRandom(rng, cipherText.data(), cipherText.size());
    fillText(rng, text.data(), text.size());
    uLongf packedSize = compressBound(uLong(text.size()));
    Bytes packed(packedSize);
    if (compress2(packed.data(), &packedSize, text.data(), uLong(text.size()), 6) != Z_OK)
        throw Error("cpuspeed: compress2 failed");
    Blowfish bf{ByteSpan(key)};
    Bytes buf(cipherText.size()), out(text.size());
    cpu_set_t all;
    if (::sched_getaffinity(0, sizeof all, &all) != 0) throw Error("sched_getaffinity failed");
    std::vector<std::pair<int, double>> ms;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &all)) continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (::sched_setaffinity(0, sizeof one, &one) != 0) continue;
        double best = 1e9;
        for (int r = 0; r < 3; ++r) {
            std::copy(cipherText.begin(), cipherText.end(), buf.begin());
            auto t0 = Clock::now();
            std::uint64_t iv = 42;
            for (std::size_t at = 0; at < buf.size(); at += 256 * 1024)
                bf.cbcDecrypt(buf.data() + at, 256 * 1024, iv);
            if (!isalInflateWhole(packed.data(), packedSize, out))
                throw Error("cpuspeed: ISA-L inflate failed");
            best = std::min(best, since(t0) * 1000);
        }
        ms.emplace_back(cpu, best);
    }
    ::sched_setaffinity(0, sizeof all, &all);
    if (ms.empty()) throw Error("cpuspeed: no CPU to run on");
    double fastest = 1e9, slowest = 0;
    for (auto& [cpu, t] : ms) {
        std::printf("cpuspeed_cpu%d_ms=%.1f\n", cpu, t);
        fastest = std::min(fastest, t);
        slowest = std::max(slowest, t);
    }
    // The slowest CPU's speed as a fraction of the fastest's.
    std::printf("cpuspeed_slowest=%.2f\n", fastest / slowest);
    return 0;
}

int usage() {
    std::fprintf(stderr,
                 "usage: pakbench make-packs DIR [--scale S] [--entries N] [--level L]\n"
                 "       pakbench key\n"
                 "       pakbench text BYTES SEED\n"
                 "       pakbench limit PAK\n"
                 "       pakbench cipher [--mib N] [--runs R]\n"
                 "       pakbench randread FILE [--count N] [--first-at FRACTION]\n"
                 "       pakbench seqread PAK --offset N [--runs R]\n"
                 "       pakbench firstread PAK --offset N [--runs R]\n"
                 "       pakbench fsread PAK [--count N] [--no-seek]\n"
                 "       pakbench mount READY-PATH -- PROGRAM ARGS...\n"
                 "       pakbench gbxscan DIR [--files N] [--runs R] [--engine]\n"
                 "       pakbench cpuspeed\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    std::string mode = argv[1];
    std::map<std::string, std::string> opt;
    std::vector<std::string> pos;
    int rest = argc;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") {
            rest = i + 1;
            break;
        }
        if (a == "--no-seek" || a == "--engine")  // flags without a value
            opt[a] = "1";
        else if (a.rfind("--", 0) == 0 && i + 1 < argc)
            opt[a] = argv[++i];
        else
            pos.push_back(a);
    }
    auto num = [&](const char* name, double dflt) {
        return opt.count(name) ? std::stod(opt[name]) : dflt;
    };
    try {
        if (mode == "make-packs" && pos.size() == 1)
            return makePacks(pos[0], num("--scale", 1), std::size_t(num("--entries", 100000)),
                             int(num("--level", 6)));
        if (mode == "key") return std::printf("%s\n", keyHex().c_str()) < 0;
        if (mode == "text" && pos.size() == 2) {
            // Markup-like text on standard output (the bench's mixed tree).
            Rng rng(std::stoull(pos[1]));
            Bytes text(std::stoull(pos[0]));
            fillText(rng, text.data(), text.size());
            return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() ? 0 : 1;
        }
        if (mode == "limit" && pos.size() == 1) return limit(pos[0]);
        if (mode == "cipher") return cipher(std::size_t(num("--mib", 64)), int(num("--runs", 3)));
        if (mode == "randread" && pos.size() == 1)
            return randRead(pos[0], std::size_t(num("--count", 200)), 4096, num("--first-at", -1));
        if (mode == "seqread" && pos.size() == 1)
            return seqRead(pos[0], std::uint64_t(num("--offset", 0)), int(num("--runs", 3)));
        if (mode == "firstread" && pos.size() == 1)
            return firstRead(pos[0], std::uint64_t(num("--offset", 0)), int(num("--runs", 3)));
        if (mode == "fsread" && pos.size() == 1)
            return fsRead(pos[0], std::size_t(num("--count", 200)), !opt.count("--no-seek"));
        if (mode == "mount" && pos.size() == 1 && rest < argc) return mount(pos[0], argv + rest);
        if (mode == "cpuspeed" && pos.empty()) return cpuSpeed();
        if (mode == "gbxscan" && pos.size() == 1)
            return gbxScan(pos[0], std::size_t(num("--files", 2000)), int(num("--runs", 3)),
                           opt.count("--engine") != 0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pakbench: %s\n", e.what());
        return 1;
    }
    return usage();
}
