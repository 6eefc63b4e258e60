// SPDX-License-Identifier: GPL-2.0-or-later
// GameBox (.gbx) files: header information, the reference table and a map's thumbnail (or a
// collector's icon), from a file's bytes (PakFile::read gives a pak's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pakfs/error.hpp>

namespace pakfs {

struct GbxHeaderChunk {
    std::uint32_t id = 0;
    std::uint32_t size = 0;
    bool heavy = false;  // bit 31 of the stored size
};

// One external reference of the reference table: another file the gbx file uses.
struct GbxReference {
    // A by-name reference: its path relative to the referring file's folder, as the table spells
    // it (the table's folder, then the name); empty for a by-resource one.
    std::string path;
    bool by_resource = false;
    std::uint32_t resource_index = 0;  // by_resource only
    std::uint32_t node_index = 0;
    std::uint32_t flags = 0;
};

// What `pak gbx info` shows of a file without reading its body's nodes.
struct GbxInfo {
    std::uint16_t version = 0;
    std::string format;  // "BUCR": binary, uncompressed header, compressed body, with references
    std::uint32_t class_id = 0;
    std::string class_name;  // "CGameCtnChallenge (03043000)" or "unknown class (...)"
    std::uint32_t user_data_size = 0;
    std::vector<GbxHeaderChunk> header_chunks;
    std::uint32_t num_nodes = 0;
    std::uint32_t ancestor_level = 0;  // of the reference table
    std::vector<GbxReference> references;
    // Maps only, each when its header chunk gives it.
    std::optional<std::string> map_title;   // as stored, with its $ formatting codes
    std::optional<std::string> map_author;  // the author's login
    std::optional<std::string> environment;
    // The whole of `pak gbx info --json` (the keys version, format, class_id, class_name,
    // user_data_size, header_chunks, num_nodes, references, body).
    std::string json;
};

// A map's thumbnail or a collector's icon, upright as the game shows it.
struct GbxThumbnail {
    std::vector<std::uint8_t> bytes;      // a whole picture file
    std::string format;                   // "jpeg", "png" or "webp"
    bool icon = false;                    // a collector's icon, else a map's thumbnail
    std::uint32_t width = 0, height = 0;  // 0 when the file's picture header does not say
};

// The header and references of the gbx file in `data` (Exception damaged_pack naming `name`
// when they do not read).
PAKFS_API GbxInfo gbx_info(const std::uint8_t* data, std::size_t size,
                           const std::string& name = "gbx");
PAKFS_API GbxInfo gbx_info(const std::vector<std::uint8_t>& data, const std::string& name = "gbx");

// Its thumbnail or icon, as `pak gbx thumbnail` writes it; nullopt when it has none.
PAKFS_API std::optional<GbxThumbnail> gbx_thumbnail(const std::uint8_t* data, std::size_t size,
                                                    const std::string& name = "gbx");
PAKFS_API std::optional<GbxThumbnail> gbx_thumbnail(const std::vector<std::uint8_t>& data,
                                                    const std::string& name = "gbx");

}  // namespace pakfs
