// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the two gbx files of sample/tree/Tracks (committed as data; run again after changing
// this file: build/sample/gbx/make_sample_gbx sample/tree/Tracks).
// - Demo.Challenge.Gbx: a map whose chunks the gbx reader knows, with node reads in several
//   256-byte segments (so the per-node ivXor is at work) and an external reference to
//   Demo.Solid.Gbx beside it.
// - Demo.Solid.Gbx: a CPlugSolid with chunks no reader knows and nested nodes: pak finds its
//   node reads with the node scan, and proves the decode with zlib's Adler-32.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gbx/testing/GbxBuilder.hpp"

using namespace pakfs;

namespace {

void write(const std::filesystem::path& path, const Bytes& data) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Text the reader skips (an unknown skippable chunk), so the next node read lands further on.
void note(gbx::BodyWriter& w, const std::string& text) {
    w.beginSkippable(0x03043099);
    w.raw(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    w.endSkippable();
}

Bytes challenge() {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;  // CGameCtnChallenge
    b.numNodes = 8;
    gbx::ExternalRef solid;
    solid.flags = 1;
    solid.name = "Demo.Solid.Gbx";
    solid.nodeIndex = 7;
    solid.folderIndex = 0;  // the map's own folder
    b.refs.externals.push_back(solid);
    gbx::BodyWriter w;
    // Checkpoint times as text: they compress less than prose, so the node reads land in
    // different 256-byte segments of the zlib stream too.
    std::uint32_t x = 12345;
    for (std::uint32_t i = 0; i < 3; ++i) {
        std::string text = "checkpoint times:";
        while (text.size() < 700) {
            x = x * 1103515245u + 12345u;
            text += " " + std::to_string(x >> 16 & 0xFFFF);
        }
        note(w, text);
        w.chunk(0x03043011);  // collector list and parameters
        w.newNode(1 + 2 * i, 0x0301B000);
        w.chunk(0x0301B000);
        w.u32(0);
        w.endNode();
        w.newNode(2 + 2 * i, 0x0305B000);
        w.chunk(0x0305B001);
        for (const char* tip : {"Brake early.", "Take the inside line.", "Mind the loop.", "GG"})
            w.string(tip);
        w.endNode();
        w.u32(8);
    }
    w.chunk(0x03043021);  // the map's references: none, the solid's external slot, none
    w.nullRef();
    w.ref(7);
    w.nullRef();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

Bytes solid() {
    gbx::GbxBuilder b;
    b.classId = 0x09005000;  // CPlugSolid, with chunk numbers no reader knows (0A0, 0A1)
    b.numNodes = 4;
    gbx::BodyWriter w;
    w.chunk(0x090050A0);
    w.u32(3);
    for (int i = 0; i < 40; ++i) w.f32(float(i) * 0.25f);
    w.newNode(1, 0x0904F000);  // CPlugTree
    w.chunk(0x0904F0A0);
    for (int i = 0; i < 30; ++i) w.u32(std::uint32_t(i * 7));
    w.newNode(2, 0x09006000);  // CPlugVisual, inside the tree
    w.chunk(0x090060A0);
    w.string("sample visual");
    for (int i = 0; i < 24; ++i) w.f32(float(i));
    w.endNode();
    w.endNode();
    w.chunk(0x090050A1);
    w.newNode(3, 0x09011000);  // CPlugBitmap
    w.chunk(0x090110A0);
    w.string("Demo.dds");
    w.endNode();
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_sample_gbx DIR\n");
        return 2;
    }
    std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    write(dir / "Demo.Challenge.Gbx", challenge());
    write(dir / "Demo.Solid.Gbx", solid());
    return 0;
}
