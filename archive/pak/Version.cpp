// SPDX-License-Identifier: GPL-2.0-or-later
// The project's version from CMake; zlib's, Crypto++'s, LZO's and LZ4's versions as loaded,
// libdeflate's and ISA-L's as built against.
#include "archive/pak/Version.hpp"

#include <cryptopp/cryptlib.h>
#include <isa-l.h>
#include <libdeflate.h>
#include <lz4.h>
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
           lzo_version_string() + ", LZ4 " + LZ4_versionString() +
           // These two have no run-time version call: the versions built against.
           ", libdeflate " + LIBDEFLATE_VERSION_STRING + ", ISA-L " +
           std::to_string(ISAL_MAJOR_VERSION) + "." + std::to_string(ISAL_MINOR_VERSION) + "." +
           std::to_string(ISAL_PATCH_VERSION);
}

}  // namespace pakfs::archive
