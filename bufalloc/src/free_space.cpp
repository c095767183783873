// FreeSpace: allocation from and release into a set of free ranges, statistics, invariant check.
#include "bufalloc/free_space.hpp"

#include "placement.hpp"

#include <algorithm>
#include <bit>

namespace bufalloc {

namespace {

using detail::Block;
using detail::nil_block;
using detail::padding;

} // namespace

FreeSpace::FreeSpace(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment)
    : base_(detail::checked_base(base, size, min_alignment)),
      end_(base + (size & ~(min_alignment - 1))), min_alignment_(min_alignment),
      free_lists_(static_cast<unsigned>(std::countr_zero(min_alignment))) {
    if (end_ == base_) {
        return; // smaller than one granule: nothing to hand out
    }
    pool_.reserve(1);
    index_.reserve_for_insert();
    first_ = pool_.acquire();
    pool_[first_].address = base_;
    pool_[first_].size = end_ - base_;
    index_.insert(end_, first_);
    add_free(first_);
}

AllocateResult FreeSpace::allocate(std::uint64_t size, std::uint64_t alignment) {
    if (size == 0) {
        return {0, Status::invalid_size};
    }
    if (alignment == 0) {
        alignment = min_alignment_;
    }
    if (!detail::is_power_of_two(alignment)) {
        return {0, Status::invalid_alignment};
    }
    alignment = std::max(alignment, min_alignment_);
    if (size > UINT64_MAX - (alignment - 1)) {
        return {0, Status::invalid_size};
    }
    std::uint64_t reserved = (size + (min_alignment_ - 1)) & ~(min_alignment_ - 1);
    // All bookkeeping memory is claimed before anything changes (only padding needs it).
    if (alignment > min_alignment_) {
        pool_.reserve(1);
        index_.reserve_for_insert();
    }
    BlockIndex index = detail::find_fit(pool_, free_lists_, min_alignment_, reserved, alignment);
    if (index == nil_block) {
        return {0, Status::out_of_space};
    }
    return {carve(index, reserved, alignment), Status::ok};
}

// Takes `size` bytes at the first multiple of `alignment` in free range `index`. The range keeps
// its end (so its index key) whenever a tail is left; padding in front becomes a range of its
// own.
std::uint64_t FreeSpace::carve(BlockIndex index, std::uint64_t size,
                               std::uint64_t alignment) noexcept {
    remove_free(index);
    Block& block = pool_[index];
    const std::uint64_t start = block.address;
    const std::uint64_t end = block.end();
    const std::uint64_t address = start + padding(start, alignment);
    const std::uint64_t tail = end - (address + size);
    bytes_in_use_ += size;
    ++allocations_;
    if (address == start) {
        if (tail == 0) {
            index_.erase(end);
            unlink(index);
            pool_.release(index);
            return address;
        }
        block.address = address + size;
        block.size = tail;
        add_free(index);
        return address;
    }
    if (tail == 0) {
        // Only the padding stays free: the range now ends where the allocation starts.
        block.size = address - start;
        index_.replace_key(end, address);
        add_free(index);
        return address;
    }
    // Padding and tail: the padding gets a new record in front (room was reserved).
    BlockIndex head = pool_.acquire();
    Block& front = pool_[head];
    Block& back = pool_[index];
    front.address = start;
    front.size = address - start;
    front.prev_phys = back.prev_phys;
    front.next_phys = index;
    if (front.prev_phys != nil_block) {
        pool_[front.prev_phys].next_phys = head;
    } else {
        first_ = head;
    }
    back.prev_phys = head;
    back.address = address + size;
    back.size = tail;
    index_.insert(address, head);
    add_free(head);
    add_free(index);
    return address;
}

Status FreeSpace::release(std::uint64_t address, std::uint64_t size) {
    if (size == 0) {
        return Status::invalid_size;
    }
    if (size > UINT64_MAX - (min_alignment_ - 1)) {
        return Status::unknown_address;
    }
    const std::uint64_t reserved = (size + (min_alignment_ - 1)) & ~(min_alignment_ - 1);
    if ((address & (min_alignment_ - 1)) != 0 || address < base_ || address >= end_ ||
        reserved > end_ - address) {
        return Status::unknown_address;
    }
    const std::uint64_t end = address + reserved;
    // The last free range that ends at or before the address, and the one after it.
    const BlockIndex before = index_.floor(address).value;
    const BlockIndex after =
        before != detail::AddressIndex::absent ? pool_[before].next_phys : first_;
    if (after != nil_block && pool_[after].address < end) {
        return Status::unknown_address; // overlaps a free range
    }
    const bool joins_before =
        before != detail::AddressIndex::absent && pool_[before].end() == address;
    const bool joins_after = after != nil_block && pool_[after].address == end;
    if (!joins_before && !joins_after) {
        pool_.reserve(1); // may throw: nothing changed yet
        index_.reserve_for_insert();
        BlockIndex index = pool_.acquire();
        Block& block = pool_[index];
        block.address = address;
        block.size = reserved;
        block.prev_phys = before != detail::AddressIndex::absent ? before : nil_block;
        block.next_phys = after;
        if (block.prev_phys != nil_block) {
            pool_[block.prev_phys].next_phys = index;
        } else {
            first_ = index;
        }
        if (after != nil_block) {
            pool_[after].prev_phys = index;
        }
        index_.insert(end, index);
        add_free(index);
    } else if (joins_after) {
        // The range after grows down over the allocation (and over the range before): its end,
        // the index key, stays.
        remove_free(after);
        Block& next = pool_[after];
        next.size += reserved;
        next.address = address;
        if (joins_before) {
            remove_free(before);
            next.address = pool_[before].address;
            next.size += pool_[before].size;
            index_.erase(address);
            unlink(before);
            pool_.release(before);
        }
        add_free(after);
    } else {
        remove_free(before);
        pool_[before].size += reserved;
        index_.replace_key(address, end);
        add_free(before);
    }
    bytes_in_use_ -= reserved;
    --allocations_;
    return Status::ok;
}

// Takes free range `index` out of the address order.
void FreeSpace::unlink(BlockIndex index) noexcept {
    const Block& block = pool_[index];
    if (block.prev_phys != nil_block) {
        pool_[block.prev_phys].next_phys = block.next_phys;
    } else {
        first_ = block.next_phys;
    }
    if (block.next_phys != nil_block) {
        pool_[block.next_phys].prev_phys = block.prev_phys;
    }
}

void FreeSpace::add_free(BlockIndex index) noexcept {
    free_lists_.insert(pool_, index);
    free_bytes_ += pool_[index].size;
    ++free_ranges_;
}

void FreeSpace::remove_free(BlockIndex index) noexcept {
    free_lists_.remove(pool_, index);
    free_bytes_ -= pool_[index].size;
    --free_ranges_;
}

Stats FreeSpace::stats() const noexcept {
    std::uint64_t largest = 0;
    for (BlockIndex index = free_lists_.highest(); index != nil_block;
         index = pool_[index].next_free) {
        largest = std::max(largest, pool_[index].size);
    }
    Stats stats;
    stats.region_bytes = end_ - base_;
    stats.bytes_in_use = bytes_in_use_;
    stats.bytes_requested = bytes_in_use_;
    stats.free_bytes = free_bytes_;
    stats.largest_free = largest;
    stats.free_ranges = free_ranges_;
    stats.allocations = allocations_;
    stats.bookkeeping_bytes = sizeof(*this) + pool_.memory_bytes() + index_.memory_bytes();
    if (free_bytes_ != 0) {
        stats.fragmentation = 1.0 - static_cast<double>(largest) / static_cast<double>(free_bytes_);
    }
    return stats;
}

bool FreeSpace::check_invariants() const {
    std::uint64_t ranges = 0;
    std::uint64_t bytes = 0;
    BlockIndex prev = nil_block;
    for (BlockIndex index = first_; index != nil_block; index = pool_[index].next_phys) {
        const Block& block = pool_[index];
        if (block.prev_phys != prev || block.size == 0 || !block.is_free() ||
            block.address < base_ || block.size > end_ - block.address ||
            ((block.address | block.size) & (min_alignment_ - 1)) != 0 ||
            index_.find(block.end()) != index) {
            return false;
        }
        if (prev != nil_block && pool_[prev].end() >= block.address) {
            return false; // out of order, overlapping or adjacent (not coalesced)
        }
        ++ranges;
        bytes += block.size;
        prev = index;
    }
    // Every free list holds free ranges of its own class, doubly linked; together they hold
    // every free range once (each is counted once above and listed ranges are counted here).
    std::uint64_t listed = 0;
    for (unsigned first = 0; first < detail::FreeLists::first_count; ++first) {
        for (unsigned second = 0; second < detail::FreeLists::second_count; ++second) {
            const detail::SizeClass size_class{first, second};
            BlockIndex before = nil_block;
            for (BlockIndex index = free_lists_.head(size_class); index != nil_block;
                 index = pool_[index].next_free) {
                const detail::SizeClass found = free_lists_.class_of(pool_[index].size);
                if (found.first != first || found.second != second ||
                    pool_[index].prev_free != before || pool_[index].size == 0 ||
                    ++listed > ranges) {
                    return false;
                }
                before = index;
            }
        }
    }
    return listed == ranges && ranges == free_ranges_ && bytes == free_bytes_ &&
           index_.size() == ranges && index_.check() &&
           bytes_in_use_ + free_bytes_ == end_ - base_ &&
           (allocations_ == 0) == (bytes_in_use_ == 0);
}

} // namespace bufalloc
