// SPDX-License-Identifier: GPL-2.0-or-later
// The glob matcher of PathPattern.hpp: a table of (pattern position, path position) pairs, so
// that no pattern takes more than length x length steps however many stars it holds.
#include "common/PathPattern.hpp"

#include <vector>

#include "common/Bytes.hpp"
#include "common/Error.hpp"

namespace pakfs {

namespace {

// '\' read as '/', runs of '/' as one, none at either end; case folded.
std::string normalised(std::string_view given) {
    std::string out;
    for (char c : given) {
        if (c == '\\') c = '/';
        if (c == '/' && (out.empty() || out.back() == '/')) continue;
        out += c;
    }
    while (!out.empty() && out.back() == '/') out.pop_back();
    return foldCase(out);
}

bool globMatch(std::string_view p, std::string_view s) {
    // reach[i][j]: p[0, i) matches s[0, j).
    const std::size_t width = s.size() + 1;
    std::vector<char> reach((p.size() + 1) * width, 0);
    auto at = [&](std::size_t i, std::size_t j) -> char& { return reach[i * width + j]; };
    at(0, 0) = 1;
    std::size_t i = 0;
    while (i < p.size()) {
        if (p[i] == '*' && i + 1 < p.size() && p[i + 1] == '*') {
            // `**`: any run, '/' included. As a whole name followed by '/' (`a/**/b`), whole
            // names only, and none at all.
            const bool wholeNames =
                (i == 0 || p[i - 1] == '/') && i + 2 < p.size() && p[i + 2] == '/';
            const std::size_t next = wholeNames ? i + 3 : i + 2;
            for (std::size_t j = 0; j <= s.size(); ++j) {
                if (!at(i, j)) continue;
                for (std::size_t k = j; k <= s.size(); ++k)
                    if (!wholeNames || k == j || s[k - 1] == '/') at(next, k) = 1;
            }
            i = next;
            continue;
        }
        for (std::size_t j = 0; j <= s.size(); ++j) {
            if (!at(i, j)) continue;
            if (p[i] == '*') {
                // Any run without '/'.
                for (std::size_t k = j; k <= s.size(); ++k) {
                    at(i + 1, k) = 1;
                    if (k < s.size() && s[k] == '/') break;
                }
            } else if (j < s.size() && (p[i] == '?' ? s[j] != '/' : p[i] == s[j])) {
                at(i + 1, j + 1) = 1;
            }
        }
        ++i;
    }
    return at(p.size(), s.size());
}

}  // namespace

PathPattern::PathPattern(std::string_view given) : given_(given), folded_(normalised(given)) {
    if (folded_.empty()) throw UsageError("\"" + given_ + "\": not a path in a pak");
}

bool PathPattern::matches(std::string_view path) const {
    return globMatch(folded_, foldCase(path));
}

bool PathPattern::selects(std::string_view path) const {
    const std::string folded = foldCase(path);
    if (globMatch(folded_, folded)) return true;
    for (std::size_t slash = folded.find('/'); slash != std::string::npos;
         slash = folded.find('/', slash + 1))
        if (globMatch(folded_, std::string_view(folded).substr(0, slash))) return true;
    return false;
}

PathSelection::PathSelection(const std::vector<std::string>& given) {
    for (const auto& g : given) patterns_.emplace_back(g);
    used_.assign(patterns_.size(), false);
}

bool PathSelection::selects(std::string_view path) {
    if (patterns_.empty()) return true;
    bool any = false;
    for (std::size_t i = 0; i < patterns_.size(); ++i)
        if (patterns_[i].selects(path)) any = used_[i] = true;
    return any;
}

std::vector<PathPattern> PathSelection::unmatched() const {
    std::vector<PathPattern> out;
    for (std::size_t i = 0; i < patterns_.size(); ++i)
        if (!used_[i]) out.push_back(patterns_[i]);
    return out;
}

}  // namespace pakfs
