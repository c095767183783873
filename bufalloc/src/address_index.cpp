// AddressIndex: descent, lookups, insertion with leaf and inner splits, invariant check.
// Erasure and rebalancing are in address_index_erase.cpp.
#include "bufalloc/detail/address_index.hpp"

#include "node_search.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace bufalloc::detail {

AddressIndex::AddressIndex() {
    leaves_.reserve(1);
    root_ = leaves_.acquire();
}

AddressIndex::NodeIndex AddressIndex::descend(Key key, Path& path) const noexcept {
    NodeIndex index = root_;
    for (unsigned depth = 0; depth < height_; ++depth) {
        const Inner& node = inners_[index];
        unsigned slot = count_not_greater(node.keys.data(), node.count, key);
        path[depth] = {index, slot};
        index = node.children[slot];
    }
    return index;
}

AddressIndex::Value AddressIndex::find(Key key) const noexcept {
    Path path;
    const Leaf& leaf = leaves_[descend(key, path)];
    unsigned pos = find_key<leaf_capacity>(leaf.keys.data(), leaf.count, key);
    return pos == leaf.count ? absent : leaf.values[pos];
}

void AddressIndex::replace_key(Key from, Key to) noexcept {
    Path path;
    Leaf& leaf = leaves_[descend(from, path)];
    leaf.keys[find_key<leaf_capacity>(leaf.keys.data(), leaf.count, from)] = to;
    // The separators around the path must still lead to this leaf. A bound that `to` crosses
    // moves just past it: the keys beyond the bound are beyond `to` too (none lies between).
    for (unsigned depth = 0; depth < height_; ++depth) {
        Inner& node = inners_[path[depth].node];
        unsigned slot = path[depth].slot;
        if (to > from && slot < node.count && node.keys[slot] <= to) {
            node.keys[slot] = to + 1;
        } else if (to < from && slot > 0 && node.keys[slot - 1] > to) {
            node.keys[slot - 1] = to;
        }
    }
}

AddressIndex::Entry AddressIndex::floor(Key key) const noexcept {
    Path path;
    const Leaf& leaf = leaves_[descend(key, path)];
    unsigned best = leaf.count;
    for (unsigned i = 0; i < leaf.count; ++i) {
        if (leaf.keys[i] <= key && (best == leaf.count || leaf.keys[i] > leaf.keys[best])) {
            best = i;
        }
    }
    if (best != leaf.count) {
        return Entry{leaf.keys[best], leaf.values[best]};
    }
    return rightmost_before(path);
}

// Every key of the leaf at the end of `path` is greater than the one looked up: the floor is the
// greatest key of the nearest subtree to the left (separators may be stale after erasures, so
// this is not an error).
AddressIndex::Entry AddressIndex::rightmost_before(const Path& path) const noexcept {
    for (unsigned depth = height_; depth-- > 0;) {
        if (path[depth].slot == 0) {
            continue;
        }
        NodeIndex index = inners_[path[depth].node].children[path[depth].slot - 1];
        for (unsigned level = depth + 1; level < height_; ++level) {
            index = inners_[index].children[inners_[index].count];
        }
        const Leaf& leaf = leaves_[index];
        auto last = std::max_element(leaf.keys.begin(), leaf.keys.begin() + leaf.count);
        auto pos = static_cast<std::size_t>(last - leaf.keys.begin());
        return Entry{*last, leaf.values[pos]};
    }
    return Entry{};
}

void AddressIndex::insert(Key key, Value value) {
    reserve_for_insert();
    Path path;
    NodeIndex leaf_index = descend(key, path);
    Leaf& leaf = leaves_[leaf_index];
    ++size_;
    if (leaf.count < leaf_capacity) {
        leaf.keys[leaf.count] = key;
        leaf.values[leaf.count] = value;
        ++leaf.count;
        return;
    }
    split_leaf(leaf_index, key, value, path);
}

