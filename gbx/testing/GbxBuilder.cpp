// SPDX-License-Identifier: GPL-2.0-or-later
// Node data and whole gbx files of a known shape, written for tests, benchmarks and fuzzers.
#include "gbx/testing/GbxBuilder.hpp"

#include <bit>

#include "gbx/Lzo.hpp"

namespace pakfs::gbx {

BodyWriter::BodyWriter() {
    lookback_.emplace_back();
}

void BodyWriter::f32(float v) {
    u32(std::bit_cast<std::uint32_t>(v));
}

void BodyWriter::lookbackRaw(std::uint32_t index) {
    Lookback& st = lookback_.back();
    if (!st.versionWritten) {
        u32(3);
        st.versionWritten = true;
    }
    u32(index);
}

void BodyWriter::lookback(std::string_view s) {
    Lookback& st = lookback_.back();
    for (std::size_t i = 0; i < st.strings.size(); ++i)
        if (st.strings[i] == s) return lookbackRaw(0x40000000 | std::uint32_t(i + 1));
    lookbackRaw(0x40000000);
    string(s);
    lookback_.back().strings.emplace_back(s);
}

void BodyWriter::lookbackNumber(std::uint32_t id) {
    lookbackRaw(id & 0x3FFFFFFF);
}

void BodyWriter::meta(std::string_view id, std::string_view collection, std::string_view author) {
    lookback(id);
    lookback(collection);
    lookback(author);
}

void BodyWriter::fileRef(std::uint8_t version, std::string_view path, std::string_view url) {
    u8(version);
    if (version >= 3) zeros(32);
    string(path);
    if ((!path.empty() && version >= 1) || version >= 3) string(url);
}

std::size_t BodyWriter::newNode(std::uint32_t index, std::uint32_t classId) {
    u32(index);
    u32(classId);
    return out_.size();
}

std::size_t BodyWriter::directNode(std::uint32_t classId) {
    u32(classId);
    return out_.size();
}

void BodyWriter::beginSkippable(std::uint32_t id) {
    u32(id);
    u32(0x534B4950);
    u32(0);
    skippable_.push_back(out_.size());
}

void BodyWriter::endSkippable() {
    if (skippable_.empty()) throw Error("endSkippable without beginSkippable");
    std::size_t start = skippable_.back();
    skippable_.pop_back();
    storeLE32(out_.data() + start - 4, std::uint32_t(out_.size() - start));
}

void BodyWriter::beginEncapsulation() {
    lookback_.emplace_back();
}

void BodyWriter::endEncapsulation() {
    if (lookback_.size() < 2) throw Error("endEncapsulation without beginEncapsulation");
    lookback_.pop_back();
}

namespace {

void writeFolders(ByteWriter& w, const std::vector<RefFolder>& folders) {
    w.u32(std::uint32_t(folders.size()));
    for (const auto& f : folders) {
        w.string(f.name);
        writeFolders(w, f.folders);
    }
}

}  // namespace

Bytes GbxBuilder::buildHeader() const {
    Bytes out;
    ByteWriter w(out);
    w.bytes("GBX");
    w.u16(version);
    w.bytes(format);
    w.u32(classId);
    if (version >= 6) {
        if (headerChunks.empty()) {
            w.u32(0);
        } else {
            Bytes user;
            ByteWriter u(user);
            u.u32(std::uint32_t(headerChunks.size()));
            for (const auto& c : headerChunks) {
                u.u32(c.id);
                u.u32(std::uint32_t(c.data.size()) | (c.heavy ? 0x80000000 : 0));
            }
            for (const auto& c : headerChunks) u.bytes(c.data);
            w.u32(std::uint32_t(user.size()));
            w.bytes(user);
        }
    }
    w.u32(numNodes);
    return out;
}

std::size_t GbxBuilder::bodyOffset() const {
    Bytes all = build();
    bool compressed = format.size() >= 3 && format[2] == 'C';
    return all.size() - (compressed ? 8 + lzoCompress(body).size() : body.size());
}

Bytes GbxBuilder::build() const {
    Bytes out = buildHeader();
    ByteWriter w(out);
    w.u32(std::uint32_t(refs.externals.size()));
    if (!refs.externals.empty()) {
        w.u32(refs.ancestorLevel);
        writeFolders(w, refs.folders);
        for (const auto& e : refs.externals) {
            w.u32(e.flags);
            if (e.byResource())
                w.u32(e.resourceIndex);
            else
                w.string(e.name);
            w.u32(e.nodeIndex);
            if (version >= 5) w.u32(e.useFile ? 1 : 0);
            if (!e.byResource()) w.u32(e.folderIndex.value_or(0));
        }
    }
    if (format.size() >= 3 && format[2] == 'C') {
        Bytes packed = lzoCompress(body);
        w.u32(std::uint32_t(body.size()));
        w.u32(std::uint32_t(packed.size()));
        w.bytes(packed);
    } else {
        w.bytes(body);
    }
    return out;
}

}  // namespace pakfs::gbx
