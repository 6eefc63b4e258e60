// SPDX-License-Identifier: GPL-2.0-or-later
// Real gbx files written by the games, checked against the fixture manifest.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "gbx/Describe.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/HeaderChunks.hpp"
#include "tests/support/Shared.hpp"
#include "tests/support/TestUtil.hpp"

using namespace pakfs;
using namespace pakfs::gbx;
namespace fs = std::filesystem;

namespace {

using test::readFile;

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    if (!s.empty() && s.back() == sep) out.push_back("");
    return out;
}

using Row = std::map<std::string, std::string>;

std::vector<Row> readManifest(const fs::path& dir) {
    std::ifstream in(dir / "MANIFEST.tsv");
    std::string line;
    std::getline(in, line);
    auto cols = split(line, '\t');
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto vals = split(line, '\t');
        vals.resize(cols.size());
        Row r;
        for (std::size_t i = 0; i < cols.size(); ++i) r[cols[i]] = vals[i];
        rows.push_back(std::move(r));
    }
    return rows;
}

std::string externalsField(const GbxFile& f) {
    std::string out;
    for (const auto& e : f.refs.externals) {
        if (!out.empty()) out += ';';
        out += std::to_string(e.flags) + '|';
        out += e.byResource() ? std::to_string(e.resourceIndex) : e.name;
        out += '|' + std::to_string(e.nodeIndex) + '|' + (e.useFile ? "1" : "0") + '|';
        if (e.folderIndex) out += std::to_string(*e.folderIndex);
    }
    return out;
}

}  // namespace

TEST_CASE("every fixture's header, references and body match the manifest", "[gbx][fixtures]") {
    fs::path dir = test::sharedDir("fixtures/gbx");
    auto rows = readManifest(dir);
    REQUIRE(rows.size() >= 40);
    std::size_t gbxFiles = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::string ext = entry.path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
        if (ext == ".gbx") ++gbxFiles;
    }
    CHECK(gbxFiles == rows.size());

    for (const auto& row : rows) {
        const std::string& name = row.at("file");
        INFO("fixture " << name);
        Bytes data = readFile(dir / name);
        REQUIRE(std::to_string(data.size()) == row.at("size"));
        MemorySource src(data);
        ReadOptions opts;
        opts.readNodes = false;
        opts.keepBody = true;
        GbxFile f = readGbx(src, nullptr, opts);
        CHECK(std::to_string(f.header.version) == row.at("gbx_version"));
        CHECK(f.header.format == row.at("format"));
        CHECK(hex32(f.header.classId) == row.at("class_id"));
        CHECK(std::to_string(f.header.chunks.size()) == row.at("num_header_chunks"));
        std::string ids;
        for (const auto& c : f.header.chunks) ids += (ids.empty() ? "" : ",") + headerChunkLabel(c);
        CHECK(ids == row.at("header_chunk_ids"));
        CHECK(std::to_string(f.header.userDataSize) == row.at("user_data_size"));
        CHECK(std::to_string(f.header.numNodes) == row.at("num_nodes"));
        CHECK(std::to_string(f.refs.externals.size()) == row.at("num_external_nodes"));
        CHECK((f.refs.externals.empty() ? std::string() : std::to_string(f.refs.ancestorLevel)) ==
              row.at("ancestor_level"));
        CHECK(externalsField(f) == row.at("external_refs"));
        CHECK((f.body.compressed ? "yes" : "no") == row.at("body_compressed"));
        CHECK(std::to_string(f.body.uncompressedSize) == row.at("body_uncompressed_size"));
        CHECK((f.body.compressed ? std::to_string(f.body.compressedSize) : std::string()) ==
              row.at("body_compressed_size"));
        CHECK(f.bodyData.size() == f.body.uncompressedSize);
        CHECK(test::sha256Hex(f.bodyData) == row.at("body_sha256"));
        CHECK(test::sha256Hex(data) == row.at("sha256"));

        // The header alone ("dataless" gbx, as a pak's metadata stores it) reads to the same end.
        MemorySource headerOnly(ByteSpan(data).first(std::size_t(f.header.size)));
        GbxHeader h = readHeader(headerOnly);
        CHECK(h.size == f.header.size);
        CHECK(headerOnly.remaining() == 0u);
        CHECK(h.numNodes == f.header.numNodes);

        // Header chunks with a reader take exactly their size, each with fresh lookback state.
        for (const auto& info : decodeHeaderChunks(f.header)) {
            INFO("header chunk " << hex32(info.id) << ": " << info.error);
            if (info.known) CHECK(info.ok);
        }
    }
}

