// The order commands run in: in-order queues, out-of-order queues running
// independent commands at the same time, markers and barriers (1.2 and 1.x
// forms), dependencies across queues, clFinish.
#include "queue_test.hpp"

#include <deque>

using namespace cl_test;
using namespace queue_test;

namespace {

constexpr cl_command_queue_properties out_of_order = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
constexpr cl_command_queue_properties profiling = CL_QUEUE_PROFILING_ENABLE;

// Long enough that a command which should be held back would have run.
constexpr auto settle = 50ms;

struct Interval {
    cl_ulong start;
    cl_ulong end;
};

Interval interval_of(cl_event event) {
    return {profile(event, CL_PROFILING_COMMAND_START), profile(event, CL_PROFILING_COMMAND_END)};
}

std::vector<int> iota(int count) {
    std::vector<int> values(count);
    for (int i = 0; i < count; ++i)
        values[i] = i;
    return values;
}

} // namespace

TEST_CASE("an in-order queue runs its commands one at a time in enqueue order",
          "[order][in-order]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, profiling);
    constexpr int count = 40;
    Log log;
    Concurrency concurrency;
    std::deque<Task> tasks;
    std::vector<EventPtr> events;
    for (int i = 0; i < count; ++i) {
        tasks.emplace_back([&, i] {
            concurrency.enter();
            if (i % 8 == 0)
                std::this_thread::sleep_for(2ms); // lets a wrongly started successor overtake
            log.append(i);
            concurrency.leave();
        });
        events.push_back(enqueue_task(queue.get(), tasks.back()));
        if (i % 10 == 5)
            (void)enqueue_marker(queue.get()); // markers in between change nothing
    }
    REQUIRE_OK(clFinish(queue.get()));
    CHECK(log.values() == iota(count));
    CHECK(concurrency.most() == 1);
    for (int i = 1; i < count; ++i) {
        INFO("command " << i);
        CHECK(status_of(events[i].get()) == CL_COMPLETE);
        CHECK(interval_of(events[i].get()).start >= interval_of(events[i - 1].get()).end);
    }
}

TEST_CASE("an out-of-order queue runs independent commands at the same time",
          "[order][out-of-order]") {
    const cl_device_id dev = device();
    const cl_uint units = compute_units(dev);
    if (units < 2) {
        WARN("one compute unit: commands cannot overlap");
        return;
    }
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, out_of_order | profiling);
    Concurrency concurrency;
    Task sleeper = [&] {
        concurrency.enter();
        std::this_thread::sleep_for(150ms);
        concurrency.leave();
    };
    std::vector<EventPtr> events;
    for (int i = 0; i < 3; ++i)
        events.push_back(enqueue_task(queue.get(), sleeper));
    REQUIRE_OK(clFlush(queue.get()));
    for (const EventPtr& event : events)
        REQUIRE(wait_final(event.get()) == CL_COMPLETE);

    // At most one command per compute unit, and more than one at once.
    CHECK(concurrency.most() >= 2);
    CHECK(concurrency.most() <= units);
    std::vector<Interval> intervals;
    for (const EventPtr& event : events)
        intervals.push_back(interval_of(event.get()));
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    // The first two started together: their intervals overlap by far more
    // than scheduling noise (each lasts 150 ms).
    const cl_ulong overlap_start = std::max(intervals[0].start, intervals[1].start);
    const cl_ulong overlap_end = std::min(intervals[0].end, intervals[1].end);
    REQUIRE(overlap_end > overlap_start);
    CHECK(overlap_end - overlap_start >= 50'000'000u);
}

