// Argument checks, alignment arithmetic and the placement policy shared by Region and
// FreeSpace (both keep their free blocks in a BlockPool binned by FreeLists).
#pragma once

#include "bufalloc/detail/block_pool.hpp"
#include "bufalloc/detail/free_lists.hpp"

#include <cstdint>
#include <stdexcept>

namespace bufalloc::detail {

// std::has_single_bit without a popcount library call on CPUs targeted without POPCNT.
constexpr bool is_power_of_two(std::uint64_t value) noexcept {
    return value != 0 && (value & (value - 1)) == 0;
}

// The base of a region [base, base + size) with granule min_alignment; throws
// std::invalid_argument when the three do not describe one.
inline std::uint64_t checked_base(std::uint64_t base, std::uint64_t size,
                                  std::uint64_t min_alignment) {
    if (!is_power_of_two(min_alignment)) {
        throw std::invalid_argument("bufalloc: minimum alignment must be a power of two");
    }
    if (base % min_alignment != 0) {
        throw std::invalid_argument("bufalloc: base must be a multiple of the minimum alignment");
    }
    if (size == 0 || size > UINT64_MAX - base) {
        throw std::invalid_argument("bufalloc: size must be >= 1 and base + size < 2^64");
    }
    return base;
}

// Bytes to skip from `address` to reach a multiple of `alignment` (a power of two).
constexpr std::uint64_t padding(std::uint64_t address, std::uint64_t alignment) noexcept {
    return (0 - address) & (alignment - 1);
}

// Whether `size` bytes at a multiple of `alignment` fit in the block.
inline bool fits(const Block& block, std::uint64_t size, std::uint64_t alignment) noexcept {
    std::uint64_t pad = padding(block.address, alignment);
    return pad <= block.size && block.size - pad >= size;
}

// The smallest block that fits among the first few of one size class; stops at an exact fit.
inline BlockIndex best_in_class(const BlockPool& pool, const FreeLists& free_lists,
                                SizeClass size_class, std::uint64_t size,
                                std::uint64_t alignment) noexcept {
    constexpr int max_tries = 8;
    BlockIndex best = nil_block;
    std::uint64_t best_size = UINT64_MAX;
    BlockIndex index = free_lists.head(size_class);
    for (int tries = 0; index != nil_block && tries < max_tries; ++tries) {
        const Block& block = pool[index];
        if (fits(block, size, alignment) && block.size < best_size) {
            best = index;
            best_size = block.size;
            if (block.size - padding(block.address, alignment) == size) {
                break;
            }
        }
        index = block.next_free;
    }
    return best;
}

// Exhaustive search of every free block that may fit, smallest classes first: a placement
// fails only when no free block can hold it. O(free blocks).
inline BlockIndex scan_fit(const BlockPool& pool, const FreeLists& free_lists, std::uint64_t size,
                           std::uint64_t alignment) noexcept {
    SizeClass from = free_lists.class_of(size);
    for (;;) {
        SizeClass found;
        BlockIndex index = free_lists.first_at_or_above(from, &found);
        if (index == nil_block) {
            return nil_block;
        }
        for (; index != nil_block; index = pool[index].next_free) {
            if (fits(pool[index], size, alignment)) {
                return index;
            }
        }
        if (!FreeLists::next_class(found, from)) {
            return nil_block;
        }
    }
}

// The placement policy: best fit among the first blocks of the request's own size class (they
// may be larger or smaller than the request), else the O(1) good fit: any block of the first
// non-empty class whose blocks all hold at least size plus the worst-case padding for blocks
// aligned to min_alignment; else scan_fit().
inline BlockIndex find_fit(const BlockPool& pool, const FreeLists& free_lists,
                           std::uint64_t min_alignment, std::uint64_t size,
                           std::uint64_t alignment) noexcept {
    std::uint64_t worst_padding = alignment - min_alignment;
    if (size > UINT64_MAX - worst_padding) {
        return scan_fit(pool, free_lists, size, alignment);
    }
    std::uint64_t needed = size + worst_padding;
    BlockIndex index =
        best_in_class(pool, free_lists, free_lists.class_of(needed), size, alignment);
    if (index != nil_block) {
        return index;
    }
    SizeClass size_class;
    if (free_lists.class_at_least(needed, size_class)) {
        index = free_lists.first_at_or_above(size_class, nullptr);
        if (index != nil_block) {
            return index;
        }
    }
    return scan_fit(pool, free_lists, size, alignment);
}

} // namespace bufalloc::detail
