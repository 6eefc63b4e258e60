// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs::gbx_info and pakfs::gbx_thumbnail over the gbx library, as `pak gbx info` and
// `pak gbx thumbnail` read a file.
#include <pakfs/gbx.hpp>
#include "common/ByteSource.hpp"

#include "common/Bytes.hpp"
#include "common/Error.hpp"
#include "gbx/Classes.hpp"
#include "gbx/Describe.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/MapFacts.hpp"
#include "gbx/pictures/Pictures.hpp"
#include "lib/Wrap.hpp"

namespace pakfs {

using api::translated;

namespace {

// The header and reference table, no nodes; errors name the file.
gbx::GbxFile readHeaderAndRefs(const std::uint8_t* data, std::size_t size,
                               const std::string& name) {
    MemorySource src(ByteSpan(data, size));
    gbx::ReadOptions options;
    options.readNodes = false;
    gbx::GbxFile f = gbx::readGbxPartial(src, nullptr, options);
    if (f.failure && f.reached <= gbx::ReadStage::RefTable)
        throw Exception(ErrorKind::damaged_pack, name + ": " + f.failure->message);
    return f;
}

}  // namespace

GbxInfo gbx_info(const std::uint8_t* data, std::size_t size, const std::string& name) {
    return translated([&] {
        const gbx::GbxFile f = readHeaderAndRefs(data, size, name);
        GbxInfo i;
        i.version = f.header.version;
        i.format = f.header.format;
        i.class_id = f.header.classId;
        i.class_name = gbx::describeClass(f.header.classId);
        i.user_data_size = f.header.userDataSize;
        for (const auto& c : f.header.chunks) i.header_chunks.push_back({c.id, c.size, c.heavy});
        i.num_nodes = f.header.numNodes;
        i.ancestor_level = f.refs.ancestorLevel;
        for (const auto& r : f.refs.externals) {
            GbxReference ref;
            ref.by_resource = r.byResource();
            ref.resource_index = r.resourceIndex;
            ref.node_index = r.nodeIndex;
            ref.flags = r.flags;
            if (!r.byResource()) {
                const std::uint32_t folder = r.folderIndex.value_or(0);
                ref.path = (folder > 0 && folder <= f.refs.folderPaths.size()
                                ? f.refs.folderPaths[folder - 1]
                                : std::string()) +
                           r.name;
            }
            i.references.push_back(std::move(ref));
        }
        if (auto facts = gbx::mapFacts(f.header)) {
            i.map_title = facts->title;
            i.map_author = facts->author;
            i.environment = facts->environment;
        }
        nlohmann::json j = gbx::describeJson(f);
        i.json = j.dump();
        return i;
    });
}

GbxInfo gbx_info(const std::vector<std::uint8_t>& data, const std::string& name) {
    return gbx_info(data.data(), data.size(), name);
}

std::optional<GbxThumbnail> gbx_thumbnail(const std::uint8_t* data, std::size_t size,
                                          const std::string& name) {
    return translated([&]() -> std::optional<GbxThumbnail> {
        MemorySource src(ByteSpan(data, size));
        gbx::GbxHeader header;
        try {
            header = gbx::readHeader(src);
        } catch (const Error& e) {
            throw Exception(ErrorKind::damaged_pack, name + ": " + e.what());
        }
        std::optional<gbx::Picture> picture;
        gbx::PictureFile file;
        try {
            picture = gbx::findPicture(header);
            if (!picture) return std::nullopt;
            file = gbx::uprightPicture(*picture);
        } catch (const Error& e) {
            throw Exception(ErrorKind::damaged_pack, name + ": " + e.what());
        }
        GbxThumbnail t;
        t.bytes = std::move(file.bytes);
        t.format = file.format;
        t.icon = picture->icon;
        if (picture->size) {
            t.width = picture->size->width;
            t.height = picture->size->height;
        }
        return t;
    });
}

std::optional<GbxThumbnail> gbx_thumbnail(const std::vector<std::uint8_t>& data,
                                          const std::string& name) {
    return gbx_thumbnail(data.data(), data.size(), name);
}

}  // namespace pakfs
