// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the seed corpora of the fuzz targets into OUTDIR/<target>/, from the test generators
// (writePak, GbxBuilder), so no binary seed is kept in the repository.
#include <cstdio>

#include "archive/PackList.hpp"
#include "tests/hostile/Generators.hpp"

using namespace pakfs;
namespace fs = std::filesystem;

namespace {

void seed(const fs::path& dir, const std::string& name, ByteSpan data) {
    hostile::writeBytes(dir / name, data);
}

Bytes prefixed(std::initializer_list<std::uint8_t> head, ByteSpan rest) {
    Bytes out(head);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_seeds OUTDIR\n");
        return 2;
    }
    const fs::path out = argv[1];
    const fs::path work = out / ".work";
    fs::create_directories(work);

    // Packs from the writer: header plaintexts and metadata sections.
    for (int v : {0, 1}) {
        fs::path pak = hostile::generatedPak(work, v);
        auto model = hostile::PakModel::read(pak, hostile::generatedKey());
        std::string n = "generated" + std::to_string(v);
        seed(out / "pak_header", n, model.headerPlain());
        Bytes meta = model.metadataPlain(hostile::generatedKey());
        Bytes withSize(4);
        storeLE32(withSize.data(), std::uint32_t(meta.size()));
        withSize.insert(withSize.end(), meta.begin(), meta.end());
        seed(out / "metadata", n, withSize);
    }
    {
        hostile::PakModel empty;
        seed(out / "pak_header", "empty", empty.headerPlain());
    }

    // packlist.dat.
    archive::PackList list;
    list.salt = 12345;
    list.entries.push_back({0, "Stadium", "0123456789abcdef0123456789abcdef"});
    list.entries.push_back({1, "Resource", "fedcba9876543210fedcba9876543210"});
    seed(out / "packlist", "two", archive::serializePackList(list));
    list.entries.clear();
    seed(out / "packlist", "none", archive::serializePackList(list));

    // gbx files: uncompressed and LZO bodies, different paddings.
    for (std::uint32_t s : {0u, 1u, 2u}) {
        bool lzo = s == 2;
        Bytes map = hostile::sampleMap(s, 10 + s * 50, lzo);
        std::string n = "map" + std::to_string(s);
        seed(out / "gbx_header", n, prefixed({0}, map));
        seed(out / "gbx_body", n, map);
        if (!lzo) {
            seed(out / "gbx_entry", n + "-stored", prefixed({0}, map));
            seed(out / "gbx_entry", n + "-zlib", prefixed({1}, map));
        }
    }
    gbx::GbxBuilder header;
    header.version = 3;
    header.format = "BUU";
    seed(out / "gbx_header", "v3", prefixed({1}, header.buildHeader()));
    fs::remove_all(work);
    return 0;
}
