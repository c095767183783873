// Argument checks and alignment arithmetic shared by Region and FreeSpace.
#pragma once

#include "bufalloc/detail/block_pool.hpp"

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

} // namespace bufalloc::detail
