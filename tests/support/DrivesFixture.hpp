// SPDX-License-Identifier: GPL-2.0-or-later
// A generated game Packs folder: Resource.pak and two packs in packlist.dat order, with a gbx
// file whose references go across folders, across packs and into Resource.pak.
#pragma once

#include "archive/pak/PackList.hpp"
#include "archive/write/PakWriter.hpp"
#include "gbx/testing/GbxBuilder.hpp"
#include "tests/support/TestUtil.hpp"

namespace pakfs::test {

inline Bytes gbxWithRefs() {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    b.numNodes = 5;
    b.refs.ancestorLevel = 1;  // from Stadium/Media/Solid up to Stadium/Media
    b.refs.folders.push_back({"Texture", {}});
    gbx::ExternalRef road;  // folder 1 = Stadium/Media/Texture, held by pack Common
    road.flags = 1;
    road.name = "Road.dds";
    road.nodeIndex = 1;
    road.folderIndex = 1;
    gbx::ExternalRef res;  // Resource.pak's file number 1: Media/Texture/B.dds
    res.flags = 4;
    res.resourceIndex = 1;
    res.nodeIndex = 2;
    gbx::ExternalRef missing;  // Stadium/Media/Missing.dds: nowhere
    missing.flags = 1;
    missing.name = "Missing.dds";
    missing.nodeIndex = 3;
    missing.folderIndex = 0;
    gbx::ExternalRef badIndex;  // Resource.pak has only 3 files
    badIndex.flags = 4;
    badIndex.resourceIndex = 99;
    badIndex.nodeIndex = 4;
    b.refs.externals = {road, res, missing, badIndex};
    gbx::BodyWriter w;
    w.endNode();
    b.body = w.bytes();
    return b.build();
}

struct PacksFolder {
    TempDir dir;
    std::filesystem::path packs = dir / "Packs";

    PacksFolder() {
        archive::PackList list;
        list.salt = 4242;
        // Load order: Resource, then Stadium, then Common (Common wins on shared paths).
        const char* names[] = {"Resource", "Stadium", "Common"};
        for (const char* n : names)
            list.entries.push_back({0, n, std::string(32, 'A' + char(std::string(n).size()))});
        std::filesystem::create_directories(packs);
        archive::writePackList(packs / "packlist.dat", list);
        auto src = dir / "src";
        writeFile(src / "Resource/Media/Texture/A.dds", Bytes(100, 'a'));
        writeFile(src / "Resource/Media/Texture/B.dds", Bytes(200, 'b'));
        writeFile(src / "Resource/Shaders/x.fx", Bytes(10, 'x'));
        writeFile(src / "Stadium/Stadium/Media/Solid/Road.Solid.Gbx", gbxWithRefs());
        writeFile(src / "Stadium/Shared.txt", Bytes{'s', 't', 'a', 'd'});
        writeFile(src / "Common/Stadium/Media/Texture/Road.dds", Bytes(300, 'r'));
        writeFile(src / "Common/shared.TXT", Bytes{'c', 'o', 'm'});
        for (const auto& e : list.entries)
            archive::writePak(src / e.name, packs / (e.name + ".pak"), e.key(), {});
    }
};

}  // namespace pakfs::test
