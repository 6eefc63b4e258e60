// SPDX-License-Identifier: GPL-2.0-or-later
// pakfs: TrackMania .pak archives and .Pack.Gbx packs, and gbx files, read from a program.
// The one header to include; doc/API.md describes it. Link with pakfs::pakfs (CMake:
// find_package(pakfs)) or `pkg-config --cflags --libs pakfs`.
#pragma once

#include <pakfs/error.hpp>
#include <pakfs/gbx.hpp>
#include <pakfs/pak_file.hpp>

namespace pakfs {

// The library's version, "MAJOR.MINOR.PATCH".
PAKFS_API const char* version() noexcept;

}  // namespace pakfs
