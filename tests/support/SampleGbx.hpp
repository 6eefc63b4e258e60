// SPDX-License-Identifier: GPL-2.0-or-later
// Small gbx files built in tests.
#pragma once

#include "gbx/testing/GbxBuilder.hpp"

namespace pakfs::test {

// A map whose one node the reader knows whole: nothing but its end marker.
inline gbx::GbxBuilder emptyMap() {
    gbx::GbxBuilder b;
    b.classId = 0x03043000;
    gbx::BodyWriter w;
    w.endNode();
    b.body = w.bytes();
    return b;
}

}  // namespace pakfs::test
