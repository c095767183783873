// The addresses of every object behind a handle that has not been destroyed
// yet. A handle the application passes is looked up here before any of its
// bytes are read, so a stale handle (an object already destroyed) is
// rejected without touching freed memory, and an object the driver refers to
// without owning it (a kernel argument's memory object) can be taken again
// only while it lives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace usmcl::core::live_objects {

// One shard of the registry: the objects whose address hashes to it.
struct Shard;
Shard& shard_of(const void* object);
std::mutex& mutex_of(Shard& shard);
// Under the shard's lock.
bool contains_locked(Shard& shard, const void* object);

void add(const void* object);
// Called before the object's memory is freed.
void remove(const void* object);

// Whether object is a live object (of any type).
inline bool contains(const void* object) {
    Shard& shard = shard_of(object);
    std::lock_guard lock(mutex_of(shard));
    return contains_locked(shard, object);
}

// Calls f() under the lock of object's shard if object is live: the object
// cannot be destroyed while f runs. Returns f()'s result, or fallback.
template <class F, class R>
R if_live(const void* object, R fallback, F&& f) {
    Shard& shard = shard_of(object);
    std::lock_guard lock(mutex_of(shard));
    return contains_locked(shard, object) ? f() : fallback;
}

// The memory of a new object (::operator new), freed by quarantine().
void* allocate(std::size_t size);
// Keeps the memory of a destroyed object (its first bytes rewritten by the
// caller) from reuse for a while, then frees it with ::operator delete: the
// ICD loader reads the dispatch pointer of every handle before the driver
// sees it, so a handle the application uses shortly after releasing it must
// still point to readable memory that names a dispatch table.
void quarantine(void* memory);

// A number no other object of this process had or will have.
std::uint64_t next_serial();

} // namespace usmcl::core::live_objects
