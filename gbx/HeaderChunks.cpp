// SPDX-License-Identifier: GPL-2.0-or-later
// decodeHeaderChunks: each header chunk a reader knows read alone from its bytes, an error
// unless the reader takes every byte; the values it noted.
#include "gbx/HeaderChunks.hpp"

namespace pakfs::gbx {

std::vector<HeaderChunkInfo> decodeHeaderChunks(const GbxHeader& header,
                                                const ClassRegistry& classes,
                                                const ChunkRegistry& chunks) {
    std::vector<HeaderChunkInfo> out;
    for (const auto& c : header.chunks) {
        HeaderChunkInfo info;
        info.id = c.id;
        const ChunkDef* def = chunks.find(classes.generalize(c.id));
        info.known = def != nullptr;
        if (def) {
            MemorySource mem(header.chunkData(c));
            std::vector<Node> nodes;
            NodeReaderConfig cfg;
            cfg.classes = &classes;
            cfg.chunks = &chunks;
            cfg.offsetName = "header chunk offset";
            NodeReader r(mem, cfg, nodes);
            try {
                r.readDetachedChunk(header.classId, c.id, *def);
                if (*mem.remaining() != 0)
                    info.error = "reader left " + std::to_string(*mem.remaining()) + " of " +
                                 std::to_string(c.size) + " bytes";
                else
                    info.ok = true;
            } catch (const Error& e) {
                info.error = e.what();
            }
            if (!nodes.empty()) info.values = nodes.front().values;
        }
        out.push_back(std::move(info));
    }
    return out;
}

}  // namespace pakfs::gbx
