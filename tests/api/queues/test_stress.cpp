// Eight threads enqueue, flush, finish, wait and release at the same time, on
// queues they share and on queues of their own, with wait lists that name
// each other's events. Every command runs exactly once, in-order queues keep
// each thread's commands in order, and everything drains.
#include "queue_test.hpp"

#include <map>
#include <random>

using namespace cl_test;
using namespace queue_test;

namespace {

struct Counters {
    std::atomic<int> runs{0};
    std::mutex mutex;
    std::map<int, std::vector<int>> in_order_sequence; // thread -> sequence numbers seen
};

struct KernelArgs {
    Counters* counters;
    int thread;
    int sequence; // >= 0: record it (commands of the shared in-order queue)
};

void CL_CALLBACK count_kernel(void* raw) {
    KernelArgs args;
    std::memcpy(&args, raw, sizeof args);
    if (args.sequence >= 0) {
        std::lock_guard lock(args.counters->mutex);
        args.counters->in_order_sequence[args.thread].push_back(args.sequence);
    }
    ++args.counters->runs;
}

// Recent events any thread may put in a wait list (each holds a reference).
class SharedEvents {
public:
    ~SharedEvents() {
        for (cl_event event : events_)
            clReleaseEvent(event);
    }
    void put(cl_event event) {
        clRetainEvent(event);
        std::lock_guard lock(mutex_);
        if (events_.size() < 16) {
            events_.push_back(event);
            return;
        }
        std::swap(events_[next_++ % events_.size()], event);
        clReleaseEvent(event);
    }
    // A retained event, or NULL.
    cl_event take(unsigned pick) {
        std::lock_guard lock(mutex_);
        if (events_.empty())
            return nullptr;
        cl_event event = events_[pick % events_.size()];
        clRetainEvent(event);
        return event;
    }

private:
    std::mutex mutex_;
    std::vector<cl_event> events_;
    size_t next_ = 0;
};

} // namespace

TEST_CASE("8 threads enqueue, flush, finish and release on shared and private queues", "[stress]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr shared_in_order = make_queue(context.get(), dev, CL_QUEUE_PROFILING_ENABLE);
    QueuePtr shared_out_of_order =
        make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    Counters counters;
    SharedEvents shared_events;
    std::atomic<int> enqueued{0};
    std::atomic<int> failures{0};
    constexpr int thread_count = 8;
    constexpr int iterations = 1500;

    auto worker = [&](int thread) {
        std::mt19937 random(static_cast<unsigned>(thread) * 7919u + 1);
        auto check = [&](cl_int result) {
            if (result != CL_SUCCESS)
                ++failures;
        };
        auto enqueue = [&](cl_command_queue queue, int sequence, cl_event wait) {
            KernelArgs args{&counters, thread, sequence};
            cl_event event = nullptr;
            check(clEnqueueNativeKernel(queue, count_kernel, &args, sizeof args, 0, nullptr,
                                        nullptr, wait ? 1 : 0, wait ? &wait : nullptr, &event));
            ++enqueued;
            return event;
        };
        auto new_private_queue = [&] {
            cl_int error = CL_SUCCESS;
            const cl_queue_properties properties[] = {
                CL_QUEUE_PROPERTIES,
                thread % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : cl_queue_properties{0}, 0};
            cl_command_queue queue =
                clCreateCommandQueueWithProperties(context.get(), dev, properties, &error);
            check(error);
            return queue;
        };
        cl_command_queue own = new_private_queue();
        std::vector<cl_event> held;
        int sequence = 0;
        for (int i = 0; i < iterations; ++i) {
            switch (random() % 10) {
            case 0:
            case 1: {
                cl_event event = enqueue(shared_in_order.get(), sequence++, nullptr);
                shared_events.put(event);
                held.push_back(event);
                break;
            }
            case 2: {
                cl_event wait = shared_events.take(random());
                cl_event marker = nullptr;
                check(clEnqueueMarkerWithWaitList(shared_out_of_order.get(), wait ? 1 : 0,
                                                  wait ? &wait : nullptr, &marker));
                held.push_back(marker);
                if (wait)
                    clReleaseEvent(wait);
                break;
            }
            case 3: {
                cl_event wait = shared_events.take(random());
                held.push_back(enqueue(own, -1, wait));
                if (wait)
                    clReleaseEvent(wait);
                break;
            }
            case 4: check(clFlush(random() % 2 ? shared_in_order.get() : own)); break;
            case 5: check(clFinish(own)); break;
            case 6:
                for (cl_event event : held)
                    check(clReleaseEvent(event));
                held.clear();
                break;
            case 7:
                if (random() % 4 == 0)
                    check(clEnqueueBarrierWithWaitList(shared_out_of_order.get(), 0, nullptr,
                                                       nullptr));
                else
                    clReleaseEvent(enqueue(shared_out_of_order.get(), -1, nullptr));
                break;
            case 8:
                if (!held.empty())
                    check(clWaitForEvents(1, &held[random() % held.size()]));
                break;
            case 9:
                if (random() % 8 == 0) {
                    check(clReleaseCommandQueue(own)); // with commands in flight
                    own = new_private_queue();
                } else if (random() % 4 == 0) {
                    check(clFinish(shared_out_of_order.get()));
                }
                break;
            }
        }
        check(clFinish(own));
        check(clReleaseCommandQueue(own));
        for (cl_event event : held)
            check(clReleaseEvent(event));
    };

    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t)
        threads.emplace_back(worker, t);
    for (std::thread& thread : threads)
        thread.join();
    REQUIRE_OK(clFinish(shared_in_order.get()));
    REQUIRE_OK(clFinish(shared_out_of_order.get()));

    CHECK(failures == 0);
    CHECK(counters.runs == enqueued);
    for (const auto& [thread, sequence] : counters.in_order_sequence) {
        INFO("thread " << thread);
        // Each command once, in the order the thread enqueued them.
        std::vector<int> expected(sequence.size());
        for (size_t i = 0; i < expected.size(); ++i)
            expected[i] = static_cast<int>(i);
        CHECK(sequence == expected);
    }
}

TEST_CASE("8 threads hammer one in-order queue and finish it", "[stress]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    Counters counters;
    std::atomic<int> failures{0};
    constexpr int thread_count = 8;
    constexpr int per_thread = 2000;
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                KernelArgs args{&counters, t, i};
                cl_int result =
                    i % 5 == 4
                        ? clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, nullptr)
                        : clEnqueueNativeKernel(queue.get(), count_kernel, &args, sizeof args, 0,
                                                nullptr, nullptr, 0, nullptr, nullptr);
                if (result == CL_SUCCESS && i % 50 == 0)
                    result = clFinish(queue.get());
                if (result != CL_SUCCESS)
                    ++failures;
            }
        });
    for (std::thread& thread : threads)
        thread.join();
    REQUIRE_OK(clFinish(queue.get()));
    CHECK(failures == 0);
    CHECK(counters.runs == thread_count * per_thread * 4 / 5);
    for (const auto& [thread, sequence] : counters.in_order_sequence) {
        INFO("thread " << thread);
        CHECK(std::is_sorted(sequence.begin(), sequence.end()));
    }
}
