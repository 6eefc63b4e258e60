// SPDX-License-Identifier: GPL-2.0-or-later
#include "gbx/ChunkReaders.hpp"

namespace pakfs::gbx::chunks {

void registerMedia(ChunkRegistry& reg) {
    (void)reg;
}

}  // namespace pakfs::gbx::chunks
