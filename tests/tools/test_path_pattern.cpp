// SPDX-License-Identifier: GPL-2.0-or-later
// The paths and globs pak ls, extract and rm take (common/PathPattern.hpp): what `*`, `?` and
// `**` match, case, folders selecting what is under them, and the patterns that matched nothing.
#include <catch2/catch.hpp>

#include "common/Error.hpp"
#include "common/PathPattern.hpp"

using pakfs::PathPattern;
using pakfs::PathSelection;

TEST_CASE("path pattern: *, ? and ** against whole paths, case ignored", "[pattern]") {
    const PathPattern tga("Media/Texture/Image/*.tga");
    CHECK(tga.isGlob());
    CHECK(tga.matches("Media/Texture/Image/Sky.tga"));
    CHECK(tga.matches("media/texture/image/SKY.TGA"));
    CHECK(tga.matches("Media/Texture/Image/.tga"));
    CHECK_FALSE(tga.matches("Media/Texture/Image/Sub/Sky.tga"));  // * stops at '/'
    CHECK_FALSE(tga.matches("Media/Texture/Image/Sky.tga.bak"));
    CHECK_FALSE(tga.matches("Media/Texture/Image"));

    const PathPattern deep("Media/**/*.tga");
    CHECK(deep.matches("Media/Sky.tga"));  // `**/` also stands for no folder
    CHECK(deep.matches("Media/a/Sky.tga"));
    CHECK(deep.matches("Media/a/b/c/Sky.tga"));
    CHECK_FALSE(deep.matches("Other/a/Sky.tga"));
    CHECK_FALSE(deep.matches("MediaX/Sky.tga"));

    const PathPattern inName("Med**.tga");  // `**` inside a name crosses '/' too
    CHECK(inName.matches("Media/a/Sky.tga"));
    CHECK(inName.matches("Med.tga"));
    CHECK_FALSE(inName.matches("Media/a/Sky.dds"));

    const PathPattern all("**");
    CHECK(all.matches("a"));
    CHECK(all.matches("a/b/c"));

    const PathPattern q("a?c/*");
    CHECK(q.matches("abc/x"));
    CHECK(q.matches("ABC/"));         // * matches no character
    CHECK_FALSE(q.matches("a/c/x"));  // ? does not match '/'
    CHECK_FALSE(q.matches("ac/x"));

    const PathPattern stars("*a*b*c*");
    CHECK(stars.matches("xxaxxbxxcxx"));
    CHECK_FALSE(stars.matches("xxaxxcxxbxx"));
    // Many stars against a long name that does not match: answered, not backtracked for ever.
    CHECK_FALSE(PathPattern(std::string(40, '*') + "b").matches(std::string(200, 'a')));
}

TEST_CASE("path pattern: a plain path, separators, and a folder selecting what is under it",
          "[pattern]") {
    const PathPattern folder("\\media//Font/");
    CHECK_FALSE(folder.isGlob());
    CHECK(folder.given() == "\\media//Font/");
    CHECK(folder.matches("Media/Font"));
    CHECK_FALSE(folder.matches("Media/Font/Arial.Font.Gbx"));
    CHECK(folder.selects("Media/Font"));
    CHECK(folder.selects("Media/Font/Arial.Font.Gbx"));
    CHECK(folder.selects("Media/Font/Sub/x"));
    CHECK_FALSE(folder.selects("Media/Fonts/x"));
    CHECK_FALSE(folder.selects("Media"));

    // A pattern matching a folder selects its tree, as the shell's `Media/*` then a recursive
    // copy would.
    const PathPattern top("Media/*");
    CHECK(top.selects("Media/Font/Arial.Font.Gbx"));
    CHECK(top.selects("Media/a.txt"));
    CHECK_FALSE(top.selects("Media"));

    CHECK_THROWS_AS(PathPattern(""), pakfs::UsageError);
    CHECK_THROWS_WITH(PathPattern("//"), "\"//\": not a path in a pak");
}

TEST_CASE(
    "path selection: none selects everything, and the patterns that matched nothing are named",
    "[pattern]") {
    PathSelection none({});
    CHECK(none.empty());
    CHECK(none.selects("anything/at/all"));
    CHECK(none.unmatched().empty());

    PathSelection some({"*.txt", "Media", "Nothing/*", "media/*.dds"});
    CHECK(some.selects("a.txt"));
    CHECK_FALSE(some.selects("Tracks/a.txt"));
    CHECK(some.selects("MEDIA/b.dds"));
    REQUIRE(some.unmatched().size() == 1);
    CHECK(some.unmatched()[0].given() == "Nothing/*");
}
