// An ordered map from 64-bit addresses to 32-bit block indices: a B+tree whose nodes live in
// one vector, so a lookup touches a few contiguous nodes and no operation calls the heap except
// when the node vector grows.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace bufalloc::detail {

class AddressIndex {
public:
    using Key = std::uint64_t;
    using Value = std::uint32_t;

    struct Entry {
        Key key = 0;
        Value value = 0;
    };

    AddressIndex();

    // Makes room so that the next insert() neither allocates nor throws.
    void reserve_for_insert();

    // Adds key -> value; returns false (and changes nothing) when key is already present.
    bool insert(Key key, Value value);

    // Removes key and returns its value, or nullopt when absent. Never allocates.
    std::optional<Value> erase(Key key) noexcept;

    [[nodiscard]] std::optional<Value> find(Key key) const noexcept;

    // The entry with the greatest key <= key, or nullopt when every key is greater.
    [[nodiscard]] std::optional<Entry> floor(Key key) const noexcept;

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return nodes_.capacity() * sizeof(Node);
    }

    // Verifies key order, separators, node fill, uniform leaf depth and the entry count. O(n).
    [[nodiscard]] bool check() const;

private:
    using NodeIndex = std::uint32_t;
    static constexpr unsigned capacity = 32;
    static constexpr unsigned min_fill = capacity / 2;
    static constexpr unsigned max_height = 16; // 16^16 entries: far beyond 32-bit values
    static constexpr NodeIndex nil_node = UINT32_MAX;

    // A leaf holds `count` keys with their values in slots; an inner node holds `count` keys
    // and count + 1 children in slots. Keys of child i lie in [keys[i-1], keys[i]).
    struct Node {
        std::uint32_t count = 0;
        std::array<Key, capacity> keys{};
        std::array<std::uint32_t, capacity + 1> slots{};
    };

    struct Step {
        NodeIndex node = 0;
        unsigned slot = 0; // child taken
    };
    using Path = std::array<Step, max_height>;

    [[nodiscard]] NodeIndex descend(Key key, Path& path) const noexcept;
    [[nodiscard]] NodeIndex new_node() noexcept;
    void delete_node(NodeIndex index) noexcept;
    void insert_into_parents(const Path& path, Key key, NodeIndex child) noexcept;
    void split_inner(NodeIndex left_index, unsigned slot, Key& key, NodeIndex& child) noexcept;
    void rebalance(const Path& path, NodeIndex leaf) noexcept;
    [[nodiscard]] bool fix_underflow(NodeIndex parent, unsigned slot, bool leaves) noexcept;
    void merge_children(NodeIndex parent, unsigned slot, bool leaves) noexcept;
    bool check_node(NodeIndex index, unsigned depth, const Key* low, const Key* high,
                    std::size_t& entries) const;

    std::vector<Node> nodes_;
    NodeIndex free_nodes_ = nil_node; // recycled nodes chained through slots[0]
    std::size_t recycled_ = 0;
    NodeIndex root_ = 0;
    unsigned height_ = 0; // inner levels above the leaves
    std::size_t size_ = 0;
};

} // namespace bufalloc::detail
