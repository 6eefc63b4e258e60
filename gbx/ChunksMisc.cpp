// SPDX-License-Identifier: GPL-2.0-or-later
#include "gbx/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerMisc(ChunkRegistry& reg) {
    (void)reg;
}

}  // namespace pakfs::gbx::chunks
