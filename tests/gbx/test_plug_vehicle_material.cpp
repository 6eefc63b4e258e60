// SPDX-License-Identifier: GPL-2.0-or-later
// The vehicle material reader (gbx/chunks/plug/VehicleMaterial.cpp) on files built here in
// GBX.NET's layout of CPlugVehicleMaterial 090F1000, and the exact error above its versions.
#include <catch2/catch.hpp>

#include "tests/gbx/BuiltGbx.hpp"

using namespace pakfs;
using namespace pakfs::gbx;

namespace {

// Inline keys: a keys version, a count, the version's extra field, then the (x, y) pairs.
void materialInlineKeys(BodyWriter& w, std::uint32_t keysVersion, std::uint32_t n) {
    w.u32(keysVersion);
    w.u32(n);
    if (keysVersion == 1) w.u8(7);
    if (keysVersion == 2) w.u32(7);
    if (keysVersion == 3) w.u16(7);
    for (std::uint32_t i = 0; i < 2 * n; ++i) w.f32(float(i));
}

// Chunk 090F1010 at version 14: every field GBX.NET lists for it.
void chunk010v14(BodyWriter& w) {
    w.chunk(0x090F1010);
    w.u32(14);
    for (int i = 0; i < 4; ++i) w.f32(1);
    w.u8(3);
    for (int i = 0; i < 2 + 3 + 1 + 3; ++i) w.f32(2);  // v7+, v1+, v2+, v3+
    w.boolean(true);
    w.f32(0);
    w.f32(0);                              // vec2
    for (int i = 0; i < 3; ++i) w.f32(3);  // v5+, v6+, v8+ (v13- field absent)
    materialInlineKeys(w, 2, 2);           // v9+
    materialInlineKeys(w, 1, 1);           // v10+
    w.f32(4);                              // v11+
    materialInlineKeys(w, 3, 0);           // v13+
    materialInlineKeys(w, 4, 1);
    for (int i = 0; i < 3; ++i) w.f32(5);
    materialInlineKeys(w, 1, 3);  // v14+
    w.u32(9);
}

}  // namespace

TEST_CASE("vehicle material: every chunk in GBX.NET's layout reads whole", "[gbx][vehicle]") {
    BodyWriter w;
    w.chunk(0x090F1001);
    w.u8(2);
    w.boolean(false);
    w.nullRef();
    w.f32(1);
    w.f32(2);
    w.chunk(0x090F1004);
    w.nullRef();
    w.f32(1);
    w.f32(1);
    w.chunk(0x090F1005);
    for (int i = 0; i < 4; ++i) w.f32(1);
    w.chunk(0x090F1006);
    w.nullRef();
    w.chunk(0x090F1009);
    w.u8(1);
    w.f32(1);
    w.f32(1);
    w.boolean(true);
    for (int i = 0; i < 5; ++i) w.nullRef();
    for (std::uint32_t id : {0x090F100Au, 0x090F100Bu, 0x090F100Cu, 0x090F100Du}) {
        w.chunk(id);
        w.nullRef();
    }
    w.chunk(0x090F100E);
    w.u8(4);
    w.f32(1);
    w.f32(1);
    w.chunk(0x090F100F);
    w.f32(1);
    w.f32(2);
    chunk010v14(w);
    w.endNode();
    test::NodeSummary s = test::readsWhole(test::builtFile(0x090F1000, w));
    CHECK(s.classes == std::vector<std::string>{"CPlugVehicleMaterial"});
}

TEST_CASE("vehicle material: chunk 090F1010 at version 12 keeps CFuncKeysReal references",
          "[gbx][vehicle]") {
    BodyWriter w;
    w.chunk(0x090F1010);
    w.u32(12);
    for (int i = 0; i < 4; ++i) w.f32(1);
    w.u8(3);
    for (int i = 0; i < 2 + 3 + 1 + 3; ++i) w.f32(2);
    w.boolean(false);
    w.f32(0);
    w.f32(0);
    for (int i = 0; i < 4; ++i) w.f32(3);  // v5+, v6+, v8+ and its v13- field
    materialInlineKeys(w, 1, 2);           // v9+: keys version 0 (12 - 12) is inline
    materialInlineKeys(w, 2, 1);           // v10+
    w.f32(4);                              // v11+
    w.endNode();
    test::readsWhole(test::builtFile(0x090F1000, w));
}

TEST_CASE("vehicle material: a version above GBX.NET's stops the reader", "[gbx][vehicle]") {
    BodyWriter w;
    w.chunk(0x090F1010);
    w.u32(15);
    w.endNode();
    CHECK_THAT(test::readError(test::builtFile(0x090F1000, w)),
               Catch::Contains("vehicle material 090F1010 version 15 not supported (14 is the "
                               "highest any source describes)"));
}
