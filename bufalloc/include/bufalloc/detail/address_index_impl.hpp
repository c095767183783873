// Member definitions of BasicAddressIndex: descent, lookups, insertion with leaf and inner
// splits, erasure with the borrow-or-merge steps that keep every node at least half full, and
// the invariant check. Included by the one source that instantiates each value type.
#pragma once

#include "bufalloc/detail/address_index.hpp"
#include "bufalloc/detail/node_search.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace bufalloc::detail {

template <class V, unsigned C>
BasicAddressIndex<V, C>::BasicAddressIndex() {
    leaves_.reserve(1);
    root_ = leaves_.acquire();
}

template <class V, unsigned C>
typename BasicAddressIndex<V, C>::NodeIndex
BasicAddressIndex<V, C>::descend(Key key, Path& path) const noexcept {
    NodeIndex index = root_;
    for (unsigned depth = 0; depth < height_; ++depth) {
        const Inner& node = inners_[index];
        unsigned slot = count_not_greater(node.keys.data(), node.count, key);
        path[depth] = {index, slot};
        index = node.children[slot];
    }
    return index;
}

template <class V, unsigned C>
typename BasicAddressIndex<V, C>::Value BasicAddressIndex<V, C>::find(Key key) const noexcept {
    Path path;
    const Leaf& leaf = leaves_[descend(key, path)];
    unsigned pos = find_key<leaf_capacity>(leaf.keys.data(), leaf.count, key);
    return pos == leaf.count ? absent : leaf.values[pos];
}

