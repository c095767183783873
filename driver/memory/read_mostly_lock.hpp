// A reader-writer lock for read-mostly data with short critical sections
// (the USM registry: every clGetMemAllocInfoINTEL and every enqueue with USM
// pointers reads it; only allocation and free write). A reader costs one
// atomic increment and one decrement, where std::shared_mutex costs about
// three times as much uncontended. Writers are serialized by a mutex, set a
// flag and wait for the readers inside to leave; readers arriving while the
// flag is set step back until it clears, so a writer is never starved.
// Waiting yields the processor. Satisfies Lockable and SharedLockable
// (std::unique_lock, std::shared_lock).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>

namespace usmcl::memory {

class ReadMostlyLock {
public:
    void lock_shared() noexcept {
        while (state_.fetch_add(1, std::memory_order_acquire) & writer) {
            state_.fetch_sub(1, std::memory_order_relaxed);
            while (state_.load(std::memory_order_relaxed) & writer)
                std::this_thread::yield();
        }
    }

    void unlock_shared() noexcept { state_.fetch_sub(1, std::memory_order_release); }

    void lock() {
        writers_.lock();
        state_.fetch_or(writer, std::memory_order_acquire);
        // Readers inside finish; readers arriving now step back.
        while (state_.load(std::memory_order_acquire) != writer)
            std::this_thread::yield();
    }

    void unlock() noexcept {
        state_.fetch_and(~writer, std::memory_order_release);
        writers_.unlock();
    }

private:
    static constexpr std::uint32_t writer = std::uint32_t(1) << 31;
    std::atomic<std::uint32_t> state_{0}; // the writer flag and the number of readers inside
    std::mutex writers_;
};

} // namespace usmcl::memory
