// FreeSpace: a region allocator that keeps records of its free ranges only. The caller remembers
// every allocation's address and size and hands both back to release(), so a live allocation
// costs the allocator no host memory at all.
#pragma once

#include "bufalloc/detail/address_index.hpp"
#include "bufalloc/detail/block_pool.hpp"
#include "bufalloc/detail/free_lists.hpp"
#include "bufalloc/types.hpp"

#include <cstdint>

namespace bufalloc {

// Manages [base, base + size) as plain integers, like Region, with the same placement rules
// (every allocation starts at a multiple of max(alignment, min_alignment) and reserves its size
// rounded up to a multiple of min_alignment) and the same search (segregated fits, then an
// exhaustive scan before out_of_space).
//
// The difference is what it records: one record per maximal free range (free ranges are never
// adjacent), indexed by end address, and nothing per allocation. Use it when the caller already
// keeps every allocation's address and size (a registry of allocations): Region would keep a
// second record of each. It cannot find an allocation by an interior address, and release() can
// only check that the range it is given is inside the region and overlaps no free range.
//
// Costs: allocate is O(1) (a search of the free lists) plus an O(log f) index update when the
// chosen free range is used up or split by alignment padding; release is O(log f) (one floor
// search, plus an index update when the released range starts a free range of its own or merges
// with the one before it), f being the number of free ranges. Not thread-safe.
class FreeSpace {
public:
    // Same rules as Region's constructor (throws std::invalid_argument).
    FreeSpace(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment = 1);

    FreeSpace(const FreeSpace&) = delete;
    FreeSpace& operator=(const FreeSpace&) = delete;
    FreeSpace(FreeSpace&&) noexcept = default;
    FreeSpace& operator=(FreeSpace&&) noexcept = default;

    // As Region::allocate. May throw std::bad_alloc, leaving the region unchanged.
    [[nodiscard]] AllocateResult allocate(std::uint64_t size, std::uint64_t alignment = 0);

    // Frees the allocation of `size` bytes (as asked of allocate()) at `address`. unknown_address,
    // and no change, when the range is not granule-aligned, leaves the region or overlaps a free
    // range; a range that was never allocated but overlaps no free range cannot be told apart
    // (the caller's records are the authority). invalid_size for size 0. May throw
    // std::bad_alloc only when the range borders no free range (a new record), leaving the region
    // unchanged.
    Status release(std::uint64_t address, std::uint64_t size);

    // bytes_requested counts reserved bytes (requested sizes are not kept); cached_bytes is 0.
    [[nodiscard]] Stats stats() const noexcept;

    [[nodiscard]] std::uint64_t base() const noexcept { return base_; }
    [[nodiscard]] std::uint64_t min_alignment() const noexcept { return min_alignment_; }

    // Walks the free ranges and checks order, coalescing, free lists, index and counters. O(f);
    // meant for tests.
    [[nodiscard]] bool check_invariants() const;

private:
    using BlockIndex = detail::BlockIndex;

    std::uint64_t carve(BlockIndex index, std::uint64_t size, std::uint64_t alignment) noexcept;
    void unlink(BlockIndex index) noexcept;
    void add_free(BlockIndex index) noexcept;
    void remove_free(BlockIndex index) noexcept;

    std::uint64_t base_;
    std::uint64_t end_; // base + size rounded down to min_alignment
    std::uint64_t min_alignment_;
    // Free ranges only: address, size, address-order links (prev_phys/next_phys between free
    // ranges) and free-list links.
    detail::BlockPool pool_;
    detail::FreeLists free_lists_;
    detail::AddressIndex index_;           // end address of every free range -> its record
    BlockIndex first_ = detail::nil_block; // lowest free range
    std::uint64_t bytes_in_use_ = 0;
    std::uint64_t allocations_ = 0;
    std::uint64_t free_bytes_ = 0;
    std::uint64_t free_ranges_ = 0;
};

} // namespace bufalloc
