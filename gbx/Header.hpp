// SPDX-License-Identifier: GPL-2.0-or-later
// A gbx file's header: its fields, header chunks and external reference table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/ByteSource.hpp"
#include "common/Bytes.hpp"

namespace pakfs::gbx {

struct HeaderChunk {
    std::uint32_t id = 0;
    std::uint32_t size = 0;    // without the heavy bit
    bool heavy = false;        // bit 31 of the stored size
    std::uint32_t offset = 0;  // of the chunk data inside GbxHeader::userData
};

// Everything from "GBX" through numNodes: what a pak's metadata section stores per gbx entry.
struct GbxHeader {
    std::uint16_t version = 0;
    std::string format;         // "BUCR": 3 bytes for version 3, 4 from version 4 on
    std::uint32_t classId = 0;  // as stored (not generalized)
    std::uint32_t userDataSize = 0;
    Bytes userData;  // the whole user data block (chunk table and chunk data)
    std::vector<HeaderChunk> chunks;
    std::uint32_t numNodes = 0;
    std::uint64_t size = 0;  // bytes the header takes in the file

    bool bodyCompressed() const { return format.size() >= 3 && format[2] == 'C'; }
    ByteSpan chunkData(const HeaderChunk& c) const {
        return ByteSpan(userData).subspan(c.offset, c.size);
    }
};

struct ExternalRef {
    std::uint32_t flags = 0;
    std::string name;                 // when !byResource()
    std::uint32_t resourceIndex = 0;  // when byResource()
    std::uint32_t nodeIndex = 0;
    bool useFile = false;                      // stored from header version 5 on
    std::optional<std::uint32_t> folderIndex;  // when !byResource(); 0 = the base folder
    bool byResource() const { return (flags & 4) != 0; }
};

struct RefFolder {
    std::string name;
    std::vector<RefFolder> folders;
};

struct RefTable {
    std::uint32_t ancestorLevel = 0;
    std::vector<RefFolder> folders;
    // Folder paths in depth-first order; folderPaths[i - 1] is folder index i ("a/b/").
    std::vector<std::string> folderPaths;
    std::vector<ExternalRef> externals;
    std::uint64_t size = 0;  // bytes the table takes in the file
};

// Reads the header through numNodes and nothing more (a "dataless" gbx is exactly this long).
// Throws Error ("text gbx not supported", bad magic, bad sizes) or TruncatedError.
GbxHeader readHeader(ByteSource& src);
// Reads the reference table that follows the header; every index is checked.
RefTable readRefTable(ByteSource& src, const GbxHeader& header);

// Upper bound on the folders of one reference table, against hostile nesting.
inline constexpr std::uint32_t kMaxRefFolders = 1u << 16;
inline constexpr std::uint32_t kMaxRefFolderDepth = 64;

}  // namespace pakfs::gbx
