// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs/Tree.hpp"

#include <algorithm>

#include "archive/Extract.hpp"
#include "fs/Drives.hpp"

namespace pakfs::fs {

std::string foldCase(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

namespace {
std::string childPath(const Node& parent, const std::string& name) {
    return parent.path == "/" ? "/" + name : parent.path + "/" + name;
}
}  // namespace

Tree::Tree(std::vector<Pack> packs, bool icase, const std::function<void(const std::string&)>& warn)
    : packs_(std::move(packs)), icase_(icase) {
    Node& root = nodes_.emplace_back();
    root.ino = 1;
    root.path = "/";
    root.dir = true;
    byPath_[key("/")] = &root;

    for (std::size_t p = 0; p < packs_.size(); ++p) {
        const archive::PakIndex& pak = *packs_[p].pak;
        std::int64_t mtime = pak.file()->mtime();
        root.mtime = std::max(root.mtime, mtime);
        Node& packDir = addChild(root, packs_[p].name, true, pak.name(), warn);
        packDir.pack = int(p);
        packDir.mtime = mtime;

        auto place = [&](const std::string& path, const archive::PakEntry* entry) -> Node* {
            std::string reason;
            auto parts = archive::safeComponents(path, &reason);
            if (!parts || parts->empty()) {
                if (warn)
                    warn(pak.name() + ": \"" + path + "\" left out (" +
                         (reason.empty() ? "empty name" : reason) + ")");
                return nullptr;
            }
            Node* at = &packDir;
            for (std::size_t i = 0; i + 1 < parts->size(); ++i)
                at = &ensureDir(*at, (*parts)[i], warn);
            if (!entry) return &ensureDir(*at, parts->back(), warn);
            return &addChild(*at, parts->back(), false, pak.name() + ": " + path, warn);
        };
        // Folders first so that empty ones show too and files never take a folder's name.
        for (const auto& folder : pak.folders())
            if (!folder.path.empty())
                if (Node* n = place(folder.path, nullptr)) n->pack = int(p);
        for (const auto& entry : pak.entries()) {
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
    sortChildren();
}

Tree::Tree(const Drives& drives, bool icase, const std::function<void(const std::string&)>& warn)
    : packs_(drives.packs()), icase_(icase) {
    Node& root = nodes_.emplace_back();
    root.ino = 1;
    root.path = "/";
    root.dir = true;
    byPath_[key("/")] = &root;
    for (const auto& pack : packs_) root.mtime = std::max(root.mtime, pack.pak->file()->mtime());
    auto stamp = [&](Node* n, int pack) {
        for (; n && n != &root; n = const_cast<Node*>(n->parent)) {
            if (n->pack < 0) n->pack = pack;
            n->mtime = std::max(n->mtime, packs_[std::size_t(pack)].pak->file()->mtime());
        }
    };
    // Folders of every pack first, so that empty ones show too.
    for (std::size_t p = 0; p < packs_.size(); ++p) {
        const auto& pak = *packs_[p].pak;
        std::string drive(foldCase(packs_[p].name) == "resource" ? kResourceDrive : kGameDrive);
        for (const auto& folder : pak.folders())
            if (!folder.path.empty())
                stamp(place(root, drive + "/" + folder.path, nullptr, pak.name(), warn), int(p));
    }
    for (const DriveFile* f : drives.files()) {
        const auto& pak = *packs_[std::size_t(f->pack)].pak;
        Node* n = place(root, f->path, f->entry, pak.name(), warn);
        if (!n) continue;
        n->entry = f->entry;
        n->pack = f->pack;
        stamp(n, f->pack);
        ++files_;
        totalBytes_ += f->entry->uncompressedSize;
    }
    sortChildren();
}

Node* Tree::place(Node& top, const std::string& path, const archive::PakEntry* entry,
                  const std::string& what, const std::function<void(const std::string&)>& warn) {
    std::string reason;
    auto parts = archive::safeComponents(path, &reason);
    if (!parts || parts->empty()) {
        if (warn)
            warn(what + ": \"" + path + "\" left out (" + (reason.empty() ? "empty name" : reason) +
                 ")");
        return nullptr;
    }
    Node* at = &top;
    for (std::size_t i = 0; i + 1 < parts->size(); ++i) at = &ensureDir(*at, (*parts)[i], warn);
    if (!entry) return &ensureDir(*at, parts->back(), warn);
    return &addChild(*at, parts->back(), false, what + ": " + path, warn);
}

void Tree::sortChildren() {
    for (Node& n : nodes_)
        std::sort(n.children.begin(), n.children.end(),
                  [](const Node* a, const Node* b) { return a->name < b->name; });
}

Node& Tree::ensureDir(Node& parent, const std::string& name,
                      const std::function<void(const std::string&)>& warn) {
    auto it = byPath_.find(key(childPath(parent, name)));
    if (it != byPath_.end() && it->second->dir) return *it->second;
    return addChild(parent, name, true, childPath(parent, name), warn);
}

Node& Tree::addChild(Node& parent, std::string name, bool dir, const std::string& what,
                     const std::function<void(const std::string&)>& warn) {
    // Two entries with one name (or names equal but for case, with icase): the later one gets
    // a numbered name so that both stay reachable and no lookup returns the wrong one.
    std::string unique = name;
    for (int n = 2; byPath_.count(key(childPath(parent, unique))); ++n)
        unique = name + " (" + std::to_string(n) + ")";
    if (unique != name && warn) warn(what + ": name taken, shown as \"" + unique + "\"");

    Node& node = nodes_.emplace_back();
    node.ino = nodes_.size();
    node.name = std::move(unique);
    node.path = childPath(parent, node.name);
    node.parent = &parent;
    node.dir = dir;
    parent.children.push_back(&node);
    if (dir) ++parent.subdirs;
    byPath_[key(node.path)] = &node;
    return node;
}

const Node* Tree::find(std::string_view path) const {
    if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    auto it = byPath_.find(key(path.empty() ? std::string_view("/") : path));
    return it == byPath_.end() ? nullptr : it->second;
}

}  // namespace pakfs::fs
