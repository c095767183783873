// Region: construction, allocate, free, the cache of freed blocks, grow. Statistics and
// invariant checks are in region_queries.cpp.
#include "bufalloc/region.hpp"

#include "placement.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace bufalloc {

namespace {

using detail::Block;
using detail::nil_block;

using detail::checked_base;
using detail::is_power_of_two;
using detail::padding;

} // namespace

Region::Region(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment)
    : base_(checked_base(base, size, min_alignment)), size_(size),
      end_(base + (size & ~(min_alignment - 1))), min_alignment_(min_alignment),
      granule_shift_(static_cast<unsigned>(std::countr_zero(min_alignment))),
      free_lists_(static_cast<unsigned>(std::countr_zero(min_alignment))),
      cache_limit_((end_ - base_) >> cache_limit_shift) {
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
    CacheBin& bin = cache_[bin_of(reserved)];
    if (bin.size == reserved && bin.count != 0) {
        const CacheEntry& entry = bin.entries[bin.count - 1];
        if ((entry.address & (alignment - 1)) == 0) {
            --bin.count;
            std::uint32_t tag = tag_of(size);
            if (tag == 0) {
                pool_[entry.index].requested = size; // too large for the tag
            }
            map_.set_tag(map_slot_of(entry), tag);
            cached_bytes_ -= reserved;
            bytes_requested_ += size;
            return {entry.address, Status::ok};
        }
    }
    return allocate_uncached(size, alignment, reserved);
}

// allocate() when the cache cannot serve the request: a search of the free lists. Kept apart so
// that the cached path saves no registers.
AllocateResult Region::allocate_uncached(std::uint64_t size, std::uint64_t alignment,
                                         std::uint64_t reserved) {
    // All bookkeeping memory is claimed before anything changes.
    pool_.reserve(2);
    index_.reserve_for_insert();
    map_.reserve_for_insert();
    // A size its bin is already claimed for is being allocated repeatedly: such allocations go
    // into the map too, so that their frees can be cached. A new size claims the bin, whose blocks
    // of another size are then really freed.
    CacheBin& bin = cache_[bin_of(reserved)];
    bool repeated = bin.size == reserved;
    if (!repeated) {
        flush_bin(bin);
        bin.size = reserved;
    }
    BlockIndex index = detail::find_fit(pool_, free_lists_, min_alignment_, reserved, alignment);
    if (index == nil_block && cached_bytes_ != 0) {
        flush_cache();
        index = detail::find_fit(pool_, free_lists_, min_alignment_, reserved, alignment);
    }
    if (index == nil_block) {
        return {0, Status::out_of_space};
    }
    return {carve(index, reserved, alignment, size, repeated), Status::ok};
}

// Turns part of free block `index` into an allocation: the padding before the aligned start
// and the tail after it stay free.
std::uint64_t Region::carve(BlockIndex index, std::uint64_t size, std::uint64_t alignment,
                            std::uint64_t requested, bool mapped) noexcept {
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
    if (mapped) {
        map_.insert(block.address, index, tag_of(requested));
    }
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

// Puts the live block `index` at `address` (in slot `map_slot` of the map) into the cache when
// its bin is claimed for its size and neither the bin nor the byte bound is full. Its index
// entries stay. Its record is not touched: the map tag says it is cached.
inline bool Region::try_cache(std::uint64_t address, std::size_t map_slot, BlockIndex index,
                              std::uint64_t size, std::uint64_t requested) noexcept {
    CacheBin& bin = cache_[bin_of(size)];
    if (bin.size != size || bin.count == cache_bin_capacity ||
        size > cache_limit_ - cached_bytes_) {
        return false;
    }
    bin.entries[bin.count] = {address, index, static_cast<std::uint32_t>(map_slot)};
    ++bin.count;
    map_.set_tag(map_slot, map_.tag(map_slot) | cached_tag);
    cached_bytes_ += size;
    bytes_requested_ -= requested;
    return true;
}

Status Region::free(std::uint64_t address) noexcept {
    std::size_t slot = map_.find(address);
    if (slot == detail::AddressMap::npos) {
        return free_unmapped(address);
    }
    std::uint32_t tag = map_.tag(slot);
    if ((tag & cached_tag) != 0) {
        return Status::unknown_address;
    }
    BlockIndex index = map_.value(slot);
    std::uint64_t requested = tag != 0 ? tag : pool_[index].requested;
    std::uint64_t size = (requested + (min_alignment_ - 1)) & ~(min_alignment_ - 1);
    if (try_cache(address, slot, index, size, requested)) {
        return Status::ok;
    }
    release_allocation(address, slot, index, size, requested);
    return Status::ok;
}

// free() of an address the map does not hold: not cached, and either an allocation of a size
// that was not being repeated or no allocation at all.
Status Region::free_unmapped(std::uint64_t address) noexcept {
    BlockIndex index = index_.erase(address);
    if (index == detail::AddressIndex::absent) {
        return Status::unknown_address;
    }
    const Block& block = pool_[index];
    bytes_in_use_ -= block.size;
    bytes_requested_ -= block.requested;
    release(index);
    return Status::ok;
}

// free() of a mapped block that does not go to the cache. Kept apart so that the cached path saves
// no registers.
void Region::release_allocation(std::uint64_t address, std::size_t map_slot, BlockIndex index,
                                std::uint64_t size, std::uint64_t requested) noexcept {
    unindex(address, map_slot);
    bytes_in_use_ -= size;
    bytes_requested_ -= requested;
    release(index);
}

// Removes the allocation at `address` (in slot `map_slot` of the map) from both indexes.
void Region::unindex(std::uint64_t address, std::size_t map_slot) noexcept {
    map_.erase_at(map_slot);
    (void)index_.erase(address);
}

// Returns block `index` (out of the index and the counters already) to the free lists,
// coalescing it with free neighbours. Cached neighbours are not free and stay whole.
void Region::release(BlockIndex index) noexcept {
    Block& block = pool_[index];
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
}

// Really frees every block of `bin`. The bin stays claimed.
void Region::flush_bin(CacheBin& bin) noexcept {
    while (bin.count != 0) {
        const CacheEntry& entry = bin.entries[--bin.count];
        const Block& block = pool_[entry.index];
        unindex(entry.address, map_slot_of(entry));
        cached_bytes_ -= block.size;
        bytes_in_use_ -= block.size;
        release(entry.index);
    }
}

void Region::flush_cache() noexcept {
    for (CacheBin& bin : cache_) {
        if (bin.count != 0) {
            flush_bin(bin);
        }
    }
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
    cache_limit_ = (end_ - base_) >> cache_limit_shift;
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
