#include "memory/usm_registry.hpp"

#include <algorithm>
#include <mutex>

namespace usmcl::memory {
namespace {

// Room for one more element, growing geometrically (reserve(size + 1) would
// reallocate on every call). May throw; the vector is unchanged then.
template <class T>
void make_room(std::vector<T>& items) {
    if (items.size() == items.capacity())
        items.reserve(std::max<std::size_t>(16, 2 * items.capacity()));
}

std::uint64_t key_of(const void* address) {
    return reinterpret_cast<std::uintptr_t>(address);
}

} // namespace

UsmAllocation UsmRegistry::allocation_of(std::uint64_t base, const Record& record) {
    return {reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(base)), record.size,
            record.owner, record.kind, record.flags};
}

void UsmRegistry::insert(const UsmAllocation& allocation) {
    std::unique_lock lock(mutex_);
    // Room first, so that nothing below throws once the index is changed.
    index_.reserve_for_insert();
    Slot slot;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();
        free_slots_.pop_back();
    } else {
        if ((used_slots_ & (chunk_size - 1)) == 0) {
            make_room(chunks_);
            chunks_.push_back(std::make_unique<Record[]>(chunk_size));
        }
        slot = used_slots_++;
    }
    record(slot) = {allocation.size, allocation.owner, allocation.kind, allocation.flags};
    index_.insert(key_of(allocation.base), slot);
}

std::optional<UsmAllocation> UsmRegistry::erase(const void* base) {
    std::unique_lock lock(mutex_);
    if (index_.find(key_of(base)) == bufalloc::AddressIndex::absent)
        return std::nullopt;
    make_room(free_slots_); // may throw; nothing changed yet
    const Slot slot = index_.erase(key_of(base));
    free_slots_.push_back(slot);
    return allocation_of(key_of(base), record(slot));
}

std::optional<UsmAllocation> UsmRegistry::find(const void* address) const {
    std::shared_lock lock(mutex_);
    const bufalloc::AddressIndex::Entry entry = index_.floor(key_of(address));
    if (entry.value == bufalloc::AddressIndex::absent)
        return std::nullopt;
    const Record& found = record(entry.value);
    if (key_of(address) - entry.key >= found.size)
        return std::nullopt;
    return allocation_of(entry.key, found);
}

std::optional<UsmAllocation> UsmRegistry::find_base(const void* base) const {
    std::shared_lock lock(mutex_);
    const auto slot = index_.find(key_of(base));
    if (slot == bufalloc::AddressIndex::absent)
        return std::nullopt;
    return allocation_of(key_of(base), record(slot));
}

std::vector<UsmAllocation> UsmRegistry::take_all() {
    std::unique_lock lock(mutex_);
    std::vector<UsmAllocation> all;
    all.reserve(index_.size());
    // From the highest base down, one floor() per allocation.
    std::uint64_t below = UINT64_MAX;
    for (;;) {
        const bufalloc::AddressIndex::Entry entry = index_.floor(below);
        if (entry.value == bufalloc::AddressIndex::absent)
            break;
        all.push_back(allocation_of(entry.key, record(entry.value)));
        if (entry.key == 0)
            break;
        below = entry.key - 1;
    }
    index_ = bufalloc::AddressIndex();
    chunks_.clear();
    used_slots_ = 0;
    free_slots_.clear();
    return all;
}

std::size_t UsmRegistry::size() const {
    std::shared_lock lock(mutex_);
    return index_.size();
}

std::size_t UsmRegistry::bookkeeping_bytes() const {
    std::shared_lock lock(mutex_);
    return chunks_.size() * chunk_size * sizeof(Record) + chunks_.capacity() * sizeof(chunks_[0]) +
           free_slots_.capacity() * sizeof(Slot) + index_.memory_bytes();
}

} // namespace usmcl::memory
