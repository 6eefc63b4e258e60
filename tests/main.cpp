// SPDX-License-Identifier: GPL-2.0-or-later
// The test program's main(), Catch2's.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
