// A device's pool for USM device allocations: one range of virtual memory
// reserved on creation (mapped without swap reservation, so untouched pages
// cost nothing) and carved by bufalloc's FreeSpace, which records only the
// free ranges: the caller (the USM registry) keeps every allocation's address
// and size and hands both back to free(), so an allocation costs the pool no
// host memory. Freeing a large allocation gives its whole pages back to the
// system. Thread-safe (one mutex). A discrete-memory device's pool is its
// domain's region instead (bufalloc::Region, shared with buffer instances).
#pragma once

#include "memory/domain.hpp"

#include <bufalloc/free_space.hpp>

#include <cstddef>
#include <memory>
#include <mutex>

namespace usmcl::memory {

class DevicePool {
public:
    // Reserves up to reserve_bytes of address space (less when the system
    // refuses that much); binder, if set, binds the whole range to a NUMA
    // node.
    DevicePool(std::size_t reserve_bytes, const Domain::Binder& binder);
    // The pool of a domain with a region of its own (a discrete-memory
    // device): allocations are ranges of that region, shared with the
    // domain's buffer instances.
    explicit DevicePool(const Domain& region_domain);
    ~DevicePool();
    DevicePool(const DevicePool&) = delete;
    DevicePool& operator=(const DevicePool&) = delete;

    // size bytes at a multiple of alignment (a power of two), or nullptr
    // when the pool has no room.
    std::byte* allocate(std::size_t size, std::size_t alignment);
    // Frees the allocation of size bytes (as asked of allocate()) at address.
    // False, and no change, for a range outside the pool or overlapping its
    // free space; the caller must not free a range it did not allocate.
    bool free(std::byte* address, std::size_t size);
    bool owns(const void* address) const;

    struct Usage {
        std::size_t reserved;    // address space
        std::size_t in_use;      // bytes handed out (rounded to the pool's granule)
        std::size_t free_ranges; // bufalloc's count
        std::size_t bookkeeping; // host bytes of bufalloc's own structures
    };
    Usage usage() const;

private:
    const Domain* region_domain_ = nullptr;
    std::byte* base_ = nullptr;
    std::size_t reserved_ = 0;
    mutable std::mutex mutex_;
    std::unique_ptr<bufalloc::FreeSpace> space_;
};

} // namespace usmcl::memory
