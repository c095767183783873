// An ordered map from 64-bit addresses to small values (32-bit block indices for Region, whole
// records for other users): a B+tree whose nodes live in two vectors. Inner nodes are sorted;
// leaves are not (an insert appends, an erase moves the last entry into the hole), so updates
// never shift arrays and a leaf is searched by one linear pass. Only leaf splits sort, and only
// partially. Values live in the leaves, beside their keys: a lookup's last memory access is the
// leaf it already searched.
//
// The member definitions are in address_index_impl.hpp; BasicAddressIndex<std::uint32_t>
// (AddressIndex) is instantiated once in the library.
#pragma once

#include "bufalloc/detail/node_pool.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace bufalloc::detail {

// The value reported for a missing key: a value-initialized one unless specialized.
template <class Value>
inline constexpr Value absent_value = Value{};
// Block indices never reach UINT32_MAX.
template <>
inline constexpr std::uint32_t absent_value<std::uint32_t> = UINT32_MAX;

template <class ValueType, unsigned LeafCapacity = 32>
class BasicAddressIndex {
public:
    using Key = std::uint64_t;
    using Value = ValueType;

    // The value reported for a missing key. Results come back as plain values rather than
    // std::optional, which the compiler would build in memory.
    static constexpr Value absent = absent_value<Value>;

    struct Entry {
        Key key = 0;
        Value value = absent;
    };

    BasicAddressIndex();

    // Makes room so that the next insert() neither allocates nor throws.
    void reserve_for_insert() {
        leaves_.reserve(1);           // a leaf split
        inners_.reserve(height_ + 1); // a split per inner level plus a new root
    }

    // Adds key -> value. The key must not be present (checked by check(), not here).
    void insert(Key key, Value value);

    // Removes key and returns its value, or `absent`. Never allocates.
    Value erase(Key key) noexcept;

    // Changes the present key `from` to `to`, keeping its value. No other key may lie between
    // them (in [to, from) or (from, to]). O(log n); never allocates.
    void replace_key(Key from, Key to) noexcept;

    // The value of key, or `absent`.
    [[nodiscard]] Value find(Key key) const noexcept;

    // The entry with the greatest key <= key; its value is `absent` when every key is greater.
    [[nodiscard]] Entry floor(Key key) const noexcept;

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return leaves_.memory_bytes() + inners_.memory_bytes();
    }

    // Verifies separators, node fill, unique keys, uniform leaf depth and the entry count. O(n).
    [[nodiscard]] bool check() const;

private:
    using NodeIndex = std::uint32_t;
    static constexpr unsigned leaf_capacity = LeafCapacity;
    static constexpr unsigned leaf_min = leaf_capacity / 2;
    static constexpr unsigned inner_capacity = 64;
    static constexpr unsigned inner_min = inner_capacity / 2;
    static constexpr unsigned max_height = 32; // inner nodes hold >= 32 children: 32^32 entries

    // `count` unordered entries.
    struct Leaf {
        std::uint32_t count = 0;
        std::array<Key, leaf_capacity> keys{};
        std::array<Value, leaf_capacity> values{};
    };

    // `count` sorted keys and count + 1 children; keys of child i lie in [keys[i-1], keys[i]).
    // Children are leaves on the level above the leaves and inner nodes elsewhere.
    struct Inner {
        std::uint32_t count = 0;
        std::array<Key, inner_capacity> keys{};
        std::array<NodeIndex, inner_capacity + 1> children{};
    };

    // Left uninitialized on purpose: descend() fills the levels it uses, and zeroing the whole
    // path costs as much as the search itself.
    struct Step {
        NodeIndex node; // an inner node
        unsigned slot;  // the child taken
    };
    using Path = std::array<Step, max_height>;

    [[nodiscard]] NodeIndex descend(Key key, Path& path) const noexcept;
    [[nodiscard]] Entry rightmost_before(const Path& path) const noexcept;
    [[nodiscard]] bool shift_to_sibling(NodeIndex leaf_index, Key key, Value value,
                                        const Step& step) noexcept;
    void split_leaf(NodeIndex leaf_index, Key key, Value value, const Path& path) noexcept;
    void insert_into_parents(const Path& path, Key key, NodeIndex child) noexcept;
    void split_inner(NodeIndex left_index, unsigned slot, Key& key, NodeIndex& child) noexcept;
    void rebalance(const Path& path) noexcept;
    [[nodiscard]] bool refill_leaf(NodeIndex parent, unsigned slot) noexcept;
    [[nodiscard]] bool refill_inner(NodeIndex parent, unsigned slot) noexcept;
    void merge_leaves(NodeIndex parent, unsigned slot) noexcept;
    void merge_inners(NodeIndex parent, unsigned slot) noexcept;
    void drop_separator(Inner& parent, unsigned slot) noexcept;
    bool check_node(NodeIndex index, unsigned depth, const Key* low, const Key* high,
                    std::size_t& entries) const;

    NodePool<Leaf> leaves_;
    NodePool<Inner> inners_;
    NodeIndex root_ = 0;  // a leaf when height_ is 0
    unsigned height_ = 0; // inner levels above the leaves
    std::size_t size_ = 0;
};

using AddressIndex = BasicAddressIndex<std::uint32_t>;
extern template class BasicAddressIndex<std::uint32_t>;

} // namespace bufalloc::detail
