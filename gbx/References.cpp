// SPDX-License-Identifier: GPL-2.0-or-later
// Reference paths split on either slash, and an external reference's target: the referrer's
// folder raised by the ancestor level (never above the drive), its table folder, its name.
#include "gbx/References.hpp"

namespace pakfs::gbx {

std::vector<std::string> splitRefPath(std::string_view path) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : path) {
        if (c == '/' || c == '\\') {
            if (!cur.empty()) parts.push_back(std::move(cur));
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty()) parts.push_back(std::move(cur));
    return parts;
}

std::optional<std::vector<std::string>> referenceTarget(std::vector<std::string> folder,
                                                        const RefTable& refs,
                                                        const ExternalRef& ref, std::size_t keep,
                                                        std::string& problem) {
    if (ref.byResource()) {
        problem = "a by-resource reference has no path";
        return std::nullopt;
    }
    if (keep > folder.size() || refs.ancestorLevel > folder.size() - keep) {
        problem = "ancestor level " + std::to_string(refs.ancestorLevel) +
                  " goes above the top of the drive";
        return std::nullopt;
    }
    folder.resize(folder.size() - refs.ancestorLevel);
    std::uint32_t index = ref.folderIndex.value_or(0);
    if (index > 0) {
        if (index - 1 >= refs.folderPaths.size()) {
            problem = "folder index " + std::to_string(index) + " out of range";
            return std::nullopt;
        }
        for (auto& part : splitRefPath(refs.folderPaths[index - 1])) folder.push_back(part);
    }
    for (auto& part : splitRefPath(ref.name)) folder.push_back(part);
    return folder;
}

}  // namespace pakfs::gbx
