// Records for the blocks that tile a region, kept in one vector and named by index.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace bufalloc::detail {

using BlockIndex = std::uint32_t;
inline constexpr BlockIndex nil_block = UINT32_MAX;

// One range of the region, free or allocated. Blocks tile the usable region in address order
// through prev_phys/next_phys; free blocks are also linked into one segregated list through
// prev_free/next_free.
struct Block {
    std::uint64_t address = 0;
    std::uint64_t size = 0;      // reserved bytes, a multiple of the minimum alignment
    std::uint64_t requested = 0; // bytes asked for; 0 marks a free block
    BlockIndex prev_phys = nil_block;
    BlockIndex next_phys = nil_block;
    BlockIndex prev_free = nil_block;
    BlockIndex next_free = nil_block;

    [[nodiscard]] bool is_free() const noexcept { return requested == 0; }
    [[nodiscard]] std::uint64_t end() const noexcept { return address + size; }
};

// A vector of Block records with a free-slot chain threaded through next_free. Indices stay
// valid while a record is live; references do not survive acquire() unless reserve() made room.
class BlockPool {
public:
    [[nodiscard]] Block& operator[](BlockIndex index) noexcept { return blocks_[index]; }
    [[nodiscard]] const Block& operator[](BlockIndex index) const noexcept {
        return blocks_[index];
    }

    // Makes room for `count` acquire() calls that neither allocate nor move records.
    // Throws std::bad_alloc when memory or the 32-bit index space runs out.
    void reserve(std::size_t count) {
        std::size_t available = recycled_ + (blocks_.capacity() - blocks_.size());
        if (available >= count) {
            return;
        }
        std::size_t needed = blocks_.size() + (count - recycled_);
        if (needed >= nil_block) {
            throw std::bad_alloc();
        }
        std::size_t grown = blocks_.size() + blocks_.size() / 2;
        std::size_t target = std::max<std::size_t>({needed, grown, 64});
        blocks_.reserve(std::min<std::size_t>(target, nil_block - 1));
    }

    // Returns a fresh record; reserve() must have made room for it.
    [[nodiscard]] BlockIndex acquire() noexcept {
        if (free_head_ != nil_block) {
            BlockIndex index = free_head_;
            free_head_ = blocks_[index].next_free;
            --recycled_;
            blocks_[index] = Block{};
            return index;
        }
        blocks_.emplace_back();
        return static_cast<BlockIndex>(blocks_.size() - 1);
    }

    void release(BlockIndex index) noexcept {
        blocks_[index] = Block{};
        blocks_[index].next_free = free_head_;
        free_head_ = index;
        ++recycled_;
    }

    // Host memory held by the records, recycled ones and vector slack included.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return blocks_.capacity() * sizeof(Block);
    }

private:
    std::vector<Block> blocks_;
    BlockIndex free_head_ = nil_block; // chain of recycled records
    std::size_t recycled_ = 0;         // length of that chain
};

} // namespace bufalloc::detail
