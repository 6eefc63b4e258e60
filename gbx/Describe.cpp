// SPDX-License-Identifier: GPL-2.0-or-later
// pak gbx info's text and JSON: header fields and chunks (with their readers' values), the
// reference table, the body, pictures and map facts, and the node tree as far as it was read.
#include "gbx/Describe.hpp"

#include <sstream>

#include "gbx/MapFacts.hpp"

namespace pakfs::gbx {
namespace {

using nlohmann::json;

const char* refKindName(RefKind k) {
    switch (k) {
        case RefKind::Null:
            return "null";
        case RefKind::New:
            return "new";
        case RefKind::Back:
            return "back";
        case RefKind::External:
            return "external";
    }
    return "?";
}

json foldersJson(const std::vector<RefFolder>& folders) {
    json out = json::array();
    for (const auto& f : folders)
        out.push_back({{"name", f.name}, {"folders", foldersJson(f.folders)}});
    return out;
}

// A value a chunk reader noted; "node N" of an external slot gets the file it names.
std::string valueText(const GbxFile& f, const std::string& v) {
    if (v.rfind("node ", 0) != 0) return v;
    for (const auto& e : f.refs.externals) {
        if (v != "node " + std::to_string(e.nodeIndex)) continue;
        if (e.byResource()) return v + " (resource " + std::to_string(e.resourceIndex) + ")";
        std::string folder = *e.folderIndex ? f.refs.folderPaths[*e.folderIndex - 1] : "";
        return v + " (" + folder + e.name + ")";
    }
    return v;
}

json nodeJson(const GbxFile& f, std::size_t i, const ClassRegistry& classes) {
    const Node& n = f.nodes[i];
    json chunks = json::array();
    for (const auto& c : n.chunks) {
        json jc = {{"id", hex32(c.id)},
                   {"offset", c.offset},
                   {"skippable", c.skippable},
                   {"known", c.known}};
        if (c.skippable) jc["size"] = c.size;
        if (c.classBody) jc["class_body"] = true;
        if (!c.refs.empty()) {
            json refs = json::array();
            for (const auto& r : c.refs) {
                json jr = {{"kind", refKindName(r.kind)}};
                if (r.index >= 0) jr["index"] = r.index;
                if (r.node != kNoNode) jr["node"] = r.node;
                refs.push_back(std::move(jr));
            }
            jc["refs"] = std::move(refs);
        }
        chunks.push_back(std::move(jc));
    }
    json values = json::object();
    for (const auto& [k, v] : n.values) values[k] = json(valueText(f, v));  // last one wins
    json jn = {{"node", i},
               {"class_id", hex32(n.classId)},
               {"class_name", std::string(classes.name(n.classId))},
               {"depth", n.depth},
               {"complete", n.complete},
               {"in_skippable_chunk", n.inSkippableChunk},
               {"chunks", std::move(chunks)}};
    jn["slot"] = n.slot >= 0 ? json(n.slot) : json(nullptr);
    jn["parent"] = n.parent != kNoNode ? json(n.parent) : json(nullptr);
    if (!values.empty()) jn["values"] = std::move(values);
    return jn;
}

void printTree(std::ostream& out, const GbxFile& f, std::size_t i, const ClassRegistry& classes,
               int indent) {
    const Node& n = f.nodes[i];
    std::string pad(std::size_t(indent) * 2, ' ');
    out << pad << "#" << i;
    if (n.slot >= 0) out << " [slot " << n.slot << "]";
    out << " " << describeClass(n.classId, classes);
    if (!n.complete) out << " (incomplete)";
    out << "\n";
    for (const auto& [k, v] : n.values) out << pad << "  " << k << ": " << valueText(f, v) << "\n";
    for (const auto& c : n.chunks) {
        if (c.classBody)
            out << pad << "  body at " << c.offset << " (fields, no chunk IDs)";
        else
            out << pad << "  chunk " << hex32(c.id) << " at " << c.offset;
        if (c.skippable) out << ", skippable, " << c.size << " bytes";
        if (!c.known) out << (c.skippable ? ", unknown: skipped" : ", unknown");
        out << "\n";
        for (const auto& r : c.refs) {
            switch (r.kind) {
                case RefKind::New:
                    printTree(out, f, r.node, classes, indent + 2);
                    break;
                case RefKind::Back:
                    out << pad << "    -> #" << r.node << " [slot " << r.index
                        << "] (read before)\n";
                    break;
                case RefKind::External:
                    out << pad << "    -> external [slot " << r.index << "]\n";
                    break;
                case RefKind::Null:
                    break;
            }
        }
    }
}

json pictureJson(const Picture& p) {
    json j = {{"format", pictureFormatName(p.format)},
              {"size", p.data.size()},
              {"chunk", hex32(p.chunk)}};
    j["width"] = p.size ? json(p.size->width) : json(nullptr);
    j["height"] = p.size ? json(p.size->height) : json(nullptr);
    return j;
}

std::string pictureText(const Picture& p) {
    return describePicture(p) + " (header chunk " + hex32(p.chunk) + ")";
}

// A map's facts, or a collector's icon: what pak gbx info adds after the header chunks.
void describePictures(const GbxHeader& h, const ClassRegistry& classes, json& j) {
    if (auto facts = mapFacts(h, classes)) {
        json m = json::object();
        auto put = [&](const char* key, const std::optional<std::string>& v) {
            m[key] = v ? json(*v) : json(nullptr);
        };
        put("title", facts->title);
        put("author", facts->author);
        put("author_nickname", facts->authorNickname);
        put("environment", facts->environment);
        m["thumbnail"] = facts->thumbnail ? pictureJson(*facts->thumbnail) : json(nullptr);
        if (!facts->thumbnailProblem.empty()) m["thumbnail_error"] = facts->thumbnailProblem;
        j["map"] = std::move(m);
        return;
    }
    try {
        if (auto p = findPicture(h, classes); p && p->icon) j["icon"] = pictureJson(*p);
    } catch (const Error& e) {
        j["icon_error"] = e.what();
    }
}

void describePictures(const GbxHeader& h, const ClassRegistry& classes, std::ostream& out) {
    if (auto facts = mapFacts(h, classes)) {
        if (facts->title) out << "map title: " << *facts->title << "\n";
        if (facts->author) out << "map author: " << *facts->author << "\n";
        if (facts->authorNickname) out << "map author nickname: " << *facts->authorNickname << "\n";
        if (facts->environment) out << "map environment: " << *facts->environment << "\n";
        out << "map thumbnail: "
            << (facts->thumbnail                  ? pictureText(*facts->thumbnail)
                : facts->thumbnailProblem.empty() ? std::string("none")
                                                  : "damaged: " + facts->thumbnailProblem)
            << "\n";
        return;
    }
    try {
        if (auto p = findPicture(h, classes); p && p->icon)
            out << "icon: " << pictureText(*p) << "\n";
    } catch (const Error& e) {
        out << "icon: damaged: " << e.what() << "\n";
    }
}

}  // namespace

std::string headerChunkLabel(const HeaderChunk& c) {
    return hex32(c.id) + (c.heavy ? "H" : "");
}

json describeJson(const GbxFile& f, const DescribeOptions& opts) {
    const ClassRegistry& classes = *opts.classes;
    json j;
    const GbxHeader& h = f.header;
    j["version"] = h.version;
    j["format"] = h.format;
    j["class_id"] = hex32(h.classId);
    j["class_name"] = std::string(classes.name(h.classId));
    if (classes.generalize(h.classId) != h.classId)
        j["class_id_generalized"] = hex32(classes.generalize(h.classId));
    j["user_data_size"] = h.userDataSize;
    json chunks = json::array();
    for (const auto& c : h.chunks)
        chunks.push_back({{"id", hex32(c.id)}, {"size", c.size}, {"heavy", c.heavy}});
    j["header_chunks"] = std::move(chunks);
    if (f.reached > ReadStage::Header) describePictures(h, classes, j);
    j["num_nodes"] = h.numNodes;
    if (f.reached > ReadStage::RefTable) {
        json ext = json::array();
        for (const auto& e : f.refs.externals) {
            json je = {{"flags", e.flags}, {"node_index", e.nodeIndex}, {"use_file", e.useFile}};
            if (e.byResource()) {
                je["resource_index"] = e.resourceIndex;
            } else {
                je["name"] = e.name;
                je["folder_index"] = *e.folderIndex;
                if (*e.folderIndex > 0) je["folder"] = f.refs.folderPaths[*e.folderIndex - 1];
            }
            ext.push_back(std::move(je));
        }
        j["references"] = {{"ancestor_level", f.refs.ancestorLevel},
                           {"folders", foldersJson(f.refs.folders)},
                           {"folder_paths", f.refs.folderPaths},
                           {"externals", std::move(ext)}};
    }
    if (f.reached > ReadStage::Body || (f.reached == ReadStage::Body && f.body.sizeKnown)) {
        json b = {{"compressed", f.body.compressed}, {"offset", f.body.offset}};
        b["uncompressed_size"] = f.body.sizeKnown ? json(f.body.uncompressedSize) : json(nullptr);
        b["compressed_size"] = f.body.compressed ? json(f.body.compressedSize) : json(nullptr);
        j["body"] = std::move(b);
    }
    if (!f.nodes.empty() || f.reached == ReadStage::Nodes) {
        j["nodes_read"] = f.nodes.size();
        j["nodes_complete"] = f.nodesComplete;
        if (f.nodesComplete) j["trailing_bytes"] = f.trailingBytes;
        if (opts.nodes) {
            json nodes = json::array();
            for (std::size_t i = 0; i < f.nodes.size(); ++i)
                nodes.push_back(nodeJson(f, i, classes));
            j["nodes"] = std::move(nodes);
        }
    }
    if (f.failure) {
        j["error"] = {{"stage", stageName(f.failure->stage)},
                      {"message", f.failure->message},
                      {"offset", f.failure->offset},
                      {"in_body", f.failure->inBody},
                      {"truncated", f.failure->truncated}};
    }
    return j;
}

std::string describeText(const GbxFile& f, const DescribeOptions& opts) {
    const ClassRegistry& classes = *opts.classes;
    const GbxHeader& h = f.header;
    std::ostringstream out;
    if (h.version == 0) return {};  // nothing was read
    out << "gbx version " << h.version << ", format " << h.format << "\n";
    out << "class: " << describeClass(h.classId, classes);
    if (classes.generalize(h.classId) != h.classId)
        out << ", read as " << hex32(classes.generalize(h.classId));
    out << "\n";
    if (f.reached == ReadStage::Header) return out.str();
    out << "user data: " << h.userDataSize << " bytes, " << h.chunks.size() << " header chunks\n";
    for (const auto& c : h.chunks) {
        out << "  " << hex32(c.id) << "  " << c.size << " bytes" << (c.heavy ? ", heavy" : "");
        std::string_view n = classes.name(c.id);
        if (!n.empty()) out << "  (" << n << ")";
        out << "\n";
    }
    describePictures(h, classes, out);
    out << "nodes: " << h.numNodes << "\n";
    if (f.reached == ReadStage::RefTable) return out.str();
    if (f.refs.externals.empty()) {
        out << "references: none\n";
    } else {
        out << "references: " << f.refs.externals.size() << ", ancestor level "
            << f.refs.ancestorLevel << ", " << f.refs.folderPaths.size() << " folders\n";
        for (std::size_t i = 0; i < f.refs.folderPaths.size(); ++i)
            out << "  folder " << i + 1 << ": " << f.refs.folderPaths[i] << "\n";
        for (const auto& e : f.refs.externals) {
            out << "  [slot " << e.nodeIndex << "] flags " << e.flags << ", ";
            if (e.byResource())
                out << "resource " << e.resourceIndex;
            else
                out << (*e.folderIndex ? f.refs.folderPaths[*e.folderIndex - 1] : std::string())
                    << e.name << " (folder " << *e.folderIndex << ")";
            out << ", useFile " << e.useFile << "\n";
        }
    }
    if (f.body.compressed && f.body.sizeKnown)
        out << "body: LZO, " << f.body.compressedSize << " -> " << f.body.uncompressedSize
            << " bytes at offset " << f.body.offset << "\n";
    else if (f.reached >= ReadStage::Body)
        out << "body: uncompressed, "
            << (f.body.sizeKnown ? std::to_string(f.body.uncompressedSize) : std::string("?"))
            << " bytes at offset " << f.body.offset << "\n";
    if (!f.nodes.empty() || f.reached == ReadStage::Nodes) {
        out << "nodes read: " << f.nodes.size()
            << (f.nodesComplete ? ", complete" : ", incomplete");
        if (f.nodesComplete && f.trailingBytes)
            out << ", " << f.trailingBytes << " bytes after the main node";
        out << "\n";
        if (opts.nodes && !f.nodes.empty()) printTree(out, f, 0, classes, 0);
    }
    return out.str();
}

}  // namespace pakfs::gbx
