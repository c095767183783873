// Region: construction, allocate, free, grow. Statistics and invariant checks are in
// region_stats.cpp.
#include "bufalloc/region.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace bufalloc {

namespace {

using detail::Block;
using detail::nil_block;

// std::has_single_bit without a popcount library call on CPUs targeted without POPCNT.
constexpr bool is_power_of_two(std::uint64_t value) noexcept {
    return value != 0 && (value & (value - 1)) == 0;
}

std::uint64_t checked_base(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment) {
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
std::uint64_t padding(std::uint64_t address, std::uint64_t alignment) noexcept {
    return (0 - address) & (alignment - 1);
}

bool fits(const Block& block, std::uint64_t size, std::uint64_t alignment) noexcept {
    std::uint64_t pad = padding(block.address, alignment);
    return pad <= block.size && block.size - pad >= size;
}

} // namespace

Region::Region(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment)
    : base_(checked_base(base, size, min_alignment)), size_(size),
      end_(base + (size & ~(min_alignment - 1))), min_alignment_(min_alignment),
      free_lists_(static_cast<unsigned>(std::countr_zero(min_alignment))) {
    if (end_ == base_) {
        return; // smaller than one granule: nothing to hand out until grow()
    }
    pool_.reserve(1);
    first_ = last_ = pool_.acquire();
    pool_[first_].address = base_;
    pool_[first_].size = end_ - base_;
    add_free(first_);
}

AllocateResult Region::allocate(std::uint64_t size, std::uint64_t alignment) {
    if (size == 0) {
        return {0, Status::invalid_size};
    }
    if (alignment == 0) {
        alignment = min_alignment_;
    }
    if (!is_power_of_two(alignment)) {
        return {0, Status::invalid_alignment};
    }
    alignment = std::max(alignment, min_alignment_);
    if (size > UINT64_MAX - (alignment - 1)) {
        return {0, Status::invalid_size};
    }
    std::uint64_t reserved = (size + (min_alignment_ - 1)) & ~(min_alignment_ - 1);
    // All bookkeeping memory is claimed before anything changes.
    pool_.reserve(2);
    index_.reserve_for_insert();
    BlockIndex index = find_fit(reserved, alignment);
    if (index == nil_block) {
        return {0, Status::out_of_space};
    }
    return {carve(index, reserved, alignment, size), Status::ok};
}

// Best fit among the first blocks of the request's own size class (they may be larger or smaller
// than the request), else the O(1) good fit: any block of the first non-empty class whose blocks
// all hold at least size plus the worst-case padding. Falls back to scan_fit().
Region::BlockIndex Region::find_fit(std::uint64_t size, std::uint64_t alignment) const noexcept {
    std::uint64_t worst_padding = alignment - min_alignment_;
    if (size > UINT64_MAX - worst_padding) {
        return scan_fit(size, alignment);
    }
    std::uint64_t needed = size + worst_padding;
    BlockIndex index = best_in_class(free_lists_.class_of(needed), size, alignment);
    if (index != nil_block) {
        return index;
    }
    detail::SizeClass size_class;
    if (free_lists_.class_at_least(needed, size_class)) {
        index = free_lists_.first_at_or_above(size_class, nullptr);
        if (index != nil_block) {
            return index;
        }
    }
    return scan_fit(size, alignment);
}

// The smallest block that fits among the first few of one size class; stops at an exact fit.
Region::BlockIndex Region::best_in_class(detail::SizeClass size_class, std::uint64_t size,
                                         std::uint64_t alignment) const noexcept {
    constexpr int max_tries = 8;
    BlockIndex best = nil_block;
    std::uint64_t best_size = UINT64_MAX;
    BlockIndex index = free_lists_.head(size_class);
    for (int tries = 0; index != nil_block && tries < max_tries; ++tries) {
        const Block& block = pool_[index];
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

// Exhaustive search of every free block that may fit, smallest classes first: an allocation
// fails only when no free range can hold it. O(free ranges).
Region::BlockIndex Region::scan_fit(std::uint64_t size, std::uint64_t alignment) const noexcept {
    detail::SizeClass from = free_lists_.class_of(size);
    for (;;) {
        detail::SizeClass found;
        BlockIndex index = free_lists_.first_at_or_above(from, &found);
        if (index == nil_block) {
            return nil_block;
        }
        for (; index != nil_block; index = pool_[index].next_free) {
            if (fits(pool_[index], size, alignment)) {
                return index;
            }
        }
        if (!detail::FreeLists::next_class(found, from)) {
            return nil_block;
        }
    }
}

// Turns part of free block `index` into an allocation: the padding before the aligned start
// and the tail after it stay free.
std::uint64_t Region::carve(BlockIndex index, std::uint64_t size, std::uint64_t alignment,
                            std::uint64_t requested) noexcept {
    remove_free(index);
    std::uint64_t pad = padding(pool_[index].address, alignment);
    if (pad != 0) {
        BlockIndex head = index;
        index = split_after(head, pad);
        add_free(head);
    }
    if (pool_[index].size > size) {
        add_free(split_after(index, size));
    }
    Block& block = pool_[index];
    block.requested = requested;
    index_.insert(block.address, index);
    bytes_in_use_ += size;
    bytes_requested_ += requested;
    return block.address;
}

// Cuts block `index` after head_size bytes; returns the new block holding the rest.
Region::BlockIndex Region::split_after(BlockIndex index, std::uint64_t head_size) noexcept {
    BlockIndex tail = pool_.acquire();
    Block& block = pool_[index];
    Block& rest = pool_[tail];
    rest.address = block.address + head_size;
    rest.size = block.size - head_size;
    rest.prev_phys = index;
    rest.next_phys = block.next_phys;
    block.size = head_size;
    block.next_phys = tail;
    if (rest.next_phys != nil_block) {
        pool_[rest.next_phys].prev_phys = tail;
    } else {
        last_ = tail;
    }
    return tail;
}

Status Region::free(std::uint64_t address) noexcept {
    BlockIndex index = index_.erase(address);
    if (index == detail::AddressIndex::absent) {
        return Status::unknown_address;
    }
    Block& block = pool_[index];
    bytes_in_use_ -= block.size;
    bytes_requested_ -= block.requested;
    block.requested = 0;
    BlockIndex prev = block.prev_phys;
    if (prev != nil_block && pool_[prev].is_free()) {
        remove_free(prev);
        index = merge_into_prev(index);
    }
    BlockIndex next = pool_[index].next_phys;
    if (next != nil_block && pool_[next].is_free()) {
        remove_free(next);
        merge_into_prev(next);
    }
    add_free(index);
    return Status::ok;
}

// Folds block `index` into its predecessor and returns the predecessor.
Region::BlockIndex Region::merge_into_prev(BlockIndex index) noexcept {
    const Block& block = pool_[index];
    BlockIndex prev = block.prev_phys;
    BlockIndex next = block.next_phys;
    pool_[prev].size += block.size;
    pool_[prev].next_phys = next;
    if (next != nil_block) {
        pool_[next].prev_phys = prev;
    } else {
        last_ = prev;
    }
    pool_.release(index);
    return prev;
}

Status Region::grow(std::uint64_t bytes) {
    if (bytes > UINT64_MAX - (base_ + size_)) {
        return Status::invalid_size;
    }
    std::uint64_t new_size = size_ + bytes;
    std::uint64_t new_end = base_ + (new_size & ~(min_alignment_ - 1));
    if (new_end == end_) {
        size_ = new_size;
        return Status::ok;
    }
    pool_.reserve(1);
    std::uint64_t added = new_end - end_;
    if (last_ != nil_block && pool_[last_].is_free()) {
        remove_free(last_);
        pool_[last_].size += added;
        add_free(last_);
    } else {
        BlockIndex index = pool_.acquire();
        Block& block = pool_[index];
        block.address = end_;
        block.size = added;
        block.prev_phys = last_;
        if (last_ != nil_block) {
            pool_[last_].next_phys = index;
        } else {
            first_ = index;
        }
        last_ = index;
        add_free(index);
    }
    end_ = new_end;
    size_ = new_size;
    return Status::ok;
}

void Region::add_free(BlockIndex index) noexcept {
    free_lists_.insert(pool_, index);
    free_bytes_ += pool_[index].size;
    ++free_ranges_;
}

void Region::remove_free(BlockIndex index) noexcept {
    free_lists_.remove(pool_, index);
    free_bytes_ -= pool_[index].size;
    --free_ranges_;
}

} // namespace bufalloc
