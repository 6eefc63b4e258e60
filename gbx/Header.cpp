// SPDX-License-Identifier: GPL-2.0-or-later
// The gbx header read ("GBX", version 3 to 6, binary format, the header chunk table against the
// user data) and the reference table (folders, external references, every index checked).
#include "gbx/Header.hpp"

#include <unordered_set>

#include "gbx/SourceReader.hpp"

namespace pakfs::gbx {
namespace {

std::string at(std::uint64_t offset) {
    return " at offset " + std::to_string(offset);
}

void parseHeaderChunks(GbxHeader& h) {
    if (h.userData.empty()) return;
    MemorySource mem(h.userData);
    SourceReader r(mem);
    std::uint32_t n = r.count(8, "header chunk table");
    std::uint64_t dataOffset = 4 + std::uint64_t(n) * 8;
    std::uint64_t total = 0;
    h.chunks.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        HeaderChunk c;
        c.id = r.u32();
        std::uint32_t raw = r.u32();
        c.size = raw & 0x7FFFFFFF;
        c.heavy = (raw & 0x80000000) != 0;
        c.offset = std::uint32_t(dataOffset + total);
        total += c.size;
        h.chunks.push_back(c);
    }
    if (dataOffset + total != h.userData.size())
        throw Error("header chunks take " + std::to_string(dataOffset + total) +
                    " bytes but the user data holds " + std::to_string(h.userData.size()));
}

void readFolders(SourceReader& r, std::vector<RefFolder>& out, std::vector<std::string>& paths,
                 const std::string& prefix, std::uint32_t depth) {
    if (depth > kMaxRefFolderDepth)
        throw Error("reference table folders nest deeper than " +
                    std::to_string(kMaxRefFolderDepth) + at(r.position()));
    std::uint32_t n = r.count(8, "reference table folders");
    for (std::uint32_t i = 0; i < n; ++i) {
        if (paths.size() >= kMaxRefFolders)
            throw Error("reference table has more than " + std::to_string(kMaxRefFolders) +
                        " folders" + at(r.position()));
        RefFolder f;
        f.name = r.string("folder name");
        std::string path = prefix + f.name;
        if (path.empty() || (path.back() != '\\' && path.back() != '/')) path += '\\';
        paths.push_back(path);
        readFolders(r, f.folders, paths, path, depth + 1);
        out.push_back(std::move(f));
    }
}

}  // namespace

GbxHeader readHeader(ByteSource& src) {
    SourceReader r(src);
    std::uint64_t start = r.position();
    GbxHeader h;
    std::uint8_t magic[3];
    r.read(magic);
    if (magic[0] != 'G' || magic[1] != 'B' || magic[2] != 'X')
        throw Error("not a gbx file (no \"GBX\" magic" + at(start) + ")");
    h.version = r.u16();
    if (h.version < 3 || h.version > 6)
        throw Error("gbx version " + std::to_string(h.version) + " not supported (3 to 6 are)");
    h.format.resize(h.version >= 4 ? 4 : 3);
    r.read({reinterpret_cast<std::uint8_t*>(h.format.data()), h.format.size()});
    if (h.format[0] == 'T') throw Error("text gbx not supported");
    if (h.format[0] != 'B') throw Error("unknown gbx format byte '" + h.format.substr(0, 1) + "'");
    if (h.format[1] == 'C') throw Error("compressed gbx reference table not supported");
    if (h.format[1] != 'U' || (h.format[2] != 'U' && h.format[2] != 'C'))
        throw Error("unknown gbx compression bytes \"" + h.format + "\"");
    h.classId = r.u32();
    if (h.version >= 6) {
        h.userDataSize = r.u32();
        h.userData = r.bytes(h.userDataSize, "gbx user data");
        parseHeaderChunks(h);
    }
    h.numNodes = r.u32();
    h.size = r.position() - start;
    return h;
}

RefTable readRefTable(ByteSource& src, const GbxHeader& header) {
    SourceReader r(src);
    std::uint64_t start = r.position();
    RefTable t;
    // An external reference takes at least 12 bytes (flags, name or resource, node index).
    std::uint32_t numExternal = r.count(12, "external references");
    if (numExternal > header.numNodes)
        throw Error(std::to_string(numExternal) + " external references but only " +
                    std::to_string(header.numNodes) + " nodes" + at(start));
    if (numExternal > 0) {
        t.ancestorLevel = r.u32();
        readFolders(r, t.folders, t.folderPaths, "", 0);
        // The count is checked against what is left only when the source can tell; reserve
        // no more than a few pages ahead of the data.
        t.externals.reserve(std::min<std::uint32_t>(numExternal, 1024));
        std::unordered_set<std::uint32_t> usedSlots;
        for (std::uint32_t i = 0; i < numExternal; ++i) {
            std::uint64_t off = r.position();
            ExternalRef e;
            e.flags = r.u32();
            if (e.byResource())
                e.resourceIndex = r.u32();
            else
                e.name = r.string("external file name");
            e.nodeIndex = r.u32();
            if (header.version >= 5) {
                std::uint32_t useFile = r.u32();
                if (useFile > 1)
                    throw Error("external reference " + std::to_string(i) + at(off) +
                                ": useFile is " + std::to_string(useFile) + ", not 0 or 1");
                e.useFile = useFile != 0;
            }
            if (!e.byResource()) {
                e.folderIndex = r.u32();
                if (*e.folderIndex > t.folderPaths.size())
                    throw Error("external reference " + std::to_string(i) + at(off) +
                                ": folder index " + std::to_string(*e.folderIndex) +
                                " but the table has " + std::to_string(t.folderPaths.size()) +
                                " folders");
            }
            if (e.nodeIndex >= header.numNodes)
                throw Error("external reference " + std::to_string(i) + at(off) + ": node index " +
                            std::to_string(e.nodeIndex) + " not below numNodes " +
                            std::to_string(header.numNodes));
            if (!usedSlots.insert(e.nodeIndex).second)
                throw Error("external reference " + std::to_string(i) + at(off) + ": node index " +
                            std::to_string(e.nodeIndex) + " used twice");
            t.externals.push_back(std::move(e));
        }
    }
    t.size = r.position() - start;
    return t;
}

}  // namespace pakfs::gbx
