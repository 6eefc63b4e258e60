// SPDX-License-Identifier: GPL-2.0-or-later
// The JPEG layout (ITU-T T.81): markers, the frame and scan headers, Huffman tables (Annex C),
// the baseline entropy coding of 8x8 blocks (F.1.2, F.2.2), restart intervals (B.2.5).
#include "gbx/pictures/Jpeg.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "common/Error.hpp"

namespace pakfs::gbx {
namespace {

constexpr std::uint8_t kSoi = 0xD8, kEoi = 0xD9, kSos = 0xDA, kDht = 0xC4, kDri = 0xDD;

std::string markerName(std::uint8_t m) {
    static const char* digits = "0123456789ABCDEF";
    return std::string("FF") + digits[m >> 4] + digits[m & 15];
}

bool isRst(std::uint8_t m) {
    return m >= 0xD0 && m <= 0xD7;
}

// Any SOFn: C0-CF but DHT (C4), JPG (C8) and DAC (CC).
bool isSof(std::uint8_t m) {
    return m >= 0xC0 && m <= 0xCF && m != kDht && m != 0xC8 && m != 0xCC;
}

std::uint16_t be16(ByteSpan b, std::size_t at) {
    return std::uint16_t(b[at] << 8 | b[at + 1]);
}

// The vertical frequency (row in the 8x8 block) of each position of the zig-zag order: the
// diagonals are walked alternately up and to the right (even ones) and down to the left.
std::array<std::uint8_t, 64> zigzagRows() {
    std::array<std::uint8_t, 64> rows{};
    int k = 0;
    for (int d = 0; d < 15; ++d) {
        int lo = std::max(0, d - 7), hi = std::min(d, 7);
        for (int i = 0; i <= hi - lo; ++i) rows[k++] = std::uint8_t(d % 2 == 0 ? hi - i : lo + i);
    }
    return rows;
}

// One Huffman table (B.2.4.2), for decoding (F.2.2.3's per-length code ranges) and encoding.
struct HuffTable {
    bool present = false;
    std::array<std::int32_t, 17> maxCode{};  // largest code of each length; -1 when none
    std::array<std::int32_t, 17> minCode{};
    std::array<std::int32_t, 17> first{};  // index in `values` of the first code of each length
    std::vector<std::uint8_t> values;
    std::array<std::uint16_t, 256> code{};
    std::array<std::uint8_t, 256> length{};  // 0: the symbol has no code
};

// The segment's tables; returns the bytes taken. Throws on a malformed table.
std::size_t readHuffTable(ByteSpan seg, std::size_t at, std::array<HuffTable, 4>* dc,
                          std::array<HuffTable, 4>* ac) {
    if (seg.size() - at < 17) throw Error("DHT segment cut short");
    std::uint8_t tc = seg[at] >> 4, th = seg[at] & 15;
    if (tc > 1 || th > 3)
        throw Error("DHT table class " + std::to_string(tc) + " id " + std::to_string(th) +
                    " is not a Huffman table");
    std::size_t total = 0;
    for (int i = 1; i <= 16; ++i) total += seg[at + i];
    if (total > 256 || seg.size() - at - 17 < total)
        throw Error("DHT table lists " + std::to_string(total) + " codes, more than it holds");
    HuffTable t;
    t.present = true;
    t.values.assign(seg.begin() + std::ptrdiff_t(at + 17),
                    seg.begin() + std::ptrdiff_t(at + 17 + total));
    std::int32_t code = 0;
    std::size_t k = 0;
    for (int len = 1; len <= 16; ++len) {
        std::uint8_t n = seg[at + len];
        t.first[len] = std::int32_t(k);
        t.minCode[len] = code;
        t.maxCode[len] = n ? code + n - 1 : -1;
        for (std::uint8_t i = 0; i < n; ++i, ++k, ++code) {
            std::uint8_t sym = t.values[k];
            if (t.length[sym]) throw Error("Huffman table lists a symbol twice");
            t.code[sym] = std::uint16_t(code);
            t.length[sym] = std::uint8_t(len);
        }
        if (code > (1 << len)) throw Error("Huffman table has more codes than its lengths allow");
        code <<= 1;
    }
    (tc == 0 ? *dc : *ac)[th] = std::move(t);
    return 17 + total;
}

// Reads the entropy-coded data: stuffed 0xFF 0x00 is a data byte 0xFF; a marker ends the data,
// and needing a bit past it means the data is damaged.
class BitReader {
public:
    BitReader(ByteSpan data, std::size_t pos) : d_(data), pos_(pos) {}

