// SPDX-License-Identifier: GPL-2.0-or-later
// Memory for large working buffers, on 2 MiB pages where the kernel gives them when asked
// (transparent huge pages in "madvise" mode). On the virtual machines measured here the first
// touch of a 4 KiB page costs about 13 us: a first read far into a large entry of a fresh mount
// touched about 1950 new pages of buffers (about 25 ms over its two threads), a 2 MiB page is
// one fault. Without huge pages this is ordinary memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pakfs {

// Tests: the `nth` PageBlock made from now on (1: the next) throws std::bad_alloc, as when no
// memory is left; 0 clears it. Returns how many were still to go before it (0: it was thrown).
int failPageBlockForTests(int nth);

// Asks for 2 MiB pages on the whole 2 MiB pages inside [p, p + n) (none: nothing happens).
void adviseHugePages(void* p, std::size_t n);

// A block of at least `bytes` bytes, uninitialised, mapped on its own, 2 MiB aligned and
// rounded up to whole 2 MiB (what it takes once touched when huge pages are given: size blocks
// to fill them). Throws std::bad_alloc when it cannot be mapped.
class PageBlock {
public:
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    PageBlock() = default;
    explicit PageBlock(std::size_t bytes);
    ~PageBlock();
    PageBlock(PageBlock&& other) noexcept;
    PageBlock& operator=(PageBlock&& other) noexcept;
    PageBlock(const PageBlock&) = delete;
    PageBlock& operator=(const PageBlock&) = delete;

    std::uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace pakfs
