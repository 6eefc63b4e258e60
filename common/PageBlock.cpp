// SPDX-License-Identifier: GPL-2.0-or-later
// PageBlock: anonymous memory mapped with a page to spare, trimmed to a 2 MiB boundary and
// advised MADV_HUGEPAGE; and the failure the tests inject.
#include "common/PageBlock.hpp"

#include <sys/mman.h>

#include <atomic>
#include <new>
#include <utility>

namespace pakfs {

namespace {
std::atomic<int> gFailIn{0};  // failPageBlockForTests
}  // namespace

int failPageBlockForTests(int nth) {
    return gFailIn.exchange(nth);
}

void adviseHugePages(void* p, std::size_t n) {
    constexpr std::uintptr_t kHuge = PageBlock::kHugePage;
    const auto begin = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t from = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t to = (begin + n) & ~(kHuge - 1);
    // A kernel without transparent huge pages refuses: the pages stay 4 KiB.
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

PageBlock::PageBlock(std::size_t bytes) {
    if (bytes == 0) return;
    int left = gFailIn.load();
    while (left > 0 && !gFailIn.compare_exchange_weak(left, left - 1)) {
    }
    if (left == 1) throw std::bad_alloc();
    if (bytes > ~std::size_t(0) - 2 * kHugePage) throw std::bad_alloc();
    const std::size_t size = (bytes + kHugePage - 1) & ~(kHugePage - 1);
    // Mapped with a page to spare, then trimmed to the 2 MiB boundary.
    const std::size_t mapped = size + kHugePage;
    void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    const auto begin = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = (begin + kHugePage - 1) & ~std::uintptr_t(kHugePage - 1);
    if (aligned > begin) ::munmap(p, aligned - begin);
    const std::uintptr_t end = aligned + size;
    if (begin + mapped > end) ::munmap(reinterpret_cast<void*>(end), begin + mapped - end);
    data_ = reinterpret_cast<std::uint8_t*>(aligned);
    size_ = size;
    adviseHugePages(data_, size_);
}

PageBlock::~PageBlock() {
    if (data_) ::munmap(data_, size_);
}

PageBlock::PageBlock(PageBlock&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

PageBlock& PageBlock::operator=(PageBlock&& other) noexcept {
    if (this != &other) {
        if (data_) ::munmap(data_, size_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

}  // namespace pakfs
