// Region: hands out aligned ranges of an address range it never touches.
#pragma once

#include "bufalloc/detail/address_index.hpp"
#include "bufalloc/detail/block_pool.hpp"
#include "bufalloc/detail/free_lists.hpp"
#include "bufalloc/types.hpp"

#include <cstdint>
#include <optional>

namespace bufalloc {

// Manages [base, base + size) as plain integers: the range may be device memory the host cannot
// read, and all bookkeeping lives in host memory owned by the Region.
//
// Every allocation starts at a multiple of max(alignment, min_alignment) and reserves its size
// rounded up to a multiple of min_alignment. Free ranges are coalesced at once. Not thread-safe;
// see SharedRegion.
//
// Costs: allocate and free are O(log n) in the number n of live allocations (O(1) segregated-fit
// search, plus one B+tree update); lookup is O(log n). An allocate that the O(1) search cannot
// satisfy (rare: very large alignments, or a nearly full region) scans the free ranges before
// reporting out_of_space.
class Region {
public:
    // base must be a multiple of min_alignment, min_alignment a power of two, size >= 1 and
    // base + size must not exceed 2^64 - 1; otherwise throws std::invalid_argument. Only
    // the size rounded down to a multiple of min_alignment is handed out.
    Region(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment = 1);

    // Two allocators must not hand out the same range: no copies. A moved-from Region may only be
    // destroyed or assigned to.
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;
    Region(Region&&) noexcept = default;
    Region& operator=(Region&&) noexcept = default;

    // Reserves `size` bytes at a multiple of `alignment` (0 means min_alignment). Fails with
    // invalid_size for size 0 or when size rounded up to the alignment overflows, with
    // invalid_alignment when alignment is not a power of two, and with out_of_space when no free
    // range can hold the request. May throw std::bad_alloc for its own bookkeeping, in which
    // case the region is unchanged.
    [[nodiscard]] AllocateResult allocate(std::uint64_t size, std::uint64_t alignment = 0);

    // Releases the allocation that starts at `address`. Any other address, including one
    // already freed, yields unknown_address and changes nothing. Never throws.
    Status free(std::uint64_t address) noexcept;

    // The live allocation whose [address, address + requested size) contains `address`.
    [[nodiscard]] std::optional<Allocation> lookup(std::uint64_t address) const noexcept;

    // Extends the region by `bytes` at its end (merging with a free range there). Fails with
    // invalid_size when base + size + bytes would exceed 2^64 - 1. May throw std::bad_alloc,
    // leaving the region unchanged.
    Status grow(std::uint64_t bytes);

    [[nodiscard]] Stats stats() const noexcept;

    [[nodiscard]] std::uint64_t base() const noexcept { return base_; }
    [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
    [[nodiscard]] std::uint64_t min_alignment() const noexcept { return min_alignment_; }

    // Walks every block and checks tiling, coalescing, free lists, index and counters. O(n);
    // meant for tests.
    [[nodiscard]] bool check_invariants() const;

private:
    using BlockIndex = detail::BlockIndex;

    [[nodiscard]] BlockIndex find_fit(std::uint64_t size, std::uint64_t alignment) const noexcept;
    [[nodiscard]] BlockIndex best_in_class(detail::SizeClass size_class, std::uint64_t size,
                                           std::uint64_t alignment) const noexcept;
    [[nodiscard]] BlockIndex scan_fit(std::uint64_t size, std::uint64_t alignment) const noexcept;
    std::uint64_t carve(BlockIndex index, std::uint64_t size, std::uint64_t alignment,
                        std::uint64_t requested) noexcept;
    BlockIndex split_after(BlockIndex index, std::uint64_t head_size) noexcept;
    BlockIndex merge_into_prev(BlockIndex index) noexcept;
    void add_free(BlockIndex index) noexcept;
    void remove_free(BlockIndex index) noexcept;
    [[nodiscard]] std::uint64_t largest_free() const noexcept;
    [[nodiscard]] bool check_free_lists(std::uint64_t free_blocks) const;

    std::uint64_t base_;
    std::uint64_t size_;
    std::uint64_t end_; // base_ + size_ rounded down to min_alignment_
    std::uint64_t min_alignment_;
    detail::BlockPool pool_;
    detail::FreeLists free_lists_;
    detail::AddressIndex index_; // start address -> block, live allocations only
    BlockIndex first_ = detail::nil_block;
    BlockIndex last_ = detail::nil_block;
    std::uint64_t bytes_in_use_ = 0;
    std::uint64_t bytes_requested_ = 0;
    std::uint64_t free_bytes_ = 0;
    std::uint64_t free_ranges_ = 0;
};

} // namespace bufalloc
