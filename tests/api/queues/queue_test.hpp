// Helpers of the command queue and event tests: owning handles, native
// kernels that run a test's lambda, bounded waits (a hang fails the test
// instead of hanging it) and typed queries.
#pragma once

#include "cl_handles.hpp"
#include "event_polling.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace queue_test {

using namespace std::chrono_literals;
using cl_test::ContextPtr;

using cl_test::EventPtr;
using cl_test::eventually;
using cl_test::hang_limit;
using cl_test::make_queue;
using cl_test::make_user_event;
using cl_test::QueuePtr;
using cl_test::Signal;
using cl_test::wait_final;

inline cl_int status_of(cl_event event) {
    return cl_test::event_status(event);
}

inline ContextPtr make_context(cl_device_id device) {
    return cl_test::make_context({device});
}

// A scalar clGet*Info answer whose size must be exactly sizeof(T).
template <class T, class Handle, class Param>
T query(cl_int(CL_API_CALL* get)(Handle, Param, size_t, void*, size_t*), Handle handle,
        cl_uint param) {
    static_assert(std::is_trivially_copyable_v<T>);
    INFO("param 0x" << std::hex << param);
    size_t size = 0;
    REQUIRE_OK(get(handle, static_cast<Param>(param), 0, nullptr, &size));
    REQUIRE(size == sizeof(T));
    T value{};
    REQUIRE_OK(get(handle, static_cast<Param>(param), sizeof value, &value, &size));
    REQUIRE(size == sizeof(T));
    return value;
}

template <class T>
T queue_info(cl_command_queue queue, cl_command_queue_info param) {
    return query<T>(clGetCommandQueueInfo, queue, param);
}

template <class T>
T event_info(cl_event event, cl_event_info param) {
    return query<T>(clGetEventInfo, event, param);
}

inline cl_ulong profile(cl_event event, cl_profiling_info param) {
    cl_ulong value = 0;
    size_t size = 0;
    REQUIRE_OK(clGetEventProfilingInfo(event, param, sizeof value, &value, &size));
    REQUIRE(size == sizeof value);
    return value;
}

// A native kernel that runs a test's lambda: args holds a pointer to the
// Task, which the test keeps alive until the command has finished.
using Task = std::function<void()>;

inline void CL_CALLBACK run_task(void* args) {
    Task* task = nullptr;
    std::memcpy(&task, args, sizeof task);
    (*task)();
}

// Enqueues task after wait_list; returns the command's event.
inline EventPtr enqueue_task(cl_command_queue queue, Task& task,
                             const std::vector<cl_event>& wait_list = {}) {
    Task* pointer = &task;
    cl_event event = nullptr;
    REQUIRE_OK(clEnqueueNativeKernel(queue, run_task, &pointer, sizeof pointer, 0, nullptr, nullptr,
                                     static_cast<cl_uint>(wait_list.size()),
                                     wait_list.empty() ? nullptr : wait_list.data(), &event));
    REQUIRE(event != nullptr);
    return EventPtr(event);
}

inline EventPtr enqueue_marker(cl_command_queue queue,
                               const std::vector<cl_event>& wait_list = {}) {
    cl_event event = nullptr;
    REQUIRE_OK(clEnqueueMarkerWithWaitList(queue, static_cast<cl_uint>(wait_list.size()),
                                           wait_list.empty() ? nullptr : wait_list.data(), &event));
    REQUIRE(event != nullptr);
    return EventPtr(event);
}

inline EventPtr enqueue_barrier(cl_command_queue queue,
                                const std::vector<cl_event>& wait_list = {}) {
    cl_event event = nullptr;
    REQUIRE_OK(clEnqueueBarrierWithWaitList(queue, static_cast<cl_uint>(wait_list.size()),
                                            wait_list.empty() ? nullptr : wait_list.data(),
                                            &event));
    REQUIRE(event != nullptr);
    return EventPtr(event);
}

// CL_DEVICE_MAX_COMPUTE_UNITS: how many commands the device runs at once.
inline cl_uint compute_units(cl_device_id device) {
    cl_uint units = 0;
    REQUIRE_OK(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr));
    REQUIRE(units >= 1);
    return units;
}

// Counts how many tasks run at the same time, and the most ever seen.
class Concurrency {
public:
    void enter() {
        const unsigned now = ++running_;
        unsigned seen = most_.load();
        while (now > seen && !most_.compare_exchange_weak(seen, now)) {
        }
    }
    void leave() { --running_; }
    unsigned most() const { return most_.load(); }

private:
    std::atomic<unsigned> running_{0};
    std::atomic<unsigned> most_{0};
};

// A log of integers appended under a lock (the order commands ran in).
class Log {
public:
    void append(int value) {
        std::lock_guard lock(mutex_);
        values_.push_back(value);
    }
    std::vector<int> values() {
        std::lock_guard lock(mutex_);
        return values_;
    }

private:
    std::mutex mutex_;
    std::vector<int> values_;
};

} // namespace queue_test
