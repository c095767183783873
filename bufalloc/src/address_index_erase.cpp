// AddressIndex: erasure, and the borrow-or-merge steps that keep every node at least half full.
#include "bufalloc/detail/address_index.hpp"

#include "node_search.hpp"

#include <algorithm>

namespace bufalloc::detail {

AddressIndex::Value AddressIndex::erase(Key key) noexcept {
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
void AddressIndex::rebalance(const Path& path) noexcept {
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
bool AddressIndex::refill_leaf(NodeIndex parent_index, unsigned slot) noexcept {
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
void AddressIndex::merge_leaves(NodeIndex parent_index, unsigned slot) noexcept {
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
bool AddressIndex::refill_inner(NodeIndex parent_index, unsigned slot) noexcept {
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
void AddressIndex::merge_inners(NodeIndex parent_index, unsigned slot) noexcept {
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
void AddressIndex::drop_separator(Inner& parent, unsigned slot) noexcept {
    close_gap(parent.keys, slot, parent.count);
    close_gap(parent.children, slot + 1, parent.count + 1);
    --parent.count;
}

} // namespace bufalloc::detail
