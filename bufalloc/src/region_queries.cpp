// Region: read-only queries (lookup, statistics) and the invariant check used by tests.
#include "bufalloc/region.hpp"

#include <algorithm>

namespace bufalloc {

using detail::Block;
using detail::nil_block;

std::optional<Allocation> Region::lookup(std::uint64_t address) const noexcept {
    detail::AddressIndex::Entry entry = index_.floor(address);
    if (entry.value == detail::AddressIndex::absent) {
        return std::nullopt;
    }
    const Block& block = pool_[entry.value];
    if (address - block.address >= block.requested) {
        return std::nullopt;
    }
    return Allocation{block.address, block.requested};
}

// The largest free block is in the highest non-empty size class; only that list is scanned.
std::uint64_t Region::largest_free() const noexcept {
    std::uint64_t largest = 0;
    for (BlockIndex index = free_lists_.highest(); index != nil_block;
         index = pool_[index].next_free) {
        largest = std::max(largest, pool_[index].size);
    }
    return largest;
}

Stats Region::stats() const noexcept {
    Stats stats;
    stats.region_bytes = end_ - base_;
    stats.bytes_in_use = bytes_in_use_;
    stats.bytes_requested = bytes_requested_;
    stats.free_bytes = free_bytes_;
    stats.largest_free = largest_free();
    stats.free_ranges = free_ranges_;
    stats.allocations = index_.size();
    stats.bookkeeping_bytes = sizeof(*this) + pool_.memory_bytes() + index_.memory_bytes();
    if (free_bytes_ != 0) {
        stats.fragmentation =
            1.0 - static_cast<double>(stats.largest_free) / static_cast<double>(free_bytes_);
    }
    return stats;
}

bool Region::check_invariants() const {
    std::uint64_t expected_address = base_;
    std::uint64_t used = 0;
    std::uint64_t requested = 0;
    std::uint64_t free_bytes = 0;
    std::uint64_t free_blocks = 0;
    std::uint64_t allocations = 0;
    BlockIndex prev = nil_block;
    bool prev_free = false;
    for (BlockIndex index = first_; index != nil_block; index = pool_[index].next_phys) {
        const Block& block = pool_[index];
        bool aligned = block.address % min_alignment_ == 0 && block.size % min_alignment_ == 0;
        if (block.address != expected_address || block.prev_phys != prev || block.size == 0 ||
            !aligned || block.size > end_ - block.address) {
            return false;
        }
        if (block.is_free()) {
            if (prev_free) {
                return false; // two neighbouring free blocks were not coalesced
            }
            free_bytes += block.size;
            ++free_blocks;
        } else {
            if (block.requested > block.size || index_.find(block.address) != index) {
                return false;
            }
            used += block.size;
            requested += block.requested;
            ++allocations;
        }
        prev_free = block.is_free();
        expected_address = block.end();
        prev = index;
    }
    return expected_address == end_ && prev == last_ && used == bytes_in_use_ &&
           requested == bytes_requested_ && free_bytes == free_bytes_ &&
           free_blocks == free_ranges_ && allocations == index_.size() &&
           used + free_bytes == end_ - base_ && index_.check() && check_free_lists(free_blocks);
}

// Every free list holds only free blocks of its own size class, linked both ways, and the lists
// together hold exactly `free_blocks` blocks.
bool Region::check_free_lists(std::uint64_t free_blocks) const {
    std::uint64_t listed = 0;
    detail::SizeClass from{0, 0};
    for (;;) {
        detail::SizeClass found;
        BlockIndex index = free_lists_.first_at_or_above(from, &found);
        if (index == nil_block) {
            break;
        }
        BlockIndex prev = nil_block;
        for (; index != nil_block; index = pool_[index].next_free) {
            const Block& block = pool_[index];
            detail::SizeClass size_class = free_lists_.class_of(block.size);
            if (!block.is_free() || block.prev_free != prev || size_class.first != found.first ||
                size_class.second != found.second || ++listed > free_blocks) {
                return false;
            }
            prev = index;
        }
        if (!detail::FreeLists::next_class(found, from)) {
            break;
        }
    }
    return listed == free_blocks;
}

} // namespace bufalloc
