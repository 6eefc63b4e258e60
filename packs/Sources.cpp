// SPDX-License-Identifier: GPL-2.0-or-later
// loadSources: each SOURCE a pak or a folder of paks (those that fail left out with a warning),
// opened without names, then hashed names resolved across the packs or for each alone.
#include "packs/Sources.hpp"

#include <algorithm>

#include "archive/ops/PakOpener.hpp"
#include "archive/pak/KeysFile.hpp"
#include "common/Error.hpp"
#include "common/File.hpp"

namespace pakfs::packs {

namespace {
// Names are resolved once every pack is open (loadSources): not here.
Pack openPack(const std::filesystem::path& path, const archive::KeyOptions& keys, bool salvage,
              std::vector<std::string>& warnings) {
    auto [pak, found] = archive::openPak(path, keys, {.resolveNames = false, .salvage = salvage});
    warnings.insert(warnings.end(), found.begin(), found.end());
    for (const auto& e : pak->entries())
        if (!pak->whole(e)) warnings.push_back("not salvaged: " + pak->incompleteMessage(e));
    return Pack{archive::packNameOf(path), std::move(pak)};
}
}  // namespace

LoadedSources loadSources(const std::vector<std::filesystem::path>& sources,
                          const archive::KeyOptions& keys, bool resolveNames,
                          const std::vector<std::map<std::string, std::string>>& nameLists,
                          bool salvage, bool acrossPacks) {
    LoadedSources result;
    // Key options that exclude each other, or a keys file that does not read, stop here, not
    // as a warning per pack left out.
    archive::checkKeyOptions(keys);
    if (!keys.keysFile.empty()) (void)archive::readKeysFile(keys.keysFile);
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
                    result.packs.push_back(openPack(pak, keys, salvage, result.warnings));
                } catch (const Error& e) {
                    result.warnings.push_back(std::string(e.what()) + " (pack left out)");
                }
            }
            if (result.packs.size() == before)
                throw Error(source.string() + ": no pak in this folder could be opened" +
                            (paks.empty() ? " (it holds no .pak file)" : ""));
        } else if (std::filesystem::exists(source, ec)) {
            result.packs.push_back(openPack(source, keys, salvage, result.warnings));
        } else {
            throw Error(source.string() + ": no such file or folder");
        }
    }
    // The references of every pack count for the hashed names of all (the game merges them),
    // or of each pack alone.
    const archive::PakOpenOptions naming{.resolveNames = resolveNames, .nameLists = nameLists};
    if (acrossPacks) {
        std::vector<std::shared_ptr<const archive::PakIndex>> paks;
        for (const auto& p : result.packs) paks.push_back(p.pak);
        archive::resolveNamesTogether(paks, naming);
        for (std::size_t i = 0; i < paks.size(); ++i) result.packs[i].pak = std::move(paks[i]);
    } else {
        for (auto& p : result.packs) {
            std::vector<std::shared_ptr<const archive::PakIndex>> one{p.pak};
            archive::resolveNamesTogether(one, naming);
            p.pak = std::move(one.front());
        }
    }
    return result;
}

}  // namespace pakfs::packs
