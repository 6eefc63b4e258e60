// SPDX-License-Identifier: GPL-2.0-or-later
// Public header of version 6+ packs (.Pack.Gbx): read for `pak info`, entries not decoded.
#include "archive/pak/FieldReader.hpp"
#include "archive/pak/PakIndex.hpp"

namespace pakfs::archive {

namespace {

void readAuthor(FieldReader& r, PackGbxHeader& h) {
    r.u32();  // author info version
    h.authorLogin = r.string();
    h.authorNick = r.string();
    h.authorZone = r.string();
    h.authorExtra = r.string();
}

}  // namespace

PackGbxHeader readPackGbxHeader(const InputFile& file) {
    PackGbxHeader h;
    h.version = readPakMagic(file);
    Bytes head = file.readAt(0, std::size_t(std::min<std::uint64_t>(file.size(), 1 << 20)));
    MemorySource source(ByteSpan(head).subspan(12));
    FieldReader r(source, file.name() + ": pack header");
    try {
        r.bytes(h.contentsChecksum);
        h.decryptFlags = r.u32();
        std::uint8_t unused[16];
        if (h.version < 9) {
            if (h.version >= 7) {
                readAuthor(r, h);
                h.comment = r.string();
                r.bytes(unused);
                if (h.version >= 8) {
                    h.creationBuildInfo = r.string();
                    h.authorUrl = r.string();
                }
            }
            h.size = 12 + source.position();
            return h;
        }
        if (h.version >= 15) h.headerMaxSize = r.u32();
        readAuthor(r, h);
        h.manialinkUrl = r.string();
        if (h.version >= 13) h.downloadUrl = r.string();
        h.creationDate = r.u64();
        h.comment = r.string();
        if (h.version >= 12) {
            h.xml = r.string(1 << 20);
            h.titleId = r.string();
        }
        h.usageSubDir = r.string();
        h.creationBuildInfo = r.string();
        r.bytes(unused);
        if (h.version >= 10) {
            std::uint32_t n = r.u32();
            r.checkCount(n, 32 + 4 * 4, "included pack");
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint8_t checksum[32];
                r.bytes(checksum);
                std::string name = r.string();
                PackGbxHeader ignored;
                readAuthor(r, ignored);
                r.string();                    // info manialink url
                r.u64();                       // creation date
                r.string();                    // name again
                if (h.version >= 11) r.u32();  // nesting level
                h.includedPacks.push_back(name);
            }
        }
    } catch (const TruncatedError& e) {
        // Ending inside the header is a file cut short only when all of the file was looked at.
        const std::string msg = file.name() + ": truncated pack header (" + e.what() + ")";
        if (head.size() == file.size()) throw TruncatedError(msg);
        throw Error(msg);
    }
    h.size = 12 + source.position();
    return h;
}

}  // namespace pakfs::archive
