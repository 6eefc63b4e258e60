// SPDX-License-Identifier: GPL-2.0-or-later
// Tree: each pack's paths split and checked, or the drives' files merged in load order; names
// that clash numbered, lookups through a hash of parent and (folded) name, paths of nodes.
#include "fs/view/Tree.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "packs/Drives.hpp"

namespace pakfs::fs {

namespace {

constexpr std::size_t kNameBlock = 64 * 1024;

char fold(char c) {
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

// The components of a pack path, refused by the rules of archive::safeComponents (same
// reasons), without allocating: the views point into `path`.
bool splitSafe(std::string_view path, std::vector<std::string_view>& parts, std::string* reason) {
    parts.clear();
    auto bad = [&](const char* why) {
        *reason = why;
        return false;
    };
    if (path.empty()) return bad("empty path");
    if (path.find('\0') != std::string_view::npos) return bad("path contains a NUL byte");
    if (path.front() == '/') return bad("absolute path");
    while (true) {
        std::size_t slash = path.find('/');
        std::string_view part = path.substr(0, slash);
        if (part.empty()) return bad("empty path component");
        if (part == "." || part == "..") return bad("path component \".\" or \"..\"");
        if (part.size() > 255) return bad("path component longer than 255 bytes");
        parts.push_back(part);
        if (slash == std::string_view::npos) return true;
        path.remove_prefix(slash + 1);
    }
}

std::string joinWhat(std::string_view prefix, std::string_view path) {
    std::string out(prefix);
    if (!out.empty()) out += ": ";
    out += path;
    return out;
}

}  // namespace

Node& Tree::newRoot() {
    Node& root = nodes_.emplace_back();
    root.ino = 1;
    root.dir = true;
    root.name = std::string_view("", 0);
    firstChild_.push_back(0);
    nextSibling_.push_back(0);
    childCount_.push_back(0);
    return root;
}

Tree::Tree(std::vector<packs::Pack> packs, bool icase,
           const std::function<void(const std::string&)>& warn)
    : packs_(std::move(packs)), icase_(icase), mergeFold_(icase) {
    std::size_t expected = 1 + packs_.size();
    for (const auto& pack : packs_)
        expected += pack.pak->folders().size() + pack.pak->entries().size();
    slots_.assign(std::bit_ceil(std::max<std::size_t>(16, 2 * expected)), 0);
    firstChild_.reserve(expected);
    nextSibling_.reserve(expected);
    childCount_.reserve(expected);

    Node& root = newRoot();
    std::vector<std::string_view> parts;
    std::string reason;
    for (std::size_t p = 0; p < packs_.size(); ++p) {
        const archive::PakIndex& pak = *packs_[p].pak;
        std::int64_t mtime = pak.file()->mtime();
        root.mtime = std::max(root.mtime, mtime);
        Node& packDir = addChild(root, packs_[p].name, true, "", pak.name(), warn);
        packDir.pack = int(p);
        packDir.mtime = mtime;

        // Consecutive entries mostly share their folder: its node is kept between them.
        std::string_view lastFolder;
        Node* lastDir = nullptr;
        auto place = [&](const std::string& path, const archive::PakEntry* entry) -> Node* {
            if (!splitSafe(path, parts, &reason)) {
                if (warn) warn(pak.name() + ": \"" + path + "\" left out (" + reason + ")");
                return nullptr;
            }
            std::string_view folder(path.data(), std::size_t(parts.back().data() - path.data()));
            Node* at = &packDir;
            if (lastDir && folder == lastFolder) {
                at = lastDir;
            } else {
                for (std::size_t i = 0; i + 1 < parts.size(); ++i)
                    at = &ensureDir(*at, parts[i], warn);
                lastFolder = folder;
                lastDir = at;
            }
            if (!entry) return &ensureDir(*at, parts.back(), warn);
            return &addChild(*at, parts.back(), false, pak.name(), path, warn);
        };
        // Folders first so that empty ones show too and files never take a folder's name.
        for (const auto& folder : pak.folders())
            if (!folder.path.empty()) place(folder.path, nullptr);
        lastDir = nullptr;
        for (const auto& entry : pak.entries()) {
            if (!pak.whole(entry)) continue;  // -o salvage: named when the pack was loaded
            Node* n = place(entry.path, &entry);
            if (!n) continue;
            n->entry = &entry;
            ++files_;
            totalBytes_ += entry.uncompressedSize;
        }
        // Every node of this pack carries the pack's index and time.
        for (auto it = nodes_.begin() + std::ptrdiff_t(packDir.ino - 1); it != nodes_.end(); ++it) {
            it->pack = int(p);
            it->mtime = mtime;
        }
    }
    finish();
}

Tree::Tree(const packs::Drives& drives, bool icase,
           const std::function<void(const std::string&)>& warn)
    : packs_(drives.packs()), icase_(icase), mergeFold_(true) {
    std::size_t expected = 1;
    for (const auto& pack : packs_)
        expected += pack.pak->folders().size() + pack.pak->entries().size();
    slots_.assign(std::bit_ceil(std::max<std::size_t>(16, 2 * expected)), 0);
    Node& root = newRoot();
    for (const auto& pack : packs_) root.mtime = std::max(root.mtime, pack.pak->file()->mtime());
    auto stamp = [&](Node* n, int pack) {
        for (; n && n != &root; n = const_cast<Node*>(n->parent)) {
            if (n->pack < 0) n->pack = pack;
            n->mtime = std::max(n->mtime, packs_[std::size_t(pack)].pak->file()->mtime());
        }
    };
    // Folders first, so that empty ones show too, made from the last pack in load order that
    // holds each (folders of its table, and those its files' paths name): a folder shows that
    // pack's spelling, as a file shows the spelling of the pack whose file wins. Warnings come
    // from the pass below, which places them again in load order.
    for (std::size_t p = packs_.size(); p-- > 0;) {
        const auto& pak = *packs_[p].pak;
        const std::string drive(packs::driveOf(packs_[p].name));
        for (const auto& folder : pak.folders())
            if (!folder.path.empty()) place(root, drive + "/" + folder.path, nullptr, {}, {});
        std::string_view last;  // consecutive entries mostly share their folder
        for (const auto& e : pak.entries()) {
            const std::size_t slash = e.path.rfind('/');
            if (slash == std::string::npos || !pak.whole(e)) continue;
            const std::string_view folder(e.path.data(), slash);
            if (folder == last) continue;
            last = folder;
            place(root, drive + "/" + std::string(folder), nullptr, {}, {});
        }
    }
    for (std::size_t p = 0; p < packs_.size(); ++p) {
        const auto& pak = *packs_[p].pak;
        std::string drive(packs::driveOf(packs_[p].name));
        for (const auto& folder : pak.folders())
            if (!folder.path.empty())
                stamp(place(root, drive + "/" + folder.path, nullptr, pak.name(), warn), int(p));
    }
    for (const packs::DriveFile* f : drives.files()) {
        const auto& pak = *packs_[std::size_t(f->pack)].pak;
        Node* n = place(root, f->path, f->entry, pak.name(), warn);
        if (!n) continue;
        n->entry = f->entry;
        n->pack = f->pack;
        stamp(n, f->pack);
        ++files_;
        totalBytes_ += f->entry->uncompressedSize;
    }
    finish();
}

Node* Tree::place(Node& top, std::string_view path, const archive::PakEntry* entry,
                  const std::string& what, const Warn& warn) {
    std::vector<std::string_view> parts;
    std::string reason;
    if (!splitSafe(path, parts, &reason)) {
        if (warn) warn(what + ": \"" + std::string(path) + "\" left out (" + reason + ")");
        return nullptr;
    }
    Node* at = &top;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) at = &ensureDir(*at, parts[i], warn);
    if (!entry) return &ensureDir(*at, parts.back(), warn);
    return &addChild(*at, parts.back(), false, what, path, warn);
}

std::uint64_t Tree::hashOf(std::uint64_t parentIno, std::string_view name) const {
    std::uint64_t h = 0xcbf29ce484222325ull ^ (parentIno * 0x9e3779b97f4a7c15ull);
    for (char c : name) {
        h ^= std::uint8_t(mergeFold_ ? fold(c) : c);
        h *= 0x100000001b3ull;
    }
    return h ^ (h >> 32);
}

namespace {

bool sameName(std::string_view a, std::string_view b, bool folded) {
    if (a.size() != b.size()) return false;
    if (!folded) return a == b;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (fold(a[i]) != fold(b[i])) return false;
    return true;
}

}  // namespace

Node* Tree::lookup(const Node& parent, std::string_view name, bool folded) const {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = std::size_t(hashOf(parent.ino, name)) & mask;; i = (i + 1) & mask) {
        std::uint32_t ino = slots_[i];
        if (ino == 0) return nullptr;
        const Node& n = nodes_[ino - 1];
        if (n.parent == &parent && sameName(n.name, name, folded)) return const_cast<Node*>(&n);
    }
}

