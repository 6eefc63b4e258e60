// SPDX-License-Identifier: GPL-2.0-or-later
// The bad-input matrix over real (tmpaktool) and generated packs: truncation, bit flips,
// wrong keys, hostile counts, sizes and offsets, folder loops and hostile names. Each case must
// end with a clear error or a sanitized result, in bounded time and memory, and extraction
// must never write outside its target folder (Harness.hpp).
#include <catch2/catch.hpp>

#include <climits>
#include <fstream>
#include <functional>
#include <random>

#include "tests/hostile/Harness.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
using namespace pakfs::hostile;
namespace fs = std::filesystem;

namespace {

struct Source {
    std::string name;
    fs::path path;
    PakKey key{};
    Bytes bytes;
    PakModel model;
    std::uint32_t dataOffset = 0, metaOffset = 0;
};

Source load(const std::string& name, const fs::path& path, const PakKey& key) {
    Source s{name, path, key, readBytes(path), PakModel::read(path, key), 0, 0};
    auto pak = PakIndex::open(path, key);
    s.dataOffset = pak->dataOffset();
    s.metaOffset = pak->metaDataOffset();
    return s;
}

std::vector<Source> generatedSources(const test::TempDir& dir) {
    std::vector<Source> out;
    for (int v : {0, 1})
        out.push_back(
            load("generated" + std::to_string(v), generatedPak(dir.path(), v), test::testKey()));
    return out;
}

std::vector<Source> fixtureSources() {
    fs::path dir = test::sharedDir("fixtures/tmpaktool");
    std::vector<Source> out;
    for (const char* name : {"tmpak_a_mixed", "tmpak_b_deep", "tmpak_c_rootfiles",
                             "tmpak_d_metadata", "tmpak_e_short3rd_noivxor"}) {
        std::ifstream in(dir / (std::string(name) + ".manifest.tsv"));
        std::string line;
        std::getline(in, line);  // "# key <hex>"
        PakKey key{};
        REQUIRE(parseHex(line.substr(6, 32), key));
        out.push_back(load(name, dir / (std::string(name) + ".pak"), key));
    }
    return out;
}

using Mutations = std::function<void(const Source&, const fs::path& work)>;

void forSources(const std::vector<Source>& sources, const Mutations& fn) {
    ScratchDir work;
    for (const auto& s : sources) {
        INFO("source " << s.name);
        fn(s, work / "case");
    }
}

// ---- the mutations ------------------------------------------------------------------------

void truncations(const Source& s, const fs::path& work) {
    std::set<std::size_t> cuts = {0, 8, 11, 12, 19, 20, 27, 28, 60, 64, 255, 256, 257};
    const std::size_t n = s.bytes.size();
    for (std::size_t k = 1; k < 8; ++k)
        cuts.insert(kHeaderCryptStart + (s.dataOffset - 20) * k / 8);
    for (std::size_t d : {s.dataOffset - 1, s.dataOffset, s.dataOffset + 1u, s.dataOffset + 8u})
        cuts.insert(d);
    for (std::size_t k = 1; k < 8; ++k) cuts.insert(s.dataOffset + (n - s.dataOffset) * k / 8);
    if (s.metaOffset)
        for (std::size_t d :
             {s.metaOffset - 1u, s.metaOffset, s.metaOffset + 8u, s.metaOffset + 9u})
            cuts.insert(d);
    for (std::size_t d : {n - 257, n - 256, n - 9, n - 8, n - 1}) cuts.insert(d);
    for (std::size_t c : cuts) {
        if (c >= n) continue;
        runCase(work, s.name + " cut at " + std::to_string(c), ByteSpan(s.bytes).first(c), s.key);
    }
}

void cipherFlips(const Source& s, const fs::path& work) {
    std::mt19937 rng(std::uint32_t(s.bytes.size()));
    auto flipIn = [&](std::size_t from, std::size_t to, int count, const char* where) {
        for (int i = 0; i < count && to > from; ++i) {
            Bytes b = s.bytes;
            std::size_t at = from + rng() % (to - from);
            b[at] ^= std::uint8_t(1u << (rng() % 8));
            auto o =
                runCase(work, s.name + " flip in " + where + " at " + std::to_string(at), b, s.key);
            // The header MD5 catches every flip in the encrypted header.
            if (std::string(where) == "header") CHECK_FALSE(o.opened);
        }
    };
    flipIn(kHeaderCryptStart, s.dataOffset - 8, 8, "header");  // the last block may be padding
    flipIn(s.dataOffset, s.metaOffset ? s.metaOffset : s.bytes.size(), 8, "data");
    if (s.metaOffset) flipIn(s.metaOffset, s.bytes.size(), 4, "metadata");
}

void plainFlips(const Source& s, const fs::path& work) {
    Bytes plain = s.model.headerPlain();
    std::mt19937 rng(std::uint32_t(plain.size()));
    for (int i = 0; i < 24; ++i) {
        Bytes p = plain;
        std::size_t at = 16 + rng() % (p.size() - 16);
        p[at] ^= std::uint8_t(1u << (rng() % 8));
        std::fill(p.begin(), p.begin() + 16, 0);
        Md5Digest d = md5(p);
        std::copy(d.begin(), d.end(), p.begin());
        std::uint64_t listEnd = 0;
        auto names = PakModel::folderNamesOf(p, &listEnd);
        runCase(work, s.name + " plaintext flip at " + std::to_string(at),
                PakModel::wrapHeader(p, listEnd, names, s.key, s.model.headerIv,
                                     ByteSpan(s.bytes).subspan(s.dataOffset)),
                s.key);
    }
}

const std::uint32_t kValues[] = {0,   1,          7,          8,          255,
                                 256, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF8, 0xFFFFFFFF};

// The first entry, the largest compressed one and the first gbx one (generated packs).
std::vector<std::size_t> interestingEntries(const Source& s) {
    std::vector<std::size_t> out{0};
    std::size_t big = 0;
    for (std::size_t i = 0; i < s.model.rows.size(); ++i) {
        const auto& r = s.model.rows[i];
        if ((r.flags & kFlagsCompressionMask) &&
            r.compressedSize > s.model.rows[big].compressedSize)
            big = i;
        if (r.name.ends_with(".Gbx") && out.size() < 3 && out.back() != i) out.push_back(i);
    }
    if (big != 0) out.push_back(big);
    return out;
}

void entryFields(const Source& s, const fs::path& work) {
    using Row = PakModel::Row;
    const std::pair<const char*, std::function<void(Row&, std::uint32_t)>> fields[] = {
        {"uncompressedSize", [](Row& r, std::uint32_t v) { r.uncompressedSize = v; }},
        {"compressedSize", [](Row& r, std::uint32_t v) { r.compressedSize = v; }},
        {"offset", [](Row& r, std::uint32_t v) { r.offset = v; }},
        {"folder", [](Row& r, std::uint32_t v) { r.folder = std::int32_t(v); }},
        {"flags", [](Row& r, std::uint32_t v) { r.flags = v; }},
        {"both sizes", [](Row& r, std::uint32_t v) { r.uncompressedSize = r.compressedSize = v; }},
    };
    for (std::size_t index : interestingEntries(s))
        for (const auto& [name, set] : fields)
            for (std::uint32_t v : kValues) {
                PakModel m = s.model;
                set(m.rows[index], v);
                runCase(work,
                        s.name + " entry " + std::to_string(index) + " " + name + "=" +
                            std::to_string(v),
                        m.build(s.key), s.key, Scope::OneEntry, index);
            }
}

void headerFields(const Source& s, const fs::path& work) {
    const std::pair<const char*, std::function<void(PakModel&, std::uint32_t)>> fields[] = {
        {"metaDataOffset", [](PakModel& m, std::uint32_t v) { m.metaDataOffset = v; }},
        {"dataOffset", [](PakModel& m, std::uint32_t v) { m.dataOffset = v; }},
        {"metaDataUncompressedSize",
         [](PakModel& m, std::uint32_t v) { m.metaDataUncompressedSize = v; }},
        {"metaDataCompressedSize",
         [](PakModel& m, std::uint32_t v) { m.metaDataCompressedSize = v; }},
        {"flags", [](PakModel& m, std::uint32_t v) { m.flags = v; }},
        {"numFolders", [](PakModel& m, std::uint32_t v) { m.numFolders = v; }},
        {"numFiles", [](PakModel& m, std::uint32_t v) { m.numFiles = v; }},
    };
    for (const auto& [name, set] : fields)
        for (std::uint32_t v : kValues) {
            PakModel m = s.model;
            set(m, v);
            runCase(work, s.name + " header " + name + "=" + std::to_string(v), m.build(s.key),
                    s.key);
        }
}

void metadataCases(const Source& s, const fs::path& work) {
    Bytes plain = s.model.metadataPlain(s.key);
    auto withMeta = [&](const std::string& label, ByteSpan p) {
        PakModel m = s.model;
        m.setMetadataPlain(s.key, p);
        auto o = runCase(work, s.name + " metadata " + label, m.build(s.key), s.key);
        CHECK(o.opened);  // a bad metadata section does not stop the pak from being read
    };
    auto record = [](std::uint32_t index, ByteSpan gbx) {
        Bytes out;
        ByteWriter w(out);
        w.u32(index);
        w.bytes(gbx);
        return out;
    };
    Bytes header = gbx::GbxBuilder{}.buildHeader();
    auto terminated = [](Bytes b) {
        ByteWriter(b).u32(0xFFFFFFFF);
        return b;
    };
    const std::uint32_t n = std::uint32_t(s.model.rows.size());
    for (std::uint32_t index : {n, 0x7FFFFFFFu, 0xFFFFFFFEu, 0x80000000u})
        withMeta("index " + std::to_string(index), terminated(record(index, header)));
    withMeta("empty", {});
    withMeta("no terminator", record(0, header));
    Bytes bad = header;
    bad[0] = 'X';
    withMeta("bad magic", terminated(record(0, bad)));
    bad = header;
    bad[3] = 0xFF, bad[4] = 0xFF;
    withMeta("version 0xFFFF", terminated(record(0, bad)));
    bad = header;
    storeLE32(bad.data() + 13, 0xFFFFFFFF);  // user data size of a version 6 header
    withMeta("user data size 0xFFFFFFFF", terminated(record(0, bad)));
    withMeta("duplicate index", terminated([&] {
                 Bytes b = record(0, header);
                 Bytes c = record(0, header);
                 b.insert(b.end(), c.begin(), c.end());
                 return b;
             }()));
    if (!plain.empty()) {
        for (std::size_t k = 1; k < 6; ++k)
            withMeta("cut at " + std::to_string(plain.size() * k / 6),
                     ByteSpan(plain).first(plain.size() * k / 6));
        std::mt19937 rng(7);
        for (int i = 0; i < 6; ++i) {
            Bytes p = plain;
            std::size_t at = rng() % p.size();
            p[at] ^= std::uint8_t(1u << (rng() % 8));
            withMeta("plaintext flip at " + std::to_string(at), p);
        }
    }
}

void folderParents(const Source& s, const fs::path& work) {
    const std::int32_t nf = std::int32_t(s.model.folders.size());
    if (nf == 0) return;
    auto withParents = [&](const std::string& label,
                           const std::vector<std::pair<std::size_t, std::int32_t>>& set) {
        PakModel m = s.model;
        for (auto [i, p] : set)
            if (i < m.folders.size()) m.folders[i].parent = p;
        auto o = runCase(work, s.name + " parents " + label, m.build(s.key), s.key);
        CHECK_FALSE(o.opened);
        CHECK_THAT(o.error, Catch::Contains("damaged header") || Catch::Contains("out of range"));
    };
    withParents("self loop", {{0, 0}});
    withParents("last is own parent", {{std::size_t(nf - 1), nf - 1}});
    if (nf >= 2) withParents("two-cycle", {{0, 1}, {1, 0}});
    if (nf >= 3) withParents("three-cycle", {{0, 1}, {1, 2}, {2, 0}});
    withParents("= numFolders", {{0, nf}});
    withParents("-2", {{0, -2}});
    withParents("INT_MIN", {{0, INT_MIN}});
    withParents("INT_MAX", {{0, INT_MAX}});
}

void hostileNames(const Source& s, const fs::path& work) {
    const std::string abs = (work.parent_path() / "escaped").string();
    const std::string names[] = {"a/b.txt",
                                 "../escaped",
                                 "../../escaped",
                                 "..\\..\\escaped",
                                 "..",
                                 ".",
                                 "",
                                 "/",
                                 abs,
                                 "\\" + abs.substr(1),
                                 std::string("a\0b", 3),
                                 std::string("\0", 1),
                                 "a//b",
                                 "trailing\\",
                                 std::string(300, 'x'),
                                 "sub\\..\\..\\..\\escaped"};
    for (const auto& name : names) {
        // On a root file, on a file in a folder, and as a folder name.
        for (int where = 0; where < 3; ++where) {
            PakModel m = s.model;
            if (where == 0) {
                m.rows[0].folder = -1;
                m.rows[0].name = name;
            } else if (where == 1) {
                m.rows[0].folder = m.folders.empty() ? -1 : 0;
                m.rows[0].name = name;
            } else {
                if (m.folders.empty()) continue;
                m.folders[0].name = name + "\\";
            }
            auto o = runCase(work, s.name + " name \"" + name + "\" where " + std::to_string(where),
                             m.build(s.key), s.key);
            if (where < 2) {
                REQUIRE(o.opened);
                // A name with a "." or ".." component, absolute or empty is refused.
                bool unsafe = name.empty() || name == "." || name == ".." || name == "/" ||
                              name.find("..") != std::string::npos ||
                              name.find('\0') != std::string::npos ||
                              (where == 0 && name.front() == '/');
                if (unsafe) CHECK(o.failed >= 1);
            }
        }
    }
    // Duplicate paths: a second entry with the first one's folder and name, and a file that
    // has a folder's path.
    if (s.model.rows.size() >= 2) {
        PakModel m = s.model;
        m.rows[1].folder = m.rows[0].folder;
        m.rows[1].name = m.rows[0].name;
        auto o = runCase(work, s.name + " duplicate path", m.build(s.key), s.key);
        CHECK(o.failed >= 1);
    }
    if (!s.model.folders.empty() && s.model.rows.size() >= 2) {
        PakModel m = s.model;
        std::int32_t parent = m.folders[0].parent;
        m.rows[1].folder = parent;
        std::string folderName = m.folders[0].name;
        if (!folderName.empty() && folderName.back() == '\\') folderName.pop_back();
        m.rows[1].name = folderName;
        auto o = runCase(work, s.name + " file named like a folder", m.build(s.key), s.key);
        CHECK(o.opened);
    }
}

void wrongKeys(const Source& s, const fs::path& work) {
    PakKey k = s.key;
    k[0] ^= 1;
    PakKey zero{};
    PakKey other = test::testKey();
    other[15] ^= 0x55;
    for (const auto& key : {k, zero, other}) {
        auto o = runCase(work, s.name + " wrong key " + hexString(key), s.bytes, key);
        CHECK_FALSE(o.opened);
        CHECK_THAT(o.error, Catch::Contains("wrong key or damaged header"));
    }
}

void counted(const char* what, const std::vector<Source>& sources, const Mutations& fn) {
    CaseCount count(what);
    forSources(sources, fn);
}

}  // namespace

