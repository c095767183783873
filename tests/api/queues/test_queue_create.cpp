// clCreateCommandQueue, clCreateCommandQueueWithProperties,
// clGetCommandQueueInfo, clRetainCommandQueue, clReleaseCommandQueue,
// clSetDefaultDeviceCommandQueue, clFlush and clFinish: what they return for
// good and bad arguments.
#include "queue_test.hpp"

#include <initializer_list>

using namespace cl_test;
using namespace queue_test;

namespace {

constexpr cl_command_queue_properties out_of_order = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
constexpr cl_command_queue_properties profiling = CL_QUEUE_PROFILING_ENABLE;

// clCreateCommandQueueWithProperties' error code; the queue must be NULL.
cl_int create_error(cl_context context, cl_device_id device,
                    std::initializer_list<cl_queue_properties> properties) {
    const std::vector<cl_queue_properties> list(properties);
    cl_int error = CL_SUCCESS;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, list.data(), &error);
    CHECK(queue == nullptr);
    if (queue)
        clReleaseCommandQueue(queue);
    return error;
}

// clCreateCommandQueue's error code; the queue must be NULL.
cl_int create_error_1x(cl_context context, cl_device_id device,
                       cl_command_queue_properties properties) {
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueue(context, device, properties, &error);
    CHECK(queue == nullptr);
    if (queue)
        clReleaseCommandQueue(queue);
    return error;
}

std::vector<cl_queue_properties> properties_array(cl_command_queue queue) {
    size_t size = 1;
    REQUIRE_OK(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size));
    REQUIRE(size % sizeof(cl_queue_properties) == 0);
    std::vector<cl_queue_properties> values(size / sizeof(cl_queue_properties));
    if (!values.empty())
        REQUIRE_OK(
            clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, values.data(), nullptr));
    return values;
}

} // namespace

TEST_CASE("the device supports out-of-order and profiling host queues, no device queues",
          "[queue][create]") {
    const cl_device_id dev = device();
    cl_command_queue_properties host = 0;
    REQUIRE_OK(
        clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host, &host, nullptr));
    CHECK(host == (out_of_order | profiling));
    cl_device_device_enqueue_capabilities enqueue = 1;
    REQUIRE_OK(clGetDeviceInfo(dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof enqueue, &enqueue,
                               nullptr));
    CHECK(enqueue == 0);
    cl_device_exec_capabilities exec = 0;
    REQUIRE_OK(clGetDeviceInfo(dev, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof exec, &exec, nullptr));
    CHECK((exec & CL_EXEC_NATIVE_KERNEL) != 0);
}

TEST_CASE("queues of every host property combination", "[queue][create]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    for (cl_command_queue_properties bits :
         {cl_command_queue_properties{0}, out_of_order, profiling, out_of_order | profiling}) {
        INFO("properties " << bits);
        const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, bits, 0};
        cl_int error = CL_OUT_OF_RESOURCES;
        QueuePtr modern(clCreateCommandQueueWithProperties(context.get(), dev, list, &error));
        REQUIRE_OK(error);
        REQUIRE(modern);
        CHECK(queue_info<cl_command_queue_properties>(modern.get(), CL_QUEUE_PROPERTIES) == bits);

        error = CL_OUT_OF_RESOURCES;
        QueuePtr legacy(clCreateCommandQueue(context.get(), dev, bits, &error));
        REQUIRE_OK(error);
        REQUIRE(legacy);
        CHECK(queue_info<cl_command_queue_properties>(legacy.get(), CL_QUEUE_PROPERTIES) == bits);
    }
    SECTION("NULL properties: an in-order queue without profiling") {
        cl_int error = CL_OUT_OF_RESOURCES;
        QueuePtr queue(clCreateCommandQueueWithProperties(context.get(), dev, nullptr, &error));
        REQUIRE_OK(error);
        CHECK(queue_info<cl_command_queue_properties>(queue.get(), CL_QUEUE_PROPERTIES) == 0);
    }
    SECTION("an empty list and CL_QUEUE_PROPERTIES 0 are accepted") {
        const cl_queue_properties empty[] = {0};
        cl_int error = CL_OUT_OF_RESOURCES;
        QueuePtr queue(clCreateCommandQueueWithProperties(context.get(), dev, empty, &error));
        REQUIRE_OK(error);
        const cl_queue_properties zero[] = {CL_QUEUE_PROPERTIES, 0, 0};
        QueuePtr other(clCreateCommandQueueWithProperties(context.get(), dev, zero, &error));
        REQUIRE_OK(error);
    }
    SECTION("errcode_ret may be NULL") {
        QueuePtr queue(clCreateCommandQueueWithProperties(context.get(), dev, nullptr, nullptr));
        CHECK(queue);
        QueuePtr legacy(clCreateCommandQueue(context.get(), dev, 0, nullptr));
        CHECK(legacy);
    }
}

