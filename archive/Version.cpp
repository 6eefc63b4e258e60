// SPDX-License-Identifier: GPL-2.0-or-later
#include "archive/Version.hpp"

#include <cryptopp/cryptlib.h>
#include <lzo/lzoconf.h>
#include <zlib.h>

namespace pakfs::archive {

const char* projectVersion() {
    return PAKFS_VERSION;
}

std::string libraryVersions() {
    int cpp = CryptoPP::LibraryVersion();  // e.g. 870
    return std::string("zlib ") + zlibVersion() + ", Crypto++ " + std::to_string(cpp / 100) + "." +
           std::to_string(cpp / 10 % 10) + "." + std::to_string(cpp % 10) + ", LZO " +
           lzo_version_string();
}

}  // namespace pakfs::archive
