// The argument rules of the synchronization commands
// (clEnqueueMarkerWithWaitList, clEnqueueBarrierWithWaitList,
// clEnqueueMarker, clEnqueueBarrier, clEnqueueWaitForEvents) and of
// clEnqueueNativeKernel, whose arguments are copied at enqueue time.
#include "queue_test.hpp"

#include <array>
#include <string>

using namespace cl_test;
using namespace queue_test;

namespace {

std::atomic<int> stray_runs{0};

void CL_CALLBACK count_run(void*) {
    ++stray_runs;
}

// One enqueue entry point that takes a wait list and returns an event.
struct Enqueuer {
    std::string name;
    std::function<cl_int(cl_command_queue, cl_uint, const cl_event*, cl_event*)> call;
};

std::vector<Enqueuer> enqueuers() {
    return {
        {"clEnqueueMarkerWithWaitList",
         [](cl_command_queue queue, cl_uint count, const cl_event* list, cl_event* event) {
             return clEnqueueMarkerWithWaitList(queue, count, list, event);
         }},
        {"clEnqueueBarrierWithWaitList",
         [](cl_command_queue queue, cl_uint count, const cl_event* list, cl_event* event) {
             return clEnqueueBarrierWithWaitList(queue, count, list, event);
         }},
        {"clEnqueueNativeKernel",
         [](cl_command_queue queue, cl_uint count, const cl_event* list, cl_event* event) {
             return clEnqueueNativeKernel(queue, count_run, nullptr, 0, 0, nullptr, nullptr, count,
                                          list, event);
         }},
    };
}

} // namespace

