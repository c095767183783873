// Events: clGetEventInfo, the status a command moves through,
// clRetainEvent/clReleaseEvent, user events (clCreateUserEvent,
// clSetUserEventStatus) gating work across queues, and clWaitForEvents.
#include "queue_test.hpp"

using namespace cl_test;
using namespace queue_test;

TEST_CASE("a command moves through QUEUED/SUBMITTED, RUNNING and COMPLETE", "[event][status]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    EventPtr gate = make_user_event(context.get());
    std::atomic<bool> release{false};
    std::atomic<bool> started{false};
    Task task = [&] {
        started = true;
        while (!release)
            std::this_thread::sleep_for(100us);
    };
    EventPtr event = enqueue_task(queue.get(), task, {gate.get()});
    // Waiting for its wait list: queued or submitted, not running.
    const cl_int waiting = status_of(event.get());
    CHECK((waiting == CL_QUEUED || waiting == CL_SUBMITTED));
    REQUIRE_OK(clFlush(queue.get()));
    CHECK(status_of(event.get()) == CL_SUBMITTED);
    std::this_thread::sleep_for(20ms);
    CHECK_FALSE(started);

    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    REQUIRE(eventually([&] { return status_of(event.get()) == CL_RUNNING; }));
    CHECK(started);
    release = true;
    CHECK(wait_final(event.get()) == CL_COMPLETE);
}

TEST_CASE("clGetEventInfo answers every query", "[event][info]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);

    SECTION("a command's event") {
        Task nothing = [] {};
        EventPtr event = enqueue_task(queue.get(), nothing);
        REQUIRE_OK(clWaitForEvents(1, std::vector<cl_event>{event.get()}.data()));
        CHECK(event_info<cl_command_queue>(event.get(), CL_EVENT_COMMAND_QUEUE) == queue.get());
        CHECK(event_info<cl_context>(event.get(), CL_EVENT_CONTEXT) == context.get());
        CHECK(event_info<cl_command_type>(event.get(), CL_EVENT_COMMAND_TYPE) ==
              CL_COMMAND_NATIVE_KERNEL);
        CHECK(event_info<cl_int>(event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS) == CL_COMPLETE);
        CHECK(event_info<cl_uint>(event.get(), CL_EVENT_REFERENCE_COUNT) == 1);
    }
    SECTION("a user event") {
        EventPtr event = make_user_event(context.get());
        CHECK(event_info<cl_command_queue>(event.get(), CL_EVENT_COMMAND_QUEUE) == nullptr);
        CHECK(event_info<cl_context>(event.get(), CL_EVENT_CONTEXT) == context.get());
        CHECK(event_info<cl_command_type>(event.get(), CL_EVENT_COMMAND_TYPE) == CL_COMMAND_USER);
        CHECK(event_info<cl_int>(event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS) == CL_SUBMITTED);
        CHECK(event_info<cl_uint>(event.get(), CL_EVENT_REFERENCE_COUNT) == 1);
        REQUIRE_OK(clSetUserEventStatus(event.get(), -17));
        CHECK(event_info<cl_int>(event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS) == -17);
    }
    SECTION("marker and barrier events") {
        EventPtr marker = enqueue_marker(queue.get());
        EventPtr barrier = enqueue_barrier(queue.get());
        CHECK(event_info<cl_command_type>(marker.get(), CL_EVENT_COMMAND_TYPE) ==
              CL_COMMAND_MARKER);
        CHECK(event_info<cl_command_type>(barrier.get(), CL_EVENT_COMMAND_TYPE) ==
              CL_COMMAND_BARRIER);
        CHECK(wait_final(barrier.get()) == CL_COMPLETE);
    }
    SECTION("bad queries") {
        EventPtr event = make_user_event(context.get());
        cl_int value = 0;
        CHECK_CL(clGetEventInfo(event.get(), 0x7fff, sizeof value, &value, nullptr),
                 CL_INVALID_VALUE);
        cl_context small = nullptr;
        CHECK_CL(clGetEventInfo(event.get(), CL_EVENT_CONTEXT, sizeof small - 1, &small, nullptr),
                 CL_INVALID_VALUE);
        CHECK(small == nullptr);
        size_t size = 0;
        const cl_icd_dispatch& driver = dispatch_of(event.get());
        CHECK_CL(driver.clGetEventInfo(nullptr, CL_EVENT_CONTEXT, 0, nullptr, &size),
                 CL_INVALID_EVENT);
        FakeObject fake(event.get(), 0x42);
        CHECK_CL(clGetEventInfo(fake.as<cl_event>(), CL_EVENT_CONTEXT, 0, nullptr, &size),
                 CL_INVALID_EVENT);
        CHECK_CL(clGetEventInfo(reinterpret_cast<cl_event>(queue.get()), CL_EVENT_CONTEXT, 0,
                                nullptr, &size),
                 CL_INVALID_EVENT);
    }
}

