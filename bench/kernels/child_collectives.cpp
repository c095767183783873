// kernel_bench part 2d: sub-group and work-group collectives, the builtins
// SYCL's reductions and scans come down to. A sub-group reduction
// (sub_group_reduce_add, one partial sum per sub-group) and a sub-group scan
// (sub_group_scan_inclusive_add) of 16M floats, needing the OpenCL C 3.0
// feature __opencl_c_subgroups; a work-group reduction (work_group_reduce_add,
// one partial sum per group) of 16M ints and a work-group scan
// (work_group_scan_inclusive_add) of 16M ints and of 16M floats, needing
// __opencl_c_work_group_collective_functions. Work-groups of 256 work-items
// (fewer if the kernel allows fewer), the sub-group size the driver chooses
// for them (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, reported for the
// reduction kernel). Results are checked against a host reference. A driver without the feature
// reports the rows as unsupported ("n/a" in the table).
#include "kernel_bench.hpp"

#include <cstring>

namespace kernel_bench {

namespace {

constexpr const char* subgroup_source = R"CLC(
#ifndef __opencl_c_subgroups
#error "the device reported __opencl_c_subgroups but the compiler does not define it"
#endif
__kernel void sg_reduce(__global const float* in, __global float* partial) {
    float sum = sub_group_reduce_add(in[get_global_id(0)]);
    if (get_sub_group_local_id() == 0)
        partial[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = sum;
}

__kernel void sg_scan(__global const float* in, __global float* out) {
    size_t i = get_global_id(0);
    out[i] = sub_group_scan_inclusive_add(in[i]);
}
)CLC";

constexpr const char* work_group_source = R"CLC(
#ifndef __opencl_c_work_group_collective_functions
#error "the device reported __opencl_c_work_group_collective_functions but the compiler does not define it"
#endif
__kernel void wg_reduce_int(__global const int* in, __global int* partial) {
    int sum = work_group_reduce_add(in[get_global_id(0)]);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}

__kernel void wg_scan_int(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = work_group_scan_inclusive_add(in[i]);
}

__kernel void wg_scan_float(__global const float* in, __global float* out) {
    size_t i = get_global_id(0);
    out[i] = work_group_scan_inclusive_add(in[i]);
}
)CLC";

constexpr size_t elements = size_t{16} << 20;
constexpr size_t wanted_group = 256;

// Whether the device's OpenCL C has the optional feature (a device before
// OpenCL 3.0 has no such query: no).
bool has_feature(const Device& device, const char* feature) {
    size_t size = 0;
    if (clGetDeviceInfo(device.device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size) !=
            CL_SUCCESS ||
        size == 0)
        return false;
    std::vector<cl_name_version> features(size / sizeof(cl_name_version));
    CL_CHECK(clGetDeviceInfo(device.device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(),
                             nullptr));
    for (const cl_name_version& entry : features)
        if (std::strcmp(entry.name, feature) == 0)
            return true;
    return false;
}

// 256, or the largest power of two the kernel allows below it.
size_t group_size_of(const Device& device, cl_kernel kernel) {
    size_t most = 0;
    CL_CHECK(clGetKernelWorkGroupInfo(kernel, device.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most,
                                      &most, nullptr));
    size_t group = wanted_group;
    while (group > most && group > 1)
        group /= 2;
    return group;
}

// The kernel's sub-group size for work-groups of `group` work-items; 0 (and
// a wrong result reported) if the driver answers 0 or more than `group`.
size_t sub_group_size_of(const Device& device, cl_kernel kernel, size_t group) {
    size_t size = 0;
    CL_CHECK(clGetKernelSubGroupInfo(kernel, device.device,
                                     CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof group, &group,
                                     sizeof size, &size, nullptr));
    if (size != 0 && size <= group)
        return size;
    std::fprintf(stderr, "kernel_bench: sub-group size %zu for work-groups of %zu\n", size, group);
    report_wrong("CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE");
    return 0;
}

// One collective over 16M elements in work-groups of `group` work-items,
// split into blocks of `block` consecutive work-items (the sub-group or the
// work-group) whose results a host reference gives: for a reduction one
// value per block (the output has one element per block), for a scan the
// inclusive prefix sums within each block (one element per input).
struct Collective {
    const char* kernel;
    const char* what; // for errors
    const char* key;
    bool scan;
    bool sub_group;                 // block = the sub-group size (else the work-group)
    const char* size_key = nullptr; // reports the sub-group size
};

template <typename T>
void run(const Device& device, cl_program program, const Collective& collective,
         const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, collective.kernel);
    const size_t n = elements;
    const size_t group = group_size_of(device, kernel);
    const size_t block = collective.sub_group ? sub_group_size_of(device, kernel, group) : group;
    if (block == 0) {
        clReleaseKernel(kernel);
        return;
    }
    if (collective.size_key)
        report(collective.size_key, static_cast<double>(block));
    const size_t blocks_per_group = (group + block - 1) / block;
    const size_t outputs = collective.scan ? n : n / group * blocks_per_group;
    // Small integers: every partial sum is exact in float too, whatever the
    // order of the additions.
    std::vector<T> in(n), expected(outputs), got(outputs);
    for (size_t i = 0; i < n; ++i)
        in[i] = static_cast<T>(i * 7 % 13);
    for (size_t first = 0, out = 0; first < n; first += group)
        for (size_t start = first; start < first + group; start += block) {
            T sum = 0;
            for (size_t i = start; i < std::min(start + block, first + group); ++i) {
                sum += in[i];
                if (collective.scan)
                    expected[i] = sum;
            }
            if (!collective.scan)
                expected[out++] = sum;
        }
    cl_mem input = device.buffer(n * sizeof(T), in.data());
    cl_mem output = device.buffer(outputs * sizeof(T));
    const T poison = static_cast<T>(-12345);
    CL_CHECK(clEnqueueFillBuffer(device.queue, output, &poison, sizeof poison, 0,
                                 outputs * sizeof(T), 0, nullptr, nullptr));
    set_args(kernel, input, output);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {group, 1}, true};
    launch.run_once();
    device.read(output, outputs * sizeof(T), got.data());
    expect_equal(collective.what, got, expected);
    // Bytes read, and written by a scan (a reduction's partial sums are
    // 1/block of the input: not counted).
    const double bytes = (collective.scan ? 2.0 : 1.0) * sizeof(T) * static_cast<double>(n);
    report(collective.key, bytes / seconds_per_launch(launch, sizes) / 1e9);
    clReleaseMemObject(input);
    clReleaseMemObject(output);
    clReleaseKernel(kernel);
}

