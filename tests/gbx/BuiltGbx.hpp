// SPDX-License-Identifier: GPL-2.0-or-later
// Chunk tests build a gbx file around a body and read it back as far as it goes.
#pragma once

#include "common/ByteSource.hpp"
#include "gbx/GbxFile.hpp"
#include "gbx/testing/GbxBuilder.hpp"

namespace pakfs::test {

// `b` with `body` as its body, built and read by readGbxPartial.
inline gbx::GbxFile readBuilt(gbx::GbxBuilder b, const gbx::BodyWriter& body) {
    b.body = body.bytes();
    Bytes file = b.build();
    pakfs::MemorySource src(file);
    return gbx::readGbxPartial(src);
}

}  // namespace pakfs::test