void Tree::insertHash(const Node& node) {
    if (2 * nodes_.size() > slots_.size()) {
        std::vector<std::uint32_t> old(slots_.size() * 2, 0);
        old.swap(slots_);
        for (std::uint32_t ino : old)
            if (ino) insertHash(nodes_[ino - 1]);
    }
    std::size_t mask = slots_.size() - 1;
    std::size_t i = std::size_t(hashOf(node.parent->ino, node.name)) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = std::uint32_t(node.ino);
}

std::string_view Tree::storeName(std::string_view name) {
    // With a NUL after each name, so that name.data() is a C string too.
    if (name.size() + 1 > nameBlockLeft_) {
        std::size_t size = std::max(kNameBlock, name.size() + 1);
        nameBlocks_.push_back(std::make_unique<char[]>(size));
        nameNext_ = nameBlocks_.back().get();
        nameBlockLeft_ = size;
    }
    char* at = nameNext_;
    std::memcpy(at, name.data(), name.size());
    at[name.size()] = '\0';
    nameNext_ += name.size() + 1;
    nameBlockLeft_ -= name.size() + 1;
    return {at, name.size()};
}

Node& Tree::ensureDir(Node& parent, std::string_view name, const Warn& warn) {
    Node* found = lookup(parent, name, mergeFold_);
    if (found && found->dir) return *found;
    // Only a clash needs the path, for the warning.
    std::string path = found ? pathOf(parent) : std::string();
    if (found) path += (path == "/" ? "" : "/") + std::string(name);
    return addChild(parent, name, true, "", path, warn);
}

