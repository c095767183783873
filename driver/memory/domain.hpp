// A memory domain: memory that some devices share. The host domain (id 0)
// is plain host memory, shared by the host and every device that uses host
// memory (the CPU root device and its sub-devices by default). With
// USMCL_NUMA_DOMAINS=1 every NUMA node is a domain of its own, and the
// sub-devices of that node use it. A discrete-memory device has a domain of
// its own whose memory is one reserved region, carved by bufalloc::Region:
// every instance in it, and every USM device allocation, is a range of that
// region, and allocation fails when the region is full.
#pragma once

#include "memory/migration_planner.hpp"

#include <bufalloc/shared_region.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
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
    // A domain of region_bytes of its own (a discrete-memory device),
    // reserved at once; region_bytes() tells how much the system granted.
    Domain(DomainId id, std::string name, std::size_t region_bytes);
    ~Domain();
    Domain(const Domain&) = delete;
    Domain& operator=(const Domain&) = delete;

    DomainId id() const { return id_; }
    const std::string& name() const { return name_; }
    int numa_node() const { return numa_node_; } // -1: no particular node
    bool is_host() const { return id_ == 0; }
    // Whether the domain's memory is a region of its own.
    bool has_region() const { return region_ != nullptr; }
    std::size_t region_bytes() const { return region_size_; }

    // size bytes aligned to instance_alignment, or nullptr.
    std::byte* allocate(size_t size) const;
    // size bytes at a multiple of alignment (a power of two, at least
    // instance_alignment), or nullptr. Domains with a region only.
    std::byte* allocate_aligned(size_t size, size_t alignment) const;
    void release(std::byte* address, size_t size) const;
    // Whether address lies in the domain's region.
    bool owns(const void* address) const;
    // The region's figures; zeros for a domain without one.
    bufalloc::Stats region_stats() const;

    // Copies between domains, counted as they run: into this domain and out
    // of it, bytes and commands, split by whether the other side is the host
    // domain. Relaxed atomics: figures, not synchronization.
    struct Traffic {
        std::uint64_t bytes_from_host = 0;
        std::uint64_t bytes_to_host = 0;
        std::uint64_t bytes_from_devices = 0;
        std::uint64_t bytes_to_devices = 0;
        std::uint64_t copies_from_host = 0;
        std::uint64_t copies_to_host = 0;
        std::uint64_t copies_from_devices = 0;
        std::uint64_t copies_to_devices = 0;
        // The host transfers of commands (clEnqueueRead/Write*) into this
        // domain and out of it, not counted as copies above.
        std::uint64_t bytes_written_by_host = 0;
        std::uint64_t bytes_read_by_host = 0;
        std::uint64_t host_writes = 0;
        std::uint64_t host_reads = 0;
    };
    Traffic traffic() const;
    // Records a copy of size bytes from one domain into another.
    static void count_copy(const Domain& from, const Domain& to, std::uint64_t size);
    // Records a host transfer of size bytes out of the domain (to_host) or
    // into it.
    void count_host_transfer(bool to_host, std::uint64_t size) const;
    // Moves the pages of [address, address + size) to the domain's node;
    // false when the domain has no node of its own or the system cannot.
    bool bind(void* address, size_t size) const { return binder_ && binder_(address, size); }
    const Binder& binder() const { return binder_; }

private:
    struct Counters {
        std::atomic<std::uint64_t> bytes_in_host{0}, bytes_out_host{0};
        std::atomic<std::uint64_t> bytes_in_device{0}, bytes_out_device{0};
        std::atomic<std::uint64_t> copies_in_host{0}, copies_out_host{0};
        std::atomic<std::uint64_t> copies_in_device{0}, copies_out_device{0};
        std::atomic<std::uint64_t> bytes_host_writes{0}, bytes_host_reads{0};
        std::atomic<std::uint64_t> host_writes{0}, host_reads{0};
    };

    DomainId id_;
    std::string name_;
    int numa_node_;
    Binder binder_;
    std::byte* region_base_ = nullptr;
    std::size_t region_size_ = 0;
    std::unique_ptr<bufalloc::SharedRegion> region_;
    mutable Counters counters_;
};

// The cost model of copies to or from a discrete-memory device
// (USMCL_DISCRETE_BANDWIDTH, USMCL_DISCRETE_LATENCY): a copy of size bytes
// from one domain to another that began at start (support::monotonic_ns)
// takes at least latency + size / bandwidth; the calling thread sleeps for
// the rest. Nothing without the model or between domains without a region.
// Async-signal-safe (nanosleep).
void hold_to_cost_model(const Domain& from, const Domain& to, std::uint64_t size,
                        std::uint64_t start);

} // namespace usmcl::memory
