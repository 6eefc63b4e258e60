// SPDX-License-Identifier: GPL-2.0-or-later
// The class table and ivXor rules parsed from their text (every row checked), lookups by ID and
// name, and the class input a node read folds into the ivXor.
#include "gbx/Classes.hpp"

#include <charconv>
#include <vector>

#include "common/Bytes.hpp"
#include "common/Error.hpp"

namespace pakfs::gbx {
namespace {

constexpr std::uint32_t kClassMask = 0xFFFFF000;

std::vector<std::string_view> splitTabs(std::string_view line) {
    std::vector<std::string_view> cols;
    while (true) {
        auto tab = line.find('\t');
        cols.push_back(line.substr(0, tab));
        if (tab == std::string_view::npos) break;
        line.remove_prefix(tab + 1);
    }
    return cols;
}

std::uint32_t parseId(std::string_view text, std::string_view where) {
    std::uint32_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
    if (ec != std::errc() || p != text.data() + text.size() || text.size() != 8)
        throw Error("class table: bad ID '" + std::string(text) + "' in " + std::string(where));
    return v;
}

// Calls fn(columns, line) for each non-comment, non-empty line.
template <typename Fn>
void forEachRow(std::string_view text, Fn fn) {
    while (!text.empty()) {
        auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        fn(splitTabs(line), line);
    }
}

}  // namespace

ClassRegistry ClassRegistry::fromText(std::string_view classTable, std::string_view rules) {
    ClassRegistry reg;
    auto need = [](const std::vector<std::string_view>& cols, std::size_t n,
                   std::string_view line) {
        if (cols.size() != n) throw Error("class table: bad line '" + std::string(line) + "'");
    };
    forEachRow(classTable, [&](const std::vector<std::string_view>& cols, std::string_view line) {
        if (cols[0] == "class") {
            need(cols, 4, line);
            std::uint32_t parent = parseId(cols[2], line);
            reg.classes_[parseId(cols[1], line)] = {std::string(cols[3]),
                                                    parent ? std::optional(parent) : std::nullopt};
        } else if (cols[0] == "remap") {
            need(cols, 3, line);
            reg.remap_[parseId(cols[1], line)] = parseId(cols[2], line);
        } else if (cols[0] == "specific") {
            need(cols, 3, line);
            reg.specific_[parseId(cols[1], line)] = parseId(cols[2], line);
        } else {
            throw Error("class table: unknown row kind in '" + std::string(line) + "'");
        }
    });
    forEachRow(rules, [&](const std::vector<std::string_view>& cols, std::string_view line) {
        need(cols, 3, line);
        std::uint32_t a = parseId(cols[1], line);
        if (cols[0] == "name") {
            auto& info = reg.classes_[a];
            if (info.name.empty()) info.name = std::string(cols[2]);
        } else if (cols[0] == "ivxor-parent") {
            reg.rules_.parentOverride[a] = parseId(cols[2], line);
        } else if (cols[0] == "ivxor-replace") {
            reg.rules_.replace[a] = parseId(cols[2], line);
        } else if (cols[0] == "ivxor-fold") {
            reg.rules_.fixedInput[a] = parseId(cols[2], line);
        } else {
            throw Error("class rules: unknown row kind in '" + std::string(line) + "'");
        }
    });
    return reg;
}

const ClassRegistry& ClassRegistry::builtin() {
    static const ClassRegistry reg = fromText(data::kClassTable, data::kClassRules);
    return reg;
}

std::uint32_t ClassRegistry::generalize(std::uint32_t id) const {
    auto it = remap_.find(id & kClassMask);
    return it == remap_.end() ? id : it->second | (id & ~kClassMask);
}

std::uint32_t ClassRegistry::specific(std::uint32_t classId) const {
    auto it = specific_.find(classId);
    return it == specific_.end() ? classId : it->second;
}

std::optional<std::uint32_t> ClassRegistry::parent(std::uint32_t classId) const {
    auto it = classes_.find(generalize(classId) & kClassMask);
    return it == classes_.end() ? std::nullopt : it->second.parent;
}

std::optional<std::uint32_t> ClassRegistry::idOf(std::string_view name) const {
    std::optional<std::uint32_t> found;
    for (const auto& [id, info] : classes_) {
        if (info.name != name) continue;
        if (found) return std::nullopt;
        found = id;
    }
    return found;
}

std::string_view ClassRegistry::name(std::uint32_t classId) const {
    auto it = classes_.find(generalize(classId) & kClassMask);
    return it == classes_.end() ? std::string_view{} : std::string_view(it->second.name);
}

std::uint32_t ClassRegistry::ivXorClassInput(std::uint32_t storedClassId) const {
    std::uint32_t g = generalize(storedClassId) & kClassMask;
    if (auto f = rules_.fixedInput.find(g); f != rules_.fixedInput.end()) return f->second;
    std::uint32_t p;
    if (auto o = rules_.parentOverride.find(g); o != rules_.parentOverride.end())
        p = o->second;
    else
        p = parent(g).value_or(kCMwNod);
    std::uint32_t s = specific(p);
    if (auto r = rules_.replace.find(s); r != rules_.replace.end()) s = r->second;
    // The game never folds a zero class input (doc/FORMAT.md §7.3).
    return s == 0 ? 0xFFFFFFFF : s;
}

bool ClassRegistry::ofClassOrAncestor(std::uint32_t id, std::uint32_t classId) const {
    std::uint32_t want = generalize(id) & kClassMask;
    std::optional<std::uint32_t> c = generalize(classId) & kClassMask;
    // The class tree is a tree, but the table is data: bound the walk.
    for (int depth = 0; c && depth < 64; ++depth) {
        if (*c == want) return true;
        c = parent(*c);
    }
    return false;
}

std::uint32_t ivXorClassInput(std::uint32_t storedClassId) {
    return ClassRegistry::builtin().ivXorClassInput(storedClassId);
}

std::string describeClass(std::uint32_t classId, const ClassRegistry& classes) {
    std::string_view n = classes.name(classId);
    return (n.empty() ? std::string("unknown class") : std::string(n)) + " (" + hex32(classId) +
           ")";
}

}  // namespace pakfs::gbx
