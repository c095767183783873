// The USM commands: clEnqueueMemFillINTEL (every pattern size, every kind of
// memory, byte by byte), clEnqueueMemsetINTEL, clEnqueueMemcpyINTEL (every
// pair of memory kinds, blocking and not, overlap, failed wait lists),
// clEnqueueMigrateMemINTEL and clEnqueueMemAdviseINTEL; their argument and
// wait-list errors; their events (command type, queue, context, profiling)
// and their wait lists on in-order and out-of-order queues.
#include "usm_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <functional>

using namespace cl_test;
using namespace usm_test;

namespace {

constexpr Kind all_kinds[] = {Kind::host, Kind::device, Kind::shared, Kind::system};

// The content of any memory, read with a blocking copy into a host vector
// (device memory is not read by the host directly).
std::vector<unsigned char> contents(const Fixture& f, const void* ptr, size_t size) {
    std::vector<unsigned char> copy(size);
    REQUIRE_OK(f.usm.memcpy(f.q(), CL_TRUE, copy.data(), ptr, size, 0, nullptr, nullptr));
    return copy;
}

void store(const Fixture& f, void* ptr, const std::vector<unsigned char>& values) {
    REQUIRE_OK(
        f.usm.memcpy(f.q(), CL_TRUE, ptr, values.data(), values.size(), 0, nullptr, nullptr));
}

std::vector<unsigned char> pattern_bytes(size_t size, unsigned seed) {
    std::vector<unsigned char> bytes(size);
    uint32_t x = 0x9e3779b9u ^ seed;
    for (auto& b : bytes) {
        x = x * 1664525u + 1013904223u;
        b = static_cast<unsigned char>(x >> 24);
    }
    return bytes;
}

// The first index where two byte vectors differ, or -1.
long first_difference(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            return static_cast<long>(i);
    return -1;
}

EventPtr take(cl_event raw) {
    REQUIRE(raw != nullptr);
    return EventPtr(raw);
}

void require_complete(cl_event event) {
    REQUIRE(wait_bounded(event));
    REQUIRE(event_status(event) == CL_COMPLETE);
}

template <class T>
T event_info(cl_event event, cl_event_info param) {
    return info<T>(clGetEventInfo, event, param);
}

cl_ulong profile(cl_event event, cl_profiling_info param) {
    cl_ulong value = 0;
    REQUIRE_OK(clGetEventProfilingInfo(event, param, sizeof value, &value, nullptr));
    return value;
}

// One call of each USM command on valid arguments (dst/ptr of size bytes,
// src of size bytes), with the wait list and event given; used for the checks
// every command shares.
struct Command {
    const char* name;
    cl_command_type type;
    std::function<cl_int(cl_command_queue, cl_uint, const cl_event*, cl_event*)> call;
};

std::vector<Command> every_command(const Fixture& f, void* dst, const void* src, size_t size) {
    static const unsigned char pattern[4] = {1, 2, 3, 4};
    const Usm& u = f.usm;
    return {
        {"clEnqueueMemFillINTEL", CL_COMMAND_MEMFILL_INTEL,
         [=, &u](cl_command_queue q, cl_uint n, const cl_event* list, cl_event* e) {
             return u.fill(q, dst, pattern, 4, size, n, list, e);
         }},
        {"clEnqueueMemsetINTEL", CL_COMMAND_MEMFILL_INTEL,
         [=, &u](cl_command_queue q, cl_uint n, const cl_event* list, cl_event* e) {
             return u.memset(q, dst, 0x3c, size, n, list, e);
         }},
        {"clEnqueueMemcpyINTEL", CL_COMMAND_MEMCPY_INTEL,
         [=, &u](cl_command_queue q, cl_uint n, const cl_event* list, cl_event* e) {
             return u.memcpy(q, CL_FALSE, dst, src, size, n, list, e);
         }},
        {"clEnqueueMigrateMemINTEL", CL_COMMAND_MIGRATEMEM_INTEL,
         [=, &u](cl_command_queue q, cl_uint n, const cl_event* list, cl_event* e) {
             return u.migrate(q, dst, size, CL_MIGRATE_MEM_OBJECT_HOST, n, list, e);
         }},
        {"clEnqueueMemAdviseINTEL", CL_COMMAND_MEMADVISE_INTEL,
         [=, &u](cl_command_queue q, cl_uint n, const cl_event* list, cl_event* e) {
             return u.advise(q, dst, size, 0, n, list, e);
         }},
    };
}

// Sets a user event's status when the scope ends, so that no command is left
// waiting on it whatever a test does.
struct Release {
    cl_event event;
    ~Release() { clSetUserEventStatus(event, CL_COMPLETE); }
};

} // namespace