TEST_CASE("a barrier orders the commands of an out-of-order queue", "[order][barrier]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, out_of_order);
    Log log;
    Task first = [&] { log.append(1); };
    Task independent = [&] { log.append(2); };
    Task after = [&] { log.append(3); };

    SECTION("a barrier without a wait list waits for everything before it") {
        EventPtr gate = make_user_event(context.get());
        EventPtr a = enqueue_task(queue.get(), first, {gate.get()});
        EventPtr b = enqueue_task(queue.get(), independent);
        EventPtr barrier = enqueue_barrier(queue.get());
        EventPtr c = enqueue_task(queue.get(), after);
        REQUIRE(wait_final(b.get()) == CL_COMPLETE);
        std::this_thread::sleep_for(settle);
        CHECK(log.values() == std::vector<int>{2});
        CHECK(status_of(barrier.get()) > CL_COMPLETE);
        CHECK(status_of(c.get()) > CL_RUNNING);

        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(wait_final(c.get()) == CL_COMPLETE);
        CHECK(status_of(barrier.get()) == CL_COMPLETE);
        CHECK(log.values() == std::vector<int>{2, 1, 3});
        CHECK(event_info<cl_command_type>(barrier.get(), CL_EVENT_COMMAND_TYPE) ==
              CL_COMMAND_BARRIER);
    }
    SECTION("a barrier with a wait list waits for those events only") {
        EventPtr gate = make_user_event(context.get());
        EventPtr held = make_user_event(context.get());
        EventPtr a = enqueue_task(queue.get(), first, {gate.get()});
        EventPtr x = enqueue_task(queue.get(), independent, {held.get()});
        EventPtr barrier = enqueue_barrier(queue.get(), {a.get()});
        EventPtr c = enqueue_task(queue.get(), after);
        std::this_thread::sleep_for(settle);
        CHECK(log.values().empty());

        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(wait_final(c.get()) == CL_COMPLETE);
        CHECK(log.values() == std::vector<int>{1, 3});
        CHECK(status_of(x.get()) == CL_SUBMITTED); // still held back
        REQUIRE_OK(clSetUserEventStatus(held.get(), CL_COMPLETE));
        REQUIRE(wait_final(x.get()) == CL_COMPLETE);
        CHECK(log.values() == std::vector<int>{1, 3, 2});
    }
    SECTION("every command after a barrier waits, markers and barriers too") {
        EventPtr gate = make_user_event(context.get());
        EventPtr a = enqueue_task(queue.get(), first, {gate.get()});
        EventPtr barrier = enqueue_barrier(queue.get());
        EventPtr done = make_user_event(context.get());
        REQUIRE_OK(clSetUserEventStatus(done.get(), CL_COMPLETE));
        // Its own wait list is complete, yet it comes after the barrier.
        EventPtr marker = enqueue_marker(queue.get(), {done.get()});
        EventPtr second_barrier = enqueue_barrier(queue.get(), {done.get()});
        std::this_thread::sleep_for(settle);
        CHECK(status_of(marker.get()) > CL_COMPLETE);
        CHECK(status_of(second_barrier.get()) > CL_COMPLETE);
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        CHECK(wait_final(marker.get()) == CL_COMPLETE);
        CHECK(wait_final(second_barrier.get()) == CL_COMPLETE);
        CHECK(status_of(a.get()) == CL_COMPLETE);
    }
}

TEST_CASE("a marker waits without holding back later commands", "[order][marker]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, out_of_order);
    Log log;
    Task first = [&] { log.append(1); };
    Task later = [&] { log.append(2); };

    EventPtr gate = make_user_event(context.get());
    EventPtr a = enqueue_task(queue.get(), first, {gate.get()});
    EventPtr marker = enqueue_marker(queue.get());
    EventPtr c = enqueue_task(queue.get(), later);
    // A marker of completed events completes although a is held back.
    EventPtr done = make_user_event(context.get());
    REQUIRE_OK(clSetUserEventStatus(done.get(), CL_COMPLETE));
    EventPtr listed = enqueue_marker(queue.get(), {done.get()});

    CHECK(wait_final(c.get()) == CL_COMPLETE);
    CHECK(wait_final(listed.get()) == CL_COMPLETE);
    std::this_thread::sleep_for(settle);
    CHECK(status_of(marker.get()) > CL_COMPLETE);
    CHECK(log.values() == std::vector<int>{2});

    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    CHECK(wait_final(marker.get()) == CL_COMPLETE);
    CHECK(log.values() == std::vector<int>{2, 1});
    CHECK(event_info<cl_command_type>(marker.get(), CL_EVENT_COMMAND_TYPE) == CL_COMMAND_MARKER);
    CHECK(event_info<cl_command_queue>(marker.get(), CL_EVENT_COMMAND_QUEUE) == queue.get());
}

TEST_CASE("an in-order queue: markers and barriers wait for what came before",
          "[order][in-order][marker]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    EventPtr gate = make_user_event(context.get());
    Task nothing = [] {};
    EventPtr a = enqueue_task(queue.get(), nothing, {gate.get()});
    EventPtr done = make_user_event(context.get());
    REQUIRE_OK(clSetUserEventStatus(done.get(), CL_COMPLETE));
    EventPtr marker = enqueue_marker(queue.get(), {done.get()});
    EventPtr barrier = enqueue_barrier(queue.get());
    std::this_thread::sleep_for(settle);
    CHECK(status_of(marker.get()) > CL_COMPLETE);
    CHECK(status_of(barrier.get()) > CL_COMPLETE);
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    CHECK(wait_final(barrier.get()) == CL_COMPLETE);
    CHECK(status_of(marker.get()) == CL_COMPLETE);
}

