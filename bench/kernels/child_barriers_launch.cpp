// kernel_bench parts 2c and 3: a barrier-heavy reduction, a million tiny
// work-items (launch and per-work-item overhead), and the round trip of an
// empty kernel.
#include "kernel_bench.hpp"

#include <cmath>
#include <cstdint>

namespace kernel_bench {

namespace {

constexpr const char* source = R"CLC(
#define GROUP 256
__kernel void reduce_sum(__global const int* in, __global int* partial) {
    __local int scratch[GROUP];
    size_t lid = get_local_id(0);
    size_t base = get_group_id(0) * (2 * GROUP);
    scratch[lid] = in[base + lid] + in[base + lid + GROUP];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = GROUP / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel void tiny(__global int* out) {
    size_t i = get_global_id(0);
    out[i] = (int)i * 3 + 1;
}

__kernel void empty(void) {}
)CLC";

constexpr size_t reduce_elements = size_t{64} << 20;
constexpr size_t reduce_group = 256;
constexpr size_t tiny_items = size_t{1} << 20;

void reduction(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "reduce_sum");
    const size_t n = reduce_elements;
    const size_t groups = n / (2 * reduce_group);
    std::vector<cl_int> in(n);
    std::int64_t expected = 0;
    for (size_t i = 0; i < n; ++i) {
        in[i] = static_cast<cl_int>(i * 7 % 13);
        expected += in[i];
    }
    cl_mem input = device.buffer(n * sizeof(cl_int), in.data());
    cl_mem partial = device.buffer(groups * sizeof(cl_int));
    set_args(kernel, input, partial);
    const Launch launch{device.queue,      kernel, 1, {groups * reduce_group, 1},
                        {reduce_group, 1}, true};
    launch.run_once();
    std::vector<cl_int> partials(groups);
    device.read(partial, groups * sizeof(cl_int), partials.data());
    std::int64_t sum = 0;
    for (cl_int value : partials)
        sum += value;
    expect_equal("reduction", std::vector<std::int64_t>{sum}, std::vector<std::int64_t>{expected});
    report("reduce_gbs", 4.0 * n / seconds_per_launch(launch, sizes) / 1e9);
    clReleaseMemObject(input);
    clReleaseMemObject(partial);
    clReleaseKernel(kernel);
}

void tiny(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "tiny");
    const size_t n = tiny_items;
    std::vector<cl_int> expected(n), got(n);
    for (size_t i = 0; i < n; ++i)
        expected[i] = static_cast<cl_int>(i) * 3 + 1;
    cl_mem out = device.buffer(n * sizeof(cl_int));
    set_args(kernel, out);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
    launch.run_once();
    device.read(out, n * sizeof(cl_int), got.data());
    expect_equal("tiny work-items", got, expected);
    report("tiny_ns", seconds_per_launch(launch, sizes) / static_cast<double>(n) * 1e9);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
}

// Nearest-rank percentile.
double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * values.size()));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

void round_trip(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "empty");
    const Launch launch{device.queue, kernel, 1, {1, 1}, {1, 1}, true};
    for (int i = 0; i < std::min(200, sizes.round_trips); ++i)
        launch.run_once();
    std::vector<double> samples;
    samples.reserve(static_cast<size_t>(sizes.round_trips));
    for (int i = 0; i < sizes.round_trips; ++i) {
        const auto start = Clock::now();
        launch.run_once();
        samples.push_back(seconds_since(start));
    }
    report("empty_median_us", percentile(samples, 50) * 1e6);
    report("empty_p90_us", percentile(samples, 90) * 1e6);
    clReleaseKernel(kernel);
}

} // namespace

void measure_barriers_and_launch(const Device& device, const Sizes& sizes) {
    cl_program program = device.build(source);
    reduction(device, program, sizes);
    tiny(device, program, sizes);
    round_trip(device, program, sizes);
    clReleaseProgram(program);
}

} // namespace kernel_bench
