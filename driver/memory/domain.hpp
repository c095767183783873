// A memory domain: memory that some devices share. The host domain (id 0)
// is plain host memory, shared by the host and every device that uses host
// memory (the CPU root device and its sub-devices by default). With
// USMCL_NUMA_DOMAINS=1 every NUMA node is a domain of its own, and the
// sub-devices of that node use it.
#pragma once

#include "memory/migration_planner.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace usmcl::memory {

// Every instance is aligned to this: the size of the largest OpenCL type
// (long16), CL_DEVICE_MEM_BASE_ADDR_ALIGN.
inline constexpr size_t instance_alignment = 128;

class Domain {
public:
    // Binds [address, address + size) to the domain's memory; false when the
    // system cannot (the memory stays where it is).
    using Binder = std::function<bool(void* address, size_t size)>;

    Domain(DomainId id, std::string name, int numa_node, Binder binder);

    DomainId id() const { return id_; }
    const std::string& name() const { return name_; }
    int numa_node() const { return numa_node_; } // -1: no particular node
    bool is_host() const { return id_ == 0; }

    // size bytes aligned to instance_alignment, or nullptr.
    std::byte* allocate(size_t size) const;
    void release(std::byte* address, size_t size) const;
    // Moves the pages of [address, address + size) to the domain's node;
    // false when the domain has no node of its own or the system cannot.
    bool bind(void* address, size_t size) const { return binder_ && binder_(address, size); }
    const Binder& binder() const { return binder_; }

private:
    DomainId id_;
    std::string name_;
    int numa_node_;
    Binder binder_;
};

} // namespace usmcl::memory