void unsupported(const char* key) {
    std::printf("unsupported %s\n", key);
    std::fflush(stdout);
}

} // namespace

void measure_collectives(const Device& device, const Sizes& sizes) {
    const Collective sg_reduce{"sg_reduce", "sub-group reduction", "sg_reduce_gbs", false, true,
                               "sg_size"};
    const Collective sg_scan{"sg_scan", "sub-group scan", "sg_scan_gbs", true, true};
    if (has_feature(device, "__opencl_c_subgroups")) {
        cl_program program = device.build(subgroup_source, "-cl-std=CL3.0");
        run<cl_float>(device, program, sg_reduce, sizes);
        run<cl_float>(device, program, sg_scan, sizes);
        clReleaseProgram(program);
    } else {
        for (const char* key : {"sg_size", sg_reduce.key, sg_scan.key})
            unsupported(key);
    }
    const Collective wg_reduce{"wg_reduce_int", "work-group reduction (int)", "wg_reduce_int_gbs",
                               false, false};
    const Collective wg_scan_int{"wg_scan_int", "work-group scan (int)", "wg_scan_int_gbs", true,
                                 false};
    const Collective wg_scan_float{"wg_scan_float", "work-group scan (float)", "wg_scan_float_gbs",
                                   true, false};
    if (has_feature(device, "__opencl_c_work_group_collective_functions")) {
        cl_program program = device.build(work_group_source, "-cl-std=CL3.0");
        run<cl_int>(device, program, wg_reduce, sizes);
        run<cl_int>(device, program, wg_scan_int, sizes);
        run<cl_float>(device, program, wg_scan_float, sizes);
        clReleaseProgram(program);
    } else {
        for (const char* key : {wg_reduce.key, wg_scan_int.key, wg_scan_float.key})
            unsupported(key);
    }
}

} // namespace kernel_bench
