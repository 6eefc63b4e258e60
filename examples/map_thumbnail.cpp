// SPDX-License-Identifier: GPL-2.0-or-later
// Prints a map's title and writes its thumbnail (upright, as the game shows it).
//   map_thumbnail MAP.Gbx OUT            a map on disk
//   map_thumbnail PAK NAME OUT           a map inside a pak
#include <pakfs/pakfs.hpp>

#include <fstream>
#include <iostream>
#include <iterator>

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::cerr << "usage: map_thumbnail MAP.Gbx OUT | PAK NAME OUT\n";
        return 2;
    }
    try {
        std::vector<std::uint8_t> bytes;
        if (argc == 4) {
            bytes = pakfs::PakFile(argv[1]).read(argv[2]);
        } else {
            std::ifstream in(argv[1], std::ios::binary);
            if (!in)
                throw pakfs::Exception(pakfs::ErrorKind::io,
                                       std::string(argv[1]) + ": cannot open");
            bytes.assign(std::istreambuf_iterator<char>(in), {});
        }
        const pakfs::GbxInfo info = pakfs::gbx_info(bytes, argv[argc - 2]);
        std::cout << info.class_name << ": " << info.map_title.value_or("(no title)") << "\n";
        const auto thumbnail = pakfs::gbx_thumbnail(bytes, argv[argc - 2]);
        if (!thumbnail) {
            std::cerr << "map_thumbnail: " << argv[argc - 2] << ": no thumbnail\n";
            return 1;
        }
        std::ofstream out(argv[argc - 1], std::ios::binary);
        out.write(reinterpret_cast<const char*>(thumbnail->bytes.data()),
                  std::streamsize(thumbnail->bytes.size()));
        std::cout << "wrote " << thumbnail->bytes.size() << " bytes of " << thumbnail->format
                  << " to " << argv[argc - 1] << "\n";
        return out ? 0 : 1;
    } catch (const pakfs::Exception& e) {
        std::cerr << "map_thumbnail: " << e.what() << "\n";
        return 1;
    }
}
