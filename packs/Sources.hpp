// SPDX-License-Identifier: GPL-2.0-or-later
// Turns the SOURCE arguments of pakfs (pak files and game Packs folders) into opened packs.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "archive/pak/PackList.hpp"
#include "packs/Pack.hpp"

namespace pakfs::packs {

struct LoadedSources {
    std::vector<Pack> packs;
    std::vector<std::string> warnings;  // packs left out of a folder, packlist problems
};

// A pak file must open (wrong key or damage: Error naming it). A folder contributes every
// *.pak and *.Pack.Gbx in it that opens, with keys from the key options (a keys file gives each
// its own) or its packlist.dat; the others are left out with a warning, and a folder without any
// usable pak is an Error. A keys file that cannot be read or has a malformed line is an Error.
// resolveNames, nameLists, salvage: see archive::PakOpenOptions; names are resolved with the
// references of every pack loaded (archive::resolveNamesTogether), or with acrossPacks false with
// each pack's own alone (as pak commit, which opens one pak, finds them). With salvage, each
// file whose bytes are not all in its pack gives a warning (the mount leaves it out).
LoadedSources loadSources(const std::vector<std::filesystem::path>& sources,
                          const archive::KeyOptions& keys, bool resolveNames = true,
                          const std::vector<std::map<std::string, std::string>>& nameLists = {},
                          bool salvage = false, bool acrossPacks = true);

}  // namespace pakfs::packs
