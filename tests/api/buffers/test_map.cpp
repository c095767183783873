// clEnqueueMapBuffer, clEnqueueUnmapMemObject and clEnqueueMigrateMemObjects.
#include "buffer_test.hpp"

#include <cstdint>

using namespace cl_test;
using namespace buffer_test;

namespace {

struct Mapped {
    void* pointer;
    EventPtr event;
};

Mapped map(cl_command_queue queue, cl_mem mem, bool blocking, cl_map_flags flags, size_t offset,
           size_t size, std::vector<cl_event> wait_list = {}) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_event event = nullptr;
    void* pointer = clEnqueueMapBuffer(
        queue, mem, blocking, flags, offset, size, static_cast<cl_uint>(wait_list.size()),
        wait_list.empty() ? nullptr : wait_list.data(), &event, &error);
    INFO("map of " << size << " bytes at " << offset << ", flags 0x" << std::hex << flags);
    REQUIRE_OK(error);
    REQUIRE(pointer != nullptr);
    REQUIRE(event != nullptr);
    return {pointer, EventPtr(event)};
}

cl_int map_error(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t offset,
                 size_t size) {
    cl_int error = CL_SUCCESS;
    void* pointer =
        clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &error);
    CHECK(pointer == nullptr);
    if (pointer)
        CHECK_OK(clEnqueueUnmapMemObject(queue, mem, pointer, 0, nullptr, nullptr));
    return error;
}

void unmap(cl_command_queue queue, cl_mem mem, void* pointer) {
    cl_event event = nullptr;
    REQUIRE_OK(clEnqueueUnmapMemObject(queue, mem, pointer, 0, nullptr, &event));
    EventPtr owned(event);
    cl_command_type type = 0;
    REQUIRE_OK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
    CHECK(type == CL_COMMAND_UNMAP_MEM_OBJECT);
    REQUIRE(wait_final(event) == CL_COMPLETE);
}

cl_uint map_count(cl_mem mem) {
    return mem_info<cl_uint>(mem, CL_MEM_MAP_COUNT);
}

} // namespace

