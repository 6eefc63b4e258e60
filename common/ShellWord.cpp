// SPDX-License-Identifier: GPL-2.0-or-later
// A word for a shell: quoted when anything in it is special.
#include "common/ShellWord.hpp"

namespace pakfs {

std::string shellWord(const std::string& text) {
    if (!text.empty() &&
        text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                               "_-./+,:=@%") == std::string::npos)
        return text;
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace pakfs
