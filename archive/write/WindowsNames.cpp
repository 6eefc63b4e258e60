// SPDX-License-Identifier: GPL-2.0-or-later
// The Windows name rule `pak pack` and `pak commit` warn by.
#include "archive/write/WindowsNames.hpp"

#include <cstdio>
#include <set>

namespace pakfs::archive {

namespace {

constexpr std::size_t kMaxPath = 259;  // MAX_PATH (260) less the terminating zero

std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return out;
}

// A device name Windows opens instead of a file: CON, PRN, AUX, NUL, COM1-9, LPT1-9, also
// with an extension (Windows drops spaces before it too: "nul .txt" is NUL).
std::optional<std::string> deviceName(std::string_view name) {
    std::string_view stem = name.substr(0, name.find('.'));
    while (!stem.empty() && stem.back() == ' ') stem.remove_suffix(1);
    const std::string u = upper(stem);
    for (const char* device : {"CON", "PRN", "AUX", "NUL"})
        if (u == device) return u;
    if (u.size() == 4 && (u.starts_with("COM") || u.starts_with("LPT")) && u[3] >= '1' &&
        u[3] <= '9')
        return u;
    return std::nullopt;
}

// Why Windows refuses one name of a path (nullopt: it does not).
std::optional<std::string> nameProblem(std::string_view name) {
    for (unsigned char c : name) {
        char buf[64];
        if (c < 0x20) {
            std::snprintf(buf, sizeof buf, "holds a control character (0x%02X)", unsigned(c));
            return std::string(buf);
        }
        if (std::string_view("<>:\"|?*").find(char(c)) != std::string_view::npos) {
            std::snprintf(buf, sizeof buf, "holds '%c', which Windows does not allow in a name", c);
            return std::string(buf);
        }
    }
    if (auto device = deviceName(name)) return *device + " is a device name on Windows";
    if (!name.empty() && name.back() == '.') return std::string("ends with a dot");
    if (!name.empty() && name.back() == ' ') return std::string("ends with a space");
    return std::nullopt;
}

// The length of a UTF-8 path in UTF-16 units, as Windows counts it (a byte that is not valid
// UTF-8 counts as one).
std::size_t utf16Length(std::string_view s) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = s[i];
        std::size_t len = c < 0x80         ? 1
                          : (c >> 5) == 6  ? 2
                          : (c >> 4) == 14 ? 3
                          : (c >> 3) == 30 ? 4
                                           : 0;
        bool valid = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; valid && k < len; ++k)
            valid = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
        if (!valid) len = 1;
        n += valid && len == 4 ? 2 : 1;
        i += len;
    }
    return n;
}

// A path as a warning line shows it: control characters as \xNN, not sent to the terminal.
std::string shown(std::string_view path) {
    std::string out;
    for (unsigned char c : path) {
        if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", unsigned(c));
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out;
}

// The shortest leading part of `packPath` Windows refuses, with why (a folder's problem is
// that of everything under it).
std::optional<std::pair<std::string, std::string>> firstProblem(std::string_view packPath) {
    for (std::size_t start = 0;;) {
        const std::size_t slash = packPath.find('/', start);
        const std::size_t end = slash == std::string_view::npos ? packPath.size() : slash;
        if (auto why = nameProblem(packPath.substr(start, end - start)))
            return std::pair{std::string(packPath.substr(0, end)), *why};
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    const std::size_t length = utf16Length(packPath);
    if (length > kMaxPath)
        return std::pair{std::string(packPath), "the path is " + std::to_string(length) +
                                                    " characters long, over the 259 Windows "
                                                    "allows"};
    return std::nullopt;
}

}  // namespace

std::optional<std::string> windowsNameProblem(std::string_view packPath) {
    auto found = firstProblem(packPath);
    if (!found) return std::nullopt;
    return shown(found->first) + ": " + found->second;
}

std::optional<std::string> windowsNamesWarning(const std::vector<std::string>& packPaths) {
    std::set<std::string> seen;
    std::vector<std::string> lines;
    for (const auto& p : packPaths)
        if (auto found = firstProblem(p); found && seen.insert(found->first).second)
            lines.push_back(shown(found->first) + ": " + found->second);
    if (lines.empty()) return std::nullopt;
    std::string m = std::to_string(lines.size()) + (lines.size() == 1 ? " name" : " names") +
                    " the game on Windows cannot open (the pak holds " +
                    (lines.size() == 1 ? "it" : "them") + "):";
    for (std::size_t i = 0; i < lines.size() && i < kWindowsNamesListed; ++i)
        m += "\n  " + lines[i];
    if (lines.size() > kWindowsNamesListed)
        m += "\n  and " + std::to_string(lines.size() - kWindowsNamesListed) + " more";
    return m;
}

}  // namespace pakfs::archive
