#include "memory/device_pool.hpp"

#include "support/log.hpp"

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
    region_ = std::make_unique<bufalloc::SharedRegion>(reinterpret_cast<std::uintptr_t>(base_),
                                                       reserved_, granule);
}

DevicePool::~DevicePool() {
    if (base_)
        munmap(base_, reserved_);
}

std::byte* DevicePool::allocate(std::size_t size, std::size_t alignment) {
    if (!region_)
        return nullptr;
    const bufalloc::AllocateResult result = region_->allocate(size, alignment);
    if (!result.ok())
        return nullptr;
    return reinterpret_cast<std::byte*>(result.address);
}

bool DevicePool::free(std::byte* address) {
    if (!region_ || !owns(address))
        return false;
    const std::uint64_t key = reinterpret_cast<std::uintptr_t>(address);
    return region_->with_lock([&](bufalloc::Region& region) {
        const auto allocation = region.lookup(key);
        if (!allocation || allocation->address != key)
            return false;
        if (allocation->size >= release_threshold) {
            // The whole pages inside the allocation go back to the system;
            // the next use finds them zero-filled.
            const std::uintptr_t page = page_size();
            const std::uintptr_t begin = (key + page - 1) / page * page;
            const std::uintptr_t end = (key + allocation->size) / page * page;
            if (end > begin)
                madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
        }
        return region.free(key) == bufalloc::Status::ok;
    });
}

bool DevicePool::owns(const void* address) const {
    const auto* p = static_cast<const std::byte*>(address);
    return base_ && p >= base_ && static_cast<std::size_t>(p - base_) < reserved_;
}

DevicePool::Usage DevicePool::usage() const {
    if (!region_)
        return {0, 0, 0, 0};
    const bufalloc::Stats stats = region_->stats();
    return {reserved_, static_cast<std::size_t>(stats.bytes_in_use),
            static_cast<std::size_t>(stats.free_ranges),
            static_cast<std::size_t>(stats.bookkeeping_bytes)};
}

} // namespace usmcl::memory
