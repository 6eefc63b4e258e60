// SPDX-License-Identifier: GPL-2.0-or-later
// The readers' large buffers (pieces decrypted ahead, the two-core inflate's buffers and seek
// point windows) live in PageBlocks: whole 2 MiB pages, 2 MiB aligned, marked for huge pages.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <utility>

#include "common/PageBlock.hpp"

using namespace pakfs;

namespace {

constexpr std::size_t kHuge = PageBlock::kHugePage;

bool aligned(const PageBlock& b) {
    return reinterpret_cast<std::uintptr_t>(b.data()) % kHuge == 0;
}

// The VmFlags line of the mapping that holds `p` in /proc/self/smaps ("" if none does).
std::string vmFlagsAt(const void* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::ifstream smaps("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        if (line.rfind("VmFlags:", 0) == 0) {
            if (inside) return line;
            continue;
        }
        // A mapping's first line: "start-end perms ...", in hex.
        const std::size_t dash = line.find('-');
        const std::size_t space = line.find(' ');
        if (dash == std::string::npos || space == std::string::npos || dash > space) continue;
        try {
            const std::uintptr_t start = std::stoull(line.substr(0, dash), nullptr, 16);
            const std::uintptr_t end =
                std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
            inside = start <= at && at < end;
        } catch (const std::exception&) {
        }
    }
    return "";
}

}  // namespace

TEST_CASE("page block: whole 2 MiB pages, aligned, usable to the last byte", "[common][memory]") {
    const PageBlock one(1);
    CHECK(one.size() == kHuge);
    CHECK(aligned(one));
    const PageBlock more(kHuge + 1);
    CHECK(more.size() == 2 * kHuge);
    CHECK(aligned(more));
    // Written at both ends and read back.
    std::memset(more.data(), 0xA5, more.size());
    CHECK(more.data()[0] == 0xA5);
    CHECK(more.data()[more.size() - 1] == 0xA5);

    const PageBlock none(0);
    CHECK(none.data() == nullptr);
    CHECK(none.size() == 0);
    // A size no mapping can have is refused before it wraps around.
    CHECK_THROWS_AS(PageBlock(~std::size_t(0)), std::bad_alloc);
    CHECK_THROWS_AS(PageBlock(~std::size_t(0) - kHuge), std::bad_alloc);
}

TEST_CASE("page block: marked for huge pages where the kernel has them", "[common][memory]") {
    const PageBlock b(3 * kHuge);
    const std::string flags = vmFlagsAt(b.data() + b.size() - 1);
    REQUIRE_FALSE(flags.empty());
    if (std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
        CHECK(flags.find(" hg") != std::string::npos);
    } else {
        WARN("this kernel has no transparent huge pages: the block is ordinary memory");
        CHECK(flags.find(" hg") == std::string::npos);
    }
}

TEST_CASE("page block: moves hand the mapping over", "[common][memory]") {
    PageBlock a(kHuge);
    std::uint8_t* p = a.data();
    p[0] = 7;
    PageBlock b(std::move(a));
    CHECK(a.data() == nullptr);
    CHECK(a.size() == 0);
    CHECK(b.data() == p);
    CHECK(b.data()[0] == 7);
    PageBlock c(2 * kHuge);
    c = std::move(b);  // c's own mapping goes
    CHECK(c.data() == p);
    CHECK(c.size() == kHuge);
    CHECK(b.data() == nullptr);
    CHECK(vmFlagsAt(p).size() > 0);
}
