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
    BlockState state = state_of(block);
    if (state.cached || address - block.address >= state.requested) {
        return std::nullopt;
    }
    return Allocation{block.address, state.requested};
}

Region::BlockState Region::state_of(const Block& block) const noexcept {
    std::size_t slot = map_.find(block.address);
    if (slot == detail::AddressMap::npos) {
        return {false, block.requested};
    }
    std::uint32_t tag = map_.tag(slot);
    std::uint32_t requested = tag & ~cached_tag;
    return {(tag & cached_tag) != 0, requested != 0 ? requested : block.requested};
}

// Free or cached: part of a free range once the cache is flushed.
bool Region::unused(BlockIndex index) const noexcept {
    return index != nil_block && (pool_[index].is_free() || state_of(pool_[index]).cached);
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

// The maximal free ranges that contain cached blocks, as a flush would coalesce them: raises
// `largest` to the largest of them and counts in `merges` the blocks that would merge into a
// neighbour. Each range is walked once, from its first cached block. O(cached blocks): free
// blocks are never adjacent, so at most one free block precedes a cached one in its range.
void Region::cached_runs(std::uint64_t& largest, std::uint64_t& merges) const noexcept {
    for (const CacheBin& bin : cache_) {
        for (std::uint32_t i = 0; i < bin.count; ++i) {
            BlockIndex index = bin.entries[i].index;
            BlockIndex start = index;
            BlockIndex prev = pool_[index].prev_phys;
            if (prev != nil_block && !pool_[prev].is_free() && unused(prev)) {
                continue;
            }
            if (prev != nil_block && pool_[prev].is_free()) {
                BlockIndex before = pool_[prev].prev_phys;
                if (unused(before)) { // free blocks are not adjacent: it is cached
                    continue;
                }
                start = prev;
            }
            std::uint64_t bytes = 0;
            std::uint64_t blocks = 0;
            for (BlockIndex run = start; unused(run); run = pool_[run].next_phys) {
                bytes += pool_[run].size;
                ++blocks;
            }
            largest = std::max(largest, bytes);
            merges += blocks - 1;
        }
    }
}

std::uint64_t Region::cached_blocks() const noexcept {
    std::uint64_t blocks = 0;
    for (const CacheBin& bin : cache_) {
        blocks += bin.count;
    }
    return blocks;
}

Stats Region::stats() const noexcept {
    std::uint64_t largest = largest_free();
    std::uint64_t merges = 0;
    std::uint64_t cached_blocks = 0;
    if (cached_bytes_ != 0) {
        cached_runs(largest, merges);
        cached_blocks = this->cached_blocks();
    }
    Stats stats;
    stats.region_bytes = end_ - base_;
    stats.bytes_in_use = bytes_in_use_ - cached_bytes_;
    stats.bytes_requested = bytes_requested_;
    stats.free_bytes = free_bytes_ + cached_bytes_;
    stats.largest_free = largest;
    stats.free_ranges = free_ranges_ + cached_blocks - merges;
    stats.allocations = index_.size() - cached_blocks;
    stats.bookkeeping_bytes =
        sizeof(*this) + pool_.memory_bytes() + index_.memory_bytes() + map_.memory_bytes();
    stats.cached_bytes = cached_bytes_;
    if (stats.free_bytes != 0) {
        stats.fragmentation =
            1.0 - static_cast<double>(largest) / static_cast<double>(stats.free_bytes);
    }
    return stats;
}

bool Region::check_invariants() const {
    std::uint64_t expected_address = base_;
    std::uint64_t used = 0;
    std::uint64_t requested = 0;
    std::uint64_t free_bytes = 0;
    std::uint64_t free_blocks = 0;
    std::uint64_t cached_bytes = 0;
    std::uint64_t cached_blocks = 0;
    std::uint64_t mapped_blocks = 0;
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
            std::size_t slot = map_.find(block.address);
            BlockState state = state_of(block);
            std::uint64_t reserved =
                (state.requested + (min_alignment_ - 1)) & ~(min_alignment_ - 1);
            if (state.requested == 0 || reserved != block.size ||
                index_.find(block.address) != index || block.prev_free != nil_block ||
                block.next_free != nil_block) {
                return false;
            }
            if (slot != detail::AddressMap::npos) {
                ++mapped_blocks;
                if (map_.value(slot) != index ||
                    (map_.tag(slot) & ~cached_tag) != tag_of(state.requested)) {
                    return false;
                }
            }
            if (state.cached) {
                cached_bytes += block.size;
                ++cached_blocks;
            } else {
                used += block.size;
                requested += state.requested;
                ++allocations;
            }
        }
        prev_free = block.is_free();
        expected_address = block.end();
        prev = index;
    }
    return expected_address == end_ && prev == last_ && used + cached_bytes == bytes_in_use_ &&
           requested == bytes_requested_ && free_bytes == free_bytes_ &&
           free_blocks == free_ranges_ && allocations + cached_blocks == index_.size() &&
           map_.size() == mapped_blocks && map_.check() &&
           used + free_bytes + cached_bytes == end_ - base_ && index_.check() &&
           check_free_lists(free_blocks) && check_cache(cached_blocks, cached_bytes);
}

// Every bin holds only cached blocks of its own size, with their addresses, no more than its
// capacity, in the bin its size hashes to; together exactly the cached blocks the walk found,
// within the byte bound.
bool Region::check_cache(std::uint64_t cached_blocks, std::uint64_t cached_bytes) const {
    std::uint64_t listed = 0;
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < cache_.size(); ++i) {
        const CacheBin& bin = cache_[i];
        if ((bin.size != 0 && bin_of(bin.size) != i) || bin.count > cache_bin_capacity) {
            return false;
        }
        for (std::uint32_t j = 0; j < bin.count; ++j) {
            const CacheEntry& entry = bin.entries[j];
            const Block& block = pool_[entry.index];
            std::size_t slot = map_slot_of(entry);
            if (!state_of(block).cached || block.size != bin.size ||
                block.address != entry.address || slot == detail::AddressMap::npos ||
                map_.value(slot) != entry.index) {
                return false;
            }
            bytes += block.size;
            ++listed;
        }
    }
    return listed == cached_blocks && bytes == cached_bytes && bytes == cached_bytes_ &&
           cached_bytes_ <= cache_limit_;
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
