// Sub-tests of the USM commands: fills of every pattern size, copies across
// every pair of kinds, migration and advice, their errors, events, wait
// lists and profiling.
#include "usm.hpp"

#include <chrono>
#include <cstring>
#include <thread>

using namespace usmconf;

namespace {

std::vector<unsigned char> pattern_bytes(size_t size, unsigned seed) {
    std::vector<unsigned char> bytes(size);
    for (size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<unsigned char>(seed * 31 + i * 7 + 1);
    return bytes;
}

// Kinds a command on the device may use: USM kinds with ACCESS, and system
// memory when the device reports shared system ACCESS.
std::vector<Kind> command_kinds(Env& env) {
    return env.usable_kinds();
}

// A USM allocation for hints: shared if possible.
bool hint_kind(Env& env, Kind& kind) {
    for (Kind k : {Kind::shared, Kind::shared_null_device})
        if (env.allocatable(k)) {
            kind = k;
            return true;
        }
    return false;
}

struct WaitListCase {
    const char* what;
    cl_uint count;
    const cl_event* list;
};

// The three CL_INVALID_EVENT_WAIT_LIST cases, given one valid event.
std::vector<WaitListCase> bad_wait_lists(const cl_event* valid, const cl_event* null_event) {
    return {{"NULL list, count 1", 1, nullptr},
            {"non-NULL list, count 0", 0, valid},
            {"a NULL event in the list", 1, null_event}};
}

} // namespace

TEST(fill, "clEnqueueMemFillINTEL into every usable kind, every power-of-two pattern size up to "
           "the largest type, blocking on events") {
    const std::vector<Kind> kinds = command_kinds(env);
    REQUIRE(!kinds.empty());
    constexpr size_t total = 8192;
    for (Kind kind : kinds) {
        Alloc alloc = must_alloc(env, kind, total);
        for (size_t pattern_size = 1; pattern_size <= env.largest_type; pattern_size *= 2) {
            const std::vector<unsigned char> pattern =
                pattern_bytes(pattern_size, static_cast<unsigned>(pattern_size));
            for (size_t repeats : {size_t{1}, size_t{3}, size_t{37}}) {
                const size_t offset = pattern_size * 5;
                const size_t size = pattern_size * repeats;
                std::vector<unsigned char> expected(total, 0xCD);
                write_bytes(env, kind, alloc.get(), expected.data(), total);
                for (size_t i = 0; i < size; ++i)
                    expected[offset + i] = pattern[i % pattern_size];
                Event event;
                REQUIRE_OK(env.usm.fill(env.queue, alloc.bytes() + offset, pattern.data(),
                                        pattern_size, size, 0, nullptr, event.out()));
                REQUIRE(event.get() != nullptr);
                cl_event e = event.get();
                REQUIRE_OK(clWaitForEvents(1, &e));
                CHECK_EQ(event_status(event.get()), CL_COMPLETE);
                CHECK_EQ(command_type(event.get()),
                         static_cast<cl_command_type>(CL_COMMAND_MEMFILL_INTEL));
                std::vector<unsigned char> got(total);
                read_bytes(env, kind, got.data(), alloc.get(), total);
                if (got != expected) {
                    size_t at = 0;
                    while (got[at] == expected[at])
                        ++at;
                    CHECK_MSG(false, kind_name(kind)
                                         << " pattern " << pattern_size << " x" << repeats
                                         << ": byte " << at << " is " << int(got[at])
                                         << ", expected " << int(expected[at]));
                }
            }
        }
        // The pattern memory may be reused as soon as the call returns.
        std::vector<unsigned char> pattern(4, 0x11);
        REQUIRE_OK(
            env.usm.fill(env.queue, alloc.get(), pattern.data(), 4, total, 0, nullptr, nullptr));
        std::fill(pattern.begin(), pattern.end(), 0x22);
        REQUIRE_OK(clFinish(env.queue));
        std::vector<unsigned char> got(total);
        read_bytes(env, kind, got.data(), alloc.get(), total);
        CHECK_MSG(got == std::vector<unsigned char>(total, 0x11),
                  kind_name(kind) << ": the fill used the pattern after the call returned");
    }
}

TEST(fill_errors, "clEnqueueMemFillINTEL: every listed error, one per call") {
    const std::vector<Kind> kinds = command_kinds(env);
    REQUIRE(!kinds.empty());
    Alloc alloc = must_alloc(env, kinds.front(), 1024);
    const unsigned char pattern[256] = {};
    void* dst = alloc.get();
    CHECK_ERR(env.usm.fill(nullptr, dst, pattern, 4, 64, 0, nullptr, nullptr),
              CL_INVALID_COMMAND_QUEUE);
    {
        Context other = other_context(env);
        UserEvent foreign(other.get());
        const cl_event list[] = {foreign.get()};
        CHECK_ERR(env.usm.fill(env.queue, dst, pattern, 4, 64, 1, list, nullptr),
                  CL_INVALID_CONTEXT);
    }
    CHECK_ERR(env.usm.fill(env.queue, nullptr, pattern, 4, 64, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    CHECK_ERR(env.usm.fill(env.queue, alloc.bytes() + 2, pattern, 4, 64, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    CHECK_ERR(env.usm.fill(env.queue, alloc.bytes() + 64, pattern, 128, 128, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    CHECK_ERR(env.usm.fill(env.queue, dst, nullptr, 4, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);
    for (size_t bad : {size_t{0}, size_t{3}, size_t{6}, size_t{12}, env.largest_type * 2})
        CHECK_ERR(env.usm.fill(env.queue, dst, pattern, bad, bad * 2, 0, nullptr, nullptr),
                  CL_INVALID_VALUE);
    CHECK_ERR(env.usm.fill(env.queue, dst, pattern, 4, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_ERR(env.usm.fill(env.queue, dst, pattern, 16, 40, 0, nullptr, nullptr), CL_INVALID_VALUE);
    UserEvent valid(env.context);
    const cl_event one[] = {valid.get()};
    const cl_event null_event[] = {nullptr};
    for (const WaitListCase& c : bad_wait_lists(one, null_event)) {
        const cl_int error = env.usm.fill(env.queue, dst, pattern, 4, 64, c.count, c.list, nullptr);
        CHECK_MSG(error == CL_INVALID_EVENT_WAIT_LIST,
                  c.what << ": " << error_name(error) << ", expected CL_INVALID_EVENT_WAIT_LIST");
    }
    // Nothing was enqueued: the queue finishes with the user event unset.
    CHECK_OK(clFinish(env.queue));
    CHECK_OK(valid.set(CL_COMPLETE));
}

TEST(memcpy, "clEnqueueMemcpyINTEL across every pair of usable kinds, blocking and non-blocking, "
             "interior pointers") {
    const std::vector<Kind> kinds = command_kinds(env);
    REQUIRE(!kinds.empty());
    constexpr size_t total = 4096;
    constexpr size_t size = 1000 + 3;
    unsigned seed = 1;
    for (Kind from : kinds) {
        for (Kind to : kinds) {
            Alloc src = must_alloc(env, from, total);
            Alloc dst = must_alloc(env, to, total);
            for (int blocking = 0; blocking < 2; ++blocking) {
                const size_t src_offset = 7 + blocking * 100;
                const size_t dst_offset = 129 + blocking;
                const std::vector<unsigned char> data = pattern_bytes(total, ++seed);
                write_bytes(env, from, src.get(), data.data(), total);
                std::vector<unsigned char> expected(total, 0xEE);
                write_bytes(env, to, dst.get(), expected.data(), total);
                std::memcpy(expected.data() + dst_offset, data.data() + src_offset, size);
                Event event;
                const cl_int error = env.usm.memcpy(
                    env.queue, blocking ? CL_TRUE : CL_FALSE, dst.bytes() + dst_offset,
                    src.bytes() + src_offset, size, 0, nullptr, event.out());
                CHECK_MSG(error == CL_SUCCESS, kind_name(from) << " -> " << kind_name(to)
                                                               << (blocking ? " blocking" : "")
                                                               << ": " << error_name(error));
                if (error != CL_SUCCESS)
                    continue;
                REQUIRE(event.get() != nullptr);
                if (blocking) {
                    CHECK_EQ(event_status(event.get()), CL_COMPLETE);
                } else {
                    cl_event e = event.get();
                    REQUIRE_OK(clWaitForEvents(1, &e));
                }
                CHECK_EQ(command_type(event.get()),
                         static_cast<cl_command_type>(CL_COMMAND_MEMCPY_INTEL));
                std::vector<unsigned char> got(total);
                read_bytes(env, to, got.data(), dst.get(), total);
                CHECK_MSG(got == expected, kind_name(from) << " -> " << kind_name(to)
                                                           << (blocking ? " blocking" : "")
                                                           << ": wrong destination contents");
                // The source is unchanged.
                std::vector<unsigned char> src_now(total);
                read_bytes(env, from, src_now.data(), src.get(), total);
                CHECK(src_now == data);
            }
        }
    }
    // Copies within one allocation (disjoint ranges).
    for (Kind kind : kinds) {
        Alloc alloc = must_alloc(env, kind, total);
        const std::vector<unsigned char> data = pattern_bytes(total, 99);
        write_bytes(env, kind, alloc.get(), data.data(), total);
        REQUIRE_OK(env.usm.memcpy(env.queue, CL_TRUE, alloc.bytes() + 2048, alloc.bytes() + 10,
                                  1000, 0, nullptr, nullptr));
        std::vector<unsigned char> expected = data;
        std::memcpy(expected.data() + 2048, data.data() + 10, 1000);
        std::vector<unsigned char> got(total);
        read_bytes(env, kind, got.data(), alloc.get(), total);
        CHECK_MSG(got == expected, kind_name(kind) << ": copy within one allocation");
    }
}

TEST(memcpy_errors, "clEnqueueMemcpyINTEL: every listed error, one per call") {
    const std::vector<Kind> kinds = command_kinds(env);
    REQUIRE(!kinds.empty());
    Alloc a = must_alloc(env, kinds.front(), 1024);
    Alloc b = must_alloc(env, kinds.back(), 1024);
    CHECK_ERR(env.usm.memcpy(nullptr, CL_FALSE, a.get(), b.get(), 64, 0, nullptr, nullptr),
              CL_INVALID_COMMAND_QUEUE);
    cl_int error = CL_SUCCESS;
    // A queue of its own for the calls that might wrongly enqueue a command
    // gated by an event that never completes or that failed.
    Queue queue(clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &error));
    REQUIRE_OK(error);
    {
        Context other = other_context(env);
        UserEvent foreign(other.get());
        const cl_event list[] = {foreign.get()};
        CHECK_ERR(env.usm.memcpy(queue.get(), CL_FALSE, a.get(), b.get(), 64, 1, list, nullptr),
                  CL_INVALID_CONTEXT);
    }
    CHECK_ERR(env.usm.memcpy(env.queue, CL_TRUE, nullptr, b.get(), 64, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    CHECK_ERR(env.usm.memcpy(env.queue, CL_TRUE, a.get(), nullptr, 64, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    {
        UserEvent valid(env.context);
        const cl_event one[] = {valid.get()};
        const cl_event null_event[] = {nullptr};
        for (const WaitListCase& c : bad_wait_lists(one, null_event)) {
            const cl_int got = env.usm.memcpy(queue.get(), CL_FALSE, a.get(), b.get(), 64, c.count,
                                              c.list, nullptr);
            CHECK_MSG(got == CL_INVALID_EVENT_WAIT_LIST,
                      c.what << ": " << error_name(got) << ", expected CL_INVALID_EVENT_WAIT_LIST");
        }
    }
    // A blocking copy whose wait list holds a failed event.
    {
        UserEvent failed(env.context);
        CHECK_OK(failed.set(-1));
        const cl_event list[] = {failed.get()};
        CHECK_ERR(env.usm.memcpy(queue.get(), CL_TRUE, a.get(), b.get(), 64, 1, list, nullptr),
                  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    // Overlapping copies, both directions, and the same range.
    CHECK_ERR(env.usm.memcpy(env.queue, CL_TRUE, a.bytes() + 16, a.get(), 64, 0, nullptr, nullptr),
              CL_MEM_COPY_OVERLAP);
    CHECK_ERR(env.usm.memcpy(env.queue, CL_TRUE, a.get(), a.bytes() + 16, 64, 0, nullptr, nullptr),
              CL_MEM_COPY_OVERLAP);
    CHECK_ERR(env.usm.memcpy(env.queue, CL_TRUE, a.get(), a.get(), 64, 0, nullptr, nullptr),
              CL_MEM_COPY_OVERLAP);
    // Adjacent ranges do not overlap.
    CHECK_OK(env.usm.memcpy(env.queue, CL_TRUE, a.bytes() + 64, a.get(), 64, 0, nullptr, nullptr));
}

TEST(migrate, "clEnqueueMigrateMemINTEL with valid arguments on shared allocations: events, "
              "contents kept") {
    std::vector<Kind> kinds;
    for (Kind k : {Kind::shared, Kind::shared_null_device})
        if (env.allocatable(k))
            kinds.push_back(k);
    if (kinds.empty())
        SKIP("the device supports no shared allocations");
    constexpr size_t size = 64 * 1024;
    for (Kind kind : kinds) {
        Alloc alloc = must_alloc(env, kind, size);
        const std::vector<unsigned char> data = pattern_bytes(size, 5);
        std::memcpy(alloc.get(), data.data(), size);
        // "flags is zero or is not a supported combination" is
        // CL_INVALID_VALUE: which non-zero combinations are supported is the
        // device's choice, so each may succeed or be CL_INVALID_VALUE, and at
        // least one must succeed.
        int succeeded = 0;
        for (cl_mem_migration_flags flags :
             {cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_HOST},
              cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED},
              cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_HOST |
                                     CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED}}) {
            Event event;
            const cl_int error =
                env.usm.migrate(env.queue, alloc.get(), size, flags, 0, nullptr, event.out());
            CHECK_MSG(error == CL_SUCCESS || error == CL_INVALID_VALUE,
                      kind_name(kind) << " flags " << flags << ": " << error_name(error));
            if (error != CL_SUCCESS) {
                note(std::string("migration flags ") + std::to_string(flags) + " on " +
                     kind_name(kind) + ": " + error_name(error));
                continue;
            }
            ++succeeded;
            cl_event e = event.get();
            REQUIRE_OK(clWaitForEvents(1, &e));
            CHECK_EQ(command_type(e), static_cast<cl_command_type>(CL_COMMAND_MIGRATEMEM_INTEL));
            if (!(flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
                CHECK_MSG(std::memcmp(alloc.get(), data.data(), size) == 0,
                          kind_name(kind) << ": contents changed by a migration");
            std::memcpy(alloc.get(), data.data(), size);
        }
        CHECK_MSG(succeeded > 0, kind_name(kind) << ": no migration flags accepted");
        // A part of the allocation, without an event.
        CHECK_OK(env.usm.migrate(env.queue, alloc.bytes() + 4096, 8192, CL_MIGRATE_MEM_OBJECT_HOST,
                                 0, nullptr, nullptr));
        CHECK_OK(clFinish(env.queue));
        CHECK(std::memcmp(alloc.get(), data.data(), size) == 0);
        // A kernel still sees the data after a migration to the device.
        if (env.accessible(kind)) {
            Kernel rw = make_kernel(common_program(env), "rw");
            Alloc out = must_alloc(env, kind, 16 * sizeof(cl_int));
            const cl_int add = 1;
            REQUIRE_OK(env.usm.set_arg_pointer(rw.get(), 0, alloc.get()));
            REQUIRE_OK(env.usm.set_arg_pointer(rw.get(), 1, out.get()));
            REQUIRE_OK(clSetKernelArg(rw.get(), 2, sizeof(add), &add));
            const size_t global = 16;
            REQUIRE_OK(clEnqueueNDRangeKernel(env.queue, rw.get(), 1, nullptr, &global, nullptr, 0,
                                              nullptr, nullptr));
            REQUIRE_OK(clFinish(env.queue));
            const cl_int* in = alloc.as<cl_int>();
            for (int i = 0; i < 16; ++i)
                CHECK_EQ(out.as<cl_int>()[i], in[i] * 3 + 1);
        }
    }
}

TEST(migrate_errors, "clEnqueueMigrateMemINTEL: every listed error, one per call") {
    Kind kind;
    if (!hint_kind(env, kind))
        SKIP("the device supports no shared allocations");
    Alloc alloc = must_alloc(env, kind, 4096);
    const cl_mem_migration_flags host = CL_MIGRATE_MEM_OBJECT_HOST;
    CHECK_ERR(env.usm.migrate(nullptr, alloc.get(), 4096, host, 0, nullptr, nullptr),
              CL_INVALID_COMMAND_QUEUE);
    {
        Context other = other_context(env);
        UserEvent foreign(other.get());
        const cl_event list[] = {foreign.get()};
        CHECK_ERR(env.usm.migrate(env.queue, alloc.get(), 4096, host, 1, list, nullptr),
                  CL_INVALID_CONTEXT);
    }
    CHECK_ERR(env.usm.migrate(env.queue, alloc.get(), 4096, 0, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    CHECK_ERR(env.usm.migrate(env.queue, alloc.get(), 4096, cl_mem_migration_flags{1} << 20, 0,
                              nullptr, nullptr),
              CL_INVALID_VALUE);
    UserEvent valid(env.context);
    const cl_event one[] = {valid.get()};
    const cl_event null_event[] = {nullptr};
    for (const WaitListCase& c : bad_wait_lists(one, null_event)) {
        const cl_int error =
            env.usm.migrate(env.queue, alloc.get(), 4096, host, c.count, c.list, nullptr);
        CHECK_MSG(error == CL_INVALID_EVENT_WAIT_LIST,
                  c.what << ": " << error_name(error) << ", expected CL_INVALID_EVENT_WAIT_LIST");
    }
}

TEST(advise, "clEnqueueMemAdviseINTEL with advice 0 on shared allocations: events, contents kept") {
    std::vector<Kind> kinds;
    for (Kind k : {Kind::shared, Kind::shared_null_device})
        if (env.allocatable(k))
            kinds.push_back(k);
    if (kinds.empty())
        SKIP("the device supports no shared allocations");
    constexpr size_t size = 16 * 1024;
    for (Kind kind : kinds) {
        Alloc alloc = must_alloc(env, kind, size);
        const std::vector<unsigned char> data = pattern_bytes(size, 9);
        std::memcpy(alloc.get(), data.data(), size);
        Event event;
        REQUIRE_OK(env.usm.advise(env.queue, alloc.get(), size, 0, 0, nullptr, event.out()));
        cl_event e = event.get();
        REQUIRE(e != nullptr);
        REQUIRE_OK(clWaitForEvents(1, &e));
        CHECK_EQ(command_type(e), static_cast<cl_command_type>(CL_COMMAND_MEMADVISE_INTEL));
        CHECK_OK(env.usm.advise(env.queue, alloc.bytes() + 100, 1000, 0, 0, nullptr, nullptr));
        CHECK_OK(clFinish(env.queue));
        CHECK(std::memcmp(alloc.get(), data.data(), size) == 0);
    }
}

TEST(advise_errors, "clEnqueueMemAdviseINTEL: every listed error, one per call") {
    Kind kind;
    if (!hint_kind(env, kind))
        SKIP("the device supports no shared allocations");
    Alloc alloc = must_alloc(env, kind, 4096);
    CHECK_ERR(env.usm.advise(nullptr, alloc.get(), 4096, 0, 0, nullptr, nullptr),
              CL_INVALID_COMMAND_QUEUE);
    {
        Context other = other_context(env);
        UserEvent foreign(other.get());
        const cl_event list[] = {foreign.get()};
        CHECK_ERR(env.usm.advise(env.queue, alloc.get(), 4096, 0, 1, list, nullptr),
                  CL_INVALID_CONTEXT);
    }
    // An advice no device defines: "not supported advice" is
    // CL_INVALID_VALUE, but unsupported hints "will be ignored": both
    // answers are allowed.
    const cl_int error =
        env.usm.advise(env.queue, alloc.get(), 4096, 0x7FFFFFF0u, 0, nullptr, nullptr);
    CHECK_MSG(error == CL_SUCCESS || error == CL_INVALID_VALUE,
              "unknown advice: " << error_name(error));
    note("an unknown advice value answered " + error_name(error));
    UserEvent valid(env.context);
    const cl_event one[] = {valid.get()};
    const cl_event null_event[] = {nullptr};
    for (const WaitListCase& c : bad_wait_lists(one, null_event)) {
        const cl_int got =
            env.usm.advise(env.queue, alloc.get(), 4096, 0, c.count, c.list, nullptr);
        CHECK_MSG(got == CL_INVALID_EVENT_WAIT_LIST,
                  c.what << ": " << error_name(got) << ", expected CL_INVALID_EVENT_WAIT_LIST");
    }
}

TEST(event_wait_lists, "every USM command waits for its wait list (a user event), and its event "
                       "reports the command type, queue and context") {
    const std::vector<Kind> kinds = command_kinds(env);
    REQUIRE(!kinds.empty());
    const Kind kind = kinds.front();
    Kind hint = kind;
    const bool hints = hint_kind(env, hint);
    constexpr size_t size = 4096;
    Alloc a = must_alloc(env, kind, size);
    Alloc b = must_alloc(env, kind, size);
    Alloc h;
    if (hints)
        h = must_alloc(env, hint, size);
    const std::vector<unsigned char> zeros(size, 0), ones(size, 1);
    write_bytes(env, kind, a.get(), zeros.data(), size);
    write_bytes(env, kind, b.get(), zeros.data(), size);

    // An out-of-order queue if the device has one, else in-order: the
    // commands depend only on the user events either way.
    UserEvent gate(env.context);
    UserEvent gate2(env.context);
    const cl_event both[] = {gate.get(), gate2.get()};
    const unsigned char one = 1;
    Event fill, copy, migrate, advise;
    REQUIRE_OK(env.usm.fill(env.queue, a.get(), &one, 1, size, 2, both, fill.out()));
    cl_event after_fill = fill.get();
    REQUIRE_OK(
        env.usm.memcpy(env.queue, CL_FALSE, b.get(), a.get(), size, 1, &after_fill, copy.out()));
    if (hints) {
        REQUIRE_OK(env.usm.migrate(env.queue, h.get(), size, CL_MIGRATE_MEM_OBJECT_HOST, 1, both,
                                   migrate.out()));
        REQUIRE_OK(env.usm.advise(env.queue, h.get(), size, 0, 1, both, advise.out()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::vector<const Event*> events = {&fill, &copy};
    if (hints) {
        events.push_back(&migrate);
        events.push_back(&advise);
    }
    for (const Event* e : events) {
        const cl_int status = event_status(e->get());
        CHECK_MSG(status > CL_RUNNING,
                  "a command gated by an incomplete user event has status " << status);
    }
    if (host_accessible(kind)) {
        CHECK_MSG(std::memcmp(a.get(), zeros.data(), size) == 0, "the fill ran before its gate");
        CHECK_MSG(std::memcmp(b.get(), zeros.data(), size) == 0, "the copy ran before its gate");
    }
    CHECK_OK(gate.set(CL_COMPLETE));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_MSG(event_status(fill.get()) > CL_RUNNING,
              "the fill ran with one of its two events incomplete");
    CHECK_OK(gate2.set(CL_COMPLETE));
    std::vector<cl_event> raw;
    for (const Event* e : events)
        raw.push_back(e->get());
    REQUIRE_OK(clWaitForEvents(static_cast<cl_uint>(raw.size()), raw.data()));
    CHECK(read_vector<unsigned char>(env, kind, b.get(), size) == ones);
    const cl_command_type types[] = {CL_COMMAND_MEMFILL_INTEL, CL_COMMAND_MEMCPY_INTEL,
                                     CL_COMMAND_MIGRATEMEM_INTEL, CL_COMMAND_MEMADVISE_INTEL};
    for (size_t i = 0; i < raw.size(); ++i) {
        CHECK_EQ(event_status(raw[i]), CL_COMPLETE);
        CHECK_EQ(command_type(raw[i]), types[i]);
        cl_command_queue queue = nullptr;
        CHECK_OK(clGetEventInfo(raw[i], CL_EVENT_COMMAND_QUEUE, sizeof(queue), &queue, nullptr));
        CHECK_EQ(queue, env.queue);
        cl_context context = nullptr;
        CHECK_OK(clGetEventInfo(raw[i], CL_EVENT_CONTEXT, sizeof(context), &context, nullptr));
        CHECK_EQ(context, env.context);
    }
}

TEST(profiling, "profiling information of every USM command on a profiling queue") {
    const std::vector<Kind> kinds = command_kinds(env);
    REQUIRE(!kinds.empty());
    const Kind kind = kinds.front();
    constexpr size_t size = 64 * 1024;
    Alloc a = must_alloc(env, kind, size);
    Alloc b = must_alloc(env, kind, size);
    Kind hint = kind;
    const bool hints = hint_kind(env, hint);
    Alloc h;
    if (hints)
        h = must_alloc(env, hint, size);
    cl_command_queue q = env.profiling_queue;
    const cl_uint pattern = 0xA5A5A5A5u;
    std::vector<std::pair<const char*, Event>> events;
    auto add = [&](const char* what) -> cl_event* {
        events.emplace_back(what, Event());
        return events.back().second.out();
    };
    REQUIRE_OK(env.usm.fill(q, a.get(), &pattern, sizeof(pattern), size, 0, nullptr, add("fill")));
    REQUIRE_OK(env.usm.memcpy(q, CL_FALSE, b.get(), a.get(), size, 0, nullptr,
                              add("non-blocking memcpy")));
    REQUIRE_OK(
        env.usm.memcpy(q, CL_TRUE, a.get(), b.get(), size, 0, nullptr, add("blocking memcpy")));
    if (hints) {
        REQUIRE_OK(env.usm.migrate(q, h.get(), size, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                                   add("migrate")));
        REQUIRE_OK(env.usm.advise(q, h.get(), size, 0, 0, nullptr, add("advise")));
    }
    REQUIRE_OK(clFinish(q));
    for (auto& [what, event] : events) {
        cl_ulong queued = 0, submit = 0, start = 0, end = 0;
        CHECK_OK(clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_QUEUED, sizeof(queued),
                                         &queued, nullptr));
        CHECK_OK(clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_SUBMIT, sizeof(submit),
                                         &submit, nullptr));
        CHECK_OK(clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_START, sizeof(start),
                                         &start, nullptr));
        CHECK_OK(clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_END, sizeof(end), &end,
                                         nullptr));
        CHECK_MSG(queued != 0 && queued <= submit && submit <= start && start <= end,
                  what << ": queued " << queued << ", submit " << submit << ", start " << start
                       << ", end " << end);
        cl_ulong complete = 0;
        if (clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_COMPLETE, sizeof(complete),
                                    &complete, nullptr) == CL_SUCCESS)
            CHECK_MSG(complete >= end, what << ": complete " << complete << " < end " << end);
    }
    // Profiling info on a queue without profiling is not available.
    Event plain;
    REQUIRE_OK(
        env.usm.fill(env.queue, a.get(), &pattern, sizeof(pattern), size, 0, nullptr, plain.out()));
    REQUIRE_OK(clFinish(env.queue));
    cl_ulong value = 0;
    CHECK_ERR(clGetEventProfilingInfo(plain.get(), CL_PROFILING_COMMAND_START, sizeof(value),
                                      &value, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
}