TEST_CASE("a blocking map for reading shows the content", "[map]") {
    Fixture f;
    Random random(30);
    constexpr size_t size = 10000;
    const Bytes content = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    write_all(f.q(), mem.get(), content);
    for (int round = 0; round < 20; ++round) {
        const size_t offset = random.between(0, size - 1);
        const size_t length = random.between(1, size - offset);
        Mapped m = map(f.q(), mem.get(), true, CL_MAP_READ, offset, length);
        CHECK(status_of(m.event.get()) == CL_COMPLETE);
        cl_command_type type = 0;
        REQUIRE_OK(
            clGetEventInfo(m.event.get(), CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
        CHECK(type == CL_COMMAND_MAP_BUFFER);
        CHECK(map_count(mem.get()) == 1);
        CHECK_SAME_BYTES(static_cast<unsigned char*>(m.pointer), content.data() + offset, length);
        unmap(f.q(), mem.get(), m.pointer);
        CHECK(map_count(mem.get()) == 0);
    }
}

TEST_CASE("a non-blocking map is ready when its event completes", "[map]") {
    Fixture f;
    Random random(31);
    constexpr size_t size = 4096;
    const Bytes first = random.bytes(size);
    const Bytes second = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    write_all(f.q(), mem.get(), first);
    EventPtr gate = make_user_event(f.ctx());
    // A write held back by the gate, then a map that follows it in the queue.
    REQUIRE_OK(clEnqueueWriteBuffer(f.q(), mem.get(), CL_FALSE, 0, size, second.data(), 1,
                                    std::vector<cl_event>{gate.get()}.data(), nullptr));
    Mapped m = map(f.q(), mem.get(), false, CL_MAP_READ | CL_MAP_WRITE, 100, 1000);
    std::this_thread::sleep_for(10ms);
    CHECK(status_of(m.event.get()) > CL_COMPLETE);
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    REQUIRE(wait_final(m.event.get()) == CL_COMPLETE);
    auto* bytes = static_cast<unsigned char*>(m.pointer);
    CHECK_SAME_BYTES(bytes, second.data() + 100, 1000);
    // Writes through the mapping count once unmapped.
    std::memset(bytes, 0xab, 10);
    unmap(f.q(), mem.get(), m.pointer);
    Bytes expected = second;
    std::memset(expected.data() + 100, 0xab, 10);
    CHECK_BYTES(read_all(f.q(), mem.get(), size), expected);
}

TEST_CASE("CL_MAP_WRITE_INVALIDATE_REGION replaces the region and keeps the rest", "[map]") {
    Fixture f;
    Random random(32);
    constexpr size_t size = 8192;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    for (int round = 0; round < 10; ++round) {
        const size_t offset = random.between(0, size - 1);
        const size_t length = random.between(1, size - offset);
        const bool blocking = random.chance(50);
        Mapped m = map(f.q(), mem.get(), blocking, CL_MAP_WRITE_INVALIDATE_REGION, offset, length);
        REQUIRE(wait_final(m.event.get()) == CL_COMPLETE);
        const Bytes data = random.bytes(length);
        std::memcpy(m.pointer, data.data(), length);
        unmap(f.q(), mem.get(), m.pointer);
        std::copy(data.begin(), data.end(), model.begin() + static_cast<long>(offset));
        CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
    }
}

TEST_CASE("overlapping maps coexist and are counted", "[map]") {
    Fixture f;
    Random random(33);
    constexpr size_t size = 4096;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    Mapped a = map(f.q(), mem.get(), true, CL_MAP_READ, 0, 1024);
    Mapped b = map(f.q(), mem.get(), true, CL_MAP_WRITE, 512, 1024);
    Mapped c = map(f.q(), mem.get(), true, CL_MAP_READ, 0, size);
    Mapped d = map(f.q(), mem.get(), true, CL_MAP_READ, 0, 1024); // the same region as a
    CHECK(map_count(mem.get()) == 4);
    CHECK_SAME_BYTES(static_cast<unsigned char*>(a.pointer), model.data(), 1024);
    CHECK_SAME_BYTES(static_cast<unsigned char*>(b.pointer), model.data() + 512, 1024);
    CHECK_SAME_BYTES(static_cast<unsigned char*>(c.pointer), model.data(), size);
    CHECK_SAME_BYTES(static_cast<unsigned char*>(d.pointer), model.data(), 1024);
    const Bytes data = random.bytes(1024);
    std::memcpy(b.pointer, data.data(), 1024);
    std::copy(data.begin(), data.end(), model.begin() + 512);
    unmap(f.q(), mem.get(), c.pointer);
    CHECK(map_count(mem.get()) == 3);
    unmap(f.q(), mem.get(), b.pointer);
    unmap(f.q(), mem.get(), a.pointer);
    unmap(f.q(), mem.get(), d.pointer);
    CHECK(map_count(mem.get()) == 0);
    CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
}

TEST_CASE("maps of sub-buffers show the parent's bytes", "[map][sub-buffer]") {
    Fixture f;
    Random random(34);
    const size_t align = base_address_alignment(f.device);
    const size_t size = 16 * align;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    MemPtr sub = make_sub_buffer(mem.get(), 0, 3 * align, 5 * align);
    Mapped m = map(f.q(), sub.get(), true, CL_MAP_READ | CL_MAP_WRITE, 10, 100);
    CHECK(map_count(sub.get()) == 1);
    CHECK_SAME_BYTES(static_cast<unsigned char*>(m.pointer), model.data() + 3 * align + 10, 100);
    std::memset(m.pointer, 0x5e, 100);
    // Unmapping through the parent is wrong: the mapping is the sub-buffer's.
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), m.pointer, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    unmap(f.q(), sub.get(), m.pointer);
    std::memset(model.data() + 3 * align + 10, 0x5e, 100);
    CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
}

TEST_CASE("maps of CL_MEM_USE_HOST_PTR buffers are the application's memory", "[map][zero-copy]") {
    Fixture f;
    Random random(35);
    const size_t align = base_address_alignment(f.device);
    const size_t size = 32 * align;
    // Aligned like the device wants, so nothing forces a shadow copy.
    auto* host = static_cast<unsigned char*>(std::aligned_alloc(4096, size));
    REQUIRE(host != nullptr);
    std::unique_ptr<unsigned char, decltype(&std::free)> owned_host(host, &std::free);
    const Bytes initial = random.bytes(size);
    std::memcpy(host, initial.data(), size);
    {
        MemPtr mem = make_buffer(f.ctx(), CL_MEM_USE_HOST_PTR, size, host);
        MemPtr sub = make_sub_buffer(mem.get(), 0, 4 * align, 8 * align);
        const cl_map_flags all_flags[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_READ | CL_MAP_WRITE,
                                          CL_MAP_WRITE_INVALIDATE_REGION};
        for (cl_map_flags flags : all_flags) {
            for (size_t offset : {size_t{0}, size_t{1}, align, 5 * align + 3}) {
                INFO("flags 0x" << std::hex << flags << std::dec << ", offset " << offset);
                Mapped m = map(f.q(), mem.get(), true, flags, offset, 2 * align);
                CHECK(m.pointer == host + offset);
                unmap(f.q(), mem.get(), m.pointer);
                Mapped s = map(f.q(), sub.get(), false, flags, offset, align);
                CHECK(s.pointer == host + 4 * align + offset);
                REQUIRE(wait_final(s.event.get()) == CL_COMPLETE);
                unmap(f.q(), sub.get(), s.pointer);
            }
        }
        // On a device whose memory is the host's: zero-copy both ways, the
        // host's stores are what the buffer holds, and the buffer's writes
        // land in the host's memory. On any device (a discrete-memory one
        // too): what the specification guarantees, the stores between a
        // write mapping and its unmap reach the buffer, and the latest bits
        // are in the host's memory once a map of them has completed.
        const bool unified =
            device_info<cl_bool>(f.device, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE;
        const Bytes stored = random.bytes(size);
        if (unified) {
            std::memcpy(host, stored.data(), size);
        } else {
            Mapped m = map(f.q(), mem.get(), true, CL_MAP_WRITE_INVALIDATE_REGION, 0, size);
            REQUIRE(m.pointer == host);
            std::memcpy(m.pointer, stored.data(), size);
            unmap(f.q(), mem.get(), m.pointer);
        }
        CHECK_BYTES(read_all(f.q(), mem.get(), size), stored);
        const Bytes written = random.bytes(align);
        REQUIRE_OK(clEnqueueWriteBuffer(f.q(), sub.get(), CL_TRUE, align, align, written.data(), 0,
                                        nullptr, nullptr));
        auto check_host = [&](size_t offset, const unsigned char* want, size_t bytes) {
            if (unified) {
                CHECK_SAME_BYTES(host + offset, want, bytes);
                return;
            }
            Mapped m = map(f.q(), mem.get(), true, CL_MAP_READ, offset, bytes);
            REQUIRE(m.pointer == host + offset);
            CHECK_SAME_BYTES(host + offset, want, bytes);
            unmap(f.q(), mem.get(), m.pointer);
        };
        check_host(5 * align, written.data(), align);
        const unsigned char pattern[4] = {1, 2, 3, 4};
        REQUIRE_OK(clEnqueueFillBuffer(f.q(), mem.get(), pattern, 4, 0, 64, 0, nullptr, nullptr));
        finish(f.q());
        Bytes filled(64);
        for (size_t i = 0; i < 64; ++i)
            filled[i] = pattern[i % 4];
        check_host(0, filled.data(), 64);
    }
}

TEST_CASE("maps of an unaligned CL_MEM_USE_HOST_PTR region return host_ptr plus the offset",
          "[map][zero-copy]") {
    Fixture f;
    Bytes memory(4096 + 3, 0x17);
    unsigned char* host = memory.data() + 3;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_USE_HOST_PTR, 4096, host);
    for (size_t offset : {size_t{0}, size_t{5}, size_t{4000}}) {
        Mapped m = map(f.q(), mem.get(), true, CL_MAP_READ | CL_MAP_WRITE, offset, 96);
        CHECK(m.pointer == host + offset);
        static_cast<unsigned char*>(m.pointer)[0] = static_cast<unsigned char>(offset);
        unmap(f.q(), mem.get(), m.pointer);
        CHECK(host[offset] == static_cast<unsigned char>(offset));
    }
    CHECK(memory[0] == 0x17); // nothing before host_ptr was touched
}

TEST_CASE("a mapping may be unmapped through another queue of the context", "[map]") {
    Fixture f;
    QueuePtr other = make_queue(f.ctx(), f.device);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 512);
    Mapped m = map(f.q(), mem.get(), true, CL_MAP_WRITE_INVALIDATE_REGION, 0, 512);
    std::memset(m.pointer, 0x61, 512);
    unmap(other.get(), mem.get(), m.pointer);
    CHECK_BYTES(read_all(f.q(), mem.get(), 512), Bytes(512, 0x61));
}

