// SPDX-License-Identifier: GPL-2.0-or-later
// What `pak gbx info` prints of a gbx file, as text and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "gbx/GbxFile.hpp"

namespace pakfs::gbx {

struct DescribeOptions {
    bool nodes = false;  // include the node tree
    const ClassRegistry* classes = &ClassRegistry::builtin();
};

// "03043005H": a header chunk ID with H when the chunk is heavy (as MANIFEST.tsv writes them).
std::string headerChunkLabel(const HeaderChunk& c);

// What `pak gbx info` prints, for whatever part of the file was read; a failure is described
// under "error" (JSON) or on a last "stopped:" line (text).
nlohmann::json describeJson(const GbxFile& f, const DescribeOptions& opts = {});
std::string describeText(const GbxFile& f, const DescribeOptions& opts = {});

}  // namespace pakfs::gbx
