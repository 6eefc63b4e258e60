// SPDX-License-Identifier: GPL-2.0-or-later
// The game's read pipeline for one entry of a pak.
#include "archive/entry/EntryPipeline.hpp"

namespace pakfs::archive {

PipelineSpec entryPipelineSpec(const PakIndex& pak, const PakEntry& entry) {
    PipelineSpec spec(
        ByteRange(pak.file(), pak.entryOffset(entry) + entry.ivSize(), entry.cipherSize()));
    spec.cipher = pak.entryCipher(entry);
    if (spec.cipher) spec.iv = loadLE64(pak.file()->readAt(pak.entryOffset(entry), 8).data());
    spec.counterMode = entry.counterMode;
    spec.compressed = entry.codec == EntryCodec::Zlib;
    spec.lz4 = entry.codec == EntryCodec::Lz4;
    spec.compressedSize = entry.compressedSize;
    spec.size = entry.uncompressedSize;
    spec.name = pak.name() + ": " + entry.path;
    return spec;
}

}  // namespace pakfs::archive
