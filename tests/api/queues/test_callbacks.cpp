// clSetEventCallback: callbacks for CL_SUBMITTED, CL_RUNNING and
// CL_COMPLETE, registered before or after the status is reached, and
// callbacks that call back into the API (release their event, enqueue and
// wait for new work, register more callbacks). Every wait is bounded, so a
// deadlock fails the test instead of hanging it.
#include "queue_test.hpp"

using namespace cl_test;
using namespace queue_test;

namespace {

struct Call {
    cl_event event;
    cl_int status;
    cl_int registered;
};

// Records the calls of every callback registered through it.
class Recorder {
public:
    struct Slot {
        Recorder* recorder;
        cl_int registered;
    };

    void add(cl_event event, cl_int type) {
        slots_.push_back(std::make_unique<Slot>(Slot{this, type}));
        REQUIRE_OK(clSetEventCallback(event, type, &Recorder::callback, slots_.back().get()));
    }
    bool wait_for(unsigned count) { return signal_.wait_for(count); }
    std::vector<Call> calls() {
        std::lock_guard lock(mutex_);
        return calls_;
    }
    std::vector<cl_int> statuses() {
        std::vector<cl_int> result;
        for (const Call& call : calls())
            result.push_back(call.status);
        return result;
    }

private:
    static void CL_CALLBACK callback(cl_event event, cl_int status, void* user_data) {
        auto* slot = static_cast<Slot*>(user_data);
        {
            std::lock_guard lock(slot->recorder->mutex_);
            slot->recorder->calls_.push_back({event, status, slot->registered});
        }
        slot->recorder->signal_.notify();
    }

    std::mutex mutex_;
    std::vector<Call> calls_;
    std::vector<std::unique_ptr<Slot>> slots_;
    Signal signal_;
};

void CL_CALLBACK ignore(cl_event, cl_int, void*) {}

} // namespace

TEST_CASE("callbacks for SUBMITTED, RUNNING and COMPLETE come in that order", "[callback]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    EventPtr gate = make_user_event(context.get());
    Task task = [] { std::this_thread::sleep_for(5ms); };
    EventPtr event = enqueue_task(queue.get(), task, {gate.get()});
    REQUIRE_OK(clFlush(queue.get()));

    Recorder recorder;
    // Registered in the reverse order of the statuses.
    recorder.add(event.get(), CL_COMPLETE);
    recorder.add(event.get(), CL_RUNNING);
    recorder.add(event.get(), CL_SUBMITTED);
    recorder.add(event.get(), CL_COMPLETE); // a second callback for one status
    // Submitted already (it waits for its wait list): that one comes at once.
    REQUIRE(recorder.wait_for(1));
    std::this_thread::sleep_for(20ms);
    CHECK(recorder.statuses() == std::vector<cl_int>{CL_SUBMITTED});

    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    REQUIRE(recorder.wait_for(4));
    CHECK(recorder.statuses() ==
          std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE, CL_COMPLETE});
    for (const Call& call : recorder.calls()) {
        CHECK(call.event == event.get());
        CHECK(call.status == call.registered);
    }
    // By the time a COMPLETE callback runs, the event says so.
    CHECK(status_of(event.get()) == CL_COMPLETE);
}

TEST_CASE("callbacks registered after the status was reached are still called", "[callback]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);

    SECTION("a completed command") {
        Task task = [] {};
        EventPtr event = enqueue_task(queue.get(), task);
        REQUIRE(wait_final(event.get()) == CL_COMPLETE);
        Recorder recorder;
        recorder.add(event.get(), CL_SUBMITTED);
        recorder.add(event.get(), CL_RUNNING);
        recorder.add(event.get(), CL_COMPLETE);
        REQUIRE(recorder.wait_for(3));
        for (const Call& call : recorder.calls()) {
            CHECK(call.event == event.get());
            CHECK(call.status == call.registered);
        }
    }
    SECTION("a completed marker") {
        EventPtr marker = enqueue_marker(queue.get());
        REQUIRE(wait_final(marker.get()) == CL_COMPLETE);
        Recorder recorder;
        recorder.add(marker.get(), CL_COMPLETE);
        REQUIRE(recorder.wait_for(1));
        CHECK(recorder.statuses() == std::vector<cl_int>{CL_COMPLETE});
    }
    SECTION("user events") {
        EventPtr event = make_user_event(context.get());
        Recorder recorder;
        recorder.add(event.get(), CL_SUBMITTED); // a user event starts submitted
        REQUIRE(recorder.wait_for(1));
        recorder.add(event.get(), CL_RUNNING);
        recorder.add(event.get(), CL_COMPLETE);
        std::this_thread::sleep_for(20ms);
        CHECK(recorder.calls().size() == 1);
        REQUIRE_OK(clSetUserEventStatus(event.get(), CL_COMPLETE));
        REQUIRE(recorder.wait_for(3));
        recorder.add(event.get(), CL_COMPLETE);
        REQUIRE(recorder.wait_for(4));
        for (const Call& call : recorder.calls()) {
            CHECK(call.event == event.get());
            CHECK(call.status >= CL_COMPLETE);
            CHECK(call.status <= call.registered);
        }
    }
    SECTION("a failed user event: every callback gets the error") {
        EventPtr event = make_user_event(context.get());
        Recorder recorder;
        recorder.add(event.get(), CL_RUNNING);
        recorder.add(event.get(), CL_COMPLETE);
        REQUIRE_OK(clSetUserEventStatus(event.get(), -99));
        recorder.add(event.get(), CL_COMPLETE);
        REQUIRE(recorder.wait_for(3));
        CHECK(recorder.statuses() == std::vector<cl_int>{-99, -99, -99});
    }
}