TEST_CASE("queues on sub-devices", "[queue][create]") {
    const cl_device_id dev = device();
    if (compute_units(dev) < 2) {
        WARN("one compute unit: nothing to partition");
        return;
    }
    std::vector<DevicePtr> subs = create_sub_devices(dev, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    REQUIRE(subs.size() >= 2);
    ContextPtr context = cl_test::make_context({subs[0].get()});
    QueuePtr queue = make_queue(context.get(), subs[0].get());
    CHECK(queue_info<cl_device_id>(queue.get(), CL_QUEUE_DEVICE) == subs[0].get());

    // A device that is not one of the context's: CL_INVALID_DEVICE.
    CHECK_CL(create_error(context.get(), subs[1].get(), {0}), CL_INVALID_DEVICE);
    CHECK_CL(create_error_1x(context.get(), subs[1].get(), 0), CL_INVALID_DEVICE);
    CHECK_CL(create_error(context.get(), dev, {0}), CL_INVALID_DEVICE);
    CHECK_CL(create_error_1x(context.get(), dev, 0), CL_INVALID_DEVICE);

    // Work runs on the sub-device's own workers.
    std::atomic<int> runs{0};
    Task task = [&] { ++runs; };
    EventPtr event = enqueue_task(queue.get(), task);
    CHECK(wait_final(event.get()) == CL_COMPLETE);
    CHECK(runs == 1);
}

TEST_CASE("clCreateCommandQueueWithProperties rejects bad arguments", "[queue][create][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    cl_context ctx = context.get();
    const cl_icd_dispatch& driver = dispatch_of(ctx);

    SECTION("context not valid: CL_INVALID_CONTEXT") {
        cl_int error = CL_SUCCESS;
        CHECK(clCreateCommandQueueWithProperties(nullptr, dev, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_CONTEXT);
        error = CL_SUCCESS;
        CHECK(driver.clCreateCommandQueueWithProperties(nullptr, dev, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_CONTEXT);
        FakeObject fake(ctx, 0x5a);
        CHECK_CL(create_error(fake.as<cl_context>(), dev, {0}), CL_INVALID_CONTEXT);
        // A device handle where the context should be.
        CHECK_CL(create_error(reinterpret_cast<cl_context>(dev), dev, {0}), CL_INVALID_CONTEXT);
    }
    SECTION("device not valid: CL_INVALID_DEVICE") {
        cl_int error = CL_SUCCESS;
        CHECK(clCreateCommandQueueWithProperties(ctx, nullptr, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_DEVICE);
        error = CL_SUCCESS;
        CHECK(driver.clCreateCommandQueueWithProperties(ctx, nullptr, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_DEVICE);
        FakeObject fake(dev, 0x00);
        CHECK_CL(create_error(ctx, fake.as<cl_device_id>(), {0}), CL_INVALID_DEVICE);
        CHECK_CL(create_error(ctx, reinterpret_cast<cl_device_id>(ctx), {0}), CL_INVALID_DEVICE);
    }
    SECTION("an unknown property name: CL_INVALID_VALUE") {
        CHECK_CL(create_error(ctx, dev, {0x1234, 0, 0}), CL_INVALID_VALUE);
        CHECK_CL(create_error(ctx, dev,
                              {static_cast<cl_queue_properties>(-1),
                               static_cast<cl_queue_properties>(-1), 0}),
                 CL_INVALID_VALUE);
        // cl_khr_priority_hints and cl_khr_throttle_hints are not supported.
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_LOW_KHR, 0}),
                 CL_INVALID_VALUE);
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_THROTTLE_KHR, CL_QUEUE_THROTTLE_LOW_KHR, 0}),
                 CL_INVALID_VALUE);
    }
    SECTION("a property given twice: CL_INVALID_VALUE") {
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0}),
                 CL_INVALID_VALUE);
        CHECK_CL(
            create_error(ctx, dev,
                         {CL_QUEUE_PROPERTIES, profiling, CL_QUEUE_PROPERTIES, out_of_order, 0}),
            CL_INVALID_VALUE);
    }
    SECTION("unknown CL_QUEUE_PROPERTIES bits: CL_INVALID_VALUE") {
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_PROPERTIES, cl_queue_properties{1} << 20, 0}),
                 CL_INVALID_VALUE);
        CHECK_CL(create_error(ctx, dev,
                              {CL_QUEUE_PROPERTIES, profiling | (cl_queue_properties{1} << 40), 0}),
                 CL_INVALID_VALUE);
    }
    SECTION("on-device queues are valid but unsupported: CL_INVALID_QUEUE_PROPERTIES") {
        CHECK_CL(
            create_error(ctx, dev, {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | out_of_order, 0}),
            CL_INVALID_QUEUE_PROPERTIES);
        CHECK_CL(create_error(ctx, dev,
                              {CL_QUEUE_PROPERTIES,
                               CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | out_of_order, 0}),
                 CL_INVALID_QUEUE_PROPERTIES);
        CHECK_CL(create_error(ctx, dev,
                              {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | out_of_order | profiling,
                               CL_QUEUE_SIZE, 1024, 0}),
                 CL_INVALID_QUEUE_PROPERTIES);
    }
    SECTION("invalid on-device combinations: CL_INVALID_VALUE") {
        // CL_QUEUE_ON_DEVICE requires out-of-order execution.
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}),
                 CL_INVALID_VALUE);
        // CL_QUEUE_ON_DEVICE_DEFAULT requires CL_QUEUE_ON_DEVICE.
        CHECK_CL(create_error(ctx, dev,
                              {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | out_of_order, 0}),
                 CL_INVALID_VALUE);
    }
    SECTION("CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE: CL_INVALID_VALUE") {
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_SIZE, 1024, 0}), CL_INVALID_VALUE);
        CHECK_CL(create_error(ctx, dev, {CL_QUEUE_PROPERTIES, out_of_order, CL_QUEUE_SIZE, 16, 0}),
                 CL_INVALID_VALUE);
    }
    SECTION("errcode_ret may be NULL on failure") {
        const cl_queue_properties unknown[] = {0x1234, 0, 0};
        CHECK(clCreateCommandQueueWithProperties(ctx, dev, unknown, nullptr) == nullptr);
    }
}