TEST_CASE("enqueues reject bad wait lists and queues", "[enqueue][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    ContextPtr other_context = make_context(dev);
    EventPtr mine = make_user_event(context.get());
    EventPtr theirs = make_user_event(other_context.get());
    REQUIRE_OK(clSetUserEventStatus(mine.get(), CL_COMPLETE));
    REQUIRE_OK(clSetUserEventStatus(theirs.get(), CL_COMPLETE));
    FakeObject fake_event(mine.get(), 0xab);
    FakeObject fake_queue(queue.get(), 0xcd);
    const int runs_before = stray_runs;

    for (const Enqueuer& enqueue : enqueuers()) {
        INFO(enqueue.name);
        cl_event event = nullptr;
        const cl_event good[] = {mine.get()};
        // num_events_in_wait_list and event_wait_list disagree.
        CHECK_CL(enqueue.call(queue.get(), 0, good, &event), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(enqueue.call(queue.get(), 1, nullptr, &event), CL_INVALID_EVENT_WAIT_LIST);
        // An entry that is not a valid event.
        const cl_event with_null[] = {mine.get(), nullptr};
        CHECK_CL(enqueue.call(queue.get(), 2, with_null, &event), CL_INVALID_EVENT_WAIT_LIST);
        const cl_event with_fake[] = {fake_event.as<cl_event>()};
        CHECK_CL(enqueue.call(queue.get(), 1, with_fake, &event), CL_INVALID_EVENT_WAIT_LIST);
        const cl_event with_queue[] = {reinterpret_cast<cl_event>(queue.get())};
        CHECK_CL(enqueue.call(queue.get(), 1, with_queue, &event), CL_INVALID_EVENT_WAIT_LIST);
        // An event of another context.
        const cl_event mixed[] = {mine.get(), theirs.get()};
        CHECK_CL(enqueue.call(queue.get(), 2, mixed, &event), CL_INVALID_CONTEXT);
        // Not a queue.
        CHECK_CL(enqueue.call(fake_queue.as<cl_command_queue>(), 0, nullptr, &event),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(
            enqueue.call(reinterpret_cast<cl_command_queue>(context.get()), 0, nullptr, &event),
            CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(enqueue.call(nullptr, 0, nullptr, &event), CL_INVALID_COMMAND_QUEUE);
        CHECK(event == nullptr); // no event for a refused command

        // And the good forms: with and without an event.
        CHECK_OK(enqueue.call(queue.get(), 1, good, &event));
        REQUIRE(event != nullptr);
        CHECK(wait_final(event) == CL_COMPLETE);
        clReleaseEvent(event);
        CHECK_OK(enqueue.call(queue.get(), 0, nullptr, nullptr));
    }
    CHECK_OK(clFinish(queue.get()));
    CHECK(stray_runs - runs_before == 2); // the two good native kernels only
}

TEST_CASE("clEnqueueMarker and clEnqueueBarrier reject bad arguments", "[enqueue][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    const cl_icd_dispatch& driver = dispatch_of(queue.get());
    FakeObject fake(queue.get(), 0x5e);

    cl_event event = nullptr;
    CHECK_CL(clEnqueueMarker(queue.get(), nullptr), CL_INVALID_VALUE);
    CHECK_CL(driver.clEnqueueMarker(queue.get(), nullptr), CL_INVALID_VALUE);
    CHECK_CL(driver.clEnqueueMarker(nullptr, &event), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clEnqueueMarker(fake.as<cl_command_queue>(), &event), CL_INVALID_COMMAND_QUEUE);
    CHECK(event == nullptr);
    CHECK_CL(driver.clEnqueueBarrier(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clEnqueueBarrier(fake.as<cl_command_queue>()), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clEnqueueBarrier(reinterpret_cast<cl_command_queue>(context.get())),
             CL_INVALID_COMMAND_QUEUE);

    CHECK_OK(clEnqueueMarker(queue.get(), &event));
    REQUIRE(event != nullptr);
    EventPtr marker(event);
    CHECK_OK(clEnqueueBarrier(queue.get()));
    CHECK(wait_final(marker.get()) == CL_COMPLETE);
    CHECK_OK(clFinish(queue.get()));
}

TEST_CASE("clEnqueueWaitForEvents rejects bad arguments", "[enqueue][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    ContextPtr other_context = make_context(dev);
    EventPtr mine = make_user_event(context.get());
    EventPtr theirs = make_user_event(other_context.get());
    REQUIRE_OK(clSetUserEventStatus(mine.get(), CL_COMPLETE));
    REQUIRE_OK(clSetUserEventStatus(theirs.get(), CL_COMPLETE));
    const cl_icd_dispatch& driver = dispatch_of(queue.get());

    const cl_event good[] = {mine.get()};
    // num_events is 0 or event_list is NULL.
    CHECK_CL(clEnqueueWaitForEvents(queue.get(), 0, good), CL_INVALID_VALUE);
    CHECK_CL(clEnqueueWaitForEvents(queue.get(), 1, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clEnqueueWaitForEvents(queue.get(), 0, nullptr), CL_INVALID_VALUE);
    CHECK_CL(driver.clEnqueueWaitForEvents(queue.get(), 0, nullptr), CL_INVALID_VALUE);
    // Entries that are not valid events.
    FakeObject fake(mine.get(), 0x7e);
    const cl_event with_fake[] = {mine.get(), fake.as<cl_event>()};
    CHECK_CL(clEnqueueWaitForEvents(queue.get(), 2, with_fake), CL_INVALID_EVENT);
    const cl_event with_null[] = {mine.get(), nullptr};
    CHECK_CL(clEnqueueWaitForEvents(queue.get(), 2, with_null), CL_INVALID_EVENT);
    // An event of another context.
    const cl_event mixed[] = {mine.get(), theirs.get()};
    CHECK_CL(clEnqueueWaitForEvents(queue.get(), 2, mixed), CL_INVALID_CONTEXT);
    // Not a queue.
    CHECK_CL(driver.clEnqueueWaitForEvents(nullptr, 1, good), CL_INVALID_COMMAND_QUEUE);
    FakeObject fake_queue(queue.get(), 0x7f);
    CHECK_CL(clEnqueueWaitForEvents(fake_queue.as<cl_command_queue>(), 1, good),
             CL_INVALID_COMMAND_QUEUE);

    CHECK_OK(clEnqueueWaitForEvents(queue.get(), 1, good));
    CHECK_OK(clFinish(queue.get()));
}

TEST_CASE("clEnqueueNativeKernel argument rules", "[enqueue][native][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    const cl_icd_dispatch& driver = dispatch_of(queue.get());
    struct Args {
        cl_mem memory;
        int value;
    } args{nullptr, 7};
    const void* location[] = {&args.memory};
    const cl_mem no_memory[] = {nullptr};
    const int runs_before = stray_runs;
    cl_event event = nullptr;

    SECTION("user_func is NULL") {
        CHECK_CL(clEnqueueNativeKernel(queue.get(), nullptr, &args, sizeof args, 0, nullptr,
                                       nullptr, 0, nullptr, &event),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueNativeKernel(queue.get(), nullptr, nullptr, 0, 0, nullptr, nullptr, 0,
                                       nullptr, &event),
                 CL_INVALID_VALUE);
    }
    SECTION("args NULL with cb_args > 0, or args with cb_args 0") {
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, nullptr, 8, 0, nullptr, nullptr, 0,
                                       nullptr, &event),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, 0, 0, nullptr, nullptr, 0,
                                       nullptr, &event),
                 CL_INVALID_VALUE);
    }
    SECTION("num_mem_objects > 0 with mem_list or args_mem_loc NULL") {
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 1, nullptr,
                                       location, 0, nullptr, &event),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 1, no_memory,
                                       nullptr, 0, nullptr, &event),
                 CL_INVALID_VALUE);
    }
    SECTION("num_mem_objects 0 with mem_list or args_mem_loc not NULL") {
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 0, no_memory,
                                       nullptr, 0, nullptr, &event),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 0, nullptr,
                                       location, 0, nullptr, &event),
                 CL_INVALID_VALUE);
    }
    SECTION("args NULL with num_mem_objects > 0") {
        // mem_list entries may be NULL, so the only fault is the missing args.
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, nullptr, 0, 1, no_memory, location,
                                       0, nullptr, &event),
                 CL_INVALID_VALUE);
    }
    SECTION("an entry of mem_list that is not a memory object: CL_INVALID_MEM_OBJECT") {
        FakeObject fake(queue.get(), 0x44);
        const cl_mem bad[] = {fake.as<cl_mem>()};
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 1, bad, location,
                                       0, nullptr, &event),
                 CL_INVALID_MEM_OBJECT);
        const cl_mem wrong_type[] = {reinterpret_cast<cl_mem>(context.get())};
        CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 1, wrong_type,
                                       location, 0, nullptr, &event),
                 CL_INVALID_MEM_OBJECT);
    }
    SECTION("not a queue") {
        CHECK_CL(driver.clEnqueueNativeKernel(nullptr, count_run, &args, sizeof args, 0, nullptr,
                                              nullptr, 0, nullptr, &event),
                 CL_INVALID_COMMAND_QUEUE);
    }
    CHECK(event == nullptr);
    CHECK_OK(clFinish(queue.get()));
    CHECK(stray_runs == runs_before);
}