TEST_CASE("a callback may release its own event", "[callback][reentry]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    Task task = [] { std::this_thread::sleep_for(5ms); };

    SECTION("the callback holds the last reference and releases it") {
        struct State {
            Signal done;
            cl_int status_seen = CL_QUEUED;
            cl_int release_result = CL_QUEUED;
        } state;
        auto callback = [](cl_event event, cl_int, void* user_data) {
            auto* s = static_cast<State*>(user_data);
            s->status_seen = CL_INVALID_VALUE;
            clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s->status_seen,
                           &s->status_seen, nullptr);
            s->release_result = clReleaseEvent(event);
            s->done.notify();
        };
        EventPtr gate = make_user_event(context.get());
        cl_event event = enqueue_task(queue.get(), task, {gate.get()}).release();
        REQUIRE_OK(clSetEventCallback(event, CL_COMPLETE, callback, &state));
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(state.done.wait_for(1));
        CHECK(state.status_seen == CL_COMPLETE);
        CHECK_OK(state.release_result);
    }
    SECTION("the application releases the event before it completes") {
        Signal called;
        auto callback = [](cl_event, cl_int status, void* user_data) {
            if (status == CL_COMPLETE)
                static_cast<Signal*>(user_data)->notify();
        };
        EventPtr gate = make_user_event(context.get());
        EventPtr event = enqueue_task(queue.get(), task, {gate.get()});
        REQUIRE_OK(clSetEventCallback(event.get(), CL_RUNNING, callback, &called));
        REQUIRE_OK(clSetEventCallback(event.get(), CL_COMPLETE, callback, &called));
        event.reset();
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(called.wait_for(1));
        CHECK_OK(clFinish(queue.get()));
    }
    SECTION("a user event released from its own callback") {
        Signal done;
        auto callback = [](cl_event event, cl_int, void* user_data) {
            clReleaseEvent(event);
            static_cast<Signal*>(user_data)->notify();
        };
        cl_event event = make_user_event(context.get()).release();
        REQUIRE_OK(clSetEventCallback(event, CL_COMPLETE, callback, &done));
        REQUIRE_OK(clSetUserEventStatus(event, CL_COMPLETE));
        REQUIRE(done.wait_for(1));
    }
}

namespace {

// What the re-entrant callback below does and finds.
struct Reentry {
    cl_command_queue queue;
    cl_command_queue other_queue;
    cl_event chain_gate;
    std::atomic<int> task_runs{0};
    Task task;
    cl_int enqueue_result = CL_QUEUED;
    cl_int wait_result = CL_QUEUED;
    cl_int finish_result = CL_QUEUED;
    cl_int marker_result = CL_QUEUED;
    cl_int register_result = CL_QUEUED;
    cl_int open_result = CL_QUEUED;
    Signal done;
    Signal nested;
};

void CL_CALLBACK nested_callback(cl_event event, cl_int status, void* user_data) {
    auto* state = static_cast<Reentry*>(user_data);
    if (status == CL_COMPLETE)
        state->nested.notify();
    clReleaseEvent(event);
}

void CL_CALLBACK reentrant_callback(cl_event, cl_int, void* user_data) {
    auto* state = static_cast<Reentry*>(user_data);
    Task* task = &state->task;
    cl_event work = nullptr;
    state->enqueue_result = clEnqueueNativeKernel(state->queue, run_task, &task, sizeof task, 0,
                                                  nullptr, nullptr, 0, nullptr, &work);
    if (state->enqueue_result == CL_SUCCESS) {
        state->wait_result = clWaitForEvents(1, &work);
        // Registered on a completed event from inside a callback: it runs
        // once this one has returned.
        state->register_result = clSetEventCallback(work, CL_COMPLETE, nested_callback, state);
    }
    cl_event marker = nullptr;
    state->marker_result = clEnqueueMarkerWithWaitList(state->other_queue, work ? 1 : 0,
                                                       work ? &work : nullptr, &marker);
    if (marker)
        clReleaseEvent(marker);
    state->finish_result = clFinish(state->queue);
    state->open_result = clSetUserEventStatus(state->chain_gate, CL_COMPLETE);
    state->done.notify();
}

} // namespace

