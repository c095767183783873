#include "memory/domain.hpp"

#include "memory/huge_pages.hpp"
#include "support/clock.hpp"
#include "support/config.hpp"
#include "support/log.hpp"

#include <cstdlib>
#include <new>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

namespace usmcl::memory {
namespace {

// Large instances get their own pages, so they can be bound to a node.
constexpr size_t mapped_threshold = 1u << 20;

size_t page_size() {
    static const auto size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

void add(std::atomic<std::uint64_t>& counter, std::uint64_t value) {
    counter.fetch_add(value, std::memory_order_relaxed);
}

std::uint64_t get(const std::atomic<std::uint64_t>& counter) {
    return counter.load(std::memory_order_relaxed);
}

} // namespace

Domain::Domain(DomainId id, std::string name, int numa_node, Binder binder)
    : id_(id), name_(std::move(name)), numa_node_(numa_node), binder_(std::move(binder)) {}

Domain::Domain(DomainId id, std::string name, std::size_t region_bytes)
    : id_(id), name_(std::move(name)), numa_node_(-1) {
    const size_t page = page_size();
    size_t size = (region_bytes + page - 1) / page * page;
    // Address space only: pages cost memory once touched. A system with
    // strict overcommit may refuse that much: ask for less until it agrees.
    while (size >= page) {
        void* address = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (address != MAP_FAILED) {
            region_base_ = static_cast<std::byte*>(address);
            region_size_ = size;
            break;
        }
        size = size / 2 / page * page;
    }
    if (!region_base_) {
        USMCL_LOG(memory, "domain %s: cannot reserve its region", name_.c_str());
        return;
    }
    if (region_size_ != region_bytes)
        USMCL_LOG(memory, "domain %s: %zu bytes reserved of the %zu asked for", name_.c_str(),
                  region_size_, region_bytes);
    region_ = std::make_unique<bufalloc::SharedRegion>(
        reinterpret_cast<std::uintptr_t>(region_base_), region_size_, instance_alignment);
    USMCL_LOG(memory, "memory domain %u (%s): region of %zu bytes at %p", id_, name_.c_str(),
              region_size_, static_cast<void*>(region_base_));
}

Domain::~Domain() {
    region_.reset();
    if (region_base_)
        munmap(region_base_, region_size_);
}

std::byte* Domain::allocate_aligned(size_t size, size_t alignment) const {
    if (!region_)
        return nullptr;
    const size_t asked = size == 0 ? 1 : size;
    // Logged under the region's lock, so the log's order of allocations and
    // frees is the region's: the lines are the region's allocation trace
    // (bench/bufalloc/record_trace.py replays them).
    const bufalloc::AllocateResult result = region_->with_lock([&](bufalloc::Region& region) {
        const bufalloc::AllocateResult allocated = region.allocate(asked, alignment);
        if (allocated.ok())
            USMCL_LOG(memory,
                      "domain %s region: allocated %zu bytes (alignment %zu) at offset %#zx",
                      name_.c_str(), asked, alignment,
                      static_cast<size_t>(allocated.address -
                                          reinterpret_cast<std::uintptr_t>(region_base_)));
        return allocated;
    });
    if (!result.ok()) {
        USMCL_LOG(memory, "domain %s region: no room for %zu bytes (alignment %zu, %s)",
                  name_.c_str(), asked, alignment,
                  std::string(bufalloc::to_string(result.status)).c_str());
        return nullptr;
    }
    // The region's addresses are its base's: no integer becomes a pointer.
    std::byte* address =
        region_base_ + (result.address - reinterpret_cast<std::uintptr_t>(region_base_));
    advise_huge_pages(address, size);
    return address;
}

bool Domain::owns(const void* address) const {
    const auto* p = static_cast<const std::byte*>(address);
    return region_ && p >= region_base_ && static_cast<size_t>(p - region_base_) < region_size_;
}

bufalloc::Stats Domain::region_stats() const {
    return region_ ? region_->stats() : bufalloc::Stats{};
}

Domain::Traffic Domain::traffic() const {
    const Counters& c = counters_;
    return {get(c.bytes_in_host),    get(c.bytes_out_host),    get(c.bytes_in_device),
            get(c.bytes_out_device), get(c.copies_in_host),    get(c.copies_out_host),
            get(c.copies_in_device), get(c.copies_out_device), get(c.bytes_host_writes),
            get(c.bytes_host_reads), get(c.host_writes),       get(c.host_reads)};
}

void Domain::count_host_transfer(bool to_host, std::uint64_t size) const {
    add(to_host ? counters_.bytes_host_reads : counters_.bytes_host_writes, size);
    add(to_host ? counters_.host_reads : counters_.host_writes, 1);
}

void Domain::count_copy(const Domain& from, const Domain& to, std::uint64_t size) {
    Counters& out = from.counters_;
    Counters& in = to.counters_;
    if (from.is_host()) {
        add(in.bytes_in_host, size);
        add(in.copies_in_host, 1);
    } else {
        add(in.bytes_in_device, size);
        add(in.copies_in_device, 1);
    }
    if (to.is_host()) {
        add(out.bytes_out_host, size);
        add(out.copies_out_host, 1);
    } else {
        add(out.bytes_out_device, size);
        add(out.copies_out_device, 1);
    }
}

std::byte* Domain::allocate(size_t size) const {
    if (region_)
        return allocate_aligned(size, instance_alignment);
    if (size == 0)
        size = 1;
    void* address = nullptr;
    if (binder_ || size >= mapped_threshold) {
        address = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (address == MAP_FAILED)
            return nullptr;
        if (binder_ && !binder_(address, size))
            USMCL_LOG(memory, "domain %s: cannot bind %zu bytes to NUMA node %d; left unbound",
                      name_.c_str(), size, numa_node_);
        advise_huge_pages(address, size);
    } else {
        const size_t rounded =
            (size + instance_alignment - 1) / instance_alignment * instance_alignment;
        address = std::aligned_alloc(instance_alignment, rounded);
        if (!address)
            return nullptr;
    }
    return static_cast<std::byte*>(address);
}

void Domain::release(std::byte* address, size_t size) const {
    if (!address)
        return;
    if (region_) {
        // The whole pages of a large instance go back to the system.
        if (size >= mapped_threshold) {
            const auto key = reinterpret_cast<std::uintptr_t>(address);
            const std::uintptr_t page = page_size();
            const std::uintptr_t begin = (key + page - 1) / page * page;
            const std::uintptr_t end = (key + size) / page * page;
            if (end > begin)
                madvise(address + (begin - key), end - begin, MADV_DONTNEED);
        }
        withdraw_huge_pages(address, size);
        // Freed ranges are coalesced at once (no cache of freed blocks): the
        // next instance, of any size, may take their place, so a region that
        // was full and was freed again fits what it held.
        const auto freed = region_->with_lock([&](bufalloc::Region& region) {
            const bufalloc::Status status = region.free(reinterpret_cast<std::uintptr_t>(address));
            region.flush_cache();
            if (status == bufalloc::Status::ok)
                USMCL_LOG(memory, "domain %s region: freed %zu bytes at offset %#zx", name_.c_str(),
                          size == 0 ? size_t{1} : size,
                          static_cast<size_t>(address - region_base_));
            return status;
        });
        if (freed != bufalloc::Status::ok)
            USMCL_LOG(memory, "domain %s: %p is not an allocation of its region", name_.c_str(),
                      static_cast<void*>(address));
        return;
    }
    if (size == 0)
        size = 1;
    if (binder_ || size >= mapped_threshold)
        munmap(address, size);
    else
        std::free(address);
}

void hold_to_cost_model(const Domain& from, const Domain& to, std::uint64_t size,
                        std::uint64_t start) {
    if (!from.has_region() && !to.has_region())
        return;
    const support::Config& config = support::config();
    std::uint64_t modeled = std::uint64_t(config.discrete_latency) * 1000;
    if (config.discrete_bandwidth != 0)
        modeled += static_cast<std::uint64_t>(static_cast<double>(size) * 1e9 /
                                              static_cast<double>(config.discrete_bandwidth));
    const std::uint64_t took = support::monotonic_ns() - start;
    if (modeled <= took)
        return;
    const std::uint64_t rest = modeled - took;
    timespec delay{static_cast<time_t>(rest / 1000000000), static_cast<long>(rest % 1000000000)};
    while (nanosleep(&delay, &delay) != 0) {
    }
}

} // namespace usmcl::memory
