// Waiting with a limit in the API tests: event status polls and a counter
// that threads bump, so that a hang fails the test instead of stalling it.
#pragma once

#include "cl_handles.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace cl_test {

// Polls until pred() holds; false when limit passes first.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds limit = hang_limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

// The final status of event (CL_COMPLETE or negative), polled so that a hang
// fails the test. CL_QUEUED if the event never finished.
inline cl_int wait_final(cl_event event, std::chrono::milliseconds limit = hang_limit) {
    cl_int status = CL_QUEUED;
    const bool done = eventually(
        [&] {
            status = event_status(event);
            return status <= CL_COMPLETE;
        },
        limit);
    return done ? status : CL_QUEUED;
}

// A counter that threads bump and a test waits on with a limit.
class Signal {
public:
    // Notifies under the lock: a waiter that sees the count may destroy the
    // Signal as soon as it returns, so nothing may touch it after the unlock.
    void notify() {
        std::lock_guard lock(mutex_);
        ++count_;
        changed_.notify_all();
    }
    bool wait_for(unsigned count, std::chrono::milliseconds limit = hang_limit) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return count_ >= count; });
    }
    unsigned count() {
        std::lock_guard lock(mutex_);
        return count_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    unsigned count_ = 0;
};

} // namespace cl_test
