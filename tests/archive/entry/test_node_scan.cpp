// SPDX-License-Identifier: GPL-2.0-or-later
// The node scan on generated gbx files of classes no chunk reader knows, encrypted here the way
// the game's reader would decode them (from the true node reads, under either skippable-chunk
// rule): every compressed entry decodes byte-exactly, every stored one is exact, parsed or
// refused, and nothing comes back wrong.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <random>

#include "archive/entry/GbxEntry.hpp"
#include "archive/entry/NodeScan.hpp"
#include "archive/pak/PakIndex.hpp"
#include "archive/write/EntryEncoder.hpp"
#include "archive/write/PakWriter.hpp"
#include "gbx/Classes.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/PackWarnings.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::archive;
namespace stdfs = std::filesystem;

namespace {

// Plug classes in the class table whose chunks (and their ancestors') no reader knows.
const std::uint32_t kClasses[] = {0x0901A000, 0x09001000, 0x09041000, 0x09020000,
                                  0x0903D000, 0x09025000, 0x09052000, 0x09019000};

struct TrueRead {
    NodeRead read;
    bool inSkippable = false;
};

struct GeneratedGbx {
    Bytes content;
    std::uint32_t numNodes = 0;
    std::vector<TrueRead> reads;  // every node read, as the game's reader meets them
};

// Writes a gbx file whose nodes have chunks no reader knows, remembering where each node read
// happens. `aim`: 0 anywhere, else node reads aimed at multiples of `aim` and up to 8 bytes past.
class Generator {
public:
    // imitations: how many runs of data imitate a node read (each in its own node's data).
    Generator(std::uint32_t seed, std::uint32_t aim, int imitations = 1)
        : rng_(seed), aim_(aim), imitationsLeft_(imitations) {}

    GeneratedGbx make() {
        gbx::GbxBuilder b;
        b.classId = pick();
        b.numNodes = 2 + std::uint32_t(rng_() % 24);
        gbx::ExternalRef ext;
        ext.flags = 1;
        ext.name = "Other.Texture.Gbx";
        ext.nodeIndex = b.numNodes - 1;
        b.refs.ancestorLevel = 0;
        b.refs.externals.push_back(ext);
        external_ = ext.nodeIndex;
        for (std::uint32_t i = 1; i + 1 < b.numNodes; ++i) free_.push_back(i);
        std::shuffle(free_.begin(), free_.end(), rng_);  // node indexes in any order
        bodyOffset_ = b.bodyOffset();
        GeneratedGbx g;
        g.numNodes = b.numNodes;
        reads_.push_back({{bodyOffset_, gbx::ivXorClassInput(b.classId)}, false});
        node(b.classId, 0);
        b.body = w_.bytes();
        g.content = b.build();
        REQUIRE(b.bodyOffset() == bodyOffset_);
        g.reads = reads_;
        return g;
    }

private:
    std::uint32_t pick() { return kClasses[rng_() % std::size(kClasses)]; }
    std::uint32_t chunkIdFor(std::uint32_t cls, bool first) {
        auto parent = gbx::ClassRegistry::builtin().parent(cls);
        switch (rng_() % 3) {
            case 0:
                return first ? cls : cls | (1 + rng_() % 0x30);  // chunk number 0
            case 1:
                if (parent) return *parent | (rng_() % 0x20);  // an ancestor's chunk
                [[fallthrough]];
            default:
                return cls | (rng_() % 0x30);
        }
    }

    void node(std::uint32_t cls, int depth) {
        int chunks = 1 + int(rng_() % 3);
        for (int c = 0; c < chunks; ++c) {
            std::uint32_t id = chunkIdFor(cls, c == 0);
            bool skippable = rng_() % 3 == 0;
            if (skippable) {
                w_.beginSkippable(id);
                ++inSkippable_;
            } else {
                w_.chunk(id);
            }
            data(depth);
            if (skippable) {
                w_.endSkippable();
                --inSkippable_;
            }
        }
        w_.endNode();
    }