// clang-format off
#define PAKFS_MATRIX(tag, fn, title)                                                 \
    TEST_CASE("generated packs: " title, "[hostile][matrix]") {                     \
        test::TempDir dir;                                                           \
        counted("generated: " title, generatedSources(dir), fn);                     \
    }                                                                                \
    TEST_CASE("tmpaktool packs: " title, "[hostile][matrix][fixtures]") {           \
        counted("tmpaktool: " title, fixtureSources(), fn);                          \
    }
// clang-format on

PAKFS_MATRIX(trunc, truncations, "truncation at many points")
PAKFS_MATRIX(cflip, cipherFlips, "bit flips in the encrypted header, data and metadata")
PAKFS_MATRIX(pflip, plainFlips, "bit flips in the header plaintext, re-encrypted")
PAKFS_MATRIX(entry, entryFields, "entry sizes, offsets, folders and flags up to 0xFFFFFFFF")
PAKFS_MATRIX(header, headerFields, "header offsets, sizes and counts up to 0xFFFFFFFF")
PAKFS_MATRIX(meta, metadataCases, "hostile metadata records")
PAKFS_MATRIX(parents, folderParents, "folder parents that loop or point out of range")
PAKFS_MATRIX(names, hostileNames, "names with /, .., absolute paths, NUL, empty, duplicates")
PAKFS_MATRIX(keys, wrongKeys, "wrong keys")
