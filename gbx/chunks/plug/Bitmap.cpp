// SPDX-License-Identifier: GPL-2.0-or-later
// The Plug engine's bitmaps, their samplers and addresses, and bitmap fonts.
//
// Sources of the layouts, named per reader below:
//   [T] a public C reimplementation of the TMUF reader (functions tmuf_gbx_*), the most
//       complete source for TMUF-era files;
//   [G] GBX.NET (Engines/Plug, *.chunkl and *.cs);
//   [R] the game's own Resource.pak (../shared/fixtures/real): its compressed files prove a
//       layout through zlib's Adler-32, its stored ones through a parse that ends exactly at the
//       body's end with every node slot filled.
// Where the sources describe a branch no file here exercises and whose bytes they do not agree
// on, the reader stops with a message instead of guessing: the node scan takes over from there.
#include "gbx/chunks/ChunkReaders.hpp"

#include <cstring>
#include <vector>

namespace pakfs::gbx::chunks {
namespace {

// --- CPlugBitmap (09011000) [T] [G], proven on the game's seven .Texture.gbx files [R] ---

void bitmapImage(NodeReader& r) {  // 09011014/15/18/22
    NodeRef image = r.nodeRef();
    std::uint8_t usage[8];
    for (auto& b : usage) b = r.u8();
    floats(r, 3);  // mip-map lower alpha, bump scale, mip-map LOD bias
    r.u32();       // border colour
    if (image.kind != RefKind::Null) r.note("image", "node " + num(image.index));
    std::uint32_t id = r.generalChunkId();
    if (id != 0x09011018 && id != 0x09011022) return;
    // [T]: the second usage byte says what updates the pixels.
    switch (usage[1]) {
        case 4:
            r.nodeRef();  // the render
            break;
        case 7:
            r.skip(std::uint64_t(r.count(16)) * 16);  // highlights
            break;
        case 8:
            r.u32();
            break;
        case 5:
            r.fail("bitmap pixel update mode 5 is not described");
        default:
            break;
    }
}

void bitmapTexCoords(NodeReader& r) {  // 0901101C: scale, translation, rotation
    floats(r, 5);
}

// --- CPlugBitmapSampler (0907E000), Address (09047000), Apply (09012000) [T] [G] ---

void samplerBitmap(NodeReader& r) {  // 0907E008: name, bitmap, two words
    std::string name = r.lookback();
    NodeRef bitmap = r.nodeRef();
    r.skip(8);
    if (bitmap.kind != RefKind::Null) r.note("bitmap", "node " + num(bitmap.index));
    if (!name.empty()) r.note("sampler", name);
}

void addressTransform(NodeReader& r) {  // 09047007: flags, node, which transforms follow
    r.u32();
    r.nodeRef();
    std::uint8_t which = r.u8();
    if (which > 3) r.fail("bitmap address transform flag " + num(which));
    if (which & 1) floats(r, 6);   // GmIso3
    if (which & 2) floats(r, 16);  // GmMat4
}

// --- CPlugFontBitmap (0904E000) [R]: no public source describes its chunks; these layouts
// are the ones Arial.Font.Gbx of the game's pack holds, proven by its Adler-32 ---

void fontCharMap(NodeReader& r) {  // 0904E004: character ranges, then the glyph of each char
    std::uint32_t ranges = r.count(16);
    std::uint64_t chars = 0;
    for (std::uint32_t i = 0; i < ranges; ++i) {
        std::uint32_t first = r.u32();
        std::uint32_t last = r.u32();
        r.u32();  // index of the first character
        r.u32();  // that index minus the first character
        if (last < first) r.fail("font character range ends before it starts");
        chars += std::uint64_t(last - first) + 1;
    }
    std::uint32_t n = r.count(2);
    if (n != chars) r.fail("font maps " + num(n) + " characters, its ranges hold " + num(chars));
    r.skip(std::uint64_t(n) * 2);
    r.note("characters", num(n));
}

void fontKerning(NodeReader& r) {  // 0904E005: a hash table (buckets, entries) of 8-byte pairs
    std::uint32_t buckets = r.count(8);
    std::uint32_t used = r.u32();
    if (used > buckets) r.fail("font kerning table uses more buckets than it has");
    r.skip(std::uint64_t(buckets) * 8);
    r.note("kerning pairs", num(used));
}

void fontGlyphs(NodeReader& r) {  // 0904E007: two metrics, glyphs, then the pages
    r.u32();
    r.u32();
    std::uint32_t glyphs = r.count(32);
    r.skip(std::uint64_t(glyphs) * 32);  // index, texture rectangle, metrics
    r.nodeRef();
    std::uint32_t pages = r.count(8);
    for (std::uint32_t i = 0; i < pages; ++i) {
        r.u32();
        r.nodeRef();  // the page's shader
    }
    r.note("glyphs", num(glyphs));
    r.note("pages", num(pages));
}

// 0904E008 and 0904E009: no public source; the forms light.Font.gbx (a ManiaPlanet title
// pack's font, ../shared/fixtures/assets2) holds, proven for that file by its parse ending
// exactly at the body's end (its LZO body has no checksum). Values whose reading could differ
// under another layout that fits the same bytes stop the reader.

void fontChunk08(NodeReader& r) {  // one word, -1 in the file: a null node or a number
    std::uint32_t v = r.u32();
    if (v != 0xFFFFFFFF)
        r.fail("CPlugFontBitmap 0904E008 holds " + hex32(v) +
               ": only -1 is known (no source says whether it is a node or a number)");
}

// 0904E009: a word (1), two metrics, glyphs (character, texture rectangle, metrics: 32 bytes),
// then 1, -1, 1, a word and the page's image file name.
void fontGlyphPages(NodeReader& r) {
    auto expect = [&r](std::uint32_t want, const char* what) {
        std::uint64_t at = r.position();
        std::uint32_t v = r.u32();
        if (v != want)
            r.fail("CPlugFontBitmap 0904E009: " + std::string(what) + " at " + num(at) + " is " +
                   hex32(v) + ", the one known font has " + hex32(want) +
                   " (no source describes the chunk)");
    };
    expect(1, "first word");
    r.u32();
    r.u32();
    std::uint32_t glyphs = r.count(32);
    r.skip(std::uint64_t(glyphs) * 32);
    expect(1, "word after the glyphs");
    expect(0xFFFFFFFF, "second word after the glyphs");
    expect(1, "third word after the glyphs");
    r.u32();
    std::string page = r.string("font page file");
    r.note("glyphs", num(glyphs));
    r.note("page", page);
}

}  // namespace

void registerPlugBitmap(ChunkRegistry& reg) {
    // CPlugBitmap
    for (std::uint32_t id : {0x09011014u, 0x09011015u, 0x09011018u, 0x09011022u})
        reg.add(id, false, bitmapImage);
    for (std::uint32_t id : {0x09011019u, 0x0901101Bu, 0x0901101Du, 0x0901101Fu, 0x09011021u,
                             0x09011023u, 0x09011024u, 0x0901102Eu})
        reg.add(id, false, [](NodeReader& r) { r.u32(); });
    reg.add(0x0901101C, false, bitmapTexCoords);
    reg.add(0x0901101E, false, [](NodeReader& r) { r.skipArray(8); });  // atlas UV counts
    reg.add(0x09011020, false, [](NodeReader& r) { r.skipArray(4); });  // mip-map fade alphas
    reg.add(0x09011025, false, [](NodeReader& r) { r.skip(24); });
    reg.add(0x09011028, false, [](NodeReader& r) { r.skip(8); });

    // CPlugBitmapSampler, CPlugBitmapAddress, CPlugBitmapApply
    reg.add(0x0907E008, false, samplerBitmap);
    reg.add(0x09047007, false, addressTransform);
    reg.add(0x09047009, false, [](NodeReader& r) { floats(r, 1); });  // bump scale
    reg.add(0x09012004, false, [](NodeReader& r) { r.u32(); });

    // CPlugFontBitmap
    reg.add(0x0904E004, false, fontCharMap);
    reg.add(0x0904E005, false, fontKerning);
    reg.add(0x0904E006, false, [](NodeReader& r) { floats(r, 4); });  // capital bounding box
    reg.add(0x0904E007, false, fontGlyphs);
    reg.add(0x0904E008, false, fontChunk08);
    reg.add(0x0904E009, false, fontGlyphPages);
}

}  // namespace pakfs::gbx::chunks
