// SPDX-License-Identifier: GPL-2.0-or-later
// The gbx fixtures as tests use them: in the form a pak stores them, and how far
// `pak gbx info --nodes` reads them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "common/ByteSource.hpp"
#include "gbx/GbxFile.hpp"
#include "tests/support/Cli.hpp"
#include "tests/support/TestKey.hpp"
#include "tests/support/TestUtil.hpp"

namespace pakfs::test {

// What storedForm accepts: a file with an LZO body only, or one with its body stored too.
enum class BodyWas { compressed, either };

// The gbx file `file` as a pak stores it: an LZO body (BUCR) decompressed in place of its two
// sizes and compressed bytes, the format's third byte turned to 'U'; a stored body as it is.
inline Bytes storedForm(const Bytes& file, BodyWas was = BodyWas::either) {
    pakfs::MemorySource src(file);
    gbx::ReadOptions opts;
    opts.keepBody = true;
    opts.readNodes = false;
    gbx::GbxFile f = gbx::readGbx(src, nullptr, opts);
    if (was == BodyWas::compressed) REQUIRE(f.body.compressed);
    if (!f.body.compressed) return file;
    Bytes out(file.begin(), file.begin() + std::ptrdiff_t(f.body.offset));
    REQUIRE(out.size() > 7);
    REQUIRE(out[7] == 'C');
    out[7] = 'U';
    out.insert(out.end(), f.bodyData.begin(), f.bodyData.end());
    return out;
}

#ifdef PAKFS_PAK_BINARY
// `pak gbx info --nodes PATH`: its "nodes read" line is `nodesRead`; with `reason` empty it
// reads whole (exit 0, nothing on stderr), else it stops, exit 1 and "pak: PATH: stopped in the
// nodes: REASON". The run, for what a caller checks further.
inline RunResult checkNodesRead(const std::filesystem::path& path, const std::string& nodesRead,
                                const std::string& reason = {}) {
    RunResult r = run(kPak + " gbx info --nodes " + q(path));
    CHECK(r.out.find("\n" + nodesRead + "\n") != std::string::npos);
    if (reason.empty()) {
        CHECK(r.code == 0);
        CHECK(r.err.empty());
    } else {
        CHECK(r.code == 1);
        CHECK(r.err == "pak: " + path.string() + ": stopped in the nodes: " + reason + "\n");
    }
    return r;
}
#endif

// Packs `src` stored (level 0) into `pak` with the test key, then requires `pak check` to print
// exactly `want` and each of `paths` (as the pak names them, relative to `src`) to come back
// byte-identical through `pak cat`.
inline void checkStoredPak(const std::filesystem::path& src, const std::filesystem::path& pak,
                           const std::string& want, const std::vector<std::string>& paths) {
    REQUIRE(run(kPak + " pack -q --level 0 " + kKeyArg + " " + q(src) + " " + q(pak)).code == 0);
    auto r = run(kPak + " check " + kKeyArg + " " + q(pak));
    CHECK(r.code == 0);
    CHECK(r.out == want);
    for (const auto& path : paths) {
        INFO(path);
        auto c = run(kPak + " cat " + kKeyArg + " " + q(pak) + " " + q(path));
        CHECK(c.code == 0);
        CHECK(Bytes(c.out.begin(), c.out.end()) == readFile(src / path));
    }
}

}  // namespace pakfs::test
