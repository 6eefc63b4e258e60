// SPDX-License-Identifier: GPL-2.0-or-later
// Names a pak can store but the game on Windows cannot open: the one rule `pak pack` and `pak
// commit` warn by (doc/FORMAT.md §2.3).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pakfs::archive {

// How many paths the warning lists; it counts the others.
inline constexpr std::size_t kWindowsNamesListed = 20;

// Why the game on Windows cannot open the file or folder at `packPath` ("/"-joined, as in a
// plan): the path up to the name at fault (control characters in it shown as \xNN), then why
// ("Media/CON: CON is a device name on Windows"), the first problem found; nullopt when it can.
// Each name on the path is checked, from the root: the characters < > : " | ? * and control
// characters (below 0x20), the device names CON, PRN, AUX, NUL, COM1 to COM9 and LPT1 to LPT9 (in
// any case, alone or before a dot), a trailing dot or space; then the whole path, which Windows
// limits to 259 characters (UTF-16 units, the path as the game names it, with backslashes).
std::optional<std::string> windowsNameProblem(std::string_view packPath);

// One warning for the paths of a pack (its files and folders, in any order): each path the game
// on Windows cannot open, one a line with why, a folder once rather than every path under it,
// the first kWindowsNamesListed in the order given, then how many more; nullopt when there is
// none.
std::optional<std::string> windowsNamesWarning(const std::vector<std::string>& packPaths);

}  // namespace pakfs::archive
