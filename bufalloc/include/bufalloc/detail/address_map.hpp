// An unordered map from the start address of every allocated block to its record and a 32-bit
// tag (Region keeps the requested size and a cached flag there, so that free() need not wait
// for the record): open
// addressing with linear probing in one power-of-two array of 16-byte slots, at most 3/4 full,
// erasure by backward shift (no tombstones). Region::free() finds its block here in O(1); the
// ordered AddressIndex is still what lookup() of interior addresses uses.
#pragma once

#include "bufalloc/detail/block_pool.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace bufalloc::detail {

class AddressMap {
public:
    // A slot holding no key. Allocations end at or below 2^64 - 1, so none starts there.
    static constexpr std::uint64_t empty_key = UINT64_MAX;
    static constexpr std::size_t npos = SIZE_MAX;

    // Makes room so that the next insert() neither allocates nor throws.
    void reserve_for_insert() {
        if (2 * (size_ + 1) > slots_.size()) {
            rehash(std::max<std::size_t>(16, 2 * slots_.size()));
        }
    }

    // Adds key -> (value, tag); the key must be absent and reserve_for_insert() must have made
    // room.
    void insert(std::uint64_t key, BlockIndex value, std::uint32_t tag) noexcept {
        std::size_t pos = home(key);
        while (slots_[pos].key != empty_key) {
            pos = (pos + 1) & mask_;
        }
        slots_[pos] = {key, value, tag};
        ++size_;
    }

    // The slot holding key, or npos.
    [[nodiscard]] std::size_t find(std::uint64_t key) const noexcept {
        if (slots_.empty() || key == empty_key) {
            return npos;
        }
        for (std::size_t pos = home(key);; pos = (pos + 1) & mask_) {
            std::uint64_t found = slots_[pos].key;
            if (found == key) {
                return pos;
            }
            if (found == empty_key) {
                return npos;
            }
        }
    }

    [[nodiscard]] BlockIndex value(std::size_t pos) const noexcept { return slots_[pos].value; }
    [[nodiscard]] std::uint32_t tag(std::size_t pos) const noexcept { return slots_[pos].tag; }
    void set_tag(std::size_t pos, std::uint32_t tag) noexcept { slots_[pos].tag = tag; }

    // Whether slot `pos` (any number) holds key: a position remembered from find() stays valid
    // until an erasure or a rehash moves entries.
    [[nodiscard]] bool holds(std::size_t pos, std::uint64_t key) const noexcept {
        return pos < slots_.size() && slots_[pos].key == key;
    }

    // Empties slot `pos` (from find()), moving later entries of its probe run back.
    void erase_at(std::size_t pos) noexcept {
        std::size_t hole = pos;
        for (std::size_t next = (pos + 1) & mask_; slots_[next].key != empty_key;
             next = (next + 1) & mask_) {
            std::size_t want = home(slots_[next].key);
            // The entry may fill the hole unless its home lies cyclically in (hole, next].
            if (((next - want) & mask_) >= ((next - hole) & mask_)) {
                slots_[hole] = slots_[next];
                hole = next;
            }
        }
        slots_[hole] = Slot{};
        --size_;
    }

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return slots_.capacity() * sizeof(Slot);
    }

    // Every key sits in the probe run from its home slot, once, and the count matches. O(n).
    [[nodiscard]] bool check() const {
        std::size_t count = 0;
        for (std::size_t pos = 0; pos < slots_.size(); ++pos) {
            if (slots_[pos].key == empty_key) {
                continue;
            }
            ++count;
            for (std::size_t at = home(slots_[pos].key); at != pos; at = (at + 1) & mask_) {
                if (slots_[at].key == empty_key || slots_[at].key == slots_[pos].key) {
                    return false;
                }
            }
        }
        return count == size_ && 2 * size_ <= slots_.size();
    }

private:
    struct Slot {
        std::uint64_t key = empty_key;
        BlockIndex value = nil_block;
        std::uint32_t tag = 0;
    };

    // Fibonacci hashing after folding higher bits down: plain Fibonacci hashing puts keys in an
    // arithmetic progression (neighbouring allocations of one size) into long probe runs for some
    // strides (2.1 probes per search for 64-byte steps at a third full, against 1.0-1.3 with the
    // folds for steps of 64 B to 16 MiB).
    [[nodiscard]] std::size_t home(std::uint64_t key) const noexcept {
        key ^= key >> 12;
        key ^= key >> 24;
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> shift_) & mask_;
    }

    void rehash(std::size_t count) {
        std::vector<Slot> old(count);
        old.swap(slots_);
        mask_ = count - 1;
        shift_ = 64 - static_cast<unsigned>(std::countr_zero(count));
        size_ = 0;
        for (const Slot& slot : old) {
            if (slot.key != empty_key) {
                insert(slot.key, slot.value, slot.tag);
            }
        }
    }

    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    unsigned shift_ = 63;
    std::size_t size_ = 0;
};

} // namespace bufalloc::detail
