// The USM registry of a context: which address ranges are USM allocations,
// of what kind, with which device and flags. Finds the allocation that
// contains any interior pointer in O(log n): a B+tree keyed by base address
// whose leaves hold the records themselves, so a lookup's last memory access
// is the leaf it searched. Thread-safe: lookups share a reader lock (one
// atomic increment and decrement), changes take it exclusively.
#pragma once

#include "memory/read_mostly_lock.hpp"

#include <bufalloc/address_index.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace usmcl::memory {

// host, device and shared: the kinds of cl_intel_unified_shared_memory;
// svm: a clSVMAlloc buffer (host memory every device of the context reaches).
enum class UsmKind : std::uint8_t { host, device, shared, svm };
inline constexpr unsigned usm_kind_count = 4;

struct UsmAllocation {
    std::byte* base = nullptr;
    std::size_t size = 0;        // > 0
    const void* owner = nullptr; // the associated device, opaque here; may be null
    UsmKind kind = UsmKind::host;
    std::uint8_t flags = 0; // cl_mem_alloc_flags_intel as given (the extension defines 3 bits);
                            // 0 for SVM

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
    // Bytes of bookkeeping: the index with its records.
    std::size_t bookkeeping_bytes() const;

private:
    // An allocation without its base (the index's key): 24 bytes. Size 0
    // marks a missing key (allocations are never empty).
    struct Record {
        std::size_t size = 0;
        const void* owner = nullptr;
        UsmKind kind = UsmKind::host;
        std::uint8_t flags = 0;
    };
    static_assert(sizeof(Record) == 24);
    static UsmAllocation allocation_of(std::uint64_t base, const Record& record);

    // 8 records per leaf: a leaf is 264 bytes (5 cache lines, all fetched
    // at once by a lookup). 16 or 32 per leaf cost less memory per record
    // (43.8 and 37.9 bytes at 100k, against 51.9) but lookups took 10-25%
    // longer: the leaf search compares every key of the leaf.
    using Index = bufalloc::BasicAddressIndex<Record, 8>;

    mutable ReadMostlyLock mutex_;
    Index index_; // base address -> record
};

} // namespace usmcl::memory
