// Small array helpers of the BasicAddressIndex member definitions.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace bufalloc::detail {

// Number of the first `count` sorted keys that are <= key: the child of an inner node to
// descend into. Two branch-free linear passes: every 8th key picks a group of 8, then the group.
inline unsigned count_not_greater(const std::uint64_t* keys, unsigned count,
                                  std::uint64_t key) noexcept {
    unsigned group = 0;
    for (unsigned i = 7; i < count; i += 8) {
        group += keys[i] <= key ? 1U : 0U;
    }
    unsigned n = group * 8;
    unsigned end = std::min(n + 8, count);
    for (unsigned i = n; i < end; ++i) {
        n += keys[i] <= key ? 1U : 0U;
    }
    return n;
}

// Position of key among the first `count` of `capacity` unordered keys, or count when absent.
// Compares all `capacity` keys into a bit mask (no early exit to mispredict) and keeps the bits
// below count: keys past count are stale.
template <unsigned capacity>
unsigned find_key(const std::uint64_t* keys, unsigned count, std::uint64_t key) noexcept {
    static_assert(capacity <= 32);
    std::uint32_t mask = 0;
    for (unsigned i = 0; i < capacity; ++i) {
        mask |= static_cast<std::uint32_t>(keys[i] == key) << i;
    }
    mask &= static_cast<std::uint32_t>((std::uint64_t{1} << count) - 1);
    return mask == 0 ? count : static_cast<unsigned>(std::countr_zero(mask));
}

// Position of the greatest of the first `count` of `capacity` unordered keys that is <= key, or
// count when none is. No branch to mispredict and no early exit: four independent running
// maxima of the keys that qualify (the others count as 0), then the position of the greatest.
// Keys past count are stale and ignored.
template <unsigned capacity>
unsigned floor_position(const std::uint64_t* keys, unsigned count, std::uint64_t key) noexcept {
    constexpr unsigned lanes = 4;
    static_assert(capacity % lanes == 0);
    std::uint64_t best[lanes] = {};
    for (unsigned i = 0; i < capacity; i += lanes) {
        for (unsigned lane = 0; lane < lanes; ++lane) {
            const unsigned at = i + lane;
            const std::uint64_t qualifies =
                0 - static_cast<std::uint64_t>((at < count) & (keys[at] <= key));
            best[lane] = std::max(best[lane], keys[at] & qualifies);
        }
    }
    const std::uint64_t greatest = std::max(std::max(best[0], best[1]), std::max(best[2], best[3]));
    // 0 stands both for key 0 and for "none": find_key tells them apart.
    return find_key<capacity>(keys, count, greatest);
}

// Opens a gap of one at `at` in the first `count` elements of `array`.
template <class Array>
void open_gap(Array& array, unsigned at, unsigned count) noexcept {
    std::copy_backward(array.begin() + at, array.begin() + count, array.begin() + count + 1);
}

// Closes the element at `at` among the first `count` elements of `array`.
template <class Array>
void close_gap(Array& array, unsigned at, unsigned count) noexcept {
    std::copy(array.begin() + at + 1, array.begin() + count, array.begin() + at);
}

} // namespace bufalloc::detail