    void data(int depth) {
        int items = 1 + int(rng_() % 7);
        for (int i = 0; i < items; ++i) {
            switch (rng_() % 11) {
                case 0:
                    w_.u32(rng_() % 2 ? rng_() : rng_() % 100);
                    break;
                case 1:
                    w_.f32(float(rng_() % 100000) / 7.0f);
                    break;
                case 2:
                    w_.string(std::string(rng_() % 40, char('a' + rng_() % 26)));
                    break;
                case 3:
                    if (!read_.empty()) w_.ref(read_[rng_() % read_.size()]);  // back-reference
                    break;
                case 4:
                    w_.nullRef();
                    break;
                case 5:
                    w_.ref(external_);
                    break;
                case 6:
                case 7:
                case 8:
                    if (depth < 3 && !free_.empty()) child(depth + 1);
                    break;
                case 9:
                    // Data that imitates a node read: an index not read yet, a class, a chunk of
                    // that class. One a file at most: a real file rarely holds any.
                    if (!free_.empty() && imitationsLeft_ > 0) {
                        --imitationsLeft_;
                        std::uint32_t cls = pick();
                        w_.u32(free_[rng_() % free_.size()]);
                        w_.u32(cls);
                        w_.u32(cls | (rng_() % 0x10));
                    }
                    break;
                default: {
                    std::size_t n = rng_() % 300;
                    for (std::size_t k = 0; k < n; ++k) w_.u8(std::uint8_t(rng_()));
                }
            }
        }
    }

    void child(int depth) {
        std::uint32_t index = free_.back();
        free_.pop_back();
        std::uint32_t cls = pick();
        if (aim_) {
            // Land the read (the position after the class ID) on a boundary or up to 8 after.
            std::uint64_t p = bodyOffset_ + w_.size() + 8;
            std::uint64_t target = (p + aim_ - 1) / aim_ * aim_ + rng_() % 9;
            if (target - p < 700)
                for (std::uint64_t k = p; k < target; ++k) w_.u8(std::uint8_t(rng_()));
        }
        std::uint64_t p = bodyOffset_ + w_.newNode(index, cls);
        reads_.push_back({{p, gbx::ivXorClassInput(cls)}, inSkippable_ > 0});
        read_.push_back(index);
        node(cls, depth);
    }

    std::mt19937 rng_;
    std::uint32_t aim_;
    gbx::BodyWriter w_;
    std::uint64_t bodyOffset_ = 0;
    std::uint32_t external_ = 0;
    std::vector<std::uint32_t> free_, read_;
    std::vector<TrueRead> reads_;
    int inSkippable_ = 0;
    int imitationsLeft_ = 1;
};

// The ivXor the game's reader holds at each segment of `payload`, from the true node reads.
std::vector<std::uint64_t> trueSchedule(const GeneratedGbx& g, ByteSpan payload, bool compressed,
                                        bool foldInSkippable) {
    Bytes padded(payload.begin(), payload.end());
    padded.resize(roundUp8(padded.size()), 0);
    PipelineSpec spec{ByteRange(ByteSpan(padded))};
    spec.compressed = compressed;
    spec.compressedSize = payload.size();
    spec.size = g.content.size();
    spec.name = "generated";
    NodeScanInput in;
    in.start = g.content.size();  // every node read is given: nothing to scan
    in.numNodes = g.numNodes;
    for (const auto& r : g.reads)
        if (!r.inSkippable || foldInSkippable) in.exact.push_back(r.read);
    NodeScanResult sim = scanDecode(spec, in);
    REQUIRE(sim.ok);
    REQUIRE(sim.bytes == g.content);
    return sim.applied;
}

// Packs the files of `tree` into `pak`, each encrypted the way the game's reader decodes it:
// from its true node reads, under the given skippable-chunk rule.
void packAsTheGameWould(const stdfs::path& tree, const stdfs::path& pak,
                        const std::map<std::string, GeneratedGbx>& files, int level, bool fold) {
    PackOptions o;
    o.level = level;
    o.rawGlobs = {"*.Gbx"};  // encrypted below, from the true node reads
    writePak(tree, pak, test::testKey(), o);
    auto index = PakIndex::open(pak, test::testKey());
    Blowfish cipher(test::testKey());
    std::fstream f(pak, std::ios::in | std::ios::out | std::ios::binary);
    for (const auto& e : index->entries()) {
        const GeneratedGbx& g = files.at(e.path);
        Bytes payload = e.compressed() ? zlibCompress(g.content, level, e.path) : g.content;
        REQUIRE(roundUp8(payload.size()) == e.cipherSize());
        auto schedule = trueSchedule(g, payload, e.compressed(), fold);
        Bytes iv = index->file()->readAt(index->entryOffset(e), 8);
        payload.resize(e.cipherSize(), 0);
        encryptSegments(payload, loadLE64(iv.data()), schedule, cipher);
        f.seekp(std::streamoff(index->entryOffset(e) + 8));
        f.write(reinterpret_cast<const char*>(payload.data()), std::streamsize(payload.size()));
    }
}

}  // namespace