namespace {

// Fixtures whose body reads fully into nodes. A file listed here must keep reading fully.
const std::set<std::string> kFullyParsed = {
    "Alive.Map.Gbx",
    "B13-Obstacle______a___a_00_24__93_.Replay.Gbx",
    "BaseValley.Map.Gbx",  // the only uncompressed body: its nodes drive the pak cipher
    "Bench.Replay.Gbx",
    "Bruno_B13-Obstacle.Replay.gbx",
    "DemoRaceB1.Challenge.Gbx",
    "ESL-Hockolicious.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge MP3 001.Map.Gbx",
    "GBX-NET 2 CGameCtnChallenge MP4 001.Map.Gbx",
    "GBX-NET 2 CGameCtnChallenge TM10 001.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge TM2020 001.Map.Gbx",
    "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge TMF 002.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge TMNESWC 001.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge TMPU 001.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge TMSX 001.Challenge.Gbx",
    "GBX-NET 2 CGameCtnChallenge TMU 001.Challenge.Gbx",
    "GBX-NET 2 CGameCtnGhost MP4 001.Ghost.Gbx",
    "GBX-NET 2 CGameCtnGhost TM2020 001.Ghost.Gbx",
    "GBX-NET 2 CGameCtnMacroBlockInfo MP4 001.Macroblock.Gbx",
    "GBX-NET 2 CGameCtnMacroBlockInfo TM2020 001.Macroblock.Gbx",
    "GBX-NET 2 CGameCtnMediaClip MP4 001.Clip.Gbx",
    "GBX-NET 2 CGameCtnMediaClip TM2020 001.Clip.Gbx",
    "GBX-NET 2 CGameCtnMediaClip TMF 001.Clip.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord MP4 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TM10 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TM2020 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TMF 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TMNESWC 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TMPU 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TMSX 001.Replay.Gbx",
    "GBX-NET 2 CGameCtnReplayRecord TMU 001.Replay.Gbx",
    "GBX-NET 2 CGameItemModel MP4 002.Item.Gbx",
    "GBX-NET 2 CGameItemModel MP4 003.Item.Gbx",
    "GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx",
    "GBX-NET 2 CGameItemModel TM2020 005.Item.Gbx",
    "GBX-NET 2 CSystemConfig MP3 001.SystemConfig.Gbx",
    "GBX-NET 2 CSystemConfig MP4 001.SystemConfig.Gbx",
    "GBX-NET 2 CSystemConfig TMF 001.SystemConfig.Gbx",
    "Gosu_B13-Obstacle_WR.Replay.Gbx",
    "Kackiest_Kacky_27.Challenge.Gbx",
    "Lavender Town.Replay.Gbx",
    "Lunatic_Extreme_04.Challenge.Gbx",
    "Simple TECH 1.Replay.gbx",
    "StarBayC3 01.Replay.Gbx",
    "StuntC1.Challenge.Gbx",
    "TMN Race I-9 idea 1.Challenge.Gbx",
    "User_mydli mydli.Replay.gbx",
    "password.Challenge.Gbx",
    "test.Challenge.Gbx",
};

}  // namespace

TEST_CASE("fixture bodies read into nodes (summary)", "[gbx][fixtures][nodes]") {
    fs::path dir = test::sharedDir("fixtures/gbx");
    auto rows = readManifest(dir);
    std::size_t complete = 0;
    std::ostringstream summary;
    std::set<std::string> full;
    for (const auto& row : rows) {
        const std::string& name = row.at("file");
        Bytes data = readFile(dir / name);
        MemorySource src(data);
        GbxFile f = readGbxPartial(src);
        // Reading never goes past the header stages on these files: only the node tree can stop.
        REQUIRE(f.reached >= ReadStage::Nodes);
        if (f.nodesComplete) {
            ++complete;
            full.insert(name);
            summary << "  full     " << name << ": " << f.nodes.size() << " nodes";
            if (f.trailingBytes) summary << ", " << f.trailingBytes << " bytes after the main node";
            summary << "\n";
            CHECK(f.trailingBytes == 0);
        } else {
            REQUIRE(f.failure);
            summary << "  stopped  " << name << ": " << f.nodes.size() << " nodes; "
                    << f.failure->message << "\n";
        }
    }
    std::printf("gbx fixtures read fully into nodes: %zu of %zu\n%s", complete, rows.size(),
                summary.str().c_str());
    std::fflush(stdout);
    for (const auto& name : kFullyParsed) {
        INFO("fixture " << name << " no longer reads fully");
        CHECK(full.count(name) == 1);
    }
    // A newly parsing file must be added to the list, so that it stays parsing.
    for (const auto& name : full) {
        INFO("fixture " << name << " now reads fully: add it to kFullyParsed");
        CHECK(kFullyParsed.count(name) == 1);
    }
}
