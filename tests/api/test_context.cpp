// clCreateContext, clCreateContextFromType, clGetContextInfo,
// clRetainContext, clReleaseContext, clSetContextDestructorCallback.
#include "cl_test.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

using namespace cl_test;

namespace {

using Properties = std::vector<cl_context_properties>;

cl_context_properties as_property(const void* handle) {
    return reinterpret_cast<cl_context_properties>(handle);
}

Properties platform_property() {
    return {CL_CONTEXT_PLATFORM, as_property(platform()), 0};
}

void CL_CALLBACK ignore_errors(const char*, const void*, size_t, void*) {}

// Creates a context through the loader or directly through usmcl's dispatch
// table; returns the error and releases any context a wrong success made.
enum class Path { loader, driver };

cl_int create_status(Path path, const cl_context_properties* properties, cl_uint num_devices,
                     const cl_device_id* devices,
                     void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                     void* user_data) {
    cl_int error = CL_SUCCESS;
    auto create = path == Path::loader ? clCreateContext : dispatch_of(platform()).clCreateContext;
    cl_context context = create(properties, num_devices, devices, notify, user_data, &error);
    if (context) {
        clReleaseContext(context);
        return error;
    }
    // On failure the handle is NULL and errcode_ret holds the error.
    CHECK(error != CL_SUCCESS);
    return error;
}

cl_int create_from_type_status(Path path, const cl_context_properties* properties,
                               cl_device_type type,
                               void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                               void* user_data) {
    cl_int error = CL_SUCCESS;
    auto create = path == Path::loader ? clCreateContextFromType
                                       : dispatch_of(platform()).clCreateContextFromType;
    cl_context context = create(properties, type, notify, user_data, &error);
    if (context) {
        clReleaseContext(context);
        return error;
    }
    CHECK(error != CL_SUCCESS);
    return error;
}

// Records the order destructor callbacks run in.
struct CallbackLog {
    std::mutex mutex;
    std::vector<int> order;
    std::vector<cl_context> contexts;
};

struct CallbackEntry {
    CallbackLog* log;
    int id;
};

void CL_CALLBACK record_destruction(cl_context context, void* user_data) {
    auto* entry = static_cast<CallbackEntry*>(user_data);
    std::lock_guard lock(entry->log->mutex);
    entry->log->order.push_back(entry->id);
    entry->log->contexts.push_back(context);
}

} // namespace

TEST_CASE("clCreateContext without properties", "[context]") {
    cl_device_id id = device();
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_context raw = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &error);
    REQUIRE_CL(error, CL_SUCCESS);
    REQUIRE(raw != nullptr);
    const ContextPtr context(raw);
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_REFERENCE_COUNT) == 1);
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(context_info_array<cl_device_id>(raw, CL_CONTEXT_DEVICES) ==
          std::vector<cl_device_id>{id});
    // NULL properties: CL_CONTEXT_PROPERTIES has size 0.
    CHECK(info_size(clGetContextInfo, raw, cl_context_info{CL_CONTEXT_PROPERTIES}) == 0);
}

TEST_CASE("clCreateContext without errcode_ret", "[context]") {
    cl_device_id id = device();
    const ContextPtr context(clCreateContext(nullptr, 1, &id, nullptr, nullptr, nullptr));
    CHECK(context != nullptr);
    CHECK(clCreateContext(nullptr, 0, &id, nullptr, nullptr, nullptr) == nullptr);
}

TEST_CASE("clCreateContext with properties returns them as given", "[context]") {
    cl_device_id id = device();
    const Properties properties =
        GENERATE(Properties{CL_CONTEXT_PLATFORM, as_property(platform()), 0},
                 Properties{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0},
                 Properties{CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0},
                 Properties{CL_CONTEXT_PLATFORM, as_property(platform()),
                            CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0},
                 Properties{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_PLATFORM,
                            as_property(platform()), 0});
    CAPTURE(properties);
    cl_int error = CL_OUT_OF_RESOURCES;
    const ContextPtr context(
        clCreateContext(properties.data(), 1, &id, ignore_errors, nullptr, &error));
    REQUIRE_CL(error, CL_SUCCESS);
    REQUIRE(context != nullptr);
    CHECK(context_info_array<cl_context_properties>(context.get(), CL_CONTEXT_PROPERTIES) ==
          properties);
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 1);
}

TEST_CASE("clCreateContext with a notify callback and user data", "[context]") {
    cl_device_id id = device();
    int user_data = 7;
    cl_int error = CL_OUT_OF_RESOURCES;
    const ContextPtr context(clCreateContext(nullptr, 1, &id, ignore_errors, &user_data, &error));
    CHECK_CL(error, CL_SUCCESS);
    CHECK(context != nullptr);
}

