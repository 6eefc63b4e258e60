// SPDX-License-Identifier: GPL-2.0-or-later
// The mounted folder tree: one folder per pack holding the pack's folders and files (or, in the
// game's view, /Resource and /Game holding the drives' merged files). Built once from the
// packs' file tables (nothing is decoded), immutable afterwards except for a few per-file facts
// learned lazily, so any number of threads can read it.
//
// Sized for 100k+ entries: no full path is stored, names live in one arena, children in one
// array, and lookups hash (parent, name) and walk a path one component at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "archive/pak/PakIndex.hpp"
#include "packs/Pack.hpp"

namespace pakfs::packs {
class Drives;
}  // namespace pakfs::packs

namespace pakfs::fs {

// What the first bytes of a file entry say about how to decode it (learned on first read).
enum class EntryKind : std::uint8_t { Unknown, Plain, Gbx };

struct Node {
    std::uint64_t ino = 0;
    std::string_view name;  // in the tree's arena, NUL-terminated; "" for the root
    const Node* parent = nullptr;
    const archive::PakEntry* entry = nullptr;  // files only
    std::int64_t mtime = 0;
    std::span<const Node* const> children;  // sorted by name
    std::uint32_t subdirs = 0;
    int pack = -1;  // index into Tree::packs(); -1 for the root
    bool dir = false;

    mutable std::atomic<EntryKind> kind{EntryKind::Unknown};
    mutable std::atomic<bool> errorLogged{false};

    std::uint64_t size() const { return entry ? entry->uncompressedSize : 0; }
};

class Tree {
public:
    // `warn` receives one line per entry left out or renamed.
    Tree(std::vector<packs::Pack> packs, bool icase,
         const std::function<void(const std::string&)>& warn = {});
    // The game's view: /Resource and /Game holding the merged files of `drives`. Names are
    // merged without regard to case whether or not `icase` is given (the game compares them
    // so): a folder shows the spelling of the last pack in load order that holds it, a file
    // the spelling of the pack whose file shows (Drives). `icase` makes lookups
    // case-insensitive, as for packs.
    Tree(const packs::Drives& drives, bool icase,
         const std::function<void(const std::string&)>& warn = {});
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;

    const Node& root() const { return nodes_.front(); }
    // "/" or "/pack/folder/file"; nullptr if absent. Case-insensitive with icase.
    const Node* find(std::string_view path) const;
    // The child of `dir` called `name`; nullptr if absent. Case-insensitive with icase.
    const Node* child(const Node& dir, std::string_view name) const;
    // By inode number (1 = the root); nullptr if out of range.
    const Node* byIno(std::uint64_t ino) const {
        return ino >= 1 && ino <= nodes_.size() ? &nodes_[std::size_t(ino - 1)] : nullptr;
    }
    // "/pack/folder/name" as mounted; "/" for the root.
    std::string pathOf(const Node& node) const;
    const std::vector<packs::Pack>& packs() const { return packs_; }
    const packs::Pack& packOf(const Node& node) const { return packs_[std::size_t(node.pack)]; }
    bool icase() const { return icase_; }
    std::size_t nodeCount() const { return nodes_.size(); }
    std::size_t fileCount() const { return files_; }
    std::uint64_t totalBytes() const { return totalBytes_; }

private:
    using Warn = std::function<void(const std::string&)>;
    // Places a file (entry != nullptr) or folder at `path` under `top`; nullptr if unsafe.
    Node* place(Node& top, std::string_view path, const archive::PakEntry* entry,
                const std::string& what, const Warn& warn);
    // `whatPrefix` and `whatPath` name the entry in a warning ("prefix: path").
    Node& addChild(Node& parent, std::string_view name, bool dir, std::string_view whatPrefix,
                   std::string_view whatPath, const Warn& warn);
    Node& ensureDir(Node& parent, std::string_view name, const Warn& warn);
    // `fold`: names equal but for case match (lookups with icase, and building with mergeFold_).
    Node* lookup(const Node& parent, std::string_view name, bool fold) const;
    Node* lookup(const Node& parent, std::string_view name) const {
        return lookup(parent, name, icase_);
    }
    std::uint64_t hashOf(std::uint64_t parentIno, std::string_view name) const;
    void insertHash(const Node& node);
    std::string_view storeName(std::string_view name);
    Node& newRoot();
    void finish();  // flattens and sorts the children lists, drops building state

    std::vector<packs::Pack> packs_;
    bool icase_;
    // Names equal but for case are one name while building (icase, or the drives' view), so
    // the hash folds case then too.
    bool mergeFold_;
    std::deque<Node> nodes_;             // stable addresses; nodes_[i].ino == i + 1
    std::vector<std::uint32_t> slots_;   // open addressing: ino of (parent, name), 0 = empty
    std::vector<const Node*> children_;  // every folder's children, one run per folder
    std::vector<std::unique_ptr<char[]>> nameBlocks_;
    char* nameNext_ = nullptr;
    std::size_t nameBlockLeft_ = 0;
    // While building: children as singly linked lists (index + 1 into nodes_, 0 = none).
    std::vector<std::uint32_t> firstChild_, nextSibling_, childCount_;
    std::size_t files_ = 0;
    std::uint64_t totalBytes_ = 0;
};

}  // namespace pakfs::fs
