// SPDX-License-Identifier: GPL-2.0-or-later
// openPak: the path checked, the key resolved, the index opened with the real names its own
// reference tables and the name lists give (one pak, or several resolved together).
#include "archive/ops/PakOpener.hpp"

namespace pakfs::archive {

std::shared_ptr<const PakIndex> openPakIndex(const std::filesystem::path& path,
                                             const PakKeyInput& key,
                                             const PakOpenOptions& options) {
    PakIndex::EntryNamer namer;
    if (options.resolveNames || !options.nameLists.empty())
        namer = [&options](const std::shared_ptr<const PakIndex>& index) {
            // The pack's own reference tables first, then the lists for what they do not name.
            std::map<std::size_t, std::string> names;
            if (options.resolveNames) names = resolvePackNames(index);
            if (!options.nameLists.empty())
                for (auto& [i, name] : resolveFromLists(*index, options.nameLists))
                    names.try_emplace(i, std::move(name));
            return names;
        };
    return PakIndex::open(path, key, options.salvage, namer, options.contents);
}

void resolveNamesTogether(std::vector<std::shared_ptr<const PakIndex>>& paks,
                          const PakOpenOptions& options) {
    if (!options.resolveNames && options.nameLists.empty()) return;
    std::vector<std::map<std::size_t, std::string>> names(paks.size());
    if (options.resolveNames) names = resolvePacksNames(paks);
    for (std::size_t p = 0; p < paks.size(); ++p) {
        if (!options.nameLists.empty())
            for (auto& [i, name] : resolveFromLists(*paks[p], options.nameLists))
                names[p].try_emplace(i, std::move(name));
        if (!names[p].empty()) paks[p] = paks[p]->withNames(names[p]);
    }
}

OpenedPak openPak(const std::filesystem::path& path, const KeyOptions& keys,
                  const PakOpenOptions& options) {
    checkPakStart(path);
    OpenedPak opened;
    PakKeyInput key = resolvePakKey(path, keys, &opened.warnings);
    opened.pak = openPakIndex(path, key, options);
    opened.warnings.insert(opened.warnings.end(), opened.pak->warnings().begin(),
                           opened.pak->warnings().end());
    return opened;
}

}  // namespace pakfs::archive