Node& Tree::addChild(Node& parent, std::string_view name, bool dir, std::string_view whatPrefix,
                     std::string_view whatPath, const Warn& warn) {
    // Two entries with one name (or names equal but for case, with icase or in the drives'
    // view): the later one gets a numbered name so that both stay reachable and no lookup
    // returns the wrong one.
    std::string_view stored;
    if (!lookup(parent, name, mergeFold_)) {
        stored = storeName(name);
    } else {
        std::string unique;
        for (int n = 2;; ++n) {
            unique = std::string(name) + " (" + std::to_string(n) + ")";
            if (!lookup(parent, unique, mergeFold_)) break;
        }
        if (warn)
            warn(joinWhat(whatPrefix, whatPath) + ": name taken, shown as \"" + unique + "\"");
        stored = storeName(unique);
    }

    Node& node = nodes_.emplace_back();
    node.ino = nodes_.size();
    node.name = stored;
    node.parent = &parent;
    node.dir = dir;
    if (dir) ++parent.subdirs;
    firstChild_.push_back(0);
    nextSibling_.push_back(firstChild_[parent.ino - 1]);
    childCount_.push_back(0);
    firstChild_[parent.ino - 1] = std::uint32_t(node.ino);
    ++childCount_[parent.ino - 1];
    insertHash(node);
    return node;
}

void Tree::finish() {
    children_.resize(nodes_.size() - 1);
    std::size_t at = 0;
    for (Node& n : nodes_) {
        std::size_t i = n.ino - 1;
        auto* begin = children_.data() + at;
        for (std::uint32_t c = firstChild_[i]; c; c = nextSibling_[c - 1])
            children_[at++] = &nodes_[c - 1];
        std::sort(begin, children_.data() + at,
                  [](const Node* a, const Node* b) { return a->name < b->name; });
        n.children = {begin, childCount_[i]};
    }
    firstChild_ = {};
    nextSibling_ = {};
    childCount_ = {};
}

const Node* Tree::child(const Node& dir, std::string_view name) const {
    return dir.dir ? lookup(dir, name) : nullptr;
}

const Node* Tree::find(std::string_view path) const {
    if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    if (path.empty() || path == "/") return &root();
    if (path.front() != '/') return nullptr;
    path.remove_prefix(1);
    const Node* at = &root();
    while (true) {
        std::size_t slash = path.find('/');
        std::string_view part = path.substr(0, slash);
        if (part.empty()) return nullptr;
        at = lookup(*at, part);
        if (!at || slash == std::string_view::npos) return at;
        path.remove_prefix(slash + 1);
    }
}

std::string Tree::pathOf(const Node& node) const {
    if (!node.parent) return "/";
    std::vector<std::string_view> names;
    for (const Node* n = &node; n->parent; n = n->parent) names.push_back(n->name);
    std::string out;
    for (auto it = names.rbegin(); it != names.rend(); ++it) (out += '/') += *it;
    return out;
}

}  // namespace pakfs::fs
