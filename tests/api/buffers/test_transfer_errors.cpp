// Errors of clEnqueueReadBuffer, clEnqueueWriteBuffer, clEnqueueCopyBuffer
// and clEnqueueFillBuffer: bad arguments, host access flags, objects of
// another context, and a failed event in a blocking call's wait list.
#include "buffer_test.hpp"

#include <cstdint>
#include <functional>
#include <string>

using namespace cl_test;
using namespace buffer_test;

TEST_CASE("read, write, copy and fill reject bad arguments", "[transfer][errors]") {
    Fixture f;
    constexpr size_t size = 1024;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    Bytes host(size);
    const unsigned char pattern[128] = {};

    SECTION("regions out of the buffer") {
        const std::pair<size_t, size_t> bad[] = {{0, size + 1}, {1, size},     {size, 1},
                                                 {size + 1, 1}, {SIZE_MAX, 2}, {2, SIZE_MAX}};
        for (const auto& [offset, length] : bad) {
            INFO(length << " bytes at " << offset);
            CHECK_CL(clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, offset, length, host.data(), 0,
                                         nullptr, nullptr),
                     CL_INVALID_VALUE);
            CHECK_CL(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, offset, length, host.data(), 0,
                                          nullptr, nullptr),
                     CL_INVALID_VALUE);
            CHECK_CL(clEnqueueCopyBuffer(f.q(), mem.get(), other.get(), offset, 0, length, 0,
                                         nullptr, nullptr),
                     CL_INVALID_VALUE);
            CHECK_CL(clEnqueueCopyBuffer(f.q(), mem.get(), other.get(), 0, offset, length, 0,
                                         nullptr, nullptr),
                     CL_INVALID_VALUE);
            CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), pattern, 1, offset, length, 0, nullptr,
                                         nullptr),
                     CL_INVALID_VALUE);
        }
        // The last byte is fine.
        CHECK_OK(clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, size - 1, 1, host.data(), 0,
                                     nullptr, nullptr));
    }
    SECTION("NULL host pointers") {
        CHECK_CL(
            clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
        CHECK_CL(
            clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
    }
    SECTION("fill patterns") {
        // CL_INVALID_VALUE if pattern is NULL, pattern_size is 0 or not one
        // of 1, 2, 4, ..., 128, or offset or size is not a multiple of it.
        CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), nullptr, 4, 0, 64, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        for (size_t pattern_size : {size_t{0}, size_t{3}, size_t{6}, size_t{12}, size_t{127},
                                    size_t{256}, size_t{1024}}) {
            INFO("pattern_size " << pattern_size);
            CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), pattern, pattern_size, 0, 768, 0,
                                         nullptr, nullptr),
                     CL_INVALID_VALUE);
        }
        CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), pattern, 4, 2, 64, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), pattern, 4, 0, 66, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), pattern, 128, 64, 128, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_OK(
            clEnqueueFillBuffer(f.q(), mem.get(), pattern, 128, 128, 896, 0, nullptr, nullptr));
    }
    SECTION("invalid queue, memory object and wait list") {
        FakeObject fake_queue(f.q(), 0x13);
        FakeObject fake_mem(mem.get(), 0x14);
        FakeObject fake_event(f.q(), 0x15);
        cl_command_queue bad_queue = fake_queue.as<cl_command_queue>();
        cl_mem bad_mem = fake_mem.as<cl_mem>();
        CHECK_CL(clEnqueueReadBuffer(bad_queue, mem.get(), CL_TRUE, 0, 16, host.data(), 0, nullptr,
                                     nullptr),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(clEnqueueWriteBuffer(bad_queue, mem.get(), CL_TRUE, 0, 16, host.data(), 0, nullptr,
                                      nullptr),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(
            clEnqueueCopyBuffer(bad_queue, mem.get(), other.get(), 0, 0, 16, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(clEnqueueFillBuffer(bad_queue, mem.get(), pattern, 1, 0, 16, 0, nullptr, nullptr),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(
            clEnqueueReadBuffer(f.q(), bad_mem, CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
        CHECK_CL(
            clEnqueueWriteBuffer(f.q(), bad_mem, CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
        CHECK_CL(clEnqueueCopyBuffer(f.q(), bad_mem, other.get(), 0, 0, 16, 0, nullptr, nullptr),
                 CL_INVALID_MEM_OBJECT);
        CHECK_CL(clEnqueueCopyBuffer(f.q(), mem.get(), bad_mem, 0, 0, 16, 0, nullptr, nullptr),
                 CL_INVALID_MEM_OBJECT);
        CHECK_CL(clEnqueueFillBuffer(f.q(), bad_mem, pattern, 1, 0, 16, 0, nullptr, nullptr),
                 CL_INVALID_MEM_OBJECT);
        CHECK_CL(clEnqueueReadBuffer(f.q(), reinterpret_cast<cl_mem>(f.q()), CL_TRUE, 0, 16,
                                     host.data(), 0, nullptr, nullptr),
                 CL_INVALID_MEM_OBJECT);
        CHECK_CL(dispatch_of(f.q()).clEnqueueReadBuffer(f.q(), nullptr, CL_TRUE, 0, 16, host.data(),
                                                        0, nullptr, nullptr),
                 CL_INVALID_MEM_OBJECT);

        const cl_event bad_events[] = {fake_event.as<cl_event>()};
        CHECK_CL(
            clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, 0, 16, host.data(), 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 0, 16, host.data(), 0, bad_events,
                                      nullptr),
                 CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(
            clEnqueueCopyBuffer(f.q(), mem.get(), other.get(), 0, 0, 16, 1, bad_events, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
        CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), pattern, 1, 0, 16, 1, bad_events, nullptr),
                 CL_INVALID_EVENT_WAIT_LIST);
    }
    finish(f.q());
}

TEST_CASE("the host access flags forbid reads and writes from the host",
          "[transfer][host-access]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    const size_t size = 4 * align;
    Bytes host(size, 3);
    const unsigned char pattern = 9;
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {16, 2, 1};
    auto read = [&](cl_mem mem) {
        return clEnqueueReadBuffer(f.q(), mem, CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr);
    };
    auto write = [&](cl_mem mem) {
        return clEnqueueWriteBuffer(f.q(), mem, CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr);
    };
    auto read_rect = [&](cl_mem mem) {
        return clEnqueueReadBufferRect(f.q(), mem, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                       host.data(), 0, nullptr, nullptr);
    };
    auto write_rect = [&](cl_mem mem) {
        return clEnqueueWriteBufferRect(f.q(), mem, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                        host.data(), 0, nullptr, nullptr);
    };
    auto map = [&](cl_mem mem, cl_map_flags flags) {
        cl_int error = CL_SUCCESS;
        void* pointer =
            clEnqueueMapBuffer(f.q(), mem, CL_TRUE, flags, 0, 16, 0, nullptr, nullptr, &error);
        if (pointer) {
            CHECK_OK(clEnqueueUnmapMemObject(f.q(), mem, pointer, 0, nullptr, nullptr));
            finish(f.q());
        } else {
            CHECK_CL(error, CL_INVALID_OPERATION);
        }
        return error;
    };
    // Device-side commands are always allowed.
    auto fill_and_copy = [&](cl_mem mem, cl_mem scratch) {
        CHECK_OK(clEnqueueFillBuffer(f.q(), mem, &pattern, 1, 0, 16, 0, nullptr, nullptr));
        CHECK_OK(clEnqueueCopyBuffer(f.q(), mem, scratch, 0, 0, 16, 0, nullptr, nullptr));
        CHECK_OK(clEnqueueCopyBuffer(f.q(), scratch, mem, 0, 16, 16, 0, nullptr, nullptr));
    };
    MemPtr scratch = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);

    SECTION("CL_MEM_HOST_NO_ACCESS") {
        MemPtr mem = make_buffer(f.ctx(), CL_MEM_HOST_NO_ACCESS, size);
        MemPtr sub = make_sub_buffer(mem.get(), 0, align, align); // inherits it
        for (cl_mem target : {mem.get(), sub.get()}) {
            CHECK_CL(read(target), CL_INVALID_OPERATION);
            CHECK_CL(write(target), CL_INVALID_OPERATION);
            CHECK_CL(read_rect(target), CL_INVALID_OPERATION);
            CHECK_CL(write_rect(target), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_READ), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_WRITE), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_WRITE_INVALIDATE_REGION), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_READ | CL_MAP_WRITE), CL_INVALID_OPERATION);
            fill_and_copy(target, scratch.get());
        }
    }
    SECTION("CL_MEM_HOST_READ_ONLY") {
        MemPtr mem =
            make_buffer(f.ctx(), CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, size, host.data());
        MemPtr sub = make_sub_buffer(mem.get(), 0, align, align);
        for (cl_mem target : {mem.get(), sub.get()}) {
            CHECK_OK(read(target));
            CHECK_OK(read_rect(target));
            CHECK_OK(map(target, CL_MAP_READ));
            CHECK_CL(write(target), CL_INVALID_OPERATION);
            CHECK_CL(write_rect(target), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_WRITE), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_WRITE_INVALIDATE_REGION), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_READ | CL_MAP_WRITE), CL_INVALID_OPERATION);
            fill_and_copy(target, scratch.get());
        }
    }
    SECTION("CL_MEM_HOST_WRITE_ONLY") {
        MemPtr mem = make_buffer(f.ctx(), CL_MEM_HOST_WRITE_ONLY, size);
        MemPtr sub = make_sub_buffer(mem.get(), 0, align, align);
        for (cl_mem target : {mem.get(), sub.get()}) {
            CHECK_OK(write(target));
            CHECK_OK(write_rect(target));
            CHECK_OK(map(target, CL_MAP_WRITE));
            CHECK_OK(map(target, CL_MAP_WRITE_INVALIDATE_REGION));
            CHECK_CL(read(target), CL_INVALID_OPERATION);
            CHECK_CL(read_rect(target), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_READ), CL_INVALID_OPERATION);
            CHECK_CL(map(target, CL_MAP_READ | CL_MAP_WRITE), CL_INVALID_OPERATION);
            fill_and_copy(target, scratch.get());
        }
    }
    SECTION("a sub-buffer's own host access flags") {
        MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
        MemPtr read_only = make_sub_buffer(mem.get(), CL_MEM_HOST_READ_ONLY, 0, align);
        MemPtr no_access = make_sub_buffer(mem.get(), CL_MEM_HOST_NO_ACCESS, align, align);
        CHECK_CL(write(read_only.get()), CL_INVALID_OPERATION);
        CHECK_OK(read(read_only.get()));
        CHECK_CL(read(no_access.get()), CL_INVALID_OPERATION);
        CHECK_OK(write(mem.get())); // the parent is unaffected
        CHECK_OK(read(mem.get()));
    }
    finish(f.q());
}