TEST_CASE("clEnqueueNativeKernel runs the function on a copy of args", "[enqueue][native]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);

    struct Seen {
        std::array<unsigned char, 64> bytes{};
        const void* address = nullptr;
    };
    struct Args {
        Seen* seen;
        std::array<unsigned char, 64> payload;
    };
    auto record = [](void* raw) {
        auto* args = static_cast<Args*>(raw);
        args->seen->address = raw;
        args->seen->bytes = args->payload;
    };
    Seen seen;
    Args args{&seen, {}};
    for (size_t i = 0; i < args.payload.size(); ++i)
        args.payload[i] = static_cast<unsigned char>(i * 3);
    const auto original = args.payload;

    EventPtr gate = make_user_event(context.get());
    cl_event raw = nullptr;
    const cl_event wait[] = {gate.get()};
    REQUIRE_OK(clEnqueueNativeKernel(queue.get(), record, &args, sizeof args, 0, nullptr, nullptr,
                                     1, wait, &raw));
    EventPtr event(raw);
    CHECK(event_info<cl_command_type>(event.get(), CL_EVENT_COMMAND_TYPE) ==
          CL_COMMAND_NATIVE_KERNEL);
    // The application may reuse args as soon as the call returns.
    args.payload.fill(0xff);
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    REQUIRE(wait_final(event.get()) == CL_COMPLETE);
    CHECK(seen.bytes == original);
    CHECK(seen.address != nullptr);
    CHECK(seen.address != static_cast<const void*>(&args));

    SECTION("no arguments at all") {
        const int runs_before = stray_runs;
        cl_event bare = nullptr;
        REQUIRE_OK(clEnqueueNativeKernel(queue.get(), count_run, nullptr, 0, 0, nullptr, nullptr, 0,
                                         nullptr, &bare));
        EventPtr bare_event(bare);
        CHECK(wait_final(bare_event.get()) == CL_COMPLETE);
        CHECK(stray_runs == runs_before + 1);
    }
}

