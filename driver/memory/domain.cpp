#include "memory/domain.hpp"

#include "support/log.hpp"

#include <cstdlib>
#include <sys/mman.h>

namespace usmcl::memory {
namespace {

// Large instances get their own pages, so they can be bound to a node.
constexpr size_t mapped_threshold = 1u << 20;

} // namespace

Domain::Domain(DomainId id, std::string name, int numa_node, Binder binder)
    : id_(id), name_(std::move(name)), numa_node_(numa_node), binder_(std::move(binder)) {}

std::byte* Domain::allocate(size_t size) const {
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
    if (size == 0)
        size = 1;
    if (binder_ || size >= mapped_threshold)
        munmap(address, size);
    else
        std::free(address);
}

} // namespace usmcl::memory