TEST_CASE("objects of another context are CL_INVALID_CONTEXT", "[transfer][context]") {
    Fixture f;
    ContextPtr other_context = make_context({f.device});
    constexpr size_t size = 256;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    MemPtr foreign = make_buffer(other_context.get(), CL_MEM_READ_WRITE, size);
    EventPtr foreign_event = make_user_event(other_context.get());
    Bytes host(size);
    const unsigned char pattern = 1;
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {8, 2, 1};

    CHECK_CL(
        clEnqueueReadBuffer(f.q(), foreign.get(), CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr),
        CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueWriteBuffer(f.q(), foreign.get(), CL_TRUE, 0, 16, host.data(), 0, nullptr,
                                  nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueCopyBuffer(f.q(), foreign.get(), mem.get(), 0, 0, 16, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueCopyBuffer(f.q(), mem.get(), foreign.get(), 0, 0, 16, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueFillBuffer(f.q(), foreign.get(), &pattern, 1, 0, 16, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueReadBufferRect(f.q(), foreign.get(), CL_TRUE, origin, origin, region, 0, 0, 0,
                                     0, host.data(), 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueWriteBufferRect(f.q(), foreign.get(), CL_TRUE, origin, origin, region, 0, 0,
                                      0, 0, host.data(), 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueCopyBufferRect(f.q(), foreign.get(), mem.get(), origin, origin, region, 0, 0,
                                     0, 0, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueCopyBufferRect(f.q(), mem.get(), foreign.get(), origin, origin, region, 0, 0,
                                     0, 0, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    cl_int error = CL_SUCCESS;
    CHECK(clEnqueueMapBuffer(f.q(), foreign.get(), CL_TRUE, CL_MAP_READ, 0, 16, 0, nullptr, nullptr,
                             &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    // A real mapping of the other context's buffer, unmapped through this queue.
    QueuePtr other_queue = make_queue(other_context.get(), f.device);
    void* mapped = clEnqueueMapBuffer(other_queue.get(), foreign.get(), CL_TRUE, CL_MAP_READ, 0, 16,
                                      0, nullptr, nullptr, &error);
    REQUIRE_OK(error);
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), foreign.get(), mapped, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_OK(
        clEnqueueUnmapMemObject(other_queue.get(), foreign.get(), mapped, 0, nullptr, nullptr));
    finish(other_queue.get());
    const cl_mem both[] = {mem.get(), foreign.get()};
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 2, both, 0, 0, nullptr, nullptr),
             CL_INVALID_CONTEXT);

    // Events of another context in the wait list.
    const cl_event foreign_list[] = {foreign_event.get()};
    CHECK_CL(clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, 0, 16, host.data(), 1, foreign_list,
                                 nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 0, 16, host.data(), 1, foreign_list,
                                  nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueCopyBuffer(f.q(), mem.get(), mem.get(), 0, 32, 16, 1, foreign_list, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), &pattern, 1, 0, 16, 1, foreign_list, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                     host.data(), 1, foreign_list, nullptr),
             CL_INVALID_CONTEXT);
    CHECK(clEnqueueMapBuffer(f.q(), mem.get(), CL_TRUE, CL_MAP_READ, 0, 16, 1, foreign_list,
                             nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 1, both, 0, 1, foreign_list, nullptr),
             CL_INVALID_CONTEXT);
    REQUIRE_OK(clSetUserEventStatus(foreign_event.get(), CL_COMPLETE));
    CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_MAP_COUNT) == 0);
    finish(f.q());
}

namespace {

// The blocking entry points, each on a buffer, with a wait list.
using BlockingCall = std::function<cl_int(cl_command_queue, cl_mem, cl_uint, const cl_event*)>;

std::vector<std::pair<std::string, BlockingCall>> blocking_calls(Bytes& host) {
    static const size_t origin[3] = {0, 0, 0};
    static const size_t region[3] = {16, 2, 1};
    return {
        {"clEnqueueReadBuffer",
         [&host](cl_command_queue q, cl_mem m, cl_uint n, const cl_event* list) {
             return clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, host.data(), n, list, nullptr);
         }},
        {"clEnqueueWriteBuffer",
         [&host](cl_command_queue q, cl_mem m, cl_uint n, const cl_event* list) {
             return clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 64, host.data(), n, list, nullptr);
         }},
        {"clEnqueueReadBufferRect",
         [&host](cl_command_queue q, cl_mem m, cl_uint n, const cl_event* list) {
             return clEnqueueReadBufferRect(q, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                            host.data(), n, list, nullptr);
         }},
        {"clEnqueueWriteBufferRect",
         [&host](cl_command_queue q, cl_mem m, cl_uint n, const cl_event* list) {
             return clEnqueueWriteBufferRect(q, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                             host.data(), n, list, nullptr);
         }},
        {"clEnqueueMapBuffer",
         [](cl_command_queue q, cl_mem m, cl_uint n, const cl_event* list) {
             cl_int error = CL_SUCCESS;
             void* pointer =
                 clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 64, n, list, nullptr, &error);
             CHECK((pointer == nullptr) == (error != CL_SUCCESS));
             if (pointer)
                 CHECK_OK(clEnqueueUnmapMemObject(q, m, pointer, 0, nullptr, nullptr));
             return error;
         }},
    };
}

} // namespace

TEST_CASE("blocking calls report a failed event of their wait list", "[transfer][failure]") {
    Fixture f;
    Bytes host(64, 0);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 256);
    for (auto& [name, call] : blocking_calls(host)) {
        INFO(name);
        // A queue of its own: the failure may spread to later commands of it.
        SECTION(name + ", failed before the call") {
            QueuePtr queue = make_queue(f.ctx(), f.device);
            EventPtr gate = make_user_event(f.ctx());
            REQUIRE_OK(clSetUserEventStatus(gate.get(), -42));
            const cl_event list[] = {gate.get()};
            CHECK_CL(call(queue.get(), mem.get(), 1, list),
                     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_MAP_COUNT) == 0);
        }
        SECTION(name + ", failed while the call waits") {
            QueuePtr queue = make_queue(f.ctx(), f.device);
            EventPtr gate = make_user_event(f.ctx());
            // Catch's assertions are for the test's thread only: the other
            // thread's result is checked after the join.
            std::atomic<cl_int> set_status{CL_SUCCESS};
            std::thread failer([&] {
                std::this_thread::sleep_for(30ms);
                set_status = clSetUserEventStatus(gate.get(), -43);
            });
            const cl_event list[] = {gate.get()};
            const cl_int result = call(queue.get(), mem.get(), 1, list);
            failer.join();
            CHECK_OK(set_status.load());
            CHECK_CL(result, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_MAP_COUNT) == 0);
        }
        SECTION(name + ", completed wait list") {
            EventPtr gate = make_user_event(f.ctx());
            REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
            const cl_event list[] = {gate.get()};
            CHECK_OK(call(f.q(), mem.get(), 1, list));
            finish(f.q());
        }
    }
}