TEST_CASE("clEnqueueMarker, clEnqueueBarrier and clEnqueueWaitForEvents (OpenCL 1.x)",
          "[order][legacy]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, out_of_order);
    Log log;
    Task first = [&] { log.append(1); };
    Task later = [&] { log.append(2); };

    SECTION("clEnqueueMarker waits for everything before it") {
        EventPtr gate = make_user_event(context.get());
        EventPtr a = enqueue_task(queue.get(), first, {gate.get()});
        cl_event raw = nullptr;
        REQUIRE_OK(clEnqueueMarker(queue.get(), &raw));
        EventPtr marker(raw);
        CHECK(event_info<cl_command_type>(marker.get(), CL_EVENT_COMMAND_TYPE) ==
              CL_COMMAND_MARKER);
        std::this_thread::sleep_for(settle);
        CHECK(status_of(marker.get()) > CL_COMPLETE);
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        CHECK(wait_final(marker.get()) == CL_COMPLETE);
        CHECK(log.values() == std::vector<int>{1});
    }
    SECTION("clEnqueueBarrier holds back every later command") {
        EventPtr gate = make_user_event(context.get());
        EventPtr a = enqueue_task(queue.get(), first, {gate.get()});
        REQUIRE_OK(clEnqueueBarrier(queue.get()));
        EventPtr c = enqueue_task(queue.get(), later);
        std::this_thread::sleep_for(settle);
        CHECK(log.values().empty());
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        CHECK(wait_final(c.get()) == CL_COMPLETE);
        CHECK(log.values() == std::vector<int>{1, 2});
    }
    SECTION("clEnqueueWaitForEvents holds back every later command until the events complete") {
        QueuePtr in_order = make_queue(context.get(), dev);
        for (cl_command_queue target : {queue.get(), in_order.get()}) {
            EventPtr gate = make_user_event(context.get());
            EventPtr other = make_user_event(context.get());
            REQUIRE_OK(clSetUserEventStatus(other.get(), CL_COMPLETE));
            const cl_event list[] = {other.get(), gate.get()};
            REQUIRE_OK(clEnqueueWaitForEvents(target, 2, list));
            EventPtr c = enqueue_task(target, later);
            EventPtr marker = enqueue_marker(target);
            std::this_thread::sleep_for(settle);
            CHECK(status_of(c.get()) > CL_RUNNING);
            REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
            CHECK(wait_final(c.get()) == CL_COMPLETE);
            CHECK(wait_final(marker.get()) == CL_COMPLETE);
        }
        CHECK(log.values() == std::vector<int>{2, 2});
    }
}

TEST_CASE("commands of two queues wait for each other's events", "[order][cross-queue]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr q1 = make_queue(context.get(), dev);
    QueuePtr q2 = make_queue(context.get(), dev, out_of_order);
    EventPtr gate = make_user_event(context.get());
    Log log;
    std::deque<Task> tasks;
    for (int i = 0; i < 6; ++i)
        tasks.emplace_back([&log, i] { log.append(i); });

    // A ping-pong chain: every command waits for the previous one, which
    // is in the other queue; the first waits for the user event.
    std::vector<EventPtr> events;
    events.push_back(enqueue_task(q1.get(), tasks[0], {gate.get()}));
    for (int i = 1; i < 6; ++i) {
        cl_command_queue queue = i % 2 ? q2.get() : q1.get();
        events.push_back(enqueue_task(queue, tasks[i], {events.back().get()}));
    }
    // An independent command of q2 is not held back.
    Task free_task = [&] { log.append(100); };
    EventPtr free_event = enqueue_task(q2.get(), free_task);
    REQUIRE(wait_final(free_event.get()) == CL_COMPLETE);
    std::this_thread::sleep_for(settle);
    CHECK(log.values() == std::vector<int>{100});
    for (const EventPtr& event : events)
        CHECK(status_of(event.get()) == CL_SUBMITTED);

    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    REQUIRE(wait_final(events.back().get()) == CL_COMPLETE);
    CHECK(log.values() == std::vector<int>{100, 0, 1, 2, 3, 4, 5});
}

TEST_CASE("clFinish returns once every command of the queue has finished", "[order][finish]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    const cl_command_queue_properties mode = GENERATE(cl_command_queue_properties{0}, out_of_order);
    INFO("queue properties " << mode);
    QueuePtr queue = make_queue(context.get(), dev, mode);
    std::atomic<int> finished{0};
    Task sleeper = [&] {
        std::this_thread::sleep_for(20ms);
        ++finished;
    };
    EventPtr gate = make_user_event(context.get());
    std::vector<EventPtr> events;
    events.push_back(enqueue_task(queue.get(), sleeper, {gate.get()}));
    for (int i = 0; i < 4; ++i)
        events.push_back(enqueue_task(queue.get(), sleeper));
    events.push_back(enqueue_marker(queue.get()));
    // Events released at once: clFinish still waits for their commands.
    for (int i = 0; i < 2; ++i)
        clReleaseEvent(enqueue_task(queue.get(), sleeper).release());

    std::thread opener([&] {
        std::this_thread::sleep_for(settle);
        clSetUserEventStatus(gate.get(), CL_COMPLETE);
    });
    const auto start = std::chrono::steady_clock::now();
    CHECK_OK(clFinish(queue.get()));
    const auto waited = std::chrono::steady_clock::now() - start;
    opener.join();
    CHECK(finished == 7);
    CHECK(waited >= settle);
    for (const EventPtr& event : events)
        CHECK(status_of(event.get()) == CL_COMPLETE);
}