TEST_CASE("clEnqueueUnmapMemObject rejects pointers that are not mappings of the object",
          "[map][errors]") {
    Fixture f;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    Mapped m = map(f.q(), mem.get(), true, CL_MAP_READ, 64, 128);
    Mapped o = map(f.q(), other.get(), true, CL_MAP_READ, 0, 128);
    auto* bytes = static_cast<unsigned char*>(m.pointer);
    unsigned char unrelated[16];
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), bytes + 1, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), bytes - 64, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), unrelated, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), nullptr, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    if (o.pointer != m.pointer)
        CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), o.pointer, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
    CHECK(map_count(mem.get()) == 1);
    unmap(f.q(), mem.get(), m.pointer);
    // Unmapped already.
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), m.pointer, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    unmap(f.q(), other.get(), o.pointer);
    // Bad queue, object and wait list.
    Mapped again = map(f.q(), mem.get(), true, CL_MAP_READ, 0, 16);
    FakeObject fake_queue(f.q(), 0x31);
    FakeObject fake_mem(mem.get(), 0x32);
    CHECK_CL(clEnqueueUnmapMemObject(fake_queue.as<cl_command_queue>(), mem.get(), again.pointer, 0,
                                     nullptr, nullptr),
             CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(
        clEnqueueUnmapMemObject(f.q(), fake_mem.as<cl_mem>(), again.pointer, 0, nullptr, nullptr),
        CL_INVALID_MEM_OBJECT);
    CHECK_CL(clEnqueueUnmapMemObject(f.q(), mem.get(), again.pointer, 1, nullptr, nullptr),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK(map_count(mem.get()) == 1);
    unmap(f.q(), mem.get(), again.pointer);
}

TEST_CASE("clEnqueueMapBuffer rejects bad regions and flags", "[map][errors]") {
    Fixture f;
    constexpr size_t size = 1024;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    // CL_INVALID_VALUE if the region is out of bounds, size is 0, or the
    // flags are not valid.
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ, 0, size + 1), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ, size, 1), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ, 1, size), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ, SIZE_MAX, 2), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ, 0, 0), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ, 16, 0), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), cl_map_flags{1} << 5, 0, 16), CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_READ | (cl_map_flags{1} << 40), 0, 16),
             CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ, 0, 16),
             CL_INVALID_VALUE);
    CHECK_CL(map_error(f.q(), mem.get(), CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_WRITE, 0, 16),
             CL_INVALID_VALUE);
    FakeObject fake_mem(mem.get(), 0x41);
    CHECK_CL(map_error(f.q(), fake_mem.as<cl_mem>(), CL_MAP_READ, 0, 16), CL_INVALID_MEM_OBJECT);
    FakeObject fake_queue(f.q(), 0x42);
    CHECK_CL(map_error(fake_queue.as<cl_command_queue>(), mem.get(), CL_MAP_READ, 0, 16),
             CL_INVALID_COMMAND_QUEUE);
    cl_int error = CL_SUCCESS;
    CHECK(clEnqueueMapBuffer(f.q(), mem.get(), CL_TRUE, CL_MAP_READ, 0, 16, 1, nullptr, nullptr,
                             &error) == nullptr);
    CHECK_CL(error, CL_INVALID_EVENT_WAIT_LIST);
    // The last byte is fine; errcode_ret may be NULL.
    void* pointer = clEnqueueMapBuffer(f.q(), mem.get(), CL_TRUE, CL_MAP_READ, size - 1, 1, 0,
                                       nullptr, nullptr, nullptr);
    REQUIRE(pointer != nullptr);
    CHECK(map_count(mem.get()) == 1);
    unmap(f.q(), mem.get(), pointer);
    CHECK(map_count(mem.get()) == 0);
}

