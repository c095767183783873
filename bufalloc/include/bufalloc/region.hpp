// Region: hands out aligned ranges of an address range it never touches.
#pragma once

#include "bufalloc/detail/address_index.hpp"
#include "bufalloc/detail/address_map.hpp"
#include "bufalloc/detail/block_pool.hpp"
#include "bufalloc/detail/free_lists.hpp"
#include "bufalloc/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace bufalloc {

// Manages [base, base + size) as plain integers: the range may be device memory the host cannot
// read, and all bookkeeping lives in host memory owned by the Region.
//
// Every allocation starts at a multiple of max(alignment, min_alignment) and reserves its size
// rounded up to a multiple of min_alignment. Not thread-safe; see SharedRegion.
//
// Freed blocks of a size that is being allocated repeatedly go to a small cache (a stack per
// reserved size) and are handed out whole by a later allocate of that size, without touching the
// free lists or the address index. They are really freed (coalesced) when an allocation cannot
// be satisfied otherwise, when another size claims their bin, and by flush_cache(); a freed block
// that would take the cache past its bound (region bytes / 64, 16 blocks per size) is freed at
// once. A cached block is free as far as the API goes: lookup() does not find it, free() of its
// address is unknown_address, and stats() reports what it would after a flush.
//
// Costs: allocate and free are O(log n) in the number n of live allocations (O(1) segregated-fit
// search, plus one B+tree update); a free that goes to the cache and an allocate served from it
// are O(1) (a hash-map search). lookup is O(log n). An allocate that the O(1) search cannot
// satisfy (rare: very large alignments, or a nearly full region) flushes the cache and scans the
// free ranges before reporting out_of_space.
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

    // Really frees every cached block, coalescing it with its free neighbours. Changes nothing that
    // lookup(), free() or stats() report; later allocations may be placed differently.
    void flush_cache() noexcept;

    // Extends the region by `bytes` at its end (merging with a free range there). Fails with
    // invalid_size when base + size + bytes would exceed 2^64 - 1. May throw std::bad_alloc,
    // leaving the region unchanged.
    Status grow(std::uint64_t bytes);

    // Exact as if the cache were flushed: O(1) plus O(cached blocks) plus a walk of the largest
    // size class's free list.
    [[nodiscard]] Stats stats() const noexcept;

    [[nodiscard]] std::uint64_t base() const noexcept { return base_; }
    [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
    [[nodiscard]] std::uint64_t min_alignment() const noexcept { return min_alignment_; }

    // Walks every block and checks tiling, coalescing, free lists, cache, index and counters.
    // O(n); meant for tests.
    [[nodiscard]] bool check_invariants() const;

    // Cache geometry: bins of exact reserved sizes (one size per bin at a time), blocks per bin,
    // and cached bytes <= region bytes >> cache_limit_shift.
    static constexpr unsigned cache_bin_log = 6;
    static constexpr unsigned cache_bins = 1U << cache_bin_log;
    static constexpr std::uint32_t cache_bin_capacity = 16;
    static constexpr unsigned cache_limit_shift = 6;

private:
    using BlockIndex = detail::BlockIndex;

    // A cached block, with what reusing it needs, so that neither free() nor allocate() has to
    // read its record (a cache miss when allocations are many).
    struct CacheEntry {
        std::uint64_t address = 0;
        BlockIndex index = detail::nil_block;
        std::uint32_t map_slot = 0; // where map_ held it when cached; checked before use
    };

    // Freed blocks of one reserved size; a stack, the most recent on top.
    struct CacheBin {
        std::uint64_t size = 0; // the reserved size the bin is claimed for; 0 when unclaimed
        std::uint32_t count = 0;
        std::array<CacheEntry, cache_bin_capacity> entries{};
    };

    // map_ tags: the requested size when below 2^31 (else 0: see the record), and a flag for
    // cached blocks. For a block in the map, the tag is what counts: free() and allocate() of
    // cached blocks touch no record, so its requested field may be stale.
    static constexpr std::uint32_t cached_tag = 1U << 31;
    [[nodiscard]] static std::uint32_t tag_of(std::uint64_t requested) noexcept {
        return requested < cached_tag ? static_cast<std::uint32_t>(requested) : 0;
    }

    // Bins are picked by a multiplicative hash of the size in granules.
    [[nodiscard]] std::size_t bin_of(std::uint64_t reserved) const noexcept {
        std::uint64_t granules = reserved >> granule_shift_;
        return static_cast<std::size_t>((granules * 0x9e3779b97f4a7c15ULL) >> (64 - cache_bin_log));
    }
    void unindex(std::uint64_t address, std::size_t map_slot) noexcept;
    [[nodiscard]] bool try_cache(std::uint64_t address, std::size_t map_slot, BlockIndex index,
                                 std::uint64_t size, std::uint64_t requested) noexcept;
    [[nodiscard]] std::size_t map_slot_of(const CacheEntry& entry) const noexcept {
        return map_.holds(entry.map_slot, entry.address) ? entry.map_slot
                                                         : map_.find(entry.address);
    }
    void flush_bin(CacheBin& bin) noexcept;
    void release(BlockIndex index) noexcept;
    // For an allocated block: cached, and the requested size if not (see the tags).
    struct BlockState {
        bool cached = false;
        std::uint64_t requested = 0;
    };
    [[nodiscard]] BlockState state_of(const detail::Block& block) const noexcept;
    [[nodiscard]] bool unused(BlockIndex index) const noexcept;
    void cached_runs(std::uint64_t& largest, std::uint64_t& merges) const noexcept;
    [[nodiscard]] std::uint64_t cached_blocks() const noexcept;
    [[nodiscard]] bool check_cache(std::uint64_t cached_blocks, std::uint64_t cached_bytes) const;

    [[gnu::noinline]] AllocateResult allocate_uncached(std::uint64_t size, std::uint64_t alignment,
                                                       std::uint64_t reserved);
    [[gnu::noinline]] Status free_unmapped(std::uint64_t address) noexcept;
    [[gnu::noinline]] void release_allocation(std::uint64_t address, std::size_t map_slot,
                                              BlockIndex index, std::uint64_t size,
                                              std::uint64_t requested) noexcept;
    std::uint64_t carve(BlockIndex index, std::uint64_t size, std::uint64_t alignment,
                        std::uint64_t requested, bool mapped) noexcept;
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
    unsigned granule_shift_; // log2(min_alignment_)
    detail::BlockPool pool_;
    detail::FreeLists free_lists_;
    detail::AddressIndex index_; // start address -> block, live and cached allocations
    // Start address -> block for the cached allocations and the live ones of a size that was
    // being repeated when they were made (the only ones free() may cache): searched first by
    // free(). Tags: see tag_of().
    detail::AddressMap map_;
    BlockIndex first_ = detail::nil_block;
    BlockIndex last_ = detail::nil_block;
    std::uint64_t bytes_in_use_ = 0;    // reserved by live and cached blocks
    std::uint64_t bytes_requested_ = 0; // asked for by live blocks
    std::uint64_t free_bytes_ = 0;
    std::uint64_t free_ranges_ = 0;
    // Apart from the counters above: the cache paths update it alone, and the compiler must not
    // pair it with a neighbour into one vector load that a scalar store could not forward to.
    std::uint64_t cache_limit_ = 0;  // bound on cached_bytes_
    std::uint64_t cached_bytes_ = 0; // in cached blocks (still in index_ and bytes_in_use_)
    std::array<CacheBin, cache_bins> cache_{};
};

} // namespace bufalloc
