// Values that cross the bufalloc API: status codes, allocation results and statistics.
#pragma once

#include <cstdint>
#include <string_view>

namespace bufalloc {

// Outcome of an operation. Every failure leaves the region unchanged.
enum class Status : std::uint8_t {
    ok,
    out_of_space,      // no free range can hold the request
    invalid_size,      // size 0, or size rounded up to the alignment overflows 64 bits
    invalid_alignment, // alignment is not a power of two
    unknown_address,   // free() of an address that is not the start of a live allocation
};

// A short lowercase name, e.g. "out_of_space".
[[nodiscard]] std::string_view to_string(Status status) noexcept;

// Result of allocate(): the address of the new allocation when status is ok, else 0.
struct AllocateResult {
    std::uint64_t address = 0;
    Status status = Status::ok;

    [[nodiscard]] bool ok() const noexcept { return status == Status::ok; }
    explicit operator bool() const noexcept { return ok(); }
};

// A live allocation: it covers [address, address + size), size being the requested size.
struct Allocation {
    std::uint64_t address = 0;
    std::uint64_t size = 0;

    friend bool operator==(const Allocation&, const Allocation&) = default;
};

// A snapshot of the region. Reserved sizes are requested sizes rounded up to the region's
// minimum alignment; region_bytes == bytes_in_use + free_bytes always holds.
struct Stats {
    std::uint64_t region_bytes = 0;      // usable bytes: the size rounded down to the minimum
                                         // alignment
    std::uint64_t bytes_in_use = 0;      // reserved by live allocations
    std::uint64_t bytes_requested = 0;   // asked for by live allocations
    std::uint64_t free_bytes = 0;        // in free ranges (alignment padding included)
    std::uint64_t largest_free = 0;      // size of the largest free range
    std::uint64_t free_ranges = 0;       // number of maximal free ranges
    std::uint64_t allocations = 0;       // number of live allocations
    std::uint64_t bookkeeping_bytes = 0; // host memory held by the region's own structures
    double fragmentation = 0.0;          // 1 - largest_free / free_bytes; 0 when nothing is free
    std::uint64_t cached_bytes = 0;      // part of free_bytes held whole in the cache of freed
                                         // blocks (counted as free and coalesced in the figures
                                         // above)
};

} // namespace bufalloc
