// The workers of a device: one thread per processing unit, each pinned to
// its unit. Runs ready commands now; NDRange work-groups and large copies
// split across workers later.
#pragma once

#include "runtime/command.hpp"

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
    unsigned size() const { return static_cast<unsigned>(threads_.size()); }

private:
    struct State;
    static void work(const std::shared_ptr<State>& state);

    // Shared with the workers, so a pool destroyed from one of its own
    // workers (the last reference dropped by a command) stays valid for it.
    std::shared_ptr<State> state_;
    std::vector<std::thread> threads_;
};

// The thread that runs application callbacks (event and memory object
// callbacks) in the order they were posted, never under a driver lock.
void post_callback(std::function<void()> callback);

} // namespace usmcl::runtime
