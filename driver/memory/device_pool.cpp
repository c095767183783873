#include "memory/device_pool.hpp"

#include "memory/huge_pages.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

namespace usmcl::memory {
namespace {

// Every allocation is rounded to this; the largest alignment a USM
// allocation may ask for.
constexpr std::size_t granule = instance_alignment;
// Allocations at least this large give their whole pages back when freed.
constexpr std::size_t release_threshold = std::size_t(1) << 20;

std::size_t page_size() {
    static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

} // namespace

DevicePool::DevicePool(std::size_t reserve_bytes, const Domain::Binder& binder) {
    const std::size_t page = page_size();
    std::size_t size = (reserve_bytes + page - 1) / page * page;
    // A system with strict overcommit may refuse a large reservation: ask
    // for less until it agrees.
    while (size >= page) {
        void* address = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (address != MAP_FAILED) {
            base_ = static_cast<std::byte*>(address);
            reserved_ = size;
            break;
        }
        size = size / 2 / page * page;
    }
    if (!base_) {
        USMCL_LOG(memory, "device pool: cannot reserve address space");
        return;
    }
    if (binder && !binder(base_, reserved_))
        USMCL_LOG(memory, "device pool: cannot bind %zu bytes to its NUMA node", reserved_);
    space_ = std::make_unique<bufalloc::FreeSpace>(reinterpret_cast<std::uintptr_t>(base_),
                                                   reserved_, granule);
}

DevicePool::DevicePool(const Domain& region_domain) : region_domain_(&region_domain) {}

DevicePool::~DevicePool() {
    if (base_)
        munmap(base_, reserved_);
}

std::byte* DevicePool::allocate(std::size_t size, std::size_t alignment) {
    if (region_domain_)
        return region_domain_->allocate_aligned(size, std::max(alignment, granule));
    if (!space_)
        return nullptr;
    std::lock_guard lock(mutex_);
    const bufalloc::AllocateResult result = space_->allocate(size, alignment);
    if (!result.ok())
        return nullptr;
    auto* address = reinterpret_cast<std::byte*>(result.address);
    advise_huge_pages(address, size);
    return address;
}

bool DevicePool::free(std::byte* address, std::size_t size) {
    if (region_domain_) {
        if (!region_domain_->owns(address))
            return false;
        region_domain_->release(address, size);
        return true;
    }
    if (!space_ || !owns(address) || size > reserved_ - static_cast<std::size_t>(address - base_))
        return false;
    const std::uintptr_t key = reinterpret_cast<std::uintptr_t>(address);
    if (size >= release_threshold) {
        // The whole pages inside the allocation go back to the system; the
        // next use finds them zero-filled. Done while the range is still
        // allocated (the caller's), before another allocation can take it.
        const std::uintptr_t page = page_size();
        const std::uintptr_t begin = (key + page - 1) / page * page;
        const std::uintptr_t end = (key + size) / page * page;
        if (end > begin)
            madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
    }
    withdraw_huge_pages(address, size);
    std::lock_guard lock(mutex_);
    try {
        return space_->release(key, size) == bufalloc::Status::ok;
    } catch (const std::bad_alloc&) {
        // No host memory for the record of a new free range: the range stays
        // reserved (lost to later allocations), nothing else breaks.
        USMCL_LOG(memory, "device pool: no memory to record %zu freed bytes", size);
        return false;
    }
}

bool DevicePool::owns(const void* address) const {
    if (region_domain_)
        return region_domain_->owns(address);
    const auto* p = static_cast<const std::byte*>(address);
    return base_ && p >= base_ && static_cast<std::size_t>(p - base_) < reserved_;
}

DevicePool::Usage DevicePool::usage() const {
    if (region_domain_) {
        const bufalloc::Stats stats = region_domain_->region_stats();
        return {static_cast<std::size_t>(stats.region_bytes),
                static_cast<std::size_t>(stats.bytes_in_use),
                static_cast<std::size_t>(stats.free_ranges),
                static_cast<std::size_t>(stats.bookkeeping_bytes)};
    }
    if (!space_)
        return {0, 0, 0, 0};
    std::lock_guard lock(mutex_);
    const bufalloc::Stats stats = space_->stats();
    return {reserved_, static_cast<std::size_t>(stats.bytes_in_use),
            static_cast<std::size_t>(stats.free_ranges),
            static_cast<std::size_t>(stats.bookkeeping_bytes)};
}

} // namespace usmcl::memory