TEST_CASE("clCreateCommandQueue rejects bad arguments", "[queue][create][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    cl_context ctx = context.get();
    const cl_icd_dispatch& driver = dispatch_of(ctx);

    cl_int error = CL_SUCCESS;
    CHECK(driver.clCreateCommandQueue(nullptr, dev, 0, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    CHECK_CL(create_error_1x(nullptr, dev, 0), CL_INVALID_CONTEXT);
    FakeObject fake_context(ctx, 0x11);
    CHECK_CL(create_error_1x(fake_context.as<cl_context>(), dev, 0), CL_INVALID_CONTEXT);

    error = CL_SUCCESS;
    CHECK(driver.clCreateCommandQueue(ctx, nullptr, 0, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_DEVICE);
    CHECK_CL(create_error_1x(ctx, nullptr, 0), CL_INVALID_DEVICE);

    // Bits that are not host queue properties are not valid values.
    CHECK_CL(create_error_1x(ctx, dev, static_cast<cl_command_queue_properties>(-1)),
             CL_INVALID_VALUE);
    CHECK_CL(create_error_1x(ctx, dev, cl_command_queue_properties{1} << 20), CL_INVALID_VALUE);
    CHECK_CL(create_error_1x(ctx, dev, CL_QUEUE_ON_DEVICE_DEFAULT | out_of_order),
             CL_INVALID_VALUE);
}

TEST_CASE("clGetCommandQueueInfo answers every query", "[queue][info]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);

    SECTION("a queue of clCreateCommandQueueWithProperties") {
        const cl_queue_properties given[] = {CL_QUEUE_PROPERTIES, out_of_order | profiling, 0};
        cl_int error = CL_OUT_OF_RESOURCES;
        QueuePtr queue(clCreateCommandQueueWithProperties(context.get(), dev, given, &error));
        REQUIRE_OK(error);
        CHECK(queue_info<cl_context>(queue.get(), CL_QUEUE_CONTEXT) == context.get());
        CHECK(queue_info<cl_device_id>(queue.get(), CL_QUEUE_DEVICE) == dev);
        CHECK(queue_info<cl_uint>(queue.get(), CL_QUEUE_REFERENCE_COUNT) == 1);
        CHECK(queue_info<cl_command_queue_properties>(queue.get(), CL_QUEUE_PROPERTIES) ==
              (out_of_order | profiling));
        CHECK(queue_info<cl_command_queue>(queue.get(), CL_QUEUE_DEVICE_DEFAULT) == nullptr);
        // The list exactly as given, terminating 0 included.
        CHECK(properties_array(queue.get()) ==
              std::vector<cl_queue_properties>(std::begin(given), std::end(given)));
        // CL_QUEUE_SIZE only exists for device queues.
        cl_uint size = 0;
        CHECK_CL(clGetCommandQueueInfo(queue.get(), CL_QUEUE_SIZE, sizeof size, &size, nullptr),
                 CL_INVALID_COMMAND_QUEUE);
    }
    SECTION("CL_QUEUE_PROPERTIES_ARRAY keeps the order and the zero-valued entries") {
        const cl_queue_properties given[] = {CL_QUEUE_PROPERTIES, 0, 0};
        cl_int error = CL_OUT_OF_RESOURCES;
        QueuePtr queue(clCreateCommandQueueWithProperties(context.get(), dev, given, &error));
        REQUIRE_OK(error);
        CHECK(properties_array(queue.get()) ==
              std::vector<cl_queue_properties>(std::begin(given), std::end(given)));
        const cl_queue_properties empty[] = {0};
        QueuePtr bare(clCreateCommandQueueWithProperties(context.get(), dev, empty, &error));
        REQUIRE_OK(error);
        CHECK(properties_array(bare.get()) == std::vector<cl_queue_properties>{0});
    }
    SECTION("no properties array: size 0") {
        cl_int error = CL_OUT_OF_RESOURCES;
        QueuePtr from_null(clCreateCommandQueueWithProperties(context.get(), dev, nullptr, &error));
        REQUIRE_OK(error);
        CHECK(properties_array(from_null.get()).empty());
        QueuePtr legacy(clCreateCommandQueue(context.get(), dev, profiling, &error));
        REQUIRE_OK(error);
        CHECK(properties_array(legacy.get()).empty());
        CHECK(queue_info<cl_command_queue_properties>(legacy.get(), CL_QUEUE_PROPERTIES) ==
              profiling);
    }
    SECTION("bad queries") {
        QueuePtr queue = make_queue(context.get(), dev);
        cl_uint value = 0;
        CHECK_CL(clGetCommandQueueInfo(queue.get(), 0x7fff, sizeof value, &value, nullptr),
                 CL_INVALID_VALUE);
        // param_value_size smaller than the answer.
        cl_context small = nullptr;
        CHECK_CL(
            clGetCommandQueueInfo(queue.get(), CL_QUEUE_CONTEXT, sizeof small - 1, &small, nullptr),
            CL_INVALID_VALUE);
        CHECK(small == nullptr);
        // Only the size.
        size_t size = 0;
        CHECK_OK(clGetCommandQueueInfo(queue.get(), CL_QUEUE_DEVICE, 0, nullptr, &size));
        CHECK(size == sizeof(cl_device_id));
        // Not a queue.
        const cl_icd_dispatch& driver = dispatch_of(queue.get());
        CHECK_CL(driver.clGetCommandQueueInfo(nullptr, CL_QUEUE_CONTEXT, 0, nullptr, &size),
                 CL_INVALID_COMMAND_QUEUE);
        FakeObject fake(queue.get(), 0x77);
        CHECK_CL(
            clGetCommandQueueInfo(fake.as<cl_command_queue>(), CL_QUEUE_CONTEXT, 0, nullptr, &size),
            CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(clGetCommandQueueInfo(reinterpret_cast<cl_command_queue>(context.get()),
                                       CL_QUEUE_CONTEXT, 0, nullptr, &size),
                 CL_INVALID_COMMAND_QUEUE);
    }
}

TEST_CASE("clRetainCommandQueue and clReleaseCommandQueue count references", "[queue][refcount]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    REQUIRE_OK(clRetainCommandQueue(queue.get()));
    REQUIRE_OK(clRetainCommandQueue(queue.get()));
    CHECK(queue_info<cl_uint>(queue.get(), CL_QUEUE_REFERENCE_COUNT) == 3);
    REQUIRE_OK(clReleaseCommandQueue(queue.get()));
    CHECK(queue_info<cl_uint>(queue.get(), CL_QUEUE_REFERENCE_COUNT) == 2);
    REQUIRE_OK(clReleaseCommandQueue(queue.get()));
    CHECK(queue_info<cl_uint>(queue.get(), CL_QUEUE_REFERENCE_COUNT) == 1);

    // The queue keeps its context alive.
    cl_uint context_refs = 0;
    REQUIRE_OK(clGetContextInfo(context.get(), CL_CONTEXT_REFERENCE_COUNT, sizeof context_refs,
                                &context_refs, nullptr));
    CHECK(context_refs == 1);

    const cl_icd_dispatch& driver = dispatch_of(queue.get());
    CHECK_CL(driver.clRetainCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(driver.clReleaseCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clRetainCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clReleaseCommandQueue(nullptr), CL_INVALID_COMMAND_QUEUE);
    FakeObject fake(queue.get(), 0x33);
    CHECK_CL(clRetainCommandQueue(fake.as<cl_command_queue>()), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clReleaseCommandQueue(fake.as<cl_command_queue>()), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clRetainCommandQueue(reinterpret_cast<cl_command_queue>(context.get())),
             CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("clSetDefaultDeviceCommandQueue: no on-device queues", "[queue][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev, out_of_order);
    // A valid context and device: the device has no replaceable default
    // on-device queue.
    CHECK_CL(clSetDefaultDeviceCommandQueue(context.get(), dev, queue.get()), CL_INVALID_OPERATION);
    const cl_icd_dispatch& driver = dispatch_of(queue.get());
    CHECK_CL(driver.clSetDefaultDeviceCommandQueue(nullptr, dev, queue.get()), CL_INVALID_CONTEXT);
    CHECK_CL(driver.clSetDefaultDeviceCommandQueue(context.get(), nullptr, queue.get()),
             CL_INVALID_DEVICE);
    // The queue is still a working host queue afterwards.
    EventPtr marker = enqueue_marker(queue.get());
    CHECK(wait_final(marker.get()) == CL_COMPLETE);
}

TEST_CASE("clFlush and clFinish", "[queue][errors]") {
    const cl_device_id dev = device();
    ContextPtr context = make_context(dev);
    QueuePtr queue = make_queue(context.get(), dev);
    CHECK_OK(clFlush(queue.get()));
    CHECK_OK(clFinish(queue.get())); // an empty queue
    const cl_icd_dispatch& driver = dispatch_of(queue.get());
    CHECK_CL(driver.clFlush(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(driver.clFinish(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clFlush(nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clFinish(nullptr), CL_INVALID_COMMAND_QUEUE);
    FakeObject fake(queue.get(), 0x99);
    CHECK_CL(clFlush(fake.as<cl_command_queue>()), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clFinish(fake.as<cl_command_queue>()), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clFinish(reinterpret_cast<cl_command_queue>(context.get())), CL_INVALID_COMMAND_QUEUE);
}