TEST_CASE("node scan: generated gbx files of unknown chunks, encrypted as the game would",
          "[node-scan]") {
    const std::uint32_t aims[] = {0, 256, 0x400};
    std::map<std::string, int> seen;
    for (bool fold : {false, true}) {
        for (int level : {0, 1, 6, 9}) {
            INFO("fold " << fold << ", level " << level);
            test::TempDir tree, out;
            std::map<std::string, GeneratedGbx> files;
            for (std::uint32_t i = 0; i < 12; ++i) {
                std::string name = "g" + std::to_string(i) + ".Solid.Gbx";
                files[name] =
                    Generator(i * 7919 + std::uint32_t(level) * 31 + fold, aims[i % 3]).make();
                test::writeFile(tree / name, files[name].content);
            }
            packAsTheGameWould(tree.path(), out / "g.pak", files, level, fold);
            auto pak = PakIndex::open(out / "g.pak", test::testKey());
            for (const auto& e : pak->entries()) {
                INFO(e.path << (e.compressed() ? " compressed" : " stored"));
                GbxDecode d = decodeGbxEntryProven(pak, e);
                INFO(d.detail);
                ++seen[std::string(e.compressed() ? "zlib " : "stored ") +
                       gbxDecodeKindName(d.kind)];
                if (e.compressed()) {
                    CHECK((d.kind == GbxDecodeKind::Verified || d.kind == GbxDecodeKind::Parsed));
                } else {
                    CHECK((d.kind == GbxDecodeKind::Exact || d.kind == GbxDecodeKind::Parsed ||
                           d.kind == GbxDecodeKind::Refused));
                }
                if (d.kind != GbxDecodeKind::Refused) CHECK(d.bytes == files.at(e.path).content);
            }
        }
    }
    for (const auto& [k, n] : seen) UNSCOPED_INFO(k << ": " << n);
    CHECK(seen["zlib verified"] >= 40);
    CHECK(seen["stored refused"] >= 10);
}

TEST_CASE("node scan: what pak pack writes, pak reads back proven, under both rules",
          "[node-scan]") {
    for (bool fold : {false, true}) {
        for (int level : {0, 9}) {
            INFO("fold " << fold << ", level " << level);
            test::TempDir tree, out;
            std::map<std::string, Bytes> files;
            for (std::uint32_t i = 0; i < 8; ++i) {
                std::string name = "w" + std::to_string(i) + ".Solid.Gbx";
                files[name] = Generator(i * 104729 + 5, i % 2 ? 256 : 0).make().content;
                test::writeFile(tree / name, files[name]);
            }
            PackOptions o;
            o.level = level;
            o.gbxRules.nodesInSkippableChunksMixIvXor = fold;
            const auto warnings =
                test::packWarnings(tree.path(), out / "w.pak", test::testKey(), o);
            // Files whose main node has only skippable chunks parse whole (no warning).
            CHECK(warnings.size() >= files.size() - 2);
            for (const auto& w : warnings)
                CHECK(w.find(": chunks no reader knows: the cipher is planned from ") !=
                      std::string::npos);
            auto pak = PakIndex::open(out / "w.pak", test::testKey());
            for (const auto& e : pak->entries()) {
                INFO(e.path);
                GbxDecode d = decodeGbxEntryProven(pak, e);
                INFO(d.detail);
                CHECK((e.compressed() || e.uncompressedSize <= 256));
                CHECK(d.kind != GbxDecodeKind::Refused);
                CHECK(d.bytes == files.at(e.path));
            }
        }
    }
}

TEST_CASE(
    "node scan: data imitating many node reads ends in a refusal or the right bytes, in "
    "bounded work",
    "[node-scan][errors]") {
    test::TempDir tree, out;
    std::map<std::string, GeneratedGbx> files;
    for (std::uint32_t i = 0; i < 8; ++i) {
        std::string name = "i" + std::to_string(i) + ".Solid.Gbx";
        files[name] = Generator(i * 31337 + 11, 0, 6).make();
        test::writeFile(tree / name, files[name].content);
    }
    packAsTheGameWould(tree.path(), out / "i.pak", files, 9, false);
    auto pak = PakIndex::open(out / "i.pak", test::testKey());
    int refused = 0, right = 0;
    for (const auto& e : pak->entries()) {
        INFO(e.path);
        REQUIRE(e.compressed());
        GbxDecode d = decodeGbxEntryProven(pak, e);
        INFO(d.detail);
        if (d.kind == GbxDecodeKind::Refused) {
            ++refused;
            CHECK(d.bytes.empty());
            CHECK((d.detail.find("no way of folding the node reads found decodes it") !=
                       std::string::npos ||
                   d.detail.find(" tries (first try: ") != std::string::npos));
        } else {
            ++right;
            CHECK(d.bytes == files.at(e.path).content);
        }
    }
    // Six imitations a file defeat a search that changes one guess: some are refused.
    CHECK(refused >= 1);
    CHECK(refused + right == 8);
}
