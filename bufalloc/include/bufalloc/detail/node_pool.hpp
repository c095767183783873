// A vector of fixed-size nodes named by 32-bit index, with released nodes chained for reuse
// through their `count` field.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace bufalloc::detail {

template <class Node>
class NodePool {
public:
    static constexpr std::uint32_t nil = UINT32_MAX;

    [[nodiscard]] Node& operator[](std::uint32_t index) noexcept { return nodes_[index]; }
    [[nodiscard]] const Node& operator[](std::uint32_t index) const noexcept {
        return nodes_[index];
    }

    // Makes room for `count` acquire() calls that neither allocate nor move nodes. Throws
    // std::bad_alloc when memory or the 32-bit index space runs out.
    void reserve(std::size_t count) {
        if (recycled_ + (nodes_.capacity() - nodes_.size()) >= count) {
            return;
        }
        std::size_t needed = nodes_.size() + count;
        if (needed >= nil) {
            throw std::bad_alloc();
        }
        std::size_t grown = nodes_.size() + nodes_.size() / 2;
        nodes_.reserve(std::min<std::size_t>(std::max<std::size_t>({needed, grown, 4}), nil - 1));
    }

    // A node with count 0 (other fields unspecified); reserve() must have made room.
    [[nodiscard]] std::uint32_t acquire() noexcept {
        std::uint32_t index;
        if (free_head_ != nil) {
            index = free_head_;
            free_head_ = nodes_[index].count;
            --recycled_;
        } else {
            nodes_.emplace_back();
            index = static_cast<std::uint32_t>(nodes_.size() - 1);
        }
        nodes_[index].count = 0;
        return index;
    }

    void release(std::uint32_t index) noexcept {
        nodes_[index].count = free_head_;
        free_head_ = index;
        ++recycled_;
    }

    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return nodes_.capacity() * sizeof(Node);
    }

private:
    std::vector<Node> nodes_;
    std::uint32_t free_head_ = nil;
    std::size_t recycled_ = 0;
};

} // namespace bufalloc::detail
