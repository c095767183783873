// B+tree behind AddressIndex: descent with a recorded path, splits on the way up after an
// insert, borrow-or-merge on the way up after an erase.
#include "bufalloc/detail/address_index.hpp"

#include <algorithm>
#include <new>

namespace bufalloc::detail {

namespace {

// Number of keys <= key: the child to descend into, or one past the floor in a leaf.
template <class Node, class Key>
unsigned count_not_greater(const Node& node, Key key) noexcept {
    const Key* keys = node.keys.data();
    unsigned n = 0;
    for (unsigned i = 0; i < node.count; ++i) {
        n += keys[i] <= key ? 1U : 0U;
    }
    return n;
}

// Number of keys < key: where key is, or would be inserted, in a leaf.
template <class Node, class Key>
unsigned count_less(const Node& node, Key key) noexcept {
    const Key* keys = node.keys.data();
    unsigned n = 0;
    for (unsigned i = 0; i < node.count; ++i) {
        n += keys[i] < key ? 1U : 0U;
    }
    return n;
}

// Opens a gap of one at `at` in the first `count` elements of `array`.
template <class Array>
void open_gap(Array& array, unsigned at, unsigned count) noexcept {
    std::copy_backward(array.begin() + at, array.begin() + count, array.begin() + count + 1);
}

// Closes the element at `at` among the first `count` elements of `array`.
template <class Array>
void close_gap(Array& array, unsigned at, unsigned count) noexcept {
    std::copy(array.begin() + at + 1, array.begin() + count, array.begin() + at);
}

} // namespace

AddressIndex::AddressIndex() {
    nodes_.reserve(4);
    nodes_.emplace_back();
    root_ = 0;
}

void AddressIndex::reserve_for_insert() {
    std::size_t needed = height_ + 2; // a split per level plus a new root
    std::size_t available = recycled_ + (nodes_.capacity() - nodes_.size());
    if (available >= needed) {
        return;
    }
    std::size_t target = std::max(nodes_.size() + needed, nodes_.size() + nodes_.size() / 2);
    if (target >= nil_node) {
        throw std::bad_alloc();
    }
    nodes_.reserve(target);
}

AddressIndex::NodeIndex AddressIndex::new_node() noexcept {
    if (free_nodes_ != nil_node) {
        NodeIndex index = free_nodes_;
        free_nodes_ = nodes_[index].slots[0];
        --recycled_;
        nodes_[index].count = 0;
        return index;
    }
    nodes_.emplace_back(); // reserve_for_insert() made room
    return static_cast<NodeIndex>(nodes_.size() - 1);
}

void AddressIndex::delete_node(NodeIndex index) noexcept {
    nodes_[index].count = 0;
    nodes_[index].slots[0] = free_nodes_;
    free_nodes_ = index;
    ++recycled_;
}

AddressIndex::NodeIndex AddressIndex::descend(Key key, Path& path) const noexcept {
    NodeIndex index = root_;
    for (unsigned depth = 0; depth < height_; ++depth) {
        const Node& node = nodes_[index];
        unsigned slot = count_not_greater(node, key);
        path[depth] = {index, slot};
        index = node.slots[slot];
    }
    return index;
}

std::optional<AddressIndex::Value> AddressIndex::find(Key key) const noexcept {
    NodeIndex index = root_;
    for (unsigned depth = 0; depth < height_; ++depth) {
        const Node& node = nodes_[index];
        index = node.slots[count_not_greater(node, key)];
    }
    const Node& leaf = nodes_[index];
    unsigned pos = count_less(leaf, key);
    if (pos < leaf.count && leaf.keys[pos] == key) {
        return leaf.slots[pos];
    }
    return std::nullopt;
}

std::optional<AddressIndex::Entry> AddressIndex::floor(Key key) const noexcept {
    Path path;
    const Node& leaf = nodes_[descend(key, path)];
    unsigned pos = count_not_greater(leaf, key);
    if (pos > 0) {
        return Entry{leaf.keys[pos - 1], leaf.slots[pos - 1]};
    }
    // Every key of this leaf is greater: the floor is the last key of the nearest subtree to
    // the left (separators may be stale after erasures, so this is not an error).
    for (unsigned depth = height_; depth-- > 0;) {
        if (path[depth].slot == 0) {
            continue;
        }
        NodeIndex index = nodes_[path[depth].node].slots[path[depth].slot - 1];
        for (unsigned level = depth + 1; level < height_; ++level) {
            const Node& node = nodes_[index];
            index = node.slots[node.count];
        }
        const Node& left = nodes_[index];
        return Entry{left.keys[left.count - 1], left.slots[left.count - 1]};
    }
    return std::nullopt;
}

bool AddressIndex::insert(Key key, Value value) {
    reserve_for_insert();
    Path path;
    NodeIndex leaf_index = descend(key, path);
    Node* leaf = &nodes_[leaf_index];
    unsigned pos = count_less(*leaf, key);
    if (pos < leaf->count && leaf->keys[pos] == key) {
        return false;
    }
    ++size_;
    if (leaf->count < capacity) {
        open_gap(leaf->keys, pos, leaf->count);
        open_gap(leaf->slots, pos, leaf->count);
        leaf->keys[pos] = key;
        leaf->slots[pos] = value;
        ++leaf->count;
        return true;
    }
    NodeIndex right_index = new_node();
    leaf = &nodes_[leaf_index];
    Node& right = nodes_[right_index];
    std::copy(leaf->keys.begin() + min_fill, leaf->keys.end(), right.keys.begin());
    std::copy(leaf->slots.begin() + min_fill, leaf->slots.begin() + capacity, right.slots.begin());
    right.count = capacity - min_fill;
    leaf->count = min_fill;
    Node& target = pos <= min_fill ? *leaf : right;
    unsigned at = pos <= min_fill ? pos : pos - min_fill;
    open_gap(target.keys, at, target.count);
    open_gap(target.slots, at, target.count);
    target.keys[at] = key;
    target.slots[at] = value;
    ++target.count;
    insert_into_parents(path, right.keys[0], right_index);
    return true;
}

// Inserts separator `key` with its right child `child` into the inner levels of `path`,
// splitting full nodes upwards and growing a new root if the old one splits.
void AddressIndex::insert_into_parents(const Path& path, Key key, NodeIndex child) noexcept {
    for (unsigned depth = height_; depth-- > 0;) {
        NodeIndex parent_index = path[depth].node;
        unsigned slot = path[depth].slot;
        Node& parent = nodes_[parent_index];
        if (parent.count < capacity) {
            open_gap(parent.keys, slot, parent.count);
            open_gap(parent.slots, slot + 1, parent.count + 1);
            parent.keys[slot] = key;
            parent.slots[slot + 1] = child;
            ++parent.count;
            return;
        }
        split_inner(parent_index, slot, key, child);
    }
    NodeIndex old_root = root_;
    root_ = new_node();
    Node& root = nodes_[root_];
    root.count = 1;
    root.keys[0] = key;
    root.slots[0] = old_root;
    root.slots[1] = child;
    ++height_;
}

// Splits the full inner node `left_index` while inserting (key, child) after child `slot`;
// returns through key/child the separator and new right node to insert one level up.
void AddressIndex::split_inner(NodeIndex left_index, unsigned slot, Key& key,
                               NodeIndex& child) noexcept {
    std::array<Key, capacity + 1> keys{};
    std::array<std::uint32_t, capacity + 2> slots{};
    {
        const Node& left = nodes_[left_index];
        std::copy(left.keys.begin(), left.keys.end(), keys.begin());
        std::copy(left.slots.begin(), left.slots.end(), slots.begin());
    }
    open_gap(keys, slot, capacity);
    open_gap(slots, slot + 1, capacity + 1);
    keys[slot] = key;
    slots[slot + 1] = child;

    NodeIndex right_index = new_node();
    Node& left = nodes_[left_index];
    Node& right = nodes_[right_index];
    // capacity + 1 keys: min_fill stay left, one moves up, the rest go right.
    std::copy(keys.begin(), keys.begin() + min_fill, left.keys.begin());
    std::copy(slots.begin(), slots.begin() + min_fill + 1, left.slots.begin());
    left.count = min_fill;
    std::copy(keys.begin() + min_fill + 1, keys.end(), right.keys.begin());
    std::copy(slots.begin() + min_fill + 1, slots.end(), right.slots.begin());
    right.count = capacity - min_fill;
    key = keys[min_fill];
    child = right_index;
}

std::optional<AddressIndex::Value> AddressIndex::erase(Key key) noexcept {
    Path path;
    NodeIndex leaf_index = descend(key, path);
    Node& leaf = nodes_[leaf_index];
    unsigned pos = count_less(leaf, key);
    if (pos >= leaf.count || leaf.keys[pos] != key) {
        return std::nullopt;
    }
    Value value = leaf.slots[pos];
    close_gap(leaf.keys, pos, leaf.count);
    close_gap(leaf.slots, pos, leaf.count);
    --leaf.count;
    --size_;
    rebalance(path, leaf_index);
    return value;
}

// Restores minimum fill from `leaf` upwards after an erasure, then drops an empty inner root.
void AddressIndex::rebalance(const Path& path, NodeIndex leaf) noexcept {
    NodeIndex index = leaf;
    for (unsigned depth = height_; depth-- > 0;) {
        if (nodes_[index].count >= min_fill) {
            return;
        }
        NodeIndex parent = path[depth].node;
        if (fix_underflow(parent, path[depth].slot, depth + 1 == height_)) {
            return;
        }
        index = parent;
    }
    if (height_ > 0 && nodes_[root_].count == 0) {
        NodeIndex old_root = root_;
        root_ = nodes_[old_root].slots[0];
        delete_node(old_root);
        --height_;
    }
}

// Refills child `slot` of `parent` from a sibling with keys to spare, or merges it with a
// sibling. Returns true when the parent kept all its keys.
bool AddressIndex::fix_underflow(NodeIndex parent_index, unsigned slot, bool leaves) noexcept {
    Node& parent = nodes_[parent_index];
    Node& node = nodes_[parent.slots[slot]];
    if (slot > 0 && nodes_[parent.slots[slot - 1]].count > min_fill) {
        Node& left = nodes_[parent.slots[slot - 1]];
        open_gap(node.keys, 0, node.count);
        open_gap(node.slots, 0, leaves ? node.count : node.count + 1);
        if (leaves) {
            node.keys[0] = left.keys[left.count - 1];
            node.slots[0] = left.slots[left.count - 1];
            parent.keys[slot - 1] = node.keys[0];
        } else {
            node.keys[0] = parent.keys[slot - 1];
            node.slots[0] = left.slots[left.count];
            parent.keys[slot - 1] = left.keys[left.count - 1];
        }
        --left.count;
        ++node.count;
        return true;
    }
    if (slot < parent.count && nodes_[parent.slots[slot + 1]].count > min_fill) {
        Node& right = nodes_[parent.slots[slot + 1]];
        if (leaves) {
            node.keys[node.count] = right.keys[0];
            node.slots[node.count] = right.slots[0];
            close_gap(right.keys, 0, right.count);
            close_gap(right.slots, 0, right.count);
            parent.keys[slot] = right.keys[0];
        } else {
            node.keys[node.count] = parent.keys[slot];
            node.slots[node.count + 1] = right.slots[0];
            parent.keys[slot] = right.keys[0];
            close_gap(right.keys, 0, right.count);
            close_gap(right.slots, 0, right.count + 1);
        }
        --right.count;
        ++node.count;
        return true;
    }
    merge_children(parent_index, slot > 0 ? slot - 1 : slot, leaves);
    return false;
}

// Moves child slot + 1 of `parent` into child `slot` and drops their separator.
void AddressIndex::merge_children(NodeIndex parent_index, unsigned slot, bool leaves) noexcept {
    Node& parent = nodes_[parent_index];
    NodeIndex right_index = parent.slots[slot + 1];
    Node& left = nodes_[parent.slots[slot]];
    const Node& right = nodes_[right_index];
    if (leaves) {
        std::copy(right.keys.begin(), right.keys.begin() + right.count,
                  left.keys.begin() + left.count);
        std::copy(right.slots.begin(), right.slots.begin() + right.count,
                  left.slots.begin() + left.count);
        left.count += right.count;
    } else {
        left.keys[left.count] = parent.keys[slot];
        std::copy(right.keys.begin(), right.keys.begin() + right.count,
                  left.keys.begin() + left.count + 1);
        std::copy(right.slots.begin(), right.slots.begin() + right.count + 1,
                  left.slots.begin() + left.count + 1);
        left.count += right.count + 1;
    }
    close_gap(parent.keys, slot, parent.count);
    close_gap(parent.slots, slot + 1, parent.count + 1);
    --parent.count;
    delete_node(right_index);
}

bool AddressIndex::check() const {
    std::size_t entries = 0;
    return check_node(root_, 0, nullptr, nullptr, entries) && entries == size_;
}

bool AddressIndex::check_node(NodeIndex index, unsigned depth, const Key* low, const Key* high,
                              std::size_t& entries) const {
    const Node& node = nodes_[index];
    if (node.count > capacity || (index != root_ && node.count < min_fill)) {
        return false;
    }
    if (index == root_ && depth == 0 && height_ > 0 && node.count == 0) {
        return false;
    }
    for (unsigned i = 0; i < node.count; ++i) {
        if ((i > 0 && node.keys[i - 1] >= node.keys[i]) ||
            (low != nullptr && node.keys[i] < *low) || (high != nullptr && node.keys[i] >= *high)) {
            return false;
        }
    }
    if (depth == height_) {
        entries += node.count;
        return true;
    }
    for (unsigned i = 0; i <= node.count; ++i) {
        const Key* child_low = i == 0 ? low : &node.keys[i - 1];
        const Key* child_high = i == node.count ? high : &node.keys[i];
        if (!check_node(node.slots[i], depth + 1, child_low, child_high, entries)) {
            return false;
        }
    }
    return true;
}

} // namespace bufalloc::detail
