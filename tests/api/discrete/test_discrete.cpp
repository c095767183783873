// Discrete-memory devices through the ICD loader. Run with
// USMCL_DEVICES=cpu,discrete:2 and USMCL_DISCRETE_MEMORY=64MiB: the CPU
// device (host memory) and two accelerators, each with 64 MiB of memory of
// its own. Checks their device info, allocation failure when their memory is
// full, kernels on them against a host reference, and the bytes migrated
// between the domains against the exact minimum.
#include "discrete_test.hpp"

#include <chrono>
#include <cstdint>
#include <numeric>
#include <thread>

using namespace cl_test;
using namespace discrete_test;

namespace {

constexpr size_t mib = size_t(1) << 20;
constexpr size_t device_memory = 64 * mib;

const char* const source = R"(
kernel void plus_one(global const uint* in, global uint* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] + 1;
}
kernel void triple(global uint* data) {
    size_t i = get_global_id(0);
    data[i] *= 3;
}
kernel void axpy(uint a, global const uint* x, global uint* y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
)";

std::vector<cl_uint> iota_data(size_t count, cl_uint first) {
    std::vector<cl_uint> data(count);
    std::iota(data.begin(), data.end(), first);
    return data;
}

} // namespace

TEST_CASE("USMCL_DEVICES lists the CPU device and two discrete-memory devices") {
    const auto all = devices_of(CL_DEVICE_TYPE_ALL);
    REQUIRE(all.size() == 3);
    const cl_device_id cpu = cpu_device();
    const auto discrete = discrete_devices();
    CHECK(all[0] == cpu);
    CHECK(all[1] == discrete[0]);
    CHECK(all[2] == discrete[1]);
    // The first device of the list is the default one, and the only one.
    const auto defaults = devices_of(CL_DEVICE_TYPE_DEFAULT);
    REQUIRE(defaults.size() == 1);
    CHECK(defaults[0] == cpu);
    CHECK(devices_of(CL_DEVICE_TYPE_GPU).empty());
    CHECK(devices_of(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_ACCELERATOR).size() == 3);
}

TEST_CASE("a discrete-memory device describes memory of its own") {
    const cl_device_id cpu = cpu_device();
    const auto discrete = discrete_devices();
    std::vector<std::array<cl_uchar, CL_UUID_SIZE_KHR>> uuids;
    uuids.push_back(
        info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(clGetDeviceInfo, cpu, CL_DEVICE_UUID_KHR));
    for (cl_device_id device : discrete) {
        CHECK(device_info<cl_device_type>(device, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_ACCELERATOR);
        CHECK(device_info<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_FALSE);
        CHECK(device_info<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE) == device_memory);
        const auto max_alloc = device_info<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        CHECK(max_alloc <= device_memory);
        CHECK(max_alloc >= device_memory / 4);
        CHECK(device_info<cl_bool>(device, CL_DEVICE_AVAILABLE) == CL_TRUE);
        CHECK(device_info<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE);
        CHECK(device_info<cl_uint>(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) ==
              device_info<cl_uint>(cpu, CL_DEVICE_PARTITION_MAX_SUB_DEVICES));
        CHECK(device_info<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS) ==
              device_info<cl_uint>(cpu, CL_DEVICE_MAX_COMPUTE_UNITS));
        CHECK(device_info_string(device, CL_DEVICE_NAME).find("discrete") != std::string::npos);
        CHECK(device_info_string(device, CL_DEVICE_NAME) !=
              device_info_string(cpu, CL_DEVICE_NAME));
        CHECK(device_info_string(device, CL_DEVICE_VERSION) ==
              device_info_string(cpu, CL_DEVICE_VERSION));
        CHECK(device_info_string(device, CL_DRIVER_VERSION) ==
              device_info_string(cpu, CL_DRIVER_VERSION));
        CHECK(!device_info_string(device, CL_DEVICE_VENDOR).empty());
        uuids.push_back(info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(clGetDeviceInfo, device,
                                                                     CL_DEVICE_UUID_KHR));
    }
    CHECK(device_info<cl_bool>(cpu, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE);
    CHECK(uuids[0] != uuids[1]);
    CHECK(uuids[0] != uuids[2]);
    CHECK(uuids[1] != uuids[2]);
}

