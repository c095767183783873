#include "memory/usm_registry.hpp"

#include <mutex>

namespace usmcl::memory {
namespace {

std::uint64_t key_of(const void* address) {
    return reinterpret_cast<std::uintptr_t>(address);
}

} // namespace

void UsmRegistry::insert(const UsmAllocation& allocation) {
    std::unique_lock lock(mutex_);
    // Room first, so that nothing below throws once the index is changed.
    index_.reserve_for_insert();
    Slot slot;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();
        records_[slot] = allocation;
        free_slots_.pop_back();
    } else {
        records_.push_back(allocation);
        slot = static_cast<Slot>(records_.size() - 1);
    }
    index_.insert(key_of(allocation.base), slot);
}

std::optional<UsmAllocation> UsmRegistry::erase(const void* base) {
    std::unique_lock lock(mutex_);
    if (index_.find(key_of(base)) == bufalloc::AddressIndex::absent)
        return std::nullopt;
    free_slots_.reserve(free_slots_.size() + 1); // may throw; nothing changed yet
    const Slot slot = index_.erase(key_of(base));
    UsmAllocation allocation = records_[slot];
    records_[slot] = {};
    free_slots_.push_back(slot);
    return allocation;
}

std::optional<UsmAllocation> UsmRegistry::find_locked(const void* address) const {
    const bufalloc::AddressIndex::Entry entry = index_.floor(key_of(address));
    if (entry.value == bufalloc::AddressIndex::absent)
        return std::nullopt;
    const UsmAllocation& allocation = records_[entry.value];
    if (!allocation.contains(address))
        return std::nullopt;
    return allocation;
}

std::optional<UsmAllocation> UsmRegistry::find(const void* address) const {
    std::shared_lock lock(mutex_);
    return find_locked(address);
}

std::optional<UsmAllocation> UsmRegistry::find_base(const void* base) const {
    std::shared_lock lock(mutex_);
    const auto slot = index_.find(key_of(base));
    if (slot == bufalloc::AddressIndex::absent)
        return std::nullopt;
    return records_[slot];
}

std::vector<UsmAllocation> UsmRegistry::take_all() {
    std::unique_lock lock(mutex_);
    std::vector<UsmAllocation> all;
    for (const UsmAllocation& allocation : records_)
        if (allocation.base)
            all.push_back(allocation);
    index_ = bufalloc::AddressIndex();
    records_.clear();
    free_slots_.clear();
    return all;
}

std::size_t UsmRegistry::size() const {
    std::shared_lock lock(mutex_);
    return index_.size();
}

std::size_t UsmRegistry::bookkeeping_bytes() const {
    std::shared_lock lock(mutex_);
    return records_.capacity() * sizeof(UsmAllocation) + free_slots_.capacity() * sizeof(Slot) +
           index_.memory_bytes();
}

} // namespace usmcl::memory
