// USM on a machine whose NUMA nodes are memory domains of their own. Run with
// HWLOC_SYNTHETIC="numa:2 core:1 pu:1" and USMCL_NUMA_DOMAINS=1: the device
// splits by NUMA affinity into two sub-devices, each with its own domain and
// device pool. Device and shared allocations of each sub-device are used by
// kernels on both sub-devices (a CPU device reaches every allocation),
// migrated to either device, and their queries name the right sub-device.
#include "usm_test.hpp"

#include <numeric>

using namespace cl_test;
using namespace usm_test;

namespace {

const char* const source = R"(
kernel void add_into(global const int* a, global const int* b, global int* sum) {
    size_t i = get_global_id(0);
    sum[i] = a[i] + b[i];
}
)";

cl_device_id alloc_device(const Usm& usm, cl_context context, const void* ptr) {
    cl_device_id device = nullptr;
    REQUIRE_OK(
        usm.alloc_info(context, ptr, CL_MEM_ALLOC_DEVICE_INTEL, sizeof device, &device, nullptr));
    return device;
}

} // namespace

TEST_CASE("USM allocations of two NUMA-domain sub-devices are used across them", "[domains]") {
    const cl_device_id root = cl_test::device();
    const auto subs = create_sub_devices(
        root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0});
    REQUIRE(subs.size() == 2);
    const std::vector<cl_device_id> devices{subs[0].get(), subs[1].get()};
    ContextPtr context = make_context(devices);
    const Usm usm = load_usm(cl_test::platform());
    QueuePtr queues[2] = {make_queue(context.get(), devices[0]),
                          make_queue(context.get(), devices[1])};
    ProgramPtr program = create_program(context.get(), source);
    REQUIRE_OK(clBuildProgram(program.get(), 2, devices.data(), nullptr, nullptr, nullptr));
    KernelPtr kernel = make_kernel(program.get(), "add_into");

    constexpr size_t count = 1 << 16;
    constexpr size_t bytes = count * sizeof(cl_int);
    cl_int error = CL_OUT_OF_RESOURCES;
    // a: device memory of sub-device 0; b: shared memory of sub-device 1;
    // sums: device memory of sub-device 1.
    auto* a = static_cast<cl_int*>(
        usm.device_alloc(context.get(), devices[0], nullptr, bytes, 0, &error));
    REQUIRE_OK(error);
    auto* b = static_cast<cl_int*>(
        usm.shared_alloc(context.get(), devices[1], nullptr, bytes, 0, &error));
    REQUIRE_OK(error);
    auto* sums = static_cast<cl_int*>(
        usm.device_alloc(context.get(), devices[1], nullptr, bytes, 0, &error));
    REQUIRE_OK(error);
    CHECK(alloc_device(usm, context.get(), a + 5) == devices[0]);
    CHECK(alloc_device(usm, context.get(), b + 5) == devices[1]);
    CHECK(alloc_device(usm, context.get(), sums + count - 1) == devices[1]);

    std::vector<cl_int> host_a(count);
    std::iota(host_a.begin(), host_a.end(), 0);
    for (size_t i = 0; i < count; ++i)
        b[i] = static_cast<cl_int>(3 * i + 1);
    REQUIRE_OK(usm.memcpy(queues[0].get(), CL_TRUE, a, host_a.data(), bytes, 0, nullptr, nullptr));

    for (int on = 0; on < 2; ++on) {
        INFO("kernel on sub-device " << on);
        cl_command_queue queue = queues[on].get();
        // Moving b to the queue's device (and to the host) keeps its content.
        REQUIRE_OK(usm.migrate(queue, b, bytes, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr));
        REQUIRE_OK(usm.migrate(queue, b, bytes, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                               nullptr));
        const cl_int zero = 0;
        REQUIRE_OK(usm.fill(queue, sums, &zero, sizeof zero, bytes, 0, nullptr, nullptr));
        REQUIRE_OK(usm.set_arg_pointer(kernel.get(), 0, a));
        REQUIRE_OK(usm.set_arg_pointer(kernel.get(), 1, b));
        REQUIRE_OK(usm.set_arg_pointer(kernel.get(), 2, sums));
        const size_t global = count;
        REQUIRE_OK(clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &global, nullptr, 0,
                                          nullptr, nullptr));
        std::vector<cl_int> result(count, -1);
        REQUIRE_OK(usm.memcpy(queue, CL_TRUE, result.data(), sums, bytes, 0, nullptr, nullptr));
        size_t wrong = 0;
        for (size_t i = 0; i < count; ++i)
            wrong += result[i] != static_cast<cl_int>(i + 3 * i + 1);
        CHECK(wrong == 0);
    }
    REQUIRE_OK(usm.blocking_free(context.get(), a));
    REQUIRE_OK(usm.blocking_free(context.get(), b));
    REQUIRE_OK(usm.blocking_free(context.get(), sums));
}
