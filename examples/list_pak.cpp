// SPDX-License-Identifier: GPL-2.0-or-later
// Lists a pak as `pak ls -l` does (size, stored size, class ID, flags, how its bytes are
// proven, path), or with a NAME writes that file's bytes to standard output as `pak cat` does.
//   list_pak PAK [NAME]        the key from the packlist.dat beside PAK, or PAKFS_KEY (hex)
#include <pakfs/pakfs.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::cerr << "usage: list_pak PAK [NAME]\n";
        return 2;
    }
    try {
        pakfs::OpenOptions options;
        if (const char* key = std::getenv("PAKFS_KEY")) options.key = key;
        pakfs::PakFile pak(argv[1], options);
        if (argc == 3) {
            // Streamed in pieces: a large file is never held whole.
            pakfs::EntryReader file = pak.open(argv[2]);
            char buffer[65536];
            while (std::size_t n = file.read(buffer, sizeof buffer))
                std::fwrite(buffer, 1, n, stdout);
            return 0;
        }
        for (const pakfs::EntryInfo& e : pak.infos())
            std::printf("%10llu %10llu %08X %016llx %-12s %s\n", (unsigned long long)e.size,
                        (unsigned long long)e.stored_size, e.class_id, (unsigned long long)e.flags,
                        e.decode.c_str(), e.name.c_str());
    } catch (const pakfs::Exception& e) {
        std::cerr << "list_pak: " << e.what() << " (" << pakfs::error_kind_name(e.kind()) << ")\n";
        return 1;
    }
    return 0;
}
