// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/ops/PakOpener.hpp"

namespace pakfs::archive {

std::shared_ptr<const PakIndex> openPakIndex(const std::filesystem::path& path,
                                             const PakKeyInput& key,
                                             const PakOpenOptions& options) {
    PakIndex::EntryNamer namer;
    if (options.resolveNames || !options.nameLists.empty())
        namer = [&options](const std::shared_ptr<const PakIndex>& index) {
            // The pack's own reference tables first, then the lists for what they do not name.
            auto names = resolvePackNames(index);
            if (!options.nameLists.empty())
                for (auto& [i, name] : resolveFromLists(*index, options.nameLists))
                    names.try_emplace(i, std::move(name));
            return names;
        };
    return PakIndex::open(path, key, options.salvage, namer);
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