namespace {

using cl_test::MemPtr;

MemPtr make_buffer(cl_context context, std::vector<int>& contents) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   contents.size() * sizeof(int), contents.data(), &error);
    REQUIRE_OK(error);
    REQUIRE(buffer != nullptr);
    return MemPtr(buffer);
}

} // namespace

TEST_CASE("clEnqueueNativeKernel hands the function the address of each memory object",
          "[enqueue][native]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    std::vector<int> first(16);
    std::vector<int> second(16);
    for (int i = 0; i < 16; ++i) {
        first[i] = i;
        second[i] = 100 * i;
    }
    MemPtr a = make_buffer(context.get(), first);
    MemPtr b = make_buffer(context.get(), second);
    struct Args {
        int count;
        cl_mem from; // replaced by the address of a's bytes
        cl_mem to;   // replaced by the address of b's bytes
    } args{16, a.get(), b.get()};
    auto add = [](void* raw) {
        auto* in = static_cast<Args*>(raw);
        const auto* from = reinterpret_cast<const int*>(in->from);
        auto* to = reinterpret_cast<int*>(in->to);
        for (int i = 0; i < in->count; ++i)
            to[i] += from[i];
    };
    const cl_mem mem_list[] = {b.get(), a.get()};
    const void* locations[] = {&args.to, &args.from};
    cl_event raw = nullptr;
    REQUIRE_OK(clEnqueueNativeKernel(queue.get(), add, &args, sizeof args, 2, mem_list, locations,
                                     0, nullptr, &raw));
    EventPtr event(raw);
    // The application's args are left as they were.
    CHECK(args.from == a.get());
    CHECK(args.to == b.get());
    std::vector<int> result(16, -1);
    REQUIRE_OK(clEnqueueReadBuffer(queue.get(), b.get(), CL_TRUE, 0, result.size() * sizeof(int),
                                   result.data(), 0, nullptr, nullptr));
    CHECK(status_of(event.get()) == CL_COMPLETE);
    for (int i = 0; i < 16; ++i) {
        INFO("element " << i);
        CHECK(result[i] == 101 * i);
    }
}

TEST_CASE("clEnqueueNativeKernel argument rules with memory objects", "[enqueue][native][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    std::vector<int> contents(4, 1);
    MemPtr buffer = make_buffer(context.get(), contents);
    const cl_mem mem_list[] = {buffer.get()};
    struct Args {
        cl_mem mem;
    } args{buffer.get()};
    const void* location[] = {&args.mem};
    const int runs_before = stray_runs;
    cl_event event = nullptr;
    // args NULL while num_mem_objects > 0.
    CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, nullptr, 0, 1, mem_list, location, 0,
                                   nullptr, &event),
             CL_INVALID_VALUE);
    // args_mem_loc must point into args (anything else would be written to).
    Args elsewhere{buffer.get()};
    const void* outside[] = {&elsewhere.mem};
    CHECK_CL(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 1, mem_list, outside,
                                   0, nullptr, &event),
             CL_INVALID_VALUE);
    CHECK(event == nullptr);
    CHECK_OK(clEnqueueNativeKernel(queue.get(), count_run, &args, sizeof args, 1, mem_list,
                                   location, 0, nullptr, nullptr));
    CHECK_OK(clFinish(queue.get()));
    CHECK(stray_runs == runs_before + 1);
}

TEST_CASE("clEnqueueNativeKernel accepts NULL entries in mem_list", "[enqueue][native]") {
    // mem_list holds buffer objects "or NULL" (OpenCL 3.0, clEnqueueNativeKernel).
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    struct Args {
        void* memory;
        std::atomic<int>* runs;
    };
    std::atomic<int> runs{0};
    std::atomic<bool> got_null{false};
    static std::atomic<bool>* null_seen = nullptr;
    null_seen = &got_null;
    auto check = [](void* raw) {
        auto* args = static_cast<Args*>(raw);
        *null_seen = args->memory == nullptr;
        ++*args->runs;
    };
    Args args{nullptr, &runs};
    const void* location[] = {&args.memory};
    const cl_mem memory[] = {nullptr};
    cl_event raw = nullptr;
    REQUIRE_OK(clEnqueueNativeKernel(queue.get(), check, &args, sizeof args, 1, memory, location, 0,
                                     nullptr, &raw));
    EventPtr event(raw);
    CHECK(wait_final(event.get()) == CL_COMPLETE);
    CHECK(runs == 1);
    CHECK(got_null);
}
