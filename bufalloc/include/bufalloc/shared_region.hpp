// SharedRegion: a Region behind one mutex, for use from several threads.
#pragma once

#include "bufalloc/region.hpp"

#include <mutex>
#include <type_traits>
#include <utility>

namespace bufalloc {

// Every call takes one std::mutex for the duration of the Region call; an uncontended
// lock/unlock pair costs two atomic read-modify-writes. Threads that contend are serialized
// (the critical sections are short: no system call and no allocation except when bookkeeping
// vectors grow). lookup() and stats() take the same lock: a reader-writer lock would cost as
// much uncontended and the sections are too short to gain from shared readers.
class SharedRegion {
public:
    SharedRegion(std::uint64_t base, std::uint64_t size, std::uint64_t min_alignment = 1)
        : region_(base, size, min_alignment) {}

    SharedRegion(const SharedRegion&) = delete;
    SharedRegion& operator=(const SharedRegion&) = delete;

    [[nodiscard]] AllocateResult allocate(std::uint64_t size, std::uint64_t alignment = 0) {
        std::lock_guard lock(mutex_);
        return region_.allocate(size, alignment);
    }

    Status free(std::uint64_t address) noexcept {
        std::lock_guard lock(mutex_);
        return region_.free(address);
    }

    [[nodiscard]] std::optional<Allocation> lookup(std::uint64_t address) const noexcept {
        std::lock_guard lock(mutex_);
        return region_.lookup(address);
    }

    Status grow(std::uint64_t bytes) {
        std::lock_guard lock(mutex_);
        return region_.grow(bytes);
    }

    [[nodiscard]] Stats stats() const noexcept {
        std::lock_guard lock(mutex_);
        return region_.stats();
    }

    // Runs f(Region&) under the lock: several operations as one atomic step, or one lock for a
    // batch.
    template <class F>
    decltype(auto) with_lock(F&& f) {
        std::lock_guard lock(mutex_);
        return std::forward<F>(f)(region_);
    }

    template <class F>
    decltype(auto) with_lock(F&& f) const {
        std::lock_guard lock(mutex_);
        return std::forward<F>(f)(static_cast<const Region&>(region_));
    }

private:
    mutable std::mutex mutex_;
    Region region_;
};

} // namespace bufalloc
