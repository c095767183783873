// A device's pool for USM device allocations: one range of virtual memory
// reserved on creation (mapped without swap reservation, so untouched pages
// cost nothing) and carved by bufalloc. Freeing a large allocation gives its
// whole pages back to the system. Thread-safe.
#pragma once

#include "memory/domain.hpp"

#include <bufalloc/shared_region.hpp>

#include <cstddef>
#include <memory>

namespace usmcl::memory {

class DevicePool {
public:
    // Reserves up to reserve_bytes of address space (less when the system
    // refuses that much); binder, if set, binds the whole range to a NUMA
    // node.
    DevicePool(std::size_t reserve_bytes, const Domain::Binder& binder);
    ~DevicePool();
    DevicePool(const DevicePool&) = delete;
    DevicePool& operator=(const DevicePool&) = delete;

    // size bytes at a multiple of alignment (a power of two), or nullptr
    // when the pool has no room.
    std::byte* allocate(std::size_t size, std::size_t alignment);
    // Frees an allocation of this pool; false for any other address.
    bool free(std::byte* address);
    bool owns(const void* address) const;

    struct Usage {
        std::size_t reserved;    // address space
        std::size_t in_use;      // bytes handed out (rounded to the pool's granule)
        std::size_t free_ranges; // bufalloc's count
        std::size_t bookkeeping; // host bytes of bufalloc's own structures
    };
    Usage usage() const;

private:
    std::byte* base_ = nullptr;
    std::size_t reserved_ = 0;
    std::unique_ptr<bufalloc::SharedRegion> region_;
};

} // namespace usmcl::memory
