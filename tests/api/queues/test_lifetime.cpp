// Releasing queues, events, contexts and sub-devices while their commands
// are still in flight: the work finishes, nothing crashes, and the objects
// are destroyed afterwards (the context's destructor callback proves it; the
// sanitizer run checks that nothing leaks).
#include "queue_test.hpp"

using namespace cl_test;
using namespace queue_test;

namespace {

void CL_CALLBACK context_destroyed(cl_context, void* user_data) {
    static_cast<Signal*>(user_data)->notify();
}

cl_context raw_context(const std::vector<cl_device_id>& devices, Signal& destroyed) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_context context = clCreateContext(nullptr, static_cast<cl_uint>(devices.size()),
                                         devices.data(), nullptr, nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(clSetContextDestructorCallback(context, context_destroyed, &destroyed));
    return context;
}

cl_command_queue raw_queue(cl_context context, cl_device_id device,
                           cl_command_queue_properties properties) {
    return make_queue(context, device, properties).release();
}

} // namespace

TEST_CASE("queues, events and the context released with commands in flight", "[lifetime]") {
    const cl_device_id dev = device();
    Signal destroyed;
    std::atomic<int> runs{0};
    Task sleeper = [&] {
        std::this_thread::sleep_for(20ms);
        ++runs;
    };
    {
        cl_context context = raw_context({dev}, destroyed);
        cl_command_queue in_order = raw_queue(context, dev, CL_QUEUE_PROFILING_ENABLE);
        cl_command_queue out_of_order =
            raw_queue(context, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        EventPtr gate = make_user_event(context);
        std::vector<cl_event> events;
        for (int i = 0; i < 4; ++i)
            events.push_back(enqueue_task(in_order, sleeper, {gate.get()}).release());
        events.push_back(enqueue_marker(out_of_order, {events.back()}).release());
        events.push_back(enqueue_task(out_of_order, sleeper, {events.back()}).release());
        events.push_back(enqueue_barrier(out_of_order).release());
        events.push_back(enqueue_task(out_of_order, sleeper).release());
        // Everything the application holds goes, except the gate.
        for (cl_event event : events)
            REQUIRE_OK(clReleaseEvent(event));
        REQUIRE_OK(clReleaseCommandQueue(in_order));
        REQUIRE_OK(clReleaseCommandQueue(out_of_order));
        REQUIRE_OK(clReleaseContext(context));
        CHECK(destroyed.count() == 0); // the pending commands keep it alive
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    }
    REQUIRE(destroyed.wait_for(1));
    CHECK(runs == 6);
}

TEST_CASE("a queue keeps working after its context was released", "[lifetime]") {
    const cl_device_id dev = device();
    Signal destroyed;
    std::atomic<int> runs{0};
    Task task = [&] { ++runs; };
    cl_context context = raw_context({dev}, destroyed);
    QueuePtr queue = make_queue(context, dev);
    EventPtr gate = make_user_event(context);
    REQUIRE_OK(clReleaseContext(context));
    CHECK(destroyed.count() == 0);
    EventPtr event = enqueue_task(queue.get(), task);
    EventPtr marker = enqueue_marker(queue.get(), {gate.get()});
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    CHECK_OK(clFinish(queue.get()));
    CHECK(runs == 1);
    CHECK(queue_info<cl_context>(queue.get(), CL_QUEUE_CONTEXT) == context);
    event.reset();
    marker.reset();
    gate.reset();
    queue.reset();
    REQUIRE(destroyed.wait_for(1));
}

TEST_CASE("an event outlives its queue and context", "[lifetime]") {
    const cl_device_id dev = device();
    Signal destroyed;
    cl_context context = raw_context({dev}, destroyed);
    cl_command_queue queue = raw_queue(context, dev, CL_QUEUE_PROFILING_ENABLE);
    EventPtr marker = enqueue_marker(queue);
    REQUIRE_OK(clReleaseCommandQueue(queue));
    REQUIRE_OK(clReleaseContext(context));
    CHECK(wait_final(marker.get()) == CL_COMPLETE);
    // The event still answers, naming its (released) queue and context.
    CHECK(event_info<cl_command_queue>(marker.get(), CL_EVENT_COMMAND_QUEUE) == queue);
    CHECK(event_info<cl_context>(marker.get(), CL_EVENT_CONTEXT) == context);
    CHECK(profile(marker.get(), CL_PROFILING_COMMAND_END) > 0);
    CHECK(destroyed.count() == 0);
    marker.reset();
    REQUIRE(destroyed.wait_for(1));
}

TEST_CASE("a sub-device, its context and queue released while its workers run commands",
          "[lifetime][sub-device]") {
    const cl_device_id dev = device();
    if (compute_units(dev) < 2) {
        WARN("one compute unit: nothing to partition");
        return;
    }
    Signal destroyed;
    std::atomic<int> runs{0};
    Task sleeper = [&] {
        std::this_thread::sleep_for(20ms);
        ++runs;
    };
    for (int round = 0; round < 3; ++round) {
        std::vector<DevicePtr> subs = create_sub_devices(dev, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
        REQUIRE(!subs.empty());
        cl_device_id sub = subs[0].get();
        cl_context context = raw_context({sub}, destroyed);
        cl_command_queue queue = raw_queue(context, sub, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        for (int i = 0; i < 3; ++i)
            clReleaseEvent(enqueue_task(queue, sleeper).release());
        // The last references go while the commands run: the sub-device and
        // its workers are destroyed by the last command to finish.
        REQUIRE_OK(clReleaseCommandQueue(queue));
        REQUIRE_OK(clReleaseContext(context));
        subs.clear();
        REQUIRE(destroyed.wait_for(round + 1));
    }
    CHECK(runs == 9);
}

TEST_CASE("many short-lived queues and contexts", "[lifetime]") {
    const cl_device_id dev = device();
    Signal destroyed;
    std::atomic<int> runs{0};
    Task task = [&] { ++runs; };
    constexpr unsigned rounds = 50;
    for (unsigned i = 0; i < rounds; ++i) {
        cl_context context = raw_context({dev}, destroyed);
        cl_command_queue queue =
            raw_queue(context, dev, i % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        clReleaseEvent(enqueue_task(queue, task).release());
        clReleaseEvent(enqueue_marker(queue).release());
        if (i % 3 == 0)
            REQUIRE_OK(clFinish(queue));
        REQUIRE_OK(clReleaseContext(context));
        REQUIRE_OK(clReleaseCommandQueue(queue));
    }
    REQUIRE(destroyed.wait_for(rounds));
    CHECK(runs == static_cast<int>(rounds));
}
