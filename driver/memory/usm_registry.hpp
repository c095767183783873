// The USM registry of a context: which address ranges are USM allocations,
// of what kind, with which device and flags. Finds the allocation that
// contains any interior pointer in O(log n) (a B+tree keyed by base
// address). Thread-safe: lookups share a reader lock, changes take it
// exclusively.
#pragma once

#include <bufalloc/address_index.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace usmcl::memory {

enum class UsmKind : std::uint8_t { host, device, shared };
inline constexpr unsigned usm_kind_count = 3;

struct UsmAllocation {
    std::byte* base = nullptr;
    std::size_t size = 0;        // > 0
    std::uint64_t flags = 0;     // cl_mem_alloc_flags_intel as given
    const void* owner = nullptr; // the associated device, opaque here; may be null
    UsmKind kind = UsmKind::host;

    bool contains(const void* address) const {
        const auto* p = static_cast<const std::byte*>(address);
        return p >= base && static_cast<std::size_t>(p - base) < size;
    }
};

class UsmRegistry {
public:
    // Adds an allocation whose range overlaps no other. May throw
    // std::bad_alloc, leaving the registry unchanged.
    void insert(const UsmAllocation& allocation);
    // Removes the allocation that starts exactly at base; nullopt (and no
    // change) for any other address.
    std::optional<UsmAllocation> erase(const void* base);
    // The allocation whose range contains address, or nullopt.
    std::optional<UsmAllocation> find(const void* address) const;
    // The allocation that starts exactly at base, or nullopt.
    std::optional<UsmAllocation> find_base(const void* base) const;
    // Removes and returns every allocation (a context going away).
    std::vector<UsmAllocation> take_all();

    std::size_t size() const;
    // Bytes of bookkeeping: records, free record slots and the index.
    std::size_t bookkeeping_bytes() const;

private:
    using Slot = std::uint32_t;
    std::optional<UsmAllocation> find_locked(const void* address) const;

    mutable std::shared_mutex mutex_;
    bufalloc::AddressIndex index_; // base address -> slot in records_
    std::vector<UsmAllocation> records_;
    std::vector<Slot> free_slots_;
};

} // namespace usmcl::memory
