#include "memory/usm_registry.hpp"

#include <mutex>
#include <shared_mutex>

namespace usmcl::memory {
namespace {

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
    // Room first (may throw), so that the insert itself cannot.
    index_.reserve_for_insert();
    index_.insert(key_of(allocation.base),
                  Record{allocation.size, allocation.owner, allocation.kind, allocation.flags});
}

std::optional<UsmAllocation> UsmRegistry::erase(const void* base) {
    std::unique_lock lock(mutex_);
    const Record record = index_.erase(key_of(base));
    if (record.size == 0)
        return std::nullopt;
    return allocation_of(key_of(base), record);
}

std::optional<UsmAllocation> UsmRegistry::find(const void* address) const {
    std::shared_lock lock(mutex_);
    const Index::Entry entry = index_.floor(key_of(address));
    if (key_of(address) - entry.key >= entry.value.size) // also when absent (size 0)
        return std::nullopt;
    return allocation_of(entry.key, entry.value);
}

std::optional<UsmAllocation> UsmRegistry::find_base(const void* base) const {
    std::shared_lock lock(mutex_);
    const Record record = index_.find(key_of(base));
    if (record.size == 0)
        return std::nullopt;
    return allocation_of(key_of(base), record);
}

std::vector<UsmAllocation> UsmRegistry::take_all() {
    std::unique_lock lock(mutex_);
    std::vector<UsmAllocation> all;
    all.reserve(index_.size());
    // From the highest base down, one floor() per allocation.
    std::uint64_t below = UINT64_MAX;
    for (;;) {
        const Index::Entry entry = index_.floor(below);
        if (entry.value.size == 0)
            break;
        all.push_back(allocation_of(entry.key, entry.value));
        if (entry.key == 0)
            break;
        below = entry.key - 1;
    }
    index_ = Index();
    return all;
}

std::size_t UsmRegistry::size() const {
    std::shared_lock lock(mutex_);
    return index_.size();
}

std::size_t UsmRegistry::bookkeeping_bytes() const {
    std::shared_lock lock(mutex_);
    return index_.memory_bytes();
}

} // namespace usmcl::memory