    int bit() {
        if (bits_ == 0) fill();
        --bits_;
        return (acc_ >> bits_) & 1;
    }
    std::uint32_t bits(int n) {
        std::uint32_t v = 0;
        for (int i = 0; i < n; ++i) v = v << 1 | std::uint32_t(bit());
        return v;
    }
    int decode(const HuffTable& t) {
        std::int32_t code = 0;
        for (int len = 1; len <= 16; ++len) {
            code = code << 1 | bit();
            if (code <= t.maxCode[len]) {
                std::size_t i = std::size_t(t.first[len] + code - t.minCode[len]);
                if (code < t.minCode[len] || i >= t.values.size()) break;
                return t.values[i];
            }
        }
        throw Error("a Huffman code in the coded data at byte " + std::to_string(pos_) +
                    " is in no table");
    }
    // The padding bits of the last byte are dropped (before a restart marker or the end).
    void align() { bits_ = 0; }
    std::size_t pos() const { return pos_; }
    void skip(std::size_t n) { pos_ += n; }

private:
    void fill() {
        if (pos_ >= d_.size()) throw Error("the coded data is cut short");
        std::uint8_t b = d_[pos_];
        if (b == 0xFF) {
            if (pos_ + 1 >= d_.size()) throw Error("the coded data is cut short");
            if (d_[pos_ + 1] != 0)
                throw Error("the coded data ends (marker " + markerName(d_[pos_ + 1]) +
                            " at byte " + std::to_string(pos_) + ") inside a block");
            ++pos_;
        }
        ++pos_;
        acc_ = b;
        bits_ = 8;
    }

