// SPDX-License-Identifier: GPL-2.0-or-later
// Opening a pak and finding its entries, as every command that reads one does.
#include <cstdio>

#include "archive/ops/HashedNames.hpp"
#include "archive/ops/PakOpener.hpp"
#include "tools/pak/Commands.hpp"
#include "tools/pak/Output.hpp"

using namespace pakfs::archive;

namespace pakfs::cli {

std::shared_ptr<const PakIndex> openAndWarn(const std::string& path, const KeyOptions& keys,
                                            bool resolveNames,
                                            const std::vector<std::string>& nameLists,
                                            bool salvage) {
    if (!resolveNames && !nameLists.empty())
        throw UsageError("--hashed-names shows the stored hashes: it does not go with --names");
    // The file first: a wrong path is "no such file" or "not a pak", not a bad name list.
    checkPakStart(path);
    std::vector<std::string> listWarnings;
    PakOpenOptions options{resolveNames, readHashListFiles(nameLists, listWarnings), salvage};
    for (const auto& w : listWarnings) warn(w);
    auto opened = archive::openPak(path, keys, options);
    for (const auto& w : opened.warnings) warn(w);
    if (!opened.pak->metadataError().empty()) warn(opened.pak->metadataError());
    return opened.pak;
}

std::vector<std::shared_ptr<const PakIndex>> nameTogether(
    std::vector<std::shared_ptr<const PakIndex>> paks, bool resolveNames,
    const std::vector<std::string>& nameLists) {
    if (!resolveNames && !nameLists.empty())
        throw UsageError("--hashed-names shows the stored hashes: it does not go with --names");
    std::vector<std::string> listWarnings;
    PakOpenOptions options{resolveNames, readHashListFiles(nameLists, listWarnings), false};
    for (const auto& w : listWarnings) warn(w);
    resolveNamesTogether(paks, options);
    return paks;
}

const PakEntry* findEntry(const PakIndex& pak, const std::string& path) {
    for (const auto& e : pak.entries())
        if (e.path == path) return &e;
    const std::string want = foldCase(path);
    for (const auto& e : pak.entries())
        if (foldCase(e.path) == want) return &e;
    // A file shown under its real name is found by its stored (hashed) path too.
    for (const auto& e : pak.entries()) {
        if (!looksHashed(e.name)) continue;
        const std::string stored =
            e.folder >= 0 ? pak.folders()[std::size_t(e.folder)].path + "/" + e.name : e.name;
        if (foldCase(stored) == want) return &e;
    }
    return nullptr;
}

bool leftOut(const PakIndex& pak, const PakEntry& e) {
    if (pak.whole(e)) return false;
    std::fprintf(stderr, "pak: not salvaged: %s\n", pak.incompleteMessage(e).c_str());
    return true;
}

}  // namespace pakfs::cli
