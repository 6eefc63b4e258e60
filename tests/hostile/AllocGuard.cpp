// SPDX-License-Identifier: GPL-2.0-or-later
// Global operator new for the hostile suite: while a case runs, any single allocation above the
// limit throws std::bad_alloc and is recorded, so a size taken from a file without checking
// shows up as a test failure instead of as a machine running out of memory.
#include <atomic>
#include <cstdlib>
#include <new>

#include "tests/hostile/Harness.hpp"

namespace pakfs::hostile {
std::atomic<std::size_t> gAllocLimit{0};
std::atomic<std::size_t> gRefusedAlloc{0};
}  // namespace pakfs::hostile

namespace {
void* allocate(std::size_t n) {
    std::size_t limit = pakfs::hostile::gAllocLimit.load(std::memory_order_relaxed);
    if (limit != 0 && n > limit) {
        pakfs::hostile::gRefusedAlloc.store(n, std::memory_order_relaxed);
        return nullptr;
    }
    return std::malloc(n == 0 ? 1 : n);
}
}  // namespace

void* operator new(std::size_t n) {
    if (void* p = allocate(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    if (void* p = allocate(n)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    return allocate(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    return allocate(n);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
