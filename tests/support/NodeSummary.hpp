// SPDX-License-Identifier: GPL-2.0-or-later
// What tests compare of a parsed gbx file: the classes of its nodes in the order they were read
// and the values the chunk readers noted, keyed "node:key".
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gbx/Classes.hpp"
#include "gbx/GbxFile.hpp"

namespace pakfs::test {

struct NodeSummary {
    std::vector<std::string> classes;
    std::map<std::string, std::string> values;
    bool allChunksKnown = true;
    bool allNodesComplete = true;
};

inline NodeSummary summarize(const gbx::GbxFile& f) {
    NodeSummary s;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const gbx::Node& n = f.nodes[i];
        s.allNodesComplete = s.allNodesComplete && n.complete;
        for (const auto& c : n.chunks) s.allChunksKnown = s.allChunksKnown && c.known;
        s.classes.emplace_back(gbx::ClassRegistry::builtin().name(n.classId));
        for (const auto& [k, v] : n.values) s.values[std::to_string(i) + ":" + k] = v;
    }
    return s;
}

}  // namespace pakfs::test
