// SPDX-License-Identifier: GPL-2.0-or-later
// The mounted folder tree: one folder per pack holding the pack's folders and files. Built once
// from the packs' file tables (nothing is decoded), immutable afterwards except for a few
// per-file facts learned lazily, so any number of threads can read it.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "archive/PakIndex.hpp"

namespace pakfs::fs {

struct Pack {
    std::string name;  // folder name under the mount point (file name without extension)
    std::shared_ptr<const archive::PakIndex> pak;
};

// What the first bytes of a file entry say about how to decode it (learned on first read).
enum class EntryKind : std::uint8_t { Unknown, Plain, Gbx };

struct Node {
    std::uint64_t ino = 0;
    std::string name;
    std::string path;  // "/pack/folder/name" as mounted; "/" for the root
    const Node* parent = nullptr;
    bool dir = false;
    int pack = -1;                             // index into Tree::packs(); -1 for the root
    const archive::PakEntry* entry = nullptr;  // files only
    std::int64_t mtime = 0;
    std::uint32_t subdirs = 0;
    std::vector<const Node*> children;  // sorted by name

    mutable std::atomic<EntryKind> kind{EntryKind::Unknown};
    mutable std::atomic<bool> errorLogged{false};

    std::uint64_t size() const { return entry ? entry->uncompressedSize : 0; }
};

// ASCII case folding: game paths are ASCII and the game compares them case-insensitively.
std::string foldCase(std::string_view s);

class Drives;

class Tree {
public:
    // `warn` receives one line per entry left out or renamed.
    Tree(std::vector<Pack> packs, bool icase,
         const std::function<void(const std::string&)>& warn = {});
    // The game's view: /Resource and /Game holding the merged files of `drives`.
    Tree(const Drives& drives, bool icase,
         const std::function<void(const std::string&)>& warn = {});
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;

    const Node& root() const { return nodes_.front(); }
    // "/" or "/pack/folder/file"; nullptr if absent. Case-insensitive with icase.
    const Node* find(std::string_view path) const;
    const std::vector<Pack>& packs() const { return packs_; }
    const Pack& packOf(const Node& node) const { return packs_[std::size_t(node.pack)]; }
    bool icase() const { return icase_; }
    std::size_t nodeCount() const { return nodes_.size(); }
    std::size_t fileCount() const { return files_; }
    std::uint64_t totalBytes() const { return totalBytes_; }

private:
    // Places a file (entry != nullptr) or folder at `path` under `top`; nullptr if unsafe.
    Node* place(Node& top, const std::string& path, const archive::PakEntry* entry,
                const std::string& what, const std::function<void(const std::string&)>& warn);
    void sortChildren();
    Node& addChild(Node& parent, std::string name, bool dir, const std::string& what,
                   const std::function<void(const std::string&)>& warn);
    Node& ensureDir(Node& parent, const std::string& name,
                    const std::function<void(const std::string&)>& warn);
    std::string key(std::string_view path) const {
        return icase_ ? foldCase(path) : std::string(path);
    }

    std::vector<Pack> packs_;
    bool icase_;
    std::deque<Node> nodes_;                         // stable addresses; nodes_[i].ino == i + 1
    std::unordered_map<std::string, Node*> byPath_;  // key(path) -> node
    std::size_t files_ = 0;
    std::uint64_t totalBytes_ = 0;
};

}  // namespace pakfs::fs
