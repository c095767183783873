// clCreateBuffer, clCreateBufferWithProperties, clGetMemObjectInfo,
// clRetainMemObject, clReleaseMemObject and clSetMemObjectDestructorCallback.
#include "buffer_test.hpp"

#include <cstdint>
#include <cstdlib>

using namespace cl_test;
using namespace buffer_test;

namespace {

constexpr cl_mem_flags access_choices[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY,
                                           CL_MEM_READ_ONLY};
constexpr cl_mem_flags host_access_choices[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                                CL_MEM_HOST_NO_ACCESS};
constexpr cl_mem_flags host_ptr_choices[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                                             CL_MEM_COPY_HOST_PTR,
                                             CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};

// CL_MEM_FLAGS answers the flags given; with no access flag it may also
// name the default, CL_MEM_READ_WRITE.
void check_reported_flags(cl_mem mem, cl_mem_flags given) {
    const auto reported = mem_info<cl_mem_flags>(mem, CL_MEM_FLAGS);
    constexpr cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    if (given & access)
        CHECK(reported == given);
    else
        CHECK((reported == given || reported == (given | CL_MEM_READ_WRITE)));
}

// The answers of a buffer fresh from clCreateBuffer.
void check_new_buffer_info(cl_mem mem, cl_context context, cl_mem_flags flags, size_t size,
                           void* host_ptr) {
    CHECK(mem_info<cl_mem_object_type>(mem, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
    check_reported_flags(mem, flags);
    CHECK(mem_info<size_t>(mem, CL_MEM_SIZE) == size);
    CHECK(mem_info<void*>(mem, CL_MEM_HOST_PTR) ==
          ((flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr));
    CHECK(mem_info<cl_uint>(mem, CL_MEM_MAP_COUNT) == 0);
    CHECK(mem_info<cl_uint>(mem, CL_MEM_REFERENCE_COUNT) == 1);
    CHECK(mem_info<cl_context>(mem, CL_MEM_CONTEXT) == context);
    CHECK(mem_info<cl_mem>(mem, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
    CHECK(mem_info<size_t>(mem, CL_MEM_OFFSET) == 0);
    CHECK(mem_info<cl_bool>(mem, CL_MEM_USES_SVM_POINTER) == CL_FALSE);
    CHECK(info_size(clGetMemObjectInfo, mem, CL_MEM_PROPERTIES) == 0);
}

} // namespace

TEST_CASE("clCreateBuffer accepts every valid combination of cl_mem_flags", "[create]") {
    Fixture f;
    constexpr size_t size = 256;
    Random random(1);
    const Bytes initial = random.bytes(size);
    for (cl_mem_flags access : access_choices)
        for (cl_mem_flags host_access : host_access_choices)
            for (cl_mem_flags host_ptr_flags : host_ptr_choices) {
                const cl_mem_flags flags = access | host_access | host_ptr_flags;
                INFO("flags 0x" << std::hex << flags);
                Bytes host = initial;
                const bool needs_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
                void* host_ptr = needs_ptr ? host.data() : nullptr;
                MemPtr mem = make_buffer(f.ctx(), flags, size, host_ptr);
                check_new_buffer_info(mem.get(), f.ctx(), flags, size, host_ptr);
                // The content given at creation is there.
                if (needs_ptr && !(host_access & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
                    CHECK_BYTES(read_all(f.q(), mem.get(), size), initial);
            }
}

TEST_CASE("clCreateBuffer rejects contradicting and unknown cl_mem_flags", "[create]") {
    Fixture f;
    unsigned char host[64] = {};
    struct Case {
        cl_mem_flags flags;
        bool with_host_ptr;
    };
    const Case cases[] = {
        {CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, false},
        {CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, false},
        {CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, false},
        {CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, false},
        {CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, false},
        {CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, false},
        {CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, false},
        {CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, false},
        {CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, true},
        {CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, true},
        {CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, true},
        {CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, true},
        {cl_mem_flags{1} << 40, false},
        {CL_MEM_READ_WRITE | (cl_mem_flags{1} << 63), false},
    };
    for (const Case& c : cases) {
        INFO("flags 0x" << std::hex << c.flags);
        CHECK_CL(
            create_buffer_error(f.ctx(), c.flags, sizeof host, c.with_host_ptr ? host : nullptr),
            CL_INVALID_VALUE);
    }
}

TEST_CASE("clCreateBuffer checks host_ptr against the flags", "[create]") {
    Fixture f;
    unsigned char host[64] = {};
    // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags, or if host_ptr is not NULL but
    // neither is set.
    const cl_mem_flags need_host_ptr[] = {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                          CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
                                          CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY};
    for (cl_mem_flags flags : need_host_ptr) {
        INFO("flags 0x" << std::hex << flags);
        CHECK_CL(create_buffer_error(f.ctx(), flags, sizeof host, nullptr), CL_INVALID_HOST_PTR);
    }
    const cl_mem_flags refuse_host_ptr[] = {0, CL_MEM_READ_WRITE, CL_MEM_ALLOC_HOST_PTR,
                                            CL_MEM_HOST_NO_ACCESS | CL_MEM_READ_ONLY};
    for (cl_mem_flags flags : refuse_host_ptr) {
        INFO("flags 0x" << std::hex << flags);
        CHECK_CL(create_buffer_error(f.ctx(), flags, sizeof host, host), CL_INVALID_HOST_PTR);
    }
}

TEST_CASE("clCreateBuffer rejects a size of 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE", "[create]") {
    Fixture f;
    const auto max_alloc = device_info<cl_ulong>(f.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    REQUIRE(max_alloc > 0);
    CHECK_CL(create_buffer_error(f.ctx(), CL_MEM_READ_WRITE, 0, nullptr), CL_INVALID_BUFFER_SIZE);
    CHECK_CL(create_buffer_error(f.ctx(), 0, 0, nullptr), CL_INVALID_BUFFER_SIZE);
    if (max_alloc < SIZE_MAX)
        CHECK_CL(create_buffer_error(f.ctx(), CL_MEM_READ_WRITE, static_cast<size_t>(max_alloc) + 1,
                                     nullptr),
                 CL_INVALID_BUFFER_SIZE);
    CHECK_CL(create_buffer_error(f.ctx(), CL_MEM_READ_WRITE, SIZE_MAX, nullptr),
             CL_INVALID_BUFFER_SIZE);
    cl_int error = CL_SUCCESS;
    cl_mem mem =
        clCreateBufferWithProperties(f.ctx(), nullptr, CL_MEM_READ_WRITE, 0, nullptr, &error);
    CHECK(mem == nullptr);
    CHECK_CL(error, CL_INVALID_BUFFER_SIZE);
}

TEST_CASE("clCreateBuffer rejects an invalid context", "[create]") {
    Fixture f;
    cl_int error = CL_SUCCESS;
    FakeObject fake(f.ctx(), 0x5a);
    CHECK(clCreateBuffer(fake.as<cl_context>(), CL_MEM_READ_WRITE, 64, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    // Another object type.
    error = CL_SUCCESS;
    CHECK(clCreateBuffer(reinterpret_cast<cl_context>(f.q()), CL_MEM_READ_WRITE, 64, nullptr,
                         &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    // NULL, past the loader's own check.
    error = CL_SUCCESS;
    CHECK(dispatch_of(f.ctx()).clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, &error) ==
          nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    error = CL_SUCCESS;
    CHECK(dispatch_of(f.ctx()).clCreateBufferWithProperties(nullptr, nullptr, CL_MEM_READ_WRITE, 64,
                                                            nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
}

TEST_CASE("clCreateBuffer works without errcode_ret", "[create]") {
    Fixture f;
    cl_mem mem = clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE, 64, nullptr, nullptr);
    REQUIRE(mem != nullptr);
    CHECK_OK(clReleaseMemObject(mem));
    CHECK(clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE, 0, nullptr, nullptr) == nullptr);
}

TEST_CASE("clCreateBufferWithProperties keeps the properties as given", "[create][properties]") {
    Fixture f;
    SECTION("an empty list is reported as the terminator alone") {
        const cl_mem_properties properties[] = {0};
        cl_int error = CL_OUT_OF_RESOURCES;
        MemPtr mem(clCreateBufferWithProperties(f.ctx(), properties, CL_MEM_READ_WRITE, 128,
                                                nullptr, &error));
        REQUIRE_OK(error);
        REQUIRE(mem != nullptr);
        const auto reported =
            info_array<cl_mem_properties>(clGetMemObjectInfo, mem.get(), CL_MEM_PROPERTIES);
        CHECK(reported == std::vector<cl_mem_properties>{0});
        CHECK(mem_info<size_t>(mem.get(), CL_MEM_SIZE) == 128);
    }
    SECTION("NULL properties: CL_MEM_PROPERTIES has size 0") {
        cl_int error = CL_OUT_OF_RESOURCES;
        unsigned char host[32] = {1, 2, 3};
        MemPtr mem(clCreateBufferWithProperties(f.ctx(), nullptr, CL_MEM_COPY_HOST_PTR, sizeof host,
                                                host, &error));
        REQUIRE_OK(error);
        REQUIRE(mem != nullptr);
        check_new_buffer_info(mem.get(), f.ctx(), CL_MEM_COPY_HOST_PTR, sizeof host, host);
        size_t size = 99;
        CHECK_OK(clGetMemObjectInfo(mem.get(), CL_MEM_PROPERTIES, 0, nullptr, &size));
        CHECK(size == 0);
    }
    SECTION("an unknown property name is CL_INVALID_PROPERTY") {
        for (cl_mem_properties name :
             {cl_mem_properties{0x4242}, cl_mem_properties{1}, cl_mem_properties{CL_MEM_FLAGS}}) {
            INFO("property 0x" << std::hex << name);
            const cl_mem_properties properties[] = {name, 1, 0};
            cl_int error = CL_SUCCESS;
            cl_mem mem = clCreateBufferWithProperties(f.ctx(), properties, CL_MEM_READ_WRITE, 128,
                                                      nullptr, &error);
            CHECK(mem == nullptr);
            CHECK_CL(error, CL_INVALID_PROPERTY);
        }
    }
    SECTION("the flag and host pointer rules are those of clCreateBuffer") {
        const cl_mem_properties properties[] = {0};
        unsigned char host[16] = {};
        cl_int error = CL_SUCCESS;
        CHECK(clCreateBufferWithProperties(f.ctx(), properties,
                                           CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, nullptr,
                                           &error) == nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
        CHECK(clCreateBufferWithProperties(f.ctx(), properties, CL_MEM_USE_HOST_PTR, 16, nullptr,
                                           &error) == nullptr);
        CHECK_CL(error, CL_INVALID_HOST_PTR);
        CHECK(clCreateBufferWithProperties(f.ctx(), properties, CL_MEM_READ_WRITE, 16, host,
                                           &error) == nullptr);
        CHECK_CL(error, CL_INVALID_HOST_PTR);
    }
}

TEST_CASE("clGetMemObjectInfo follows the size rules and rejects bad arguments", "[info]") {
    Fixture f;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 64);
    size_t value = 0;
    size_t size = 0;
    CHECK_CL(clGetMemObjectInfo(mem.get(), CL_MEM_SIZE, sizeof value - 1, &value, &size),
             CL_INVALID_VALUE);
    CHECK_CL(clGetMemObjectInfo(mem.get(), 0x10ff, sizeof value, &value, &size), CL_INVALID_VALUE);
    CHECK_CL(clGetMemObjectInfo(mem.get(), CL_MEM_SIZE, sizeof value, &value, nullptr), CL_SUCCESS);
    CHECK(value == 64);
    FakeObject fake(mem.get(), 0xa5);
    CHECK_CL(clGetMemObjectInfo(fake.as<cl_mem>(), CL_MEM_SIZE, sizeof value, &value, &size),
             CL_INVALID_MEM_OBJECT);
    CHECK_CL(clGetMemObjectInfo(reinterpret_cast<cl_mem>(f.q()), CL_MEM_SIZE, sizeof value, &value,
                                &size),
             CL_INVALID_MEM_OBJECT);
    CHECK_CL(dispatch_of(mem.get()).clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof value, &value,
                                                       &size),
             CL_INVALID_MEM_OBJECT);
}

TEST_CASE("clRetainMemObject and clReleaseMemObject count references", "[refcount]") {
    Fixture f;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 64);
    CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT) == 1);
    REQUIRE_OK(clRetainMemObject(mem.get()));
    REQUIRE_OK(clRetainMemObject(mem.get()));
    CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT) == 3);
    REQUIRE_OK(clReleaseMemObject(mem.get()));
    CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT) == 2);
    REQUIRE_OK(clReleaseMemObject(mem.get()));
    CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_REFERENCE_COUNT) == 1);

    FakeObject fake(mem.get(), 0x33);
    CHECK_CL(clRetainMemObject(fake.as<cl_mem>()), CL_INVALID_MEM_OBJECT);
    CHECK_CL(clReleaseMemObject(fake.as<cl_mem>()), CL_INVALID_MEM_OBJECT);
    CHECK_CL(clRetainMemObject(reinterpret_cast<cl_mem>(f.ctx())), CL_INVALID_MEM_OBJECT);
    CHECK_CL(clReleaseMemObject(reinterpret_cast<cl_mem>(f.q())), CL_INVALID_MEM_OBJECT);
    CHECK_CL(dispatch_of(mem.get()).clRetainMemObject(nullptr), CL_INVALID_MEM_OBJECT);
    CHECK_CL(dispatch_of(mem.get()).clReleaseMemObject(nullptr), CL_INVALID_MEM_OBJECT);
}

namespace {

// What destructor callbacks saw, in the order they ran.
struct CallbackLog {
    std::mutex mutex;
    std::vector<int> order;
    std::vector<cl_mem> objects;
    Signal called;
};

struct CallbackTag {
    CallbackLog* log;
    int index;
};

void CL_CALLBACK record_destruction(cl_mem mem, void* user_data) {
    auto* tag = static_cast<CallbackTag*>(user_data);
    {
        std::lock_guard lock(tag->log->mutex);
        tag->log->order.push_back(tag->index);
        tag->log->objects.push_back(mem);
    }
    tag->log->called.notify();
}

} // namespace

TEST_CASE("clSetMemObjectDestructorCallback rejects bad arguments", "[destructor]") {
    Fixture f;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 64);
    CallbackLog log;
    CallbackTag tag{&log, 0};
    CHECK_CL(clSetMemObjectDestructorCallback(mem.get(), nullptr, &tag), CL_INVALID_VALUE);
    FakeObject fake(mem.get(), 0x77);
    CHECK_CL(clSetMemObjectDestructorCallback(fake.as<cl_mem>(), record_destruction, &tag),
             CL_INVALID_MEM_OBJECT);
    CHECK_CL(
        dispatch_of(mem.get()).clSetMemObjectDestructorCallback(nullptr, record_destruction, &tag),
        CL_INVALID_MEM_OBJECT);
    CHECK(log.called.count() == 0);
}

TEST_CASE("destructor callbacks run once, newest first, after the last release", "[destructor]") {
    Fixture f;
    CallbackLog log;
    std::vector<CallbackTag> tags;
    for (int i = 0; i < 5; ++i)
        tags.push_back({&log, i});
    cl_mem mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 4096).release();
    for (CallbackTag& tag : tags)
        REQUIRE_OK(clSetMemObjectDestructorCallback(mem, record_destruction, &tag));
    REQUIRE_OK(clRetainMemObject(mem));
    REQUIRE_OK(clReleaseMemObject(mem));
    std::this_thread::sleep_for(20ms);
    CHECK(log.called.count() == 0); // still referenced
    REQUIRE_OK(clReleaseMemObject(mem));
    REQUIRE(log.called.wait_for(5));
    std::this_thread::sleep_for(20ms);
    std::lock_guard lock(log.mutex);
    CHECK(log.order == std::vector<int>{4, 3, 2, 1, 0});
    CHECK(log.objects == std::vector<cl_mem>(5, mem));
}

