// SPDX-License-Identifier: GPL-2.0-or-later
// Packs ordered (Resource, then packlist.dat's order), their files merged into drives, later
// packs winning; references resolved in the drives or on disk; where to delete a file.
#include "packs/Drives.hpp"

#include <algorithm>

#include "archive/pak/PackList.hpp"
#include "gbx/References.hpp"

namespace pakfs::packs {

namespace {

// Drive paths split like reference paths: on '/' and '\', empty components dropped.
std::vector<std::string> splitPath(std::string_view path) {
    return gbx::splitRefPath(path);
}

std::string joinPath(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
    return out;
}

}  // namespace

std::vector<Pack> orderPacks(std::vector<Pack> packs,
                             const std::vector<std::string>& packListOrder) {
    auto rank = [&](const Pack& p) -> std::size_t {
        if (isResourcePack(p)) return 0;
        for (std::size_t i = 0; i < packListOrder.size(); ++i)
            if (foldCase(packListOrder[i]) == foldCase(p.name)) return 1 + i;
        return 1 + packListOrder.size();
    };
    std::stable_sort(packs.begin(), packs.end(), [&](const Pack& a, const Pack& b) {
        std::size_t ra = rank(a), rb = rank(b);
        if (ra != rb) return ra < rb;
        return a.name < b.name;
    });
    return packs;
}

std::vector<std::string> packListOrder(const std::vector<std::filesystem::path>& sources,
                                       std::vector<std::string>* warnings) {
    std::vector<std::string> order;
    for (const auto& source : sources) {
        std::error_code ec;
        if (!std::filesystem::is_directory(source, ec)) continue;
        auto list = archive::findPackList(source);
        if (!list) continue;
        try {
            for (const auto& e : archive::readPackList(*list).entries) order.push_back(e.name);
        } catch (const Error& e) {
            if (warnings)
                warnings->push_back(std::string(e.what()) + " (packs taken in name order)");
        }
    }
    return order;
}

Drives::Drives(std::vector<Pack> packs) : packs_(std::move(packs)) {
    // Each folder of `path` (all of it when `isFolder`) is held by pack p.
    auto addFolders = [&](const std::string& path, bool isFolder, int p) {
        auto parts = splitPath(path);
        std::string folder;
        for (std::size_t i = 0; i + (isFolder ? 0 : 1) < parts.size(); ++i) {
            folder += (i ? "/" : "") + parts[i];
            auto& holders = folders_[foldCase(folder)];
            if (holders.empty() || holders.back().pack != p) holders.push_back({p, folder});
        }
    };
    // Later packs replace earlier ones' files: walk in load order, overwrite on collision.
    for (std::size_t p = 0; p < packs_.size(); ++p) {
        std::string drive(driveOf(packs_[p].name));
        for (const auto& folder : packs_[p].pak->folders())
            if (!folder.path.empty()) addFolders(drive + "/" + folder.path, true, int(p));
        for (const auto& e : packs_[p].pak->entries()) {
            if (!packs_[p].pak->whole(e)) continue;  // -o salvage: named when loaded
            std::string path = drive + "/" + e.path;
            std::string key = foldCase(path);
            auto [it, inserted] = byKey_.emplace(key, files_.size());
            if (inserted) {
                files_.push_back({path, int(p), &e});
            } else {
                DriveFile& old = files_[it->second];
                shadowed_.push_back({old.path, packs_[std::size_t(old.pack)].name, packs_[p].name});
                hidden_[key].push_back({old.pack, old.path});
                old = {path, int(p), &e};
            }
            addFolders(path, false, int(p));
        }
    }
    for (std::size_t p = 0; p < packs_.size(); ++p) {
        if (!isResourcePack(packs_[p])) continue;
        for (const auto& e : packs_[p].pak->entries()) {
            const DriveFile* f = find(std::string(kResourceDrive) + "/" + e.path);
            resources_.push_back(f && f->entry == &e ? f : nullptr);
        }
        break;  // one Resource drive
    }
}

const DriveFile* Drives::find(std::string_view drivePath) const {
    auto it = byKey_.find(foldCase(joinPath(splitPath(drivePath))));
    return it == byKey_.end() ? nullptr : &files_[it->second];
}

bool Drives::hasFolder(std::string_view drivePath) const {
    return folders_.count(foldCase(joinPath(splitPath(drivePath)))) > 0;
}

std::vector<Drives::Holder> Drives::holders(std::string_view drivePath) const {
    const std::string key = foldCase(joinPath(splitPath(drivePath)));
    if (auto file = byKey_.find(key); file != byKey_.end()) {
        std::vector<Holder> out;
        if (auto h = hidden_.find(key); h != hidden_.end()) out = h->second;
        const DriveFile& shown = files_[file->second];
        out.push_back({shown.pack, shown.path});
        return out;
    }
    if (auto folder = folders_.find(key); folder != folders_.end()) return folder->second;
    return {};
}

std::string Drives::deletionAdvice(std::string_view drivePath) const {
    const std::vector<Holder> held = holders(drivePath);
    if (held.empty()) return {};
    std::string who;
    for (std::size_t i = 0; i < held.size(); ++i) {
        const Pack& pack = packs_[std::size_t(held[i].pack)];
        who += std::string(i == 0                 ? ""
                           : i + 1 == held.size() ? " and "
                                                  : ", ") +
               pack.name + " (" + pack.pak->name() + ")";
    }
    // The first pack, mounted alone: the file is in its folder, at its path in the pack.
    const Pack& first = packs_[std::size_t(held.front().pack)];
    const std::string& spelled = held.front().path;
    const std::size_t slash = spelled.find('/');
    const std::string inPack = slash == std::string::npos ? "" : spelled.substr(slash + 1);
    const std::string pak = shellWord(first.pak->name());
    return std::string(drivePath) + " comes from " + (held.size() == 1 ? "pack " : "packs ") + who +
           ": to delete it, mount " +
           (held.size() == 1 ? "that pack" : "each of them (" + first.name + " first)") +
           " alone writable with a new overlay folder DIR, delete it there and commit: pakfs " +
           pak + " MOUNTPOINT -o overlay=DIR; rm " + (find(drivePath) ? "" : "-r ") +
           shellWord("MOUNTPOINT/" + first.name + (inPack.empty() ? "" : "/" + inPack)) +
           "; fusermount3 -u MOUNTPOINT; pak commit " + pak + " DIR --in-place";
}

std::optional<std::string> Drives::drivePathOf(int pack, const archive::PakEntry& entry) const {
    std::string drive(driveOf(packs_[std::size_t(pack)].name));
    const DriveFile* f = find(drive + "/" + entry.path);
    if (f && f->entry == &entry) return f->path;
    return std::nullopt;
}

std::vector<const DriveFile*> Drives::files() const {
    std::vector<const DriveFile*> out;
    for (const auto& f : files_) out.push_back(&f);
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->path < b->path; });
    return out;
}

