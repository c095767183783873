// A context's USM allocations: allocation and free of the three kinds, the
// registry that finds them by any interior pointer, and which enqueued
// commands may use which allocations (what clMemBlockingFreeINTEL waits
// for).
#pragma once

#include "core/object.hpp"
#include "core/result.hpp"
#include "memory/shared_pages.hpp"
#include "memory/usm_registry.hpp"
#include "support/small_vector.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace usmcl::core {

class Device;
class Event;

// A bit per memory::UsmKind, for indirect access.
inline unsigned usm_kind_bit(memory::UsmKind kind) {
    return 1u << static_cast<unsigned>(kind);
}

class UsmAllocations {
public:
    UsmAllocations();
    // Frees every allocation still live.
    ~UsmAllocations();
    UsmAllocations(const UsmAllocations&) = delete;
    UsmAllocations& operator=(const UsmAllocations&) = delete;

    struct Request {
        memory::UsmKind kind = memory::UsmKind::host;
        Device* device = nullptr;  // required for device allocations
        std::size_t size = 0;      // validated: > 0
        std::size_t alignment = 0; // validated: a power of two up to 128
        std::uint64_t flags = 0;
    };
    // CL_OUT_OF_RESOURCES when the memory cannot be had.
    Result<void*> allocate(const Request& request);
    // Frees the allocation that starts at base; CL_INVALID_VALUE (and no
    // change) for any other pointer.
    Status free(void* base);
    // Waits for every command that may use the allocation, then frees it.
    Status blocking_free(void* base);

    std::optional<memory::UsmAllocation> find(const void* address) const {
        return registry_.find(address);
    }
    // The migrating pages of a shared allocation of a discrete-memory device
    // that starts at base (memory/shared_pages.hpp), or nullptr.
    memory::SharedPages* shared_pages(const void* base) const;
    // What moved of an allocation between the host's memory domain and its
    // device's, and how many of its bytes are in its device's domain now
    // when that domain is not the host's (CL/usmcl_ext.h): a discrete
    // device's device allocations wholly, its shared ones by the blocks
    // resident there; the allocations of a device with a NUMA domain of its
    // own wholly; everything else none.
    memory::SharedPages::Traffic traffic(const memory::UsmAllocation& allocation) const;
    std::size_t live_allocations() const { return registry_.size(); }
    std::size_t bookkeeping_bytes() const { return registry_.bookkeeping_bytes(); }

    // Records that event's command may use the allocations that contain
    // pointers (pointers outside USM are ignored) and every allocation of
    // the kinds in indirect_kinds (usm_kind_bit).
    void record_use(Event& event, std::span<const void* const> pointers, unsigned indirect_kinds);
    // Drops the records (the context's handle is gone: nothing can ask for
    // a blocking free any more, and events must not keep the context alive).
    void forget_uses();

private:
    struct Use {
        Ref<Event> event;
        // A copy uses two allocations, a fill one.
        support::SmallVector<std::byte*, 2> bases;
        unsigned indirect_kinds = 0;
    };
    void release_memory(const memory::UsmAllocation& allocation);
    void prune_locked();

    memory::UsmRegistry registry_;
    mutable std::mutex pages_mutex_;
    std::unordered_map<const void*, std::unique_ptr<memory::SharedPages>> pages_;
    std::mutex uses_mutex_;
    std::vector<Use> uses_;
    std::size_t prune_at_ = 64;
};

} // namespace usmcl::core
