// SPDX-License-Identifier: GPL-2.0-or-later
// Paths and glob patterns naming files of a pak on the command line (pak ls, extract, rm): one
// matcher, so that every command reads a pattern the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pakfs {

// A path or glob pattern as given: '/' or '\' between names, leading, trailing and repeated
// ones ignored. `*` matches any run of characters but '/', `?` one character but '/', `**` any
// run including '/' (as a whole name, `a/**/b`, also none: it matches a/b). Names are compared
// without regard to case, as the game compares them. A folder's path (or a pattern matching a
// folder) selects what is under it.
class PathPattern {
public:
    // Throws UsageError for a pattern naming no path at all ("", "/").
    explicit PathPattern(std::string_view given);

    const std::string& given() const { return given_; }

    // Whether it holds `*` or `?` (a plain path otherwise).
    bool isGlob() const { return folded_.find_first_of("*?") != std::string::npos; }

    // Whether the pattern matches `path` itself (a path in the pak, '/' between names).
    bool matches(std::string_view path) const;

    // Whether it matches `path` or one of the folders above it.
    bool selects(std::string_view path) const;

private:
    std::string given_;
    std::string folded_;  // normalised and case-folded
};

// Several patterns (none: everything), recording which ones selected something so that a
// command can name those that matched nothing.
class PathSelection {
public:
    explicit PathSelection(const std::vector<std::string>& given);

    bool empty() const { return patterns_.empty(); }

    // Whether any pattern selects `path` (or there is none); each one that does is marked used.
    bool selects(std::string_view path);

    // The patterns that selected nothing so far.
    std::vector<PathPattern> unmatched() const;

private:
    std::vector<PathPattern> patterns_;
    std::vector<bool> used_;
};

}  // namespace pakfs