TEST_CASE("clCreateContext ignores duplicate devices", "[context]") {
    cl_device_id id = device();
    const cl_device_id devices[] = {id, id, id};
    cl_int error = CL_OUT_OF_RESOURCES;
    const ContextPtr context(clCreateContext(nullptr, 3, devices, nullptr, nullptr, &error));
    REQUIRE_CL(error, CL_SUCCESS);
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(context_info_array<cl_device_id>(context.get(), CL_CONTEXT_DEVICES) ==
          std::vector<cl_device_id>{id});
}

TEST_CASE("clCreateContext error cases", "[context]") {
    const Path path = GENERATE(Path::loader, Path::driver);
    INFO((path == Path::loader ? "through the loader" : "directly through usmcl"));
    cl_device_id id = device();
    int user_data = 0;

    SECTION("NULL devices or no device: CL_INVALID_VALUE") {
        CHECK_CL(create_status(path, nullptr, 1, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
        CHECK_CL(create_status(path, nullptr, 0, &id, nullptr, nullptr), CL_INVALID_VALUE);
        CHECK_CL(create_status(path, nullptr, 0, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
    }
    SECTION("user_data without pfn_notify: CL_INVALID_VALUE") {
        CHECK_CL(create_status(path, nullptr, 1, &id, nullptr, &user_data), CL_INVALID_VALUE);
    }
    SECTION("an entry of devices that is not a device: CL_INVALID_DEVICE") {
        const ContextPtr other = make_context({id});
        const cl_device_id with_context[] = {id, reinterpret_cast<cl_device_id>(other.get())};
        CHECK_CL(create_status(path, nullptr, 2, with_context, nullptr, nullptr),
                 CL_INVALID_DEVICE);
        const cl_device_id with_null[] = {id, nullptr};
        CHECK_CL(create_status(path, nullptr, 2, with_null, nullptr, nullptr), CL_INVALID_DEVICE);
        FakeObject garbage(id, 0xa5);
        const cl_device_id with_garbage[] = {garbage.as<cl_device_id>()};
        CHECK_CL(create_status(path, nullptr, 1, with_garbage, nullptr, nullptr),
                 CL_INVALID_DEVICE);
        const cl_device_id with_platform[] = {id, reinterpret_cast<cl_device_id>(platform())};
        CHECK_CL(create_status(path, nullptr, 2, with_platform, nullptr, nullptr),
                 CL_INVALID_DEVICE);
    }
    SECTION("CL_CONTEXT_PLATFORM that is not a platform: CL_INVALID_PLATFORM") {
        const ContextPtr other = make_context({id});
        FakeObject garbage(platform(), 0x00);
        for (cl_context_properties value :
             {as_property(other.get()), as_property(id), as_property(&garbage)}) {
            const Properties properties{CL_CONTEXT_PLATFORM, value, 0};
            CHECK_CL(create_status(path, properties.data(), 1, &id, nullptr, nullptr),
                     CL_INVALID_PLATFORM);
        }
    }
    SECTION("unknown property name: CL_INVALID_PROPERTY") {
        for (cl_context_properties name :
             {cl_context_properties{0x4242}, cl_context_properties{CL_CONTEXT_DEVICES},
              cl_context_properties{CL_CONTEXT_REFERENCE_COUNT}}) {
            const Properties properties{name, 1, 0};
            CHECK_CL(create_status(path, properties.data(), 1, &id, nullptr, nullptr),
                     CL_INVALID_PROPERTY);
            const Properties after_platform{CL_CONTEXT_PLATFORM, as_property(platform()), name, 1,
                                            0};
            CHECK_CL(create_status(path, after_platform.data(), 1, &id, nullptr, nullptr),
                     CL_INVALID_PROPERTY);
        }
    }
    SECTION("a property given twice: CL_INVALID_PROPERTY") {
        const Properties platforms{CL_CONTEXT_PLATFORM, as_property(platform()),
                                   CL_CONTEXT_PLATFORM, as_property(platform()), 0};
        CHECK_CL(create_status(path, platforms.data(), 1, &id, nullptr, nullptr),
                 CL_INVALID_PROPERTY);
        const Properties syncs{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC,
                               CL_FALSE, 0};
        CHECK_CL(create_status(path, syncs.data(), 1, &id, nullptr, nullptr), CL_INVALID_PROPERTY);
    }
    SECTION("an invalid CL_CONTEXT_INTEROP_USER_SYNC value: CL_INVALID_PROPERTY") {
        const Properties properties{CL_CONTEXT_INTEROP_USER_SYNC, 2, 0};
        CHECK_CL(create_status(path, properties.data(), 1, &id, nullptr, nullptr),
                 CL_INVALID_PROPERTY);
    }
}

TEST_CASE("a NULL CL_CONTEXT_PLATFORM is CL_INVALID_PLATFORM", "[context]") {
    cl_device_id id = device();
    const Properties properties{CL_CONTEXT_PLATFORM, 0, 0};
    CHECK_CL(create_status(Path::driver, properties.data(), 1, &id, nullptr, nullptr),
             CL_INVALID_PLATFORM);
    CHECK_CL(create_status(Path::loader, properties.data(), 1, &id, nullptr, nullptr),
             CL_INVALID_PLATFORM);
}

TEST_CASE("clCreateContextFromType finds the CPU device", "[context]") {
    const cl_device_type type =
        GENERATE(cl_device_type{CL_DEVICE_TYPE_CPU}, cl_device_type{CL_DEVICE_TYPE_DEFAULT},
                 cl_device_type{CL_DEVICE_TYPE_ALL});
    INFO("device type 0x" << std::hex << type);
    const Properties properties = platform_property();
    cl_int error = CL_OUT_OF_RESOURCES;
    const ContextPtr context(
        clCreateContextFromType(properties.data(), type, nullptr, nullptr, &error));
    REQUIRE_CL(error, CL_SUCCESS);
    REQUIRE(context != nullptr);
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(context_info_array<cl_device_id>(context.get(), CL_CONTEXT_DEVICES) ==
          std::vector<cl_device_id>{device()});
    CHECK(context_info_array<cl_context_properties>(context.get(), CL_CONTEXT_PROPERTIES) ==
          properties);
}

TEST_CASE("clCreateContextFromType without properties", "[context]") {
    cl_int error = CL_OUT_OF_RESOURCES;
    // Through the driver: NULL properties select usmcl's platform.
    const ContextPtr context(
        dispatch_of(platform())
            .clCreateContextFromType(nullptr, CL_DEVICE_TYPE_CPU, ignore_errors, nullptr, &error));
    REQUIRE_CL(error, CL_SUCCESS);
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(info_size(clGetContextInfo, context.get(), cl_context_info{CL_CONTEXT_PROPERTIES}) == 0);
}

TEST_CASE("clCreateContextFromType error cases", "[context]") {
    const Path path = GENERATE(Path::loader, Path::driver);
    INFO((path == Path::loader ? "through the loader" : "directly through usmcl"));
    const Properties properties = platform_property();
    int user_data = 0;

    SECTION("no device of that type: CL_DEVICE_NOT_FOUND") {
        for (cl_device_type type :
             {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ACCELERATOR},
              cl_device_type{CL_DEVICE_TYPE_CUSTOM}}) {
            INFO("device type 0x" << std::hex << type);
            CHECK_CL(create_from_type_status(path, properties.data(), type, nullptr, nullptr),
                     CL_DEVICE_NOT_FOUND);
        }
    }
    SECTION("unknown device type bits: CL_INVALID_DEVICE_TYPE") {
        for (cl_device_type type : {cl_device_type{0}, cl_device_type{1} << 7,
                                    CL_DEVICE_TYPE_CPU | (cl_device_type{1} << 40)}) {
            INFO("device type 0x" << std::hex << type);
            CHECK_CL(create_from_type_status(path, properties.data(), type, nullptr, nullptr),
                     CL_INVALID_DEVICE_TYPE);
        }
    }
    SECTION("user_data without pfn_notify: CL_INVALID_VALUE") {
        CHECK_CL(create_from_type_status(path, properties.data(), CL_DEVICE_TYPE_CPU, nullptr,
                                         &user_data),
                 CL_INVALID_VALUE);
    }
    SECTION("unknown or repeated properties: CL_INVALID_PROPERTY") {
        const Properties unknown{CL_CONTEXT_PLATFORM, as_property(platform()), 0x4242, 0, 0};
        CHECK_CL(
            create_from_type_status(path, unknown.data(), CL_DEVICE_TYPE_CPU, nullptr, nullptr),
            CL_INVALID_PROPERTY);
        const Properties twice{CL_CONTEXT_PLATFORM, as_property(platform()), CL_CONTEXT_PLATFORM,
                               as_property(platform()), 0};
        CHECK_CL(create_from_type_status(path, twice.data(), CL_DEVICE_TYPE_CPU, nullptr, nullptr),
                 CL_INVALID_PROPERTY);
    }
    SECTION("CL_CONTEXT_PLATFORM that is not a platform: CL_INVALID_PLATFORM") {
        const ContextPtr other = make_context({device()});
        const Properties wrong{CL_CONTEXT_PLATFORM, as_property(other.get()), 0};
        CHECK_CL(create_from_type_status(path, wrong.data(), CL_DEVICE_TYPE_CPU, nullptr, nullptr),
                 CL_INVALID_PLATFORM);
    }
}

TEST_CASE("clGetContextInfo size rules for every query", "[context]") {
    const Properties properties = platform_property();
    cl_device_id id = device();
    cl_int error = CL_OUT_OF_RESOURCES;
    const ContextPtr context(clCreateContext(properties.data(), 1, &id, nullptr, nullptr, &error));
    REQUIRE_CL(error, CL_SUCCESS);
    const std::pair<cl_context_info, size_t> queries[] = {
        {CL_CONTEXT_REFERENCE_COUNT, sizeof(cl_uint)},
        {CL_CONTEXT_NUM_DEVICES, sizeof(cl_uint)},
        {CL_CONTEXT_DEVICES, sizeof(cl_device_id)},
        {CL_CONTEXT_PROPERTIES, 3 * sizeof(cl_context_properties)},
    };
    for (const auto& [param, expected_size] : queries) {
        INFO("param 0x" << std::hex << param);
        size_t size = 0;
        REQUIRE_OK(clGetContextInfo(context.get(), param, 0, nullptr, &size));
        CHECK(size == expected_size);
        constexpr unsigned char guard = 0xee;
        std::vector<unsigned char> buffer(size + 16, guard);
        size_t written = 0;
        REQUIRE_OK(clGetContextInfo(context.get(), param, buffer.size(), buffer.data(), &written));
        CHECK(written == size);
        CHECK(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(size), buffer.end(),
                          [](unsigned char b) { return b == guard; }));
        std::vector<unsigned char> small(size, guard);
        CHECK_CL(clGetContextInfo(context.get(), param, size - 1, small.data(), nullptr),
                 CL_INVALID_VALUE);
        CHECK(std::all_of(small.begin(), small.end(), [](unsigned char b) { return b == guard; }));
    }
}

TEST_CASE("clGetContextInfo rejects unknown queries", "[context]") {
    const ContextPtr context = make_context({device()});
    unsigned char buffer[64] = {};
    size_t size = 0;
    for (cl_context_info param : {cl_context_info{0}, cl_context_info{CL_CONTEXT_PLATFORM},
                                  cl_context_info{CL_CONTEXT_INTEROP_USER_SYNC},
                                  cl_context_info{CL_DEVICE_NAME}, cl_context_info{0x1084}}) {
        INFO("param 0x" << std::hex << param);
        CHECK_CL(clGetContextInfo(context.get(), param, sizeof buffer, buffer, &size),
                 CL_INVALID_VALUE);
    }
}

TEST_CASE("context reference counts", "[context]") {
    const ContextPtr context = make_context({device()});
    cl_context raw = context.get();
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_REFERENCE_COUNT) == 1);
    REQUIRE_OK(clRetainContext(raw));
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_REFERENCE_COUNT) == 2);
    REQUIRE_OK(clRetainContext(raw));
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_REFERENCE_COUNT) == 3);
    REQUIRE_OK(clReleaseContext(raw));
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_REFERENCE_COUNT) == 2);
    REQUIRE_OK(clReleaseContext(raw));
    CHECK(context_info<cl_uint>(raw, CL_CONTEXT_REFERENCE_COUNT) == 1);
}

