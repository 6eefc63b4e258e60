// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a whole gbx file (header, references, body) and what stopped a read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/ByteSource.hpp"
#include "gbx/Header.hpp"
#include "gbx/NodeReader.hpp"
#include "gbx/Nodes.hpp"
#include "gbx/ReadObserver.hpp"

namespace pakfs::gbx {

struct BodyInfo {
    bool compressed = false;
    std::uint64_t offset = 0;            // file offset of the body (after the reference table)
    std::uint64_t uncompressedSize = 0;  // for an uncompressed body: bytes after the ref table
    std::uint32_t compressedSize = 0;
    bool sizeKnown = false;  // false when the source could not tell what is left
};

enum class ReadStage { Header, RefTable, Body, Nodes, Done };
const char* stageName(ReadStage stage);

struct ReadFailure {
    ReadStage stage = ReadStage::Header;
    std::string message;
    std::uint64_t offset = 0;  // file offset, or decompressed-body offset when inBody
    bool inBody = false;       // the offset is inside the decompressed body
    bool truncated = false;
    // Node problems: where the nodes stop being read exactly (ParseError::resumeOffset).
    std::uint64_t resumeOffset = 0;
};

struct ReadOptions {
    bool readNodes = true;  // false: header, references and body sizes only
    bool keepBody = false;  // keep the (decompressed) body bytes in GbxFile::bodyData
    // false: the nodes of an LZO body are not parsed (the pak pipeline needs only the nodes
    // that are read from the source itself).
    bool readCompressedBodyNodes = true;
    const ClassRegistry* classes = &ClassRegistry::builtin();
    const ChunkRegistry* chunks = &ChunkRegistry::builtin();
    std::uint32_t maxDepth = 64;
    bool stopAtUnknownSkippable = false;  // NodeReaderConfig::stopAtUnknownSkippable
};

struct GbxFile {
    GbxHeader header;
    RefTable refs;
    BodyInfo body;
    Bytes bodyData;                         // when ReadOptions::keepBody
    std::vector<Node> nodes;                // nodes[0] is the main node once the body was reached
    ReadStage reached = ReadStage::Header;  // the stage being read when it stopped, or Done
    bool nodesComplete = false;             // the main node's end marker was read
    std::uint64_t trailingBytes = 0;        // bytes after the main node (known sizes only)
    // Slots of the node table neither read nor taken by the reference table once the main node
    // was read whole: a file the game wrote fills every one.
    std::uint32_t unfilledSlots = 0;
    std::optional<ReadFailure> failure;
};

// Reads a whole gbx file from src: header, reference table, body, and (readNodes) every node.
// The observer hears every node read from src itself: the main node right after the reference
// table and every new node reference right after its class ID. An uncompressed body is read
// straight from src; an LZO body is read whole and its nodes are read from memory without the
// observer. Throws Error (ParseError for node problems) on bad input.
GbxFile readGbx(ByteSource& src, ReadObserver* observer = nullptr, const ReadOptions& opts = {});

// Same, but reads as far as the file goes and records why it stopped in GbxFile::failure
// instead of throwing.
GbxFile readGbxPartial(ByteSource& src, ReadObserver* observer = nullptr,
                       const ReadOptions& opts = {});

// Upper bound on a decompressed body, against hostile sizes.
inline constexpr std::uint32_t kMaxBodySize = 1u << 30;

}  // namespace pakfs::gbx
