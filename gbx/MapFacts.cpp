// SPDX-License-Identifier: GPL-2.0-or-later
// Collection IDs of the game's global ID table: GBX.NET's Resources/CollectionId.txt, which
// another public reader's table (a switch over the same numbers) matches.
#include "gbx/MapFacts.hpp"

#include <map>

#include "gbx/ClassIds.hpp"
#include "gbx/HeaderChunks.hpp"

namespace pakfs::gbx {

bool isMap(const GbxHeader& header, const ClassRegistry& classes) {
    return isMapClass(header.classId, classes);
}

bool isMapClass(std::uint32_t classId, const ClassRegistry& classes) {
    return classes.generalize(classId) == kClassChallenge;
}

std::string collectionName(const std::string& lookback) {
    if (lookback.size() < 2 || lookback[0] != '#') return lookback;
    static const std::map<unsigned long, const char*> names = {
        {0, "Speed"},
        {1, "Alpine"},
        {2, "Rally"},
        {3, "Island"},
        {4, "Bay"},
        {5, "Coast"},
        {6, "Stadium"},
        {7, "Basic"},
        {8, "Plain"},
        {9, "Moon"},
        {10, "Toy"},
        {11, "Valley"},
        {12, "Canyon"},
        {13, "Lagoon"},
        {14, "Deprecated_Arena"},
        {15, "GreenCoast"},
        {16, "RedIsland"},
        {17, "TMCommon"},
        {18, "Canyon4"},
        {19, "Canyon256"},
        {20, "Valley4"},
        {21, "Valley256"},
        {22, "Lagoon4"},
        {23, "Lagoon256"},
        {24, "Stadium4"},
        {25, "Stadium256"},
        // Trackmania (2020)'s Stadium; GBX.NET's name.
        {26, "Stadium2020"},
        {28, "BlueBay"},
        {29, "WhiteShore"},
        {100, "History"},
        {101, "Society"},
        {102, "Galaxy"},
        {200, "Gothic"},
        {201, "Paris"},
        {202, "Storm"},
        {203, "Cryo"},
        {204, "Meteor"},
        {205, "Meteor4"},
        {206, "Meteor256"},
        {299, "SMCommon"},
        {10000, "Vehicles"},
        {10001, "Orbital"},
        {10002, "Actors"},
        {10003, "Common"},
    };
    const std::string digits = lookback.substr(1);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return lookback;
    const unsigned long id = std::stoul(digits);
    auto it = names.find(id);
    return it != names.end() ? it->second : "collection " + digits;
}

std::optional<MapFacts> mapFacts(const GbxHeader& header, const ClassRegistry& classes) {
    if (!isMap(header, classes)) return std::nullopt;
    MapFacts facts;
    for (const auto& info : decodeHeaderChunks(header, classes)) {
        if (!info.ok) continue;
        const std::uint32_t id = classes.generalize(info.id);
        for (const auto& [key, value] : info.values) {
            if (value.empty()) continue;  // an unassigned lookback string, an empty name
            if (id == 0x03043002 || id == 0x03043003) {
                // 03043003 comes after 03043002 and says the same: it wins.
                if (key == "name") facts.title = value;
                if (key == "environment") facts.environment = collectionName(value);
                if (key == "author") facts.author = value;
            } else if (id == 0x03043008) {
                if (key == "author" && !facts.author) facts.author = value;
                if (key == "author nickname") facts.authorNickname = value;
            }
        }
    }
    try {
        facts.thumbnail = findPicture(header, classes);
    } catch (const Error& e) {
        facts.thumbnailProblem = e.what();
    }
    return facts;
}

}  // namespace pakfs::gbx