TEST_CASE("a callback may enqueue and wait for new work, and register callbacks",
          "[callback][reentry]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    QueuePtr other = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    EventPtr chain_gate = make_user_event(context.get());
    Reentry state;
    state.queue = queue.get();
    state.other_queue = other.get();
    state.chain_gate = chain_gate.get();
    state.task = [&state] { ++state.task_runs; };

    // Work held back by the user event the callback opens, with its own callback.
    Recorder chained;
    EventPtr chained_work = enqueue_task(other.get(), state.task, {chain_gate.get()});
    chained.add(chained_work.get(), CL_COMPLETE);

    Task first = [] {};
    EventPtr event = enqueue_task(queue.get(), first);
    REQUIRE_OK(clSetEventCallback(event.get(), CL_COMPLETE, reentrant_callback, &state));
    REQUIRE(state.done.wait_for(1));
    CHECK_OK(state.enqueue_result);
    CHECK_OK(state.wait_result);
    CHECK_OK(state.register_result);
    CHECK_OK(state.marker_result);
    CHECK_OK(state.finish_result);
    CHECK_OK(state.open_result);
    REQUIRE(state.nested.wait_for(1));
    REQUIRE(chained.wait_for(1));
    CHECK(state.task_runs == 2);
    CHECK_OK(clFinish(other.get()));
}

TEST_CASE("callbacks of many commands in flight", "[callback]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    Signal completed;
    auto callback = [](cl_event, cl_int status, void* user_data) {
        if (status == CL_COMPLETE)
            static_cast<Signal*>(user_data)->notify();
    };
    Task task = [] {};
    constexpr unsigned count = 300;
    for (unsigned i = 0; i < count; ++i) {
        EventPtr event = i % 3 ? enqueue_marker(queue.get()) : enqueue_task(queue.get(), task);
        REQUIRE_OK(clSetEventCallback(event.get(), CL_COMPLETE, callback, &completed));
    }
    REQUIRE(completed.wait_for(count));
    CHECK_OK(clFinish(queue.get()));
    std::this_thread::sleep_for(10ms);
    CHECK(completed.count() == count); // each exactly once
}

TEST_CASE("clSetEventCallback rejects bad arguments", "[callback][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    EventPtr event = make_user_event(context.get());
    CHECK_CL(clSetEventCallback(event.get(), CL_COMPLETE, nullptr, nullptr), CL_INVALID_VALUE);
    for (cl_int type : {CL_QUEUED, -1, 4, CL_COMPLETE - 5})
        CHECK_CL(clSetEventCallback(event.get(), type, ignore, nullptr), CL_INVALID_VALUE);
    const cl_icd_dispatch& driver = dispatch_of(event.get());
    CHECK_CL(driver.clSetEventCallback(nullptr, CL_COMPLETE, ignore, nullptr), CL_INVALID_EVENT);
    CHECK_CL(clSetEventCallback(nullptr, CL_COMPLETE, ignore, nullptr), CL_INVALID_EVENT);
    FakeObject fake(event.get(), 0x66);
    CHECK_CL(clSetEventCallback(fake.as<cl_event>(), CL_COMPLETE, ignore, nullptr),
             CL_INVALID_EVENT);
    CHECK_CL(
        clSetEventCallback(reinterpret_cast<cl_event>(context.get()), CL_COMPLETE, ignore, nullptr),
        CL_INVALID_EVENT);
    // Valid ones are accepted; the callbacks run when the status is set.
    CHECK_OK(clSetEventCallback(event.get(), CL_SUBMITTED, ignore, nullptr));
    CHECK_OK(clSetEventCallback(event.get(), CL_RUNNING, ignore, nullptr));
    CHECK_OK(clSetEventCallback(event.get(), CL_COMPLETE, ignore, nullptr));
    REQUIRE_OK(clSetUserEventStatus(event.get(), CL_COMPLETE));
}
