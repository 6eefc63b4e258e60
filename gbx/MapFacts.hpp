// SPDX-License-Identifier: GPL-2.0-or-later
// What a map's header says about it: title, author, environment, thumbnail (pak gbx info and
// the mount's user.gbx.map.* attributes).
#pragma once

#include <optional>
#include <string>

#include "gbx/Classes.hpp"
#include "gbx/Header.hpp"
#include "gbx/pictures/Pictures.hpp"

namespace pakfs::gbx {

struct MapFacts {
    std::optional<std::string> title;   // the map's name as stored (with its $ formatting codes)
    std::optional<std::string> author;  // the author's login (an account ID in 2020)
    std::optional<std::string> authorNickname;  // chunk 03043008, ManiaPlanet on
    std::optional<std::string> environment;     // the collection: "Stadium", "Speed", ...
    std::optional<Picture> thumbnail;
    std::string thumbnailProblem;  // set when the thumbnail chunk is damaged
};

// Whether the file is a map (CGameCtnChallenge, under any of its class IDs).
bool isMap(const GbxHeader& header, const ClassRegistry& classes = ClassRegistry::builtin());
// The same for a class ID (a file table's): whether it is read as a map's.
bool isMapClass(std::uint32_t classId, const ClassRegistry& classes = ClassRegistry::builtin());

// The facts of a map's header chunks 03043002 (before version 3), 03043003 and 03043008, each
// read whole by its chunk reader (a chunk that does not read gives nothing), and its thumbnail;
// nullopt when the file is not a map. Never throws.
std::optional<MapFacts> mapFacts(const GbxHeader& header,
                                 const ClassRegistry& classes = ClassRegistry::builtin());

// The name of a collection as a lookback string gives it: names as they are, numbers ("#26",
// the game's global ID table) by name where public ID tables agree, else "collection N".
std::string collectionName(const std::string& lookback);

}  // namespace pakfs::gbx