// Splits the full leaf around the median of its entries plus (key, value): the smaller half
// stays, the larger half moves to a new right leaf whose smallest key becomes the separator.
void AddressIndex::split_leaf(NodeIndex leaf_index, Key key, Value value,
                              const Path& path) noexcept {
    std::array<std::pair<Key, Value>, leaf_capacity + 1> entries;
    {
        const Leaf& leaf = leaves_[leaf_index];
        for (unsigned i = 0; i < leaf_capacity; ++i) {
            entries[i] = {leaf.keys[i], leaf.values[i]};
        }
    }
    entries[leaf_capacity] = {key, value};
    constexpr unsigned half = (leaf_capacity + 1) / 2;
    std::nth_element(entries.begin(), entries.begin() + half, entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    NodeIndex right_index = leaves_.acquire();
    Leaf& left = leaves_[leaf_index];
    Leaf& right = leaves_[right_index];
    for (unsigned i = 0; i < half; ++i) {
        left.keys[i] = entries[i].first;
        left.values[i] = entries[i].second;
    }
    left.count = half;
    for (unsigned i = half; i <= leaf_capacity; ++i) {
        right.keys[i - half] = entries[i].first;
        right.values[i - half] = entries[i].second;
    }
    right.count = leaf_capacity + 1 - half;
    insert_into_parents(path, entries[half].first, right_index);
}

// Inserts separator `key` with its right child `child` into the inner levels of `path`,
// splitting full nodes upwards and growing a new root if the old one splits.
void AddressIndex::insert_into_parents(const Path& path, Key key, NodeIndex child) noexcept {
    for (unsigned depth = height_; depth-- > 0;) {
        NodeIndex parent_index = path[depth].node;
        unsigned slot = path[depth].slot;
        Inner& parent = inners_[parent_index];
        if (parent.count < inner_capacity) {
            open_gap(parent.keys, slot, parent.count);
            open_gap(parent.children, slot + 1, parent.count + 1);
            parent.keys[slot] = key;
            parent.children[slot + 1] = child;
            ++parent.count;
            return;
        }
        split_inner(parent_index, slot, key, child);
    }
    NodeIndex old_root = root_;
    root_ = inners_.acquire();
    Inner& root = inners_[root_];
    root.count = 1;
    root.keys[0] = key;
    root.children[0] = old_root;
    root.children[1] = child;
    ++height_;
}

// Splits the full inner node `left_index` while inserting (key, child) after child `slot`;
// returns through key/child the separator and new right node to insert one level up.
void AddressIndex::split_inner(NodeIndex left_index, unsigned slot, Key& key,
                               NodeIndex& child) noexcept {
    std::array<Key, inner_capacity + 1> keys;
    std::array<NodeIndex, inner_capacity + 2> children;
    {
        const Inner& left = inners_[left_index];
        std::copy(left.keys.begin(), left.keys.end(), keys.begin());
        std::copy(left.children.begin(), left.children.end(), children.begin());
    }
    open_gap(keys, slot, inner_capacity);
    open_gap(children, slot + 1, inner_capacity + 1);
    keys[slot] = key;
    children[slot + 1] = child;

    NodeIndex right_index = inners_.acquire();
    Inner& left = inners_[left_index];
    Inner& right = inners_[right_index];
    // inner_capacity + 1 keys: inner_min stay left, one moves up, the rest go right.
    std::copy(keys.begin(), keys.begin() + inner_min, left.keys.begin());
    std::copy(children.begin(), children.begin() + inner_min + 1, left.children.begin());
    left.count = inner_min;
    std::copy(keys.begin() + inner_min + 1, keys.end(), right.keys.begin());
    std::copy(children.begin() + inner_min + 1, children.end(), right.children.begin());
    right.count = inner_capacity - inner_min;
    key = keys[inner_min];
    child = right_index;
}

bool AddressIndex::check() const {
    std::size_t entries = 0;
    return check_node(root_, 0, nullptr, nullptr, entries) && entries == size_;
}

bool AddressIndex::check_node(NodeIndex index, unsigned depth, const Key* low, const Key* high,
                              std::size_t& entries) const {
    auto in_range = [&](Key key) {
        return (low == nullptr || key >= *low) && (high == nullptr || key < *high);
    };
    if (depth == height_) {
        const Leaf& leaf = leaves_[index];
        if (leaf.count > leaf_capacity || (depth > 0 && leaf.count < leaf_min)) {
            return false;
        }
        std::vector<Key> keys(leaf.keys.begin(), leaf.keys.begin() + leaf.count);
        std::sort(keys.begin(), keys.end());
        if (std::adjacent_find(keys.begin(), keys.end()) != keys.end() ||
            !std::all_of(keys.begin(), keys.end(), in_range)) {
            return false;
        }
        entries += leaf.count;
        return true;
    }
    const Inner& node = inners_[index];
    if (node.count > inner_capacity || node.count == 0 || (depth > 0 && node.count < inner_min) ||
        std::adjacent_find(node.keys.begin(), node.keys.begin() + node.count,
                           [](Key a, Key b) { return a >= b; }) != node.keys.begin() + node.count ||
        !std::all_of(node.keys.begin(), node.keys.begin() + node.count, in_range)) {
        return false;
    }
    for (unsigned i = 0; i <= node.count; ++i) {
        const Key* child_low = i == 0 ? low : &node.keys[i - 1];
        const Key* child_high = i == node.count ? high : &node.keys[i];
        if (!check_node(node.children[i], depth + 1, child_low, child_high, entries)) {
            return false;
        }
    }
    return true;
}

} // namespace bufalloc::detail
