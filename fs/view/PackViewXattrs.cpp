// SPDX-License-Identifier: GPL-2.0-or-later
// PackView's extended attributes: the file table's fields (user.pak.*), a gbx entry's class,
// decode and references (user.gbx.*), and a map's title, author and environment
// (user.gbx.map.*).
#include <cerrno>
#include <cstring>

#include "archive/entry/CounterMode.hpp"
#include "archive/entry/GbxEntry.hpp"
#include "fs/view/PackView.hpp"
#include "gbx/Classes.hpp"
#include "gbx/MapFacts.hpp"

namespace pakfs::fs {

std::vector<std::pair<const char*, std::string>> PackView::mapAttributes(const Node& node) const {
    std::vector<std::pair<const char*, std::string>> out;
    const archive::PakEntry& e = *node.entry;
    // The file table's class, as user.gbx.class gives it: only maps decode their header here.
    if (!gbx::isMapClass(e.classId)) return out;
    try {
        if (kindOf(node) != EntryKind::Gbx) return out;
        const gbx::GbxHeader header = archive::readGbxEntryRefs(tree_.packOf(node).pak, e).header;
        auto facts = gbx::mapFacts(header);
        if (!facts) return out;
        if (facts->title) out.emplace_back(kXattrMapTitle, *facts->title);
        if (facts->author) out.emplace_back(kXattrMapAuthor, *facts->author);
        if (facts->environment) out.emplace_back(kXattrMapEnvironment, *facts->environment);
        if (facts->thumbnail)
            out.emplace_back(kXattrMapThumbnail, gbx::describePicture(*facts->thumbnail));
        if (!facts->thumbnailProblem.empty()) logOnce(node, facts->thumbnailProblem);
    } catch (const std::exception& err) {
        logOnce(node, err.what());
    }
    return out;
}

std::string PackView::xattrValue(const Node& node, std::string_view name, bool* found) const {
    *found = true;
    const archive::PakEntry& e = *node.entry;
    if (name.rfind("user.gbx.map.", 0) == 0) {
        for (auto& [attr, value] : mapAttributes(node))
            if (name == attr) return std::move(value);
        *found = false;
        return {};
    }
    if (name == kXattrClassId) return hex32(e.classId);
    if (name == kXattrFlags) return hex64(e.flags);
    if (name == kXattrCompressedSize) return std::to_string(e.compressedSize);
    if (name == kXattrCipher && e.counterMode) return archive::counterModeKind(e);
    if (name == kXattrGbxClass) {
        EntryKind kind = EntryKind::Unknown;
        try {
            kind = kindOf(node);
        } catch (const std::exception&) {
        }
        if (kind == EntryKind::Gbx) {
            std::string_view className = gbx::ClassRegistry::builtin().name(e.classId);
            return className.empty() ? hex32(e.classId) : std::string(className);
        }
    }
    if (name == kXattrGbxDecode) {
        EntryKind kind = EntryKind::Unknown;
        try {
            kind = kindOf(node);
        } catch (const std::exception&) {
        }
        if (kind == EntryKind::Gbx) {
            archive::GbxDecodeOptions gbx;
            gbx.unverified = options_.unverified;
            return archive::gbxDecodeKindName(
                archive::decodeGbxEntryProven(tree_.packOf(node).pak, e, gbx).kind);
        }
    }
    bool gbxEntry = false;
    try {
        gbxEntry = name == kXattrGbxRefs && kindOf(node) == EntryKind::Gbx;
    } catch (const std::exception&) {
    }
    if (gbxEntry) {
        const auto& pak = tree_.packOf(node).pak;
        // A file hidden by another pack still resolves from where its own pack puts it.
        std::string where =
            drives()
                .drivePathOf(node.pack, e)
                .value_or(std::string(packs::driveOf(tree_.packOf(node).name)) + "/" + e.path);
        try {
            std::string lines;
            for (const auto& r :
                 packs::resolveReferences(drives(), where, archive::readGbxEntryRefs(pak, e).refs))
                lines += r.unknown ? "resource " + std::to_string(r.ref.resourceIndex) +
                                         " (not resolved)\n"
                         : r.resolved ? *r.resolved + (r.exists ? "\n" : " (missing)\n")
                                      : "- (missing)\n";
            return lines;
        } catch (const Error& err) {
            logOnce(node, err.what());
        }
    }
    *found = false;
    return {};
}

long PackView::getxattr(Ino ino, std::string_view name, char* value, std::size_t size) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    if (node->dir) return -ENODATA;
    bool found = false;
    std::string v = xattrValue(*node, name, &found);
    if (!found) return -ENODATA;
    if (size == 0 || !value) return long(v.size());
    if (size < v.size()) return -ERANGE;
    std::memcpy(value, v.data(), v.size());
    return long(v.size());
}

long PackView::listxattr(Ino ino, char* list, std::size_t size) {
    const Node* node = tree_.byIno(ino);
    if (!node) return -ENOENT;
    std::string names;
    if (!node->dir) {
        for (const char* name : {kXattrClassId, kXattrFlags, kXattrCompressedSize, kXattrCipher,
                                 kXattrGbxClass, kXattrGbxRefs}) {
            bool found = false;
            xattrValue(*node, name, &found);
            if (found) names.append(name).push_back('\0');
        }
        // Every gbx entry has one; its value costs a decode, so it is not made here.
        if (names.find(kXattrGbxClass) != std::string::npos)
            names.append(kXattrGbxDecode).push_back('\0');
        for (const auto& [name, value] : mapAttributes(*node)) names.append(name).push_back('\0');
    }
    if (size == 0 || !list) return long(names.size());
    if (size < names.size()) return -ERANGE;
    std::memcpy(list, names.data(), names.size());
    return long(names.size());
}

}  // namespace pakfs::fs