TEST_CASE("clEnqueueMigrateMemObjects moves content and accepts every flag", "[migrate]") {
    Fixture f;
    Random random(36);
    const size_t align = base_address_alignment(f.device);
    const size_t size = 8 * align;
    Bytes a_model = random.bytes(size);
    Bytes b_model = random.bytes(size);
    MemPtr a = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, a_model.data());
    MemPtr b = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, b_model.data());
    MemPtr sub = make_sub_buffer(a.get(), 0, align, 2 * align);
    const cl_mem list[] = {a.get(), b.get(), sub.get()};
    const cl_mem_migration_flags keeping[] = {0, CL_MIGRATE_MEM_OBJECT_HOST};
    for (cl_mem_migration_flags flags : keeping) {
        INFO("flags 0x" << std::hex << flags);
        cl_event event = nullptr;
        REQUIRE_OK(clEnqueueMigrateMemObjects(f.q(), 3, list, flags, 0, nullptr, &event));
        EventPtr owned(event);
        cl_command_type type = 0;
        REQUIRE_OK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
        CHECK(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
        REQUIRE(wait_final(event) == CL_COMPLETE);
        CHECK_BYTES(read_all(f.q(), a.get(), size), a_model);
        CHECK_BYTES(read_all(f.q(), b.get(), size), b_model);
    }
    // CONTENT_UNDEFINED: accepted; the content may be anything afterwards,
    // and the buffer is fully usable again once written.
    const cl_mem_migration_flags discarding[] = {CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                                 CL_MIGRATE_MEM_OBJECT_HOST |
                                                     CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
    for (cl_mem_migration_flags flags : discarding) {
        INFO("flags 0x" << std::hex << flags);
        REQUIRE_OK(clEnqueueMigrateMemObjects(f.q(), 1, &list[2], flags, 0, nullptr, nullptr));
        const Bytes data = random.bytes(2 * align);
        write_all(f.q(), sub.get(), data);
        std::copy(data.begin(), data.end(), a_model.begin() + static_cast<long>(align));
        CHECK_BYTES(read_all(f.q(), a.get(), size), a_model);
    }
    // A wait list is honoured.
    EventPtr gate = make_user_event(f.ctx());
    const cl_event gate_list[] = {gate.get()};
    cl_event event = nullptr;
    REQUIRE_OK(clEnqueueMigrateMemObjects(f.q(), 1, list, 0, 1, gate_list, &event));
    EventPtr owned(event);
    std::this_thread::sleep_for(10ms);
    CHECK(status_of(event) > CL_COMPLETE);
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    CHECK(wait_final(event) == CL_COMPLETE);
}

TEST_CASE("clEnqueueMigrateMemObjects rejects bad arguments", "[migrate][errors]") {
    Fixture f;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 256);
    const cl_mem list[] = {mem.get()};
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 0, list, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 1, nullptr, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    const cl_mem_migration_flags unknown[] = {cl_mem_migration_flags{1} << 2,
                                              CL_MIGRATE_MEM_OBJECT_HOST |
                                                  (cl_mem_migration_flags{1} << 7),
                                              cl_mem_migration_flags{1} << 40};
    for (cl_mem_migration_flags flags : unknown) {
        INFO("flags 0x" << std::hex << flags);
        CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 1, list, flags, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
    }
    FakeObject fake_mem(mem.get(), 0x51);
    const cl_mem bad_list[] = {mem.get(), fake_mem.as<cl_mem>()};
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 2, bad_list, 0, 0, nullptr, nullptr),
             CL_INVALID_MEM_OBJECT);
    const cl_mem null_list[] = {mem.get(), nullptr};
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 2, null_list, 0, 0, nullptr, nullptr),
             CL_INVALID_MEM_OBJECT);
    FakeObject fake_queue(f.q(), 0x52);
    CHECK_CL(clEnqueueMigrateMemObjects(fake_queue.as<cl_command_queue>(), 1, list, 0, 0, nullptr,
                                        nullptr),
             CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clEnqueueMigrateMemObjects(f.q(), 1, list, 0, 1, nullptr, nullptr),
             CL_INVALID_EVENT_WAIT_LIST);
    finish(f.q());
}
