// SPDX-License-Identifier: GPL-2.0-or-later
// The project's version and the versions of the libraries it runs with.
#pragma once

#include <string>

namespace pakfs::archive {

// The project's version, from CMake.
const char* projectVersion();
// "zlib 1.2.13, Crypto++ 8.7.0, LZO 2.10": the libraries whose behaviour the output depends
// on, as loaded at run time.
std::string libraryVersions();

}  // namespace pakfs::archive
