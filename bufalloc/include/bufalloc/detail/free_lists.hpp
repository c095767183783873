// Two-level segregated free lists (TLSF): free blocks binned by size, found in O(1) with two
// bitmap scans.
#pragma once

#include "bufalloc/detail/block_pool.hpp"

#include <array>
#include <bit>
#include <cstdint>

namespace bufalloc::detail {

// A size class: first level = power of two, second level = one of 32 linear steps inside it.
struct SizeClass {
    unsigned first = 0;
    unsigned second = 0;
};

// Sizes are counted in granules (bytes >> granule_shift, the region's minimum alignment), so
// the finest bins are one granule wide whatever the minimum alignment.
class FreeLists {
public:
    static constexpr unsigned second_log = 5;
    static constexpr unsigned second_count = 1U << second_log;
    static constexpr unsigned first_count = 64 - second_log + 1;

    explicit FreeLists(unsigned granule_shift = 0) noexcept : shift_(granule_shift) {
        for (auto& row : heads_) {
            row.fill(nil_block);
        }
    }

    // The class whose bin holds blocks of `bytes`.
    [[nodiscard]] SizeClass class_of(std::uint64_t bytes) const noexcept {
        return class_of_granules(bytes >> shift_);
    }

    // The first class all of whose blocks hold at least `bytes`; false when none exists.
    [[nodiscard]] bool class_at_least(std::uint64_t bytes, SizeClass& out) const noexcept {
        std::uint64_t low_mask = (std::uint64_t{1} << shift_) - 1;
        std::uint64_t granules = (bytes >> shift_) + ((bytes & low_mask) != 0 ? 1 : 0);
        if (granules >= second_count) {
            unsigned msb = 63U - static_cast<unsigned>(std::countl_zero(granules));
            std::uint64_t step = (std::uint64_t{1} << (msb - second_log)) - 1;
            if (granules > UINT64_MAX - step) {
                return false;
            }
            granules += step;
        }
        out = class_of_granules(granules);
        return true;
    }

    // Head of the first non-empty bin at or above `from`, or nil_block.
    [[nodiscard]] BlockIndex first_at_or_above(SizeClass from, SizeClass* found) const noexcept {
        std::uint32_t seconds = second_maps_[from.first] & (~0U << from.second);
        unsigned first = from.first;
        if (seconds == 0) {
            std::uint64_t firsts = first_map_ & (~std::uint64_t{0} << (from.first + 1));
            if (firsts == 0) {
                return nil_block;
            }
            first = static_cast<unsigned>(std::countr_zero(firsts));
            seconds = second_maps_[first];
        }
        unsigned second = static_cast<unsigned>(std::countr_zero(seconds));
        if (found != nullptr) {
            *found = {first, second};
        }
        return heads_[first][second];
    }

    // The class right after `size_class`; false after the last one.
    [[nodiscard]] static bool next_class(SizeClass size_class, SizeClass& out) noexcept {
        if (size_class.second + 1 < second_count) {
            out = {size_class.first, size_class.second + 1};
            return true;
        }
        if (size_class.first + 1 < first_count) {
            out = {size_class.first + 1, 0};
            return true;
        }
        return false;
    }

    // Head of the bin of `size_class`, or nil_block.
    [[nodiscard]] BlockIndex head(SizeClass size_class) const noexcept {
        return heads_[size_class.first][size_class.second];
    }

    // Head of the highest non-empty bin, or nil_block.
    [[nodiscard]] BlockIndex highest() const noexcept {
        if (first_map_ == 0) {
            return nil_block;
        }
        unsigned first = 63U - static_cast<unsigned>(std::countl_zero(first_map_));
        unsigned second = 31U - static_cast<unsigned>(std::countl_zero(second_maps_[first]));
        return heads_[first][second];
    }

    void insert(BlockPool& pool, BlockIndex index) noexcept {
        Block& block = pool[index];
        SizeClass c = class_of(block.size);
        BlockIndex head = heads_[c.first][c.second];
        block.prev_free = nil_block;
        block.next_free = head;
        if (head != nil_block) {
            pool[head].prev_free = index;
        }
        heads_[c.first][c.second] = index;
        first_map_ |= std::uint64_t{1} << c.first;
        second_maps_[c.first] |= 1U << c.second;
    }

    void remove(BlockPool& pool, BlockIndex index) noexcept {
        Block& block = pool[index];
        if (block.next_free != nil_block) {
            pool[block.next_free].prev_free = block.prev_free;
        }
        if (block.prev_free != nil_block) {
            pool[block.prev_free].next_free = block.next_free;
        } else {
            SizeClass c = class_of(block.size);
            heads_[c.first][c.second] = block.next_free;
            if (block.next_free == nil_block) {
                second_maps_[c.first] &= ~(1U << c.second);
                if (second_maps_[c.first] == 0) {
                    first_map_ &= ~(std::uint64_t{1} << c.first);
                }
            }
        }
        block.prev_free = nil_block;
        block.next_free = nil_block;
    }

private:
    [[nodiscard]] static SizeClass class_of_granules(std::uint64_t granules) noexcept {
        if (granules < second_count) {
            return {0, static_cast<unsigned>(granules)};
        }
        unsigned msb = 63U - static_cast<unsigned>(std::countl_zero(granules));
        unsigned second = static_cast<unsigned>(granules >> (msb - second_log)) - second_count;
        return {msb - second_log + 1, second};
    }

    unsigned shift_;
    std::uint64_t first_map_ = 0;
    std::array<std::uint32_t, first_count> second_maps_{};
    std::array<std::array<BlockIndex, second_count>, first_count> heads_{};
};

} // namespace bufalloc::detail
