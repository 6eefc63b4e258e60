// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/GbxEntry.hpp"

#include <optional>

#include "archive/Metadata.hpp"
#include "archive/Streams.hpp"
#include "gbx/Classes.hpp"
#include "gbx/GbxFile.hpp"

namespace pakfs::archive {

namespace {

// Keeps every byte the parser asks for: the entry's content is exactly what was read.
class RecordingSource final : public gbx::ByteSource {
public:
    RecordingSource(gbx::ByteSource& inner, Bytes& out) : inner_(inner), out_(out) {}
    void read(std::span<std::uint8_t> dst) override {
        inner_.read(dst);
        out_.insert(out_.end(), dst.begin(), dst.end());
    }
    std::uint64_t position() const override { return inner_.position(); }
    std::optional<std::uint64_t> remaining() const override { return inner_.remaining(); }

private:
    gbx::ByteSource& inner_;
    Bytes& out_;
};

// Plugs CalcIVXor into the reader's node-read hook.
class CipherMixer final : public gbx::ReadObserver {
public:
    CipherMixer(CryptedStream& crypted, const GbxPipelineRules& rules, std::string where)
        : crypted_(crypted), rules_(rules), where_(std::move(where)) {}
    void onNodeRead(std::uint32_t classId, bool inSkippableChunk) override {
        const auto& classes = gbx::ClassRegistry::builtin();
        // The cipher input comes from the class tree: a class we do not know leaves the rest of
        // the entry undecodable.
        if (!classes.known(classes.generalize(classId)))
            throw Error(where_ + ": unknown class " + hex32(classId) +
                        ": its place in the class tree decides the cipher state");
        ++nodes_;
        if (!rules_.perNodeIvXor) return;
        if (inSkippableChunk && !rules_.nodesInSkippableChunksMixIvXor) return;
        std::uint8_t s[4];
        storeLE32(s, classes.ivXorClassInput(classId));
        crypted_.mixIvXor(s);
    }
    std::size_t nodes() const { return nodes_; }

private:
    CryptedStream& crypted_;
    const GbxPipelineRules& rules_;
    std::string where_;
    std::size_t nodes_ = 0;
};

// Runs the gbx reader over `source` (the top of the pipeline) and then takes whatever follows
// the body; returns the bytes in read order.
void parseThrough(gbx::ByteSource& source, CryptedStream& crypted, std::uint64_t size,
                  const GbxPipelineRules& rules, const std::string& where, Bytes& out,
                  std::uint32_t* mainClass) {
    RecordingSource recorder(source, out);
    CipherMixer mixer(crypted, rules, where);
    try {
        gbx::ReadOptions options;
        options.readCompressedBodyNodes = false;  // read from memory: they never touch the cipher
        gbx::GbxFile file = gbx::readGbx(recorder, &mixer, options);
        if (mainClass) *mainClass = file.header.classId;
    } catch (const Error& e) {
        throw Error(where + ": cannot be decoded exactly: " + e.what());
    }
    if (out.size() > size) throw Error(where + ": gbx data runs past the entry's size");
    // The size is untrusted: take the rest in pieces, so a size the data cannot back ends in an
    // error instead of one huge allocation.
    std::uint64_t left = size - out.size();
    Bytes rest(std::size_t(std::min<std::uint64_t>(left, 64 * 1024)));
    try {
        while (left > 0) {
            std::size_t n = std::size_t(std::min<std::uint64_t>(left, rest.size()));
            recorder.read({rest.data(), n});
            left -= n;
        }
    } catch (const Error& e) {
        throw Error(where + ": " + e.what());
    }
}

// The game's read pipeline for one entry: the crypted stream, with the zlib stage on top when
// the entry is compressed.
class EntryPipeline {
public:
    EntryPipeline(const PakIndex& pak, const PakEntry& entry, const std::string& where)
        : crypted_(ByteRange(pak.file(), pak.entryOffset(entry) + 8, entry.cipherSize()),
                   &pak.cipher(), loadLE64(pak.file()->readAt(pak.entryOffset(entry), 8).data()),
                   entry.compressed() ? entry.cipherSize() : entry.uncompressedSize) {
        if (entry.compressed())
            zlib_.emplace(crypted_, entry.compressedSize, entry.uncompressedSize, where);
    }
    gbx::ByteSource& top() { return zlib_ ? static_cast<gbx::ByteSource&>(*zlib_) : crypted_; }
    CryptedStream& crypted() { return crypted_; }

private:
    CryptedStream crypted_;
    std::optional<ZlibStage> zlib_;
};

}  // namespace

Bytes decodeGbxEntry(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry,
                     const GbxPipelineRules& rules) {
    const std::string where = pak->name() + ": " + entry.path;
    EntryPipeline pipeline(*pak, entry, where);
    Bytes out;
    // The size is untrusted: reserve no more than the data could plausibly inflate to.
    out.reserve(
        std::size_t(std::min<std::uint64_t>(entry.uncompressedSize, entry.cipherSize() * 64)));
    parseThrough(pipeline.top(), pipeline.crypted(), entry.uncompressedSize, rules, where, out,
                 nullptr);
    return out;
}

GbxEntryRefs readGbxEntryRefs(const std::shared_ptr<const PakIndex>& pak, const PakEntry& entry) {
    const std::string where = pak->name() + ": " + entry.path;
    try {
        EntryPipeline pipeline(*pak, entry, where);
        GbxEntryRefs out;
        out.header = gbx::readHeader(pipeline.top());
        out.refs = gbx::readRefTable(pipeline.top(), out.header);
        return out;
    } catch (const Error& e) {
        throw Error(where + ": " + e.what());
    }
}

GbxEncoding planGbxEntry(ByteSpan content, ByteSpan payload, bool compressed,
                         const std::string& packPath, const GbxPipelineRules& rules) {
    // The simulation reads plaintext through the same stages the game's reader uses, so the
    // segment refills happen at the same moments and record the ivXor each one applies.
    Bytes padded(payload.begin(), payload.end());
    padded.resize(roundUp8(padded.size()), 0);
    CryptedStream sim(ByteRange(ByteSpan(padded)), nullptr, 0,
                      compressed ? padded.size() : content.size());
    Bytes seen;
    seen.reserve(content.size());
    GbxEncoding plan;
    if (compressed) {
        ZlibStage zlib(sim, payload.size(), content.size(), packPath);
        parseThrough(zlib, sim, content.size(), rules, packPath, seen, &plan.classId);
    } else {
        parseThrough(sim, sim, content.size(), rules, packPath, seen, &plan.classId);
    }
    if (seen.size() != content.size() || !std::equal(seen.begin(), seen.end(), content.begin()))
        throw Error(packPath + ": internal error: the simulated read differs from the file");
    // Segments the reader never refills (zlib padding) keep a zero ivXor.
    plan.ivXorPerSegment = sim.appliedIvXor();
    gbx::MemorySource header(content);
    plan.metadata = readDatalessGbx(header, packPath);
    return plan;
}

}  // namespace pakfs::archive