TEST_CASE("clEnqueueMemFillINTEL: every pattern size on every kind of memory, byte by byte",
          "[commands][fill]") {
    Fixture f;
    constexpr size_t total = 4096;
    for (Kind kind : all_kinds) {
        Memory memory(f, kind, total);
        for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
            INFO(kind_name(kind) << " memory, pattern_size " << pattern_size);
            // Guard bytes around the filled range [offset, offset + size).
            const std::vector<unsigned char> before = pattern_bytes(total, 7u * pattern_size);
            store(f, memory.ptr, before);
            const std::vector<unsigned char> pattern =
                pattern_bytes(pattern_size, static_cast<unsigned>(pattern_size));
            const size_t offset = pattern_size * (pattern_size < 64 ? 3 : 1);
            const size_t size = pattern_size * (pattern_size < 64 ? 37 : 11);
            REQUIRE(offset + size < total);

            cl_event raw = nullptr;
            REQUIRE_OK(f.usm.fill(f.q(), memory.bytes() + offset, pattern.data(), pattern_size,
                                  size, 0, nullptr, &raw));
            EventPtr event = take(raw);
            require_complete(raw);

            std::vector<unsigned char> expected = before;
            for (size_t i = 0; i < size; ++i)
                expected[offset + i] = pattern[i % pattern_size];
            const std::vector<unsigned char> after = contents(f, memory.ptr, total);
            const long at = first_difference(after, expected);
            INFO("first wrong byte at " << at);
            CHECK(at == -1);
        }
    }
}

TEST_CASE("clEnqueueMemFillINTEL copies the pattern at the call", "[commands][fill]") {
    Fixture f;
    Memory memory(f, Kind::host, 256);
    std::memset(memory.ptr, 0, 256);
    EventPtr gate = make_user_event(f.ctx());
    Release release{gate.get()};
    cl_event g = gate.get();
    {
        uint64_t pattern = 0x1122334455667788ull;
        REQUIRE_OK(f.usm.fill(f.q(), memory.ptr, &pattern, sizeof pattern, 256, 1, &g, nullptr));
        pattern = 0; // the spec: the pattern may be reused after the call
    }
    REQUIRE_OK(clSetUserEventStatus(g, CL_COMPLETE));
    REQUIRE_OK(clFinish(f.q()));
    const uint64_t* words = static_cast<const uint64_t*>(memory.ptr);
    for (int i = 0; i < 32; ++i)
        CHECK(words[i] == 0x1122334455667788ull);
}