TEST_CASE("sub-devices of a discrete-memory device share its memory") {
    const cl_device_id device = discrete_devices()[0];
    const auto units = device_info<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
    if (units < 2) {
        WARN("one compute unit: nothing to partition");
        return;
    }
    const auto subs = create_sub_devices(device, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    REQUIRE(subs.size() == units);
    const cl_device_id a = subs[0].get();
    const cl_device_id b = subs[1].get();
    for (cl_device_id sub : {a, b}) {
        CHECK(device_info<cl_device_type>(sub, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_ACCELERATOR);
        CHECK(device_info<cl_bool>(sub, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_FALSE);
        CHECK(device_info<cl_ulong>(sub, CL_DEVICE_GLOBAL_MEM_SIZE) == device_memory);
        CHECK(device_info<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE) == device);
    }
    CHECK(info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(clGetDeviceInfo, a, CL_DEVICE_UUID_KHR) !=
          info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(clGetDeviceInfo, b, CL_DEVICE_UUID_KHR));
    const ContextPtr context = make_context({a, b});
    const QueuePtr first = make_queue(context.get(), a);
    const QueuePtr second = make_queue(context.get(), b);
    const ProgramPtr program = build_for(context.get(), {a, b}, source);
    const KernelPtr triple = make_kernel(program.get(), "triple");
    constexpr size_t count = 1024;
    auto data = iota_data(count, 1);
    const MemPtr buffer =
        buffer_test::make_buffer(context.get(), CL_MEM_COPY_HOST_PTR, count * 4, data.data());
    set_arg(triple.get(), 0, buffer.get());
    const Counters start = counters(device);
    run_1d(first.get(), triple.get(), count);
    REQUIRE_OK(clFinish(first.get()));
    run_1d(second.get(), triple.get(), count);
    std::vector<cl_uint> result(count);
    REQUIRE_OK(clEnqueueReadBuffer(second.get(), buffer.get(), CL_TRUE, 0, count * 4, result.data(),
                                   0, nullptr, nullptr));
    for (size_t i = 0; i < count; ++i)
        REQUIRE(result[i] == data[i] * 9);
    // One copy in from the host; none between the two sub-devices.
    const Counters moved = since(start, counters(device));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == count * 4);
    CHECK(moved[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == 0);
    CHECK(since(start, counters(a)) == moved);
}

TEST_CASE("the migration counters query checks its arguments") {
    const auto get = counters_function();
    cl_ulong values[CL_MIGRATION_COUNTERS_USMCL] = {};
    cl_uint count = 0;
    CHECK_CL(get(nullptr, 1, values, &count), CL_INVALID_DEVICE);
    CHECK_CL(get(cpu_device(), 1, nullptr, &count), CL_INVALID_VALUE);
    CHECK_CL(get(cpu_device(), 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_OK(get(cpu_device(), 0, nullptr, &count));
    CHECK(count == CL_DEVICE_MIGRATION_COUNTERS_USMCL);
    auto* of_mem = reinterpret_cast<clGetMemObjectMigrationCountersUSMCL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(),
                                                 "clGetMemObjectMigrationCountersUSMCL"));
    REQUIRE(of_mem != nullptr);
    CHECK_CL(of_mem(nullptr, 1, values, &count), CL_INVALID_MEM_OBJECT);
    const ContextPtr context = make_context({cpu_device()});
    const MemPtr mem = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, 64);
    CHECK_CL(of_mem(mem.get(), 1, nullptr, &count), CL_INVALID_VALUE);
    CHECK_CL(of_mem(mem.get(), 0, nullptr, nullptr), CL_INVALID_VALUE);
    count = 0;
    CHECK_OK(of_mem(mem.get(), CL_MIGRATION_COUNTERS_USMCL, values, &count));
    CHECK(count == CL_MIGRATION_COUNTERS_USMCL);
    CHECK(values[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
}

TEST_CASE("host transfers on a discrete-memory device are counted apart from migrations") {
    for (cl_device_id device : discrete_devices()) {
        const ContextPtr context = make_context({device});
        const QueuePtr queue = make_queue(context.get(), device);
        constexpr size_t count = 4096;
        auto data = iota_data(count, 3);
        const MemPtr buffer = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, count * 4);
        const Counters migrations = counters(device);
        const auto before = transfer_counters(device);
        REQUIRE_OK(clEnqueueWriteBuffer(queue.get(), buffer.get(), CL_TRUE, 0, count * 4,
                                        data.data(), 0, nullptr, nullptr));
        std::vector<cl_uint> back(count / 2);
        REQUIRE_OK(clEnqueueReadBuffer(queue.get(), buffer.get(), CL_TRUE, 400, count * 2,
                                       back.data(), 0, nullptr, nullptr));
        for (size_t i = 0; i < back.size(); ++i)
            REQUIRE(back[i] == data[100 + i]);
        // A rectangle of 3 rows of 16 bytes.
        const size_t origin[3] = {0, 0, 0}, region[3] = {16, 3, 1};
        std::vector<cl_uint> rect(12);
        REQUIRE_OK(clEnqueueReadBufferRect(queue.get(), buffer.get(), CL_TRUE, origin, origin,
                                           region, 64, 0, 16, 0, rect.data(), 0, nullptr, nullptr));
        CHECK(rect[4] == data[16]);
        const auto after = transfer_counters(device);
        CHECK(after[0] - before[0] == count * 4);      // bytes from the host
        CHECK(after[1] - before[1] == count * 2 + 48); // bytes to the host
        CHECK(after[2] - before[2] == 1);
        CHECK(after[3] - before[3] == 2);
        // Not migrations: the buffer lives on the device only.
        CHECK(since(migrations, counters(device)) == Counters{});
    }
    // The CPU device's memory is the host's: nothing crosses.
    const ContextPtr context = make_context({cpu_device()});
    const QueuePtr queue = make_queue(context.get(), cpu_device());
    const MemPtr buffer = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, 64);
    const auto before = transfer_counters(cpu_device());
    char bytes[64] = {};
    REQUIRE_OK(clEnqueueWriteBuffer(queue.get(), buffer.get(), CL_TRUE, 0, 64, bytes, 0, nullptr,
                                    nullptr));
    CHECK(transfer_counters(cpu_device()) == before);
}

TEST_CASE("kernels on a discrete-memory device match the host") {
    for (cl_device_id device : discrete_devices()) {
        const ContextPtr context = make_context({device});
        const QueuePtr queue = make_queue(context.get(), device);
        const ProgramPtr program = build_for(context.get(), {device}, source);
        const KernelPtr axpy = make_kernel(program.get(), "axpy");
        constexpr size_t count = 100000;
        const auto x = iota_data(count, 7);
        auto y = iota_data(count, 1000);
        const MemPtr xs = buffer_test::make_buffer(context.get(), CL_MEM_COPY_HOST_PTR, count * 4,
                                                   const_cast<cl_uint*>(x.data()));
        const MemPtr ys =
            buffer_test::make_buffer(context.get(), CL_MEM_COPY_HOST_PTR, count * 4, y.data());
        const cl_uint a = 0x9e3779b9u;
        set_arg(axpy.get(), 0, a);
        set_arg(axpy.get(), 1, xs.get());
        set_arg(axpy.get(), 2, ys.get());
        run_1d(queue.get(), axpy.get(), count);
        run_1d(queue.get(), axpy.get(), count);
        std::vector<cl_uint> result(count);
        REQUIRE_OK(clEnqueueReadBuffer(queue.get(), ys.get(), CL_TRUE, 0, count * 4, result.data(),
                                       0, nullptr, nullptr));
        for (size_t i = 0; i < count; ++i)
            y[i] = a * x[i] + (a * x[i] + y[i]);
        CHECK(result == y);
    }
}

TEST_CASE("a full device memory fails allocations and loses nothing") {
    const cl_device_id device = discrete_devices()[1];
    const ContextPtr context = make_context({device});
    const QueuePtr queue = make_queue(context.get(), device);
    constexpr size_t quarter = device_memory / 4;
    // Four buffers fill the memory. The buffers of the test cases before
    // this one are freed by the workers that finished their last commands,
    // which may come a moment after those commands are seen complete: until
    // then, try again.
    std::vector<MemPtr> buffers;
    for (int attempt = 0; buffers.size() < 4; ++attempt) {
        buffers.push_back(buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, quarter));
        const cl_uint pattern = 0x01010101u * static_cast<cl_uint>(buffers.size());
        const cl_int filled = clEnqueueFillBuffer(queue.get(), buffers.back().get(), &pattern, 4, 0,
                                                  quarter, 0, nullptr, nullptr);
        if (filled == CL_MEM_OBJECT_ALLOCATION_FAILURE && attempt < 100) {
            buffers.pop_back();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            continue;
        }
        REQUIRE_OK(filled);
    }
    REQUIRE_OK(clFinish(queue.get()));

    // The memory is full: a fifth instance has no room, whatever uses it.
    const MemPtr extra = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, quarter);
    const cl_uint pattern = 0x77777777u;
    CHECK_CL(
        clEnqueueFillBuffer(queue.get(), extra.get(), &pattern, 4, 0, quarter, 0, nullptr, nullptr),
        CL_MEM_OBJECT_ALLOCATION_FAILURE);
    const ProgramPtr program = build_for(context.get(), {device}, source);
    const KernelPtr plus_one = make_kernel(program.get(), "plus_one");
    set_arg(plus_one.get(), 0, buffers[0].get());
    set_arg(plus_one.get(), 1, extra.get());
    CHECK_CL(clEnqueueNDRangeKernel(queue.get(), plus_one.get(), 1, nullptr, &quarter, nullptr, 0,
                                    nullptr, nullptr),
             CL_MEM_OBJECT_ALLOCATION_FAILURE);
    // USM device allocations come from the same memory.
    auto* device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clDeviceMemAllocINTEL"));
    auto* mem_free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clMemBlockingFreeINTEL"));
    REQUIRE(device_alloc != nullptr);
    REQUIRE(mem_free != nullptr);
    cl_int error = CL_SUCCESS;
    CHECK(device_alloc(context.get(), device, nullptr, mib, 0, &error) == nullptr);
    CHECK_CL(error, CL_OUT_OF_RESOURCES);

    // Every buffer still holds what it was filled with.
    for (cl_uint i = 0; i < 4; ++i) {
        std::vector<cl_uint> data(quarter / 4);
        REQUIRE_OK(clEnqueueReadBuffer(queue.get(), buffers[i].get(), CL_TRUE, 0, quarter,
                                       data.data(), 0, nullptr, nullptr));
        const cl_uint expected = 0x01010101u * (i + 1);
        CHECK(std::count(data.begin(), data.end(), expected) == static_cast<long>(data.size()));
    }

    // Freeing one makes room again.
    buffers[0].reset();
    REQUIRE_OK(clFinish(queue.get()));
    REQUIRE_OK(clEnqueueFillBuffer(queue.get(), extra.get(), &pattern, 4, 0, quarter, 0, nullptr,
                                   nullptr));
    REQUIRE_OK(clFinish(queue.get()));
    CHECK(device_alloc(context.get(), device, nullptr, mib, 0, &error) == nullptr);
    buffers[1].reset();
    REQUIRE_OK(clFinish(queue.get()));
    void* pointer = device_alloc(context.get(), device, nullptr, mib, 0, &error);
    CHECK_OK(error);
    REQUIRE(pointer != nullptr);
    CHECK_OK(mem_free(context.get(), pointer));
}

