// The workers of a device: one thread per processing unit, bound to the
// device's units (pin(i) binds worker i). Runs ready commands, and splits NDRange work-groups and
// large copies and fills into chunks that idle workers (and, for copies and fills, threads waiting
// for a command of this pool) take part in.
#pragma once

#include "runtime/command.hpp"
#include "support/function_ref.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace usmcl::runtime {

class ThreadPool final : public Executor {
public:
    // pin(i) pins the calling thread (worker i); it may be empty.
    ThreadPool(unsigned workers, std::function<void(unsigned)> pin);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void post(Command& command) override;
    void post(std::function<void()> task);

    // Who takes part in a parallel_for besides the calling thread.
    struct Split {
        // Threads waiting for a command of this pool (clFinish,
        // clWaitForEvents, blocking enqueues) may run chunks too: only for
        // bodies that run on any thread (copies, fills).
        bool waiters_help = false;
        // Wake sleeping workers; otherwise only workers that are awake
        // (watching for work after their last task) join. A wake-up costs
        // the caller a system call and arrives tens of microseconds later:
        // worth it for long splits only.
        bool wake_sleepers = true;
    };

    // Runs body(0) … body(count - 1) on the calling thread and on idle
    // workers, and returns when every call has returned. The calling thread
    // takes part, so it may be a worker of this pool.
    // body is only referred to (no copy, no allocation).
    void parallel_for(size_t count, support::FunctionRef<void(size_t)> body) {
        parallel_for(count, body, Split{});
    }
    void parallel_for(size_t count, support::FunctionRef<void(size_t)> body, Split split);
    unsigned size() const { return static_cast<unsigned>(threads_.size()); }

    // Executor: what a thread waiting for a command of this pool may do.
    bool run_if_queued(Command& command) override;
    bool help_once() override;

private:
    struct State;
    struct Job;
    static void work(const std::shared_ptr<State>& state);

    // Shared with the workers, so a pool destroyed from one of its own
    // workers (the last reference dropped by a command) stays valid for it.
    std::shared_ptr<State> state_;
    std::vector<std::thread> threads_;
};

// memcpy and pattern fills split into chunks across the pool's workers
// (and threads waiting for the pool) when they are large enough to gain
// from it.
void parallel_copy(ThreadPool& pool, void* destination, const void* source, size_t size);
void parallel_fill(ThreadPool& pool, void* destination, const void* pattern, size_t pattern_size,
                   size_t size);

// The thread that runs application callbacks (event and memory object
// callbacks) in the order they were posted, never under a driver lock.
void post_callback(std::function<void()> callback);

} // namespace usmcl::runtime