TEST_CASE("clEnqueueMemFillINTEL argument errors", "[commands][fill][errors]") {
    Fixture f;
    Memory memory(f, Kind::host, 1024);
    std::memset(memory.ptr, 0xee, 1024);
    const unsigned char pattern[256] = {1};
    unsigned char* const dst = memory.bytes();

    CHECK_CL(f.usm.fill(f.q(), nullptr, pattern, 4, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(f.usm.fill(f.q(), dst, nullptr, 4, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);
    for (size_t bad : {size_t{0}, size_t{3}, size_t{6}, size_t{12}, size_t{256}, size_t{512}}) {
        INFO("pattern_size " << bad);
        CHECK_CL(f.usm.fill(f.q(), dst, pattern, bad, bad ? bad * 2 : 64, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
    }
    // dst not aligned to pattern_size.
    CHECK_CL(f.usm.fill(f.q(), dst + 1, pattern, 2, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(f.usm.fill(f.q(), dst + 2, pattern, 4, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(f.usm.fill(f.q(), dst + 64, pattern, 128, 128, 0, nullptr, nullptr), CL_INVALID_VALUE);
    // size not a multiple of pattern_size.
    CHECK_CL(f.usm.fill(f.q(), dst, pattern, 4, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(f.usm.fill(f.q(), dst, pattern, 128, 129, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(f.usm.fill(f.q(), dst, pattern, 16, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);

    REQUIRE_OK(clFinish(f.q()));
    for (int i = 0; i < 1024; ++i) {
        INFO("byte " << i);
        REQUIRE(dst[i] == 0xee); // no failed call wrote anything
    }

    // size 0 is a command that does nothing.
    cl_event raw = nullptr;
    CHECK_OK(f.usm.fill(f.q(), dst, pattern, 4, 0, 0, nullptr, &raw));
    EventPtr event = take(raw);
    require_complete(raw);
    CHECK(event_info<cl_command_type>(raw, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_MEMFILL_INTEL);
    CHECK(dst[0] == 0xee);
}

TEST_CASE("clEnqueueMemsetINTEL fills with the low byte of value", "[commands][memset]") {
    Fixture f;
    constexpr size_t total = 1000;
    for (Kind kind : all_kinds) {
        INFO(kind_name(kind) << " memory");
        Memory memory(f, kind, total);
        store(f, memory.ptr, std::vector<unsigned char>(total, 0x11));
        cl_event raw = nullptr;
        // An odd start and size: memset has no alignment requirement.
        REQUIRE_OK(f.usm.memset(f.q(), memory.bytes() + 3, 0x7e5a01ab, 777, 0, nullptr, &raw));
        EventPtr event = take(raw);
        require_complete(raw);
        CHECK(event_info<cl_command_type>(raw, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_MEMFILL_INTEL);
        std::vector<unsigned char> expected(total, 0x11);
        std::fill_n(expected.begin() + 3, 777, 0xab);
        CHECK(first_difference(contents(f, memory.ptr, total), expected) == -1);
    }
    Memory memory(f, Kind::host, 16);
    CHECK_CL(f.usm.memset(f.q(), nullptr, 0, 16, 0, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("clEnqueueMemcpyINTEL between every pair of memory kinds", "[commands][memcpy]") {
    Fixture f;
    constexpr size_t total = 70000;
    constexpr size_t src_offset = 3, dst_offset = 129, size = 65539;
    unsigned seed = 1;
    for (Kind from : all_kinds) {
        for (Kind to : all_kinds) {
            for (bool blocking : {true, false}) {
                INFO(kind_name(from)
                     << " -> " << kind_name(to) << (blocking ? ", blocking" : ", non-blocking"));
                Memory src(f, from, total);
                Memory dst(f, to, total);
                const std::vector<unsigned char> data = pattern_bytes(total, ++seed);
                const std::vector<unsigned char> old = pattern_bytes(total, ++seed);
                store(f, src.ptr, data);
                store(f, dst.ptr, old);

                cl_event raw = nullptr;
                REQUIRE_OK(f.usm.memcpy(f.q(), blocking ? CL_TRUE : CL_FALSE,
                                        dst.bytes() + dst_offset, src.bytes() + src_offset, size, 0,
                                        nullptr, &raw));
                EventPtr event = take(raw);
                if (blocking)
                    CHECK(event_status(raw) == CL_COMPLETE);
                require_complete(raw);
                CHECK(event_info<cl_command_type>(raw, CL_EVENT_COMMAND_TYPE) ==
                      CL_COMMAND_MEMCPY_INTEL);

                std::vector<unsigned char> expected = old;
                std::copy_n(data.begin() + src_offset, size, expected.begin() + dst_offset);
                const long at = first_difference(contents(f, dst.ptr, total), expected);
                INFO("first wrong byte at " << at);
                CHECK(at == -1);
                CHECK(first_difference(contents(f, src.ptr, total), data) == -1);
            }
        }
    }
}

TEST_CASE("clEnqueueMemcpyINTEL argument errors, overlap and size 0", "[commands][memcpy]") {
    Fixture f;
    for (Kind kind : all_kinds) {
        INFO(kind_name(kind) << " memory");
        Memory memory(f, kind, 1024);
        Memory other(f, Kind::host, 1024);
        const std::vector<unsigned char> data = pattern_bytes(1024, 99);
        store(f, memory.ptr, data);
        unsigned char* const p = memory.bytes();

        CHECK_CL(f.usm.memcpy(f.q(), CL_TRUE, nullptr, other.ptr, 16, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(f.usm.memcpy(f.q(), CL_TRUE, other.ptr, nullptr, 16, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(f.usm.memcpy(f.q(), CL_FALSE, nullptr, nullptr, 16, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);

        // Overlapping ranges of one allocation, both directions, and the same
        // range.
        CHECK_CL(f.usm.memcpy(f.q(), CL_TRUE, p + 50, p, 100, 0, nullptr, nullptr),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(f.usm.memcpy(f.q(), CL_TRUE, p, p + 50, 100, 0, nullptr, nullptr),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(f.usm.memcpy(f.q(), CL_FALSE, p + 99, p, 100, 0, nullptr, nullptr),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(f.usm.memcpy(f.q(), CL_FALSE, p + 7, p + 7, 1, 0, nullptr, nullptr),
                 CL_MEM_COPY_OVERLAP);
        REQUIRE_OK(clFinish(f.q()));
        CHECK(first_difference(contents(f, p, 1024), data) == -1);

        // Adjacent ranges do not overlap.
        REQUIRE_OK(f.usm.memcpy(f.q(), CL_TRUE, p + 100, p, 100, 0, nullptr, nullptr));
        REQUIRE_OK(f.usm.memcpy(f.q(), CL_TRUE, p + 800, p + 900, 100, 0, nullptr, nullptr));
        std::vector<unsigned char> expected = data;
        std::copy_n(data.begin(), 100, expected.begin() + 100);
        std::copy_n(data.begin() + 900, 100, expected.begin() + 800);
        CHECK(first_difference(contents(f, p, 1024), expected) == -1);

        // size 0 does nothing, blocking or not.
        CHECK_OK(f.usm.memcpy(f.q(), CL_TRUE, other.ptr, p, 0, 0, nullptr, nullptr));
        cl_event raw = nullptr;
        CHECK_OK(f.usm.memcpy(f.q(), CL_FALSE, p, other.ptr, 0, 0, nullptr, &raw));
        EventPtr event = take(raw);
        require_complete(raw);
        CHECK(first_difference(contents(f, p, 1024), expected) == -1);
    }
}

TEST_CASE("a blocking clEnqueueMemcpyINTEL whose wait list failed returns "
          "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
          "[commands][memcpy][failure]") {
    Fixture f;
    Memory src(f, Kind::shared, 256);
    Memory dst(f, Kind::host, 256);
    std::memset(src.ptr, 0x42, 256);
    std::memset(dst.ptr, 0x00, 256);

    SECTION("the user event itself failed") {
        EventPtr gate = make_user_event(f.ctx());
        cl_event g = gate.get();
        REQUIRE_OK(clSetUserEventStatus(g, -5));
        CHECK_CL(f.usm.memcpy(f.q(), CL_TRUE, dst.ptr, src.ptr, 256, 1, &g, nullptr),
                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    SECTION("a command that waited on the failed user event") {
        EventPtr gate = make_user_event(f.ctx());
        cl_event g = gate.get();
        cl_event raw = nullptr;
        const unsigned char one = 1;
        REQUIRE_OK(f.usm.fill(f.q(), src.ptr, &one, 1, 256, 1, &g, &raw));
        EventPtr filled = take(raw);
        REQUIRE_OK(clSetUserEventStatus(g, -7));
        REQUIRE(wait_bounded(raw));
        CHECK(event_status(raw) < 0);
        CHECK_CL(f.usm.memcpy(f.q(), CL_TRUE, dst.ptr, src.ptr, 256, 1, &raw, nullptr),
                 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    // The failed copy did not copy.
    for (int i = 0; i < 256; ++i) {
        INFO("byte " << i);
        REQUIRE(static_cast<unsigned char*>(dst.ptr)[i] == 0);
    }
}

TEST_CASE("a non-blocking copy waiting on a user event runs only after it completes",
          "[commands][memcpy][order]") {
    Fixture f;
    Memory src(f, Kind::device, 4096);
    Memory dst(f, Kind::shared, 4096);
    const std::vector<unsigned char> data = pattern_bytes(4096, 5);
    store(f, src.ptr, data);
    std::memset(dst.ptr, 0, 4096);

    EventPtr gate = make_user_event(f.ctx());
    Release release{gate.get()};
    cl_event g = gate.get();
    cl_event raw = nullptr;
    REQUIRE_OK(f.usm.memcpy(f.q(), CL_FALSE, dst.ptr, src.ptr, 4096, 1, &g, &raw));
    EventPtr copy = take(raw);
    std::this_thread::sleep_for(150ms);
    CHECK(event_status(raw) > CL_COMPLETE);
    CHECK(std::all_of(dst.bytes(), dst.bytes() + 4096, [](unsigned char b) { return b == 0; }));

    REQUIRE_OK(clSetUserEventStatus(g, CL_COMPLETE));
    require_complete(raw);
    CHECK(std::equal(data.begin(), data.end(), dst.bytes()));
}

TEST_CASE("clEnqueueMigrateMemINTEL flags and pointer", "[commands][migrate]") {
    Fixture f;
    constexpr size_t total = 3 * 4096 + 100;
    Memory shared(f, Kind::shared, total);
    const std::vector<unsigned char> data = pattern_bytes(total, 17);
    std::memcpy(shared.ptr, data.data(), total);

    CHECK_CL(f.usm.migrate(f.q(), shared.ptr, total, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(f.usm.migrate(f.q(), shared.ptr, total, 1u << 5, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(f.usm.migrate(f.q(), shared.ptr, total, CL_MIGRATE_MEM_OBJECT_HOST | (1u << 8), 0,
                           nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(f.usm.migrate(f.q(), nullptr, total, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr),
             CL_INVALID_VALUE);

    // The valid combinations succeed; usmcl moves whole pages, keeping their
    // content (docs/usm.md), so the data reads the same afterwards.
    const cl_mem_migration_flags valid[] = {
        CL_MIGRATE_MEM_OBJECT_HOST, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
    for (cl_mem_migration_flags flags : valid) {
        INFO("flags " << flags);
        cl_event raw = nullptr;
        // An interior, unaligned range too: the whole pages around it move.
        REQUIRE_OK(f.usm.migrate(f.q(), shared.bytes() + 1000, 5000, flags, 0, nullptr, &raw));
        EventPtr event = take(raw);
        require_complete(raw);
        CHECK(event_info<cl_command_type>(raw, CL_EVENT_COMMAND_TYPE) ==
              CL_COMMAND_MIGRATEMEM_INTEL);
        REQUIRE_OK(f.usm.migrate(f.q(), shared.ptr, total, flags, 0, nullptr, nullptr));
        REQUIRE_OK(clFinish(f.q()));
        CHECK(std::memcmp(shared.ptr, data.data(), total) == 0);
    }
    // A hint on other memory kinds is accepted and changes nothing.
    for (Kind kind : {Kind::host, Kind::device, Kind::system}) {
        INFO(kind_name(kind) << " memory");
        Memory memory(f, kind, total);
        store(f, memory.ptr, data);
        CHECK_OK(f.usm.migrate(f.q(), memory.ptr, total, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                               nullptr));
        REQUIRE_OK(clFinish(f.q()));
        CHECK(first_difference(contents(f, memory.ptr, total), data) == -1);
    }
}

TEST_CASE("clEnqueueMemAdviseINTEL advice values and pointer", "[commands][advise]") {
    Fixture f;
    Memory shared(f, Kind::shared, 8192);
    const std::vector<unsigned char> data = pattern_bytes(8192, 23);
    std::memcpy(shared.ptr, data.data(), 8192);

    cl_event raw = nullptr;
    CHECK_OK(f.usm.advise(f.q(), shared.ptr, 8192, 0, 0, nullptr, &raw));
    EventPtr event = take(raw);
    require_complete(raw);
    CHECK(event_info<cl_command_type>(raw, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_MEMADVISE_INTEL);
    for (cl_mem_advice_intel bad : {1u, 2u, 0x4208u, 0x420fu, 0xffffffffu}) {
        INFO("advice 0x" << std::hex << bad);
        CHECK_CL(f.usm.advise(f.q(), shared.ptr, 8192, bad, 0, nullptr, nullptr), CL_INVALID_VALUE);
    }
    CHECK_CL(f.usm.advise(f.q(), nullptr, 8192, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
    REQUIRE_OK(clFinish(f.q()));
    CHECK(std::memcmp(shared.ptr, data.data(), 8192) == 0);
}

TEST_CASE("every USM command checks its queue and wait list", "[commands][errors]") {
    Fixture f;
    Memory dst(f, Kind::shared, 256);
    Memory src(f, Kind::host, 256);
    std::memset(src.ptr, 9, 256);

    cl_test::ContextPtr other_context = make_context({f.device});
    EventPtr foreign = make_user_event(other_context.get());
    Release release_foreign{foreign.get()};
    EventPtr mine = make_user_event(f.ctx());
    Release release_mine{mine.get()};
    REQUIRE_OK(clSetUserEventStatus(mine.get(), CL_COMPLETE));
    cl_event fe = foreign.get();
    cl_event me = mine.get();
    FakeObject fake_event(me, 0x5c);
    cl_event fake = fake_event.as<cl_event>();
    FakeObject fake_queue_object(f.q(), 0x21);

    for (const Command& command : every_command(f, dst.ptr, src.ptr, 256)) {
        INFO(command.name);
        cl_event out = nullptr;
        CHECK_CL(command.call(f.q(), 1, nullptr, &out), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(command.call(f.q(), 0, &me, &out), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(command.call(f.q(), 1, &fake, &out), CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(command.call(f.q(), 1, &fe, &out), CL_INVALID_CONTEXT);
        const cl_event mixed[] = {me, fe};
        CHECK_CL(command.call(f.q(), 2, mixed, &out), CL_INVALID_CONTEXT);
        CHECK_CL(command.call(nullptr, 0, nullptr, &out), CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(command.call(fake_queue_object.as<cl_command_queue>(), 0, nullptr, &out),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(command.call(reinterpret_cast<cl_command_queue>(f.ctx()), 0, nullptr, &out),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK(out == nullptr); // no event for a failed call

        // And with a valid wait list the same call works.
        REQUIRE_OK(command.call(f.q(), 1, &me, &out));
        EventPtr event = take(out);
        require_complete(out);
    }
}

TEST_CASE("USM command events: type, queue, context and profiling times", "[commands][events]") {
    Fixture f;
    QueuePtr profiling = make_queue(f.ctx(), f.device, CL_QUEUE_PROFILING_ENABLE);
    Memory dst(f, Kind::device, 1 << 16);
    Memory src(f, Kind::shared, 1 << 16);
    std::memset(src.ptr, 1, 1 << 16);

    for (cl_command_queue queue : {f.q(), profiling.get()}) {
        const bool timed = queue == profiling.get();
        for (const Command& command : every_command(f, dst.ptr, src.ptr, 1 << 16)) {
            INFO(command.name << (timed ? " on a profiling queue" : ""));
            cl_event raw = nullptr;
            REQUIRE_OK(command.call(queue, 0, nullptr, &raw));
            EventPtr event = take(raw);
            require_complete(raw);
            CHECK(event_info<cl_command_type>(raw, CL_EVENT_COMMAND_TYPE) == command.type);
            CHECK(event_info<cl_command_queue>(raw, CL_EVENT_COMMAND_QUEUE) == queue);
            CHECK(event_info<cl_context>(raw, CL_EVENT_CONTEXT) == f.ctx());
            if (!timed) {
                cl_ulong value = 0;
                CHECK_CL(clGetEventProfilingInfo(raw, CL_PROFILING_COMMAND_START, sizeof value,
                                                 &value, nullptr),
                         CL_PROFILING_INFO_NOT_AVAILABLE);
                continue;
            }
            const cl_ulong queued = profile(raw, CL_PROFILING_COMMAND_QUEUED);
            const cl_ulong submit = profile(raw, CL_PROFILING_COMMAND_SUBMIT);
            const cl_ulong start = profile(raw, CL_PROFILING_COMMAND_START);
            const cl_ulong end = profile(raw, CL_PROFILING_COMMAND_END);
            CHECK(queued > 0);
            CHECK(queued <= submit);
            CHECK(submit <= start);
            CHECK(start <= end);
        }
    }
}

TEST_CASE("an out-of-order queue runs USM commands in their wait lists' order",
          "[commands][out-of-order]") {
    Fixture f;
    QueuePtr queue = make_queue(f.ctx(), f.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_command_queue q = queue.get();
    constexpr size_t size = 1 << 16;
    Memory a(f, Kind::shared, size);
    Memory b(f, Kind::device, size);
    Memory c(f, Kind::host, size);
    std::memset(a.ptr, 0, size);
    std::memset(c.ptr, 0, size);

    EventPtr gate = make_user_event(f.ctx());
    Release release{gate.get()};
    cl_event g = gate.get();
    // fill a (0x11) <- gate; memset a (0x22) <- fill; copy a -> b <- memset;
    // copy b -> c <- copy. Enqueued in reverse dependency order is not
    // possible, so each waits on the previous one's event.
    const uint32_t word = 0x11111111;
    cl_event e1 = nullptr, e2 = nullptr, e3 = nullptr, e4 = nullptr;
    REQUIRE_OK(f.usm.fill(q, a.ptr, &word, sizeof word, size, 1, &g, &e1));
    EventPtr p1 = take(e1);
    REQUIRE_OK(f.usm.memset(q, a.ptr, 0x22, size / 2, 1, &e1, &e2));
    EventPtr p2 = take(e2);
    REQUIRE_OK(f.usm.memcpy(q, CL_FALSE, b.ptr, a.ptr, size, 1, &e2, &e3));
    EventPtr p3 = take(e3);
    REQUIRE_OK(f.usm.memcpy(q, CL_FALSE, c.ptr, b.ptr, size, 1, &e3, &e4));
    EventPtr p4 = take(e4);
    // A command with no wait list is free to run at once.
    cl_event free_run = nullptr;
    Memory d(f, Kind::host, 64);
    REQUIRE_OK(f.usm.memset(q, d.ptr, 0x33, 64, 0, nullptr, &free_run));
    EventPtr p5 = take(free_run);
    require_complete(free_run);
    CHECK(d.bytes()[63] == 0x33);

    std::this_thread::sleep_for(100ms);
    for (cl_event e : {e1, e2, e3, e4})
        CHECK(event_status(e) > CL_COMPLETE);
    CHECK(a.bytes()[0] == 0);
    CHECK(c.bytes()[size - 1] == 0);

    REQUIRE_OK(clSetUserEventStatus(g, CL_COMPLETE));
    require_complete(e4);
    for (cl_event e : {e1, e2, e3})
        CHECK(event_status(e) == CL_COMPLETE);
    size_t wrong = 0;
    for (size_t i = 0; i < size; ++i)
        wrong += c.bytes()[i] != (i < size / 2 ? 0x22 : 0x11);
    CHECK(wrong == 0);
    REQUIRE_OK(clFinish(q));
}