    ByteSpan d_;
    std::size_t pos_;
    std::uint32_t acc_ = 0;
    int bits_ = 0;
};

// Writes entropy-coded data: bits from the most significant, 0xFF stuffed with 0x00, the last
// byte padded with 1 bits (F.1.2.3).
class BitWriter {
public:
    explicit BitWriter(Bytes& out) : out_(out) {}
    void put(std::uint32_t value, int len) {
        acc_ = acc_ << len | (value & ((1u << len) - 1));
        n_ += len;
        while (n_ >= 8) {
            std::uint8_t b = std::uint8_t(acc_ >> (n_ - 8));
            out_.push_back(b);
            if (b == 0xFF) out_.push_back(0);
            n_ -= 8;
        }
        acc_ &= (1u << n_) - 1;
    }
    void flush() {
        if (n_ > 0) put((1u << (8 - n_)) - 1, 8 - n_);
    }

private:
    Bytes& out_;
    std::uint32_t acc_ = 0;
    int n_ = 0;
};

struct Component {
    std::uint8_t id = 0;
    int h = 1, v = 1;
    int dcTable = 0, acTable = 0;
    std::uint64_t blocksWide = 0, blocksHigh = 0;
    std::vector<std::int16_t> coefs;  // 64 per block, zig-zag order, rows of blocks top first
};

// The size category of a value: how many bits its magnitude takes (F.1.2.1).
int category(std::int32_t v) {
    std::uint32_t m = std::uint32_t(v < 0 ? -v : v);
    int n = 0;
    while (m) {
        ++n;
        m >>= 1;
    }
    return n;
}

std::int32_t extend(std::uint32_t v, int s) {
    return s == 0 ? 0 : v < (1u << (s - 1)) ? std::int32_t(v) - (1 << s) + 1 : std::int32_t(v);
}

void putSymbol(BitWriter& w, const HuffTable& t, int sym, const char* kind, int id) {
    if (!t.length[sym])
        throw Error(std::string("the flipped picture needs ") + kind + " symbol " +
                    std::to_string(sym) + ", which the file's Huffman table " + std::to_string(id) +
                    " has no code for (its tables were made for the picture as stored)");
    w.put(t.code[sym], t.length[sym]);
}

void decodeBlock(BitReader& r, const HuffTable& dc, const HuffTable& ac, std::int32_t& pred,
                 std::int16_t* out) {
    int s = r.decode(dc);
    if (s > 11) throw Error("DC difference of category " + std::to_string(s) + " (at most 11)");
    pred += extend(r.bits(s), s);
    if (pred < -32767 || pred > 32767) throw Error("DC coefficient out of range");
    out[0] = std::int16_t(pred);
    for (int k = 1; k < 64;) {
        int rs = r.decode(ac);
        int run = rs >> 4, size = rs & 15;
        if (size == 0) {
            if (run != 15) break;  // end of block
            k += 16;
            if (k > 64) throw Error("a run of zeros goes past the end of a block");
            continue;
        }
        if (size > 10) throw Error("AC coefficient of category " + std::to_string(size));
        k += run;
        if (k > 63) throw Error("a coefficient past the end of a block");
        out[k++] = std::int16_t(extend(r.bits(size), size));
    }
}

void encodeBlock(BitWriter& w, const HuffTable& dc, int dcId, const HuffTable& ac, int acId,
                 std::int32_t& pred, const std::int16_t* in) {
    std::int32_t diff = in[0] - pred;
    pred = in[0];
    int s = category(diff);
    putSymbol(w, dc, s, "DC", dcId);
    if (s) w.put(std::uint32_t(diff < 0 ? diff - 1 : diff), s);
    int run = 0;
    for (int k = 1; k < 64; ++k) {
        std::int32_t v = in[k];
        if (v == 0) {
            ++run;
            continue;
        }
        for (; run > 15; run -= 16) putSymbol(w, ac, 0xF0, "AC", acId);
        int size = category(v);
        putSymbol(w, ac, run << 4 | size, "AC", acId);
        w.put(std::uint32_t(v < 0 ? v - 1 : v), size);
        run = 0;
    }
    if (run) putSymbol(w, ac, 0x00, "AC", acId);
}

// What flipJpegVertically reads before the coded data: the Huffman tables, the frame's
// components, the scan's order of them, the size, the restart interval, and where the coded
// data starts.
struct JpegHeader {
    std::array<HuffTable, 4> dc, ac;
    std::vector<Component> comps;
    std::vector<int> scan;  // indexes into comps, in the scan's order
    std::uint32_t width = 0, height = 0, restart = 0;
    bool haveFrame = false;
    std::size_t end = 0;
};

// A baseline frame header (SOF0, SOF1): the size and the components.
void readFrameHeader(ByteSpan seg, JpegHeader& h) {
    if (h.haveFrame) throw Error("two frame headers");
    if (seg.size() < 6 || seg[0] != 8)
        throw Error(seg.size() < 6
                        ? "frame header cut short"
                        : std::to_string(seg[0]) + "-bit samples (only 8-bit JPEGs are flipped)");
    h.height = be16(seg, 1);
    h.width = be16(seg, 3);
    std::size_t n = seg[5];
    if (n < 1 || n > 4 || seg.size() != 6 + 3 * n)
        throw Error("frame header with " + std::to_string(n) + " components in " +
                    std::to_string(seg.size()) + " bytes");
    if (h.height == 0)
        throw Error("the frame gives no height (a DNL marker gives it later): not flipped");
    if (h.width == 0) throw Error("the frame is 0 pixels wide");
    for (std::size_t i = 0; i < n; ++i) {
        Component c;
        c.id = seg[6 + 3 * i];
        c.h = seg[7 + 3 * i] >> 4;
        c.v = seg[7 + 3 * i] & 15;
        if (c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4)
            throw Error("component sampling factors " + std::to_string(c.h) + "x" +
                        std::to_string(c.v));
        h.comps.push_back(c);
    }
    h.haveFrame = true;
}

// The scan header (SOS): one scan of every component, baseline sequential, with tables the
// file defines.
void readScanHeader(ByteSpan seg, JpegHeader& h) {
    if (!h.haveFrame) throw Error("coded data before the frame header");
    std::size_t n = seg.empty() ? 0 : seg[0];
    if (n < 1 || n > 4 || seg.size() != 4 + 2 * n)
        throw Error("scan header with " + std::to_string(n) + " components in " +
                    std::to_string(seg.size()) + " bytes");
    if (n != h.comps.size())
        throw Error("the picture's " + std::to_string(h.comps.size()) +
                    " components are coded in more than one scan: not flipped");
    for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t id = seg[1 + 2 * i];
        auto it = std::find_if(h.comps.begin(), h.comps.end(),
                               [&](const Component& c) { return c.id == id; });
        int index = int(it - h.comps.begin());
        if (it == h.comps.end() || std::find(h.scan.begin(), h.scan.end(), index) != h.scan.end())
            throw Error("the scan names component " + std::to_string(id) +
                        " that the frame does not have, or twice");
        it->dcTable = seg[2 + 2 * i] >> 4;
        it->acTable = seg[2 + 2 * i] & 15;
        if (it->dcTable > 3 || it->acTable > 3 || !h.dc[std::size_t(it->dcTable)].present ||
            !h.ac[std::size_t(it->acTable)].present)
            throw Error("the scan uses a Huffman table the file does not define");
        h.scan.push_back(index);
    }
    if (seg[1 + 2 * n] != 0 || seg[2 + 2 * n] != 63 || seg[3 + 2 * n] != 0)
        throw Error("the scan is not a baseline sequential one");
}

// The segments from SOI to the scan header; anything but the frame, the Huffman tables, the
// restart interval and the scan (APPn, COM, DQT, ...) is kept as it is.
JpegHeader readJpegHeader(ByteSpan j) {
    if (j.size() < 4 || j[0] != 0xFF || j[1] != kSoi) throw Error("not a JPEG (no SOI marker)");
    JpegHeader h;
    std::size_t pos = 2;
    for (bool inScan = false; !inScan;) {
        if (pos >= j.size() || j[pos] != 0xFF)
            throw Error("no marker where one must be (byte " + std::to_string(pos) + ")");
        while (pos < j.size() && j[pos] == 0xFF) ++pos;
        if (j.size() - pos < 3) throw Error("cut short before its coded data");
        std::uint8_t m = j[pos++];
        if (m == kEoi) throw Error("ends before its coded data (no SOS marker)");
        if (m == kSoi || isRst(m) || m == 0x01 || m == 0x00)
            throw Error("marker " + markerName(m) + " where a segment must be (byte " +
                        std::to_string(pos - 2) + ")");
        std::size_t len = be16(j, pos);
        if (len < 2 || j.size() - pos < len)
            throw Error("segment " + markerName(m) + " of " + std::to_string(len) +
                        " bytes runs past the end");
        ByteSpan seg = j.subspan(pos + 2, len - 2);
        pos += len;
        if (m == 0xC0 || m == 0xC1) {
            readFrameHeader(seg, h);
        } else if (isSof(m)) {
            throw Error("a " +
                        std::string(m == 0xC2 || m == 0xC6   ? "progressive"
                                    : m == 0xC3 || m == 0xC7 ? "lossless"
                                                             : "arithmetic-coded") +
                        " JPEG (" + markerName(m) +
                        "): only baseline Huffman-coded JPEGs are flipped without loss here");
        } else if (m == kDht) {
            for (std::size_t at = 0; at < seg.size();) at += readHuffTable(seg, at, &h.dc, &h.ac);
        } else if (m == kDri) {
            if (seg.size() != 2) throw Error("DRI segment of " + std::to_string(len) + " bytes");
            h.restart = be16(seg, 0);
        } else if (m == kSos) {
            readScanHeader(seg, h);
            inScan = true;
        }
    }
    h.end = pos;
    return h;
}

// How the blocks are coded: one component alone block by block, without MCU padding;
// interleaved components in MCUs of h x v blocks.
struct BlockGrid {
    bool interleaved = false;
    std::uint64_t mcusWide = 0, mcusHigh = 0;
};

// Sizes each component's block grid and its coefficients, refusing a picture whose padding
// rows would come to the top when flipped, or more blocks than `codedBytes` can hold.
BlockGrid layOutBlocks(JpegHeader& h, std::uint64_t codedBytes) {
    int hMax = 1, vMax = 1;
    for (const auto& c : h.comps) {
        hMax = std::max(hMax, c.h);
        vMax = std::max(vMax, c.v);
    }
    BlockGrid g;
    g.interleaved = h.comps.size() > 1;
    const std::uint64_t mcuRowHeight = g.interleaved ? 8u * std::uint64_t(vMax) : 8u;
    if (g.interleaved) {
        g.mcusWide = (h.width + 8u * hMax - 1) / (8u * hMax);
        g.mcusHigh = (h.height + 8u * vMax - 1) / (8u * vMax);
        for (auto& c : h.comps) {
            c.blocksWide = g.mcusWide * std::uint64_t(c.h);
            c.blocksHigh = g.mcusHigh * std::uint64_t(c.v);
        }
    } else {
        Component& c = h.comps[0];
        // The component's own size (A.1.1), in blocks.
        std::uint64_t w = (std::uint64_t(h.width) * c.h + hMax - 1) / hMax;
        std::uint64_t ht = (std::uint64_t(h.height) * c.v + vMax - 1) / vMax;
        c.blocksWide = (w + 7) / 8;
        c.blocksHigh = (ht + 7) / 8;
        g.mcusWide = c.blocksWide;
        g.mcusHigh = c.blocksHigh;
        if (ht % 8) {
            throw Error("its height (" + std::to_string(h.height) +
                        " rows) is not a whole number of 8-row blocks: flipped, the padding "
                        "rows would come to the top; not flipped");
        }
    }
    if (g.interleaved && h.height % mcuRowHeight)
        throw Error("its height (" + std::to_string(h.height) + " rows) is not a whole number of " +
                    std::to_string(mcuRowHeight) +
                    "-row MCUs: flipped, the padding rows would come to the top; not flipped");
    std::uint64_t blocks = 0;
    for (const auto& c : h.comps) blocks += c.blocksWide * c.blocksHigh;
    // Each block takes at least two bits (a DC code and an end-of-block code).
    if (blocks > kMaxJpegBlocks || blocks > codedBytes * 4 + 4)
        throw Error(std::to_string(h.width) + "x" + std::to_string(h.height) + " pixels in " +
                    std::to_string(blocks) + " blocks: " +
                    (blocks > kMaxJpegBlocks ? "more than any thumbnail holds"
                                             : "more than its " + std::to_string(codedBytes) +
                                                   " bytes of coded data can hold"));
    for (auto& c : h.comps) c.coefs.assign(std::size_t(c.blocksWide * c.blocksHigh * 64), 0);
    return g;
}

// Every MCU in order (fn.mcu), each component's blocks left to right and top to bottom within
// it (fn.block).
template <class Fn>
void forEachBlock(JpegHeader& h, const BlockGrid& g, Fn& fn) {
    const std::uint64_t mcus = g.mcusWide * g.mcusHigh;
    for (std::uint64_t m = 0; m < mcus; ++m) {
        const bool restartHere = h.restart && m > 0 && m % h.restart == 0;
        fn.mcu(m, restartHere);
        const std::uint64_t mx = m % g.mcusWide, my = m / g.mcusWide;
        for (int ci : h.scan) {
            Component& c = h.comps[std::size_t(ci)];
            const int bh = g.interleaved ? c.h : 1, bv = g.interleaved ? c.v : 1;
            for (int y = 0; y < bv; ++y)
                for (int x = 0; x < bh; ++x) {
                    std::uint64_t by = my * std::uint64_t(bv) + std::uint64_t(y);
                    std::uint64_t bx = mx * std::uint64_t(bh) + std::uint64_t(x);
                    fn.block(ci, &c.coefs[std::size_t((by * c.blocksWide + bx) * 64)]);
                }
        }
    }
}

// Reads the coded blocks into each component's coefficients, checking each restart marker.
struct BlockDecoder {
    BitReader& r;
    ByteSpan j;
    JpegHeader& h;
    std::array<std::int32_t, 4> pred{};
    void mcu(std::uint64_t m, bool restartHere) {
        if (!restartHere) return;
        r.align();
        std::size_t p = r.pos();
        std::uint8_t expected = std::uint8_t(0xD0 + (m / h.restart - 1) % 8);
        while (p + 1 < j.size() && j[p] == 0xFF && j[p + 1] == 0xFF) ++p;
        if (p + 1 >= j.size() || j[p] != 0xFF || j[p + 1] != expected)
            throw Error("no restart marker " + markerName(expected) + " at byte " +
                        std::to_string(p) + " where the restart interval puts one");
        r.skip(p + 2 - r.pos());
        pred.fill(0);
    }
    void block(int ci, std::int16_t* out) {
        const Component& c = h.comps[std::size_t(ci)];
        decodeBlock(r, h.dc[std::size_t(c.dcTable)], h.ac[std::size_t(c.acTable)],
                    pred[std::size_t(ci)], out);
    }
};

// Writes each component's coefficients as coded blocks, with the restart markers.
struct BlockEncoder {
    BitWriter& w;
    Bytes& out;
    JpegHeader& h;
    std::array<std::int32_t, 4> pred{};
    void mcu(std::uint64_t m, bool restartHere) {
        if (!restartHere) return;
        w.flush();
        out.push_back(0xFF);
        out.push_back(std::uint8_t(0xD0 + (m / h.restart - 1) % 8));
        pred.fill(0);
    }
    void block(int ci, std::int16_t* in) {
        const Component& c = h.comps[std::size_t(ci)];
        encodeBlock(w, h.dc[std::size_t(c.dcTable)], c.dcTable, h.ac[std::size_t(c.acTable)],
                    c.acTable, pred[std::size_t(ci)], in);
    }
};

// Decodes the scan; returns where what follows its EOI marker starts. After the last block:
// padding bits, then EOI (fill bytes may come before a marker).
std::size_t decodeScan(ByteSpan j, JpegHeader& h, const BlockGrid& g) {
    BitReader reader(j, h.end);
    BlockDecoder decoder{reader, j, h};
    forEachBlock(h, g, decoder);
    reader.align();
    std::size_t end = reader.pos();
    while (end + 1 < j.size() && j[end] == 0xFF && j[end + 1] == 0xFF) ++end;
    if (end + 1 >= j.size() || j[end] != 0xFF)
        throw Error(std::to_string(j.size() - reader.pos()) +
                    " bytes after the last block are not an EOI marker");
    if (j[end + 1] != kEoi)
        throw Error("marker " + markerName(j[end + 1]) +
                    " after the coded data: only a JPEG with a single scan is flipped");
    return end + 2;
}

// Flip: block rows in reverse order, odd vertical frequencies negated.
void flipBlockRows(std::vector<Component>& comps) {
    static const std::array<std::uint8_t, 64> rows = zigzagRows();
    for (auto& c : comps) {
        std::vector<std::int16_t> flipped(c.coefs.size());
        const std::size_t rowValues = std::size_t(c.blocksWide) * 64;
        for (std::uint64_t by = 0; by < c.blocksHigh; ++by) {
            const std::int16_t* src = &c.coefs[std::size_t(by) * rowValues];
            std::int16_t* dst = &flipped[std::size_t(c.blocksHigh - 1 - by) * rowValues];
            for (std::size_t i = 0; i < rowValues; ++i)
                dst[i] = rows[i % 64] & 1 ? std::int16_t(-src[i]) : src[i];
        }
        c.coefs = std::move(flipped);
    }
}

// The JPEG again with the blocks coded anew, keeping every byte before the coded data and
// after its EOI (from `trailer`).
Bytes encodeScan(ByteSpan j, JpegHeader& h, const BlockGrid& g, std::size_t trailer) {
    Bytes out(j.begin(), j.begin() + std::ptrdiff_t(h.end));
    out.reserve(j.size() + j.size() / 8);
    BitWriter writer(out);
    BlockEncoder encoder{writer, out, h};
    forEachBlock(h, g, encoder);
    writer.flush();
    out.push_back(0xFF);
    out.push_back(kEoi);
    out.insert(out.end(), j.begin() + std::ptrdiff_t(trailer), j.end());
    return out;
}

}  // namespace

std::optional<PictureSize> jpegSize(ByteSpan j) {
    if (j.size() < 4 || j[0] != 0xFF || j[1] != kSoi) return std::nullopt;
    std::size_t pos = 2;
    while (pos + 4 <= j.size() && j[pos] == 0xFF) {
        std::uint8_t m = j[pos + 1];
        if (m == 0xFF) {  // a fill byte
            ++pos;
            continue;
        }
        if (m == kSos || m == kEoi || isRst(m) || m == kSoi) return std::nullopt;
        std::size_t len = be16(j, pos + 2);
        if (len < 2 || j.size() - pos - 2 < len) return std::nullopt;
        if (isSof(m)) {
            if (len < 8) return std::nullopt;
            return PictureSize{be16(j, pos + 7), be16(j, pos + 5)};
        }
        pos += 2 + len;
    }
    return std::nullopt;
}

Bytes flipJpegVertically(ByteSpan j) {
    JpegHeader h = readJpegHeader(j);
    const BlockGrid grid = layOutBlocks(h, j.size() - h.end);
    const std::size_t trailer = decodeScan(j, h, grid);
    flipBlockRows(h.comps);
    return encodeScan(j, h, grid, trailer);
}

}  // namespace pakfs::gbx