TEST_CASE("destructor callbacks run in reverse order at the last release", "[context]") {
    CallbackLog log;
    CallbackEntry entries[] = {{&log, 1}, {&log, 2}, {&log, 3}};
    cl_device_id id = device();
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_context context = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &error);
    REQUIRE_CL(error, CL_SUCCESS);
    for (auto& entry : entries)
        REQUIRE_OK(clSetContextDestructorCallback(context, record_destruction, &entry));

    REQUIRE_OK(clRetainContext(context));
    REQUIRE_OK(clReleaseContext(context));
    CHECK(log.order.empty()); // not before the last release
    CHECK(context_info<cl_uint>(context, CL_CONTEXT_REFERENCE_COUNT) == 1);

    REQUIRE_OK(clReleaseContext(context));
    CHECK(log.order == std::vector<int>{3, 2, 1});
    CHECK(log.contexts == std::vector<cl_context>(3, context));
}

// A command queue keeps its context alive after the application's last
// clReleaseContext: the handle is then detectably released
// (CL_INVALID_CONTEXT), and the destructor callbacks wait for the queue.
TEST_CASE("a context released by the application but kept alive by a queue", "[context]") {
    CallbackLog log;
    CallbackEntry entry{&log, 1};
    cl_device_id id = device();
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_context context = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &error);
    REQUIRE_CL(error, CL_SUCCESS);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, id, nullptr, &error);
    REQUIRE_CL(error, CL_SUCCESS);
    REQUIRE(queue != nullptr);
    REQUIRE_OK(clSetContextDestructorCallback(context, record_destruction, &entry));

    REQUIRE_OK(clReleaseContext(context));
    CHECK(log.order.empty());
    cl_uint count = 0;
    CHECK_CL(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clRetainContext(context), CL_INVALID_CONTEXT);
    CHECK_CL(clReleaseContext(context), CL_INVALID_CONTEXT);
    CHECK_CL(clSetContextDestructorCallback(context, record_destruction, &entry),
             CL_INVALID_CONTEXT);
    cl_context queue_context = nullptr;
    CHECK_OK(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context,
                                   nullptr));
    CHECK(queue_context == context);

    REQUIRE_OK(clReleaseCommandQueue(queue));
    CHECK(log.order == std::vector<int>{1});
}