TEST_CASE("destructor callbacks wait for the commands that use the buffer", "[destructor]") {
    Fixture f;
    EventPtr gate = make_user_event(f.ctx());
    CallbackLog log;
    CallbackTag tag{&log, 0};
    // The host memory of a CL_MEM_USE_HOST_PTR buffer: the callback says it
    // may be freed, and frees it (a sanitizer build sees any later use).
    constexpr size_t size = 1 << 16;
    auto* host = static_cast<unsigned char*>(std::malloc(size));
    REQUIRE(host != nullptr);
    std::memset(host, 0x11, size);
    struct FreeingTag {
        CallbackLog* log;
        void* memory;
    } freeing{&log, host};
    auto free_and_record = [](cl_mem, void* user_data) {
        auto* t = static_cast<FreeingTag*>(user_data);
        std::free(t->memory);
        t->log->called.notify();
    };

    Bytes source(size, 0x5c);
    Bytes destination(size, 0);
    cl_mem use_host = make_buffer(f.ctx(), CL_MEM_USE_HOST_PTR, size, host).release();
    cl_mem plain = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size).release();
    REQUIRE_OK(clSetMemObjectDestructorCallback(use_host, free_and_record, &freeing));
    REQUIRE_OK(clSetMemObjectDestructorCallback(plain, record_destruction, &tag));
    const cl_event gate_list[] = {gate.get()};
    cl_event write = nullptr;
    cl_event copy = nullptr;
    REQUIRE_OK(clEnqueueWriteBuffer(f.q(), use_host, CL_FALSE, 0, size, source.data(), 1, gate_list,
                                    &write));
    EventPtr write_owned(write);
    REQUIRE_OK(clEnqueueCopyBuffer(f.q(), use_host, plain, 0, 0, size, 0, nullptr, &copy));
    EventPtr copy_owned(copy);
    REQUIRE_OK(clReleaseMemObject(use_host));
    REQUIRE_OK(clReleaseMemObject(plain));
    std::this_thread::sleep_for(100ms);
    CHECK(log.called.count() == 0);
    CHECK(status_of(write) > CL_COMPLETE);

    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    REQUIRE(log.called.wait_for(2));
    CHECK(status_of(write) == CL_COMPLETE);
    CHECK(status_of(copy) == CL_COMPLETE);
}

TEST_CASE("a parent's destructor callbacks wait for its sub-buffers", "[destructor]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    CallbackLog log;
    CallbackTag parent_tag{&log, 0};
    CallbackTag sub_tag{&log, 1};
    cl_mem parent = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 4 * align).release();
    cl_mem sub = make_sub_buffer(parent, 0, align, align).release();
    REQUIRE_OK(clSetMemObjectDestructorCallback(parent, record_destruction, &parent_tag));
    REQUIRE_OK(clSetMemObjectDestructorCallback(sub, record_destruction, &sub_tag));
    REQUIRE_OK(clReleaseMemObject(parent));
    std::this_thread::sleep_for(20ms);
    CHECK(log.called.count() == 0);
    // The sub-buffer still works without the application's reference to the parent.
    const Bytes data(align, 0x42);
    write_all(f.q(), sub, data);
    CHECK_BYTES(read_all(f.q(), sub, align), data);
    REQUIRE_OK(clReleaseMemObject(sub));
    REQUIRE(log.called.wait_for(2));
    std::lock_guard lock(log.mutex);
    CHECK(std::count(log.order.begin(), log.order.end(), 0) == 1);
    CHECK(std::count(log.order.begin(), log.order.end(), 1) == 1);
}
