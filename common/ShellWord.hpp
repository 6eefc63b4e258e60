// SPDX-License-Identifier: GPL-2.0-or-later
// A word for a shell: how the commands an error message suggests print paths, to run as printed.
#pragma once

#include <string>

namespace pakfs {

// `text` as one word for a shell: as it is when nothing in it is special, else in single quotes.
std::string shellWord(const std::string& text);

}  // namespace pakfs
