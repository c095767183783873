#include "core/live_objects.hpp"

#include <array>
#include <atomic>
#include <deque>
#include <new>
#include <unordered_set>

namespace usmcl::core::live_objects {

struct Shard {
    std::mutex mutex;
    std::unordered_set<const void*> objects;
};

namespace {

constexpr unsigned shard_bits = 6;

std::array<Shard, 1u << shard_bits>& shards() {
    // Never destroyed: objects may outlive static destruction (the platform
    // and its devices, or objects the application never released).
    static auto* all = new std::array<Shard, 1u << shard_bits>;
    return *all;
}

} // namespace

Shard& shard_of(const void* object) {
    // Objects are at least 16 bytes apart; Fibonacci hashing spreads them.
    const auto bits = reinterpret_cast<std::uintptr_t>(object) >> 4;
    return shards()[(bits * 0x9e3779b97f4a7c15ull) >> (64 - shard_bits)];
}

std::mutex& mutex_of(Shard& shard) {
    return shard.mutex;
}

bool contains_locked(Shard& shard, const void* object) {
    return shard.objects.count(object) != 0;
}

void add(const void* object) {
    Shard& shard = shard_of(object);
    std::lock_guard lock(shard.mutex);
    shard.objects.insert(object);
}

void remove(const void* object) {
    Shard& shard = shard_of(object);
    std::lock_guard lock(shard.mutex);
    shard.objects.erase(object);
}

void* allocate(std::size_t size) {
    return ::operator new(size);
}

void quarantine(void* memory) {
    // The most recently destroyed objects, oldest first.
    constexpr size_t capacity = 1024;
    static auto* mutex = new std::mutex;
    static auto* retired = new std::deque<void*>;
    void* oldest = nullptr;
    {
        std::lock_guard lock(*mutex);
        retired->push_back(memory);
        if (retired->size() > capacity) {
            oldest = retired->front();
            retired->pop_front();
        }
    }
    ::operator delete(oldest);
}

std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> serial{1};
    return serial.fetch_add(1, std::memory_order_relaxed);
}

} // namespace usmcl::core::live_objects