TEST_CASE("clSetContextDestructorCallback error cases", "[context]") {
    const ContextPtr context = make_context({device()});
    CHECK_CL(clSetContextDestructorCallback(context.get(), nullptr, nullptr), CL_INVALID_VALUE);
    CallbackLog log;
    CallbackEntry entry{&log, 1};
    CHECK_CL(clSetContextDestructorCallback(reinterpret_cast<cl_context>(device()),
                                            record_destruction, &entry),
             CL_INVALID_CONTEXT);
    FakeObject garbage(device(), 0xc3);
    CHECK_CL(clSetContextDestructorCallback(garbage.as<cl_context>(), record_destruction, &entry),
             CL_INVALID_CONTEXT);
    CHECK_CL(clSetContextDestructorCallback(nullptr, record_destruction, &entry),
             CL_INVALID_CONTEXT);
    CHECK(log.order.empty());
}

TEST_CASE("context entry points reject handles that are not a context", "[context]") {
    cl_device_id id = device();
    cl_uint count = 0;
    std::vector<cl_context> not_contexts = {reinterpret_cast<cl_context>(id),
                                            reinterpret_cast<cl_context>(platform())};
    FakeObject garbage(id, 0x5a);
    FakeObject zeros(id, 0x00);
    not_contexts.push_back(garbage.as<cl_context>());
    not_contexts.push_back(zeros.as<cl_context>());
    for (cl_context handle : not_contexts) {
        CHECK_CL(clGetContextInfo(handle, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr),
                 CL_INVALID_CONTEXT);
        CHECK_CL(clRetainContext(handle), CL_INVALID_CONTEXT);
        CHECK_CL(clReleaseContext(handle), CL_INVALID_CONTEXT);
    }
    CHECK_CL(clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr),
             CL_INVALID_CONTEXT);
    CHECK_CL(clRetainContext(nullptr), CL_INVALID_CONTEXT);
    CHECK_CL(clReleaseContext(nullptr), CL_INVALID_CONTEXT);
    CHECK(count == 0);
    // The device is untouched by all this.
    CHECK(device_info<cl_uint>(id, CL_DEVICE_REFERENCE_COUNT) == 1);
}

TEST_CASE("contexts are created and destroyed concurrently", "[context]") {
    cl_device_id id = device();
    std::atomic<int> destroyed{0};
    std::atomic<int> failures{0};
    constexpr int threads_count = 4;
    constexpr int per_thread = 50;
    auto count_destruction = [](cl_context, void* user_data) {
        ++*static_cast<std::atomic<int>*>(user_data);
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < threads_count; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < per_thread; ++i) {
                cl_int error = CL_SUCCESS;
                cl_context context = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &error);
                cl_uint count = 0;
                if (error != CL_SUCCESS || context == nullptr ||
                    clSetContextDestructorCallback(context, count_destruction, &destroyed) !=
                        CL_SUCCESS ||
                    clRetainContext(context) != CL_SUCCESS ||
                    clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count,
                                     nullptr) != CL_SUCCESS ||
                    count < 2 || clReleaseContext(context) != CL_SUCCESS ||
                    clReleaseContext(context) != CL_SUCCESS)
                    ++failures;
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    CHECK(failures == 0);
    CHECK(destroyed == threads_count * per_thread);
}
