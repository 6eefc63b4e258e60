// SPDX-License-Identifier: GPL-2.0-or-later
// Writing gbx node data and whole gbx files of a known shape, for tests, benchmarks and fuzzers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/Bytes.hpp"
#include "gbx/Header.hpp"

namespace pakfs::gbx {

// Writes node data the way NodeReader reads it: primitives, lookback strings, node references,
// chunks and end markers. For tests, benchmarks and fuzzers that need gbx files of a known shape.
class BodyWriter {
public:
    BodyWriter();

    const Bytes& bytes() const { return out_; }
    std::size_t size() const { return out_.size(); }

    void u8(std::uint8_t v) { w().u8(v); }
    void u16(std::uint16_t v) { w().u16(v); }
    void u32(std::uint32_t v) { w().u32(v); }
    void i32(std::int32_t v) { w().u32(std::uint32_t(v)); }
    void u64(std::uint64_t v) { w().u64(v); }
    void f32(float v);
    void boolean(bool v) { u32(v ? 1 : 0); }
    void string(std::string_view s) { w().string(s); }
    void raw(ByteSpan b) { w().bytes(b); }
    void zeros(std::size_t n) { out_.insert(out_.end(), n, 0); }

    // A lookback string: the version before the first one of the current state, then a new
    // string (0x40000000 + text) or the index of a known one.
    void lookback(std::string_view s);
    void lookbackNumber(std::uint32_t id);  // an ID of the game's global table
    void lookbackRaw(std::uint32_t index);  // any index form, no string (unassigned)
    void meta(std::string_view id, std::string_view collection, std::string_view author);
    void fileRef(std::uint8_t version, std::string_view path, std::string_view url = {});

    void nullRef() { u32(0xFFFFFFFF); }
    void ref(std::uint32_t index) { u32(index); }  // back-reference or external slot
    // Index and class ID of a node read here for the first time; write its chunks and
    // endNode() next. Returns the offset right after the class ID (where the reader's
    // observer is called).
    std::size_t newNode(std::uint32_t index, std::uint32_t classId);
    // A node without index (inside encapsulation, or a "direct node"): class ID only.
    std::size_t directNode(std::uint32_t classId);

    void chunk(std::uint32_t id) { u32(id); }
    void beginSkippable(std::uint32_t id);  // ID, "PIKS", size (filled in by endSkippable)
    void endSkippable();
    void endNode() { u32(0xFACADE01); }
    // A fresh lookback string list until endEncapsulation (node references lose their index).
    void beginEncapsulation();
    void endEncapsulation();

private:
    ByteWriter w() { return ByteWriter(out_); }
    struct Lookback {
        bool versionWritten = false;
        std::vector<std::string> strings;
    };
    Bytes out_;
    std::vector<Lookback> lookback_;
    std::vector<std::size_t> skippable_;
};

// Builds a whole gbx file: header (with header chunks), reference table and body.
struct GbxBuilder {
    struct HeaderChunkData {
        std::uint32_t id = 0;
        Bytes data;
        bool heavy = false;
    };

    std::uint16_t version = 6;
    std::string format = "BUUR";  // third byte 'C': the body is LZO-compressed
    std::uint32_t classId = 0;
    std::vector<HeaderChunkData> headerChunks;
    std::uint32_t numNodes = 1;
    RefTable refs;  // ancestorLevel, folders and externals are written
    Bytes body;     // the main node's chunks and end marker

    Bytes build() const;
    Bytes buildHeader() const;  // "dataless" gbx: header through numNodes
    // Offset of the body in build()'s output (where an uncompressed body starts).
    std::size_t bodyOffset() const;
};

}  // namespace pakfs::gbx
