// SPDX-License-Identifier: GPL-2.0-or-later
// What a commit or a one-step edit prints: the changes of a plan, and the summary of a write
// (of a patch pack too).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "packs/Drives.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/Output.hpp"

namespace pakfs::cli {

namespace {

// "1 change", "2 changes".
std::string counted(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

void printChanges(const archive::ChangePlan& plan, const std::string& what, const std::string& from,
                  bool json, bool fromOverlay) {
    if (json) {
        nlohmann::json changes = nlohmann::json::array();
        for (const auto& c : plan.changes)
            changes.push_back({{"change", std::string(1, c.kind)}, {"path", c.path}});
        nlohmann::json j = {{"pak", what}};
        if (fromOverlay) j["overlay"] = from;  // an edit (pak add, rm, mv) comes from none
        j["changes"] = changes;
        std::cout << j.dump(2) << "\n";
    } else {
        for (const auto& c : plan.changes)
            std::printf("%c %s\n", c.kind, shownPath(c.path).c_str());
        std::fprintf(stderr, "%s: %s %s %s\n", what.c_str(),
                     counted(plan.changes.size(), "change", "changes").c_str(),
                     fromOverlay ? "from" : "by", from.c_str());
    }
}

void printWritten(const commit::CommitResult& r, const std::string& given, bool json) {
    // Written through a symbolic link: say which file changed.
    const std::string dest = r.target == given ? given : given + " -> " + r.target.string();
    const std::size_t encoded = r.pack.files - r.pack.copiedFromBase;
    if (json) {
        nlohmann::json j = {{"out", r.target.string()},  {"files", r.pack.files},
                            {"folders", r.pack.folders}, {"copied", r.pack.copiedFromBase},
                            {"encoded", encoded},        {"changes", r.plan.changes.size()}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::fprintf(stderr, "%s: %s in %s (%zu copied as they were, %zu encoded), %s\n",
                     dest.c_str(), counted(r.pack.files, "file", "files").c_str(),
                     counted(r.pack.folders, "folder", "folders").c_str(), r.pack.copiedFromBase,
                     encoded, counted(r.plan.changes.size(), "change", "changes").c_str());
    }
}

void printPatch(const commit::PatchResult& r, const std::string& overlay,
                const std::string& packList, bool dryRun, bool json) {
    if (dryRun) {
        printChanges(r.plan, r.target.string(),
                     (std::filesystem::path(overlay) / packs::kGameDrive).string(), json);
        return;
    }
    if (!r.written) {
        std::fprintf(stderr,
                     "%s: nothing to patch: %s holds no added or changed files; nothing written\n",
                     r.target.c_str(),
                     (std::filesystem::path(overlay) / packs::kGameDrive).string().c_str());
        return;
    }
    if (json) {
        nlohmann::json j = {{"out", r.target.string()},
                            {"files", r.pack.files},
                            {"folders", r.pack.folders},
                            {"changes", r.plan.changes.size()}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::fprintf(stderr, "%s: patch pack of %s in %s%s\n", r.target.c_str(),
                     counted(r.pack.files, "file", "files").c_str(),
                     counted(r.pack.folders, "folder", "folders").c_str(),
                     r.listed ? (", listed last in " + packList).c_str() : "");
    }
}

}  // namespace pakfs::cli
