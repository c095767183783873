// clGetEventProfilingInfo: QUEUED <= SUBMIT <= START <= END <= COMPLETE, on
// the clock of clGetDeviceAndHostTimer; CL_PROFILING_INFO_NOT_AVAILABLE
// without profiling, for user events and before completion.
#include "queue_test.hpp"

using namespace cl_test;
using namespace queue_test;

namespace {

constexpr cl_profiling_info all_stamps[] = {
    CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,   CL_PROFILING_COMMAND_START,
    CL_PROFILING_COMMAND_END,    CL_PROFILING_COMMAND_COMPLETE,
};

cl_ulong device_time(cl_device_id device) {
    cl_ulong device_stamp = 0;
    cl_ulong host_stamp = 0;
    REQUIRE_OK(clGetDeviceAndHostTimer(device, &device_stamp, &host_stamp));
    return device_stamp;
}

std::vector<cl_ulong> stamps_of(cl_event event) {
    std::vector<cl_ulong> stamps;
    for (cl_profiling_info param : all_stamps)
        stamps.push_back(profile(event, param));
    return stamps;
}

void check_not_available(cl_event event) {
    for (cl_profiling_info param : all_stamps) {
        INFO("param 0x" << std::hex << param);
        cl_ulong stamp = 0;
        CHECK_CL(clGetEventProfilingInfo(event, param, sizeof stamp, &stamp, nullptr),
                 CL_PROFILING_INFO_NOT_AVAILABLE);
        size_t size = 0;
        CHECK_CL(clGetEventProfilingInfo(event, param, 0, nullptr, &size),
                 CL_PROFILING_INFO_NOT_AVAILABLE);
    }
}

} // namespace

TEST_CASE("profiling timestamps are ordered and on the device timer's clock", "[profiling]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    const cl_command_queue_properties mode =
        GENERATE(cl_command_queue_properties{CL_QUEUE_PROFILING_ENABLE},
                 cl_command_queue_properties{CL_QUEUE_PROFILING_ENABLE |
                                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE});
    INFO("queue properties " << mode);
    QueuePtr queue = make_queue(context.get(), dev, mode);
    constexpr auto work_time = 10ms;
    Task task = [&] { std::this_thread::sleep_for(work_time); };

    const cl_ulong before = device_time(dev);
    EventPtr gate = make_user_event(context.get());
    EventPtr held = enqueue_task(queue.get(), task, {gate.get()});
    EventPtr marker = enqueue_marker(queue.get(), {held.get()});
    EventPtr free_running = enqueue_task(queue.get(), task);
    std::this_thread::sleep_for(5ms);
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    for (cl_event event : {held.get(), marker.get(), free_running.get()})
        REQUIRE(wait_final(event) == CL_COMPLETE);
    const cl_ulong after = device_time(dev);

    for (cl_event event : {held.get(), marker.get(), free_running.get()}) {
        INFO("command type " << event_info<cl_command_type>(event, CL_EVENT_COMMAND_TYPE));
        const std::vector<cl_ulong> stamps = stamps_of(event);
        CHECK(before <= stamps.front());
        CHECK(std::is_sorted(stamps.begin(), stamps.end()));
        CHECK(stamps.back() <= after);
    }
    // The held command started only after the gate opened, and took its time.
    const cl_ulong held_start = profile(held.get(), CL_PROFILING_COMMAND_START);
    const cl_ulong held_end = profile(held.get(), CL_PROFILING_COMMAND_END);
    CHECK(held_start - profile(held.get(), CL_PROFILING_COMMAND_QUEUED) >= 5'000'000u);
    CHECK(held_end - held_start >= 10'000'000u);
    // The marker ran after what it waited for.
    CHECK(profile(marker.get(), CL_PROFILING_COMMAND_START) >= held_end);
}

TEST_CASE("profiling in an in-order queue: each command starts after the previous one ended",
          "[profiling]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_PROFILING_ENABLE);
    Task task = [] { std::this_thread::sleep_for(1ms); };
    std::vector<EventPtr> events;
    for (int i = 0; i < 10; ++i)
        events.push_back(i % 3 == 2 ? enqueue_marker(queue.get())
                                    : enqueue_task(queue.get(), task));
    REQUIRE_OK(clFinish(queue.get()));
    for (size_t i = 1; i < events.size(); ++i) {
        INFO("command " << i);
        CHECK(profile(events[i].get(), CL_PROFILING_COMMAND_START) >=
              profile(events[i - 1].get(), CL_PROFILING_COMMAND_END));
    }
}

TEST_CASE("CL_PROFILING_INFO_NOT_AVAILABLE", "[profiling][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    Task task = [] {};

    SECTION("a queue without profiling") {
        QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        EventPtr event = enqueue_task(queue.get(), task);
        EventPtr marker = enqueue_marker(queue.get());
        REQUIRE(wait_final(event.get()) == CL_COMPLETE);
        REQUIRE(wait_final(marker.get()) == CL_COMPLETE);
        check_not_available(event.get());
        check_not_available(marker.get());
    }
    SECTION("user events") {
        EventPtr event = make_user_event(context.get());
        check_not_available(event.get());
        REQUIRE_OK(clSetUserEventStatus(event.get(), CL_COMPLETE));
        check_not_available(event.get());
    }
    SECTION("before the command has completed") {
        QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_PROFILING_ENABLE);
        EventPtr gate = make_user_event(context.get());
        EventPtr event = enqueue_task(queue.get(), task, {gate.get()});
        check_not_available(event.get());
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(wait_final(event.get()) == CL_COMPLETE);
        const std::vector<cl_ulong> stamps = stamps_of(event.get());
        CHECK(std::is_sorted(stamps.begin(), stamps.end()));
    }
}

TEST_CASE("clGetEventProfilingInfo rejects bad arguments", "[profiling][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_PROFILING_ENABLE);
    EventPtr marker = enqueue_marker(queue.get());
    REQUIRE(wait_final(marker.get()) == CL_COMPLETE);
    cl_ulong stamp = 0;
    CHECK_CL(clGetEventProfilingInfo(marker.get(), 0x7fff, sizeof stamp, &stamp, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clGetEventProfilingInfo(marker.get(), CL_PROFILING_COMMAND_END, sizeof stamp - 1,
                                     &stamp, nullptr),
             CL_INVALID_VALUE);
    size_t size = 0;
    CHECK_OK(clGetEventProfilingInfo(marker.get(), CL_PROFILING_COMMAND_END, 0, nullptr, &size));
    CHECK(size == sizeof(cl_ulong));
    const cl_icd_dispatch& driver = dispatch_of(marker.get());
    CHECK_CL(driver.clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_END, sizeof stamp, &stamp,
                                            nullptr),
             CL_INVALID_EVENT);
    FakeObject fake(marker.get(), 0x10);
    CHECK_CL(clGetEventProfilingInfo(fake.as<cl_event>(), CL_PROFILING_COMMAND_END, sizeof stamp,
                                     &stamp, nullptr),
             CL_INVALID_EVENT);
}
