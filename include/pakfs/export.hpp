// SPDX-License-Identifier: GPL-2.0-or-later
// PAKFS_API: what libpakfs exports. The library is built with hidden visibility, so that only
// the names of these headers are seen by a program.
#pragma once

#if defined(__GNUC__)
#define PAKFS_API __attribute__((visibility("default")))
#else
#define PAKFS_API
#endif