template <class V, unsigned C>
void BasicAddressIndex<V, C>::replace_key(Key from, Key to) noexcept {
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

template <class V, unsigned C>
typename BasicAddressIndex<V, C>::Entry BasicAddressIndex<V, C>::floor(Key key) const noexcept {
    Path path;
    const Leaf& leaf = leaves_[descend(key, path)];
    // Every line of the leaf at once: the search reads all its keys, and the value it finds
    // would otherwise be one more cache miss after the search.
    const char* bytes = reinterpret_cast<const char*>(&leaf);
    for (std::size_t offset = 0; offset < sizeof(Leaf); offset += 64) {
        __builtin_prefetch(bytes + offset);
    }
    unsigned best = floor_position<leaf_capacity>(leaf.keys.data(), leaf.count, key);
    if (best != leaf.count) {
        return Entry{leaf.keys[best], leaf.values[best]};
    }
    return rightmost_before(path);
}

// Every key of the leaf at the end of `path` is greater than the one looked up: the floor is the
// greatest key of the nearest subtree to the left (separators may be stale after erasures, so
// this is not an error).
template <class V, unsigned C>
typename BasicAddressIndex<V, C>::Entry
BasicAddressIndex<V, C>::rightmost_before(const Path& path) const noexcept {
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

template <class V, unsigned C>
void BasicAddressIndex<V, C>::insert(Key key, Value value) {
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
    if (height_ == 0 || !shift_to_sibling(leaf_index, key, value, path[height_ - 1])) {
        split_leaf(leaf_index, key, value, path);
    }
}

// The full leaf `leaf_index` (child `step.slot` of `step.node`) gives entries to a sibling
// with room instead of splitting: its smallest ones to the left sibling, else its largest ones
// to the right one, as many as the sibling has room for, and the separator between them moves.
// Ascending (or descending) inserts thus fill every leaf before a split, where splits alone
// would leave each one half full. Only a sibling with a quarter of a leaf free or more takes
// entries: the leaf is then left with as much room, so that random inserts into full leaves
// shift entries once per several inserts, not on every one. False when no sibling qualifies.
template <class V, unsigned C>
bool BasicAddressIndex<V, C>::shift_to_sibling(NodeIndex leaf_index, Key key, Value value,
                                               const Step& step) noexcept {
    constexpr unsigned min_room = std::max(1U, leaf_capacity / 4);
    Inner& parent = inners_[step.node];
    const unsigned slot = step.slot;
    const bool to_left =
        slot > 0 && leaves_[parent.children[slot - 1]].count + min_room <= leaf_capacity;
    if (!to_left && (slot == parent.count ||
                     leaves_[parent.children[slot + 1]].count + min_room > leaf_capacity)) {
        return false;
    }
    Leaf& sibling = leaves_[parent.children[to_left ? slot - 1 : slot + 1]];
    Leaf& leaf = leaves_[leaf_index];
    std::array<std::pair<Key, Value>, leaf_capacity + 1> entries;
    for (unsigned i = 0; i < leaf_capacity; ++i) {
        entries[i] = {leaf.keys[i], leaf.values[i]};
    }
    entries[leaf_capacity] = {key, value};
    // moved <= leaf_capacity - leaf_min: at least leaf_min + 1 entries stay.
    const unsigned moved = leaf_capacity - sibling.count;
    const unsigned stay = leaf_capacity + 1 - moved;
    // The `moved` smallest (to the left) or largest (to the right) entries first.
    const unsigned cut = to_left ? moved : stay;
    std::nth_element(entries.begin(), entries.begin() + cut, entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const unsigned moved_from = to_left ? 0 : stay;
    const unsigned stay_from = to_left ? moved : 0;
    for (unsigned i = 0; i < moved; ++i) {
        sibling.keys[sibling.count + i] = entries[moved_from + i].first;
        sibling.values[sibling.count + i] = entries[moved_from + i].second;
    }
    sibling.count += moved;
    for (unsigned i = 0; i < stay; ++i) {
        leaf.keys[i] = entries[stay_from + i].first;
        leaf.values[i] = entries[stay_from + i].second;
    }
    leaf.count = stay;
    // entries[cut] is the smallest key right of the new boundary.
    parent.keys[to_left ? slot - 1 : slot] = entries[cut].first;
    return true;
}

// Splits the full leaf around the median of its entries plus (key, value): the smaller half
// stays, the larger half moves to a new right leaf whose smallest key becomes the separator.
template <class V, unsigned C>
void BasicAddressIndex<V, C>::split_leaf(NodeIndex leaf_index, Key key, Value value,
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
template <class V, unsigned C>
void BasicAddressIndex<V, C>::insert_into_parents(const Path& path, Key key,
                                                  NodeIndex child) noexcept {
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
template <class V, unsigned C>
void BasicAddressIndex<V, C>::split_inner(NodeIndex left_index, unsigned slot, Key& key,
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

template <class V, unsigned C>
bool BasicAddressIndex<V, C>::check() const {
    std::size_t entries = 0;
    return check_node(root_, 0, nullptr, nullptr, entries) && entries == size_;
}

template <class V, unsigned C>
bool BasicAddressIndex<V, C>::check_node(NodeIndex index, unsigned depth, const Key* low,
                                         const Key* high, std::size_t& entries) const {
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

template <class V, unsigned C>
typename BasicAddressIndex<V, C>::Value BasicAddressIndex<V, C>::erase(Key key) noexcept {
    Path path;
    NodeIndex leaf_index = descend(key, path);
    Leaf& leaf = leaves_[leaf_index];
    unsigned pos = find_key<leaf_capacity>(leaf.keys.data(), leaf.count, key);
    if (pos == leaf.count) {
        return absent;
    }
    Value value = leaf.values[pos];
    --leaf.count;
    leaf.keys[pos] = leaf.keys[leaf.count];
    leaf.values[pos] = leaf.values[leaf.count];
    --size_;
    if (leaf.count < leaf_min && height_ > 0) {
        rebalance(path);
    }
    return value;
}

// Restores minimum fill upwards from an underfull leaf, then drops an empty inner root.
template <class V, unsigned C>
void BasicAddressIndex<V, C>::rebalance(const Path& path) noexcept {
    unsigned depth = height_ - 1;
    if (refill_leaf(path[depth].node, path[depth].slot)) {
        return;
    }
    NodeIndex index = path[depth].node; // lost a separator in the merge
    while (depth-- > 0) {
        if (inners_[index].count >= inner_min) {
            return;
        }
        if (refill_inner(path[depth].node, path[depth].slot)) {
            return;
        }
        index = path[depth].node;
    }
    if (inners_[root_].count == 0) {
        NodeIndex old_root = root_;
        root_ = inners_[old_root].children[0];
        inners_.release(old_root);
        --height_;
    }
}

// Refills leaf `slot` of `parent` with one entry from a sibling that can spare one, or merges it
// with a sibling. Returns true when the parent kept all its separators.
template <class V, unsigned C>
bool BasicAddressIndex<V, C>::refill_leaf(NodeIndex parent_index, unsigned slot) noexcept {
    Inner& parent = inners_[parent_index];
    Leaf& node = leaves_[parent.children[slot]];
    auto take = [&node](Leaf& from, unsigned pos) {
        Key key = from.keys[pos];
        node.keys[node.count] = key;
        node.values[node.count] = from.values[pos];
        ++node.count;
        --from.count;
        from.keys[pos] = from.keys[from.count];
        from.values[pos] = from.values[from.count];
        return key;
    };
    if (slot > 0 && leaves_[parent.children[slot - 1]].count > leaf_min) {
        Leaf& left = leaves_[parent.children[slot - 1]];
        auto largest = std::max_element(left.keys.begin(), left.keys.begin() + left.count);
        // Every key left in `left` is below the moved one, every key of `node` above it.
        parent.keys[slot - 1] = take(left, static_cast<unsigned>(largest - left.keys.begin()));
        return true;
    }
    if (slot < parent.count && leaves_[parent.children[slot + 1]].count > leaf_min) {
        Leaf& right = leaves_[parent.children[slot + 1]];
        auto smallest = std::min_element(right.keys.begin(), right.keys.begin() + right.count);
        // The moved key is now the largest of `node`, and below every key still in `right`.
        parent.keys[slot] = take(right, static_cast<unsigned>(smallest - right.keys.begin())) + 1;
        return true;
    }
    merge_leaves(parent_index, slot > 0 ? slot - 1 : slot);
    return false;
}

// Moves leaf slot + 1 of `parent` into leaf `slot`.
template <class V, unsigned C>
void BasicAddressIndex<V, C>::merge_leaves(NodeIndex parent_index, unsigned slot) noexcept {
    Inner& parent = inners_[parent_index];
    NodeIndex right_index = parent.children[slot + 1];
    Leaf& left = leaves_[parent.children[slot]];
    const Leaf& right = leaves_[right_index];
    std::copy(right.keys.begin(), right.keys.begin() + right.count, left.keys.begin() + left.count);
    std::copy(right.values.begin(), right.values.begin() + right.count,
              left.values.begin() + left.count);
    left.count += right.count;
    drop_separator(parent, slot);
    leaves_.release(right_index);
}

// As refill_leaf for inner node `slot` of `parent`, rotating keys through the parent.
template <class V, unsigned C>
bool BasicAddressIndex<V, C>::refill_inner(NodeIndex parent_index, unsigned slot) noexcept {
    Inner& parent = inners_[parent_index];
    Inner& node = inners_[parent.children[slot]];
    if (slot > 0 && inners_[parent.children[slot - 1]].count > inner_min) {
        Inner& left = inners_[parent.children[slot - 1]];
        open_gap(node.keys, 0, node.count);
        open_gap(node.children, 0, node.count + 1);
        node.keys[0] = parent.keys[slot - 1];
        node.children[0] = left.children[left.count];
        parent.keys[slot - 1] = left.keys[left.count - 1];
        --left.count;
        ++node.count;
        return true;
    }
    if (slot < parent.count && inners_[parent.children[slot + 1]].count > inner_min) {
        Inner& right = inners_[parent.children[slot + 1]];
        node.keys[node.count] = parent.keys[slot];
        node.children[node.count + 1] = right.children[0];
        parent.keys[slot] = right.keys[0];
        close_gap(right.keys, 0, right.count);
        close_gap(right.children, 0, right.count + 1);
        --right.count;
        ++node.count;
        return true;
    }
    merge_inners(parent_index, slot > 0 ? slot - 1 : slot);
    return false;
}

// Moves inner node slot + 1 of `parent` into inner node `slot`, with their separator between.
template <class V, unsigned C>
void BasicAddressIndex<V, C>::merge_inners(NodeIndex parent_index, unsigned slot) noexcept {
    Inner& parent = inners_[parent_index];
    NodeIndex right_index = parent.children[slot + 1];
    Inner& left = inners_[parent.children[slot]];
    const Inner& right = inners_[right_index];
    left.keys[left.count] = parent.keys[slot];
    std::copy(right.keys.begin(), right.keys.begin() + right.count,
              left.keys.begin() + left.count + 1);
    std::copy(right.children.begin(), right.children.begin() + right.count + 1,
              left.children.begin() + left.count + 1);
    left.count += right.count + 1;
    drop_separator(parent, slot);
    inners_.release(right_index);
}

// Removes separator `slot` and the child to its right from `parent`.
template <class V, unsigned C>
void BasicAddressIndex<V, C>::drop_separator(Inner& parent, unsigned slot) noexcept {
    close_gap(parent.keys, slot, parent.count);
    close_gap(parent.children, slot + 1, parent.count + 1);
    --parent.count;
}

} // namespace bufalloc::detail
