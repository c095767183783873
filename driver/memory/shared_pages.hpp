// Shared USM allocations of a discrete-memory device, migrated on access,
// block by block, as GPU drivers migrate shared memory.
//
// The allocation's address range is an alias of host memory of its own (a
// shared anonymous mapping, also mapped at a second address only the
// driver uses). Each block of 64 KiB is resident either there or in the
// device's region: moving a block to the device copies it into a range of
// the region and maps that range at the block's address; moving it back
// copies it out and maps the host memory there again. The bytes of a
// device-resident block are in the region, nowhere else.
//
// Accesses decide where blocks go. While no kernel of the device runs,
// the blocks resident on the device are inaccessible: the host's first
// touch faults, and the fault handler brings the block back. While a
// kernel of the device runs, the blocks resident on the host are
// inaccessible: the kernel's first touch brings the block to the device.
// A thread that faults on a block resident where it wants it just gets
// access. Copies are counted in the domains' traffic, like the migrations
// of buffers, and held to the cost model.
//
// The fault handler is installed for SIGSEGV when the first such
// allocation is made (again whenever it finds itself replaced); faults
// outside these allocations go to the handler it replaced.
#pragma once

#include "memory/migration_planner.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace usmcl::memory {

class Domain;

// The unit of migration (whole pages; the last block of an allocation may
// be shorter).
inline constexpr std::size_t shared_block_bytes = std::size_t(64) << 10;

class SharedPages {
public:
    // Which domain's kernel the calling thread runs (0: none, the host's);
    // async-signal-safe (runtime::kernel_memory_domain).
    using ThreadDomain = std::uint32_t (*)();

    // A shared allocation of size bytes (> 0) for device, whose blocks start
    // on the host; nullptr when the system gives no address space.
    // thread_domain tells the fault handler whose access faulted.
    static std::unique_ptr<SharedPages> create(const Domain& host, const Domain& device,
                                               std::size_t size, ThreadDomain thread_domain);
    // Frees the allocation's device blocks and its address space.
    ~SharedPages();
    SharedPages(const SharedPages&) = delete;
    SharedPages& operator=(const SharedPages&) = delete;

    std::byte* base() const { return base_; }
    std::size_t size() const { return size_; }
    std::size_t mapped_size() const { return mapped_; } // size() in whole pages
    DomainId device_domain() const;
    const Domain& host() const { return host_; }
    const Domain& device() const { return device_; }

    // Moves every block that [offset, offset + size) touches to the device
    // (to_device) or to the host, with its content, ahead of any access
    // (clEnqueueMigrateMemINTEL). A block the device's region has no room
    // for stays on the host. Blocks moved are counted and held to the cost
    // model as the fault handler's are.
    void migrate(std::size_t offset, std::size_t size, bool to_device);

    // What this allocation's blocks did: bytes and blocks moved each way
    // since it was made, and the bytes resident on the device now. Read
    // without a lock (each value is consistent, the set is a snapshot).
    struct Traffic {
        std::uint64_t bytes_to_device = 0;
        std::uint64_t bytes_to_host = 0;
        std::uint64_t blocks_to_device = 0;
        std::uint64_t blocks_to_host = 0;
        std::uint64_t resident_bytes = 0;
    };
    Traffic traffic() const;

    // Used by the fault handler and the phases of the device (shared_pages.cpp).
    struct Block {
        std::byte* device = nullptr; // its range of the region while resident there
        bool accessible = true;      // readable and writable at its address
    };
    struct Moved {
        std::size_t to_device = 0;
        std::size_t to_host = 0;
    };
    // For a fault at address by a thread running a kernel of domain side
    // (0: the host): true when the block needs no move (another thread
    // made it accessible, or it is resident where side wants it: access is
    // granted); false when it must move (on_fault, by the mover thread).
    // Allocates nothing: the fault handler calls it.
    bool resolve_in_place(const std::byte* address, DomainId side);
    // Makes the block that holds address accessible to side, moving it
    // first if it is resident elsewhere; nothing if another thread already
    // did.
    void on_fault(const std::byte* address, DomainId side, Moved& moved);
    // Makes the blocks accessible that are resident on the side that may
    // run: the device while its kernels run (device_phase), else the host.
    void apply_phase(bool device_phase);

private:
    SharedPages(const Domain& host, const Domain& device, std::byte* base, std::byte* shadow,
                std::size_t size, std::size_t mapped);
    std::size_t block_length(std::size_t index) const;
    // Moves block index to the device or to the host; false when it
    // stays where it is (no room in the region, no mapping).
    bool move(std::size_t index, bool to_device, Moved& moved);
    void protect(std::size_t first, std::size_t count, bool accessible);

    const Domain& host_;
    const Domain& device_;
    std::byte* base_;   // what the application sees
    std::byte* shadow_; // the host memory at a second address, always accessible
    std::size_t size_;
    std::size_t mapped_; // size_ in whole pages
    std::vector<Block> blocks_;
    // Traffic, written by move() (under the registry's lock), read by anyone.
    std::atomic<std::uint64_t> bytes_to_device_{0};
    std::atomic<std::uint64_t> bytes_to_host_{0};
    std::atomic<std::uint64_t> blocks_to_device_{0};
    std::atomic<std::uint64_t> blocks_to_host_{0};
    std::atomic<std::uint64_t> resident_bytes_{0};
};

// Marks a kernel of a domain as running: while any does, the shared
// allocations of that domain are in its device phase. Costs an atomic load
// when no shared allocation of a discrete device exists.
class DeviceAccess {
public:
    explicit DeviceAccess(DomainId domain);
    ~DeviceAccess();
    DeviceAccess(const DeviceAccess&) = delete;
    DeviceAccess& operator=(const DeviceAccess&) = delete;

private:
    DomainId domain_;
    bool active_ = false;
};

} // namespace usmcl::memory