namespace {

// The game's own Resource.pak refutes the one mapping ever proposed (the index of a file in
// Resource.pak's file table): its font and control style name by resource index files whose
// chunks read them as a bitmap and a font, and the table's files at those indexes are a shader
// and a DDS image. Until the mapping is known, such a reference is not resolved.
ResolvedReference unresolvedByResource(const gbx::ExternalRef& ref) {
    ResolvedReference r{ref, std::nullopt, false, {}, true};
    r.problem = "resource index " + std::to_string(ref.resourceIndex) +
                ": which file it names is not known (not Resource.pak's file table order)";
    return r;
}

}  // namespace

std::vector<ResolvedReference> resolveReferences(const Drives& drives,
                                                 std::string_view fileDrivePath,
                                                 const gbx::RefTable& refs) {
    std::vector<ResolvedReference> out;
    auto folder = splitPath(fileDrivePath);
    if (!folder.empty()) folder.pop_back();  // the file name
    for (const auto& ref : refs.externals) {
        if (ref.byResource()) {
            out.push_back(unresolvedByResource(ref));
            continue;
        }
        ResolvedReference r{ref, std::nullopt, false, {}};
        // The drive name is the first component and cannot be left.
        auto target = gbx::referenceTarget(folder, refs, ref, 1, r.problem);
        if (target) {
            std::string path = joinPath(*target);
            const DriveFile* f = drives.find(path);
            r.exists = f != nullptr;
            r.resolved = f ? f->path : path;
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<ResolvedReference> resolveReferencesOnDisk(const std::filesystem::path& file,
                                                       const gbx::RefTable& refs) {
    std::vector<ResolvedReference> out;
    std::filesystem::path dir = std::filesystem::absolute(file).parent_path();
    auto folder = splitPath(dir.string());
    // Case-insensitive lookup of a relative path under "/".
    auto findOnDisk = [](const std::vector<std::string>& parts) -> std::optional<std::string> {
        std::filesystem::path at = "/";
        for (const auto& part : parts) {
            std::error_code ec;
            std::filesystem::path next;
            for (std::filesystem::directory_iterator it(at, ec), end; !ec && it != end;
                 it.increment(ec))
                if (foldCase(it->path().filename().string()) == foldCase(part)) {
                    next = it->path();
                    break;
                }
            if (next.empty()) return std::nullopt;
            at = next;
        }
        return at.string();
    };
    for (const auto& ref : refs.externals) {
        if (ref.byResource()) {
            out.push_back(unresolvedByResource(ref));
            continue;
        }
        ResolvedReference r{ref, std::nullopt, false, {}};
        auto target = gbx::referenceTarget(folder, refs, ref, 0, r.problem);
        if (target) {
            auto found = findOnDisk(*target);
            r.exists = found.has_value();
            r.resolved = found ? *found : "/" + joinPath(*target);
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace pakfs::packs