TEST_CASE("clRetainEvent and clReleaseEvent count references", "[event][refcount]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    EventPtr event = make_user_event(context.get());
    REQUIRE_OK(clRetainEvent(event.get()));
    REQUIRE_OK(clRetainEvent(event.get()));
    CHECK(event_info<cl_uint>(event.get(), CL_EVENT_REFERENCE_COUNT) == 3);
    REQUIRE_OK(clReleaseEvent(event.get()));
    REQUIRE_OK(clReleaseEvent(event.get()));
    CHECK(event_info<cl_uint>(event.get(), CL_EVENT_REFERENCE_COUNT) == 1);

    const cl_icd_dispatch& driver = dispatch_of(event.get());
    CHECK_CL(driver.clRetainEvent(nullptr), CL_INVALID_EVENT);
    CHECK_CL(driver.clReleaseEvent(nullptr), CL_INVALID_EVENT);
    CHECK_CL(clRetainEvent(nullptr), CL_INVALID_EVENT);
    CHECK_CL(clReleaseEvent(nullptr), CL_INVALID_EVENT);
    FakeObject fake(event.get(), 0x01);
    CHECK_CL(clRetainEvent(fake.as<cl_event>()), CL_INVALID_EVENT);
    CHECK_CL(clReleaseEvent(fake.as<cl_event>()), CL_INVALID_EVENT);
    CHECK_CL(clRetainEvent(reinterpret_cast<cl_event>(context.get())), CL_INVALID_EVENT);
}

TEST_CASE("a user event gates work in two queues of one context", "[event][user]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr q1 = make_queue(context.get(), dev);
    QueuePtr q2 = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    EventPtr gate = make_user_event(context.get());
    std::atomic<int> runs{0};
    Task task = [&] { ++runs; };
    EventPtr a = enqueue_task(q1.get(), task, {gate.get()});
    EventPtr b = enqueue_task(q2.get(), task, {gate.get()});
    EventPtr after_a = enqueue_task(q1.get(), task); // in order after a
    EventPtr marker = enqueue_marker(q2.get(), {a.get(), gate.get()});
    REQUIRE_OK(clFlush(q1.get()));
    REQUIRE_OK(clFlush(q2.get()));
    std::this_thread::sleep_for(50ms);
    CHECK(runs == 0);
    CHECK(status_of(marker.get()) > CL_COMPLETE);

    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    const cl_event all[] = {a.get(), b.get(), after_a.get(), marker.get()};
    REQUIRE(eventually([&] { return status_of(marker.get()) == CL_COMPLETE; }));
    CHECK_OK(clWaitForEvents(4, all));
    CHECK(runs == 3);
    CHECK(status_of(gate.get()) == CL_COMPLETE);
}

