// SPDX-License-Identifier: GPL-2.0-or-later
// Internal to the planner's files: the "/"-joined paths of a plan, its folder table, and the
// names that differ only in case, gathered for one error.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "archive/write/PackPlan.hpp"
#include "common/Error.hpp"

namespace pakfs::archive::plan {

inline std::string parentOf(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

inline std::string baseNameOf(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The one builder of a plan's folder table: each folder by its "/"-joined path, after its
// parent.
class FolderTable {
public:
    explicit FolderTable(std::vector<PlanFolder>& folders) : folders_(folders) {}

    std::int32_t add(const std::string& path, std::int32_t parent, std::string name) {
        const auto index = std::int32_t(folders_.size());
        folders_.push_back({parent, std::move(name)});
        byPath_.emplace(path, index);
        return index;
    }
    const std::int32_t* find(const std::string& path) const {
        auto it = byPath_.find(path);
        return it == byPath_.end() ? nullptr : &it->second;
    }
    // The index of folder `dir` ("": the root), added with every folder above it it lacks.
    std::int32_t ensure(const std::string& dir) {
        if (dir.empty()) return -1;
        if (auto found = find(dir)) return *found;
        const std::int32_t parent = ensure(parentOf(dir));
        return add(dir, parent, baseNameOf(dir) + "\\");
    }
    // Where `path` goes without adding folders: under the nearest folder above it the table
    // has, named by the rest of its path (a pak may name folders only in its files' names).
    std::pair<std::int32_t, std::string> nearest(const std::string& path) const {
        std::int32_t parent = -1;
        std::string name = path;
        for (std::string q = parentOf(path); !q.empty(); q = parentOf(q))
            if (auto found = find(q)) {
                parent = *found;
                name = path.substr(q.size() + 1);
                break;
            }
        std::replace(name.begin(), name.end(), '/', '\\');
        return {parent, name};
    }

private:
    std::vector<PlanFolder>& folders_;
    std::map<std::string, std::int32_t> byPath_;
};

// Names that differ only in case from another, which the game (it ignores case) would take
// for one: gathered so that one Error names every one. A name inside a folder already named is
// left out (renaming that folder settles it).
class CaseClashes {
public:
    explicit CaseClashes(std::filesystem::path root) : root_(std::move(root)) {}

    // `path` differs only in case from `other`, a name in the `where` ("pack", "overlay"; null:
    // the same tree).
    void add(const std::string& path, const std::string& other, const char* where) {
        for (std::string p = parentOf(path); !p.empty(); p = parentOf(p))
            if (named_.count(p)) return;
        named_.insert(path);
        lines_.push_back((root_ / path).string() + ": differs only in case from " + other +
                         (where ? std::string(" in the ") + where : std::string()));
    }
    void throwIfAny() const {
        const std::string why = ", which the game would not tell apart";
        if (lines_.empty()) return;
        if (lines_.size() == 1) throw Error(lines_.front() + why);
        std::string m = root_.string() + ": " + std::to_string(lines_.size()) +
                        " names differ only in case from another" + why + ":";
        for (const auto& line : lines_) m += "\n  " + line;
        throw Error(m);
    }

private:
    std::filesystem::path root_;
    std::set<std::string> named_;
    std::vector<std::string> lines_;
};

}  // namespace pakfs::archive::plan
