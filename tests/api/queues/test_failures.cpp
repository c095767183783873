// A user event set to a negative status fails every command that depends on
// it, directly or through a chain, across queues: their events report a
// negative status, their work never runs, and clWaitForEvents on them
// returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. Long chains resolve
// (and fail) iteratively.
#include "queue_test.hpp"

using namespace cl_test;
using namespace queue_test;

namespace {

struct StatusRecord {
    Signal called;
    std::atomic<cl_int> status{CL_SUBMITTED};
};

void CL_CALLBACK record_status(cl_event, cl_int status, void* user_data) {
    auto* record = static_cast<StatusRecord*>(user_data);
    record->status = status;
    record->called.notify();
}

} // namespace

TEST_CASE("a failed user event fails the chains that depend on it", "[failure]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr q1 = make_queue(context.get(), dev, CL_QUEUE_PROFILING_ENABLE);
    QueuePtr q2 = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    EventPtr gate = make_user_event(context.get());
    std::atomic<int> dependent_runs{0};
    std::atomic<int> independent_runs{0};
    Task dependent = [&] { ++dependent_runs; };
    Task independent = [&] { ++independent_runs; };

    EventPtr a = enqueue_task(q1.get(), dependent, {gate.get()});
    EventPtr marker = enqueue_marker(q2.get(), {a.get()});
    EventPtr b = enqueue_task(q2.get(), dependent, {marker.get()});
    EventPtr barrier = enqueue_barrier(q2.get(), {b.get()});
    EventPtr c = enqueue_task(q1.get(), dependent, {barrier.get()});
    StatusRecord running;
    StatusRecord complete;
    REQUIRE_OK(clSetEventCallback(c.get(), CL_RUNNING, record_status, &running));
    REQUIRE_OK(clSetEventCallback(c.get(), CL_COMPLETE, record_status, &complete));
    // Not in the chain: unaffected.
    QueuePtr q3 = make_queue(context.get(), dev);
    EventPtr other = enqueue_task(q3.get(), independent);

    constexpr cl_int failure = -1234;
    REQUIRE_OK(clSetUserEventStatus(gate.get(), failure));
    CHECK(status_of(gate.get()) == failure);
    for (cl_event event : {a.get(), marker.get(), b.get(), barrier.get(), c.get()}) {
        INFO("command type " << event_info<cl_command_type>(event, CL_EVENT_COMMAND_TYPE));
        CHECK(wait_final(event) < 0);
        CHECK_CL(clWaitForEvents(1, &event), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    CHECK(dependent_runs == 0);
    const cl_event gate_list[] = {gate.get()};
    CHECK_CL(clWaitForEvents(1, gate_list), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(wait_final(other.get()) == CL_COMPLETE);
    CHECK(independent_runs == 1);

    // Callbacks of a failed command receive its negative status.
    REQUIRE(running.called.wait_for(1));
    REQUIRE(complete.called.wait_for(1));
    CHECK(running.status < 0);
    CHECK(complete.status < 0);

    // A failed event in a wait list fails a new command at once.
    EventPtr late = enqueue_task(q2.get(), dependent, {a.get()});
    CHECK(wait_final(late.get()) < 0);
    CHECK(dependent_runs == 0);
    // Profiling information never becomes available for failed commands.
    cl_ulong stamp = 0;
    CHECK_CL(
        clGetEventProfilingInfo(c.get(), CL_PROFILING_COMMAND_END, sizeof stamp, &stamp, nullptr),
        CL_PROFILING_INFO_NOT_AVAILABLE);

    // What runs after a failed command in the same queue (in order, or after
    // a failed barrier) is implementation-defined; the queues drain, and other
    // queues of the context keep working.
    EventPtr fresh = enqueue_task(q3.get(), independent);
    CHECK(wait_final(fresh.get()) == CL_COMPLETE);
    CHECK(independent_runs == 2);
    CHECK_OK(clFinish(q1.get()));
    CHECK_OK(clFinish(q2.get()));
}

TEST_CASE("a failure does not spread to commands that do not depend on it", "[failure]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    EventPtr bad = make_user_event(context.get());
    EventPtr good = make_user_event(context.get());
    std::atomic<int> runs{0};
    Task task = [&] { ++runs; };
    EventPtr failing = enqueue_task(queue.get(), task, {bad.get()});
    EventPtr passing = enqueue_task(queue.get(), task, {good.get()});
    REQUIRE_OK(clSetUserEventStatus(bad.get(), CL_OUT_OF_RESOURCES));
    REQUIRE_OK(clSetUserEventStatus(good.get(), CL_COMPLETE));
    CHECK(wait_final(failing.get()) < 0);
    CHECK(wait_final(passing.get()) == CL_COMPLETE);
    CHECK(runs == 1);
    const cl_event both[] = {passing.get(), failing.get()};
    CHECK_CL(clWaitForEvents(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
}

TEST_CASE("a chain of 20000 markers across two queues resolves and fails iteratively",
          "[failure][chain]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr q1 = make_queue(context.get(), dev);
    QueuePtr q2 = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    const cl_int outcome = GENERATE(CL_COMPLETE, -7);
    INFO("user event set to " << outcome);
    constexpr int length = 20000;

    EventPtr gate = make_user_event(context.get());
    cl_event previous = gate.get();
    REQUIRE_OK(clRetainEvent(previous));
    for (int i = 0; i < length; ++i) {
        cl_event next = nullptr;
        REQUIRE_OK(clEnqueueMarkerWithWaitList(i % 2 ? q2.get() : q1.get(), 1, &previous, &next));
        // Only the last event stays with the application; the chain lives on
        // through the driver's own references.
        REQUIRE_OK(clReleaseEvent(previous));
        previous = next;
    }
    EventPtr last(previous);
    CHECK(status_of(last.get()) > CL_COMPLETE);
    REQUIRE_OK(clSetUserEventStatus(gate.get(), outcome));
    const cl_int final_status = wait_final(last.get());
    if (outcome == CL_COMPLETE)
        CHECK(final_status == CL_COMPLETE);
    else
        CHECK(final_status < 0);
    CHECK_OK(clFinish(q1.get()));
    CHECK_OK(clFinish(q2.get()));
}