TEST_CASE("clCreateUserEvent and clSetUserEventStatus reject bad arguments",
          "[event][user][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);

    SECTION("clCreateUserEvent: context not valid") {
        const cl_icd_dispatch& driver = dispatch_of(context.get());
        cl_int error = CL_SUCCESS;
        CHECK(driver.clCreateUserEvent(nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_CONTEXT);
        error = CL_SUCCESS;
        CHECK(clCreateUserEvent(nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_CONTEXT);
        FakeObject fake(context.get(), 0x3c);
        error = CL_SUCCESS;
        CHECK(clCreateUserEvent(fake.as<cl_context>(), &error) == nullptr);
        CHECK_CL(error, CL_INVALID_CONTEXT);
        EventPtr ok(clCreateUserEvent(context.get(), nullptr)); // errcode_ret may be NULL
        CHECK(ok);
    }
    SECTION("not a user event: CL_INVALID_EVENT") {
        EventPtr marker = enqueue_marker(queue.get());
        CHECK_CL(clSetUserEventStatus(marker.get(), CL_COMPLETE), CL_INVALID_EVENT);
        CHECK_CL(clSetUserEventStatus(marker.get(), -1), CL_INVALID_EVENT);
        const cl_icd_dispatch& driver = dispatch_of(marker.get());
        CHECK_CL(driver.clSetUserEventStatus(nullptr, CL_COMPLETE), CL_INVALID_EVENT);
        FakeObject fake(marker.get(), 0xee);
        CHECK_CL(clSetUserEventStatus(fake.as<cl_event>(), CL_COMPLETE), CL_INVALID_EVENT);
        CHECK_CL(clSetUserEventStatus(reinterpret_cast<cl_event>(context.get()), CL_COMPLETE),
                 CL_INVALID_EVENT);
    }
    SECTION("a status other than CL_COMPLETE or negative: CL_INVALID_VALUE") {
        EventPtr event = make_user_event(context.get());
        for (cl_int status : {CL_SUBMITTED, CL_RUNNING, CL_QUEUED, 4, 1000})
            CHECK_CL(clSetUserEventStatus(event.get(), status), CL_INVALID_VALUE);
        CHECK(status_of(event.get()) == CL_SUBMITTED); // unchanged
        CHECK_OK(clSetUserEventStatus(event.get(), CL_COMPLETE));
    }
    SECTION("a second call: CL_INVALID_OPERATION") {
        EventPtr done = make_user_event(context.get());
        REQUIRE_OK(clSetUserEventStatus(done.get(), CL_COMPLETE));
        CHECK_CL(clSetUserEventStatus(done.get(), CL_COMPLETE), CL_INVALID_OPERATION);
        CHECK_CL(clSetUserEventStatus(done.get(), -5), CL_INVALID_OPERATION);
        CHECK(status_of(done.get()) == CL_COMPLETE);
        EventPtr failed = make_user_event(context.get());
        REQUIRE_OK(clSetUserEventStatus(failed.get(), -5));
        CHECK_CL(clSetUserEventStatus(failed.get(), CL_COMPLETE), CL_INVALID_OPERATION);
        CHECK(status_of(failed.get()) == -5);
    }
    SECTION("threads racing to set the status: exactly one wins") {
        EventPtr event = make_user_event(context.get());
        std::atomic<int> wins{0};
        std::atomic<int> refused{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i)
            threads.emplace_back([&, i] {
                const cl_int result = clSetUserEventStatus(event.get(), i % 2 ? -1 : CL_COMPLETE);
                if (result == CL_SUCCESS)
                    ++wins;
                else if (result == CL_INVALID_OPERATION)
                    ++refused;
            });
        for (std::thread& thread : threads)
            thread.join();
        CHECK(wins == 1);
        CHECK(refused == 3);
    }
}

TEST_CASE("clWaitForEvents", "[event][wait]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);

    SECTION("waits for every listed event") {
        EventPtr gate = make_user_event(context.get());
        std::atomic<int> runs{0};
        Task task = [&] {
            std::this_thread::sleep_for(10ms);
            ++runs;
        };
        EventPtr a = enqueue_task(queue.get(), task, {gate.get()});
        EventPtr b = enqueue_task(queue.get(), task);
        std::thread opener([&] {
            std::this_thread::sleep_for(30ms);
            clSetUserEventStatus(gate.get(), CL_COMPLETE);
        });
        const cl_event list[] = {b.get(), a.get(), gate.get()};
        CHECK_OK(clWaitForEvents(3, list));
        opener.join();
        CHECK(runs == 2);
        CHECK(status_of(a.get()) == CL_COMPLETE);
    }
    SECTION("no events: CL_INVALID_VALUE") {
        EventPtr event = make_user_event(context.get());
        cl_event list[] = {event.get()};
        CHECK_CL(clWaitForEvents(0, list), CL_INVALID_VALUE);
        CHECK_CL(clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
        CHECK_CL(clWaitForEvents(0, nullptr), CL_INVALID_VALUE);
        const cl_icd_dispatch& driver = dispatch_of(event.get());
        CHECK_CL(driver.clWaitForEvents(0, list), CL_INVALID_VALUE);
        CHECK_CL(driver.clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
        CHECK_CL(driver.clWaitForEvents(0, nullptr), CL_INVALID_VALUE);
    }
    SECTION("an invalid event: CL_INVALID_EVENT, without waiting") {
        EventPtr pending = make_user_event(context.get()); // never set: waiting would hang
        FakeObject fake(pending.get(), 0x21);
        const cl_event list[] = {pending.get(), fake.as<cl_event>()};
        CHECK_CL(clWaitForEvents(2, list), CL_INVALID_EVENT);
        const cl_event with_null[] = {pending.get(), nullptr};
        CHECK_CL(clWaitForEvents(2, with_null), CL_INVALID_EVENT);
        const cl_event wrong_type[] = {pending.get(), reinterpret_cast<cl_event>(queue.get())};
        CHECK_CL(clWaitForEvents(2, wrong_type), CL_INVALID_EVENT);
        REQUIRE_OK(clSetUserEventStatus(pending.get(), CL_COMPLETE));
    }
    SECTION("events of different contexts: CL_INVALID_CONTEXT, without waiting") {
        ContextPtr other = make_context(dev);
        EventPtr mine = make_user_event(context.get());
        EventPtr theirs = make_user_event(other.get());
        const cl_event list[] = {mine.get(), theirs.get()};
        CHECK_CL(clWaitForEvents(2, list), CL_INVALID_CONTEXT);
        REQUIRE_OK(clSetUserEventStatus(mine.get(), CL_COMPLETE));
        REQUIRE_OK(clSetUserEventStatus(theirs.get(), CL_COMPLETE));
        CHECK_CL(clWaitForEvents(2, list), CL_INVALID_CONTEXT);
    }
    SECTION("an event of the list failed: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST") {
        EventPtr good = make_user_event(context.get());
        EventPtr bad = make_user_event(context.get());
        REQUIRE_OK(clSetUserEventStatus(good.get(), CL_COMPLETE));
        REQUIRE_OK(clSetUserEventStatus(bad.get(), -3));
        const cl_event list[] = {good.get(), bad.get()};
        CHECK_CL(clWaitForEvents(2, list), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK_OK(clWaitForEvents(1, list));
    }
}
