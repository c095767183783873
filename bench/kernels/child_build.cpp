// kernel_bench part 1: the build of a small kernel, timed from
// clCreateProgramWithSource to the return of clBuildProgram and on to the
// completion of a first launch, twice in the same process.
#include "kernel_bench.hpp"

namespace kernel_bench {

namespace {

constexpr const char* vector_add_source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
)CLC";

} // namespace

int child_build() {
    Device device;
    std::printf("platform %s\n", device.platform_name().c_str());
    constexpr size_t n = 4096;
    std::vector<float> a(n), b(n), expected(n), got(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i % 1000);
        b[i] = static_cast<float>(i % 77) * 0.5f;
        expected[i] = a[i] + b[i];
    }
    cl_mem buffers[3] = {device.buffer(n * sizeof(float), a.data()),
                         device.buffer(n * sizeof(float), b.data()),
                         device.buffer(n * sizeof(float))};
    CL_CHECK(clFinish(device.queue));
    for (const char* prefix : {"", "again_"}) {
        const auto start = Clock::now();
        cl_program program = device.build(vector_add_source);
        const double build = seconds_since(start);
        cl_kernel kernel = kernel_of(program, "vector_add");
        set_args(kernel, buffers[0], buffers[1], buffers[2]);
        const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
        launch.run_once();
        const double first = seconds_since(start);
        device.read(buffers[2], n * sizeof(float), got.data());
        expect_equal("vector add (build)", got, expected);
        report((std::string(prefix) + "build_ms").c_str(), build * 1e3);
        report((std::string(prefix) + "first_ms").c_str(), first * 1e3);
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
    return any_wrong() ? 1 : 0;
}

} // namespace kernel_bench
