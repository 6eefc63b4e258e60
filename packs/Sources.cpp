// SPDX-License-Identifier: GPL-2.0-or-later
#include "packs/Sources.hpp"

#include <algorithm>

#include "archive/ops/PakOpener.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"

namespace pakfs::fs {

namespace {
Pack openPack(const std::filesystem::path& path, const archive::KeyOptions& keys, bool resolveNames,
              const std::vector<std::map<std::string, std::string>>& nameLists, bool salvage,
              std::vector<std::string>& warnings) {
    auto [pak, found] = archive::openPak(path, keys, {resolveNames, nameLists, salvage});
    warnings.insert(warnings.end(), found.begin(), found.end());
    for (const auto& e : pak->entries())
        if (!pak->whole(e)) warnings.push_back("not salvaged: " + pak->incompleteMessage(e));
    return Pack{archive::packNameOf(path), std::move(pak)};
}
}  // namespace

LoadedSources loadSources(const std::vector<std::filesystem::path>& sources,
                          const archive::KeyOptions& keys, bool resolveNames,
                          const std::vector<std::map<std::string, std::string>>& nameLists,
                          bool salvage) {
    LoadedSources result;
    for (const auto& source : sources) {
        std::error_code ec;
        if (std::filesystem::is_directory(source, ec)) {
            std::vector<std::filesystem::path> paks;
            for (const auto& item : std::filesystem::directory_iterator(source, ec))
                if (item.is_regular_file() && archive::isPackFile(item.path()))
                    paks.push_back(item.path());
            if (ec) throw Error(source.string() + ": cannot list the folder: " + ec.message());
            std::sort(paks.begin(), paks.end());
            std::size_t before = result.packs.size();
            for (const auto& pak : paks) {
                try {
                    result.packs.push_back(
                        openPack(pak, keys, resolveNames, nameLists, salvage, result.warnings));
                } catch (const Error& e) {
                    result.warnings.push_back(std::string(e.what()) + " (pack left out)");
                }
            }
            if (result.packs.size() == before)
                throw Error(source.string() + ": no pak in this folder could be opened" +
                            (paks.empty() ? " (it holds no .pak file)" : ""));
        } else if (std::filesystem::exists(source, ec)) {
            result.packs.push_back(
                openPack(source, keys, resolveNames, nameLists, salvage, result.warnings));
        } else {
            throw Error(source.string() + ": no such file or folder");
        }
    }
    return result;
}

}  // namespace pakfs::fs
