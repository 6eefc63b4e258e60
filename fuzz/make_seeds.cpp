// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the seed corpora of the fuzz targets into OUTDIR/<target>/, from the test generators
// (writePak, GbxBuilder, gbx::engine), so no binary seed is kept in the repository.
#include <cstdio>

#include "archive/codec/Lz4.hpp"
#include "archive/pak/PackList.hpp"
#include "archive/write/PakWriter.hpp"
#include "fuzz/OverlayOps.hpp"
#include "gbx/testing/EngineBuilder.hpp"
#include "tests/gbx/GameClassFiles.hpp"
#include "tests/hostile/Generators.hpp"

using namespace pakfs;
using namespace pakfs::fuzz;
namespace fs = std::filesystem;

namespace {

void seed(const fs::path& dir, const std::string& name, ByteSpan data) {
    hostile::writeBytes(dir / name, data);
}

Bytes prefixed(std::initializer_list<std::uint8_t> head, ByteSpan rest) {
    Bytes out(head);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

// A version 6+ pack's public header after the magic, with the fuzz target's version byte in
// front: every field the reader knows for `version`, and one included pack.
Bytes packGbxHeaderSeed(std::uint32_t version) {
    Bytes out{std::uint8_t(version - 6)};
    ByteWriter w(out);
    auto author = [&] {
        w.u32(0);
        for (const char* s : {"login", "Nick", "World|Europe", ""}) w.string(s);
    };
    w.bytes(Bytes(32, 0xC5));  // contents checksum
    w.u32(1);                  // decrypt flags
    if (version < 9) {
        if (version >= 7) {
            author();
            w.string("comment");
            w.bytes(Bytes(16, 0));
            if (version >= 8) {
                w.string("build");
                w.string("http://author");
            }
        }
        return out;
    }
    if (version >= 15) w.u32(0x10000);
    author();
    w.string("manialink");
    if (version >= 13) w.string("http://download");
    w.u64(0x01D0000000000000);
    w.string("comment");
    if (version >= 12) {
        w.string("<xml/>");
        w.string("TMStadium");
    }
    w.string("Skins");
    w.string("build");
    w.bytes(Bytes(16, 0));
    if (version >= 10) {
        w.u32(1);
        w.bytes(Bytes(32, 0x5C));
        w.string("Included.Pack.Gbx");
        author();
        w.string("manialink");
        w.u64(0);
        w.string("Included.Pack.Gbx");
        if (version >= 11) w.u32(1);
    }
    return out;
}

// Operations of fuzz_overlay_commit and fuzz_packlist_edit: an operation byte, a path or name
// (length byte and bytes), then what the operation reads.
class OpWriter {
public:
    explicit OpWriter(std::initializer_list<std::uint8_t> head) : out_(head) {}
    OpWriter& op(std::uint8_t op, const std::string& path) {
        out_.push_back(op);
        out_.push_back(std::uint8_t(path.size()));
        return text(path);
    }
    OpWriter& byte(std::uint8_t b) {
        out_.push_back(b);
        return *this;
    }
    OpWriter& text(const std::string& s) {
        out_.insert(out_.end(), s.begin(), s.end());
        return *this;
    }
    OpWriter& bytes(ByteSpan b) {
        out_.insert(out_.end(), b.begin(), b.end());
        return *this;
    }
    const Bytes& data() const { return out_; }

private:
    Bytes out_;
};

// The record file's text, padded with newlines to the harness's length unit (4 bytes).
OpWriter& record(OpWriter& w, std::string text) {
    while (text.size() % 4) text += '\n';
    w.op(kRecord, "").byte(std::uint8_t(text.size() / 4)).text(text);
    return w;
}

void overlaySeeds(const fs::path& dir) {
    // Changes of every kind a mount makes, over the version 3 pak.
    OpWriter edits({0});
    edits.op(kFile, "Text/a.txt").byte(8).text("changed\n");
    edits.op(kFile, "Media/Texture/c.dds").byte(0x80 | 2);  // a.dds's bytes: a.dds renamed
    edits.op(kWhiteout, "Media/Texture/a.dds");
    edits.op(kFile, "root.txt").byte(0x80 | 0);  // the same bytes: no change
    edits.op(kMkdir, "New/Sub");
    edits.op(kFile, "New/Sub/n.txt").byte(3).text("new");
    edits.op(kOpaque, "Config");
    edits.op(kFile, "Config/other.xml").byte(2).text("<>");
    edits.op(kWhiteout, "Empty");
    record(edits, "# made over\nBase\tmounted\tv3:md5:00\t/packs/Base.pak\n");
    seed(dir, "edits", edits.data());
    // The same over the version 18 pack, committed already.
    OpWriter v18({1});
    v18.op(kFile, "Text/a.txt").byte(4).text("v18!");
    v18.op(kWhiteout, "root.txt");
    record(v18, "Base\tcommitted\tv18:sha256:00\t/packs/Base.Pack.Gbx\n");
    seed(dir, "v18", v18.data());
    // What a pak cannot hold: links, pipes, layout names, long and case-only names, a damaged
    // record.
    OpWriter odd({0});
    odd.op(kLink, "Media/link").byte(3);
    odd.op(kLink, "up").byte(0);
    odd.op(kSpecialName, "Text").byte(0).byte(1).byte(0);  // .wh..wh..opq as a file
    odd.op(kAtTop | kSpecialName, "").byte(5).byte(0);     // .pakfs-packs as a folder
    odd.op(kLongName, "Media").byte(40).byte(2).byte(1).byte(1).text("L");  // 240 bytes
    odd.op(kFile, "media/x.txt").byte(1).text("x");
    odd.op(kFile, "Text/A.TXT").byte(1).text("y");
    odd.op(kFile, "back\\slash").byte(1).text("z");
    odd.op(kSpecialName, "Media").byte(10).byte(2);  // a named pipe
    record(odd, "Base\tmounted\n\tno pack\tx\ty\n");
    seed(dir, "odd", odd.data());
    // The overlay's top: the pack's folder as a link or a file, other packs, the work folder.
    OpWriter top({0});
    top.op(kAtTop | kLink, "Base").byte(1);  // the pack's folder: a link to the top
    top.op(kAtTop | kFile, "Other/x.txt").byte(1).text("o");
    top.op(kAtTop | kSpecialName, "").byte(6).byte(0);  // .pakfs-work
    top.op(kFile, "a.txt").byte(1).text("a");
    seed(dir, "top", top.data());
    OpWriter file({1});
    file.op(kAtTop | kFile, "Base").byte(4).text("file");
    seed(dir, "pack-folder-file", file.data());
    // A file written where an earlier operation made a named pipe (the harness once waited
    // there for a reader forever).
    OpWriter pipe({0});
    pipe.op(kSpecialName, "").byte(14).byte(2);  // a.txt as a named pipe
    pipe.op(kFile, "a.txt").byte(1).text("x");
    seed(dir, "file-over-pipe", pipe.data());
}

// fuzz_packlist_edit: u16 length and the list, then edits (the operation byte % 8).
void packlistEditSeeds(const fs::path& dir, const archive::PackList& two) {
    const Bytes list = archive::serializePackList(two);
    OpWriter w({std::uint8_t(list.size()), std::uint8_t(list.size() >> 8)});
    w.bytes(list);
    const Bytes key(16, 0x5A);
    w.op(0, "NewPack").byte(0).bytes(key);                 // add
    w.op(0, "stadium").byte(0).bytes(key);                 // add of a listed name: refused
    w.op(1, "STADIUM").byte(0x80).bytes(Bytes(32, 0xF0));  // --replace, a raw key string
    w.op(2, "Resource");                                   // --patch --packlist: moved last
    w.op(2, "Patch").byte(0).bytes(key);                   // --patch --packlist: added last
    w.op(0, "bad/name").byte(0).bytes(key);                // refused
    w.op(0, "Other.Pack.Gbx").byte(0).bytes(key);          // taken without its extension
    w.op(4, "newpack");
    w.op(5, "").byte(1).byte(3);  // entry 1 gets flags 3
    w.op(3, "").byte(0);
    w.op(6, "");
    w.op(7, "");
    seed(dir, "edits", w.data());
    OpWriter fresh({0, 0});
    fresh.op(0, "A").byte(0).bytes(key).op(0, "a.pak").byte(0).bytes(key).op(7, "");
    seed(dir, "new", fresh.data());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_seeds OUTDIR\n");
        return 2;
    }
    const fs::path out = argv[1];
    const fs::path work = out / ".work";
    fs::create_directories(work);

    // Packs from the writer: header plaintexts and metadata sections.
    for (int v : {0, 1}) {
        fs::path pak = hostile::generatedPak(work, v);
        auto model = hostile::PakModel::read(pak, test::testKey());
        std::string n = "generated" + std::to_string(v);
        seed(out / "pak_header", n, model.headerPlain());
        Bytes meta = model.metadataPlain(test::testKey());
        Bytes withSize(4);
        storeLE32(withSize.data(), std::uint32_t(meta.size()));
        withSize.insert(withSize.end(), meta.begin(), meta.end());
        seed(out / "metadata", n, withSize);
    }
    {
        hostile::PakModel empty;
        seed(out / "pak_header", "empty", empty.headerPlain());
    }

    // packlist.dat.
    archive::PackList list;
    list.salt = 12345;
    list.entries.push_back({0, "Stadium", "0123456789abcdef0123456789abcdef"});
    list.entries.push_back({1, "Resource", "fedcba9876543210fedcba9876543210"});
    seed(out / "packlist", "two", archive::serializePackList(list));
    packlistEditSeeds(out / "packlist_edit", list);
    overlaySeeds(out / "overlay_commit");
    list.entries.clear();
    seed(out / "packlist", "none", archive::serializePackList(list));

    // gbx files: uncompressed and LZO bodies, different paddings.
    for (std::uint32_t s : {0u, 1u, 2u}) {
        bool lzo = s == 2;
        Bytes map = hostile::sampleMap(s, 10 + s * 50, lzo);
        std::string n = "map" + std::to_string(s);
        seed(out / "gbx_header", n, prefixed({0}, map));
        seed(out / "gbx_body", n, map);
        if (!lzo) {
            seed(out / "gbx_entry", n + "-stored", prefixed({0}, map));
            seed(out / "gbx_entry", n + "-zlib", prefixed({1}, map));
        }
    }
    // Engine-class files, so the body target starts inside the Plug readers too.
    gbx::engine::SolidSpec meshSolid;
    meshSolid.meshTriangles = 3;
    meshSolid.children = 2;
    seed(out / "gbx_body", "solid", gbx::engine::solid());
    seed(out / "gbx_body", "solid-mesh", gbx::engine::solid(meshSolid));
    seed(out / "gbx_body", "font", gbx::engine::font(4));
    seed(out / "gbx_entry", "solid-stored", prefixed({0}, gbx::engine::solid()));
    seed(out / "gbx_body", "blockinfo", test::builtBlockInfo());
    seed(out / "gbx_body", "itemmodel", test::builtItemModel());
    // A map header with a thumbnail (a 13x16 JPEG), an item header with a 2x2 raw icon.
    gbx::GbxBuilder thumbnail;
    thumbnail.classId = 0x03043000;
    const Bytes jpeg = test::fromHex(
        "ffd8ffdb0043000302020302020303030304030304050805050404050a070706080c0a0c0c0b0a0b0b0d0e12"
        "100d0e110e0b0b1016101113141515150c0f171816141812141514ffc0000b080010000d01011100ffc4001f"
        "0000010501010101010100000000000000000102030405060708090a0bffc400b51000020103030204030505"
        "04040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f0243362728209"
        "0a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a73"
        "7475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3"
        "c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda000801010000"
        "3f00f8332474a396ea714e5e69afc1e2bfffd9");
    gbx::BodyWriter chunk;
    chunk.u32(1);
    chunk.u32(std::uint32_t(jpeg.size()));
    auto tag = [&](std::string_view s) { chunk.raw(Bytes(s.begin(), s.end())); };
    tag("<Thumbnail.jpg>");
    chunk.raw(jpeg);
    tag("</Thumbnail.jpg>");
    tag("<Comments>");
    chunk.string("");
    tag("</Comments>");
    thumbnail.headerChunks.push_back({0x03043007, chunk.bytes(), true});
    seed(out / "gbx_header", "thumbnail", prefixed({0}, thumbnail.buildHeader()));
    gbx::GbxBuilder icon;
    icon.classId = 0x2E002000;
    Bytes pixels = {2, 0, 2, 0};
    for (int i = 0; i < 16; ++i) pixels.push_back(std::uint8_t(i * 16));
    icon.headerChunks.push_back({0x2E001004, pixels, false});
    seed(out / "gbx_header", "icon", prefixed({0}, icon.buildHeader()));
    // A 19x7 lossless WebP icon (color indexing).
    const Bytes webp = test::fromHex(
        "5249464638000000574542505650384c2b0000002f12800110173080f31ff31fe8a02600216893c12a9a32"
        "8adf1b21a2ff0a933660bafb4acc8831e1d2eb0800");
    Bytes webpChunk = {0x13, 0x80, 0x07, 0x80, 1, 0, std::uint8_t(webp.size()), 0, 0, 0};
    webpChunk.insert(webpChunk.end(), webp.begin(), webp.end());
    icon.headerChunks = {{0x2E001004, webpChunk, false}};
    seed(out / "gbx_header", "icon-webp", prefixed({0}, icon.buildHeader()));
    gbx::GbxBuilder header;
    header.version = 3;
    header.format = "BUU";
    seed(out / "gbx_header", "v3", prefixed({1}, header.buildHeader()));
    for (std::uint32_t v : {6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 15u, 18u})
        seed(out / "pack_gbx_header", "v" + std::to_string(v), packGbxHeaderSeed(v));

    // Version 6+ packs from the writer with the header in the clear: the private header and
    // what follows it, after the harness's version, mode and header max size bytes.
    {
        fs::path tree = work / "v6tree";
        fs::create_directories(tree / "Media/Sounds");
        std::FILE* f = std::fopen((tree / "Media/Sounds/a.txt").c_str(), "wb");
        for (int i = 0; i < 5000; ++i) std::fputc('a' + i % 3, f);
        std::fclose(f);
        f = std::fopen((tree / "b.bin").c_str(), "wb");
        for (int i = 0; i < 700; ++i) std::fputc(i * 7919 % 251, f);
        std::fclose(f);
        for (std::uint32_t v : {6u, 9u, 12u, 14u, 16u, 17u, 18u}) {
            archive::PackOptions options;
            options.version = v;
            options.header.headerFlags = 0;
            fs::path pack = work / ("v" + std::to_string(v) + ".Pack.Gbx");
            archive::writePak(tree, pack, test::testKey(), options);
            Bytes all = pakfs::InputFile::open(pack)->readAt(0, std::size_t(fs::file_size(pack)));
            std::size_t pub = archive::packGbxPublicHeader(v, options.header, 0).size();
            Bytes in = {std::uint8_t(v - 6), 0, 0, 0, 0, 0};
            if (v >= 15) std::copy(all.begin() + 48, all.begin() + 52, in.begin() + 2);
            in.insert(in.end(), all.begin() + std::ptrdiff_t(pub), all.end());
            seed(out / "pack_header", "v" + std::to_string(v), in);
        }
    }
    // LZ4 streams: declared size, then the blocks.
    for (std::size_t n :
         {std::size_t(0), std::size_t(100), std::size_t(5000), std::size_t(20000)}) {
        Bytes content(n);
        for (std::size_t i = 0; i < n; ++i) content[i] = std::uint8_t(i % 13 + (i / 300) % 5);
        Bytes in(4);
        storeLE32(in.data(), std::uint32_t(n));
        Bytes z = archive::lz4PackCompress(content);
        in.insert(in.end(), z.begin(), z.end());
        seed(out / "lz4", "n" + std::to_string(n), in);
    }
    fs::remove_all(work);
    return 0;
}
