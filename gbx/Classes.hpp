// SPDX-License-Identifier: GPL-2.0-or-later
// The game's class tree: names, parents, old-to-new class IDs, and the ivXor's special cases.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pakfs::gbx {

namespace data {
extern const std::string_view kClassTable;  // gbx/data/classes.tsv, embedded at build time
extern const std::string_view kClassRules;  // gbx/data/rules.tsv, embedded at build time
}  // namespace data

inline constexpr std::uint32_t kCMwNod = 0x01001000;

// The special cases of the node-read ivXor that other readers met on real packs. Kept as data so
// the pipeline can replace them without touching code.
struct IvXorRules {
    std::unordered_map<std::uint32_t, std::uint32_t> parentOverride;  // class -> parent to use
    std::unordered_map<std::uint32_t, std::uint32_t> replace;         // S -> S used instead
    std::unordered_map<std::uint32_t, std::uint32_t> fixedInput;      // class -> S, any parent
};

// Class names, parents and the old/new class ID mapping of TrackMania Forever.
class ClassRegistry {
public:
    // The tables embedded from gbx/data (parsed once, shared, immutable).
    static const ClassRegistry& builtin();
    // Builds a registry from text in the formats of gbx/data/classes.tsv and rules.tsv.
    static ClassRegistry fromText(std::string_view classTable, std::string_view rules);

    // Old class ID -> the ID the game reads it as; identity for IDs without a remap. Works on
    // chunk IDs too: the chunk index (low 12 bits) is kept and the class part is remapped.
    std::uint32_t generalize(std::uint32_t id) const;
    // New class ID -> its old ("specific") ID, identity when it has none.
    std::uint32_t specific(std::uint32_t classId) const;
    // Parent of the (generalized) class in the game's class tree; nullopt for unknown classes
    // and for the root.
    std::optional<std::uint32_t> parent(std::uint32_t classId) const;
    // Name of the class (old IDs are named after the class they are read as); empty if unknown.
    std::string_view name(std::uint32_t classId) const;
    bool known(std::uint32_t classId) const { return !name(classId).empty(); }
    // The ID of the class of the tree named `name`; nullopt when no class, or more than one
    // (CGameCtnCollector of Forever and of the later games), has that name.
    std::optional<std::uint32_t> idOf(std::string_view name) const;

    // S = specific(parent(generalized(id))) with the rules applied: the 4 bytes the game runs
    // through CalcIVXor at every node read. A class whose parent is unknown counts as a child
    // of CMwNod.
    std::uint32_t ivXorClassInput(std::uint32_t storedClassId) const;
    // Whether chunk or class ID `id` belongs to classId (generalized) or one of its ancestors.
    bool ofClassOrAncestor(std::uint32_t id, std::uint32_t classId) const;

    const IvXorRules& ivXorRules() const { return rules_; }
    void setIvXorRules(IvXorRules rules) { rules_ = std::move(rules); }

    std::size_t classCount() const { return classes_.size(); }

private:
    struct ClassInfo {
        std::string name;
        std::optional<std::uint32_t> parent;
    };
    std::unordered_map<std::uint32_t, ClassInfo> classes_;
    std::unordered_map<std::uint32_t, std::uint32_t> remap_;     // old -> new
    std::unordered_map<std::uint32_t, std::uint32_t> specific_;  // new -> old
    IvXorRules rules_;
};

// ivXorClassInput with the built-in tables.
std::uint32_t ivXorClassInput(std::uint32_t storedClassId);

// "CGameCtnChallenge (03043000)" or "unknown class (12345000)".
std::string describeClass(std::uint32_t classId,
                          const ClassRegistry& classes = ClassRegistry::builtin());

}  // namespace pakfs::gbx