TEST_CASE("a pipeline on a discrete-memory device moves the minimum, counted exactly") {
    const cl_device_id cpu = cpu_device();
    const cl_device_id gpu = discrete_devices()[0];
    const ContextPtr context = make_context({cpu, gpu});
    const QueuePtr host_queue = make_queue(context.get(), cpu);
    const QueuePtr device_queue = make_queue(context.get(), gpu);
    const ProgramPtr program = build_for(context.get(), {cpu, gpu}, source);
    const KernelPtr plus_one = make_kernel(program.get(), "plus_one");
    const KernelPtr triple = make_kernel(program.get(), "triple");

    constexpr size_t bytes = 4 * mib;
    constexpr size_t count = bytes / 4;
    const MemPtr a = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, bytes);
    const MemPtr b = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, bytes);
    const MemPtr upper = sub_buffer(a.get(), bytes / 2, bytes / 2);
    set_arg(plus_one.get(), 0, a.get());
    set_arg(plus_one.get(), 1, b.get());
    set_arg(triple.get(), 0, upper.get());

    const Counters device_start = counters(gpu);
    const Counters host_start = counters(cpu);
    // The host writes A; a kernel on the device reads it (A moves over
    // once) and writes B (no copy: B has no content yet); another writes the
    // upper half of A there.
    std::vector<cl_uint> data = iota_data(count, 1);
    REQUIRE_OK(clEnqueueWriteBuffer(host_queue.get(), a.get(), CL_TRUE, 0, bytes, data.data(), 0,
                                    nullptr, nullptr));
    run_1d(device_queue.get(), plus_one.get(), count);
    run_1d(device_queue.get(), triple.get(), count / 2);
    REQUIRE_OK(clFinish(device_queue.get()));
    Counters moved = since(device_start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == bytes);
    CHECK(moved[CL_MIGRATIONS_FROM_HOST_USMCL] == 1);
    CHECK(moved[CL_MIGRATED_BYTES_TO_HOST_USMCL] == 0);

    // The host reads A (only the upper half is stale there) and B (all of it).
    std::vector<cl_uint> read_a(count);
    std::vector<cl_uint> read_b(count);
    REQUIRE_OK(clEnqueueReadBuffer(host_queue.get(), a.get(), CL_TRUE, 0, bytes, read_a.data(), 0,
                                   nullptr, nullptr));
    REQUIRE_OK(clEnqueueReadBuffer(host_queue.get(), b.get(), CL_TRUE, 0, bytes, read_b.data(), 0,
                                   nullptr, nullptr));
    for (size_t i = 0; i < count; ++i) {
        REQUIRE(read_b[i] == data[i] + 1);
        REQUIRE(read_a[i] == (i < count / 2 ? data[i] : data[i] * 3));
    }
    moved = since(device_start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == bytes);
    CHECK(moved[CL_MIGRATED_BYTES_TO_HOST_USMCL] == bytes / 2 + bytes);
    CHECK(moved[CL_MIGRATIONS_TO_HOST_USMCL] == 2);
    CHECK(moved[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == 0);
    CHECK(moved[CL_MIGRATED_BYTES_TO_DEVICES_USMCL] == 0);
    // The host domain sees the same copies from its side.
    const Counters host_moved = since(host_start, counters(cpu));
    CHECK(host_moved[CL_MIGRATED_BYTES_TO_DEVICES_USMCL] == bytes);
    CHECK(host_moved[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == bytes / 2 + bytes);
    CHECK(host_moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
    // Per buffer: A went over whole and came back half; B only came back.
    const Counters of_a = mem_counters(a.get());
    CHECK(of_a[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == bytes);
    CHECK(of_a[CL_MIGRATED_BYTES_TO_HOST_USMCL] == bytes / 2);
    CHECK(of_a[CL_MIGRATIONS_TO_HOST_USMCL] == 1);
    CHECK(mem_counters(upper.get()) == of_a); // a sub-buffer answers for its parent
    const Counters of_b = mem_counters(b.get());
    CHECK(of_b[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
    CHECK(of_b[CL_MIGRATED_BYTES_TO_HOST_USMCL] == bytes);
    CHECK(of_b[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == 0);

    // Everything is up to date in both places: nothing moves.
    Counters start = counters(gpu);
    run_1d(device_queue.get(), plus_one.get(), count);
    REQUIRE_OK(clEnqueueReadBuffer(host_queue.get(), a.get(), CL_TRUE, 0, bytes, read_a.data(), 0,
                                   nullptr, nullptr));
    REQUIRE_OK(clFinish(device_queue.get()));
    moved = since(start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
    CHECK(moved[CL_MIGRATED_BYTES_TO_HOST_USMCL] == 0);

    // The host rewrites a quarter of A: only that quarter goes over again.
    start = counters(gpu);
    REQUIRE_OK(clEnqueueWriteBuffer(host_queue.get(), a.get(), CL_TRUE, 0, bytes / 4, data.data(),
                                    0, nullptr, nullptr));
    run_1d(device_queue.get(), plus_one.get(), count);
    REQUIRE_OK(clFinish(device_queue.get()));
    moved = since(start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == bytes / 4);
    CHECK(moved[CL_MIGRATIONS_FROM_HOST_USMCL] == 1);

    // A map for reading on the host brings back only what a kernel wrote
    // since: the upper half of A.
    start = counters(gpu);
    run_1d(device_queue.get(), triple.get(), count / 2);
    cl_int error = CL_SUCCESS;
    auto* mapped = static_cast<cl_uint*>(clEnqueueMapBuffer(
        device_queue.get(), a.get(), CL_TRUE, CL_MAP_READ, 0, bytes, 0, nullptr, nullptr, &error));
    REQUIRE_OK(error);
    CHECK(mapped[count - 1] == data[count - 1] * 9);
    CHECK(mapped[0] == data[0]);
    REQUIRE_OK(clEnqueueUnmapMemObject(device_queue.get(), a.get(), mapped, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(device_queue.get()));
    moved = since(start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_TO_HOST_USMCL] == bytes / 2);
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);

    // Content declared undefined is not moved: B's next use on the device
    // copies nothing, though the host held it last.
    start = counters(gpu);
    REQUIRE_OK(clEnqueueWriteBuffer(host_queue.get(), b.get(), CL_TRUE, 0, bytes, data.data(), 0,
                                    nullptr, nullptr));
    cl_mem b_handle = b.get();
    REQUIRE_OK(clEnqueueMigrateMemObjects(device_queue.get(), 1, &b_handle,
                                          CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                                          nullptr));
    run_1d(device_queue.get(), plus_one.get(), count);
    REQUIRE_OK(clFinish(device_queue.get()));
    moved = since(start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
    // An explicit migration to the host moves B back, once.
    REQUIRE_OK(clEnqueueMigrateMemObjects(device_queue.get(), 1, &b_handle,
                                          CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr));
    REQUIRE_OK(clEnqueueMigrateMemObjects(device_queue.get(), 1, &b_handle,
                                          CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(device_queue.get()));
    moved = since(start, counters(gpu));
    CHECK(moved[CL_MIGRATED_BYTES_TO_HOST_USMCL] == bytes);
    CHECK(moved[CL_MIGRATIONS_TO_HOST_USMCL] == 1);
}

TEST_CASE("a buffer moves between two discrete-memory devices") {
    const auto discrete = discrete_devices();
    const ContextPtr context = make_context(discrete);
    const QueuePtr first = make_queue(context.get(), discrete[0]);
    const QueuePtr second = make_queue(context.get(), discrete[1]);
    const ProgramPtr program = build_for(context.get(), discrete, source);
    const KernelPtr triple = make_kernel(program.get(), "triple");
    constexpr size_t count = 65536;
    auto data = iota_data(count, 5);
    const MemPtr buffer =
        buffer_test::make_buffer(context.get(), CL_MEM_COPY_HOST_PTR, count * 4, data.data());
    set_arg(triple.get(), 0, buffer.get());
    const Counters first_start = counters(discrete[0]);
    const Counters second_start = counters(discrete[1]);
    cl_event done_first = nullptr;
    run_1d(first.get(), triple.get(), count, &done_first);
    const EventPtr first_event(done_first);
    // Ordered by the event only: the copy between the devices waits for it.
    run_1d(second.get(), triple.get(), count, nullptr, {done_first});
    std::vector<cl_uint> result(count);
    REQUIRE_OK(clEnqueueReadBuffer(second.get(), buffer.get(), CL_TRUE, 0, count * 4, result.data(),
                                   0, nullptr, nullptr));
    for (size_t i = 0; i < count; ++i)
        REQUIRE(result[i] == data[i] * 9);
    const Counters one = since(first_start, counters(discrete[0]));
    const Counters two = since(second_start, counters(discrete[1]));
    CHECK(one[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == count * 4);
    CHECK(one[CL_MIGRATED_BYTES_TO_DEVICES_USMCL] == count * 4);
    CHECK(two[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == count * 4);
    CHECK(two[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
    CHECK(two[CL_MIGRATIONS_FROM_DEVICES_USMCL] == 1);
    const Counters of_buffer = mem_counters(buffer.get());
    CHECK(of_buffer[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == count * 4);
    CHECK(of_buffer[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == count * 4);
    CHECK(of_buffer[CL_MIGRATIONS_FROM_DEVICES_USMCL] == 1);
    CHECK(of_buffer[CL_MIGRATED_BYTES_TO_HOST_USMCL] == 0);
}

TEST_CASE("USM device allocations of a discrete-memory device hold kernel data") {
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({device});
    const QueuePtr queue = make_queue(context.get(), device);
    auto* device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clDeviceMemAllocINTEL"));
    auto* shared_alloc = reinterpret_cast<clSharedMemAllocINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clSharedMemAllocINTEL"));
    auto* memcpy_fn = reinterpret_cast<clEnqueueMemcpyINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clEnqueueMemcpyINTEL"));
    auto* set_pointer = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clSetKernelArgMemPointerINTEL"));
    auto* alloc_info = reinterpret_cast<clGetMemAllocInfoINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clGetMemAllocInfoINTEL"));
    auto* mem_free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clMemBlockingFreeINTEL"));
    REQUIRE(device_alloc);
    REQUIRE(shared_alloc);
    REQUIRE(memcpy_fn);
    REQUIRE(set_pointer);
    REQUIRE(alloc_info);
    REQUIRE(mem_free);

    constexpr size_t count = 10000;
    cl_int error = CL_OUT_OF_RESOURCES;
    void* on_device = device_alloc(context.get(), device, nullptr, count * 4, 0, &error);
    REQUIRE_OK(error);
    void* shared = shared_alloc(context.get(), device, nullptr, count * 4, 0, &error);
    REQUIRE_OK(error);
    cl_unified_shared_memory_type_intel type = 0;
    REQUIRE_OK(
        alloc_info(context.get(), on_device, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, nullptr));
    CHECK(type == CL_MEM_TYPE_DEVICE_INTEL);
    cl_device_id owner = nullptr;
    REQUIRE_OK(alloc_info(context.get(), on_device, CL_MEM_ALLOC_DEVICE_INTEL, sizeof owner, &owner,
                          nullptr));
    CHECK(owner == device);

    auto* values = static_cast<cl_uint*>(shared);
    for (size_t i = 0; i < count; ++i)
        values[i] = static_cast<cl_uint>(i * 7);
    REQUIRE_OK(memcpy_fn(queue.get(), CL_TRUE, on_device, shared, count * 4, 0, nullptr, nullptr));
    const ProgramPtr program = build_for(context.get(), {device}, source);
    const KernelPtr triple = make_kernel(program.get(), "triple");
    REQUIRE_OK(set_pointer(triple.get(), 0, on_device));
    run_1d(queue.get(), triple.get(), count);
    REQUIRE_OK(memcpy_fn(queue.get(), CL_TRUE, shared, on_device, count * 4, 0, nullptr, nullptr));
    for (size_t i = 0; i < count; ++i)
        REQUIRE(values[i] == static_cast<cl_uint>(i * 21));
    CHECK_OK(mem_free(context.get(), on_device));
    CHECK_OK(mem_free(context.get(), shared));
}

TEST_CASE("a CL_MEM_USE_HOST_PTR buffer's memory gets a device's writes on a map") {
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({device});
    const QueuePtr queue = make_queue(context.get(), device);
    const ProgramPtr program = build_for(context.get(), {device}, source);
    const KernelPtr triple = make_kernel(program.get(), "triple");
    constexpr size_t count = 4096;
    std::vector<cl_uint> host = iota_data(count, 1);
    const Counters start = counters(device);
    const MemPtr buffer =
        buffer_test::make_buffer(context.get(), CL_MEM_USE_HOST_PTR, count * 4, host.data());
    const MemPtr upper = sub_buffer(buffer.get(), count * 2, count * 2);
    set_arg(triple.get(), 0, upper.get());
    run_1d(queue.get(), triple.get(), count / 2);
    REQUIRE_OK(clFinish(queue.get()));
    // Not mapped yet: the device's instance alone holds the result.
    CHECK(host[count - 1] == count);
    cl_int error = CL_SUCCESS;
    void* mapped = clEnqueueMapBuffer(queue.get(), buffer.get(), CL_TRUE, CL_MAP_READ, 0, count * 4,
                                      0, nullptr, nullptr, &error);
    REQUIRE_OK(error);
    CHECK(mapped == host.data());
    for (size_t i = 0; i < count; ++i)
        REQUIRE(host[i] == (i < count / 2 ? i + 1 : 3 * (i + 1)));
    REQUIRE_OK(clEnqueueUnmapMemObject(queue.get(), buffer.get(), mapped, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(queue.get()));
    const Counters moved = since(start, counters(device));
    CHECK(moved[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == count * 2);
    CHECK(moved[CL_MIGRATED_BYTES_TO_HOST_USMCL] == count * 2);
}

// OpenCL 3.0, clCreateBuffer: with CL_MEM_USE_HOST_PTR and a pointer from
// clSVMAlloc, "the new buffer object has the shared memory as the underlying
// storage". On a discrete-memory device too: a kernel there sees the buffer
// at the SVM address, so pointers it stores into it (a linked list, as the
// CTS's svm_shared_address_space_coarse_grain_old_api builds) stay valid for
// the host and every device; a copy in the device's memory would give the
// kernel another address (that test then crashed following them).
TEST_CASE("a buffer over an SVM allocation is that memory on a discrete-memory device") {
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({device});
    const QueuePtr queue = make_queue(context.get(), device);
    const ProgramPtr program = build_for(context.get(), {device}, R"(
struct node { global struct node* next; uint value; };
kernel void link(global struct node* nodes, uint count) {
    size_t i = get_global_id(0);
    nodes[i].next = i + 1 < count ? &nodes[i + 1] : 0;
    nodes[i].value = (uint)i * 5;
}
kernel void walk(global struct node* nodes, global uint* sum) {
    uint total = 0;
    for (global struct node* n = nodes; n; n = n->next)
        total += n->value;
    *sum = total;
}
)");
    struct Node {
        Node* next;
        cl_uint value;
    };
    constexpr cl_uint count = 1000;
    void* svm = clSVMAlloc(context.get(), CL_MEM_READ_WRITE, count * sizeof(Node), 0);
    REQUIRE(svm);
    const MemPtr nodes =
        buffer_test::make_buffer(context.get(), CL_MEM_USE_HOST_PTR, count * sizeof(Node), svm);
    const MemPtr sum = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, 4, nullptr);
    const KernelPtr link = make_kernel(program.get(), "link");
    set_arg(link.get(), 0, nodes.get());
    REQUIRE_OK(clSetKernelArg(link.get(), 1, sizeof(count), &count));
    run_1d(queue.get(), link.get(), count);
    const KernelPtr walk = make_kernel(program.get(), "walk");
    set_arg(walk.get(), 0, nodes.get());
    set_arg(walk.get(), 1, sum.get());
    run_1d(queue.get(), walk.get(), 1);
    cl_uint total = 0;
    REQUIRE_OK(
        clEnqueueReadBuffer(queue.get(), sum.get(), CL_TRUE, 0, 4, &total, 0, nullptr, nullptr));
    CHECK(total == 5 * count * (count - 1) / 2);
    // The pointers the device stored are the SVM allocation's own.
    REQUIRE_OK(clEnqueueSVMMap(queue.get(), CL_TRUE, CL_MAP_READ, svm, count * sizeof(Node), 0,
                               nullptr, nullptr));
    const auto* host = static_cast<const Node*>(svm);
    size_t walked = 0;
    for (const Node* n = host; n && walked <= count; n = n->next)
        ++walked;
    CHECK(walked == count);
    CHECK(host[0].next == &host[1]);
    REQUIRE_OK(clEnqueueSVMUnmap(queue.get(), svm, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(queue.get()));
    clSVMFree(context.get(), svm);
}

// Run with USMCL_DISCRETE_BANDWIDTH=256MiB and USMCL_DISCRETE_LATENCY=2000:
// a copy of 16 MiB to the device takes at least 62.5 ms + 2 ms.
TEST_CASE("the cost model makes copies take their modeled time", "[.][cost]") {
    const cl_device_id cpu = cpu_device();
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({cpu, device});
    const QueuePtr queue = make_queue(context.get(), device);
    constexpr size_t bytes = 16 * mib;
    std::vector<cl_uint> data = iota_data(bytes / 4, 0);
    const MemPtr buffer =
        buffer_test::make_buffer(context.get(), CL_MEM_COPY_HOST_PTR, bytes, data.data());
    cl_mem handle = buffer.get();
    const Counters start = counters(device);
    const auto begin = std::chrono::steady_clock::now();
    REQUIRE_OK(clEnqueueMigrateMemObjects(queue.get(), 1, &handle, 0, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(queue.get()));
    const auto took = std::chrono::steady_clock::now() - begin;
    CHECK(since(start, counters(device))[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == bytes);
    CHECK(took >= std::chrono::microseconds(62500 + 2000));
    // Copies between host-memory devices are not modeled: none here.
    const Counters again = counters(device);
    REQUIRE_OK(clEnqueueMigrateMemObjects(queue.get(), 1, &handle, 0, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(queue.get()));
    CHECK(since(again, counters(device))[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 0);
}
